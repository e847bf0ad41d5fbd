//! The server's HTTP API in-process: the whole router over a temporary SQLite database,
//! each request sent with tower's `oneshot` (no socket). An input is a few requests; each
//! one's answer must be a status below 500 and, on `/api/`, a JSON error sentence when
//! refused.
//!
//! An input, as text: requests separated by lines `%%`; each request is a line
//! `METHOD PATH [white|black|umpire]` (the seat whose token it carries), then its body.
//! `{id}`, `{white}`, `{black}` and `{umpire}` in the path and body stand for the game
//! of the last request that created one (at first, a game of chess made at start).
//! So that no input runs long, engine seats play at level 1 and an analysis's answer is
//! runs at most 50 ms, read for at most 100 ms.

use axum::body::Body;
use axum::http::{header, Method, Request};
use axum::Router;
use http_body_util::BodyExt;
use menagerie_server::{app::App, store::Store};
use serde_json::Value;
use std::sync::OnceLock;
use std::time::Duration;
use tower::ServiceExt;

/// The most requests one input makes.
pub const MAX_REQUESTS: usize = 8;

/// A game the requests act on.
#[derive(Clone, Debug, Default)]
struct Seats {
    id: String,
    white: String,
    black: String,
    umpire: String,
}

impl Seats {
    fn from_created(v: &Value) -> Option<Seats> {
        let s = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
        Some(Seats {
            id: s("/id")?,
            white: s("/seats/white/token").unwrap_or_default(),
            black: s("/seats/black/token").unwrap_or_default(),
            umpire: s("/umpire/token").unwrap_or_default(),
        })
    }
    fn fill(&self, text: &str) -> String {
        text.replace("{id}", &self.id)
            .replace("{white}", &self.white)
            .replace("{black}", &self.black)
            .replace("{umpire}", &self.umpire)
    }
}

struct Server {
    rt: tokio::runtime::Runtime,
    app: std::sync::Arc<App>,
    router: Router,
    first: Seats,
    _dir: tempfile::TempDir,
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary folder: {e}"));
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("a runtime: {e}"));
        let url = dir.path().join("fuzz.sqlite").display().to_string();
        let app = rt.block_on(async {
            let store = Store::open(&url)
                .await
                .unwrap_or_else(|e| panic!("the database opens: {e}"));
            App::new(store, 1)
        });
        let router = menagerie_server::router(app.clone());
        let mut s = Server {
            rt,
            app,
            router,
            first: Seats::default(),
            _dir: dir,
        };
        let (status, body) = s.call(Method::POST, "/api/games", None, br#"{"variant":"chess"}"#);
        assert_eq!(status, 201, "the first game: {body}");
        s.first = serde_json::from_str(&body)
            .ok()
            .as_ref()
            .and_then(Seats::from_created)
            .unwrap_or_else(|| panic!("the first game's answer: {body}"));
        s
    })
}

impl Server {
    /// Sends one request; `(status, body)`.
    fn call(&self, method: Method, path: &str, token: Option<&str>, body: &[u8]) -> (u16, String) {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        if !body.is_empty() {
            req = req.header(header::CONTENT_TYPE, "application/json");
        }
        let Ok(req) = req.body(Body::from(body.to_vec())) else {
            // A path or header axum cannot even build is no request at all.
            return (0, String::new());
        };
        let analysis = path.starts_with("/api/analysis");
        self.rt.block_on(async {
            let resp = match self.router.clone().oneshot(req).await {
                Ok(r) => r,
                Err(never) => match never {},
            };
            let status = resp.status().as_u16();
            let collect = resp.into_body().collect();
            let bytes = if analysis {
                match tokio::time::timeout(Duration::from_millis(100), collect).await {
                    Ok(Ok(b)) => b.to_bytes().to_vec(),
                    _ => Vec::new(),
                }
            } else {
                collect
                    .await
                    .map(|b| b.to_bytes().to_vec())
                    .unwrap_or_default()
            };
            (status, String::from_utf8_lossy(&bytes).into_owned())
        })
    }
}

/// Engine seats at level 1, never both (an input cannot start a long game of engines);
/// an analysis's limits, when the server would accept them, brought down to a short search.
fn bounded_body(body: &str, analysis: bool) -> String {
    let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(body) else {
        return body.to_string();
    };
    if analysis {
        // (name, the server's largest, the fuzz target's largest)
        const SMALL: [(&str, u64, u64); 3] = [
            ("depth", 30, 3),
            ("nodes", 50_000_000, 5_000),
            ("movetime", 30_000, 50),
        ];
        let limits = map
            .entry("limits")
            .or_insert_with(|| Value::Object(Default::default()));
        if let Value::Object(l) = limits {
            for (name, max, small) in SMALL {
                if let Some(n) = l.get(name).and_then(Value::as_u64) {
                    if (1..=max).contains(&n) {
                        l.insert(name.into(), small.min(n).into());
                    }
                }
            }
            if !l.contains_key("movetime") {
                l.insert("movetime".into(), 50.into());
            }
        }
    }
    let mut engines = 0;
    for seat in ["white", "black"] {
        if let Some(Value::String(p)) = map.get_mut(seat) {
            if p.starts_with("engine") {
                engines += 1;
                *p = if engines == 2 { "human" } else { "engine:1" }.into();
            }
        }
    }
    Value::Object(map).to_string()
}

/// Fuzz target `server`: see the module's documentation.
pub fn requests(data: &[u8]) {
    let server = server();
    let text = String::from_utf8_lossy(data);
    let mut seats = server.first.clone();
    for part in text.split("\n%%\n").take(MAX_REQUESTS) {
        let (head, body) = part.split_once('\n').unwrap_or((part, ""));
        let mut words = head.split_whitespace();
        let (Some(method), Some(path)) = (words.next(), words.next()) else {
            continue;
        };
        let Ok(method) = Method::from_bytes(method.as_bytes()) else {
            continue;
        };
        let token = match words.next() {
            Some("white") => Some(seats.white.clone()),
            Some("black") => Some(seats.black.clone()),
            Some("umpire") => Some(seats.umpire.clone()),
            Some(other) => Some(other.to_string()),
            None => None,
        };
        let path = seats.fill(path);
        let body = bounded_body(&seats.fill(body), path.starts_with("/api/analysis"));
        let (status, answer) =
            server.call(method.clone(), &path, token.as_deref(), body.as_bytes());
        if status == 0 {
            continue;
        }
        assert!(
            status < 500,
            "{method} {path} answered {status}: {answer}\nbody: {body}"
        );
        if path.starts_with("/api/") && status >= 400 {
            let v: Value = serde_json::from_str(&answer).unwrap_or_else(|e| {
                panic!("{method} {path} answered {status}, not JSON ({e}): {answer}")
            });
            assert!(
                v["error"].as_str().is_some_and(|s| !s.is_empty()),
                "{method} {path} answered {status} without an error sentence: {answer}"
            );
        }
        if status == 201 {
            if let Some(s) = serde_json::from_str(&answer)
                .ok()
                .as_ref()
                .and_then(Seats::from_created)
            {
                seats = s;
            }
        }
    }
    // What the server's sweeper does every few seconds, after every input here: without it
    // the one long-lived server of a fuzz run holds every game ever made (1 GB by a million
    // inputs), and games are read back from the database, as after an eviction.
    server.app.evict_idle(std::time::Duration::ZERO);
}
