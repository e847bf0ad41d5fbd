//! The security sweep (issue 15 item 6), against a `menagerie-server` child process whose
//! output is captured:
//!
//! * every endpoint of a game tried with no token, the umpire's token, an unknown token, a
//!   seat token of another game (as a bearer and as this game's cookie) and the other seat's
//!   token: the exact status and sentence of each;
//! * every response and websocket event the opponent and a spectator receive in a Little
//!   Cheops Imperial game scanned for White's sealed papers (the appointed Civilian's square
//!   in a turn text, in a position string's papers field, or marked on a board);
//! * the headers: the content security policy and its companions on every response,
//!   `no-store` on seat links, pages and game states;
//! * tokens (and their hashes) never in the server's output, nor in any response but the one
//!   that creates them.

mod support;

use serde_json::{json, Value};
use std::collections::BTreeSet;
use support::{call, create, next, spawn, Rng};

const CSP: &str = "default-src 'self'; script-src 'self' 'sha256-6FIy5Eiioykw+QQOTG2O0a3s0L9KSaS9qyvrjUD3LDg='; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// How a request says who it is.
#[derive(Clone)]
enum Auth {
    None,
    Bearer(String),
    /// A cookie: name, token.
    Cookie(String, String),
}

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

struct Sweep {
    c: reqwest::Client,
    base: String,
    /// Every answer's body, for the token scan.
    bodies: Vec<String>,
}

