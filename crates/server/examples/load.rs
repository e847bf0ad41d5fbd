//! Load generator (issue 10, Performance): N concurrent human-vs-human games over loopback
//! through the API and websockets, against a server running as a child process (so that its
//! own resident memory is measured, apart from the clients').
//!
//! `cargo run --release -p menagerie-server --example load -- [GAMES] [PLIES] [DATABASE] [THINK_MS] [PROCESSES]`
//! (defaults: 500 games, 40 plies, a temporary SQLite file, no thinking time, one server
//! process; DATABASE may be `postgres://...`, or `sqlite` for the temporary file; THINK_MS
//! makes each player wait about that long before each of its turns, like a person, instead of
//! answering at once: each wait drawn from [THINK/2, 3*THINK/2), the games' starts spread over
//! THINK, so that GAMES/THINK turns a second arrive steadily rather than in bursts; PROCESSES
//! 2 (PostgreSQL only) starts two server processes on the database and puts each game's two
//! players on different ones, so that every turn crosses from one process to the other).
//!
//! Prints turns per second; the p50/p99/max latency of a turn from the start of its POST to
//! the opponent's websocket event; the servers' resident memory at start, at its peak and at
//! the end (sampled every 100 ms from `/proc/PID/status`, all processes together). Then it
//! kills every server with SIGKILL, starts one again on the same database and checks that
//! every game holds exactly the turns its clients saw acknowledged ("turns lost: 0"); it
//! exits non-zero otherwise.

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
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

/// The next message with a version at least `v` that carries the state.
async fn wait_version(ws: &mut Ws, v: i64) -> Result<Value, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
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

/// One game as its clients saw it.
struct Played {
    id: String,
    /// The canonical texts of the acknowledged turns, in order.
    turns: Vec<String>,
    /// Latencies in microseconds.
    lat: Vec<u64>,
}

/// Plays one game with random legal turns.
async fn game(
    c: reqwest::Client,
    addrs: [String; 2],
    seed: u64,
    plies: usize,
    think: Duration,
) -> Result<Played, String> {
    if !think.is_zero() {
        // Games start spread over one thinking time, as on a server that has been up a while.
        let ms = think.as_millis() as u64;
        tokio::time::sleep(Duration::from_millis(
            seed.wrapping_mul(2654435761) % ms.max(1),
        ))
        .await;
    }
    // White plays through addrs[0], Black through addrs[1] (the same process, or two).
    let v: Value = c
        .post(format!("http://{}/api/games", addrs[0]))
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
        ws(&addrs[0], &id, &tokens[0]).await?,
        ws(&addrs[1], &id, &tokens[1]).await?,
    ];
    let mut state = wait_version(&mut sockets[0], 0).await?["state"].clone();
    wait_version(&mut sockets[1], 0).await?;
    let mut out = Played {
        id: id.clone(),
        turns: Vec::new(),
        lat: Vec::new(),
    };
    let mut rng = seed;
    for ply in 0..plies {
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || !state["outcome"].is_null() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = legal[(rng >> 33) as usize % legal.len()]["canonical"]
            .as_str()
            .ok_or("a legal turn without text")?
            .to_string();
        let me = ply % 2;
        let version = state["version"].as_i64().ok_or("no version")?;
        if !think.is_zero() {
            // People do not move in step: each wait is drawn from [THINK/2, 3*THINK/2).
            let ms = think.as_millis() as u64;
            tokio::time::sleep(Duration::from_millis(ms / 2 + (rng >> 17) % ms.max(1))).await;
        }
        let start = Instant::now();
        let post = async {
            let r = c
                .post(format!("http://{}/api/games/{id}/move", addrs[me]))
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
            r.json::<Value>().await.map_err(|e| e.to_string())
        };
        let (opp, mine) = sockets.split_at_mut(1);
        let (theirs, own) = if me == 0 {
            (&mut mine[0], &mut opp[0])
        } else {
            (&mut opp[0], &mut mine[0])
        };
        // The opponent's event may arrive before the POST's answer: wait for both at once.
        let seen = async {
            let m = wait_version(theirs, version + 1).await;
            (m, start.elapsed())
        };
        let (after, (m, took)) = tokio::join!(post, seen);
        let after = after?;
        let m = m?;
        out.turns.push(pick);
        out.lat.push(took.as_micros() as u64);
        let v = after["version"].as_i64().ok_or("no version")?;
        let m = if m["version"].as_i64() < Some(v) {
            wait_version(theirs, v).await?
        } else {
            m
        };
        wait_version(own, v).await?;
        state = m["state"].clone();
    }
    Ok(out)
}

/// The server, a child process: this same program run with `--serve`.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_server(database: &str) -> Result<Server, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(me)
        .args(["--serve", "--port", "0", "--engine-threads", "1"])
        // Every simulated player comes from this one address.
        .args(["--games-per-minute", "1000000", "--open-games", "1000000"])
        .args(["--sockets-per-address", "1000000"])
        .args(["--connections-per-address", "1000000"])
        .args(["--database", database])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .ok_or_else(|| format!("no address in {line:?}"))?
        .trim_end_matches('/')
        .to_string();
    Ok(Server { child, addr })
}

