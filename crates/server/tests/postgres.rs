//! Past one machine (issue 10 item 6): two `menagerie-server` processes on one PostgreSQL
//! are one service. It needs a PostgreSQL server, so a plain `cargo test` reports it as
//! ignored (never as passed); `.ci/run` starts PostgreSQL, sets `MENAGERIE_TEST_POSTGRES` to
//! its URL and runs it with `--ignored`, where a missing URL fails.

mod common;

use common::{next, until_version, ws_connect, Proc};
use serde_json::{json, Value};

fn spawn(database: &str) -> Proc {
    common::spawn_server(database, &[], &[])
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

/// The database of these tests, from `MENAGERIE_TEST_POSTGRES`.
fn database() -> String {
    std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test")
}

/// A new chess game through `base`: `(id, White's token, Black's token)`.
async fn chess(c: &reqwest::Client, base: &str) -> (String, String, String) {
    let (st, g) = post(
        c,
        format!("{base}/api/games"),
        None,
        json!({"variant": "chess"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let s = |p: &str| g.pointer(p).and_then(Value::as_str).unwrap().to_string();
    (s("/id"), s("/seats/white/token"), s("/seats/black/token"))
}

/// 100 races between two processes: the same player sends two different turns at once, one
/// through each process. Exactly one is played (200), the other refused (409), and both
/// processes then hold the same game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn a_hundred_races_between_two_processes_have_one_winner_each() {
    let url = database();
    let (a, b) = (spawn(&url), spawn(&url));
    let c = reqwest::Client::new();
    let (mut id, mut w, mut bl) = chess(&c, &a.base).await;
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    for race in 0..100 {
        // The legal turns are in the mover's own view: White's first, else Black's.
        let mut s = Value::Null;
        for t in [&w, &bl] {
            s = c
                .get(format!("{}/api/games/{id}", a.base))
                .bearer_auth(t)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if s["you"] == s["turn"] {
                break;
            }
        }
        let legal: Vec<String> = s["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["canonical"].as_str().unwrap().to_string())
            .collect();
        if !s["outcome"].is_null() || legal.len() < 2 {
            (id, w, bl) = chess(&c, &b.base).await;
            continue;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let i = (rng >> 33) as usize % legal.len();
        let j = (i + 1 + (rng >> 17) as usize % (legal.len() - 1)) % legal.len();
        let token = if s["turn"] == "white" { &w } else { &bl };
        let version = s["version"].as_i64().unwrap();
        let (ra, rb) = tokio::join!(
            post(
                &c,
                format!("{}/api/games/{id}/move", a.base),
                Some(token),
                json!({"move": legal[i]})
            ),
            post(
                &c,
                format!("{}/api/games/{id}/move", b.base),
                Some(token),
                json!({"move": legal[j]})
            ),
        );
        let mut statuses = [ra.0, rb.0];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "race {race}: {} / {}", ra.1, rb.1);
        let winner = if ra.0 == 200 { &legal[i] } else { &legal[j] };
        for base in [&a.base, &b.base] {
            let v: Value = c
                .get(format!("{base}/api/games/{id}"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let moves = v["moves"].as_array().unwrap();
            assert_eq!(
                (
                    v["moves"].as_array().unwrap().len() as i64,
                    moves.last().unwrap()["canonical"].as_str().unwrap()
                ),
                (version + 1, winner.as_str()),
                "race {race} through {base}"
            );
        }
    }
}

/// No sticky sessions: each player watches one process and posts every turn through the
/// other, the moment the opponent's turn arrives on its websocket (before the other process
/// may have heard of it). Every turn is played, none refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn a_turn_posted_to_a_process_that_has_not_heard_of_the_last_one_is_played() {
    let url = database();
    let (a, b) = (spawn(&url), spawn(&url));
    let c = reqwest::Client::new();
    let ws = |p: &Proc| p.base.replacen("http://", "ws://", 1);
    let mut played = 0;
    for game in 0..4 {
        let (id, w, bl) = chess(&c, &a.base).await;
        // White watches A and posts through B; Black watches B and posts through A.
        let mut sockets = [
            ws_connect(&ws(&a), &id, Some(&w), 0).await,
            ws_connect(&ws(&b), &id, Some(&bl), 0).await,
        ];
        let posts = [&b.base, &a.base];
        let tokens = [&w, &bl];
        let mut state = next(&mut sockets[0], 5).await.unwrap()["state"].clone();
        next(&mut sockets[1], 5).await.unwrap();
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64 ^ game;
        for ply in 0..30 {
            let legal = state["legal"].as_array().unwrap().clone();
            if !state["outcome"].is_null() || legal.is_empty() {
                break;
            }
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = legal[(rng >> 33) as usize % legal.len()]["canonical"]
                .as_str()
                .unwrap()
                .to_string();
            let me = ply % 2;
            let (st, v) = post(
                &c,
                format!("{}/api/games/{id}/move", posts[me]),
                Some(tokens[me]),
                json!({"move": mv}),
            )
            .await;
            assert_eq!(st, 200, "game {game} ply {ply} {mv}: {v}");
            played += 1;
            // The opponent's own process tells it; it answers at once through the other.
            let version = ply as i64 + 1;
            let seen = until_version(&mut sockets[1 - me], version, 10).await;
            let last = seen.last().unwrap();
            assert_eq!(last["version"].as_i64(), Some(version));
            state = last["state"].clone();
            until_version(&mut sockets[me], version, 10).await;
        }
    }
    assert!(played >= 60, "{played} turns");
}

/// A turn committed without its announcement (a process killed between its commit and its
/// NOTIFY, simulated by writing the event straight into the database) still reaches a player
/// watching another process: every process polls for what it was not told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn a_turn_never_announced_still_reaches_the_players_of_other_processes() {
    use sqlx::Connection;
    let url = database();
    let a = spawn(&url);
    let c = reqwest::Client::new();
    // A turn as the server stores it, taken from a game played normally.
    let (model, w, _) = chess(&c, &a.base).await;
    let (st, _) = post(
        &c,
        format!("{}/api/games/{model}/move", a.base),
        Some(&w),
        json!({"move": "e4"}),
    )
    .await;
    assert_eq!(st, 200);
    let mut db = sqlx::PgConnection::connect(&url).await.unwrap();
    let data: String =
        sqlx::query_scalar("SELECT data FROM events WHERE game_id = $1 AND version = 1")
            .bind(&model)
            .fetch_one(&mut db)
            .await
            .unwrap();
    let (id, _, bl) = chess(&c, &a.base).await;
    let mut black = ws_connect(&a.base.replacen("http://", "ws://", 1), &id, Some(&bl), 0).await;
    assert_eq!(next(&mut black, 5).await.unwrap()["version"], 0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    sqlx::query("INSERT INTO events (game_id, version, data, created_at) VALUES ($1, 1, $2, $3)")
        .bind(&id)
        .bind(&data)
        .bind(now)
        .execute(&mut db)
        .await
        .unwrap();
    sqlx::query("UPDATE games SET updated_at = $2 WHERE id = $1")
        .bind(&id)
        .bind(now)
        .execute(&mut db)
        .await
        .unwrap();
    // The poll runs every second; 10 s is the test's patience, not the measure.
    let m = until_version(&mut black, 1, 10).await;
    let last = m.last().expect("the unannounced turn arrives");
    assert_eq!(
        (last["version"].clone(), last["event"]["human"].clone()),
        (json!(1), json!("e4"))
    );
}
