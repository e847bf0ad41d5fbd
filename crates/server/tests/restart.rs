//! Nothing lost: a `menagerie-server` child process killed with SIGKILL mid-game, started
//! again on the same database, serves every game as last acknowledged, and an engine that
//! was thinking thinks again (issue 10 item 5).

mod common;
use common::Proc;

use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Starts the server binary with the options `extra`.
fn spawn(database: &str, extra: &[&str]) -> Proc {
    common::spawn_server(database, extra, &[])
}

async fn call(
    c: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = c.request(method, url);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let res = r.send().await.expect("an answer");
    let st = res.status().as_u16();
    (st, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_game_then_restart_loses_nothing_and_the_engine_thinks_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    let c = reqwest::Client::new();
    let p = spawn(&db, &[]);
    // A game between two people, played quickly; and one against a slow engine.
    let (_, g) = call(
        &c,
        reqwest::Method::POST,
        format!("{}/api/games", p.base),
        None,
        Some(json!({"variant": "chess"})),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let w = g["seats"]["white"]["token"].as_str().unwrap().to_string();
    let b = g["seats"]["black"]["token"].as_str().unwrap().to_string();
    let (_, e) = call(
        &c,
        reqwest::Method::POST,
        format!("{}/api/games", p.base),
        None,
        Some(json!({"variant": "cypher", "black": "engine:8"})),
    )
    .await;
    let eid = e["id"].as_str().unwrap().to_string();
    let ew = e["seats"]["white"]["token"].as_str().unwrap().to_string();
    let (_, st) = call(
        &c,
        reqwest::Method::GET,
        format!("{}/api/games/{eid}", p.base),
        Some(&ew),
        None,
    )
    .await;
    let first = st["legal"][0]["canonical"].as_str().unwrap().to_string();
    let (status, _) = call(
        &c,
        reqwest::Method::POST,
        format!("{}/api/games/{eid}/move", p.base),
        Some(&ew),
        Some(json!({"move": first})),
    )
    .await;
    assert_eq!(status, 200);
    let moves = [
        "Nf3", "Nf6", "Nc3", "Nc6", "e4", "e5", "d3", "d6", "Be2", "Be7",
    ];
    let mut acknowledged = 0;
    for (i, m) in moves.iter().enumerate() {
        let t = if i % 2 == 0 { &w } else { &b };
        let (status, v) = call(
            &c,
            reqwest::Method::POST,
            format!("{}/api/games/{id}/move", p.base),
            Some(t),
            Some(json!({"move": m})),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        acknowledged += 1;
    }
    // The engine (level 8: up to 1.6 seconds) is thinking on Cypher now: kill -9.
    let mut p = p;
    p.child.kill().expect("SIGKILL");
    p.child.wait().expect("it dies");
    drop(p);

    let q = spawn(&db, &[]);
    let (_, v) = call(
        &c,
        reqwest::Method::GET,
        format!("{}/api/games/{id}", q.base),
        None,
        None,
    )
    .await;
    assert_eq!(v["version"], acknowledged);
    let played: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["human"].as_str())
        .collect();
    assert_eq!(played, moves);
    // Play on after the restart.
    let (status, _) = call(
        &c,
        reqwest::Method::POST,
        format!("{}/api/games/{id}/move", q.base),
        Some(&w),
        Some(json!({"move": "d4"})),
    )
    .await;
    assert_eq!(status, 200);
    // The engine's turn arrives without anyone asking.
    let start = Instant::now();
    loop {
        let (_, v) = call(
            &c,
            reqwest::Method::GET,
            format!("{}/api/games/{eid}", q.base),
            None,
            None,
        )
        .await;
        if v["version"].as_i64() >= Some(2) {
            assert_eq!(v["moves"].as_array().map(Vec::len), Some(2));
            assert_eq!(v["turn"], "white");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the engine never answered: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
