//! The HTTP API against a server started in the test (ephemeral port, temporary SQLite).

mod common;

use common::{next, start, until_version};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variants_lists_every_game_with_geometry_and_options() {
    let s = start().await;
    let (status, v) = s.get("/api/variants", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = v
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|x| x["id"].as_str())
        .collect();
    for id in [
        "chess",
        "vyrt",
        "cypher",
        "little-cheops",
        "little-cheops-imperial",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    let cypher = v
        .as_array()
        .and_then(|l| l.iter().find(|x| x["id"] == "cypher"))
        .expect("cypher");
    assert_eq!(cypher["geometry"]["width"], 10);
    assert_eq!(cypher["geometry"]["height"], 11);
    assert_eq!(cypher["geometry"]["files"][0], "z");
    assert!(cypher["name"].is_string() && cypher["summary"].is_string());
    assert!(cypher["options"].is_array());
    let vyrt = v
        .as_array()
        .and_then(|l| l.iter().find(|x| x["id"] == "vyrt"))
        .expect("vyrt");
    assert_eq!(vyrt["geometry"]["wrap_files"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_view_and_play_with_seat_security() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (white, black) = (g.white.clone().unwrap(), g.black.clone().unwrap());
    assert_eq!(white.len(), 32, "128 bits in hex");
    assert!(white.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(white, black);
    assert_eq!(g.body["seats"]["white"]["url"], format!("/play/{white}"));

    // The spectator's view: no legal turns; the seat to move: twenty.
    let (st, v) = s.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(st, 200);
    assert_eq!(v["you"], "spectator");
    assert_eq!(v["variant"], "chess");
    assert_eq!(v["turn"], "white");
    assert_eq!(v["version"], 0);
    assert_eq!(v["legal"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(v["board"]["squares"].as_array().map(Vec::len), Some(64));
    assert_eq!(v["board"]["squares"][4]["name"], "e1");
    assert_eq!(v["board"]["squares"][4]["piece"]["kind"], "king");
    assert_eq!(v["players"], json!({"white": "human", "black": "human"}));
    let (_, w) = s.get(&format!("/api/games/{}", g.id), Some(&white)).await;
    assert_eq!(w["you"], "white");
    let legal = w["legal"].as_array().expect("legal");
    assert_eq!(legal.len(), 20);
    let e4 = legal
        .iter()
        .find(|t| t["canonical"] == "e2e4")
        .expect("e2e4");
    assert_eq!(e4["human"], "e4");
    assert_eq!(e4["parts"][0]["from"], "e2");
    assert_eq!(e4["parts"][0]["to"], "e4");
    let (_, b) = s.get(&format!("/api/games/{}", g.id), Some(&black)).await;
    assert_eq!(b["you"], "black");
    assert_eq!(b["legal"].as_array().map(Vec::len), Some(0));
    let (_, u) = s
        .get(&format!("/api/games/{}", g.id), Some(&g.umpire))
        .await;
    assert_eq!(u["you"], "umpire");

    let path = format!("/api/games/{}/move", g.id);
    // No token, a wrong token, the umpire's, another game's: 403.
    let (st, v) = s.post(&path, None, json!({"move": "e4"})).await;
    assert_eq!(st, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("token"));
    let (st, _) = s
        .post(
            &path,
            Some("00112233445566778899aabbccddeeff"),
            json!({"move": "e4"}),
        )
        .await;
    assert_eq!(st, 403);
    let (st, _) = s.post(&path, Some(&g.umpire), json!({"move": "e4"})).await;
    assert_eq!(st, 403);
    let other = s.create(json!({"variant": "chess"})).await;
    let (st, _) = s
        .post(&path, other.white.as_deref(), json!({"move": "e4"}))
        .await;
    assert_eq!(st, 403);
    let (st, _) = s
        .get(&format!("/api/games/{}", g.id), other.white.as_deref())
        .await;
    assert_eq!(st, 403, "a token of another game opens nothing here");
    // Black may not move for White: 409.
    let (st, v) = s.post(&path, Some(&black), json!({"move": "e5"})).await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(v["error"], "it is not your turn: White is to move");
    // An illegal turn: 400 with the rule's reason.
    let (st, v) = s.post(&path, Some(&white), json!({"move": "e5"})).await;
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("e5"), "{v}");
    let (st, v) = s.post(&path, Some(&white), json!({"move": "Ke2"})).await;
    assert_eq!(st, 400, "{v}");
    // A turn in human and in canonical text.
    let v = s.play(&g.id, &white, "e4").await;
    assert_eq!(v["version"], 1);
    assert_eq!(v["moves"], json!([{"canonical": "e2e4", "human": "e4"}]));
    assert_eq!(v["board"]["last_turn"], json!(["e2", "e4"]));
    let v = s.play(&g.id, &black, "e7e5").await;
    assert_eq!(v["version"], 2);
    assert_eq!(v["turn"], "white");
    let (_, v) = s.get(&format!("/api/games/{}", g.id), None).await;
    assert_eq!(v["moves"][1]["human"], "e5");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_a_json_sentence_with_its_status() {
    let s = start().await;
    let raw = |body: &'static str| {
        s.client
            .post(s.url("/api/games"))
            .header("content-type", "application/json")
            .body(body)
    };
    // Bad JSON.
    let r = raw("{\"variant\": ").send().await.unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let v: Value = r.json().await.unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("the request body is not the JSON expected"),
        "{v}"
    );
    // A field nobody asked for.
    let (st, v) = s
        .post(
            "/api/games",
            None,
            json!({"variant": "chess", "colour": "white"}),
        )
        .await;
    assert_eq!(st, 400, "{v}");
    // Unknown variant.
    let (st, v) = s
        .post("/api/games", None, json!({"variant": "shogi"}))
        .await;
    assert_eq!(st, 400);
    assert_eq!(
        v["error"],
        "unknown variant 'shogi'; GET /api/variants lists them"
    );
    // Bad position string.
    let (st, v) = s
        .post(
            "/api/games",
            None,
            json!({"variant": "chess", "fen": "8/8 w"}),
        )
        .await;
    assert_eq!(st, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid position string"),
        "{v}"
    );
    // Bad rule option and bad player.
    let (st, v) = s
        .post(
            "/api/games",
            None,
            json!({"variant": "cypher", "rules": {"nope": "x"}}),
        )
        .await;
    assert_eq!(st, 400);
    assert!(
        v["error"].as_str().unwrap().contains("rule option 'nope'"),
        "{v}"
    );
    let (st, v) = s
        .post(
            "/api/games",
            None,
            json!({"variant": "chess", "white": "robot"}),
        )
        .await;
    assert_eq!(st, 400, "{v}");
    // Oversized body: 413, never a dropped connection.
    let big = format!(
        "{{\"variant\": \"chess\", \"fen\": \"{}\"}}",
        "x".repeat(100_000)
    );
    // Its own client: the server answers before reading the whole body and then closes
    // the connection, which the shared client's pool would otherwise hand to the next
    // request (a broken pipe seen once under load).
    let r = reqwest::Client::new()
        .post(s.url("/api/games"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let v: Value = r.json().await.unwrap();
    assert!(v["error"].as_str().unwrap().contains("larger than"), "{v}");
    // Unknown game, unknown endpoint, wrong method.
    let (st, v) = s.get("/api/games/nosuchgame", None).await;
    assert_eq!(st, 404);
    assert_eq!(v["error"], "there is no game 'nosuchgame'");
    let (st, v) = s.get("/api/nothing", None).await;
    assert_eq!(st, 404);
    assert!(v["error"].is_string());
    let (st, v) = s.call("DELETE", "/api/games", None, None).await;
    assert_eq!(st, 405, "{v}");
    assert!(v["error"].is_string());
    // Moves after the end: 409.
    let g = s.create(json!({"variant": "chess"})).await;
    let (st, v) = s
        .post(
            &format!("/api/games/{}/resign", g.id),
            g.black.as_deref(),
            json!({}),
        )
        .await;
    assert_eq!(st, 200);
    assert_eq!(v["outcome"]["winner"], "white");
    assert_eq!(v["outcome"]["code"], "resignation");
    assert_eq!(v["outcome"]["result"], "1-0");
    let (st, v) = s
        .post(
            &format!("/api/games/{}/move", g.id),
            g.white.as_deref(),
            json!({"move": "e4"}),
        )
        .await;
    assert_eq!(st, 409);
    assert!(
        v["error"].as_str().unwrap().starts_with("the game is over"),
        "{v}"
    );
    let (st, _) = s
        .post(
            &format!("/api/games/{}/resign", g.id),
            g.white.as_deref(),
            json!({}),
        )
        .await;
    assert_eq!(st, 409);
    // Headers: a content security policy, no sniffing, no referrer (seat links hold tokens).
    let r = s.client.get(s.url("/")).send().await.unwrap();
    assert!(r.headers().get("content-security-policy").is_some());
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    assert_eq!(r.headers()["referrer-policy"], "no-referrer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkmate_draws_and_takebacks() {
    let s = start().await;
    // Fool's mate ends the game by the board.
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    for (t, m) in [(&w, "f3"), (&b, "e5"), (&w, "g4")] {
        s.play(&g.id, t, m).await;
    }
    let v = s.play(&g.id, &b, "Qh4#").await;
    assert_eq!(v["outcome"]["winner"], "black");
    assert_eq!(v["outcome"]["code"], "checkmate");
    assert_eq!(v["version"], 5, "four turns and the end");

    // Draw offer and acceptance.
    let g = s.create(json!({"variant": "vyrt"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let p = |what: &str| format!("/api/games/{}/{what}", g.id);
    let (st, v) = s.post(&p("accept-draw"), Some(&b), json!({})).await;
    assert_eq!(st, 409, "{v}");
    let (st, v) = s.post(&p("offer-draw"), Some(&w), json!({})).await;
    assert_eq!(st, 200);
    assert_eq!(v["draw_offer"], "white");
    let (st, _) = s.post(&p("offer-draw"), Some(&w), json!({})).await;
    assert_eq!(st, 409);
    let (st, v) = s.post(&p("decline-draw"), Some(&b), json!({})).await;
    assert_eq!(st, 200);
    assert_eq!(v["draw_offer"], Value::Null);
    s.post(&p("offer-draw"), Some(&b), json!({})).await;
    let (st, v) = s.post(&p("accept-draw"), Some(&w), json!({})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["outcome"]["winner"], Value::Null);
    assert_eq!(v["outcome"]["code"], "agreement");
    assert_eq!(v["outcome"]["result"], "1/2-1/2");

    // Takeback: asked, accepted; nothing to take back at the start.
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let p = |what: &str| format!("/api/games/{}/{what}", g.id);
    let (st, v) = s.post(&p("takeback"), Some(&w), json!({})).await;
    assert_eq!(st, 409, "{v}");
    s.play(&g.id, &w, "e4").await;
    s.play(&g.id, &b, "e5").await;
    let (st, v) = s
        .post(&p("takeback"), Some(&w), json!({"action": "request"}))
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["takeback_request"], "white");
    let (st, _) = s
        .post(&p("takeback"), Some(&w), json!({"action": "accept"}))
        .await;
    assert_eq!(st, 409, "one may not accept one's own request");
    let (st, v) = s.post(&p("takeback"), Some(&b), json!({})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        v["moves"],
        json!([]),
        "White's e4 and Black's reply are taken back"
    );
    assert_eq!(v["turn"], "white");
    let (st, v) = s
        .post(&p("takeback"), Some(&b), json!({"action": "sometimes"}))
        .await;
    assert_eq!(st, 400, "{v}");
    // A claim the position does not offer.
    let (st, v) = s
        .post(&p("claim"), Some(&w), json!({"claim": "repetition"}))
        .await;
    assert_eq!(st, 400, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_and_takes_back_at_once() {
    let s = start().await;
    let g = s
        .create(json!({"variant": "chess", "black": "engine:1"}))
        .await;
    assert!(g.black.is_none(), "no token for the engine's seat");
    let w = g.white.unwrap();
    let mut ws = s.ws(&g.id, Some(&w), 0).await;
    let first = next(&mut ws, 5).await.expect("a first message");
    assert_eq!(first["event"]["type"], "sync");
    s.play(&g.id, &w, "d4").await;
    let msgs = until_version(&mut ws, 2, 30).await;
    let last = msgs.last().expect("messages");
    assert_eq!(last["version"], 2, "{msgs:?}");
    assert_eq!(last["event"]["type"], "turn");
    assert_eq!(last["event"]["color"], "black");
    assert_eq!(last["state"]["turn"], "white");
    assert_eq!(last["state"]["players"]["black"], "engine:1");
    // The engine agrees to take back at once: White's d4 and its reply go.
    let (st, v) = s
        .post(
            &format!("/api/games/{}/takeback", g.id),
            Some(&w),
            json!({}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["moves"], json!([]));
    // A draw offer to the engine is declined.
    let (st, v) = s
        .post(
            &format!("/api/games/{}/offer-draw", g.id),
            Some(&w),
            json!({}),
        )
        .await;
    assert_eq!(st, 200);
    assert_eq!(v["draw_offer"], Value::Null);
    assert!(v["outcome"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_events_and_reconnect_with_a_version() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let mut spectator = s.ws(&g.id, None, 0).await;
    let hello = next(&mut spectator, 5).await.unwrap();
    assert_eq!(hello["version"], 0);
    assert_eq!(hello["event"]["type"], "sync");
    assert_eq!(hello["state"]["you"], "spectator");
    s.play(&g.id, &w, "e4").await;
    let m = next(&mut spectator, 5).await.unwrap();
    assert_eq!(m["version"], 1);
    assert_eq!(
        m["event"],
        json!({"type": "turn", "color": "white", "ply": 1, "canonical": "e2e4", "human": "e4"})
    );
    assert_eq!(m["state"]["version"], 1);
    assert_eq!(m["state"]["legal"], json!([]));
    drop(spectator);
    // Missed while away: two turns and a draw offer.
    s.play(&g.id, &b, "c5").await;
    s.play(&g.id, &w, "Nf3").await;
    s.post(
        &format!("/api/games/{}/offer-draw", g.id),
        Some(&b),
        json!({}),
    )
    .await;
    let mut again = s.ws(&g.id, Some(&b), 1).await;
    let got = until_version(&mut again, 4, 5).await;
    let versions: Vec<i64> = got.iter().filter_map(|m| m["version"].as_i64()).collect();
    assert_eq!(versions, vec![2, 3, 4]);
    assert_eq!(got[0]["event"]["human"], "c5");
    assert_eq!(
        got[0]["state"],
        Value::Null,
        "only the last catch-up message carries the state"
    );
    assert_eq!(
        got[2]["event"],
        json!({"type": "draw-offer", "color": "black"})
    );
    assert_eq!(got[2]["state"]["you"], "black");
    assert_eq!(got[2]["state"]["draw_offer"], "black");
    // Up to date: a sync message with the state.
    let mut current = s.ws(&g.id, None, 4).await;
    let m = next(&mut current, 5).await.unwrap();
    assert_eq!(m["version"], 4);
    assert_eq!(m["event"]["type"], "sync");
    // A wrong token is refused before the upgrade.
    let req = format!("http://{}/api/games/{}/ws", s.addr, g.id);
    let r = s.client.get(req).bearer_auth("nope").send().await.unwrap();
    assert_eq!(r.status().as_u16(), 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_links_set_an_httponly_cookie_that_then_acts_for_the_seat() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let w = g.white.unwrap();
    let r = s
        .client
        .get(s.url(&format!("/play/{w}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 303);
    assert_eq!(r.headers()["location"], format!("/game/{}", g.id).as_str());
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.starts_with(&format!("menagerie-seat-{}={w};", g.id)),
        "{cookie}"
    );
    assert!(cookie.contains("HttpOnly"));
    assert_eq!(r.headers()["cache-control"], "no-store");
    let pair = cookie.split(';').next().unwrap().to_string();
    let r = s
        .client
        .post(s.url(&format!("/api/games/{}/move", g.id)))
        .header("cookie", &pair)
        .json(&json!({"move": "e4"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["you"], "white");
    let r = s
        .client
        .get(s.url("/play/ffffffffffffffffffffffffffffffff"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_download_and_import() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    for (t, m) in [(&w, "e4"), (&b, "e5"), (&w, "Nf3")] {
        s.play(&g.id, t, m).await;
    }
    let r = s
        .client
        .get(s.url(&format!("/api/games/{}/record", g.id)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let text = r.text().await.unwrap();
    assert!(text.contains("[Variant \"chess\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.trim_end().ends_with("1. e4 e5 2. Nf3 *"), "{text}");
    let r = s
        .client
        .post(s.url("/api/games/import"))
        .header("content-type", "application/x-chess-pgn")
        .body(text.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let v: Value = r.json().await.unwrap();
    let id = v["id"].as_str().unwrap();
    let (_, st) = s.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(st["moves"].as_array().map(Vec::len), Some(3));
    assert_eq!(st["turn"], "black");
    // JSON form with a finished record.
    let rec = "[Variant \"chess\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. e4 0-1\n";
    let (st, v) = s
        .post("/api/games/import", None, json!({"record": rec}))
        .await;
    assert_eq!(st, 201, "{v}");
    let (_, st) = s
        .get(&format!("/api/games/{}", v["id"].as_str().unwrap()), None)
        .await;
    assert_eq!(st["outcome"]["code"], "resignation");
    assert_eq!(st["outcome"]["winner"], "black");
    // A bad record names the line and the turn.
    let bad = "[Variant \"chess\"]\n\n1. e4 e4\n";
    let (st, v) = s
        .post("/api/games/import", None, json!({"record": bad}))
        .await;
    assert_eq!(st, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("record line 3: turn 2 'e4'"),
        "{v}"
    );
    let (st, v) = s
        .post("/api/games/import", None, json!({"record": "1. e4"}))
        .await;
    assert_eq!(st, 400);
    assert_eq!(v["error"], "the record has no [Variant \"...\"] tag");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_streams_lines_then_the_best_turn() {
    let s = start().await;
    let r = s
        .client
        .post(s.url("/api/analysis"))
        .json(&json!({"variant": "chess", "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "limits": {"depth": 3}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    let text = r.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0]["depth"], 1);
    assert_eq!(lines[2]["depth"], 3);
    assert_eq!(lines[2]["score"], json!({"mate": 1}));
    assert_eq!(lines[2]["pv"], json!(["Ra8#"]));
    assert_eq!(lines[2]["pv_canonical"], json!(["a1a8"]));
    assert_eq!(
        lines[3],
        json!({"bestmove": {"canonical": "a1a8", "human": "Ra8#"}})
    );
    let (st, v) = s
        .post(
            "/api/analysis",
            None,
            json!({"variant": "chess", "limits": {"depth": 99}}),
        )
        .await;
    assert_eq!(st, 400, "{v}");
    let (st, _) = s
        .post(
            "/api/analysis",
            None,
            json!({"variant": "chess", "fen": "junk"}),
        )
        .await;
    assert_eq!(st, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_and_static_files_are_served() {
    let s = start().await;
    for path in ["/", "/game/abc", "/analysis", "/games", "/rules/chess"] {
        let r = s.client.get(s.url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert!(r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
    }
    let r = s
        .client
        .get(s.url("/static/favicon.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.headers()["content-type"], "image/svg+xml");
    let r = s
        .client
        .get(s.url("/static/../Cargo.toml"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);
    let (st, v) = s.get("/api/games", None).await;
    assert_eq!(st, 200);
    assert!(v.is_array());
}

/// MultiPV: White has exactly three mates in one (Qa8#, Qb8#, Qe8#... see the FEN); three
/// lines per depth, numbered 1..3, each a mate in 1; a fourth line is not asked for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_gives_several_lines_with_multipv() {
    let s = start().await;
    let r = s
        .client
        .post(s.url("/api/analysis"))
        .json(&json!({"variant": "chess", "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "limits": {"depth": 1}, "multipv": 3}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let text = r.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    let ks: Vec<Value> = lines[..3].iter().map(|l| l["multipv"].clone()).collect();
    assert_eq!(ks, vec![json!(1), json!(2), json!(3)]);
    assert_eq!(lines[0]["pv"], json!(["Ra8#"]));
    assert_eq!(lines[0]["score"], json!({"mate": 1}));
    assert!(lines[1]["score"]["cp"].is_i64(), "{text}");
    assert_eq!(
        lines[3],
        json!({"bestmove": {"canonical": "a1a8", "human": "Ra8#"}})
    );
    let (st, v) = s
        .post(
            "/api/analysis",
            None,
            json!({"variant": "chess", "multipv": 9}),
        )
        .await;
    assert_eq!(st, 400, "{v}");
    assert_eq!(v["error"], "multipv is from 1 to 8 lines");
}

/// Found by the server fuzz target: a `since` that is no number got axum's plain-text 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_since_that_is_no_number_gets_a_json_sentence() {
    let s = start().await;
    let g = s.create(json!({"variant": "chess"})).await;
    for since in ["-0/01", "abc", "1.5"] {
        let (st, v) = s
            .get(&format!("/api/games/{}/ws?since={since}", g.id), None)
            .await;
        assert_eq!(st, 400, "{since}");
        assert_eq!(
            v["error"],
            "since is the last version the client saw, a whole number from 0"
        );
    }
}

/// Found by the server fuzz target: `/api/` itself answered an empty 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_unknown_api_path_gets_a_json_sentence() {
    let s = start().await;
    for path in ["/api", "/api/", "/api/nothing", "/api/games/x/y/z"] {
        let (st, v) = s.get(path, None).await;
        assert_eq!(st, 404, "{path}");
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}: {v}"
        );
    }
}

/// A path that is no UTF-8 once decoded (found by the server fuzz target) is refused with a
/// JSON sentence, as every other API error is.
#[tokio::test]
async fn a_path_that_is_not_utf8_gets_a_json_sentence() {
    let s = start().await;
    for (path, name) in [
        ("/api/games/%bdgcdarbzb9c", "id"),
        ("/api/games/%ff/record", "id"),
        ("/api/rules/%c3", "variant"),
    ] {
        let (st, v) = s.get(path, None).await;
        assert_eq!(st, 400, "{path}: {v}");
        assert_eq!(
            v["error"],
            format!("the request was refused: Invalid URL: Invalid UTF-8 in `{name}`"),
            "{path}"
        );
    }
}
