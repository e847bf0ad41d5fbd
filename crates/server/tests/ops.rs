//! What an operator relies on (issue 30, items 1, 5 and 9): a long record is imported in
//! linear time off the runtime and holds up no other request; a record over the bound is
//! refused with a sentence; half-open requests and idle connections are closed after their
//! timeouts; one address holds only so many connections; `GET /healthz` follows the
//! database; `/metrics` names every series after some traffic.

mod common;

use clap::Parser as _;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A 4,000-ply game of Little Cheops Imperial played at random through the library (quiet
/// turns preferred; `cargo run -p menagerie-variants --example long_game`).
const LONG_RECORD: &str = include_str!("data/imperial-4000.pgn");

/// A server started with the extra options `flags`, its data in a temporary folder.
async fn start_with(
    flags: &[&str],
) -> (
    String,
    std::net::SocketAddr,
    Arc<menagerie_server::app::App>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut args = menagerie_server::ServeArgs::parse_from(
        ["menagerie-server", "--port", "0"]
            .iter()
            .chain(flags.iter()),
    );
    args.data = dir.path().join("data");
    args.engine_threads = Some(1);
    let running = menagerie_server::start(&args)
        .await
        .expect("the server starts");
    (
        format!("http://{}", running.addr),
        running.addr,
        running.app,
        dir,
    )
}

/// Reads from `stream` until the server closes it; the bytes it wrote meanwhile.
async fn read_to_close(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(within, read).await.ok()?;
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Two 4,000-ply imports at once, on a runtime of one worker thread: `GET /api/variants`,
/// sent while they run, is answered before either finishes (the replay runs on blocking
/// threads). Before, each import replayed on the worker for seconds (its cost grew with the
/// square of the length), and the other request waited for both.
#[test]
fn long_imports_hold_up_no_other_request() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let (base, _, _, _dir) = start_with(&["--games-per-minute", "100"]).await;
        let client = reqwest::Client::new();
        let done = Arc::new(AtomicUsize::new(0));
        let mut imports = Vec::new();
        for _ in 0..2 {
            let (client, base, done) = (client.clone(), base.clone(), done.clone());
            imports.push(tokio::spawn(async move {
                let r = client
                    .post(format!("{base}/api/games/import"))
                    .header("content-type", "application/x-chess-pgn")
                    .body(LONG_RECORD)
                    .send()
                    .await
                    .expect("import sent");
                let status = r.status().as_u16();
                let v: Value = r.json().await.expect("json");
                (status, v, done.fetch_add(1, Ordering::SeqCst))
            }));
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
        let r = client
            .get(format!("{base}/api/variants"))
            .send()
            .await
            .expect("variants");
        assert_eq!(r.status().as_u16(), 200);
        let finished_before = done.load(Ordering::SeqCst);
        let mut ids = Vec::new();
        for i in imports {
            let (status, v, _) = i.await.expect("import task");
            assert_eq!(status, 201, "{v}");
            ids.push(v["id"].as_str().expect("id").to_string());
        }
        assert_eq!(
            finished_before, 0,
            "the variants were answered after an import finished"
        );
        // Every turn is there, and the game reads back.
        let r: Value = client
            .get(format!("{base}/api/games/{}", ids[0]))
            .send()
            .await
            .expect("state")
            .json()
            .await
            .expect("json");
        assert_eq!(r["moves"].as_array().map(Vec::len), Some(4000));
        assert_eq!(r["version"], 4000);
    });
}

/// A record over the bound is refused with one sentence, before anything is replayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_over_the_bound_is_refused() {
    let (base, _, _, _dir) = start_with(&[]).await;
    let mut record = String::from("[Variant \"chess\"]\n\n");
    for _ in 0..1501 {
        record.push_str("Nf3 Nf6 Ng1 Ng8 ");
    }
    let r = reqwest::Client::new()
        .post(format!("{base}/api/games/import"))
        .header("content-type", "application/x-chess-pgn")
        .body(record)
        .send()
        .await
        .expect("sent");
    assert_eq!(r.status().as_u16(), 400);
    let v: Value = r.json().await.expect("json");
    assert_eq!(
        v["error"],
        "a record imported here holds at most 6000 turns, and this one has 6004"
    );
}

