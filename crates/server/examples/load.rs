//! Load generator (issue 10, Performance): N concurrent human-vs-human games over loopback
//! through the API and websockets, against a server started here on an ephemeral port.
//!
//! `cargo run --release -p menagerie-server --example load -- [GAMES] [PLIES] [DATABASE]`
//! (defaults 500 games, 40 plies, a temporary SQLite file; DATABASE may be `postgres://...`).
//! Reports turns per second, the p50/p99 latency of a turn from its POST to the opponent's
//! websocket event, the process's resident memory, and whether every acknowledged turn is
//! stored.

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws(addr: &str, id: &str, token: &str) -> Result<Ws, String> {
    let mut req = format!("ws://{addr}/api/games/{id}/ws?since=0")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    req.headers_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().map_err(|_| "header")?,
    );
    let (s, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| e.to_string())?;
    Ok(s)
}

/// The next message with a version at least `v`.
async fn wait_version(ws: &mut Ws, v: i64) -> Result<Value, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "timeout waiting for an event")?
            .ok_or("websocket closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = msg {
            let m: Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
            if m["version"].as_i64() >= Some(v) && !m["state"].is_null() {
                return Ok(m);
            }
        }
    }
}

/// Plays one game; returns (turns acknowledged, latencies in microseconds).
async fn game(
    c: reqwest::Client,
    addr: String,
    seed: u64,
    plies: usize,
) -> Result<(String, i64, Vec<u64>), String> {
    let v: Value = c
        .post(format!("http://{addr}/api/games"))
        .json(&json!({"variant": "chess"}))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let id = v["id"].as_str().ok_or("no id")?.to_string();
    let tokens = [
        v["seats"]["white"]["token"]
            .as_str()
            .ok_or("no token")?
            .to_string(),
        v["seats"]["black"]["token"]
            .as_str()
            .ok_or("no token")?
            .to_string(),
    ];
    let mut sockets = [
        ws(&addr, &id, &tokens[0]).await?,
        ws(&addr, &id, &tokens[1]).await?,
    ];
    let mut state = wait_version(&mut sockets[0], 0).await?["state"].clone();
    wait_version(&mut sockets[1], 0).await?;
    let mut lat = Vec::new();
    let mut version = 0;
    let mut rng = seed;
    for ply in 0..plies {
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || !state["outcome"].is_null() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = &legal[(rng >> 33) as usize % legal.len()]["canonical"];
        let me = ply % 2;
        let start = Instant::now();
        let r = c
            .post(format!("http://{addr}/api/games/{id}/move"))
            .bearer_auth(&tokens[me])
            .json(&json!({"move": pick}))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if r.status().as_u16() != 200 {
            return Err(format!(
                "move refused: {}",
                r.text().await.unwrap_or_default()
            ));
        }
        let after: Value = r.json().await.map_err(|e| e.to_string())?;
        version = after["version"].as_i64().unwrap_or(version);
        let m = wait_version(&mut sockets[1 - me], version).await?;
        lat.push(start.elapsed().as_micros() as u64);
        wait_version(&mut sockets[me], version).await?;
        state = m["state"].clone();
    }
    Ok((id, version, lat))
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let plies: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(40);
    let dir = std::env::temp_dir().join(format!("menagerie-load-{}", std::process::id()));
    let serve = menagerie_server::ServeArgs {
        port: 0,
        bind: "127.0.0.1".into(),
        database: args.get(2).cloned(),
        data: dir.clone(),
        engine_threads: Some(1),
    };
    let running = menagerie_server::start(&serve).await?;
    let addr = running.addr.to_string();
    let c = reqwest::Client::builder()
        .pool_max_idle_per_host(games.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let rss0 = rss_kib();
    let all = Arc::new(Mutex::new(Vec::new()));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..games {
        let (c, addr, all) = (c.clone(), addr.clone(), all.clone());
        tasks.push(tokio::spawn(async move {
            let r = game(c, addr, i as u64 + 1, plies).await;
            if let Ok(mut a) = all.lock() {
                a.push(r);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = start.elapsed();
    let results = std::mem::take(&mut *all.lock().map_err(|_| "poisoned")?);
    let mut lat: Vec<u64> = Vec::new();
    let mut failed = 0;
    let mut lost = 0;
    let mut turns = 0;
    for r in &results {
        match r {
            Ok((id, version, l)) => {
                turns += l.len();
                lat.extend(l);
                let v: Value = c
                    .get(format!("http://{addr}/api/games/{id}"))
                    .send()
                    .await
                    .map_err(|e| e.to_string())?
                    .json()
                    .await
                    .map_err(|e| e.to_string())?;
                if v["version"].as_i64() != Some(*version) {
                    lost += 1;
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("a game failed: {e}");
            }
        }
    }
    lat.sort_unstable();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .map_or(0.0, |&us| us as f64 / 1000.0)
    };
    println!(
        "games {games}, plies {plies}, database {}",
        serve.database_url()
    );
    println!(
        "turns {turns} in {:.2} s: {:.0} turns/s; latency POST -> opponent's event p50 {:.1} ms, p99 {:.1} ms",
        elapsed.as_secs_f64(),
        turns as f64 / elapsed.as_secs_f64().max(1e-9),
        pct(0.50),
        pct(0.99)
    );
    println!(
        "memory (server and clients in one process): {} MiB before, {} MiB after",
        rss0 / 1024,
        rss_kib() / 1024
    );
    println!("games failed {failed}, games with a lost turn {lost}");
    let _ = std::fs::remove_dir_all(dir);
    if failed > 0 || lost > 0 {
        return Err("some games failed or lost turns".into());
    }
    Ok(())
}