fn rss_kib(pid: u32) -> u64 {
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

/// The CPU time process `pid` has used so far, in milliseconds (`/proc/PID/stat`'s utime and
/// stime, in Linux's USER_HZ of 100 ticks a second).
fn cpu_ms(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            // The fields after the command name, which is in parentheses and may hold spaces.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .map_or(0, |ticks| ticks * 10)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--serve") {
        use clap::Parser as _;
        let serve = menagerie_server::ServeArgs::parse_from(
            std::iter::once("menagerie-server".to_string()).chain(args.into_iter().skip(1)),
        );
        return menagerie_server::run(serve);
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(load(args))
}

async fn load(args: Vec<String>) -> Result<(), String> {
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let plies: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(40);
    let think = Duration::from_millis(args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0));
    let processes: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let dir = std::env::temp_dir().join(format!("menagerie-load-{}", std::process::id()));
    let database = match args.get(2).map(String::as_str) {
        Some(url) if url != "sqlite" => url.to_string(),
        _ => dir.join("games.sqlite").display().to_string(),
    };
    let shown = if database.starts_with("postgres") {
        "PostgreSQL".to_string()
    } else {
        format!("SQLite {database}")
    };
    if !(1..=2).contains(&processes) || processes == 2 && !database.starts_with("postgres") {
        return Err("PROCESSES is 1, or 2 on a postgres:// database".into());
    }
    let servers = (0..processes)
        .map(|_| spawn_server(&database))
        .collect::<Result<Vec<_>, _>>()?;
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let pids: Vec<u32> = servers.iter().map(|s| s.child.id()).collect();
    let cpu = {
        let pids = pids.clone();
        move || pids.iter().map(|&p| cpu_ms(p)).sum::<u64>()
    };
    let rss = move || pids.iter().map(|&p| rss_kib(p)).sum::<u64>();
    let c = reqwest::Client::builder()
        .pool_max_idle_per_host(games.max(1))
        // A refused or stalled request fails its game instead of waiting for ever.
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| e.to_string())?;
    let rss0 = rss();
    let cpu0 = cpu();
    let peak = Arc::new(AtomicU64::new(rss0));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peak, done, rss) = (peak.clone(), done.clone(), rss.clone());
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(rss(), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..games {
        // With two processes, half the games are created on each.
        let pair = [
            addrs[i % processes].clone(),
            addrs[(i + 1) % processes].clone(),
        ];
        let c = c.clone();
        tasks.push(tokio::spawn(async move {
            game(c, pair, i as u64 + 1, plies, think).await
        }));
    }
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.map_err(|e| e.to_string()).and_then(|r| r));
    }
    let elapsed = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = sampler.await;
    let rss_end = rss();
    let cpu_used = cpu().saturating_sub(cpu0);

    let mut lat: Vec<u64> = Vec::new();
    let mut failed = 0;
    let mut turns = 0;
    for r in &results {
        match r {
            Ok(p) => {
                turns += p.turns.len();
                lat.extend(&p.lat);
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
        "games {games}, plies {plies}, think {} ms, database {shown}, {processes} server process{}",
        think.as_millis(),
        if processes == 1 {
            ""
        } else {
            "es, each game's players on different ones"
        }
    );
    println!(
        "turns {turns} in {:.2} s: {:.0} turns/s; latency POST -> opponent's event: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        elapsed.as_secs_f64(),
        turns as f64 / elapsed.as_secs_f64().max(1e-9),
        pct(0.50),
        pct(0.99),
        lat.last().map_or(0.0, |&us| us as f64 / 1000.0),
    );
    println!(
        "server memory (RSS, all processes): {} MiB at start, {} MiB peak, {} MiB at the end",
        rss0 / 1024,
        peak.load(Ordering::Relaxed) / 1024,
        rss_end / 1024
    );
    println!(
        "server CPU (all processes): {:.1} s, {:.2} ms a turn",
        cpu_used as f64 / 1000.0,
        cpu_used as f64 / turns.max(1) as f64
    );

    // Nothing lost: kill -9, start again on the same database, compare with the clients' tally.
    drop(servers);
    let again = spawn_server(&database)?;
    let mut lost = 0;
    let mut checked = 0;
    for p in results.iter().flatten() {
        let v: Value = c
            .get(format!("http://{}/api/games/{}", again.addr, p.id))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        let stored: Vec<&str> = v["moves"]
            .as_array()
            .map(|a| a.iter().filter_map(|m| m["canonical"].as_str()).collect())
            .unwrap_or_default();
        checked += stored.len();
        if stored != p.turns {
            lost += 1;
            eprintln!(
                "game {}: stored {stored:?}, acknowledged {:?}",
                p.id, p.turns
            );
        }
    }
    drop(again);
    println!(
        "after kill -9 and restart: {checked} turns stored, games differing from their clients' tally {lost}, games failed {failed}"
    );
    let _ = std::fs::remove_dir_all(dir);
    if failed > 0 || lost > 0 {
        return Err("some games failed or lost turns".into());
    }
    Ok(())
}
