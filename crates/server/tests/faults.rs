//! The database failing under the server (issue 15 item 5), with the server as a child
//! process:
//!
//! * writes failing midway (the `MENAGERIE_FAULT_FILE` seam of `store.rs`): every action is
//!   refused `503` with a JSON sentence, the websockets announce nothing, nothing is
//!   half-written (the same state after a kill -9), and the server recovers when the fault
//!   clears;
//! * the SQLite file locked by another process (a real fault): the turn waits out the busy
//!   timeout, is refused `503`, and succeeds once the lock is gone;
//! * PostgreSQL restarted under two server processes: each process's listener reconnects and
//!   a player connected to one process sees the turns made through the other, catching up by
//!   version (ignored: `.ci/run` runs it with PostgreSQL, like `postgres.rs`).

mod support;

use serde_json::{json, Value};
use sqlx::Connection;
use std::time::{Duration, Instant};
use support::{call, create_chess, moves_of, next, spawn};

const FAULT: &str = "the database failed: a fault injected for testing (MENAGERIE_FAULT_FILE)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_failing_are_refused_503_nothing_half_written_and_the_server_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    let fault = dir.path().join("fault");
    let fault_s = fault.display().to_string();
    let p = spawn(&db, &[("MENAGERIE_FAULT_FILE", &fault_s)]);
    let c = reqwest::Client::new();
    let base = p.base.clone();
    let (id, w, b, _) = create_chess(&c, &base).await;
    let game = format!("{base}/api/games/{id}");
    for (t, m) in [(&w, "e4"), (&b, "e5")] {
        let (st, v) = call(
            &c,
            "POST",
            &format!("{game}/move"),
            Some(t),
            Some(json!({"move": m})),
        )
        .await
        .unwrap();
        assert_eq!(st, 200, "{v}");
    }
    let mut black_ws = support::ws(&p.ws_base(), &id, Some(&b), 2).await.unwrap();
    assert_eq!(
        next(&mut black_ws, 5000).await.unwrap()["event"]["type"],
        "sync"
    );
    let (_, before) = call(&c, "GET", &game, Some(&w), None).await.unwrap();

    std::fs::write(&fault, b"").unwrap();
    let turn = json!({"error": format!("the turn was not saved, so it was not played: {FAULT}")})
        .to_string();
    for (path, token, body) in [
        ("move", &w, json!({"move": "Nf3"})),
        ("offer-draw", &w, json!({})),
        ("resign", &b, json!({})),
        ("takeback", &b, json!({"action": "request"})),
    ] {
        let (st, v) = call(
            &c,
            "POST",
            &format!("{game}/{path}"),
            Some(token),
            Some(body),
        )
        .await
        .unwrap();
        assert_eq!((st, v.to_string()), (503, turn.clone()), "{path}");
    }
    // A new game or an imported one is not half-created either.
    let (st, v) = call(
        &c,
        "POST",
        &format!("{base}/api/games"),
        None,
        Some(json!({"variant": "chess"})),
    )
    .await
    .unwrap();
    assert_eq!((st, v), (503, json!({"error": FAULT})));
    let (st, v) = call(
        &c,
        "POST",
        &format!("{base}/api/games/import"),
        None,
        Some(json!({"record": "[Variant \"chess\"]\n\n1. e4 e5 *\n"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 503, "{v}");
    // Reading goes on; the game is as it was; the websocket announced nothing.
    let (st, during) = call(&c, "GET", &game, Some(&w), None).await.unwrap();
    assert_eq!(st, 200);
    // Who is at the table (and so when an absence may be claimed) is not the game: the
    // black socket opened between the two reads.
    assert_eq!(without_presence(during), without_presence(before));
    assert!(next(&mut black_ws, 300).await.is_none());

    // The fault clears: the same turn is played, and only it is announced.
    std::fs::remove_file(&fault).unwrap();
    let (st, v) = call(
        &c,
        "POST",
        &format!("{game}/move"),
        Some(&w),
        Some(json!({"move": "Nf3"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["version"], 3);
    let m = next(&mut black_ws, 5000).await.unwrap();
    assert_eq!(
        (m["version"].clone(), m["event"]["human"].clone()),
        (json!(3), json!("Nf3"))
    );
    let (st, _) = call(
        &c,
        "POST",
        &format!("{base}/api/games"),
        None,
        Some(json!({"variant": "chess"})),
    )
    .await
    .unwrap();
    assert_eq!(st, 201);

    // Nothing half-written survives a kill -9 either: two games, the first with three turns.
    let log = p.kill9();
    let q = spawn(&db, &[]);
    let (_, v) = call(&c, "GET", &format!("{}/api/games/{id}", q.base), None, None)
        .await
        .unwrap();
    assert_eq!(moves_of(&v), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(v["version"], 3);
    assert_eq!(v["draw_offer"], Value::Null);
    assert_eq!(v["takeback_request"], Value::Null);
    let (_, list) = call(&c, "GET", &format!("{}/api/games", q.base), None, None)
        .await
        .unwrap();
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list}");
    assert!(!log.contains("panicked"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_sqlite_file_refuses_the_turn_503_then_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    let p = spawn(&db, &[]);
    let c = reqwest::Client::new();
    let (id, w, _, _) = create_chess(&c, &p.base).await;
    let game = format!("{}/api/games/{id}", p.base);
    // Another process holds the write lock (as a backup tool or a stray sqlite3 shell might).
    let mut other = sqlx::SqliteConnection::connect(&format!("sqlite://{db}"))
        .await
        .unwrap();
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut other)
        .await
        .unwrap();
    let start = Instant::now();
    let (st, v) = call(
        &c,
        "POST",
        &format!("{game}/move"),
        Some(&w),
        Some(json!({"move": "d4"})),
    )
    .await
    .unwrap();
    let waited = start.elapsed();
    assert_eq!(st, 503, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.starts_with("the turn was not saved, so it was not played: the database failed:")
            && e.contains("database is locked"),
        "{e}"
    );
    assert!(
        waited >= Duration::from_secs(9),
        "{waited:?}: the busy timeout is 10 s"
    );
    let (_, v) = call(&c, "GET", &game, None, None).await.unwrap();
    assert_eq!(v["version"], 0);
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    let (st, v) = call(
        &c,
        "POST",
        &format!("{game}/move"),
        Some(&w),
        Some(json!({"move": "d4"})),
    )
    .await
    .unwrap();
    assert_eq!((st, v["version"].clone()), (200, json!(1)));
}

/// Runs `MENAGERIE_TEST_PG_RESTART` (a shell command that restarts the PostgreSQL server).
/// The state without who is connected and the absence count, which change with the sockets
/// and the clock rather than with the game.
fn without_presence(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("connected");
        o.remove("absence");
    }
    v
}

fn restart_postgres() {
    let cmd = std::env::var("MENAGERIE_TEST_PG_RESTART")
        .expect("MENAGERIE_TEST_PG_RESTART is a command that restarts PostgreSQL");
    let st = std::process::Command::new("sh")
        .args(["-c", &cmd])
        .status()
        .expect("the restart command runs");
    assert!(st.success(), "{cmd}: {st}");
}

/// Posts a turn, retrying while PostgreSQL comes back (503, or the connection refused).
async fn play_retrying(c: &reqwest::Client, url: &str, token: &str, mv: &str) -> Value {
    let start = Instant::now();
    loop {
        match call(c, "POST", url, Some(token), Some(json!({"move": mv}))).await {
            Ok((200, v)) => return v,
            Ok((503, _)) | Err(_) => {}
            Ok((st, v)) => panic!("{mv}: {st} {v}"),
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "PostgreSQL never came back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and a way to restart it: .ci/run sets MENAGERIE_TEST_POSTGRES and MENAGERIE_TEST_PG_RESTART"]
async fn postgres_restarted_under_two_processes_listeners_reconnect_and_clients_catch_up() {
    let url = std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test");
    let a = spawn(&url, &[]);
    let b = spawn(&url, &[]);
    let c = reqwest::Client::new();
    let (id, w, bl, _) = create_chess(&c, &a.base).await;
    // Black watches through A; White plays through B.
    let mut black_on_a = support::ws(&a.ws_base(), &id, Some(&bl), 0).await.unwrap();
    assert_eq!(
        next(&mut black_on_a, 5000).await.unwrap()["event"]["type"],
        "sync"
    );
    let on_b = format!("{}/api/games/{id}/move", b.base);
    let on_a = format!("{}/api/games/{id}/move", a.base);
    let mut expected = Vec::new();
    let line = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"];
    for round in 0..3 {
        restart_postgres();
        // At once after the restart: White through B, Black through A.
        let (wm, bm) = (line[2 * round], line[2 * round + 1]);
        play_retrying(&c, &on_b, &w, wm).await;
        expected.push(wm);
        // A's listener reconnected: Black, connected to A all along, sees White's turn.
        let mut got = Vec::new();
        while got.is_empty() {
            let m = next(&mut black_on_a, 10_000)
                .await
                .unwrap_or_else(|| panic!("round {round}: A never announced {wm} made through B"));
            got.push(m["event"]["human"].as_str().unwrap_or_default().to_string());
            assert_eq!(m["version"], json!(expected.len()));
        }
        assert_eq!(got, [wm]);
        play_retrying(&c, &on_a, &bl, bm).await;
        expected.push(bm);
        let m = next(&mut black_on_a, 10_000).await.unwrap();
        assert_eq!(
            (m["version"].clone(), m["event"]["human"].clone()),
            (json!(expected.len()), json!(bm))
        );
    }
    // A client reconnecting to B from version 2 catches up by version.
    let mut white_on_b = support::ws(&b.ws_base(), &id, Some(&w), 2).await.unwrap();
    let mut versions = Vec::new();
    while versions.len() < 4 {
        let m = next(&mut white_on_b, 10_000)
            .await
            .expect("the missed events");
        versions.push(m["version"].as_i64().unwrap());
    }
    assert_eq!(versions, [3, 4, 5, 6]);
    for base in [&a.base, &b.base] {
        let (_, v) = call(&c, "GET", &format!("{base}/api/games/{id}"), None, None)
            .await
            .unwrap();
        let human: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["human"].as_str())
            .collect();
        assert_eq!(human, expected);
    }
}
