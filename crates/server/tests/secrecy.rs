//! Little Cheops Imperial: the sealed papers never reach the opponent or a spectator (issue
//! 10 item 4). Two games differ only in which Civilian White appointed; the opponent and a
//! spectator get byte-identical responses and events (game ids normalised).

mod common;

use common::{next, start, until_version, Server};
use serde_json::{json, Value};

const FEN: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 1 1 -";

/// Everything the opponent and a spectator can read of a game, as text with the id replaced.
async fn observed(s: &Server, id: &str, black: &str) -> Vec<String> {
    let norm = |v: &Value| v.to_string().replace(id, "GAME");
    let mut out = Vec::new();
    for token in [Some(black), None] {
        let (st, v) = s.get(&format!("/api/games/{id}"), token).await;
        assert_eq!(st, 200);
        out.push(norm(&v));
        let mut req = s.client.get(s.url(&format!("/api/games/{id}/record")));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let text = req.send().await.unwrap().text().await.unwrap();
        out.push(text.replace(id, "GAME"));
        let mut ws = s.ws(id, token, 0).await;
        for m in until_version(&mut ws, 1, 5).await {
            out.push(norm(&m));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponent_and_spectators_cannot_tell_which_civilian_was_appointed() {
    let s = start().await;
    let mut seen = Vec::new();
    let mut own = Vec::new();
    for square in ["g5", "h5"] {
        let g = s
            .create(json!({"variant": "little-cheops-imperial", "fen": FEN}))
            .await;
        let (w, b) = (g.white.unwrap(), g.black.unwrap());
        // Black and a spectator watch live.
        let mut black_ws = s.ws(&g.id, Some(&b), 0).await;
        let mut spectator_ws = s.ws(&g.id, None, 0).await;
        next(&mut black_ws, 5).await.unwrap();
        next(&mut spectator_ws, 5).await.unwrap();
        let mine = s.play(&g.id, &w, &format!("appoint:{square}")).await;
        // White sees its own papers.
        assert!(
            mine["fen"].as_str().unwrap().ends_with(square),
            "{}",
            mine["fen"]
        );
        assert_eq!(mine["moves"][0]["canonical"], format!("appoint:{square}"));
        let sealed: Vec<&str> = mine["board"]["squares"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|q| {
                q["marks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m == "deputy-sealed")
            })
            .filter_map(|q| q["name"].as_str())
            .collect();
        assert_eq!(sealed, vec![square]);
        own.push(mine.to_string());
        let live_black = next(&mut black_ws, 5).await.unwrap();
        let live_spectator = next(&mut spectator_ws, 5).await.unwrap();
        let mut all = observed(&s, &g.id, &b).await;
        all.push(live_black.to_string().replace(&g.id, "GAME"));
        all.push(live_spectator.to_string().replace(&g.id, "GAME"));
        // An illegal turn's error is the same too.
        let (st, v) = s
            .post(
                &format!("/api/games/{}/move", g.id),
                Some(&b),
                json!({"move": "a13a11"}),
            )
            .await;
        assert_eq!(st, 400);
        all.push(v.to_string());
        for text in &all {
            assert!(!text.contains(&format!("appoint:{square}")), "{text}");
        }
        seen.push(all);
    }
    assert_ne!(own[0], own[1], "White's own views differ");
    assert_eq!(seen[0].len(), seen[1].len());
    for (a, b) in seen[0].iter().zip(&seen[1]) {
        assert_eq!(a, b);
    }
    // The opponent's copy of the turn names no square.
    let black_state: Value = serde_json::from_str(&seen[0][0]).unwrap();
    assert_eq!(
        black_state["moves"][0],
        json!({"canonical": "appoint", "human": "appoints C"})
    );
    assert_eq!(black_state["you"], "black");
    assert!(!black_state["fen"].as_str().unwrap().contains("g5"));
}

/// `GET /api/games/{id}/at/{ply}`: for every ply, Black and a spectator get byte-identical
/// answers from two games that differ only in which Civilian White appointed; White and the
/// umpire see the sealed square.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_at_a_ply_keep_the_appointment_sealed() {
    let s = start().await;
    let mut seen = Vec::new();
    for square in ["g5", "h5"] {
        let g = s
            .create(json!({"variant": "little-cheops-imperial", "fen": FEN}))
            .await;
        let (w, b) = (g.white.unwrap(), g.black.unwrap());
        s.play(&g.id, &w, &format!("appoint:{square}")).await;
        s.play(&g.id, &b, "a13b13").await;
        s.play(&g.id, &w, "d10e10").await;
        s.play(&g.id, &b, "b13a13").await;
        let mut all = Vec::new();
        for ply in 0..=4 {
            let path = format!("/api/games/{}/at/{ply}", g.id);
            for token in [Some(b.as_str()), None] {
                let (st, v) = s.get(&path, token).await;
                assert_eq!(st, 200, "{v}");
                assert_eq!(v["ply"], ply);
                let text = v.to_string().replace(&g.id, "GAME");
                assert!(
                    !text.contains(&format!("appoint:{square}")),
                    "ply {ply}: {text}"
                );
                assert!(
                    !v["fen"].as_str().unwrap().ends_with(square),
                    "ply {ply}: {v}"
                );
                all.push(text);
            }
            let (_, mine) = s.get(&path, Some(&w)).await;
            let (_, umpire) = s.get(&path, Some(&g.umpire)).await;
            if ply >= 1 {
                assert!(mine["fen"].as_str().unwrap().ends_with(square), "{mine}");
                assert!(umpire["fen"].as_str().unwrap().contains(square), "{umpire}");
            }
        }
        let (_, first) = s.get(&format!("/api/games/{}/at/1", g.id), Some(&w)).await;
        assert_eq!(
            first["last"],
            json!({"canonical": format!("appoint:{square}"), "human": format!("appoints C {square}")})
        );
        let (_, theirs) = s.get(&format!("/api/games/{}/at/1", g.id), Some(&b)).await;
        assert_eq!(
            theirs["last"],
            json!({"canonical": "appoint", "human": "appoints C"})
        );
        assert_eq!(theirs["turn"], "black");
        seen.push(all);
    }
    assert_eq!(seen[0], seen[1]);
}
