//! Hidden information (§15, R41): what a player is offered, shown and told never depends on
//! the opponent's secret. These tests fail if the papers leak.

mod common;
use common::*;
use menagerie_cheops::CheopsPosition;
use menagerie_core::{BitBoard, Color, Position};

/// The inputs whose answers are compared: legal, illegal for several rules, and garbage.
const PROBES: &[&str] = &[
    "f7g5",
    "f7h5",
    "inspect:g5",
    "inspect:h5",
    "g5f4",
    "h5h4",
    "appoint:g5",
    "g5:i5",
    "a13a12",
    "a13a11",
    "e1->g7",
    "draw",
    "zz",
    "f7g5=Q",
    "c4=Q",
];

fn answers(view: &menagerie_cheops::PlayerView) -> Vec<String> {
    PROBES
        .iter()
        .map(|t| match view.parse_move(t) {
            Ok(m) => format!("ok {}", view.move_text(&m)),
            Err(e) => format!("err {e}"),
        })
        .collect()
}

/// Positions that differ only in White's sealed papers: Black's view is identical.
#[test]
fn the_opponents_papers_change_nothing_a_player_sees() {
    let base = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 b d10:w@d10 - 1 1";
    let variants: Vec<CheopsPosition> = ["-", "g5", "h5", "g5,h5"]
        .iter()
        .map(|papers| pos(I, &format!("{base} {papers}")))
        .collect();
    let first = variants[0].view(Color::Black);
    for p in &variants {
        let v = p.view(Color::Black);
        assert_eq!(v.fen(), first.fen());
        assert_eq!(v.public_fen(), first.public_fen());
        assert_eq!(v.offered_texts(), first.offered_texts());
        assert_eq!(answers(&v), answers(&first));
        // The umpire's own list is the same too (R41), and so is its error text.
        assert_eq!(p.move_texts(), variants[0].move_texts());
        for t in PROBES {
            let a = p
                .parse_move(t)
                .map(|m| p.move_text(m))
                .map_err(|e| e.to_string());
            let b = variants[0]
                .parse_move(t)
                .map(|m| variants[0].move_text(m))
                .map_err(|e| e.to_string());
            assert_eq!(a, b, "answer to {t}");
        }
    }
    // White, who owns the papers, sees them; the umpire string carries them.
    assert_eq!(variants[1].view(Color::White).fen(), format!("{base} g5"));
    assert_eq!(variants[1].fen(), format!("{base} g5"));
    assert!(
        variants[1].view(Color::White).offered_moves().is_empty(),
        "not White's turn"
    );
}

/// White to move with Black's sealed Deputy somewhere: White's offered turns (inspections
/// included) are the same whichever Black Civilian holds papers. (With two Civilians a side,
/// a side that can arrest has no enemy Civilian with papers to arrest: 10.1.)
#[test]
fn inspections_do_not_depend_on_the_target_secret() {
    let base = "13/13/2C1C8/3k9/2T1T8/13/5N7/13/6cc5/7K5/13/13/13 w d10:b@d10 - 0 1";
    let none = pos(I, &format!("{base} -"));
    for papers in ["g5", "h5", "g5,h5"] {
        let p = pos(I, &format!("{base} {papers}"));
        assert_eq!(p.move_texts(), none.move_texts());
        assert_eq!(p.view(Color::White).fen(), none.view(Color::White).fen());
        assert_eq!(
            answers(&p.view(Color::White)),
            answers(&none.view(Color::White))
        );
    }
}

/// The property on every position of small trees from the §19 Imperial positions: the
/// umpire's legal turns equal the turns offered from the mover's view, and the opponent's
/// view is offered nothing.
#[test]
fn umpire_moves_equal_the_movers_view_everywhere() {
    let roots = [
        "k12/6a6/2c1c3m4/3K9/2t1t8/13/5n7/9b3/6CC5/13/7Q5/10P2/13 w d10:w@d10 - 0 1 -",
        "k12/1u11/2c1c8/3K9/2t1t8/13/13/5inp5/6C6/7C5/13/13/12T w d10:w@d10 g5 0 1 h4",
        "k12/6a6/2c1c3m4/3K9/2t1t8/13/5n7/9b3/6CC5/13/7Q5/10P2/13 b d10:w@d10 - 1 1 g5",
    ];
    let mut checked = 0;
    for root in roots {
        let p = pos(I, root);
        let mut frontier = vec![p];
        for _ in 0..3 {
            let mut next = Vec::new();
            for q in &frontier {
                let mover = q.turn();
                let umpire = q.move_texts();
                let view = q.view(mover);
                assert_eq!(umpire, view.offered_texts(), "in {}", q.fen());
                assert!(q.view(mover.other()).offered_moves().is_empty());
                // The opponent's papers are never in the mover's string.
                let own = q.view(mover);
                for s in own.own_papers().iter() {
                    assert_eq!(menagerie_cheops::piece_color(q, s), Some(mover));
                }
                checked += 1;
                for m in q.moves() {
                    let mut r = q.clone();
                    r.play(m);
                    next.push(r);
                }
            }
            frontier = next;
        }
    }
    assert!(checked > 2_000, "{checked}");
}