/// A request whose header never ends is closed after the header timeout; one whose body
/// never ends is answered and closed after the body timeout; a connection that sends nothing
/// is closed after the idle timeout. Before, each was held forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_requests_and_idle_connections_are_closed() {
    let (_, addr, _, _dir) = start_with(&[
        "--header-timeout",
        "0.5",
        "--body-timeout",
        "0.5",
        "--idle-timeout",
        "1",
    ])
    .await;
    // Half a header.
    let mut half = TcpStream::connect(addr).await.expect("connect");
    half.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let answer = read_to_close(&mut half, Duration::from_secs(5)).await;
    assert!(answer.is_some(), "the half-open header was held past 5 s");
    // Half a body.
    let mut body = TcpStream::connect(addr).await.expect("connect");
    body.write_all(b"POST /api/position HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"variant\":")
        .await
        .expect("write");
    let answer = read_to_close(&mut body, Duration::from_secs(5))
        .await
        .expect("the half-sent body was held past 5 s");
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    // Nothing at all.
    let mut idle = TcpStream::connect(addr).await.expect("connect");
    let answer = read_to_close(&mut idle, Duration::from_secs(5)).await;
    assert_eq!(
        answer.as_deref(),
        Some(""),
        "the idle connection was held past 5 s"
    );
    // A whole request on a fresh connection is served as ever.
    let mut whole = TcpStream::connect(addr).await.expect("connect");
    whole
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let answer = read_to_close(&mut whole, Duration::from_secs(5))
        .await
        .expect("answered");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// One address may hold `--connections-per-address` connections; the next is answered 429
/// with a sentence and closed; once one closes, a new one is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_limited() {
    let (_, addr, _, _dir) = start_with(&["--connections-per-address", "3"]).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut s = TcpStream::connect(addr).await.expect("connect");
        // A request answered keeps the connection open (keep-alive) and proves it counted.
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let mut buf = [0u8; 1024];
        let n = s.read(&mut buf).await.expect("answer");
        assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
        held.push(s);
    }
    let mut fourth = TcpStream::connect(addr).await.expect("connect");
    let answer = read_to_close(&mut fourth, Duration::from_secs(5))
        .await
        .expect("closed");
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.ends_with(
            "{\"error\":\"this address has 3 connections open, the most allowed; close one first\"}"
        ),
        "{answer}"
    );
    drop(held.pop());
    // The server notices the close when it next reads: retry briefly.
    let mut served = false;
    for _ in 0..50 {
        let mut s = TcpStream::connect(addr).await.expect("connect");
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let answer = read_to_close(&mut s, Duration::from_secs(5))
            .await
            .unwrap_or_default();
        if answer.starts_with("HTTP/1.1 200") {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        served,
        "a connection was refused after one of the three closed"
    );
}

/// Behind a trusted proxy (`--trusted-proxy`) the per-address limits count the players'
/// addresses from `X-Forwarded-For`, and the proxy's own connections are not limited; from
/// anyone else the header is ignored, so a client cannot take another address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_count_players_behind_a_trusted_proxy_only() {
    async fn create(base: &str, forwarded: &str) -> u16 {
        reqwest::Client::new()
            .post(format!("{base}/api/games"))
            .header("x-forwarded-for", forwarded)
            .json(&serde_json::json!({"variant": "chess"}))
            .send()
            .await
            .expect("the server answers")
            .status()
            .as_u16()
    }
    let (base, addr, _, _dir) = start_with(&[
        "--games-per-minute",
        "2",
        "--connections-per-address",
        "1",
        "--trusted-proxy",
        "127.0.0.1",
    ])
    .await;
    // The loopback "proxy" holds a connection open and is still served on another.
    let mut held = TcpStream::connect(addr).await.expect("connect");
    held.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let mut buf = [0u8; 1024];
    let n = held.read(&mut buf).await.expect("answer");
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    assert_eq!(create(&base, "198.51.100.1").await, 201);
    assert_eq!(create(&base, "6.6.6.6, 198.51.100.1").await, 201);
    assert_eq!(
        create(&base, "198.51.100.1").await,
        429,
        "a third game in a minute"
    );
    assert_eq!(create(&base, "198.51.100.2").await, 201, "another player");
    drop(held);

    // Without the option the header is the client's word and changes nothing.
    let (base, _, _, _dir) = start_with(&["--games-per-minute", "2"]).await;
    assert_eq!(create(&base, "198.51.100.1").await, 201);
    assert_eq!(create(&base, "198.51.100.2").await, 201);
    assert_eq!(create(&base, "198.51.100.3").await, 429);
}

