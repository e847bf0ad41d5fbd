//! The people at the table (issue 32 items 5 and 6): aborting a game before both players have
//! moved, each side's presence and the claims on the opponent's absence, and the chat (two
//! rooms per game, limits, stored in the database, live on the game's websocket without a
//! version, nothing in it depending on a secret, kept across a `kill -9`).

mod common;

use common::{next, next_any, start, start_with, Proc, Server, Ws};
use serde_json::{json, Value};
use std::time::Duration;

/// A client with its own cookies (a browser), sending the headers a same-origin page sends.
struct Browser {
    c: reqwest::Client,
    base: String,
}

impl Browser {
    fn new(base: &str) -> Browser {
        Browser {
            c: reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .unwrap(),
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
        let st = res.status().as_u16();
        (st, res.json().await.unwrap_or(Value::Null))
    }

    /// A new account, logged in in this browser.
    async fn signup(&self, name: &str) {
        let (st, v) = self
            .call(
                "POST",
                "/api/account/signup",
                Some(json!({"name": name, "password": "correct horse battery"})),
            )
            .await;
        assert_eq!(st, 201, "{v}");
    }
}

/// The next presence message on `ws` that `wanted` accepts (5 s at most); other messages are
/// passed over.
async fn presence_until(ws: &mut Ws, wanted: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no such presence message within 5 s"
        );
        let Some(m) = next_any(ws, 5).await else {
            panic!("the socket closed or stayed silent before the presence message");
        };
        if m.get("presence").is_some_and(&wanted) {
            return m["presence"].clone();
        }
    }
}

/// The next chat message on `ws` (5 s at most).
async fn chat_message(ws: &mut Ws) -> Value {
    loop {
        let m = next_any(ws, 5).await.expect("a chat message within 5 s");
        if let Some(c) = m.get("chat") {
            return c.clone();
        }
    }
}

/// Whether `ws` receives a chat message within `ms` milliseconds.
async fn any_chat_within(ws: &mut Ws, ms: u64) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_millis(ms);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            return None;
        }
        let Ok(Some(m)) = tokio::time::timeout(left, next_any(ws, 1)).await else {
            continue;
        };
        if let Some(c) = m.get("chat") {
            return Some(c.clone());
        }
    }
}

async fn claim(s: &Server, id: &str, token: &str, what: &str) -> (u16, Value) {
    s.post(
        &format!("/api/games/{id}/claim"),
        Some(token),
        json!({"claim": what}),
    )
    .await
}

