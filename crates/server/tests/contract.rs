//! Contract A of the server (PLAN.md): a position without a game, a game's position at a ply,
//! the rulebook's claims, clocks and rematches; each persisted where it is part of a game
//! (a second server opened on the same database sees the same game).

mod common;

use common::{start_in, until_version};
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
