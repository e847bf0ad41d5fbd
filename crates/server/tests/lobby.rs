//! The lobby (issue 32 items 1-4) through the API: the seek race (exactly one player gets
//! the game), the matching rules (anonymous with anonymous, accounts with accounts, rated and
//! correspondence for accounts, rating ranges), quick pairing across overlapping sets, bots
//! answering seeks and declining when the engine's queue is full, challenges accepted,
//! declined and expired, and a correspondence game ending on time after a restart.

mod common;

use common::Proc;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const PASSWORD: &str = "correct horse battery";
const TAKEN: &str =
    "this seek is no longer open: another player took it first, or its owner cancelled it";

/// A server in this process, its state, and its folder.
struct Server {
    base: String,
    app: Arc<menagerie_server::app::App>,
    _dir: tempfile::TempDir,
}

/// A server with `engine_threads`, bots answering seeks after `bot_wait_ms` (0: never) and
/// challenges living `challenge_ms`.
async fn start(engine_threads: usize, bot_wait_ms: i64, challenge_ms: i64) -> Server {
    use clap::Parser as _;
    let dir = tempfile::tempdir().unwrap();
    let mut args = menagerie_server::ServeArgs::parse_from([
        "menagerie-server",
        "--port",
        "0",
        "--sockets-per-address",
        "1000",
    ]);
    args.data = dir.path().join("data");
    args.engine_threads = Some(engine_threads);
    args.bot_wait_ms = bot_wait_ms;
    args.challenge_ms = challenge_ms;
    let running = menagerie_server::start(&args).await.unwrap();
    Server {
        base: format!("http://{}", running.addr),
        app: running.app,
        _dir: dir,
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A browser: its own cookies, and the Origin of the server's pages.
struct Browser {
    c: reqwest::Client,
    jar: Arc<reqwest::cookie::Jar>,
    base: String,
}

impl Browser {
    fn new(base: &str) -> Browser {
        let jar = Arc::new(reqwest::cookie::Jar::default());
        Browser {
            c: reqwest::Client::builder()
                .cookie_provider(jar.clone())
                .build()
                .unwrap(),
            jar,
            base: base.to_string(),
        }
    }
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut r = self
            .c
            .request(m, format!("{}{path}", self.base))
            .header("origin", &self.base)
            .header("sec-fetch-site", "same-origin");
        if let Some(b) = body {
            r = r.json(&b);
        }
        let res = r.send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }
    async fn get(&self, path: &str) -> (u16, Value) {
        self.call("GET", path, None).await
    }
    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call("POST", path, Some(body)).await
    }
    async fn delete(&self, path: &str) -> (u16, Value) {
        self.call("DELETE", path, None).await
    }
    /// Signs up as `name` (the browser is then logged in).
    async fn signup(base: &str, name: &str) -> Browser {
        let b = Browser::new(base);
        let (st, v) = b
            .post(
                "/api/account/signup",
                json!({"name": name, "password": PASSWORD}),
            )
            .await;
        assert_eq!(st, 201, "{v}");
        b
    }
    /// The lobby websocket with this browser's cookies; its first message (`hello`).
    async fn lobby(&self, list: bool) -> (Ws, Value) {
        use reqwest::cookie::CookieStore as _;
        let url: reqwest::Url = self.base.parse().unwrap();
        let ws_base = self.base.replacen("http://", "ws://", 1);
        let mut req = format!("{ws_base}/api/lobby/ws?list={}", u8::from(list))
            .into_client_request()
            .unwrap();
        if let Some(c) = self.jar.cookies(&url) {
            req.headers_mut().insert("cookie", c);
        }
        let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let hello = next(&mut ws).await.expect("a hello");
        assert_eq!(hello["type"], "hello");
        (ws, hello)
    }
}

/// The next text message within 10 s.
async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .ok()??
            .ok()?;
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).ok();
        }
    }
}

/// The next message of `kind` (others skipped), within `secs`.
async fn next_of(ws: &mut Ws, kind: &str, secs: u64) -> Value {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        let left = end - Instant::now();
        match tokio::time::timeout(left, next(ws)).await {
            Ok(Some(m)) if m["type"] == kind => return m,
            Ok(Some(_)) => continue,
            _ => break,
        }
    }
    panic!("no '{kind}' message within {secs} s");
}