/// An inspection answers publicly; a hop compromises; both end up in the public string.
#[test]
fn the_secret_is_released_only_by_the_rules() {
    let f = "k12/13/2c1c8/3K9/2t1t8/13/5n7/9b3/6CC5/13/13/13/13 w d10:w@d10 - 0 1 g5";
    let p = pos(I, f);
    assert!(!p.view(Color::Black).fen().contains("g5"));
    let stepped = play(&p, "g5g4");
    assert!(
        !stepped.view(Color::Black).public_fen().contains("g4"),
        "a Civilian step reveals nothing"
    );
    assert!(
        stepped.fen().ends_with(" g4"),
        "the papers follow the piece"
    );
    let hopped = play(&p, "g5:i5");
    assert!(hopped.view(Color::Black).public_fen().contains(" i5 "));
}

/// Everything one player (or a spectator) is told about a game: the view string, the turns
/// offered with their texts, and the texts of the turns played.
fn transcript(
    history: &[(CheopsPosition, menagerie_cheops::CheopsMove)],
    now: &CheopsPosition,
    viewer: Option<Color>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in history {
        let (c, h) = p.move_seen_by(*m, viewer);
        out.push(format!("played {c} ({h})"));
    }
    match viewer {
        Some(player) => {
            let view = now.view(player);
            out.push(view.fen());
            out.push(now.view_fen(player));
            for m in view.offered_moves() {
                out.push(format!(
                    "offered {} ({})",
                    view.position().move_text(m),
                    view.position().move_human(m)
                ));
            }
        }
        None => out.push(now.public_fen()),
    }
    out
}

/// Issue 14 items 2 and 3: two games that differ only in which Civilian White appointed
/// tell Black and a spectator exactly the same, turn after turn, until a rule releases the
/// secret (here Black's inspection, whose answer is public once it is made).
#[test]
fn which_civilian_was_appointed_is_told_to_nobody_else() {
    let start = pos(
        I,
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -",
    );
    let line = |appointed: &str| {
        let mut history = Vec::new();
        let mut p = start.clone();
        let mut stages = Vec::new();
        for text in [appointed, "a13a12", "d10d9", "a12a13"] {
            let m = p.parse_move(text).expect(text);
            history.push((p.clone(), m));
            p.play(m);
            stages.push((history.clone(), p.clone()));
        }
        stages
    };
    let (g5, h5) = (line("appoint:g5"), line("appoint:h5"));
    for ((ha, pa), (hb, pb)) in g5.iter().zip(&h5) {
        assert_ne!(pa.fen(), pb.fen(), "the umpire knows");
        for viewer in [Some(Color::Black), None] {
            assert_eq!(transcript(ha, pa, viewer), transcript(hb, pb, viewer));
        }
        // White, who appointed, is told which.
        assert_ne!(
            transcript(ha, pa, Some(Color::White)),
            transcript(hb, pb, Some(Color::White))
        );
    }
    let (history, _) = &g5[0];
    let (p, m) = &history[0];
    assert_eq!(
        p.move_seen_by(*m, Some(Color::Black)),
        ("appoint".into(), "appoints C".into())
    );
    assert_eq!(
        p.move_seen_by(*m, Some(Color::White)),
        ("appoint:g5".into(), "appoints C g5".into())
    );
    // Black is offered the inspection of either Civilian, without an answer.
    let (_, after) = &g5[0];
    let offered: Vec<String> = after
        .view(Color::Black)
        .offered_moves()
        .iter()
        .filter(|m| m.kind == menagerie_cheops::TurnKind::Inspect)
        .map(|&m| after.move_human(m))
        .collect();
    assert_eq!(offered, ["inspects C g5"]);
}
