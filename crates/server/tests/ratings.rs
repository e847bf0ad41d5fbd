//! Ratings (issue 33) through the HTTP API: who may start a rated game, the exact Glicko-2
//! figures after a resignation between two new accounts, games that change nothing, the
//! leaderboard's thresholds, bots' ratings, a recompute that comes out identical (and one
//! that finds a changed figure), and a server killed around a game's end that rates it once.

mod common;

use common::{start_with_app, Proc, Server};
use menagerie_ratings::{rate_game, Params, Rating};
use menagerie_server::store::Store;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";

/// A browser: a client that keeps its cookies and sends the Origin of the server's pages.
struct Browser {
    c: reqwest::Client,
    base: String,
}

impl Browser {
    fn at(base: &str) -> Browser {
        let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
        Browser {
            c: reqwest::Client::builder()
                .cookie_provider(jar)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            base: base.to_string(),
        }
    }
    fn new(s: &Server) -> Browser {
        Browser::at(&s.base)
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
    /// Signs up as `name`.
    async fn sign_up(&self, name: &str) {
        let (st, v) = self
            .post(
                "/api/account/signup",
                json!({"name": name, "password": PASSWORD}),
            )
            .await;
        assert_eq!(st, 201, "{v}");
    }
}

/// A rated chess game: `white` creates it with White, `black` takes the invitation; its id.
async fn rated_game(white: &Browser, black: &Browser) -> String {
    let (st, v) = white
        .post(
            "/api/games",
            json!({"variant": "chess", "as": "white", "rated": true}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let code = v["invite"]["url"]
        .as_str()
        .unwrap()
        .strip_prefix("/join/")
        .unwrap()
        .to_string();
    let (st, j) = black.post(&format!("/api/join/{code}"), json!({})).await;
    assert_eq!(st, 201, "{j}");
    id
}

/// Plays `turns` in order, White first, each by its player's browser.
async fn play(white: &Browser, black: &Browser, id: &str, turns: &[&str]) {
    for (i, t) in turns.iter().enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        let (st, v) = who
            .post(&format!("/api/games/{id}/move"), json!({"move": t}))
            .await;
        assert_eq!(st, 200, "{t}: {v}");
    }
}

/// Two turns each: the least a rated game needs.
const FOUR: [&str; 4] = ["e2e4", "e7e5", "g1f3", "b8c6"];

fn rating_json(r: &Rating, games: i64, wins: i64, draws: i64, losses: i64) -> Value {
    json!({
        "rating": r.rating,
        "rd": r.deviation,
        "volatility": r.volatility,
        "provisional": r.is_provisional(),
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "best": if r.is_provisional() { Value::Null } else { json!(r.rating) },
    })
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_between_two_new_accounts_ends_by_resignation_with_the_crates_figures() {
    let (s, app) = start_with_app().await;
    first_rated_games(&s, &app, "alice", "bob", true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts it and sets MENAGERIE_TEST_POSTGRES"]
async fn the_same_rated_games_on_postgresql() {
    let db = std::env::var("MENAGERIE_TEST_POSTGRES")
        .expect("MENAGERIE_TEST_POSTGRES names the PostgreSQL database for this test");
    let (s, app) = common::start_with_app_on(Some(db)).await;
    // The database is shared with other tests and runs: names of this run only.
    let n = std::process::id();
    first_rated_games(&s, &app, &format!("pga{n}"), &format!("pgb{n}"), false).await;
}

/// A rated game won by `a_name` over `b_name` (two new accounts) with the crate's exact
/// figures, a short one and an aborted one that change nothing, a rated rematch, and a
/// recompute without differences (`alone`: the database holds nothing else, so exactly this
/// game and these two standings).
async fn first_rated_games(
    s: &Server,
    app: &std::sync::Arc<menagerie_server::app::App>,
    a_name: &str,
    b_name: &str,
    alone: bool,
) {
    let (alice, bob) = (Browser::new(s), Browser::new(s));
    alice.sign_up(a_name).await;
    bob.sign_up(b_name).await;
    let id = rated_game(&alice, &bob).await;
    let (_, st) = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(st["rated"], true);
    assert_eq!(st["rating_change"], Value::Null);
    play(&alice, &bob, &id, &FOUR).await;
    let (code, end) = bob
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(code, 200, "{end}");

    // Exactly the crate's figures: two new players, White wins.
    let new = Rating::new_player();
    let (w, b) = rate_game(&new, &new, 1.0, 0.0, 0.0, &Params::default()).unwrap();
    assert_eq!(
        (
            round(w.rating, 2),
            round(b.rating, 2),
            round(w.deviation, 2)
        ),
        (1741.62, 1258.38, 396.81)
    );
    let (_, u) = alice.get(&format!("/api/users/{a_name}")).await;
    assert_eq!(u["ratings"], json!({"chess": rating_json(&w, 1, 1, 0, 0)}));
    let (_, u) = alice.get(&format!("/api/users/{b_name}")).await;
    assert_eq!(u["ratings"], json!({"chess": rating_json(&b, 1, 0, 0, 1)}));

    // The end's answer and the state carry both changes.
    let change = json!({
        "white": {"before": 1500.0, "after": w.rating, "diff": w.rating - 1500.0, "rd": w.deviation, "provisional": true},
        "black": {"before": 1500.0, "after": b.rating, "diff": b.rating - 1500.0, "rd": b.deviation, "provisional": true},
    });
    assert_eq!(end["rating_change"], change);
    let (_, st) = s.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(st["rating_change"], change);
    assert_eq!(st["unrated_because"], Value::Null);

    // The history: one point, the game's.
    let (_, h) = alice
        .get(&format!("/api/users/{a_name}/rating-history"))
        .await;
    assert_eq!(h["chess"].as_array().unwrap().len(), 1);
    assert_eq!(h["chess"][0]["game"], id.as_str());
    assert_eq!(h["chess"][0]["rating"], json!(w.rating));
    assert_eq!(h["chess"][0]["diff"], json!(w.rating - 1500.0));

    // A game read again from the database (after eviction) shows the same change.
    app.evict_idle(std::time::Duration::ZERO);
    let (_, st) = s.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(st["rating_change"], change);

    // A rated game that ends before each player has made two turns changes nothing.
    let id2 = rated_game(&alice, &bob).await;
    play(&alice, &bob, &id2, &["e2e4", "e7e5", "d2d4"]).await;
    let (code, v) = bob
        .post(&format!("/api/games/{id2}/resign"), json!({}))
        .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["rating_change"], Value::Null);
    assert_eq!(v["unrated_because"], "a player made fewer than two turns");
    let (_, u) = alice.get(&format!("/api/users/{a_name}")).await;
    assert_eq!(u["ratings"], json!({"chess": rating_json(&w, 1, 1, 0, 0)}));

    // An aborted rated game (White has moved, Black not yet) changes nothing either.
    let id3 = rated_game(&alice, &bob).await;
    play(&alice, &bob, &id3, &["e2e4"]).await;
    let (code, v) = bob
        .post(&format!("/api/games/{id3}/abort"), json!({}))
        .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["outcome"]["code"], "aborted", "{v}");
    assert_eq!(v["rating_change"], Value::Null);
    assert_eq!(v["unrated_because"], "the game was aborted");
    let (_, u) = alice.get(&format!("/api/users/{a_name}")).await;
    assert_eq!(u["ratings"], json!({"chess": rating_json(&w, 1, 1, 0, 0)}));

    // The rematch of a rated game is rated.
    let (code, r) = alice
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await;
    assert_eq!(code, 200, "an offer: {r}");
    let (code, r) = bob
        .post(&format!("/api/games/{id}/rematch"), json!({}))
        .await;
    assert_eq!(code, 201, "{r}");
    let (_, st) = s
        .get(&format!("/api/games/{}", r["id"].as_str().unwrap()), None)
        .await;
    assert_eq!(st["rated"], true);

    let report = menagerie_server::ratings::recompute(&app.store)
        .await
        .unwrap();
    if alone {
        assert_eq!((report.games, report.standings), (1, 2));
    }
    assert_eq!(report.differences, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_may_start_or_join_a_rated_game_is_told_in_one_sentence() {
    let (s, _app) = start_with_app().await;
    let anon = Browser::new(&s);
    let (st, v) = anon
        .post(
            "/api/games",
            json!({"variant": "chess", "as": "white", "rated": true}),
        )
        .await;
    assert_eq!(
        (st, v["error"].as_str().unwrap()),
        (
            403,
            "only a logged-in player may start a rated game; log in or sign up first"
        )
    );
    let carol = Browser::new(&s);
    carol.sign_up("carol").await;
    let refused = [
        (
            json!({"variant": "chess", "rated": true}),
            "a rated game needs you in one seat: send \"as\": \"white\", \"black\" or \"random\"",
        ),
        (
            json!({"variant": "chess", "as": "none", "rated": true}),
            "a rated game needs you in one seat: send \"as\": \"white\", \"black\" or \"random\"",
        ),
        (
            json!({"variant": "chess", "as": "white", "rated": true,
                   "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}),
            "a game from a set-up position cannot be rated; leave out \"fen\" or \"rated\"",
        ),
    ];
    for (body, sentence) in refused {
        let (st, v) = carol.post("/api/games", body).await;
        assert_eq!((st, v["error"].as_str().unwrap()), (400, sentence));
    }
    // The invitation of a rated game: not for an anonymous browser, nor for the creator's
    // own account in another browser; a second account takes it.
    let (st, v) = carol
        .post(
            "/api/games",
            json!({"variant": "chess", "as": "black", "rated": true}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let join = format!(
        "/api/join/{}",
        v["invite"]["url"]
            .as_str()
            .unwrap()
            .strip_prefix("/join/")
            .unwrap()
    );
    let (st, e) = anon.post(&join, json!({})).await;
    assert_eq!(
        (st, e["error"].as_str().unwrap()),
        (
            403,
            "this game is rated: log in or sign up before taking its seat"
        )
    );
    let carol2 = Browser::new(&s);
    let (st, _) = carol2
        .post(
            "/api/account/login",
            json!({"name": "carol", "password": PASSWORD}),
        )
        .await;
    assert_eq!(st, 200);
    let (st, e) = carol2.post(&join, json!({})).await;
    assert_eq!(
        (st, e["error"].as_str().unwrap()),
        (
            403,
            "you already hold the other seat of this rated game; a rated game needs two players"
        )
    );
    let dave = Browser::new(&s);
    dave.sign_up("dave").await;
    let (st, j) = dave.post(&join, json!({})).await;
    assert_eq!((st, j["color"].as_str()), (201, Some("white")), "{j}");
    // An unrated game's invitation is anyone's, as before.
    let (_, v) = carol
        .post("/api/games", json!({"variant": "chess", "as": "white"}))
        .await;
    let code = v["invite"]["url"]
        .as_str()
        .unwrap()
        .strip_prefix("/join/")
        .unwrap();
    let (st, _) = anon.post(&format!("/api/join/{code}"), json!({})).await;
    assert_eq!(st, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_are_rated_and_recompute_comes_out_identical_until_a_figure_is_changed() {
    let (s, app) = start_with_app().await;
    let (erin, fred) = (Browser::new(&s), Browser::new(&s));
    erin.sign_up("erin").await;
    fred.sign_up("fred").await;
    // Before any game, each level is listed at its start.
    let (_, bots) = s.get("/api/bots", None).await;
    assert_eq!(bots["bots"][0]["name"], "Engine level 1");
    assert_eq!(bots["bots"][0]["start"], 1260.0);
    assert_eq!(
        bots["bots"][0]["ratings"]["chess"],
        json!({"rating": 1260.0, "rd": 500.0, "provisional": true, "games": 0})
    );
    // A rated game against engine level 1: Erin plays two turns, the engine answers, Erin
    // resigns.
    let (st, v) = erin
        .post(
            "/api/games",
            json!({"variant": "chess", "as": "white", "black": "engine:1", "rated": true}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    // No single reply of Black's stops either turn of White's.
    for t in ["e2e4", "d2d4"] {
        let (st, v) = erin
            .post(&format!("/api/games/{id}/move"), json!({"move": t}))
            .await;
        assert_eq!(st, 200, "{t}: {v}");
        wait_for_black(&erin, &id).await;
    }
    let (code, end) = erin
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(code, 200, "{end}");
    let bot_start = Rating::starting_at(1260.0);
    let (w, b) = rate_game(
        &Rating::new_player(),
        &bot_start,
        0.0,
        0.0,
        0.0,
        &Params::default(),
    )
    .unwrap();
    assert_eq!(end["rating_change"]["black"]["after"], json!(b.rating));
    let (_, bots) = s.get("/api/bots", None).await;
    assert_eq!(
        bots["bots"][0]["ratings"]["chess"],
        json!({"rating": b.rating, "rd": b.deviation, "provisional": true, "games": 1})
    );
    let (_, board) = s.get("/api/leaderboard/chess", None).await;
    assert_eq!(board["bots"][0]["level"], 8, "the strongest start first");
    assert!(board["bots"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["level"] == 1 && x["rating"] == json!(b.rating)));
    assert_eq!(board["players"], json!([]));
    let (_, u) = erin.get("/api/users/erin").await;
    assert_eq!(u["ratings"]["chess"]["rating"], json!(w.rating));

    // A draw by agreement between the two people, then a recompute.
    let id = rated_game(&erin, &fred).await;
    play(&erin, &fred, &id, &FOUR).await;
    let (code, _) = erin
        .post(&format!("/api/games/{id}/offer-draw"), json!({}))
        .await;
    assert_eq!(code, 200);
    let (code, v) = fred
        .post(&format!("/api/games/{id}/accept-draw"), json!({}))
        .await;
    assert_eq!(code, 200, "{v}");
    let (_, u) = fred.get("/api/users/fred").await;
    assert_eq!(u["ratings"]["chess"]["draws"], 1);
    let report = menagerie_server::ratings::recompute(&app.store)
        .await
        .unwrap();
    assert_eq!((report.games, report.standings), (2, 3));
    assert_eq!(report.differences, Vec::<String>::new());

    // A stored figure changed by a hair: the recompute says where.
    let Store::Sqlite(pool) = &app.store else {
        panic!("the tests' server uses SQLite")
    };
    sqlx::query("UPDATE ratings SET rating = rating + 0.000001 WHERE rater = 'bot:1'")
        .execute(pool)
        .await
        .unwrap();
    let report = menagerie_server::ratings::recompute(&app.store)
        .await
        .unwrap();
    assert_eq!(report.differences.len(), 1, "{:?}", report.differences);
    assert!(report.differences[0].starts_with("bot:1 in chess: stored"));
}

/// Waits until it is White's turn again in game `id` (the engine has answered).
async fn wait_for_black(b: &Browser, id: &str) {
    for _ in 0..200 {
        let (_, st) = b.get(&format!("/api/games/{id}")).await;
        if st["turn"] == "white" {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the engine did not answer in 10 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_people_from_ten_games_with_rd_below_110() {
    let (s, app) = start_with_app().await;
    // Forty games from one address in a minute: more than the default limit allows.
    app.limits.configure(1000, 1000, 1000, 1000);
    let (gina, hugo) = (Browser::new(&s), Browser::new(&s));
    gina.sign_up("gina").await;
    hugo.sign_up("hugo").await;
    let (st, v) = s.get("/api/leaderboard/nosuchgame", None).await;
    assert_eq!(st, 404, "{v}");
    let mut listed_after = None;
    for n in 1..=40 {
        let id = rated_game(&gina, &hugo).await;
        play(&gina, &hugo, &id, &FOUR).await;
        // Gina wins two games of three, so her rating rises above Hugo's.
        let loser = if n % 3 == 0 { &gina } else { &hugo };
        let (code, _) = loser
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(code, 200);
        let (_, u) = gina.get("/api/users/gina").await;
        let r = &u["ratings"]["chess"];
        let qualifies = r["games"].as_i64() >= Some(10) && r["rd"].as_f64() < Some(110.0);
        let (_, board) = s.get("/api/leaderboard/chess", None).await;
        let names: Vec<&str> = board["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.contains(&"gina"), qualifies, "after game {n}: {r}");
        if qualifies {
            assert_eq!(r["provisional"], false);
            assert_eq!(board["players"][0]["name"], "gina");
            assert_eq!(board["players"][0]["rank"], 1);
            assert_eq!(board["players"][0]["rating"], r["rating"]);
            listed_after = Some(n);
            break;
        }
    }
    let n = listed_after.expect("Gina qualifies within 40 games");
    assert!(n >= 10, "listed after {n} games");
    assert_eq!(
        s.get("/api/leaderboard/chess", None).await.1["thresholds"],
        json!({"games": 10, "days": 30, "rd_below": 110.0})
    );
    // A player whose last rated game is older than 30 days leaves the board.
    let Store::Sqlite(pool) = &app.store else {
        panic!("the tests' server uses SQLite")
    };
    sqlx::query("UPDATE ratings SET last_ms = last_ms - 31 * 86400000")
        .execute(pool)
        .await
        .unwrap();
    let (_, board) = s.get("/api/leaderboard/chess", None).await;
    assert_eq!(board["players"], json!([]));
}

// ----- a server killed around a game's end -----

/// Starts the server binary on `database` with `env` set.
fn spawn(database: &str, env: &[(&str, &str)]) -> Proc {
    common::spawn_server(database, &[], env)
}

/// Logs in as `name` on the server at `base`.
async fn logged_in(base: &str, name: &str) -> Browser {
    let b = Browser::at(base);
    let (st, v) = b
        .post(
            "/api/account/login",
            json!({"name": name, "password": PASSWORD}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    b
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_around_a_games_end_rates_it_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite").display().to_string();
    // The process dies (abort: no cleanup, as kill -9) after the end is stored and before it
    // is rated: the worst moment.
    let p = spawn(&db, &[("MENAGERIE_DIE_BEFORE_RATING", "1")]);
    let (ida, ivo) = (Browser::at(&p.base), Browser::at(&p.base));
    ida.sign_up("ida").await;
    ivo.sign_up("ivo").await;
    let id = rated_game(&ida, &ivo).await;
    play(&ida, &ivo, &id, &FOUR).await;
    let r = ivo
        .c
        .post(format!("{}/api/games/{id}/resign", p.base))
        .header("origin", &p.base)
        .send()
        .await;
    assert!(r.is_err(), "the process died before answering: {r:?}");
    let mut p = p;
    let _ = p.child.wait();
    drop(p);

    // Started again: the end was kept, and the change is applied at the start, once.
    let new = Rating::new_player();
    let (w, b) = rate_game(&new, &new, 1.0, 0.0, 0.0, &Params::default()).unwrap();
    let expected = json!({
        "ida": rating_json(&w, 1, 1, 0, 0),
        "ivo": rating_json(&b, 1, 0, 0, 1),
    });
    let ratings_of = |ida: &Browser| {
        let ida = Browser::at(&ida.base);
        async move {
            let mut got = serde_json::Map::new();
            for name in ["ida", "ivo"] {
                let (_, u) = ida.get(&format!("/api/users/{name}")).await;
                got.insert(name.into(), u["ratings"]["chess"].clone());
            }
            Value::Object(got)
        }
    };
    let p = spawn(&db, &[]);
    let ida = logged_in(&p.base, "ida").await;
    let (_, st) = ida.get(&format!("/api/games/{id}")).await;
    assert_eq!(st["outcome"]["code"], "resignation");
    assert_eq!(st["rating_change"]["white"]["after"], json!(w.rating));
    assert_eq!(ratings_of(&ida).await, expected);
    // A second game ends and is answered; then kill -9 at once.
    let ivo = logged_in(&p.base, "ivo").await;
    let id2 = rated_game(&ida, &ivo).await;
    play(&ida, &ivo, &id2, &FOUR).await;
    let (code, end) = ida
        .post(&format!("/api/games/{id2}/resign"), json!({}))
        .await;
    assert_eq!(code, 200);
    let after_two = ratings_of(&ida).await;
    assert_eq!(after_two["ida"]["games"], 2);
    assert_eq!(
        after_two["ivo"]["rating"],
        end["rating_change"]["black"]["after"]
    );
    drop(p);
    // Started again, twice: neither game is rated again.
    for round in 0..2 {
        let p = spawn(&db, &[]);
        let ida = Browser::at(&p.base);
        assert_eq!(ratings_of(&ida).await, after_two, "round {round}");
        drop(p);
    }
    // Two games rated, each once, and the figures recompute identically.
    let report =
        tokio::task::spawn_blocking(move || menagerie_server::ratings::recompute_database(&db))
            .await
            .unwrap()
            .unwrap();
    assert_eq!(
        (report.games, report.standings, report.differences),
        (2, 2, Vec::<String>::new())
    );
}
