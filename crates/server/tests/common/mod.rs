//! A server started in the test, on an ephemeral port with a temporary SQLite file, and a
//! few helpers to speak to it.

#![allow(dead_code)]

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub struct Server {
    pub base: String,
    pub addr: std::net::SocketAddr,
    pub client: reqwest::Client,
    _dir: tempfile::TempDir,
}

/// The server's own defaults (clap's), on any free port, one engine thread, data in `data`.
fn serve_args(data: std::path::PathBuf) -> menagerie_server::ServeArgs {
    use clap::Parser as _;
    let mut args = menagerie_server::ServeArgs::parse_from(["menagerie-server", "--port", "0"]);
    args.data = data;
    args.engine_threads = Some(1);
    args
}

pub async fn start() -> Server {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let args = serve_args(dir.path().join("data"));
    let running = menagerie_server::start(&args)
        .await
        .expect("the server starts");
    Server {
        base: format!("http://{}", running.addr),
        addr: running.addr,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a client"),
        _dir: dir,
    }
}

/// A server with its options changed by `change` (e.g. a shorter `absence_seconds`).
pub async fn start_with(change: impl FnOnce(&mut menagerie_server::ServeArgs)) -> Server {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut args = serve_args(dir.path().join("data"));
    change(&mut args);
    let running = menagerie_server::start(&args)
        .await
        .expect("the server starts");
    Server {
        base: format!("http://{}", running.addr),
        addr: running.addr,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a client"),
        _dir: dir,
    }
}

/// A server on the SQLite database in the folder `data` (two servers on one folder: a
/// restart, the second replaying every game from the database).
pub async fn start_in(data: &std::path::Path) -> Server {
    let args = serve_args(data.to_path_buf());
    let running = menagerie_server::start(&args)
        .await
        .expect("the server starts");
    Server {
        base: format!("http://{}", running.addr),
        addr: running.addr,
        client: reqwest::Client::new(),
        _dir: tempfile::tempdir().expect("a temporary folder"),
    }
}

/// A server whose state (limits, game cache) the test can reach.
pub async fn start_with_app() -> (Server, std::sync::Arc<menagerie_server::app::App>) {
    start_with_app_on(None).await
}

/// The same on `database` (a PostgreSQL URL), or on a temporary SQLite file when `None`.
pub async fn start_with_app_on(
    database: Option<String>,
) -> (Server, std::sync::Arc<menagerie_server::app::App>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut args = serve_args(dir.path().join("data"));
    args.database = database;
    let running = menagerie_server::start(&args)
        .await
        .expect("the server starts");
    let s = Server {
        base: format!("http://{}", running.addr),
        addr: running.addr,
        client: reqwest::Client::new(),
        _dir: dir,
    };
    (s, running.app)
}

pub struct Created {
    pub id: String,
    pub white: Option<String>,
    pub black: Option<String>,
    pub umpire: String,
    pub body: Value,
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `(status, JSON body)` of a request.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let m = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        let mut req = self.client.request(m, self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("the server answers");
        let status = res.status().as_u16();
        let text = res.text().await.expect("a body");
        let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, v)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.call("GET", path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        self.call("POST", path, token, Some(body)).await
    }

    pub async fn create(&self, body: Value) -> Created {
        let (status, v) = self.post("/api/games", None, body).await;
        assert_eq!(status, 201, "{v}");
        Created {
            id: v["id"].as_str().expect("an id").to_string(),
            white: v["seats"]["white"]["token"].as_str().map(str::to_string),
            black: v["seats"]["black"]["token"].as_str().map(str::to_string),
            umpire: v["umpire"]["token"]
                .as_str()
                .expect("an umpire token")
                .to_string(),
            body: v,
        }
    }

    pub async fn play(&self, id: &str, token: &str, mv: &str) -> Value {
        let (status, v) = self
            .post(
                &format!("/api/games/{id}/move"),
                Some(token),
                json!({"move": mv}),
            )
            .await;
        assert_eq!(status, 200, "{mv}: {v}");
        v
    }

    pub async fn ws(&self, id: &str, token: Option<&str>, since: i64) -> Ws {
        ws_connect(&format!("ws://{}", self.addr), id, token, since).await
    }
}

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn ws_connect(base: &str, id: &str, token: Option<&str>, since: i64) -> Ws {
    let mut req = format!("{base}/api/games/{id}/ws?since={since}")
        .into_client_request()
        .expect("a request");
    if let Some(t) = token {
        req.headers_mut().insert(
            "authorization",
            format!("Bearer {t}").parse().expect("a header"),
        );
    }
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the websocket opens");
    ws
}

/// The next text message that is not a presence or chat message (those carry no version
/// and come whenever a player arrives, leaves or writes), within `secs` seconds.
pub async fn next(ws: &mut Ws, secs: u64) -> Option<Value> {
    loop {
        let m = next_any(ws, secs).await?;
        if m.get("presence").is_none() && m.get("chat").is_none() {
            return Some(m);
        }
    }
}

/// The next text message of any kind, within `secs` seconds.
pub async fn next_any(ws: &mut Ws, secs: u64) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(secs), ws.next())
            .await
            .ok()??
            .ok()?;
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).ok();
        }
    }
}

/// Messages until one with version `v` (inclusive), within `secs` seconds.
pub async fn until_version(ws: &mut Ws, v: i64, secs: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while tokio::time::Instant::now() < deadline {
        let left = deadline - tokio::time::Instant::now();
        let Some(m) = next(ws, left.as_secs().max(1)).await else {
            break;
        };
        let done = m["version"].as_i64() >= Some(v);
        out.push(m);
        if done {
            break;
        }
    }
    out
}

/// A `menagerie-server` child process (so a test can kill it with SIGKILL), killed when
/// dropped.
pub struct Proc {
    pub child: std::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server binary on `database` with one engine thread, the options `extra` and the
/// environment `env`, its errors shown with the test's, and reads its address from the first
/// line it prints.
pub fn spawn_server(database: &str, extra: &[&str], env: &[(&str, &str)]) -> Proc {
    use std::io::BufRead as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie-server"))
        .args([
            "--port",
            "0",
            "--database",
            database,
            "--engine-threads",
            "1",
        ])
        .args(extra)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("a first line");
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("an address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    Proc { child, base }
}
