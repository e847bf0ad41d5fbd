//! Contract A of the server (PLAN.md): a position without a game, a game's position at a ply,
//! the rulebook's claims, clocks and rematches; each persisted where it is part of a game
//! (a second server opened on the same database sees the same game).

mod common;

use common::{start_in, start_with_app, until_version};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_without_a_game() {
    let s = common::start().await;
    let (st, v) = s
        .post(
            "/api/position",
            None,
            json!({"variant": "chess", "moves": ["e4", "e7e5"]}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["variant"], "chess");
    assert_eq!(v["rules"], json!({}));
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    assert_eq!(v["turn"], "white");
    assert_eq!(
        v["moves"],
        json!([{"canonical": "e2e4", "human": "e4"}, {"canonical": "e7e5", "human": "e5"}])
    );
    assert_eq!(v["legal"].as_array().unwrap().len(), 29);
    assert_eq!(v["board"]["squares"].as_array().unwrap().len(), 64);
    assert_eq!(v["outcome"], Value::Null);
    assert_eq!(v["claims"], json!([]));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["board", "claims", "fen", "legal", "moves", "outcome", "rules", "turn", "variant"]
    );
    // Mate: no legal turns, the outcome.
    let (_, v) = s
        .post(
            "/api/position",
            None,
            json!({"variant": "chess", "moves": ["f3", "e5", "g4", "Qh4"]}),
        )
        .await;
    assert_eq!(v["legal"], json!([]));
    assert_eq!(v["outcome"]["code"], "checkmate");
    assert_eq!(v["outcome"]["result"], "0-1");
    // An illegal turn names its number and text.
    let (st, v) = s
        .post(
            "/api/position",
            None,
            json!({"variant": "chess", "moves": ["e4", "e4"]}),
        )
        .await;
    assert_eq!(st, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("move 2 ('e4') is not legal: "),
        "{v}"
    );
    let (st, v) = s
        .post("/api/position", None, json!({"variant": "nonesuch"}))
        .await;
    assert_eq!(st, 400);
    assert_eq!(
        v["error"],
        "unknown variant 'nonesuch'; GET /api/variants lists them"
    );
    let (st, _) = s
        .post(
            "/api/position",
            None,
            json!({"variant": "chess", "fen": "8/8/8 w - - 0 1"}),
        )
        .await;
    assert_eq!(st, 400);
    // It creates nothing.
    let (_, list) = s.get("/api/games", None).await;
    assert_eq!(list, json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_at_each_ply() {
    let s = common::start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    s.play(&g.id, &w, "e4").await;
    s.play(&g.id, &b, "e5").await;
    let at = |ply: &str| format!("/api/games/{}/at/{ply}", g.id);
    let (st, v) = s.get(&at("0"), None).await;
    assert_eq!(st, 200);
    assert_eq!(
        v,
        json!({"ply": 0, "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "board": v["board"], "last": null, "turn": "white"})
    );
    let (_, v) = s.get(&at("1"), Some(&b)).await;
    assert_eq!(v["last"], json!({"canonical": "e2e4", "human": "e4"}));
    assert_eq!(v["turn"], "black");
    assert_eq!(v["board"]["last_turn"], json!(["e2", "e4"]));
    let (_, v) = s.get(&at("2"), Some(&g.umpire)).await;
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    let (st, v) = s.get(&at("3"), None).await;
    assert_eq!(st, 404);
    assert_eq!(v["error"], "there is no ply 3: the game has 2 turns so far");
    let (st, v) = s.get(&at("-1"), None).await;
    assert_eq!(st, 400);
    assert_eq!(
        v["error"],
        "a ply is a whole number from 0 to 2 (the turns played)"
    );
    let (st, _) = s.get("/api/games/nonesuch/at/0", None).await;
    assert_eq!(st, 404);
    let (st, _) = s.get(&at("0"), Some("0123")).await;
    assert_eq!(st, 403);
}

/// Little Cheops Imperial, R36: at the third occurrence White may abdicate or accept the
/// draw; the game waits. Accepting is the turn `draw` (a `turn` event, then `end`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_repetition_choice_is_claimed_as_a_turn() {
    let s = common::start().await;
    let fen = "12k/13/13/13/5t7/13/13/13/13/13/13/13/K11D w - - 0 1 -";
    let g = s
        .create(json!({"variant": "little-cheops-imperial", "fen": fen}))
        .await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    for (i, mv) in ["a1a2", "m13l13", "a2a1", "l13m13"]
        .repeat(2)
        .iter()
        .enumerate()
    {
        s.play(&g.id, if i % 2 == 0 { &w } else { &b }, mv).await;
    }
    let (_, white) = s.get(&format!("/api/games/{}", g.id), Some(&w)).await;
    assert_eq!(white["outcome"], Value::Null);
    assert_eq!(
        white["claims"],
        json!([
            {"code": "draw", "sentence": "accept the ending: Draw by threefold repetition"},
            {"code": "challenge", "sentence": "challenge the opponent to show a mate: if 50 rounds then pass with no Pawn move, capture, arrest or checkmate, the game is drawn (R38)"}
        ])
    );
    let (_, black) = s.get(&format!("/api/games/{}", g.id), Some(&b)).await;
    assert_eq!(black["claims"].as_array().unwrap().len(), 1);
    assert_eq!(black["claims"][0]["code"], "challenge");
    let (_, spectator) = s.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(spectator["claims"], json!([]));
    // Black may not take White's choice.
    let claim = format!("/api/games/{}/claim", g.id);
    let (st, v) = s.post(&claim, Some(&b), json!({"claim": "draw"})).await;
    assert_eq!(st, 400);
    assert_eq!(
        v["error"],
        "'draw' cannot be claimed now; the rules offer you challenge"
    );
    let mut ws = s.ws(&g.id, None, 8).await;
    common::next(&mut ws, 5).await.expect("the sync message");
    let (st, v) = s.post(&claim, Some(&w), json!({"claim": "draw"})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["outcome"]["code"], "repetition");
    assert_eq!(v["outcome"]["result"], "1/2-1/2");
    assert_eq!(v["moves"][8], json!({"canonical": "draw", "human": "draw"}));
    assert_eq!(v["claims"], json!([]));
    let got = until_version(&mut ws, 10, 5).await;
    let events: Vec<&Value> = got.iter().map(|m| &m["event"]).collect();
    assert_eq!(events[0]["type"], "turn");
    assert_eq!(events[0]["canonical"], "draw");
    assert_eq!(events[1]["type"], "end");
    assert_eq!(events[1]["code"], "repetition");
    let text = s
        .client
        .get(s.url(&format!("/api/games/{}/record", g.id)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("5. draw 1/2-1/2"), "{text}");
    assert!(text.contains("[Termination \"repetition\"]"), "{text}");
}

/// Little Cheops, R38: either player may challenge at any time (an event, persisted); the
/// count then ends the game; a restart and the record keep the challenge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fifty_round_challenge_is_an_event_that_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_in(dir.path()).await;
    // Kings walk; White's Tower is boxed in by its Civilians (nothing captured, no Pawn).
    let fen = "8k/9/9/9/9/9/2K6/C8/TC7 w 0 1";
    let g = s
        .create(json!({"variant": "little-cheops", "fen": fen, "rules": {"challenge-count": "50-turns"}}))
        .await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let claim = format!("/api/games/{}/claim", g.id);
    let (st, v) = s
        .post(&claim, Some(&b), json!({"claim": "challenge"}))
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["version"], 1);
    assert_eq!(v["claims"], json!([]), "made once");
    let (st, v) = s
        .post(&claim, Some(&w), json!({"claim": "challenge"}))
        .await;
    assert_eq!(st, 400);
    assert_eq!(
        v["error"],
        "'challenge' cannot be claimed: the rules offer you no claim now"
    );
    let mut ws = s.ws(&g.id, Some(&w), 0).await;
    let first = common::next(&mut ws, 5).await.unwrap();
    assert_eq!(
        first["event"],
        json!({"type": "claim", "color": "black", "code": "challenge",
               "sentence": "challenge the opponent to show a mate: if 50 rounds then pass with no Pawn move, capture, arrest or checkmate, the game is drawn (R38)"})
    );
    let white = "c3 d3 e3 f3 g3 h3 i3 i4 h4 g4 f4 e4 d4 c4 b4 a4 a5 b5 c5 d5 e5 f5 g5 h5 i5 i6";
    let black = "i9 h9 g9 f9 e9 d9 c9 b9 a9 a8 b8 c8 d8 e8 f8 g8 h8 i8 i7 h7 g7 f7 e7 d7 c7 b7";
    let wp: Vec<&str> = white.split(' ').collect();
    let bp: Vec<&str> = black.split(' ').collect();
    let mut last = Value::Null;
    for turn in 0..50 {
        if turn == 25 {
            // A restart halfway: the challenge is replayed from the database.
            let again = start_in(dir.path()).await;
            let (_, v) = again.get(&format!("/api/games/{}", g.id), Some(&w)).await;
            assert_eq!(v["version"], 26);
            assert_eq!(v["claims"], json!([]));
        }
        let (path, token) = if turn % 2 == 0 { (&wp, &w) } else { (&bp, &b) };
        let i = turn / 2;
        last = s
            .play(&g.id, token, &format!("{}{}", path[i], path[i + 1]))
            .await;
    }
    assert_eq!(last["outcome"]["code"], "fifty-round-challenge");
    assert_eq!(last["outcome"]["result"], "1/2-1/2");
    let again = start_in(dir.path()).await;
    let (_, v) = again.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(v["outcome"]["code"], "fifty-round-challenge");
    assert_eq!(v["version"], 52);
    let text = s
        .client
        .get(s.url(&format!("/api/games/{}/record", g.id)))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("[Claims \"0 black challenge\"]"), "{text}");
    assert!(text.contains("{black claims challenge} 1."), "{text}");
    // The record imported again ends the same way, the challenge included.
    let (st, v) = s
        .post("/api/games/import", None, json!({"record": text}))
        .await;
    assert_eq!(st, 201, "{v}");
    let (_, v) = s
        .get(&format!("/api/games/{}", v["id"].as_str().unwrap()), None)
        .await;
    assert_eq!(v["outcome"]["code"], "fifty-round-challenge");
}

/// Moves every stored time of game `id` back by `ms` (as if that long had passed): the test's
/// way to make time pass without sleeping.
async fn age_game(dir: &std::path::Path, id: &str, ms: i64) {
    let url = dir.join("games.sqlite").display().to_string();
    let store = menagerie_server::store::Store::open(&url)
        .await
        .expect("the database");
    let menagerie_server::store::Store::Sqlite(pool) = store else {
        panic!("SQLite expected")
    };
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT version, data FROM events WHERE game_id = ?")
            .bind(id)
            .fetch_all(&pool)
            .await
            .expect("events");
    for (version, data) in rows {
        let mut ev: Value = serde_json::from_str(&data).expect("JSON");
        let at = ev["at"].as_i64().expect("a time");
        ev["at"] = json!(at - ms);
        sqlx::query("UPDATE events SET data = ? WHERE game_id = ? AND version = ?")
            .bind(ev.to_string())
            .bind(id)
            .bind(version)
            .execute(&pool)
            .await
            .expect("updated");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_run_survive_a_restart_and_flags_fall_by_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_in(dir.path()).await;
    for (clock, error) in [
        (
            json!({"initial_ms": 5000}),
            "clock.initial_ms is from 10000 (10 s) to 10800000 (3 h), not 5000",
        ),
        (
            json!({"initial_ms": 60000, "increment_ms": 61000}),
            "clock.increment_ms is from 0 to 60000 (60 s), not 61000",
        ),
    ] {
        let (st, v) = s
            .post(
                "/api/games",
                None,
                json!({"variant": "chess", "clock": clock}),
            )
            .await;
        assert_eq!(st, 400);
        assert_eq!(v["error"], error);
    }
    let g = s
        .create(json!({"variant": "chess", "clock": {"initial_ms": 60000, "increment_ms": 1000}}))
        .await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let (_, v) = s.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(
        v["clock"],
        json!({"initial_ms": 60000, "increment_ms": 1000, "white_ms": 60000, "black_ms": 60000, "running": null})
    );
    let v = s.play(&g.id, &w, "e4").await;
    assert_eq!(v["clock"]["running"], "black");
    assert_eq!(v["clock"]["white_ms"], 60000, "the first turn is untimed");
    let v = s.play(&g.id, &b, "e5").await;
    assert_eq!(v["clock"]["running"], "white");
    let black = v["clock"]["black_ms"].as_i64().unwrap();
    assert!(black > 60000 - 1000 && black <= 61000, "{v}");
    // 50 seconds pass (the stored times are moved back), then a restart: White, to move,
    // has about 10 s left; Black's time is unchanged.
    age_game(dir.path(), &g.id, 50_000).await;
    let again = start_in(dir.path()).await;
    let (_, v) = again.get(&format!("/api/games/{}", g.id), None).await;
    let white = v["clock"]["white_ms"].as_i64().unwrap();
    assert!((9000..=10000).contains(&white), "{v}");
    assert_eq!(v["clock"]["black_ms"].as_i64().unwrap(), black);
    assert_eq!(v["clock"]["running"], "white");
    // 9.5 more seconds: White's flag falls within about half a second, by the server's
    // timer (a watcher sees the end event without asking).
    age_game(dir.path(), &g.id, 9_500).await;
    let third = start_in(dir.path()).await;
    let mut ws = third.ws(&g.id, Some(&b), 0).await;
    let got = until_version(&mut ws, 3, 5).await;
    let end = &got.last().unwrap()["event"];
    assert_eq!(end["type"], "end", "{got:?}");
    assert_eq!(end["by"], "time");
    assert_eq!(end["code"], "time-forfeit");
    assert_eq!(end["winner"], "black");
    assert!(end.get("at").is_none(), "stored times stay inside");
    let (_, v) = third.get(&format!("/api/games/{}", g.id), Some(&w)).await;
    assert_eq!(v["outcome"]["result"], "0-1");
    assert_eq!(v["clock"]["white_ms"], 0);
    assert_eq!(v["clock"]["running"], Value::Null);
    let (st, v) = third
        .post(
            &format!("/api/games/{}/move", g.id),
            Some(&w),
            json!({"move": "Nf3"}),
        )
        .await;
    assert_eq!(st, 409);
    assert!(
        v["error"].as_str().unwrap().starts_with("the game is over"),
        "{v}"
    );
}

/// A turn that arrives after the flag fell (before the timer ran) is refused and ends the
/// game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_after_the_flag_fell_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let s = start_in(dir.path()).await;
    let g = s
        .create(json!({"variant": "chess", "clock": {"initial_ms": 10000}}))
        .await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    s.play(&g.id, &w, "e4").await;
    age_game(dir.path(), &g.id, 20_000).await;
    // A fresh server loads the game at the request; its timer and the turn race, and either
    // way the turn is refused with 409 and Black has lost on time.
    let again = start_in(dir.path()).await;
    let (st, v) = again
        .post(
            &format!("/api/games/{}/move", g.id),
            Some(&b),
            json!({"move": "e5"}),
        )
        .await;
    assert_eq!(st, 409, "{v}");
    let (_, v) = again.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(v["outcome"]["code"], "time-forfeit");
    assert_eq!(v["outcome"]["winner"], "white");
    assert_eq!(v["moves"].as_array().unwrap().len(), 1);
}

/// An engine with a clock answers within its budget and its clock runs like a player's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_seat_plays_on_the_clock() {
    let s = common::start().await;
    let g = s
        .create(json!({"variant": "chess", "black": "engine:8", "clock": {"initial_ms": 10000}}))
        .await;
    let w = g.white.unwrap();
    let mut ws = s.ws(&g.id, Some(&w), 0).await;
    common::next(&mut ws, 5).await.unwrap();
    s.play(&g.id, &w, "e4").await;
    // About 10 s / 30 = 0.33 s for the engine, not level 8's 1.6 s.
    let got = until_version(&mut ws, 2, 5).await;
    let state = &got.last().unwrap()["state"];
    assert_eq!(state["moves"].as_array().unwrap().len(), 2, "{got:?}");
    let black = state["clock"]["black_ms"].as_i64().unwrap();
    assert!(black > 9000 && black < 10000, "{state}");
    assert_eq!(state["clock"]["running"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematches_between_people_against_the_engine_and_at_one_screen() {
    let s = common::start().await;
    let g = s
        .create(json!({"variant": "chess", "clock": {"initial_ms": 60000, "increment_ms": 0}}))
        .await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let p = |a: &str| format!("/api/games/{}/{a}", g.id);
    let (st, v) = s.post(&p("rematch"), Some(&w), json!({})).await;
    assert_eq!(st, 409);
    assert_eq!(
        v["error"],
        "a rematch can be asked for once the game is over"
    );
    s.post(&p("resign"), Some(&b), json!({})).await;
    let mut white_ws = s.ws(&g.id, Some(&w), 2).await;
    let mut black_ws = s.ws(&g.id, Some(&b), 2).await;
    let mut spectator_ws = s.ws(&g.id, None, 2).await;
    for ws in [&mut white_ws, &mut black_ws, &mut spectator_ws] {
        common::next(ws, 5).await.unwrap();
    }
    let (st, v) = s.post(&p("rematch"), Some(&w), json!({})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["rematch_offer"], "white");
    let (st, v) = s.post(&p("rematch"), Some(&w), json!({})).await;
    assert_eq!(st, 409);
    assert_eq!(
        v["error"],
        "you have already offered a rematch; your opponent has not answered"
    );
    let offer = common::next(&mut black_ws, 5).await.unwrap();
    assert_eq!(
        offer["event"],
        json!({"type": "rematch-offer", "color": "white"})
    );
    let (st, v) = s.post(&p("rematch"), None, json!({})).await;
    assert_eq!(st, 403, "{v}");
    let (st, accepted) = s.post(&p("rematch"), Some(&b), json!({})).await;
    assert_eq!(st, 201, "{accepted}");
    let new_id = accepted["id"].as_str().unwrap().to_string();
    assert_eq!(accepted["umpire"], Value::Null);
    assert!(accepted["seats"]["black"].is_null());
    let black_new = accepted["seats"]["white"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        accepted["seats"]["white"]["url"],
        format!("/play/{black_new}")
    );
    // Each seat gets its own url, the spectator none.
    common::next(&mut white_ws, 5).await.unwrap();
    let ev_white = common::next(&mut white_ws, 5).await.unwrap()["event"].clone();
    let ev_black = common::next(&mut black_ws, 5).await.unwrap()["event"].clone();
    common::next(&mut spectator_ws, 5).await.unwrap();
    let ev_spectator = common::next(&mut spectator_ws, 5).await.unwrap()["event"].clone();
    assert_eq!(ev_black["type"], "rematch");
    assert_eq!(ev_black["game"], new_id);
    // Each player's link takes its own seat (a fresh random token made when it is opened).
    let link = format!("/game/{}/rematch", g.id);
    assert_eq!(ev_black["url"], link.as_str());
    assert_eq!(
        ev_spectator,
        json!({"type": "rematch", "game": new_id, "url": null})
    );
    let white_url = ev_white["url"].as_str().unwrap().to_string();
    assert_eq!(white_url, link);
    let (st, seat) = s.post(&p("rematch-seat"), Some(&w), json!({})).await;
    assert_eq!(st, 200, "{seat}");
    assert_eq!(seat["game"], new_id.as_str());
    assert_eq!(seat["color"], "black");
    let white_new = seat["token"].as_str().unwrap().to_string();
    assert_ne!(white_new, w);
    let (st, _) = s.post(&p("rematch-seat"), None, json!({})).await;
    assert_eq!(st, 403);
    // Colours swapped, the clock kept; each new token opens its own seat.
    let (_, v) = s
        .get(&format!("/api/games/{new_id}"), Some(&white_new))
        .await;
    assert_eq!(v["you"], "black");
    assert_eq!(v["clock"]["initial_ms"], 60000);
    let (_, v) = s
        .get(&format!("/api/games/{new_id}"), Some(&black_new))
        .await;
    assert_eq!(v["you"], "white");
    // The old game's state tells each its own link, after a reload too.
    let (_, v) = s.get(&format!("/api/games/{}", g.id), Some(&w)).await;
    assert_eq!(v["rematch"], json!({"game": new_id, "url": white_url}));
    let (_, v) = s.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(v["rematch"], json!({"game": new_id, "url": null}));
    let (st, v) = s.post(&p("rematch"), Some(&w), json!({})).await;
    assert_eq!(st, 409);
    assert_eq!(
        v["error"],
        format!("the rematch has already started: /game/{new_id}")
    );

    // Against the engine: at once.
    let e = s
        .create(json!({"variant": "chess", "black": "engine:1"}))
        .await;
    let ew = e.white.unwrap();
    s.post(&format!("/api/games/{}/resign", e.id), Some(&ew), json!({}))
        .await;
    let (st, v) = s
        .post(
            &format!("/api/games/{}/rematch", e.id),
            Some(&ew),
            json!({}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    // No umpire's key to a person against the engine: it would read the engine's papers.
    assert_eq!(v["umpire"], Value::Null);
    let t = v["seats"]["black"]["token"].as_str().unwrap();
    let (_, nv) = s
        .get(
            &format!("/api/games/{}", v["id"].as_str().unwrap()),
            Some(t),
        )
        .await;
    assert_eq!(
        nv["players"],
        json!({"white": "engine:1", "black": "human"})
    );

    // Two players at one screen: both tokens, at once.
    let h = s.create(json!({"variant": "chess"})).await;
    let (hw, hb) = (h.white.unwrap(), h.black.unwrap());
    s.post(&format!("/api/games/{}/resign", h.id), Some(&hw), json!({}))
        .await;
    let (st, v) = s
        .post(
            &format!("/api/games/{}/rematch", h.id),
            Some(&hw),
            json!({"opponent": w}),
        )
        .await;
    assert_eq!(st, 403, "another game's token: {v}");
    let (st, v) = s
        .post(
            &format!("/api/games/{}/rematch", h.id),
            Some(&hw),
            json!({"opponent": hb}),
        )
        .await;
    assert_eq!(st, 201, "{v}");
    assert!(v["seats"]["white"]["token"].is_string());
    assert!(v["seats"]["black"]["token"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_per_client_answer_429_and_413_with_a_sentence() {
    use futures_util::{SinkExt, StreamExt};
    use std::sync::atomic::Ordering;
    use tokio_tungstenite::tungstenite::Message;
    let (s, app) = start_with_app().await;
    app.limits.games_per_minute.store(3, Ordering::Relaxed);
    app.limits.open_games.store(2, Ordering::Relaxed);
    app.limits.sockets_per_ip.store(2, Ordering::Relaxed);
    app.limits
        .ws_messages_per_window
        .store(5, Ordering::Relaxed);
    let a = s.create(json!({"variant": "chess"})).await;
    s.create(json!({"variant": "chess"})).await;
    let (st, v) = s
        .post("/api/games", None, json!({"variant": "chess"}))
        .await;
    assert_eq!(st, 429);
    assert_eq!(
        v["error"],
        "this address has 2 unfinished games, the most allowed; finish or resign one first"
    );
    s.post(
        &format!("/api/games/{}/resign", a.id),
        a.white.as_deref(),
        json!({}),
    )
    .await;
    s.create(json!({"variant": "chess"})).await;
    app.limits.open_games.store(100, Ordering::Relaxed);
    let (st, v) = s
        .post("/api/games", None, json!({"variant": "chess"}))
        .await;
    assert_eq!(st, 429);
    assert_eq!(
        v["error"],
        "this address has created 3 games in the last minute, the most allowed; wait a minute and try again"
    );
    // Websockets per address.
    let mut one = s.ws(&a.id, None, 0).await;
    let _two = s.ws(&a.id, None, 0).await;
    let req = format!("ws://{}/api/games/{}/ws", s.addr, a.id);
    match tokio_tungstenite::connect_async(req.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status().as_u16(), 429);
            let body: Value = serde_json::from_slice(r.body().as_deref().unwrap()).unwrap();
            assert_eq!(
                body["error"],
                "this address has 2 websockets open, the most allowed; close one first"
            );
        }
        other => panic!("a third websocket: {:?}", other.map(|_| ())),
    }
    // A message too large: a sentence, then the socket closes (1009).
    common::next(&mut one, 5).await.unwrap();
    one.send(Message::Text("x".repeat(5000).into()))
        .await
        .unwrap();
    let m = common::next(&mut one, 5).await.unwrap();
    assert_eq!(
        m,
        json!({"error": "a websocket message is at most 4096 bytes; this one has 5000", "status": 413})
    );
    match one.next().await {
        Some(Ok(Message::Close(Some(f)))) => assert_eq!(u16::from(f.code), 1009),
        other => panic!("a close frame: {other:?}"),
    }
    drop(one);
    // Too many messages: a sentence, then 1008. The first socket's place is free again.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let mut three = s.ws(&a.id, None, 0).await;
    common::next(&mut three, 5).await.unwrap();
    for _ in 0..6 {
        three.send(Message::Text("hello".into())).await.unwrap();
    }
    let m = common::next(&mut three, 5).await.unwrap();
    assert_eq!(
        m,
        json!({"error": "at most 5 websocket messages may be sent in 10 seconds", "status": 429})
    );
}

/// Games nobody watches leave memory and come back from the database unchanged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_are_evicted_and_reloaded_identical() {
    let (s, app) = start_with_app().await;
    let g = s.create(json!({"variant": "little-cheops-imperial"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let first = s.get(&format!("/api/games/{}", g.id), Some(&w)).await.1["legal"][0]["canonical"]
        .as_str()
        .unwrap()
        .to_string();
    s.play(&g.id, &w, &first).await;
    let f = s.create(json!({"variant": "chess"})).await;
    s.post(
        &format!("/api/games/{}/resign", f.id),
        f.white.as_deref(),
        json!({}),
    )
    .await;
    let mut before = Vec::new();
    for t in [
        Some(w.as_str()),
        Some(b.as_str()),
        None,
        Some(g.umpire.as_str()),
    ] {
        before.push(s.get(&format!("/api/games/{}", g.id), t).await.1);
    }
    assert_eq!(app.cached_count(), 2);
    // A finished game with a watcher stays; a running game stays until it is idle.
    let _watch = s.ws(&f.id, None, 0).await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(app.evict_idle(std::time::Duration::from_secs(600)), 0);
    assert_eq!(app.evict_idle(std::time::Duration::ZERO), 1);
    assert_eq!(app.cached_count(), 1);
    drop(_watch);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(
        app.evict_idle(std::time::Duration::from_secs(600)),
        1,
        "finished"
    );
    assert_eq!(app.cached_count(), 0);
    let mut after = Vec::new();
    for t in [
        Some(w.as_str()),
        Some(b.as_str()),
        None,
        Some(g.umpire.as_str()),
    ] {
        after.push(s.get(&format!("/api/games/{}", g.id), t).await.1);
    }
    assert_eq!(before, after);
    assert_eq!(app.cached_count(), 1);
}
