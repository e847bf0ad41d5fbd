//! The server as a child process (so it can be killed with SIGKILL, its memory measured and
//! its output read), and a small client, for the soak, fault and security tests.

#![allow(dead_code)]

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A `menagerie-server` child process.
pub struct Proc {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// Everything it wrote on stdout and stderr so far.
    pub log: Arc<Mutex<String>>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn collect(mut r: impl Read + Send + 'static, log: Arc<Mutex<String>>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut l) = log.lock() {
                l.push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        }
    });
}

/// Starts the server binary on `database` with `env`, reads its address from its first line
/// and keeps collecting its output.
pub fn spawn(database: &str, env: &[(&str, &str)]) -> Proc {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_menagerie-server"));
    cmd.args([
        "--port",
        "0",
        "--database",
        database,
        "--engine-threads",
        "1",
        // Soaks create hundreds of games from one address; the limits have their own tests.
        "--games-per-minute",
        "1000000",
        "--open-games",
        "1000000",
        "--sockets-per-address",
        "1000000",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the server binary starts");
    let log = Arc::new(Mutex::new(String::new()));
    let mut out = BufReader::new(child.stdout.take().expect("its stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("a first line");
    log.lock().unwrap().push_str(&line);
    collect(out, log.clone());
    collect(child.stderr.take().expect("its stderr"), log.clone());
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("an address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    Proc { child, base, log }
}

impl Proc {
    /// `ws://127.0.0.1:PORT`.
    pub fn ws_base(&self) -> String {
        self.base.replacen("http://", "ws://", 1)
    }
    /// The resident memory of the process in KiB.
    pub fn rss_kib(&self) -> u64 {
        rss_kib(self.child.id())
    }
    /// SIGKILL, and wait for it to die.
    pub fn kill9(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

/// VmRSS of process `pid` in KiB (0 when unreadable).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// A request's outcome: `Ok((status, body))`, or `Err` when the connection failed (the
/// server is down or died while answering).
pub async fn call(
    c: &reqwest::Client,
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value), String> {
    let m = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
    let mut r = c.request(m, url).timeout(Duration::from_secs(30));
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let res = r.send().await.map_err(|e| e.to_string())?;
    let st = res.status().as_u16();
    let text = res.text().await.map_err(|e| e.to_string())?;
    Ok((
        st,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

/// A new human-vs-human game: `(id, white token, black token, umpire token)`.
pub async fn create(
    c: &reqwest::Client,
    base: &str,
    body: Value,
) -> (String, String, String, String) {
    let (st, v) = call(c, "POST", &format!("{base}/api/games"), None, Some(body))
        .await
        .expect("the server answers");
    assert_eq!(st, 201, "{v}");
    let s = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    (
        s("/id"),
        s("/seats/white/token"),
        s("/seats/black/token"),
        s("/umpire/token"),
    )
}

/// A chess game between two people.
pub async fn create_chess(c: &reqwest::Client, base: &str) -> (String, String, String, String) {
    create(c, base, json!({"variant": "chess"})).await
}

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a game's websocket from version `since`.
pub async fn ws(ws_base: &str, id: &str, token: Option<&str>, since: i64) -> Result<Ws, String> {
    let mut req = format!("{ws_base}/api/games/{id}/ws?since={since}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(t) = token {
        req.headers_mut().insert(
            "authorization",
            format!("Bearer {t}").parse().map_err(|_| "a header")?,
        );
    }
    let (s, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| e.to_string())?;
    Ok(s)
}

/// The next text message as JSON, or `None` after `ms` milliseconds or when closed; presence
/// and chat messages (no version: a player arriving, leaving or writing) are passed over.
pub async fn next(ws: &mut Ws, ms: u64) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_millis(ms), ws.next())
            .await
            .ok()??
            .ok()?;
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).ok()?;
            if v.get("presence").is_none() && v.get("chat").is_none() {
                return Some(v);
            }
        }
    }
}

/// A small deterministic random generator (SplitMix64), so a failing run can be repeated
/// from its seed.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The seed of a run: `MENAGERIE_SOAK_SEED` or the time.
pub fn seed() -> u64 {
    std::env::var("MENAGERIE_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
}

/// A number from the environment variable `name`, else `default`.
pub fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The canonical texts of a state's turns.
pub fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["canonical"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
