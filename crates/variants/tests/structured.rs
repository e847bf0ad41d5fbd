//! Structured data for front ends through `AnyGame`: turns with kinds and squares, board
//! snapshots, outcomes as JSON, endings from outside and claims.

use menagerie_core::{Color, Outcome, RuleOptions, Termination, Viewer};
use menagerie_variants::{find, AnyGame};

fn open(variant: &str, fen: Option<&str>) -> Box<dyn AnyGame> {
    find(variant)
        .expect("variant")
        .open(fen, &RuleOptions::new())
        .expect("position")
}

/// The JSON of the legal turn whose canonical text is `canonical`.
fn turn_json(g: &dyn AnyGame, canonical: &str) -> String {
    let t = g
        .turns()
        .into_iter()
        .find(|t| t.canonical == canonical)
        .unwrap_or_else(|| panic!("{canonical} is not legal here"));
    serde_json::to_string(&t).expect("json")
}

fn part(from: &str, to: &str) -> String {
    format!(r#"{{"from":{from},"to":{to},"captures":[],"room":null,"promotion":null}}"#)
}

#[test]
fn chess_turns_as_json() {
    let g = open("chess", None);
    assert_eq!(g.turns().len(), 20);
    assert_eq!(
        turn_json(g.as_ref(), "e2e4"),
        r#"{"canonical":"e2e4","human":"e4","kind":"move","parts":[{"from":"e2","to":"e4","captures":[],"room":null,"promotion":null}]}"#
    );
    let g = open("chess", Some("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"));
    assert_eq!(
        turn_json(g.as_ref(), "a7a8q"),
        r#"{"canonical":"a7a8q","human":"a8=Q","kind":"promotion","parts":[{"from":"a7","to":"a8","captures":[],"room":null,"promotion":"Q"}]}"#
    );
    assert_eq!(
        turn_json(g.as_ref(), "a7b8n"),
        r#"{"canonical":"a7b8n","human":"axb8=N","kind":"promotion","parts":[{"from":"a7","to":"b8","captures":["b8"],"room":null,"promotion":"N"}]}"#
    );
    let g = open("chess", Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    assert_eq!(
        turn_json(g.as_ref(), "e1c1"),
        format!(
            r#"{{"canonical":"e1c1","human":"O-O-O","kind":"castling","parts":[{},{}]}}"#,
            part(r#""e1""#, r#""c1""#),
            part(r#""a1""#, r#""d1""#)
        )
    );
    assert_eq!(
        turn_json(g.as_ref(), "a1a8"),
        r#"{"canonical":"a1a8","human":"Rxa8+","kind":"capture","parts":[{"from":"a1","to":"a8","captures":["a8"],"room":null,"promotion":null}]}"#
    );
    let g = open("chess", Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
    assert_eq!(
        turn_json(g.as_ref(), "e5d6"),
        r#"{"canonical":"e5d6","human":"exd6","kind":"en-passant","parts":[{"from":"e5","to":"d6","captures":["d5"],"room":null,"promotion":null}]}"#
    );
}

#[test]
fn chess_snapshot_after_e4() {
    let mut g = open("chess", None);
    g.push("e4").expect("legal");
    let snap = g.snapshot();
    let json = serde_json::to_value(&snap).expect("json");
    assert_eq!(
        json["geometry"].to_string(),
        r#"{"files":["a","b","c","d","e","f","g","h"],"height":8,"ranks":["1","2","3","4","5","6","7","8"],"width":8,"wrap_files":false,"wrap_ranks":false}"#
    );
    let text = serde_json::to_string(&snap).expect("json");
    assert!(text.starts_with(r#"{"variant":"chess","geometry":{"width":8,"height":8,"wrap_files":false,"wrap_ranks":false,"files":["a","#));
    assert!(text.contains(r#"{"name":"a1","file":0,"rank":0,"piece":{"kind":"rook","owner":"white","letter":"R"},"marks":[]}"#));
    assert!(text.contains(r#"{"name":"e4","file":4,"rank":3,"piece":{"kind":"pawn","owner":"white","letter":"P"},"marks":[]}"#));
    assert!(text.contains(r#"{"name":"e2","file":4,"rank":1,"piece":null,"marks":[]}"#));
    assert!(text.ends_with(r#""turn":"black","check":false,"last_turn":["e2","e4"]}"#));
    assert_eq!(snap.squares.len(), 64);
    assert_eq!(snap.squares[63].piece.as_ref().map(|p| p.letter), Some('r'));
}

#[test]
fn cypher_turns_and_sectors() {
    let t6 = "4s5/7k2/10/10/10/10/10/2Q7/7K2/10/4S5 w - Ii 0+0 0/0 0 1";
    let g = open("cypher", Some(t6));
    assert_eq!(
        turn_json(g.as_ref(), "d0-a3/b3-b0"),
        format!(
            r#"{{"canonical":"d0-a3/b3-b0","human":"Sa3/Qb0","kind":"combined-move","parts":[{},{}]}}"#,
            part(r#""d0""#, r#""a3""#),
            part(r#""b3""#, r#""b0""#)
        )
    );
    let t20 = "1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1";
    let g = open("cypher", Some(t20));
    assert_eq!(
        turn_json(g.as_ref(), "e4-e5*a1-d10"),
        format!(
            r#"{{"canonical":"e4-e5*a1-d10","human":"Ke5**Rd10#","kind":"infiltration","parts":[{},{}]}}"#,
            part(r#""e4""#, r#""e5""#),
            r#"{"from":"a1","to":"d10","captures":["d10"],"room":null,"promotion":null}"#
        )
    );
    let snap = serde_json::to_string(&g.snapshot()).expect("json");
    assert!(snap.starts_with(r#"{"variant":"cypher","geometry":{"width":10,"height":11,"wrap_files":false,"wrap_ranks":false,"files":["z","a","b","c","d","e","f","g","h","i"],"ranks":["0","1","2","3","4","5","6","7","8","9","10"]},"squares":[{"name":"z0","file":0,"rank":0,"piece":null,"marks":["court"]}"#));
    assert!(snap.contains(r#"{"name":"i0","file":9,"rank":0,"piece":{"kind":"spy","owner":"white","letter":"S"},"marks":["court"]}"#));
    assert!(snap.contains(r#"{"name":"e4","file":5,"rank":4,"piece":{"kind":"king","owner":"white","letter":"K"},"marks":["field"]}"#));
    let marks = |name: &str| {
        let s = g.snapshot();
        let sq = s.squares.iter().find(|q| q.name == name).expect("square");
        serde_json::to_string(&sq.marks).expect("json")
    };
    assert_eq!(marks("d0"), r#"["court"]"#);
    assert_eq!(marks("z4"), r#"["court"]"#);
    assert_eq!(marks("d5"), r#"["border"]"#);
    assert_eq!(marks("e6"), r#"["field"]"#);
    // A coup d'etat (the perft table's coup-one-step-away): the pawn's step, then the man
    // that changes sides; a release: the square the prisoner comes back to.
    let coup = "1R2b5/6s3/8n1/n5N3/6r3/1P1Ppkppp1/10/2P3pP2/5S2p1/6q3/6K3 b - I 0+0 4/2 1 69";
    let g = open("cypher", Some(coup));
    assert_eq!(
        turn_json(g.as_ref(), "h2-h1(a10)"),
        format!(
            r#"{{"canonical":"h2-h1(a10)","human":"h1(Ra10)","kind":"coup","parts":[{},{}]}}"#,
            part(r#""h2""#, r#""h1""#),
            part("null", r#""a10""#)
        )
    );
    assert_eq!(
        turn_json(g.as_ref(), "P@b5"),
        format!(
            r#"{{"canonical":"P@b5","human":"PRb5","kind":"release","parts":[{}]}}"#,
            part("null", r#""b5""#)
        )
    );
}

#[test]
fn vyrt_castling_and_the_seam() {
    let fen = "12/12/6k5/12/12/12/12/12/12/2R3K2R2/12/12 w KQ - - 0 1";
    let g = open("vyrt", Some(fen));
    let castles: Vec<String> = g
        .turns()
        .into_iter()
        .filter(|t| t.kind.code() == "castling")
        .map(|t| serde_json::to_string(&t).expect("json"))
        .collect();
    assert_eq!(
        castles,
        [
            format!(
                r#"{{"canonical":"O-O","human":"O-O","kind":"castling","parts":[{},{}]}}"#,
                part(r#""E1""#, r#""G1""#),
                part(r#""H1""#, r#""F1""#)
            ),
            format!(
                r#"{{"canonical":"O-O-O","human":"O-O-O","kind":"castling","parts":[{},{}]}}"#,
                part(r#""E1""#, r#""C1""#),
                part(r#""A1""#, r#""D1""#)
            ),
        ]
    );
    // A Rook across the seam: A1 to J1 past L1 and K1, the way round the torus.
    assert_eq!(
        turn_json(g.as_ref(), "A1-J1"),
        format!(
            r#"{{"canonical":"A1-J1","human":"A1-J1","kind":"move","parts":[{}]}}"#,
            part(r#""A1""#, r#""J1""#)
        )
    );
    let mut g = g;
    g.push("O-O").expect("legal");
    assert_eq!(g.snapshot().last_turn, ["E1", "G1", "H1", "F1"]);
    let snap = serde_json::to_string(&g.snapshot().geometry).expect("json");
    assert_eq!(
        snap,
        r#"{"width":12,"height":12,"wrap_files":true,"wrap_ranks":true,"files":["K","L","A","B","C","D","E","F","G","H","I","J"],"ranks":["11","12","1","2","3","4","5","6","7","8","9","10"]}"#
    );
}

#[test]
fn little_cheops_turns_as_json() {
    let imperial = "little-cheops-imperial";
    // T28: hop chains and an arrest, with the room chosen.
    let t28 = "13/13/2c1c8/3K9/2t1t8/13/13/13/2a10/3Cp1N6/2k10/13/13 w d10:w@d10 - 0 1 d4";
    let g = open(imperial, Some(t28));
    assert_eq!(
        turn_json(g.as_ref(), "d4:f4:h4"),
        format!(
            r#"{{"canonical":"d4:f4:h4","human":"D d4:2:h4","kind":"hop-chain","parts":[{},{}]}}"#,
            part(r#""d4""#, r#""f4""#),
            part(r#""f4""#, r#""h4""#)
        )
    );
    assert_eq!(
        turn_json(g.as_ref(), "d4:f4@d9"),
        r#"{"canonical":"d4:f4@d9","human":"D d4:1:f4 P(d9)","kind":"arrest","parts":[{"from":"d4","to":"f4","captures":["e4"],"room":"d9","promotion":null}]}"#
    );
    // T15A: appointment; T15B: inspection.
    let t15a = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -";
    let g = open(imperial, Some(t15a));
    assert_eq!(
        turn_json(g.as_ref(), "appoint:g5"),
        r#"{"canonical":"appoint:g5","human":"appoints C g5","kind":"appointment","parts":[{"from":"g5","to":null,"captures":[],"room":null,"promotion":null}]}"#
    );
    let t15b = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1 g5";
    let g = open(imperial, Some(t15b));
    let t = g
        .turns()
        .into_iter()
        .find(|t| t.canonical == "inspect:g5")
        .expect("legal");
    assert_eq!(
        serde_json::to_string(&t.parts).expect("json"),
        r#"[{"from":null,"to":"g5","captures":[],"room":null,"promotion":null}]"#
    );
    assert_eq!(t.kind.code(), "inspection");
}

#[test]
fn little_cheops_marks() {
    let t16 = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5";
    let g = open("little-cheops-imperial", Some(t16));
    let marks_of = |g: &dyn AnyGame, name: &str| {
        let s = g.snapshot();
        let sq = s
            .squares
            .into_iter()
            .find(|q| q.name == name)
            .expect("square");
        serde_json::to_string(&(sq.piece, sq.marks)).expect("json")
    };
    // The umpire sees White's sealed Deputy on g5; Black's view and a spectator's do not.
    assert_eq!(
        marks_of(g.as_ref(), "g5"),
        r#"[{"kind":"deputy","owner":"white","letter":"C"},["deputy-sealed"]]"#
    );
    let own = g.view(Viewer::Player(Color::White));
    assert_eq!(marks_of(own.as_ref(), "g5"), marks_of(g.as_ref(), "g5"));
    for viewer in [Viewer::Player(Color::Black), Viewer::Spectator] {
        let v = g.view(viewer);
        assert_eq!(
            marks_of(v.as_ref(), "g5"),
            r#"[{"kind":"civilian","owner":"white","letter":"C"},[]]"#
        );
    }
    assert_eq!(
        marks_of(g.as_ref(), "d10"),
        r#"[{"kind":"king","owner":"white","letter":"K"},["chair","castle-active","castle-white"]]"#
    );
    assert_eq!(
        marks_of(g.as_ref(), "c9"),
        r#"[{"kind":"tower","owner":"black","letter":"t"},["bastion","castle-active","castle-white"]]"#
    );
    let t17 = "k12/13/2c1c8/3K9/2t1t8/13/13/6n6/6C6/13/13/13/13 w d10:w@d10 g5 0 1 -";
    let mut g = open("little-cheops-imperial", Some(t17));
    g.push("g5:g7@c10").expect("legal");
    assert_eq!(
        marks_of(g.as_ref(), "c10"),
        r#"[{"kind":"knight","owner":"black","letter":"n"},["room","castle-active","castle-white","arrestee"]]"#
    );
    assert_eq!(
        marks_of(g.as_ref(), "g7"),
        r#"[{"kind":"deputy","owner":"white","letter":"C"},["deputy-known"]]"#
    );
    assert_eq!(g.snapshot().last_turn, ["g5", "g7", "g6", "c10"]);
    // An inactive Castle: two Towers and two pillars around an empty chair.
    let inactive = "k12/13/13/13/13/13/13/13/2T1T8/13/2C1C8/13/K12 w d4 - 0 1 -";
    let g = open("little-cheops-imperial", Some(inactive));
    assert_eq!(
        marks_of(g.as_ref(), "d4"),
        r#"[null,["chair","castle-inactive"]]"#
    );
    assert_eq!(
        marks_of(g.as_ref(), "c3"),
        r#"[{"kind":"civilian","owner":"white","letter":"C"},["bastion","castle-inactive"]]"#
    );
}

#[test]
fn outcomes_as_json() {
    let o = Outcome::win(Color::White, Termination::Checkmate);
    assert_eq!(
        serde_json::to_string(&o).expect("json"),
        r#"{"winner":"white","code":"checkmate","sentence":"White wins by checkmate","points":null,"result":"1-0"}"#
    );
    let mut g = open(
        "cypher",
        Some("1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1"),
    );
    g.push("e4-e5*a1-d10").expect("legal");
    let o = g.outcome().expect("over");
    assert_eq!(
        serde_json::to_string(&o).expect("json"),
        r#"{"winner":"white","code":"king-capture","sentence":"White wins: King captured by infiltration","points":{"white":3.0,"black":0.0},"result":"1-0"}"#
    );
    let back: Outcome =
        serde_json::from_str(&serde_json::to_string(&o).expect("json")).expect("back");
    assert_eq!(back, o);
    let draw =
        Outcome::draw(Termination::rule("four-checks", "4-check rule")).with_points(0.5, 0.5);
    assert_eq!(
        serde_json::to_string(&draw).expect("json"),
        r#"{"winner":null,"code":"four-checks","sentence":"Draw: 4-check rule","points":{"white":0.5,"black":0.5},"result":"1/2-1/2"}"#
    );
    assert_eq!(
        draw.to_string(),
        "Draw: 4-check rule; points White 0.5, Black 0.5"
    );
}

#[test]
fn endings_from_outside_score_the_games_own_points() {
    // Cypher's table (rulebook section 11): resignation 4 to the winner, agreement 0.5 each.
    let mut g = open("cypher", None);
    g.resign(Color::White).expect("not over");
    assert_eq!(
        g.outcome().expect("over").to_string(),
        "Black wins by resignation; points White 0, Black 4"
    );
    let mut g = open("cypher", None);
    g.agree_draw().expect("not over");
    assert_eq!(
        g.outcome().expect("over").to_string(),
        "Draw by agreement; points White 0.5, Black 0.5"
    );
    // A loss on time is not in Cypher's table; chess and Little Cheops count no points (R35).
    let mut g = open("cypher", None);
    g.forfeit_on_time(Color::Black).expect("not over");
    assert_eq!(g.outcome().expect("over").points, None);
    for id in ["chess", "vyrt", "little-cheops", "little-cheops-imperial"] {
        let mut g = open(id, None);
        g.resign(Color::Black).expect("not over");
        assert_eq!(g.outcome().expect("over").points, None, "{id}");
    }
}

#[test]
fn endings_from_outside_are_recorded() {
    let mut g = open("chess", None);
    g.push("e4").expect("legal");
    g.resign(Color::Black).expect("not over");
    let o = g.outcome().expect("over");
    assert_eq!(o.to_string(), "White wins by resignation");
    assert_eq!(g.ending(), Some(o));
    assert!(g.legal_moves().is_empty() && g.turns().is_empty());
    assert!(g.push("e5").is_err());
    assert!(g.agree_draw().is_err(), "a finished game cannot end again");
    // Taking the move back takes the resignation back too.
    assert_eq!(g.pop().as_deref(), Some("e2e4"));
    assert_eq!(g.outcome(), None);

    let mut g = open("chess", None);
    g.agree_draw().expect("not over");
    assert_eq!(
        g.outcome().map(|o| o.termination.code()),
        Some("agreement".into())
    );
    let mut g = open("chess", None);
    g.forfeit_on_time(Color::White).expect("not over");
    let o = g.outcome().expect("over");
    assert_eq!(
        (o.winner, o.termination.code()),
        (Some(Color::Black), "time-forfeit".into())
    );
    let mut g = open("vyrt", None);
    g.adjudicate(Outcome::draw(Termination::Adjudication))
        .expect("not over");
    assert_eq!(g.outcome().map(|o| o.result()), Some("1/2-1/2"));
    assert_eq!(g.view(Viewer::Spectator).outcome(), g.outcome());
}

#[test]
fn the_fifty_round_challenge_is_a_claim() {
    // Kings walk; White's Tower is boxed in by its Civilians, so nothing is captured and no
    // Pawn moves, and no position repeats.
    let fen = "8k/9/9/9/9/9/2K6/C8/TC7 w 0 1";
    let options = RuleOptions::parse(&["challenge-count=50-turns"]).expect("option");
    let mut g = find("little-cheops")
        .expect("variant")
        .open(Some(fen), &options)
        .expect("position");
    assert_eq!(
        serde_json::to_string(&g.claims()).expect("json"),
        r#"[{"code":"challenge","sentence":"challenge the opponent to show a mate: if 50 rounds then pass with no Pawn move, capture, arrest or checkmate, the game is drawn (R38)","by":null}]"#
    );
    assert!(g.claim("nothing").is_err());
    g.claim_by(Color::Black, "challenge").expect("open");
    assert!(g.claims().is_empty(), "made once");
    assert_eq!(g.made_claims().len(), 1);
    assert_eq!(
        (g.made_claims()[0].by, g.made_claims()[0].ply),
        (Color::Black, 0)
    );
    let white = "c3 d3 e3 f3 g3 h3 i3 i4 h4 g4 f4 e4 d4 c4 b4 a4 a5 b5 c5 d5 e5 f5 g5 h5 i5 i6";
    let black = "i9 h9 g9 f9 e9 d9 c9 b9 a9 a8 b8 c8 d8 e8 f8 g8 h8 i8 i7 h7 g7 f7 e7 d7 c7 b7";
    let w: Vec<&str> = white.split(' ').collect();
    let b: Vec<&str> = black.split(' ').collect();
    for turn in 0..50 {
        assert_eq!(g.outcome(), None, "turn {turn}");
        let (path, i) = if turn % 2 == 0 {
            (&w, turn / 2)
        } else {
            (&b, turn / 2)
        };
        let mv = format!("{}{}", path[i], path[i + 1]);
        g.push(&mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    let o = g.outcome().expect("the count ran out");
    assert_eq!(o.termination.code(), "fifty-round-challenge");
    assert_eq!(o.winner, None);
    // The challenge is part of the game: taking back a turn reopens it.
    g.pop();
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_repetition_choice_of_r36() {
    let fen = "12k/13/13/13/5t7/13/13/13/13/13/13/13/K11D w - - 0 1 -";
    let mut g = open("little-cheops-imperial", Some(fen));
    for mv in ["a1a2", "m13l13", "a2a1", "l13m13"].repeat(2) {
        g.push(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    // The third occurrence: White may abdicate or accept the draw; the game waits.
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_moves(), ["a1->m1", "draw"]);
    let kinds: Vec<&str> = g.turns().iter().map(|t| t.kind.code()).collect();
    assert_eq!(kinds, ["abdication", "claim"]);
    let claims: Vec<(String, Option<Color>)> =
        g.claims().into_iter().map(|c| (c.code, c.by)).collect();
    assert_eq!(
        claims,
        [
            ("draw".to_string(), Some(Color::White)),
            ("challenge".to_string(), None)
        ]
    );
    assert_eq!(
        g.claims()[0].sentence,
        "accept the ending: Draw by threefold repetition"
    );
    assert!(g.view(Viewer::Player(Color::Black)).claims().len() == 1);
    assert!(g.push("a1b1").is_err(), "only the choice is offered");
    // A view offers the umpire's choice to the player to move, nothing to the other.
    let white = g.view(Viewer::Player(Color::White));
    assert_eq!(white.legal_moves(), ["a1->m1", "draw"]);
    assert_eq!(white.outcome(), None);
    assert!(g
        .view(Viewer::Player(Color::Black))
        .legal_moves()
        .is_empty());
    assert!(g.claim_by(Color::Black, "draw").is_err(), "White's choice");
    let mut abdicated = g.fork();
    abdicated.push("a1->m1").expect("the abdication");
    assert_eq!(abdicated.outcome(), None);
    g.claim("draw").expect("White accepts");
    assert_eq!(
        g.history_canonical().last().map(String::as_str),
        Some("draw")
    );
    let o = g.outcome().expect("drawn");
    assert_eq!(
        (o.winner, o.termination.code()),
        (None, "repetition".into())
    );
}

/// A small deterministic generator for random games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Starting points for the random walks: each variant's start and rulebook positions with
/// the rarer turns (combined moves, infiltration, coups, releases, Castles, arrests).
fn walks() -> Vec<(&'static str, Option<&'static str>)> {
    vec![
        ("chess", None),
        (
            "chess",
            Some("r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1"),
        ),
        ("vyrt", None),
        (
            "vyrt",
            Some("12/12/6k5/12/12/12/12/12/12/2R3K2R2/12/12 w KQ - - 0 1"),
        ),
        ("cypher", None),
        (
            "cypher",
            Some("4s5/7k2/10/10/10/10/10/2Q7/7K2/10/4S5 w - Ii 0+0 0/0 0 1"),
        ),
        (
            "cypher",
            Some("1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1"),
        ),
        (
            "cypher",
            Some("4s5/2rn2nr2/3bqkb3/1pP5p1/10/10/10/1P6P1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 5/3 0 1"),
        ),
        (
            "cypher",
            Some("1R2b5/6s3/8n1/n5N3/6r3/1P1Ppkppp1/10/2P3pP2/5S2p1/6q3/6K3 b - I 0+0 4/2 1 69"),
        ),
        ("little-cheops", None),
        ("little-cheops-imperial", None),
        (
            "little-cheops-imperial",
            Some("13/13/2c1c8/3K9/2t1t8/13/13/13/2a10/3Cp1N6/2k10/13/13 w d10:w@d10 - 0 1 d4"),
        ),
        (
            "little-cheops-imperial",
            Some("k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -"),
        ),
        (
            "little-cheops-imperial",
            Some("k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5"),
        ),
    ]
}

/// Checks every legal turn's shape against the board before it is played.
fn check_turns(g: &dyn AnyGame, label: &str, kinds: &mut std::collections::BTreeSet<String>) {
    let geo = g.geometry();
    let me = g.turn();
    let owner = |name: &str| {
        let sq = geo
            .parse_square(name)
            .unwrap_or_else(|e| panic!("{label}: {name} is not on the board: {e}"));
        g.piece_at(sq).map(|c| {
            if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            }
        })
    };
    let turns = g.turns();
    assert_eq!(
        turns
            .iter()
            .map(|t| t.canonical.clone())
            .collect::<Vec<_>>(),
        g.legal_moves(),
        "{label}"
    );
    let mut seen = std::collections::HashSet::new();
    for t in &turns {
        let what = format!("{label}: {}", t.canonical);
        kinds.insert(t.kind.code().to_string());
        let mut prev_to: Option<&str> = None;
        for (i, p) in t.parts.iter().enumerate() {
            if let Some(from) = p.from.as_deref() {
                let own = owner(from) == Some(me);
                let chained = i > 0 && prev_to == Some(from);
                assert!(own || chained, "{what}: part {i} starts on {from}");
            }
            if let Some(to) = p.to.as_deref() {
                owner(to);
            }
            for c in &p.captures {
                assert_eq!(owner(c), Some(me.other()), "{what}: captures {c}");
            }
            if let Some(room) = p.room.as_deref() {
                // The arrestee may be carried to the room it was arrested in (the Castle is
                // judged after the arrest).
                let freed = p.captures.iter().any(|c| c == room);
                assert!(owner(room).is_none() || freed, "{what}: room {room}");
            }
            if let Some(letter) = p.promotion.as_deref() {
                assert!(letter.chars().all(|c| c.is_ascii_uppercase()), "{what}");
            }
            assert!(p.from.is_some() || p.to.is_some(), "{what}: an empty part");
            prev_to = p.to.as_deref();
        }
        if t.kind.code() != "claim" {
            assert!(!t.parts.is_empty(), "{what}: no squares");
            let key = serde_json::to_string(&t.parts).expect("json");
            assert!(
                seen.insert(key),
                "{what}: another turn has the same squares"
            );
        }
    }
}

#[test]
fn every_legal_turn_has_squares_a_board_can_enter() {
    let mut rng = Rng(0x5eed);
    let mut kinds = std::collections::BTreeSet::new();
    for (variant, fen) in walks() {
        for game in 0..3 {
            let mut g = open(variant, fen);
            for ply in 0..40 {
                let label = format!("{variant} game {game} ply {ply} ({})", g.fen());
                check_turns(g.as_ref(), &label, &mut kinds);
                let moves = g.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer the rarer kinds of turn so that they come up.
                let turns = g.turns();
                let rare: Vec<&str> = turns
                    .iter()
                    .filter(|t| !matches!(t.kind.code(), "move" | "capture"))
                    .map(|t| t.canonical.as_str())
                    .collect();
                let mv = if !rare.is_empty() && rng.below(3) == 0 {
                    rare[rng.below(rare.len())].to_string()
                } else {
                    moves[rng.below(moves.len())].clone()
                };
                g.push(&mv).unwrap_or_else(|e| panic!("{label}: {mv}: {e}"));
                let last = g.snapshot().last_turn;
                assert!(!last.is_empty(), "{label}: {mv} left no squares");
            }
        }
    }
    let all: Vec<&str> = kinds.iter().map(String::as_str).collect();
    for kind in [
        "move",
        "capture",
        "promotion",
        "castling",
        "en-passant",
        "combined-move",
        "infiltration",
        "coup",
        "release",
        "hop-chain",
        "arrest",
        "appointment",
        "inspection",
    ] {
        assert!(all.contains(&kind), "{kind} never came up: {all:?}");
    }
}
