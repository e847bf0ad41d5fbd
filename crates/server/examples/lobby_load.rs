//! Lobby load (issue 32, Performance): SOCKETS lobby websockets (lobby pages) and SEEKS open
//! seeks, against the server running as a child process; measures how long a seek's creation
//! takes to reach every lobby page.
//!
//! `cargo run --release -p menagerie-server --example lobby_load -- [SOCKETS] [SEEKS] [RATE] [DATABASE] [PROCESSES]`
//! (defaults: 2000 sockets, 500 seeks, 25 seeks a second, a temporary SQLite file, one server
//! process; DATABASE may be `postgres://...`, or `sqlite`; PROCESSES 2 (PostgreSQL only) puts
//! every other page and seek on a second process, so that half the seeks cross between them).
//!
//! Each seek belongs to its own anonymous player (its own session), whose page is one of the
//! SOCKETS, so the seeks stay open (a live seek lives while its owner is connected). The seeks
//! are made one after another at RATE a second while every page is open; for each seek and
//! each page, the time from the start of its `POST /api/seeks` to that page receiving the
//! `seek` event. Prints p50/p99/max over every (seek, page) pair, deliveries missing, the
//! server's resident memory and CPU time, and checks that all SEEKS seeks are still listed 20 s
//! later (their owners are connected). Exits non-zero when a delivery is missing.

use futures_util::StreamExt;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

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
        // Every simulated page comes from this one address; no bot takes a seek.
        .args(["--sockets-per-address", "1000000"])
        .args(["--connections-per-address", "1000000"])
        .args(["--seeks-per-address", "1000000"])
        .args(["--bot-wait-ms", "0"])
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

