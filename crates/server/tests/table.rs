//! What the web pages show beside the board (issue 31): the piece tables of `/api/variants`
//! (the legend's names) and each snapshot's off-board state (`board.off_board`).

mod common;

use common::start;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn little_cheops_lists_its_pieces_with_their_recorders_abbreviations() {
    let s = start().await;
    let (_, list) = s.get("/api/variants", None).await;
    let find = |id: &str| -> Value {
        list.as_array()
            .and_then(|l| l.iter().find(|v| v["id"] == id))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(find("chess")["pieces"], json!([]));
    let cheops = find("little-cheops");
    let pieces = cheops["pieces"].as_array().expect("a piece table");
    let abbreviations: Vec<&str> = pieces
        .iter()
        .filter_map(|p| p["abbreviation"].as_str())
        .collect();
    assert_eq!(
        abbreviations,
        ["K", "Q", "PM", "M", "T", "Ma", "N", "Du", "Dc", "Ba", "Bs", "A", "C", "D", "P"]
    );
    assert_eq!(
        pieces[2],
        json!({"letter": "E", "name": "Prime Minister", "abbreviation": "PM", "betza": "BN", "provisional": true})
    );
    assert_eq!(
        pieces[5],
        json!({"letter": "M", "name": "Master", "abbreviation": "Ma", "betza": "mRcpR", "provisional": false})
    );
    assert_eq!(pieces[13]["name"], "Deputy");
    assert_eq!(pieces[13]["letter"], "C");
    assert_eq!(
        find("little-cheops-imperial")["pieces"],
        cheops["pieces"],
        "one table for both styles"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cypher_shows_its_pools_checks_rights_and_re_take() {
    let s = start().await;
    let fen =
        "4s5/2rn2nr2/3bqkb3/1ppppppp2/10/10/10/2PPPPPPP1/3BQKB3/2RN2NR2/4S5 w - I 1+0 1/1 0 5";
    let (st, v) = s
        .post(
            "/api/position",
            None,
            json!({"variant": "cypher", "fen": fen}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        v["board"]["off_board"],
        json!({
            "re_take": null,
            "infiltration": {"white": true, "black": false},
            "checks": {"white": 1, "black": 0},
            "pools": {"white": 1, "black": 1},
        })
    );
    // The guide's §7 example: after Qxd6 Black may re-take on d6 this turn.
    let fen = "1s8/7k2/6b3/2N7/4r5/4Q5/10/10/10/8K1/4S5 w - - 0+0 0/0 0 1";
    let (st, v) = s
        .post(
            "/api/position",
            None,
            json!({"variant": "cypher", "fen": fen, "moves": ["Qxd6"]}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["board"]["off_board"]["re_take"], "d6");
    assert_eq!(
        v["board"]["off_board"]["infiltration"],
        json!({"white": false, "black": false})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess_has_nothing_off_the_board() {
    let s = start().await;
    let (_, v) = s
        .post("/api/position", None, json!({"variant": "chess"}))
        .await;
    assert_eq!(v["board"]["off_board"], json!({}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fifty_round_challenge_count_is_shown_once_made() {
    let s = start().await;
    let fen = "8k/9/9/9/9/9/2K6/C8/TC7 w 3 1";
    let g = s
        .create(json!({"variant": "little-cheops", "fen": fen}))
        .await;
    let (w, b) = (g.white.unwrap(), g.black.unwrap());
    let path = format!("/api/games/{}", g.id);
    let (_, v) = s.get(&path, Some(&w)).await;
    assert_eq!(
        v["board"]["off_board"],
        json!({"halfmove": 3, "challenge": null})
    );
    s.play(&g.id, &w, "c3d3").await;
    let (st, v) = s
        .post(
            &format!("{path}/claim"),
            Some(&b),
            json!({"claim": "challenge"}),
        )
        .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        v["board"]["off_board"],
        json!({"halfmove": 4, "challenge": {"by": "black", "ply": 1, "count": 0}})
    );
    s.play(&g.id, &b, "i9h9").await;
    let v = s.play(&g.id, &w, "d3e3").await;
    assert_eq!(
        v["board"]["off_board"]["challenge"],
        json!({"by": "black", "ply": 1, "count": 2})
    );
    // A spectator sees the count too, and an earlier moment shows the challenge not yet made.
    let (_, v) = s.get(&path, None).await;
    assert_eq!(v["board"]["off_board"]["challenge"]["count"], 2);
    let (_, v) = s.get(&format!("{path}/at/1"), None).await;
    assert_eq!(
        v["board"]["off_board"],
        json!({"halfmove": 4, "challenge": {"by": "black", "ply": 1, "count": 0}})
    );
    let (_, v) = s.get(&format!("{path}/at/0"), None).await;
    assert_eq!(v["board"]["off_board"]["challenge"], Value::Null);
}