impl Sweep {
    async fn req(&mut self, method: &str, path: &str, auth: &Auth, body: Option<Value>) -> Answer {
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut r = self.c.request(m, format!("{}{path}", self.base));
        match auth {
            Auth::None => {}
            Auth::Bearer(t) => r = r.bearer_auth(t),
            Auth::Cookie(name, t) => r = r.header("cookie", format!("{name}={t}")),
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let res = r.send().await.unwrap();
        let a = Answer {
            status: res.status().as_u16(),
            headers: res.headers().clone(),
            text: res.text().await.unwrap(),
        };
        // Every answer carries the security headers.
        assert_eq!(a.header("content-security-policy"), CSP, "{method} {path}");
        assert_eq!(a.header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(a.header("x-frame-options"), "DENY", "{path}");
        assert_eq!(a.header("referrer-policy"), "no-referrer", "{path}");
        self.bodies.push(a.text.clone());
        a
    }
}

const NO_TOKEN: &str =
    "only a player may act in this game: send the seat's token (Authorization: Bearer TOKEN)";
const UMPIRE: &str = "the umpire's token watches the game; only a seat's token may act in it";
const NO_SEAT: &str = "this token opens no seat of this game";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_endpoint_with_every_wrong_token_headers_and_no_token_in_logs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    let p = spawn(&db, &[]);
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let (id, w, b, u) = create(&c, &p.base, json!({"variant": "chess"})).await;
    let (other, ow, ob, ou) = create(&c, &p.base, json!({"variant": "chess"})).await;
    let mut s = Sweep {
        c,
        base: p.base.clone(),
        bodies: Vec::new(),
    };
    let cookie = format!("menagerie-seat-{id}");
    let unknown = "0123456789abcdef0123456789abcdef".to_string();
    let g = format!("/api/games/{id}");

    // Acting: only a seat's own token acts.
    let acting = [
        ("move", json!({"move": "e4"})),
        ("resign", json!({})),
        ("offer-draw", json!({})),
        ("accept-draw", json!({})),
        ("decline-draw", json!({})),
        ("claim", json!({"claim": "fifty-moves"})),
        ("takeback", json!({})),
    ];
    let wrong = [
        (Auth::None, NO_TOKEN),
        (Auth::Bearer(u.clone()), UMPIRE),
        (Auth::Bearer(unknown.clone()), NO_SEAT),
        (Auth::Bearer(ow.clone()), NO_SEAT),
        (Auth::Bearer(ou.clone()), NO_SEAT),
        (Auth::Cookie(cookie.clone(), ow.clone()), NO_SEAT),
        // "Bearer" with no token is no token: a spectator, who may not act.
        (Auth::Bearer(String::new()), NO_TOKEN),
    ];
    for (path, body) in &acting {
        for (auth, sentence) in &wrong {
            let a = s
                .req("POST", &format!("{g}/{path}"), auth, Some(body.clone()))
                .await;
            assert_eq!(
                (a.status, a.json()),
                (403, json!({"error": sentence})),
                "{path}"
            );
        }
    }
    // The other seat (Black, while White is to move; claims are not bound to the turn, but
    // chess offers none), and White where nothing is pending.
    let seat_cases = [
        (
            &b,
            "move",
            json!({"move": "e5"}),
            409,
            "it is not your turn: White is to move",
        ),
        (
            &b,
            "claim",
            json!({"claim": "fifty-moves"}),
            400,
            "'fifty-moves' cannot be claimed: the rules offer you no claim now",
        ),
        (
            &w,
            "accept-draw",
            json!({}),
            409,
            "there is no draw offer from your opponent to accept",
        ),
        (
            &w,
            "decline-draw",
            json!({}),
            409,
            "there is no draw offer from your opponent to decline",
        ),
        (
            &w,
            "takeback",
            json!({}),
            409,
            "you have played no turn to take back",
        ),
        (
            &w,
            "takeback",
            json!({"action": "accept"}),
            409,
            "your opponent has not asked to take back",
        ),
    ];
    for (t, path, body, status, sentence) in seat_cases {
        let a = s
            .req(
                "POST",
                &format!("{g}/{path}"),
                &Auth::Bearer(t.clone()),
                Some(body),
            )
            .await;
        assert_eq!(
            (a.status, a.json()["error"].as_str()),
            (status, Some(sentence)),
            "{path}"
        );
    }
    // Nothing happened to either game.
    for game in [&id, &other] {
        let a = s
            .req("GET", &format!("/api/games/{game}"), &Auth::None, None)
            .await;
        assert_eq!(a.json()["version"], 0);
    }

    // Reading: each viewer its own view; a token of nothing here is refused.
    let readers = [
        (Auth::None, Some("spectator")),
        (Auth::Bearer(w.clone()), Some("white")),
        (Auth::Bearer(b.clone()), Some("black")),
        (Auth::Bearer(u.clone()), Some("umpire")),
        (Auth::Cookie(cookie.clone(), w.clone()), Some("white")),
        // Another game's cookie name does not open this game: a spectator.
        (
            Auth::Cookie(format!("menagerie-seat-{other}"), w.clone()),
            Some("spectator"),
        ),
        (Auth::Bearer(unknown.clone()), None),
        (Auth::Bearer(ow.clone()), None),
        (Auth::Bearer(ob.clone()), None),
        (Auth::Cookie(cookie.clone(), ob.clone()), None),
    ];
    for (auth, you) in &readers {
        let a = s.req("GET", &g, auth, None).await;
        let rec = s.req("GET", &format!("{g}/record"), auth, None).await;
        match you {
            Some(you) => {
                assert_eq!((a.status, a.json()["you"].as_str()), (200, Some(*you)));
                assert_eq!(a.header("cache-control"), "no-store");
                assert_eq!(rec.status, 200);
                assert_eq!(rec.header("cache-control"), "no-store");
            }
            None => {
                assert_eq!((a.status, a.json()), (403, json!({"error": NO_SEAT})));
                assert_eq!((rec.status, rec.json()), (403, json!({"error": NO_SEAT})));
            }
        }
        // The websocket: refused before the upgrade, or the viewer's first message.
        let token = match auth {
            Auth::Bearer(t) => Some(t.as_str()),
            _ => None,
        };
        if matches!(auth, Auth::Cookie(..)) {
            continue;
        }
        match (support::ws(&p.ws_base(), &id, token, 0).await, you) {
            (Ok(mut ws), Some(you)) => {
                let m = next(&mut ws, 5000).await.unwrap();
                assert_eq!(m["state"]["you"], *you);
            }
            (Err(e), None) => assert!(e.contains("403"), "{e}"),
            (r, you) => panic!("websocket for {you:?}: {:?}", r.map(|_| ())),
        }
    }
    // A websocket path asked without an upgrade: a sentence, not a hang.
    let a = s.req("GET", &format!("{g}/ws"), &Auth::None, None).await;
    assert_eq!(a.status, 400);
    // The seat link: sets the cookie (HttpOnly) and sends to the game; never cached.
    let a = s.req("GET", &format!("/play/{w}"), &Auth::None, None).await;
    assert_eq!(a.status, 303);
    assert_eq!(
        a.header("set-cookie"),
        format!("{cookie}={w}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000")
    );
    assert_eq!(a.header("location"), format!("/game/{id}"));
    assert_eq!(a.header("cache-control"), "no-store");
    for bad in [unknown.clone(), "x".repeat(200), id.to_string()] {
        let a = s
            .req("GET", &format!("/play/{bad}"), &Auth::None, None)
            .await;
        assert_eq!(
            (a.status, a.json()),
            (403, json!({"error": "this link opens no seat"}))
        );
    }
    // Pages: never cached; static files revalidated.
    for page in [
        "/",
        format!("/game/{id}").as_str(),
        "/games",
        "/analysis",
        "/rules/chess",
    ] {
        let a = s.req("GET", page, &Auth::None, None).await;
        assert_eq!(
            (a.status, a.header("cache-control")),
            (200, "no-store"),
            "{page}"
        );
    }
    let a = s.req("GET", "/static/js/api.js", &Auth::None, None).await;
    assert_eq!((a.status, a.header("cache-control")), (200, "no-cache"));
    // Endpoints of no game, with a seat token that must change nothing.
    for (m, path) in [
        ("GET", "/api/variants"),
        ("GET", "/api/games"),
        ("GET", "/api/rules/chess"),
    ] {
        let a = s.req(m, path, &Auth::Bearer(w.clone()), None).await;
        assert_eq!(a.status, 200, "{path}");
    }
    let a = s.req("GET", "/api/nothing", &Auth::None, None).await;
    assert_eq!(
        (a.status, a.json()),
        (
            404,
            json!({"error": "there is no such API endpoint; see docs/api.md"})
        )
    );
    // A move with the seat's own token, finally.
    let a = s
        .req(
            "POST",
            &format!("{g}/move"),
            &Auth::Bearer(w.clone()),
            Some(json!({"move": "e4"})),
        )
        .await;
    assert_eq!((a.status, a.header("cache-control")), (200, "no-store"));

    // No token, nor its hash, in any answer but the seat link's cookie, nor in the logs.
    let log = p.kill9();
    for t in [&w, &b, &u, &ow, &ob, &ou] {
        let hash = menagerie_server::app::token_hash(t);
        for body in &s.bodies {
            assert!(
                !body.contains(t.as_str()) && !body.contains(&hash),
                "{body}"
            );
        }
        assert!(!log.contains(t.as_str()) && !log.contains(&hash), "{log}");
    }
}

/// The squares of the Deputies marked sealed on a snapshot.
fn sealed_on_board(state: &Value) -> BTreeSet<String> {
    state["board"]["squares"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|q| {
            q["marks"].as_array().is_some_and(|m| {
                m.iter()
                    .any(|m| m.as_str().is_some_and(|m| m.contains("sealed")))
            })
        })
        .filter_map(|q| q["name"].as_str().map(str::to_string))
        .collect()
}

/// Every string inside `v`, with its key.
fn strings<'a>(v: &'a Value, key: &'a str, out: &mut Vec<(&'a str, &'a str)>) {
    match v {
        Value::String(s) => out.push((key, s)),
        Value::Array(a) => a.iter().for_each(|x| strings(x, key, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| strings(x, k, out)),
        _ => {}
    }
}

/// Whether a text the opponent or a spectator received gives away the sealed `square`.
fn leaks(text: &str, square: &str) -> Option<String> {
    // The parser's fixed list of examples names `appoint:g5` whatever the game.
    let text = &text.replace("appoint:g5, inspect:g5", "EXAMPLES");
    if text.contains(&format!("appoint:{square}")) {
        return Some("the appointment's square".into());
    }
    if let Ok(v) = serde_json::from_str::<Value>(text.as_str()) {
        let mut all = Vec::new();
        strings(&v, "", &mut all);
        for (k, s) in all {
            // A position string's seventh field is the papers.
            let f: Vec<&str> = s.split_whitespace().collect();
            if k == "fen" && f.len() >= 7 && f[6].split(',').any(|p| p.contains(square)) {
                return Some(format!("the papers in {s}"));
            }
        }
        for st in [&v, &v["state"]] {
            if sealed_on_board(st).contains(square) {
                return Some("a sealed mark on the board".into());
            }
        }
    } else {
        // A record: its position tags carry the papers only for the umpire.
        for line in text
            .lines()
            .filter(|l| l.starts_with("[FEN") || l.starts_with("[SetUp"))
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() >= 8 && f[7].contains(square) {
                return Some(format!("the papers in {line}"));
            }
        }
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imperial_game_never_shows_whites_sealed_papers_to_black_or_spectators() {
    const FEN: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 1 1 -";
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    let p = spawn(&db, &[]);
    let c = reqwest::Client::new();
    let mut scanned = 0;
    for (square, seed) in [("g5", 1), ("h5", 2), ("g5", 3)] {
        let (id, w, b, u) = create(
            &c,
            &p.base,
            json!({"variant": "little-cheops-imperial", "fen": FEN}),
        )
        .await;
        let g = format!("{}/api/games/{id}", p.base);
        let mut black_ws = support::ws(&p.ws_base(), &id, Some(&b), 0).await.unwrap();
        let mut spectator_ws = support::ws(&p.ws_base(), &id, None, 0).await.unwrap();
        let mut public: Vec<String> = Vec::new();
        let (st, v) = call(
            &c,
            "POST",
            &format!("{g}/move"),
            Some(&w),
            Some(json!({"move": format!("appoint:{square}")})),
        )
        .await
        .unwrap();
        assert_eq!(st, 200, "{v}");
        assert_eq!(sealed_on_board(&v), BTreeSet::from([square.to_string()]));
        let mut rng = Rng(seed);
        for ply in 1..16 {
            // Public views, records and a refused turn's sentence, as Black and as a spectator.
            for t in [Some(b.as_str()), None] {
                let (_, v) = call(&c, "GET", &g, t, None).await.unwrap();
                public.push(v.to_string());
                let mut r = c.get(format!("{g}/record"));
                if let Some(t) = t {
                    r = r.bearer_auth(t);
                }
                public.push(r.send().await.unwrap().text().await.unwrap());
            }
            for bad in [
                format!("{square}g6"),
                format!("{square}:g7"),
                "appoint".into(),
            ] {
                let (_, v) = call(
                    &c,
                    "POST",
                    &format!("{g}/move"),
                    Some(&b),
                    Some(json!({"move": bad})),
                )
                .await
                .unwrap();
                public.push(v.to_string());
            }
            let (mover, token) = if ply % 2 == 1 {
                ("black", &b)
            } else {
                ("white", &w)
            };
            let (_, state) = call(&c, "GET", &g, Some(token), None).await.unwrap();
            if mover == "white" && !sealed_on_board(&state).contains(square) {
                break; // White's Deputy is no longer sealed (revealed): nothing left to hide.
            }
            if !state["outcome"].is_null() {
                break;
            }
            // Neither inspections by Black nor White moving its Deputy or appointing again:
            // those reveal or add papers by the rules.
            let choices: Vec<String> = state["legal"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|t| t["canonical"].as_str())
                .filter(|t| {
                    !t.starts_with("inspect") && !t.starts_with("appoint") && !t.starts_with(square)
                })
                .map(str::to_string)
                .collect();
            if choices.is_empty() {
                break;
            }
            let pick = &choices[rng.below(choices.len() as u64) as usize];
            let (st, v) = call(
                &c,
                "POST",
                &format!("{g}/move"),
                Some(token),
                Some(json!({"move": pick})),
            )
            .await
            .unwrap();
            assert_eq!(st, 200, "{pick}: {v}");
            if mover == "black" {
                public.push(v.to_string());
            }
        }
        // Every websocket message Black and the spectator received.
        for ws in [&mut black_ws, &mut spectator_ws] {
            while let Some(m) = next(ws, 500).await {
                public.push(m.to_string());
            }
        }
        // The umpire sees the papers, so the scan would find them there.
        let (_, umpire) = call(&c, "GET", &g, Some(&u), None).await.unwrap();
        assert!(leaks(&umpire.to_string(), square).is_some(), "{umpire}");
        for text in &public {
            if let Some(what) = leaks(text, square) {
                panic!("{what} reached Black or a spectator: {text}");
            }
        }
        scanned += public.len();
    }
    assert!(scanned > 100, "{scanned}");
}