fn cpu_ms(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
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

/// The id of the seek a `seek` event carries (its keys come sorted: the seek's own `id` is the
/// first `"id"` in the text), without parsing the whole message.
fn seek_id(text: &str) -> Option<&str> {
    if !text.contains("\"type\":\"seek\"") {
        return None;
    }
    let start = text.find("\"id\":\"")? + 6;
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// A client with its own cookies (one anonymous player).
fn client() -> Result<(reqwest::Client, Arc<reqwest::cookie::Jar>), String> {
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let c = reqwest::Client::builder()
        .cookie_provider(jar.clone())
        .build()
        .map_err(|e| e.to_string())?;
    Ok((c, jar))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn load(args: Vec<String>) -> Result<(), String> {
    let sockets: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let seeks: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let rate: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(25.0);
    let processes: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let sockets = sockets.max(seeks);
    let dir = std::env::temp_dir().join(format!("menagerie-lobby-load-{}", std::process::id()));
    let database = match args.get(3).map(String::as_str) {
        Some(url) if url != "sqlite" => url.to_string(),
        _ => {
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            dir.join("games.sqlite").display().to_string()
        }
    };
    if processes > 1 && !database.starts_with("postgres") {
        return Err("several processes need PostgreSQL".into());
    }
    let mut servers = Vec::new();
    for _ in 0..processes.max(1) {
        servers.push(spawn_server(&database)?);
    }
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let pids: Vec<u32> = servers.iter().map(|s| s.child.id()).collect();
    let rss = || pids.iter().map(|p| rss_kib(*p)).sum::<u64>();
    let cpu = || pids.iter().map(|p| cpu_ms(*p)).sum::<u64>();
    println!(
        "{sockets} lobby pages, {seeks} seeks at {rate}/s, {} server process(es) on {}",
        addrs.len(),
        if database.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    );
    let rss_start = rss();

    // The owners: each gets its session (a first seek, cancelled at once).
    let mut owners = Vec::new();
    for i in 0..seeks {
        let (c, jar) = client()?;
        let base = format!("http://{}", addrs[i % addrs.len()]);
        let r = c
            .post(format!("{base}/api/seeks"))
            .json(&serde_json::json!({"variant": "chess", "clock": {"initial_ms": 60_000, "increment_ms": 0}}))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let v: serde_json::Value = r.json().await.map_err(|e| e.to_string())?;
        let id = v["id"]
            .as_str()
            .ok_or_else(|| format!("no seek made: {v}"))?;
        c.delete(format!("{base}/api/seeks/{id}"))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        owners.push((c, jar, base));
    }

    // The pages: the owners' first, then anonymous visitors.
    type Got = Arc<Mutex<Vec<(String, Instant)>>>;
    let mut received: Vec<Got> = Vec::new();
    let hellos = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    let opened = Instant::now();
    for i in 0..sockets {
        let addr = &addrs[i % addrs.len()];
        let mut req = format!("ws://{addr}/api/lobby/ws?list=1")
            .into_client_request()
            .map_err(|e| e.to_string())?;
        if let Some((_, jar, base)) = owners.get(i) {
            use reqwest::cookie::CookieStore as _;
            let url: reqwest::Url = base.parse().map_err(|_| "a url")?;
            if let Some(c) = jar.cookies(&url) {
                req.headers_mut().insert("cookie", c);
            }
        }
        let (ws, _) = tokio_tungstenite::connect_async(req)
            .await
            .map_err(|e| format!("page {i} cannot connect: {e}"))?;
        let got: Got = Arc::new(Mutex::new(Vec::with_capacity(seeks)));
        received.push(got.clone());
        let hellos = hellos.clone();
        tasks.push(tokio::spawn(async move {
            let (_sink, mut stream) = ws.split();
            while let Some(Ok(m)) = stream.next().await {
                if let Message::Text(t) = m {
                    if t.starts_with("{\"bots\"") || t.contains("\"type\":\"hello\"") {
                        hellos.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    } else if let Some(id) = seek_id(&t) {
                        let now = Instant::now();
                        if let Ok(mut g) = got.lock() {
                            g.push((id.to_string(), now));
                        }
                    }
                }
            }
        }));
    }
    while hellos.load(std::sync::atomic::Ordering::Relaxed) < sockets {
        if opened.elapsed() > Duration::from_secs(120) {
            return Err("the pages did not all receive their first message".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "{sockets} pages open in {:.1} s; server memory {} MiB",
        opened.elapsed().as_secs_f64(),
        rss() / 1024
    );

    // The seeks, one after another at RATE a second.
    let cpu_before = cpu();
    let began = Instant::now();
    let mut started: std::collections::HashMap<String, Instant> = Default::default();
    let gap = Duration::from_secs_f64(1.0 / rate.max(0.1));
    for (i, (c, _, base)) in owners.iter().enumerate() {
        let due = began + gap * i as u32;
        tokio::time::sleep_until(due.into()).await;
        let t0 = Instant::now();
        let r = c
            .post(format!("{base}/api/seeks"))
            .json(&serde_json::json!({"variant": "chess", "clock": {"initial_ms": 300_000, "increment_ms": 3_000}}))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let v: serde_json::Value = r.json().await.map_err(|e| e.to_string())?;
        let id = v["id"]
            .as_str()
            .ok_or_else(|| format!("no seek made: {v}"))?;
        started.insert(id.to_string(), t0);
    }
    // Every page should have every seek.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let done = received
            .iter()
            .all(|g| g.lock().is_ok_and(|g| g.len() >= seeks));
        if done || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let spent = began.elapsed();
    let cpu_used = cpu() - cpu_before;
    let mut latencies = Vec::with_capacity(sockets * seeks);
    let mut missing = 0usize;
    for g in &received {
        let g = g.lock().map_err(|_| "a poisoned lock")?;
        let seen: std::collections::HashSet<&str> = g.iter().map(|(id, _)| id.as_str()).collect();
        missing += started
            .keys()
            .filter(|id| !seen.contains(id.as_str()))
            .count();
        for (id, at) in g.iter() {
            if let Some(t0) = started.get(id) {
                latencies.push(at.saturating_duration_since(*t0).as_secs_f64() * 1000.0);
            }
        }
    }
    latencies.sort_by(|a, b| a.total_cmp(b));
    println!(
        "{} deliveries ({} seeks x {} pages) in {:.1} s; server CPU {:.1} s",
        latencies.len(),
        seeks,
        sockets,
        spent.as_secs_f64(),
        cpu_used as f64 / 1000.0
    );
    println!(
        "a seek's creation to each lobby page: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; missing {missing}",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "server memory now {} MiB (at start {} MiB)",
        rss() / 1024,
        rss_start / 1024
    );

    // The seeks live while their owners are connected: still all there after the grace.
    tokio::time::sleep(Duration::from_secs(20)).await;
    let listed: serde_json::Value = reqwest::get(format!("http://{}/api/seeks", addrs[0]))
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let open = listed.as_array().map_or(0, Vec::len);
    println!("open seeks 20 s later: {open} of {seeks}");
    for t in tasks {
        t.abort();
    }
    drop(servers);
    let _ = std::fs::remove_dir_all(&dir);
    if missing > 0 || open != seeks {
        return Err(format!(
            "{missing} deliveries missing, {open} seeks open of {seeks}"
        ));
    }
    Ok(())
}