fn clock(minutes: i64, increment_s: i64) -> Value {
    json!({"initial_ms": minutes * 60_000, "increment_ms": increment_s * 1000})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_taken_by_exactly_one_of_many_and_both_learn_the_game() {
    let s = start(1, 0, 600_000).await;
    let owner = Browser::new(&s.base);
    let (st, v) = owner
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(5, 3), "rated": false, "color": "white"}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (mut owner_ws, hello) = owner.lobby(true).await;
    assert_eq!(hello["mine"], json!([id]));
    assert_eq!(
        hello["you"],
        json!({"name": null, "account": false, "person": true})
    );
    assert_eq!(hello["bots"].as_array().unwrap().len(), 8);
    assert_eq!(hello["bots"][0]["name"], "Engine level 1");
    assert_eq!(hello["bots"][0]["bot"], true);
    // Everyone sees it, as the API names it.
    let watcher = Browser::new(&s.base);
    let (mut watcher_ws, hello) = watcher.lobby(true).await;
    assert_eq!(hello["mine"], json!([]));
    let (_, list) = watcher.get("/api/seeks").await;
    assert_eq!(list, hello["seeks"]);
    assert_eq!(list.as_array().unwrap().len(), 1);
    let seek = &list[0];
    assert_eq!(seek["id"], id.as_str());
    assert_eq!(seek["variant"], "chess");
    assert_eq!(seek["clock"], clock(5, 3));
    assert_eq!(seek["days"], Value::Null);
    assert_eq!(seek["rated"], false);
    assert_eq!(seek["color"], "white");
    assert_eq!(seek["rating_range"], Value::Null);
    assert_eq!(
        seek["player"],
        json!({"name": null, "rating": null, "provisional": false, "bot": false})
    );
    // Eight players accept at once: one game, seven sentences.
    let racers: Vec<Browser> = (0..8).map(|_| Browser::new(&s.base)).collect();
    let path = format!("/api/seeks/{id}/accept");
    let answers =
        futures_util::future::join_all(racers.iter().map(|b| b.post(&path, json!({})))).await;
    let won: Vec<&(u16, Value)> = answers.iter().filter(|(st, _)| *st == 201).collect();
    assert_eq!(won.len(), 1, "{answers:?}");
    for (st, v) in answers.iter().filter(|(st, _)| *st != 201) {
        assert_eq!(*st, 409);
        assert_eq!(v["error"], TAKEN);
    }
    let game = won[0].1["game"].as_str().unwrap().to_string();
    assert_eq!(won[0].1["url"], format!("/game/{game}"));
    let winner = &racers[answers.iter().position(|(st, _)| *st == 201).unwrap()];
    // The owner learns it on the lobby's websocket and in its games.
    let ev = next_of(&mut owner_ws, "game", 5).await;
    assert_eq!(ev["game"], game.as_str());
    assert_eq!(ev["url"], format!("/game/{game}"));
    assert_eq!(ev["from"], "seek");
    assert_eq!(ev["id"], id.as_str());
    let (_, mine) = owner.get("/api/account/games").await;
    assert_eq!(mine[0]["id"], game.as_str());
    assert_eq!(mine[0]["color"], "white");
    assert_eq!(mine[0]["your_turn"], true);
    // Each plays its own seat through its session, with no key.
    let (_, st_owner) = owner.get(&format!("/api/games/{game}")).await;
    assert_eq!(st_owner["you"], "white");
    assert_eq!(st_owner["clock"]["initial_ms"], 300_000);
    assert_eq!(st_owner["clock"]["increment_ms"], 3_000);
    assert_eq!(st_owner["correspondence"], Value::Null);
    let (_, st_winner) = winner.get(&format!("/api/games/{game}")).await;
    assert_eq!(st_winner["you"], "black");
    let (st, _) = owner
        .post(&format!("/api/games/{game}/move"), json!({"move": "e4"}))
        .await;
    assert_eq!(st, 200);
    let (st, _) = winner
        .post(&format!("/api/games/{game}/move"), json!({"move": "e5"}))
        .await;
    assert_eq!(st, 200);
    // The list is empty again, live.
    let gone = next_of(&mut watcher_ws, "unseek", 5).await;
    assert_eq!(gone["id"], id.as_str());
    assert_eq!(watcher.get("/api/seeks").await.1, json!([]));
    let (st, v) = watcher.post(&path, json!({})).await;
    assert_eq!((st, v["error"].as_str()), (409, Some(TAKEN)));
    let (st, v) = watcher
        .post("/api/seeks/nosuchseek/accept", json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (404, Some("there is no such seek"))
    );
    // The counts: the owner, the watcher (two people online) and two seats in play.
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, info) = watcher.get("/api/lobby").await;
        if info["online"] == 2 && info["playing"] == 2 {
            assert_eq!(info["seeks"], 0);
            break;
        }
        assert!(Instant::now() < end, "the counts stayed {info}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_are_limited_per_address_as_well_as_per_person() {
    let server = start(1, 0, 60_000).await;
    // New anonymous people cost a cookie each: the address bounds what they open together.
    server
        .app
        .limits
        .seeks_per_ip
        .store(3, std::sync::atomic::Ordering::Relaxed);
    let people: Vec<Browser> = (0..4).map(|_| Browser::new(&server.base)).collect();
    let mut ids = Vec::new();
    for p in &people[..2] {
        let (st, v) = p
            .post(
                "/api/seeks",
                json!({"variant": "chess", "clock": clock(5, 0)}),
            )
            .await;
        assert_eq!(st, 201, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (st, v) = people[2]
        .post(
            "/api/pairing",
            json!({"variants": ["vyrt"], "clocks": [{"initial_ms": 60_000, "increment_ms": 0}]}),
        )
        .await;
    assert_eq!(st, 202, "{v}");
    let full = "this address has 3 seeks and quick pairings open, the most allowed: cancel one or wait until one is taken";
    let (st, v) = people[3]
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(5, 0)}),
        )
        .await;
    assert_eq!((st, v["error"].as_str()), (429, Some(full)));
    let (st, v) = people[3]
        .post(
            "/api/pairing",
            json!({"variants": ["chess"], "clocks": [{"initial_ms": 60_000, "increment_ms": 0}]}),
        )
        .await;
    assert_eq!((st, v["error"].as_str()), (429, Some(full)));
    // One is cancelled: there is room again.
    let (st, _) = people[0].delete(&format!("/api/seeks/{}", ids[0])).await;
    assert_eq!(st, 200);
    let (st, v) = people[3]
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(5, 0)}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    assert_eq!(
        people[3]
            .get("/api/seeks")
            .await
            .1
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_matching_rules_of_seeks() {
    let s = start(1, 0, 600_000).await;
    let anon = Browser::new(&s.base);
    let anon2 = Browser::new(&s.base);
    let alice = Browser::signup(&s.base, "alice").await;
    let bob = Browser::signup(&s.base, "bob").await;
    // Only accounts seek rated games and correspondence; a range needs an account.
    let (st, v) = anon
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(3, 2), "rated": true}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            401,
            Some("rated games are for players logged in to an account: log in, or play casual")
        )
    );
    let (st, v) = anon
        .post("/api/seeks", json!({"variant": "vyrt", "days": 3}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            401,
            Some("correspondence games are for players logged in to an account: log in first")
        )
    );
    let (st, v) = anon
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(3, 2), "rating_range": [1000, 2000]}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            400,
            Some("a rating range needs an account: anonymous players have no rating")
        )
    );
    // Mistakes are one sentence each.
    for (body, error) in [
        (
            json!({"variant": "chess"}),
            "a seek has a clock {\"initial_ms\", \"increment_ms\"} or \"days\" per turn (1, 2, 3, 5, 7, 10 or 14)",
        ),
        (
            json!({"variant": "chess", "days": 4}),
            "days per turn are 1, 2, 3, 5, 7, 10 or 14, not 4",
        ),
        (
            json!({"variant": "chess", "days": 3, "clock": clock(3, 0)}),
            "a seek has a clock or days per turn (correspondence), not both",
        ),
        (
            json!({"variant": "chess", "clock": clock(3, 0), "color": "green"}),
            "color is \"white\", \"black\" or \"random\", not \"green\"",
        ),
        (
            json!({"variant": "chess", "clock": clock(3, 0), "rating_range": [1900, 1100]}),
            "rating_range is [LOW, HIGH] with 0 <= LOW <= HIGH <= 4000, not [1900, 1100]",
        ),
    ] {
        let (st, v) = alice.post("/api/seeks", body).await;
        assert_eq!((st, v["error"].as_str()), (400, Some(error)));
    }
    // Anonymous with anonymous, accounts with accounts.
    let (_, v) = anon
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(3, 2)}),
        )
        .await;
    let anon_seek = v["id"].as_str().unwrap().to_string();
    let (_, v) = alice
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(3, 2)}),
        )
        .await;
    let alice_seek = v["id"].as_str().unwrap().to_string();
    let (st, v) = bob
        .post(&format!("/api/seeks/{anon_seek}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            403,
            Some("this seek is for anonymous players: accounts meet accounts, anonymous players meet anonymous ones")
        )
    );
    let (st, v) = anon2
        .post(&format!("/api/seeks/{alice_seek}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            403,
            Some("this seek is for players with an account: log in to accept it")
        )
    );
    let (st, v) = alice
        .post(&format!("/api/seeks/{alice_seek}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            400,
            Some("this is your own seek: wait for an opponent, or cancel it")
        )
    );
    // Someone else's seek is not yours to cancel; your own is.
    let (st, v) = bob.delete(&format!("/api/seeks/{alice_seek}")).await;
    assert_eq!(
        (st, v["error"].as_str()),
        (403, Some("only its owner may cancel a seek"))
    );
    let (st, v) = alice.delete(&format!("/api/seeks/{alice_seek}")).await;
    assert_eq!((st, v["cancelled"].as_bool()), (200, Some(true)));
    let (st, v) = bob
        .post(&format!("/api/seeks/{alice_seek}/accept"), json!({}))
        .await;
    assert_eq!((st, v["error"].as_str()), (409, Some(TAKEN)));
    // A rating range: the acceptor's rating (a new player's 1500) must be inside it.
    let (_, v) = alice
        .post(
            "/api/seeks",
            json!({"variant": "cypher", "clock": clock(10, 0), "rated": true, "rating_range": [1600, 1800]}),
        )
        .await;
    let ranged = v["id"].as_str().unwrap().to_string();
    let (_, list) = bob.get("/api/seeks").await;
    let shown = list
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == ranged.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        shown["player"],
        json!({"name": "alice", "rating": 1500, "provisional": true, "bot": false})
    );
    assert_eq!(shown["rated"], true);
    assert_eq!(shown["rating_range"], json!([1600, 1800]));
    let (st, v) = bob
        .post(&format!("/api/seeks/{ranged}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            403,
            Some("your rating in cypher (1500) is outside this seek's range, 1600 to 1800")
        )
    );
    // Rated between two accounts; a correspondence seek between accounts.
    let (_, v) = alice
        .post(
            "/api/seeks",
            json!({"variant": "vyrt", "days": 2, "rated": true, "color": "black"}),
        )
        .await;
    let corr = v["id"].as_str().unwrap().to_string();
    let (st, v) = bob
        .post(&format!("/api/seeks/{corr}/accept"), json!({}))
        .await;
    assert_eq!(st, 201, "{v}");
    let game = v["game"].as_str().unwrap();
    let (_, state) = bob.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "white");
    assert_eq!(state["variant"], "vyrt");
    assert_eq!(state["clock"], Value::Null);
    assert_eq!(state["correspondence"]["days_per_turn"], 2);
    let deadline = state["correspondence"]["deadline_ms"].as_i64().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(
        (now + 2 * 86_400_000 - 60_000..=now + 2 * 86_400_000).contains(&deadline),
        "two days from now: {deadline}"
    );
    assert_eq!(state["seats"]["white"]["name"], "bob");
    assert_eq!(state["seats"]["black"]["name"], "alice");
    // Ten open seeks at most.
    for i in 0..10 {
        let (st, v) = anon2
            .post(
                "/api/seeks",
                json!({"variant": "chess", "clock": clock(1 + i, 0)}),
            )
            .await;
        assert_eq!(st, 201, "{v}");
    }
    let (st, v) = anon2
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(20, 0)}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            429,
            Some("you have 10 seeks and quick pairings open: cancel one first")
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_meets_in_the_overlap() {
    let s = start(1, 0, 600_000).await;
    let alice = Browser::signup(&s.base, "alice").await;
    let bob = Browser::signup(&s.base, "bob").await;
    let (mut alice_ws, _) = alice.lobby(false).await;
    let (st, v) = alice
        .post(
            "/api/pairing",
            json!({"variants": ["chess", "vyrt"], "clocks": [clock(5, 3)]}),
        )
        .await;
    assert_eq!(st, 202, "{v}");
    assert_eq!(v["waiting"], true);
    let waiting = v["id"].as_str().unwrap().to_string();
    // A quick pairing is not listed as a seek.
    assert_eq!(bob.get("/api/seeks").await.1, json!([]));
    let (st, v) = bob
        .post(
            "/api/pairing",
            json!({"variants": ["cypher", "vyrt"], "clocks": [clock(10, 0), clock(5, 3)]}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let game = v["game"].as_str().unwrap().to_string();
    let ev = next_of(&mut alice_ws, "game", 5).await;
    assert_eq!(ev["game"], game.as_str());
    assert_eq!(ev["from"], "pairing");
    assert_eq!(ev["id"], waiting.as_str());
    let (_, state) = alice.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["variant"], "vyrt");
    assert_eq!(state["clock"]["initial_ms"], 300_000);
    assert_eq!(state["clock"]["increment_ms"], 3_000);
    let (_, other) = bob.get(&format!("/api/games/{game}")).await;
    let mut colors = [
        state["you"].as_str().unwrap(),
        other["you"].as_str().unwrap(),
    ];
    colors.sort();
    assert_eq!(colors, ["black", "white"]);
    // Anonymous players never meet accounts; casual never meets rated.
    let anon = Browser::new(&s.base);
    let (st, _) = anon
        .post(
            "/api/pairing",
            json!({"variants": ["cypher"], "clocks": [clock(10, 0)]}),
        )
        .await;
    assert_eq!(st, 202);
    let carol = Browser::signup(&s.base, "carol").await;
    let (st, _) = carol
        .post(
            "/api/pairing",
            json!({"variants": ["cypher"], "clocks": [clock(10, 0)], "rated": true}),
        )
        .await;
    assert_eq!(st, 202);
    let dave = Browser::signup(&s.base, "dave").await;
    let (st, v) = dave
        .post(
            "/api/pairing",
            json!({"variants": ["cypher"], "clocks": [clock(10, 0)]}),
        )
        .await;
    assert_eq!(st, 202, "{v}");
    // A quick pairing takes an open seek that fits, and a new seek a waiting pairing.
    let erin = Browser::signup(&s.base, "erin").await;
    let (_, v) = erin
        .post(
            "/api/seeks",
            json!({"variant": "little-cheops", "clock": clock(15, 10), "color": "black"}),
        )
        .await;
    let seek = v["id"].as_str().unwrap().to_string();
    let frank = Browser::signup(&s.base, "frank").await;
    let (st, v) = frank
        .post(
            "/api/pairing",
            json!({"variants": ["little-cheops"], "clocks": [clock(15, 10)]}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let game = v["game"].as_str().unwrap();
    let (_, state) = frank.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "white", "the seek's owner wanted black");
    let (st, _) = erin.delete(&format!("/api/seeks/{seek}")).await;
    assert_eq!(st, 409);
    let (st, v) = carol
        .post(
            "/api/seeks",
            json!({"variant": "cypher", "clock": clock(10, 0)}),
        )
        .await;
    assert_eq!(st, 201);
    let game = v["game"].as_str().expect("dave's waiting pairing took it");
    let (_, state) = dave.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["variant"], "cypher");
    // Mistakes.
    let (st, v) = alice
        .post(
            "/api/pairing",
            json!({"variants": [], "clocks": [clock(1, 0)]}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (400, Some("a quick pairing names 1 to 20 variants"))
    );
    let (st, v) = alice
        .post("/api/pairing", json!({"variants": ["chess"]}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            400,
            Some("a quick pairing names 1 to 20 time controls in \"clocks\" and \"days\"")
        )
    );
    // A waiting pairing can be cancelled by its owner.
    let (_, v) = alice
        .post("/api/pairing", json!({"variants": ["chess"], "days": [3]}))
        .await;
    let id = v["id"].as_str().unwrap();
    let (st, _) = alice.delete(&format!("/api/pairing/{id}")).await;
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_answer_seeks_and_decline_when_the_engine_queue_is_full() {
    use menagerie_server::engine_pool::Class;
    let s = start(1, 300, 600_000).await;
    let me = Browser::new(&s.base);
    // The pool's one thread busy and four searches waiting: the queue is full.
    let held = s
        .app
        .engine_pool
        .acquire(Class::People, None)
        .await
        .unwrap();
    let mut waiting = Vec::new();
    for _ in 0..4 {
        let pool = s.app.engine_pool.clone();
        waiting.push(tokio::spawn(async move {
            let slot = pool.acquire(Class::People, None).await;
            drop(slot);
        }));
    }
    let end = Instant::now() + Duration::from_secs(5);
    while s.app.engine_pool.queued() < 4 {
        assert!(Instant::now() < end);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (st, v) = me
        .post(
            "/api/challenges",
            json!({"to": "engine:2", "variant": "cypher", "clock": clock(3, 0)}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            429,
            Some("Engine level 2 declines: the engine is busy (4 searches are waiting for its 1 thread); try again in a minute")
        )
    );
    // A seek is not answered by a bot meanwhile.
    let (mut ws, _) = {
        let (st, v) = me
            .post(
                "/api/seeks",
                json!({"variant": "chess", "clock": clock(5, 0), "color": "white"}),
            )
            .await;
        assert_eq!(st, 201, "{v}");
        me.lobby(true).await
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(me.get("/api/seeks").await.1.as_array().unwrap().len(), 1);
    // Free again: a bot answers the seek within seconds, and accepts challenges.
    drop(held);
    for w in waiting {
        w.await.unwrap();
    }
    let ev = next_of(&mut ws, "game", 10).await;
    let game = ev["game"].as_str().unwrap();
    let (_, state) = me.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "white");
    assert_eq!(state["players"]["black"], "engine:3");
    assert_eq!(state["clock"]["initial_ms"], 300_000);
    let (st, v) = me
        .post(
            "/api/challenges",
            json!({"to": "Engine level 6", "variant": "little-cheops-imperial", "clock": clock(1, 1), "color": "black"}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["status"], "accepted");
    assert_eq!(v["bot"], json!({"level": 6, "name": "Engine level 6"}));
    let game = v["game"].as_str().unwrap();
    let (_, state) = me.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "black");
    assert_eq!(state["players"]["white"], "engine:6");
    assert_eq!(state["variant"], "little-cheops-imperial");
    // The engine plays White's first turn on the pool.
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, state) = me.get(&format!("/api/games/{game}")).await;
        if state["moves"].as_array().unwrap().len() == 1 {
            break;
        }
        assert!(Instant::now() < end, "the bot never moved");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Every level takes a correspondence challenge from an account too.
    let acct = Browser::signup(&s.base, "gina").await;
    let (st, v) = acct
        .post(
            "/api/challenges",
            json!({"to": "engine:1", "variant": "vyrt", "days": 14, "color": "white"}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let (_, state) = acct
        .get(&format!("/api/games/{}", v["game"].as_str().unwrap()))
        .await;
    assert_eq!(state["correspondence"]["days_per_turn"], 14);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_accepted_declined_and_expire() {
    let s = start(1, 0, 4_000).await;
    let alice = Browser::signup(&s.base, "alice").await;
    let bob = Browser::signup(&s.base, "bob").await;
    let (mut alice_ws, _) = alice.lobby(false).await;
    let (mut bob_ws, hello) = bob.lobby(false).await;
    assert_eq!(hello["challenges"], json!({"in": [], "out": []}));
    let challenge =
        json!({"to": "Bob", "variant": "chess", "clock": clock(3, 0), "color": "white"});
    let (st, v) = alice.post("/api/challenges", challenge.clone()).await;
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["status"], "pending");
    let first = v["id"].as_str().unwrap().to_string();
    let seen = next_of(&mut bob_ws, "challenge", 5).await;
    assert_eq!(seen["challenge"]["id"], first.as_str());
    assert_eq!(seen["challenge"]["from"]["name"], "alice");
    assert_eq!(seen["challenge"]["to"]["name"], "bob");
    assert_eq!(seen["challenge"]["clock"], clock(3, 0));
    assert_eq!(seen["challenge"]["color"], "white");
    let (_, list) = bob.get("/api/challenges").await;
    assert_eq!(list["in"][0]["id"], first.as_str());
    assert_eq!(list["out"], json!([]));
    // Declined with a reason: the challenger is told in a sentence.
    let (st, v) = bob
        .post(
            &format!("/api/challenges/{first}/decline"),
            json!({"reason": "too-fast"}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    let told = next_of(&mut alice_ws, "challenge-declined", 5).await;
    assert_eq!(
        told["sentence"],
        "bob declined: this time control is too fast for them."
    );
    let (st, v) = bob
        .post(&format!("/api/challenges/{first}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (409, Some("this challenge has already been declined"))
    );
    // Accepted: the game starts for both, the challenger as White.
    let (_, v) = alice.post("/api/challenges", challenge.clone()).await;
    let second = v["id"].as_str().unwrap().to_string();
    let (st, v) = alice
        .post(&format!("/api/challenges/{second}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (403, Some("this challenge is not addressed to you"))
    );
    let (st, v) = bob
        .post(&format!("/api/challenges/{second}/accept"), json!({}))
        .await;
    assert_eq!(st, 201, "{v}");
    let game = v["game"].as_str().unwrap().to_string();
    let ev = next_of(&mut alice_ws, "game", 5).await;
    assert_eq!(ev["game"], game.as_str());
    assert_eq!(ev["id"], second.as_str());
    assert_eq!(ev["from"], "challenge");
    let (_, state) = alice.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "white");
    assert_eq!(state["seats"]["black"]["name"], "bob");
    // Unanswered, it expires: both are told, and it can no longer be accepted.
    let (_, v) = alice.post("/api/challenges", challenge.clone()).await;
    let third = v["id"].as_str().unwrap().to_string();
    let gone = next_of(&mut alice_ws, "challenge-gone", 10).await;
    assert_eq!(gone["id"], third.as_str());
    assert_eq!(gone["status"], "expired");
    assert_eq!(
        gone["sentence"],
        "Your challenge to bob expired without an answer."
    );
    let (st, v) = bob
        .post(&format!("/api/challenges/{third}/accept"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (409, Some("this challenge has expired"))
    );
    // Taken back by the challenger.
    let (_, v) = alice.post("/api/challenges", challenge.clone()).await;
    let fourth = v["id"].as_str().unwrap().to_string();
    let (st, _) = alice.delete(&format!("/api/challenges/{fourth}")).await;
    assert_eq!(st, 200);
    let (st, v) = bob
        .post(&format!("/api/challenges/{fourth}/decline"), json!({}))
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (409, Some("this challenge was cancelled by the challenger"))
    );
    // Mistakes.
    let anon = Browser::new(&s.base);
    let (st, v) = anon.post("/api/challenges", challenge.clone()).await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            401,
            Some("log in to challenge a player (anyone may challenge the engine's levels)")
        )
    );
    let (st, v) = alice
        .post(
            "/api/challenges",
            json!({"to": "nobody", "variant": "chess", "clock": clock(3, 0)}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (404, Some("there is no player named 'nobody'"))
    );
    let (st, v) = alice
        .post(
            "/api/challenges",
            json!({"to": "alice", "variant": "chess", "clock": clock(3, 0)}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (400, Some("you cannot challenge yourself"))
    );
    let (_, v) = alice.post("/api/challenges", challenge).await;
    let fifth = v["id"].as_str().unwrap();
    let (st, v) = bob
        .post(
            &format!("/api/challenges/{fifth}/decline"),
            json!({"reason": "boring"}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str()),
        (
            400,
            Some("reason is one of generic, later, too-fast, too-slow, variant, not \"boring\"")
        )
    );
}

// ----- a correspondence game across a restart (the server as a child process) -----

/// Starts the server binary with a correspondence "day" of `day_ms` and bots that never answer.
fn spawn(database: &str, day_ms: &str) -> Proc {
    common::spawn_server(database, &["--day-ms", day_ms, "--bot-wait-ms", "0"], &[])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_ends_on_time_after_a_restart_and_its_seeks_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    // A "day" of six seconds.
    let p = spawn(&db, "6000");
    let alice = Browser::signup(&p.base, "alice").await;
    let bob = Browser::signup(&p.base, "bob").await;
    let (_, v) = alice
        .post(
            "/api/seeks",
            json!({"variant": "chess", "days": 1, "color": "white"}),
        )
        .await;
    let seek = v["id"].as_str().unwrap().to_string();
    let (st, v) = bob
        .post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(st, 201, "{v}");
    let game = v["game"].as_str().unwrap().to_string();
    // A correspondence seek that nobody takes, and bob hears when it is his turn.
    let (_, v) = alice
        .post("/api/seeks", json!({"variant": "vyrt", "days": 14}))
        .await;
    let kept = v["id"].as_str().unwrap().to_string();
    let (mut bob_ws, _) = bob.lobby(false).await;
    let (st, _) = alice
        .post(&format!("/api/games/{game}/move"), json!({"move": "d4"}))
        .await;
    assert_eq!(st, 200);
    let turn = next_of(&mut bob_ws, "your-turn", 5).await;
    assert_eq!(turn["game"], game.as_str());
    assert_eq!(turn["opponent"], "alice");
    let (_, mine) = bob.get("/api/account/games").await;
    assert_eq!(mine[0]["id"], game.as_str());
    assert_eq!(mine[0]["your_turn"], true);
    let (_, state) = bob.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["outcome"], Value::Null);
    let deadline = state["correspondence"]["deadline_ms"].as_i64().unwrap();
    drop(bob_ws);
    // kill -9, and the server comes back while Black's day runs out.
    drop(p);
    let p = spawn(&db, "6000");
    let alice = Browser::new(&p.base);
    let (st, _) = alice
        .post(
            "/api/account/login",
            json!({"name": "alice", "password": PASSWORD}),
        )
        .await;
    assert_eq!(st, 200);
    let (_, list) = alice.get("/api/seeks").await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list[0]["id"], kept.as_str());
    assert_eq!(list[0]["days"], 14);
    // Nobody asks for the game: the server ends it by itself.
    let end = Instant::now() + Duration::from_secs(30);
    let over = loop {
        let (st, rows) = alice.get("/api/account/games").await;
        assert_eq!(st, 200);
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == game.as_str())
            .unwrap()
            .clone();
        if row["finished"] == true {
            break row;
        }
        assert!(Instant::now() < end, "the game never ended: {row}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(over["termination"], "time-forfeit");
    assert_eq!(over["winner"], "white");
    assert_eq!(over["score"], "won");
    let (_, state) = alice.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["outcome"]["winner"], "white");
    assert_eq!(state["correspondence"]["deadline_ms"], Value::Null);
    let ended_at = state["outcome"].clone();
    assert!(!ended_at.is_null());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(now >= deadline, "it ended before its deadline");
}

/// Two processes on one PostgreSQL are one lobby: a seek made through one is listed live by
/// the other, a race for it across both has one winner, a correspondence seek outlives the
/// process that took it (`kill -9`), and a live seek whose owner was connected only to a
/// killed process leaves the other's list. Needs PostgreSQL: `.ci/run` sets
/// `MENAGERIE_TEST_POSTGRES` and runs it with `--ignored`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn two_processes_on_postgresql_share_one_lobby() {
    let db = std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test");
    let p1 = spawn(&db, "86400000");
    let p2 = spawn(&db, "86400000");
    let owner = Browser::new(&p1.base);
    let (st, v) = owner
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(5, 3)}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let first = v["id"].as_str().unwrap().to_string();
    // The owner's page is on the second process (its session is in the database).
    let owner_there = Browser {
        c: owner.c.clone(),
        jar: owner.jar.clone(),
        base: p2.base.clone(),
    };
    // The other process learns of the seek by a notification: wait until it lists it (a
    // page opened there earlier gets it as a live event instead).
    let waited = std::time::Instant::now();
    loop {
        let (_, list) = owner_there.get("/api/seeks").await;
        let listed = list["seeks"]
            .as_array()
            .or_else(|| list.as_array())
            .is_some_and(|a| a.iter().any(|x| x["id"] == first.as_str()));
        if listed {
            break;
        }
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(10),
            "the second process never listed the seek: {list}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (mut owner_ws, hello) = owner_there.lobby(true).await;
    assert!(hello["mine"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x == first.as_str()));
    let watcher = Browser::new(&p2.base);
    let (mut watcher_ws, _) = watcher.lobby(true).await;
    // The owner has a lobby page on each process: two people online, not three. Two
    // heartbeats of each process (every 2 s) after the last socket opened: each has then
    // counted the other's row as it stands now.
    let (_owner_ws_here, _) = owner.lobby(false).await;
    tokio::time::sleep(Duration::from_millis(4500)).await;
    for b in [&owner, &watcher] {
        let (_, info) = b.get("/api/lobby").await;
        assert_eq!(info["online"], 2, "{}: {info}", b.base);
    }
    let (_, v) = owner
        .post(
            "/api/seeks",
            json!({"variant": "vyrt", "clock": clock(10, 0)}),
        )
        .await;
    let second = v["id"].as_str().unwrap().to_string();
    let seen = next_of(&mut watcher_ws, "seek", 5).await;
    assert_eq!(seen["seek"]["id"], second.as_str());
    assert_eq!(seen["seek"]["variant"], "vyrt");
    // Six players race for it, three through each process.
    let racers: Vec<Browser> = (0..6usize)
        .map(|i| {
            Browser::new(if i.is_multiple_of(2) {
                &p1.base
            } else {
                &p2.base
            })
        })
        .collect();
    let path = format!("/api/seeks/{second}/accept");
    let answers =
        futures_util::future::join_all(racers.iter().map(|b| b.post(&path, json!({})))).await;
    assert_eq!(
        answers.iter().filter(|(st, _)| *st == 201).count(),
        1,
        "{answers:?}"
    );
    for (st, v) in answers.iter().filter(|(st, _)| *st != 201) {
        assert_eq!((*st, v["error"].as_str()), (409, Some(TAKEN)));
    }
    let game = answers.iter().find(|(st, _)| *st == 201).unwrap().1["game"].clone();
    let ev = next_of(&mut owner_ws, "game", 5).await;
    assert_eq!(ev["game"], game);
    let gone = next_of(&mut watcher_ws, "unseek", 5).await;
    assert_eq!(gone["id"], second.as_str());
    // A correspondence seek made through the first process, which is then killed.
    let alice = Browser::signup(&p1.base, &format!("pg{}", std::process::id())).await;
    let (_, v) = alice
        .post("/api/seeks", json!({"variant": "cypher", "days": 7}))
        .await;
    let corr = v["id"].as_str().unwrap().to_string();
    let (_, v) = racers[0]
        .post(
            "/api/seeks",
            json!({"variant": "chess", "clock": clock(1, 0)}),
        )
        .await;
    let orphan = v["id"].as_str().unwrap().to_string();
    // Its owner's page is on the first process only.
    let (_racer_ws, _) = racers[0].lobby(false).await;
    drop(p1);
    // The second process keeps the correspondence seek and drops the orphaned live one.
    let end = Instant::now() + Duration::from_secs(40);
    loop {
        let (_, list) = watcher.get("/api/seeks").await;
        let ids: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|x| x["id"].as_str())
            .collect();
        assert!(ids.contains(&corr.as_str()), "{list}");
        assert!(
            ids.contains(&first.as_str()),
            "the owner is connected: {list}"
        );
        if !ids.contains(&orphan.as_str()) {
            break;
        }
        assert!(Instant::now() < end, "the orphaned seek stayed");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    drop(p2);
}
