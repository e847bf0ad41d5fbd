//! A real load balancer (issue 30 item 8): two `menagerie-server` processes on one PostgreSQL
//! behind Debian's nginx, round robin, no sticky sessions, websockets proxied. A friend game
//! whose players' websockets reach different processes through nginx plays to the end, each
//! turn posted to whichever process nginx picks, and both players see every turn live.
//!
//! It needs PostgreSQL and nginx, so a plain `cargo test` reports it as ignored (never as
//! passed); `.ci/run` installs nginx, starts PostgreSQL and runs it with `--ignored`. nginx
//! runs as this test's own child process, with its own configuration and prefix in a
//! temporary folder, on loopback ports (no system service).

mod support;

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{call, spawn, Ws};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// nginx as a child process, stopped with the test.
struct Nginx {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    base: String,
    dir: tempfile::TempDir,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Nginx {
    fn error_log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default()
    }
}

/// The configuration `docs/deploy.md` gives, with this test's prefix and ports; each answer
/// names the process that served it (`X-Upstream`), so the test can tell them apart.
fn config(prefix: &std::path::Path, port: u16, upstreams: &[String]) -> String {
    let servers: String = upstreams
        .iter()
        .map(|u| format!("        server {u};\n"))
        .collect();
    let p = prefix.display();
    format!(
        "daemon off;
master_process off;
error_log {p}/error.log warn;
pid {p}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {p}/body;
    proxy_temp_path {p}/proxy;
    fastcgi_temp_path {p}/fastcgi;
    uwsgi_temp_path {p}/uwsgi;
    scgi_temp_path {p}/scgi;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    upstream menagerie {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://menagerie;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
"
    )
}

fn start_nginx(upstreams: &[String]) -> Nginx {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // A free loopback port: taken, then let go for nginx.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let conf = dir.path().join("nginx.conf");
    std::fs::write(&conf, config(dir.path(), port, upstreams)).expect("the configuration");
    let bin = std::env::var("MENAGERIE_TEST_NGINX").unwrap_or_else(|_| "/usr/sbin/nginx".into());
    let child = Command::new(&bin)
        .arg("-p")
        .arg(dir.path())
        .arg("-e")
        .arg(dir.path().join("error.log"))
        .arg("-c")
        .arg(&conf)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("{bin} starts (Debian's nginx package): {e}"));
    let nginx = Nginx {
        child,
        base: format!("http://127.0.0.1:{port}"),
        dir,
    };
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "nginx did not listen on port {port}: {}",
            nginx.error_log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    nginx
}

/// A game's websocket through nginx, from version `since`, and the process nginx chose.
async fn ws_via(base: &str, id: &str, token: &str, since: i64) -> (Ws, String) {
    let url = format!(
        "{}/api/games/{id}/ws?since={since}",
        base.replacen("http://", "ws://", 1)
    );
    let mut req = url.into_client_request().expect("a websocket request");
    req.headers_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("a header"),
    );
    let (s, res) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the websocket opens through nginx");
    let upstream = res
        .headers()
        .get("x-upstream")
        .and_then(|v| v.to_str().ok())
        .expect("nginx names the process")
        .to_string();
    (s, upstream)
}

/// The next message carrying version `v` or later (10 s at most).
async fn until(ws: &mut Ws, v: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no event of version {v} within 10 s"))
            .expect("the websocket stays open")
            .expect("a message");
        if let Message::Text(t) = msg {
            let m: Value = serde_json::from_str(&t).expect("JSON");
            if m["version"].as_i64() >= Some(v) {
                return m;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and nginx: .ci/run installs nginx, starts PostgreSQL and sets MENAGERIE_TEST_POSTGRES"]
async fn a_friend_game_through_nginx_over_two_processes_plays_to_the_end_with_live_events() {
    let url = std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test");
    let a = spawn(&url, &[]);
    let b = spawn(&url, &[]);
    let upstreams: Vec<String> = [&a, &b]
        .iter()
        .map(|p| p.base.trim_start_matches("http://").to_string())
        .collect();
    let nginx = start_nginx(&upstreams);
    let c = reqwest::Client::new();
    let base = nginx.base.clone();

    let res = c
        .post(format!("{base}/api/games"))
        .json(&json!({"variant": "chess"}))
        .send()
        .await
        .expect("nginx answers");
    assert_eq!(res.status().as_u16(), 201);
    let g: Value = res.json().await.expect("JSON");
    let id = g["id"].as_str().expect("an id").to_string();
    let white = g["seats"]["white"]["token"]
        .as_str()
        .expect("White's token");
    let black = g["seats"]["black"]["token"]
        .as_str()
        .expect("Black's token");

    // White's and Black's websockets on different processes (round robin alternates; a
    // socket that lands beside White's is closed and opened again).
    let (mut white_ws, white_on) = ws_via(&base, &id, white, 0).await;
    let (mut black_ws, black_on) = {
        let mut tries = 0;
        loop {
            let (s, on) = ws_via(&base, &id, black, 0).await;
            if on != white_on {
                break (s, on);
            }
            tries += 1;
            assert!(tries < 10, "nginx sent every websocket to {on}");
        }
    };
    assert!(upstreams.contains(&white_on) && upstreams.contains(&black_on));
    assert_ne!(white_on, black_on);
    for ws in [&mut white_ws, &mut black_ws] {
        let first = until(ws, 0).await;
        assert_eq!(
            (first["version"].clone(), first["event"]["type"].clone()),
            (json!(0), json!("sync"))
        );
    }

    // The scholar's mate, each turn posted through nginx to whichever process it picks.
    let line = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
    let mut posted_to = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        let token = if i % 2 == 0 { white } else { black };
        let res = c
            .post(format!("{base}/api/games/{id}/move"))
            .bearer_auth(token)
            .json(&json!({"move": mv}))
            .send()
            .await
            .expect("nginx answers");
        posted_to.push(
            res.headers()
                .get("x-upstream")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string(),
        );
        let status = res.status().as_u16();
        let v: Value = res.json().await.expect("JSON");
        assert_eq!(status, 200, "{mv}: {v}");
        let version = i as i64 + 1;
        for (who, ws) in [("White", &mut white_ws), ("Black", &mut black_ws)] {
            let m = until(ws, version).await;
            assert_eq!(
                (m["version"].clone(), m["event"]["human"].clone()),
                (json!(version), json!(mv)),
                "{who} sees {mv} live"
            );
        }
    }
    // Both processes served turns (round robin), and the players were on both.
    for u in &upstreams {
        assert!(posted_to.contains(u), "no turn went to {u}: {posted_to:?}");
    }
    // The end, seen live by both players, and the same game read through each process.
    for ws in [&mut white_ws, &mut black_ws] {
        let m = until(ws, 8).await;
        assert_eq!(m["event"]["type"], "end");
        assert_eq!(m["state"]["outcome"]["winner"], "white");
    }
    for p in [&a, &b] {
        let (st, v) = call(&c, "GET", &format!("{}/api/games/{id}", p.base), None, None)
            .await
            .expect("the process answers");
        assert_eq!(st, 200);
        assert_eq!(
            (v["version"].clone(), v["outcome"]["winner"].clone()),
            (json!(8), json!("white"))
        );
        let human: Vec<&str> = v["moves"]
            .as_array()
            .expect("the moves")
            .iter()
            .filter_map(|m| m["human"].as_str())
            .collect();
        assert_eq!(human, line);
    }
    let log = nginx.error_log();
    assert!(!log.contains("[error]") && !log.contains("[crit]"), "{log}");
}