// ----- abort -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn either_player_aborts_before_both_have_moved_and_nobody_after() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.clone().unwrap(), g.black.clone().unwrap());
    let abort = |token: Option<String>| {
        let (s, id) = (&s, g.id.clone());
        async move {
            s.post(
                &format!("/api/games/{id}/abort"),
                token.as_deref(),
                json!({}),
            )
            .await
        }
    };
    let (_, st) = s.get(&format!("/api/games/{}", g.id), Some(&w)).await;
    assert_eq!(st["abortable"], true);
    // Only a player: not a spectator, not the umpire.
    let (code, v) = abort(None).await;
    assert_eq!(code, 403, "{v}");
    let (code, v) = abort(Some(g.umpire.clone())).await;
    assert_eq!(code, 403, "{v}");
    assert_eq!(
        v["error"],
        "the umpire's token watches the game; only a seat's token may act in it"
    );
    s.play(&g.id, &w, "e4").await;
    let mut spectator = s.ws(&g.id, None, 1).await;
    next(&mut spectator, 5).await.unwrap();
    // Black has not moved yet: Black may abort, and everyone sees it live.
    let (code, v) = abort(Some(b.clone())).await;
    assert_eq!(code, 200, "{v}");
    let outcome = json!({"winner": null, "code": "aborted", "sentence": "the game was aborted: no result", "points": null, "result": "*"});
    assert_eq!(v["outcome"], outcome);
    assert_eq!(v["abortable"], false);
    assert_eq!(v["version"], 3);
    let seen = common::until_version(&mut spectator, 3, 5).await;
    let events: Vec<Value> = seen.iter().map(|m| m["event"].clone()).collect();
    let mut end = outcome.clone();
    end["type"] = json!("end");
    end["by"] = json!("abort");
    assert_eq!(events, [json!({"type": "abort", "color": "black"}), end]);
    assert_eq!(seen[1]["state"]["outcome"], outcome);
    // Over: nothing more, not even a second abort.
    let (code, v) = abort(Some(w.clone())).await;
    assert_eq!(code, 409);
    assert_eq!(
        v["error"],
        "the game is over: the game was aborted: no result"
    );
    let (code, _) = s
        .post(
            &format!("/api/games/{}/move", g.id),
            Some(&b),
            json!({"move": "e5"}),
        )
        .await;
    assert_eq!(code, 409);
    // No result in the record and the lists.
    let record = s
        .client
        .get(s.url(&format!("/api/games/{}/record", g.id)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(record.contains("[Result \"*\"]"), "{record}");
    let (_, list) = s.get("/api/games", None).await;
    let row = list
        .as_array()
        .and_then(|l| l.iter().find(|r| r["id"] == g.id.as_str()))
        .cloned()
        .unwrap_or_else(|| panic!("the game is listed: {list}"));
    assert_eq!(
        (row["result"].clone(), row["termination"].clone()),
        (json!("*"), json!("aborted"))
    );

    // Before any turn, White may abort too.
    let h = s.create(json!({"variant": "cypher"})).await;
    let (code, v) = s
        .post(
            &format!("/api/games/{}/abort", h.id),
            h.white.as_deref(),
            json!({}),
        )
        .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["outcome"]["result"], "*");
    assert_eq!(v["outcome"]["points"], Value::Null, "no points scored");

    // Once both have moved: refused with a sentence, and the state says so.
    let k = s.create(json!({"variant": "chess"})).await;
    let (kw, kb) = (k.white.unwrap(), k.black.unwrap());
    s.play(&k.id, &kw, "e4").await;
    let after = s.play(&k.id, &kb, "e5").await;
    assert_eq!(after["abortable"], false);
    for t in [&kw, &kb] {
        let (code, v) = s
            .post(&format!("/api/games/{}/abort", k.id), Some(t), json!({}))
            .await;
        assert_eq!(code, 409);
        assert_eq!(
            v["error"],
            "the game can no longer be aborted: both players have moved (resign or offer a draw instead)"
        );
    }
    // A takeback to before Black's turn makes it abortable again.
    s.post(
        &format!("/api/games/{}/takeback", k.id),
        Some(&kb),
        json!({"action": "request"}),
    )
    .await;
    let (_, v) = s
        .post(
            &format!("/api/games/{}/takeback", k.id),
            Some(&kw),
            json!({"action": "accept"}),
        )
        .await;
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(v["abortable"], true);
}

