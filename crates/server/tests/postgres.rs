//! Past one machine (issue 10 item 6): two `menagerie-server` processes on one PostgreSQL
//! are one service. It needs a PostgreSQL server, so a plain `cargo test` reports it as
//! ignored (never as passed); `.ci/run` starts PostgreSQL, sets `MENAGERIE_TEST_POSTGRES` to
//! its URL and runs it with `--ignored`, where a missing URL fails.

mod common;

use common::{next, until_version, ws_connect};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Proc {
    child: Child,
    base: String,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(database: &str) -> Proc {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie-server"))
        .args([
            "--port",
            "0",
            "--database",
            database,
            "--engine-threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut line = String::new();
    BufReader::new(stdout)
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

async fn post(c: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut r = c.post(url).json(&body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let res = r.send().await.expect("an answer");
    let st = res.status().as_u16();
    (st, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn a_turn_made_through_one_process_reaches_a_player_connected_to_another() {
    let url = std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test");
    let a = spawn(&url);
    let b = spawn(&url);
    let c = reqwest::Client::new();
    let (st, g) = post(
        &c,
        format!("{}/api/games", a.base),
        None,
        json!({"variant": "chess"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let w = g["seats"]["white"]["token"].as_str().unwrap().to_string();
    let bl = g["seats"]["black"]["token"].as_str().unwrap().to_string();
    // Black watches through A; White plays through B.
    let ws_a = |base: &str| base.replacen("http://", "ws://", 1);
    let mut black_on_a = ws_connect(&ws_a(&a.base), &id, Some(&bl), 0).await;
    assert_eq!(
        next(&mut black_on_a, 5).await.unwrap()["event"]["type"],
        "sync"
    );
    let (st, v) = post(
        &c,
        format!("{}/api/games/{id}/move", b.base),
        Some(&w),
        json!({"move": "e4"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let m = until_version(&mut black_on_a, 1, 5).await;
    let last = m.last().expect("the turn reaches A");
    assert_eq!(last["version"], 1);
    assert_eq!(last["event"]["human"], "e4");
    // Black answers through A; White, watching B, sees it; a stale write is refused.
    let mut white_on_b = ws_connect(&ws_a(&b.base), &id, Some(&w), 1).await;
    next(&mut white_on_b, 5).await.unwrap();
    let (st, _) = post(
        &c,
        format!("{}/api/games/{id}/move", a.base),
        Some(&bl),
        json!({"move": "c5"}),
    )
    .await;
    assert_eq!(st, 200);
    let m = until_version(&mut white_on_b, 2, 5).await;
    assert_eq!(m.last().unwrap()["event"]["human"], "c5");
    let (st, v) = post(
        &c,
        format!("{}/api/games/{id}/move", b.base),
        Some(&bl),
        json!({"move": "d6"}),
    )
    .await;
    assert_eq!(st, 409, "{v}");
    // Both processes serve the same game.
    for base in [&a.base, &b.base] {
        let v: Value = c
            .get(format!("{base}/api/games/{id}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(v["version"], 2);
    }
}