/// `GET /healthz`: 200 while the database answers, 503 with a sentence once it is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_follows_the_database() {
    let (base, _, app, _dir) = start_with(&[]).await;
    let c = reqwest::Client::new();
    let r = c
        .get(format!("{base}/healthz"))
        .send()
        .await
        .expect("healthz");
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.text().await.expect("text"), "ok\n");
    app.store.close().await;
    let r = c
        .get(format!("{base}/healthz"))
        .send()
        .await
        .expect("healthz");
    assert_eq!(r.status().as_u16(), 503);
    let text = r.text().await.expect("text");
    assert!(text.starts_with("the database is unreachable: "), "{text}");
}

/// After a game, a turn, a websocket and an error, `/metrics` names every series.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_name_every_series_after_some_traffic() {
    let s = common::start().await;
    let g = s
        .create(json!({"variant": "chess", "white": "human", "black": "engine:1"}))
        .await;
    let white = g.white.clone().expect("white's token");
    s.play(&g.id, &white, "e2e4").await;
    let mut ws = s.ws(&g.id, None, 0).await;
    let _ = common::next(&mut ws, 5).await;
    let (status, _) = s.get("/api/games/nosuchgame", None).await;
    assert_eq!(status, 404);
    let text = s
        .client
        .get(s.url("/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    for series in [
        "menagerie_http_requests_total{",
        "menagerie_turn_latency_seconds_bucket{",
        "menagerie_turn_latency_seconds_count",
        "menagerie_open_games ",
        "menagerie_websockets ",
        "menagerie_engine_queue_length ",
        "menagerie_engine_wait_seconds_count",
        "menagerie_database_errors_total ",
        "menagerie_connections ",
    ] {
        assert!(text.contains(series), "{series} missing from:\n{text}");
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("menagerie_http_requests_total{")
                && l.contains("route=\"/api/games/{id}/move\"")
                && l.contains("status=\"200\"")),
        "no counted turn in:\n{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("menagerie_http_requests_total{")
                && l.contains("route=\"/api/games/{id}\"")
                && l.contains("status=\"404\"")),
        "no counted 404 in:\n{text}"
    );
}

/// Three games of `engine:8` against `engine:8` (two seconds a turn) on a pool of one
/// thread, then a person's game against `engine:1`: its reply comes while at most one of the
/// engine-against-engine turns ends. Before, the reply queued behind every waiting search
/// (at least three of those turns).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_engine_reply_waits_for_no_engine_against_engine_game() {
    let (s, app) = common::start_with_app().await;
    let mut eve = Vec::new();
    for _ in 0..3 {
        let g = s
            .create(json!({"variant": "chess", "white": "engine:8", "black": "engine:8"}))
            .await;
        eve.push(g.id);
    }
    // One engine-against-engine search runs, two wait.
    for _ in 0..100 {
        if app.engine_pool.queued() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(app.engine_pool.queued(), 2);
    let eve_turns = || async {
        let mut n = 0;
        for id in &eve {
            let (_, v) = s.get(&format!("/api/games/{id}"), None).await;
            n += v["version"].as_i64().expect("version");
        }
        n
    };
    let g = s
        .create(json!({"variant": "chess", "white": "human", "black": "engine:1"}))
        .await;
    let before = eve_turns().await;
    s.play(&g.id, g.white.as_deref().expect("white"), "e2e4")
        .await;
    let mut replied = false;
    for _ in 0..600 {
        let (_, v) = s.get(&format!("/api/games/{}", g.id), None).await;
        if v["version"] == 2 {
            replied = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let after = eve_turns().await;
    assert!(replied, "engine:1 did not reply within 6 s");
    assert!(
        after - before <= 1,
        "{} engine-against-engine turns were played while the person waited",
        after - before
    );
}