// ----- presence and the claims on absence -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_side_sees_the_other_arrive_and_leave_and_claims_wait_for_the_absence() {
    // Two seconds instead of thirty (`--absence-seconds`).
    let s = start_with(|a| a.absence_seconds = 2.0).await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.clone().unwrap(), g.black.clone().unwrap());
    let id = g.id.clone();
    let (_, st) = s.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(st["connected"], json!({"white": false, "black": false}));
    assert_eq!(st["absence"], Value::Null);
    let mut white = s.ws(&id, Some(&w), 0).await;
    next(&mut white, 5).await.unwrap();
    let mut black = s.ws(&id, Some(&b), 0).await;
    next(&mut black, 5).await.unwrap();
    // White is told live that Black arrived.
    let p = presence_until(&mut white, |p| p["connected"]["black"] == true).await;
    assert_eq!(
        p,
        json!({"connected": {"white": true, "black": true}, "absence": null})
    );
    let (_, st) = s.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(st["connected"], json!({"white": true, "black": true}));
    assert_eq!(st["version"], 0, "presence is not an event");

    // Before both have moved there is nothing to claim: the game can be aborted instead.
    let (code, v) = claim(&s, &id, &b, "win-on-absence").await;
    assert_eq!(code, 409);
    assert_eq!(
        v["error"],
        "a claim on absence needs both players to have moved; abort the game instead"
    );
    s.play(&id, &w, "e4").await;
    s.play(&id, &b, "e5").await;
    // White is at the table.
    let (code, v) = claim(&s, &id, &b, "win-on-absence").await;
    assert_eq!(code, 409);
    assert_eq!(
        v["error"],
        "your opponent is at the table; a claim needs 2 seconds without any connection on their turn"
    );
    // White closes its page on its own turn: Black sees it at once, with the countdown.
    white.close(None).await.unwrap();
    drop(white);
    let p = presence_until(&mut black, |p| p["connected"]["white"] == false).await;
    assert_eq!(p["connected"], json!({"white": false, "black": true}));
    assert_eq!(p["absence"]["color"], "white");
    let left = p["absence"]["claim_in_ms"].as_i64().unwrap();
    assert!((1..=2000).contains(&left), "{p}");
    // Too early.
    let (code, v) = claim(&s, &id, &b, "win-on-absence").await;
    assert_eq!(code, 409);
    let e = v["error"].as_str().unwrap();
    assert!(
        e.starts_with(
            "your opponent has not been away for 2 seconds on their turn yet; you may claim in "
        ),
        "{e}"
    );
    // The absent side claims nothing: it is its own turn.
    let (code, v) = claim(&s, &id, &w, "draw-on-absence").await;
    assert_eq!(code, 409);
    assert_eq!(
        v["error"],
        "it is your turn: a claim on absence is made while the absent opponent is to move"
    );
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (_, st) = s.get(&format!("/api/games/{id}"), Some(&b)).await;
    assert_eq!(st["absence"], json!({"color": "white", "claim_in_ms": 0}));
    let (code, v) = claim(&s, &id, &b, "win-on-absence").await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        v["outcome"],
        json!({"winner": "black", "code": "absence", "sentence": "Black wins: White left the game", "points": null, "result": "0-1"})
    );
    assert_eq!(v["absence"], Value::Null, "over: nothing to claim");

    // A draw instead; White never opened the game's page after its turn came.
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    s.play(&g.id, &w, "d4").await;
    s.play(&g.id, &b, "d5").await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (code, v) = claim(&s, &g.id, &b, "draw-on-absence").await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        v["outcome"],
        json!({"winner": null, "code": "absence", "sentence": "Draw: a player left the game and the other claimed a draw", "points": null, "result": "1/2-1/2"})
    );

    // The engine never leaves.
    let e = s
        .create(json!({"variant": "chess", "black": "engine:1"}))
        .await;
    let (code, v) = claim(&s, &e.id, e.white.as_deref().unwrap(), "win-on-absence").await;
    assert_eq!(code, 409);
    assert_eq!(v["error"], "the engine never leaves the table");
    let (_, st) = s.get(&format!("/api/games/{}", e.id), None).await;
    assert_eq!(st["connected"]["black"], true, "an engine is always there");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_is_refused_once_the_absent_player_is_back() {
    let s = start_with(|a| a.absence_seconds = 1.0).await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    s.play(&g.id, &w, "e4").await;
    s.play(&g.id, &b, "e5").await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let mut white = s.ws(&g.id, Some(&w), 0).await;
    next(&mut white, 5).await.unwrap();
    let (code, v) = claim(&s, &g.id, &b, "win-on-absence").await;
    assert_eq!(code, 409, "{v}");
    assert_eq!(
        v["error"],
        "your opponent is at the table; a claim needs 1 seconds without any connection on their turn"
    );
}

// ----- chat -----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_chat_in_separate_rooms_within_the_limits() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.clone().unwrap(), g.black.clone().unwrap());
    let id = g.id.clone();
    let path = format!("/api/games/{id}/chat");
    let mut black = s.ws(&id, Some(&b), 0).await;
    next(&mut black, 5).await.unwrap();
    let mut watcher = s.ws(&id, None, 0).await;
    next(&mut watcher, 5).await.unwrap();

    // A player's message: stored, answered, live to the opponent, never to spectators.
    let text = "hello <img src=x onerror=alert(1)> & \"you\"";
    let (code, v) = s.post(&path, Some(&w), json!({"text": text})).await;
    assert_eq!(code, 201, "{v}");
    let first = json!({"seq": 1, "room": "players", "color": "white", "name": null, "text": text});
    assert_eq!(v["message"], first);
    assert_eq!(chat_message(&mut black).await, first);
    // A logged-in spectator writes in the spectators' room.
    let fan = Browser::new(&s.base);
    fan.signup("Watcher_1").await;
    let (code, v) = fan
        .call("POST", &path, Some(json!({"text": "nice opening"})))
        .await;
    assert_eq!(code, 201, "{v}");
    let theirs = json!({"seq": 1, "room": "spectators", "color": null, "name": "Watcher_1", "text": "nice opening"});
    assert_eq!(v["message"], theirs);
    assert_eq!(
        chat_message(&mut watcher).await,
        theirs,
        "the spectators' socket sees their room, and the players' message never came"
    );
    assert_eq!(
        any_chat_within(&mut black, 300).await,
        None,
        "players do not see the spectators' room"
    );
    // An anonymous spectator reads but does not write.
    let (code, v) = s.post(&path, None, json!({"text": "hi"})).await;
    assert_eq!(code, 403);
    assert_eq!(
        v["error"],
        "log in to write in the spectators' chat (anyone may read it)"
    );
    // Each reads its own room.
    let (_, v) = s.get(&path, Some(&b)).await;
    assert_eq!(v, json!({"room": "players", "messages": [first]}));
    let (_, v) = s.get(&path, None).await;
    assert_eq!(v, json!({"room": "spectators", "messages": [theirs]}));
    let (_, v) = s.get(&path, Some(&g.umpire)).await;
    assert_eq!(v["room"], "spectators");
    // Chat is no event: the game's version did not move.
    let (_, st) = s.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(st["version"], 0);
    s.play(&id, &w, "e4").await;
    let m = next(&mut black, 5).await.unwrap();
    assert_eq!(
        (m["version"].clone(), m["event"]["type"].clone()),
        (json!(1), json!("turn"))
    );

    // Length: 140 characters (not bytes) at most, with the count in the sentence.
    let (code, v) = s
        .post(&path, Some(&b), json!({"text": "é".repeat(141)}))
        .await;
    assert_eq!(code, 400);
    assert_eq!(
        v["error"],
        "a chat message is at most 140 characters; this one has 141"
    );
    let (code, v) = s.post(&path, Some(&b), json!({"text": "  \n "})).await;
    assert_eq!(code, 400);
    assert_eq!(v["error"], "a chat message needs some text");
    let (code, v) = s
        .post(&path, Some(&b), json!({"text": "é".repeat(140)}))
        .await;
    assert_eq!(code, 201, "{v}");
    assert_eq!(v["message"]["seq"], 2);
    // Rate: five in ten seconds per person (White has sent one; Black's count is its own).
    for i in 2..=5 {
        let (code, v) = s
            .post(&path, Some(&w), json!({"text": format!("message {i}")}))
            .await;
        assert_eq!(code, 201, "{i}: {v}");
    }
    let (code, v) = s.post(&path, Some(&w), json!({"text": "one more"})).await;
    assert_eq!(code, 429);
    assert_eq!(
        v["error"],
        "you may send at most 5 chat messages in 10 seconds; wait a moment"
    );
    let (code, _) = s.post(&path, Some(&b), json!({"text": "still me"})).await;
    assert_eq!(code, 201);
    let (_, v) = s.get(&path, Some(&w)).await;
    let texts: Vec<&str> = v["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert_eq!(texts.len(), 7);
    assert_eq!(texts[6], "still me");
    // A cross-site page cannot write in a player's name (the seat's cookie would go with it).
    let res = s
        .client
        .post(s.url(&path))
        .header("cookie", format!("menagerie-seat-{id}={w}"))
        .header("origin", "http://evil.example")
        .json(&json!({"text": "forged"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 403);
}

/// Little Cheops Imperial: two games that differ only in White's sealed appointment carry
/// byte-identical chat to the opponent and to spectators (the server adds nothing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imperial_chat_is_the_same_whatever_the_secret() {
    const FEN: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 1 1 -";
    let s = start().await;
    let fan = Browser::new(&s.base);
    fan.signup("Twin_watcher").await;
    let mut seen = Vec::new();
    for square in ["g5", "h5"] {
        let g = s
            .create(json!({"variant": "little-cheops-imperial", "fen": FEN}))
            .await;
        let (w, b) = (g.white.unwrap(), g.black.unwrap());
        let id = g.id.clone();
        let path = format!("/api/games/{id}/chat");
        let norm = |v: &Value| v.to_string().replace(&id, "GAME");
        let mut black = s.ws(&id, Some(&b), 0).await;
        next(&mut black, 5).await.unwrap();
        let mut watcher = s.ws(&id, None, 0).await;
        next(&mut watcher, 5).await.unwrap();
        s.play(&id, &w, &format!("appoint:{square}")).await;
        let mut all = Vec::new();
        for (token, text) in [(&w, "your move"), (&b, "thinking"), (&w, "take your time")] {
            let (code, v) = s.post(&path, Some(token), json!({"text": text})).await;
            assert_eq!(code, 201, "{v}");
            all.push(norm(&v));
            all.push(norm(&chat_message(&mut black).await));
        }
        let (code, v) = fan
            .call(
                "POST",
                &path,
                Some(json!({"text": "who did White appoint?"})),
            )
            .await;
        assert_eq!(code, 201, "{v}");
        all.push(norm(&v));
        all.push(norm(&chat_message(&mut watcher).await));
        for token in [Some(b.as_str()), None, Some(w.as_str())] {
            let (code, v) = s.get(&path, token).await;
            assert_eq!(code, 200);
            all.push(norm(&v));
        }
        for text in &all {
            assert!(!text.contains(square), "{text}");
        }
        seen.push(all);
    }
    assert_eq!(seen[0], seen[1]);
}

// ----- kill -9 -----

fn spawn(database: &str) -> Proc {
    common::spawn_server(database, &[], &[])
}

async fn call(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let c = reqwest::Client::new();
    let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut r = c.request(m, format!("{base}{path}"));
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
async fn chat_acknowledged_before_a_kill_9_is_there_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    let mut p = spawn(&db);
    let (_, g) = call(
        &p.base,
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "chess"})),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let w = g["seats"]["white"]["token"].as_str().unwrap().to_string();
    let b = g["seats"]["black"]["token"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/chat");
    let lines = [(&w, "good luck"), (&b, "you too"), (&w, "e4, as ever")];
    for (t, text) in lines {
        let (code, v) = call(&p.base, "POST", &path, Some(t), Some(json!({"text": text}))).await;
        assert_eq!(code, 201, "{v}");
    }
    let (_, before) = call(&p.base, "GET", &path, Some(&b), None).await;
    p.child.kill().expect("SIGKILL");
    p.child.wait().expect("it dies");
    drop(p);
    let q = spawn(&db);
    let (code, after) = call(&q.base, "GET", &path, Some(&b), None).await;
    assert_eq!(code, 200);
    assert_eq!(after, before);
    let texts: Vec<&str> = after["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert_eq!(texts, ["good luck", "you too", "e4, as ever"]);
    // The numbering goes on after the restart.
    let (code, v) = call(
        &q.base,
        "POST",
        &path,
        Some(&w),
        Some(json!({"text": "back"})),
    )
    .await;
    assert_eq!(code, 201, "{v}");
    assert_eq!(v["message"]["seq"], 4);
}

// ----- two processes on one PostgreSQL -----

/// White on one process, Black on another: each sees the other arrive and leave, and a
/// message posted to one process reaches the opponent's socket on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn presence_and_chat_cross_processes_on_postgresql() {
    let url = std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test");
    let (a, b) = (spawn(&url), spawn(&url));
    let ws_of = |p: &Proc| p.base.replacen("http://", "ws://", 1);
    let (_, g) = call(
        &a.base,
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "chess"})),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let w = g["seats"]["white"]["token"].as_str().unwrap().to_string();
    let bl = g["seats"]["black"]["token"].as_str().unwrap().to_string();
    let mut white = common::ws_connect(&ws_of(&a), &id, Some(&w), 0).await;
    next(&mut white, 5).await.unwrap();
    let mut black = common::ws_connect(&ws_of(&b), &id, Some(&bl), 0).await;
    next(&mut black, 5).await.unwrap();
    presence_until(&mut white, |p| p["connected"]["black"] == true).await;
    // Black's process learns of White from White's process (a notice or the heartbeat).
    presence_until(&mut black, |p| p["connected"]["white"] == true).await;
    let (_, st) = call(&b.base, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(st["connected"], json!({"white": true, "black": true}));
    let (code, v) = call(
        &a.base,
        "POST",
        &format!("/api/games/{id}/chat"),
        Some(&w),
        Some(json!({"text": "across"})),
    )
    .await;
    assert_eq!(code, 201, "{v}");
    assert_eq!(chat_message(&mut black).await["text"], "across");
    black.close(None).await.unwrap();
    drop(black);
    let p = presence_until(&mut white, |p| p["connected"]["black"] == false).await;
    assert_eq!(p["connected"], json!({"white": true, "black": false}));
    let (_, st) = call(&a.base, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(st["connected"], json!({"white": true, "black": false}));
}
