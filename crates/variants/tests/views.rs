//! The player's view (issue 9 item 6): two Little Cheops Imperial games that differ only in
//! the opponent's sealed papers look the same, method by method, to the player and to a
//! spectator.

use menagerie_core::{Color, RuleOptions, Viewer};
use menagerie_variants::{find, AnyGame};

/// T15A: White's King on the chair of d10 with Civilians g5 and h5 to appoint; Black holds
/// sealed papers for its Civilian c11 (a bastion).
const T15A: &str = "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 c11";
/// T15A mirrored: Black's King on the chair of d4 with Civilians g9 and h9 to appoint;
/// White holds sealed papers for c3.
const MIRRORED: &str = "13/13/13/13/6cc5/13/5N7/13/2T1T8/3k9/2C1C8/13/K12 b d4:b@d4 - 0 1 c3";

fn open(fen: &str) -> Box<dyn AnyGame> {
    find("little-cheops-imperial")
        .expect("variant")
        .open(Some(fen), &RuleOptions::new())
        .expect("position")
}

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

/// Everything a viewer can learn from `g` through the public `AnyGame` methods that
/// return something, each as text. Methods that change the game are tried on copies.
fn everything(g: &dyn AnyGame) -> Vec<String> {
    let geo = g.geometry();
    let json = |v: &dyn erased::Json| v.json();
    let snap = |g: &dyn AnyGame| serde_json::to_string(&g.snapshot()).unwrap_or_default();
    let mut out = vec![
        format!("variant {}", g.variant()),
        format!("fen {}", g.fen()),
        format!("view_fen white {}", g.view_fen(Color::White)),
        format!("view_fen black {}", g.view_fen(Color::Black)),
        format!("start_fen {}", g.start_fen()),
        format!("geometry {} {}", geo.width(), geo.height()),
        format!(
            "pieces {:?}",
            geo.squares().map(|s| g.piece_at(s)).collect::<Vec<_>>()
        ),
        format!("turn {:?} check {}", g.turn(), g.is_check()),
        format!("legal {:?}", g.legal_moves()),
        format!("legal_human {:?}", g.legal_moves_with_human()),
        format!("history {:?}", g.history()),
        format!("history_canonical {:?}", g.history_canonical()),
        format!(
            "history_seen_by {:?} {:?} {:?}",
            g.history_seen_by(Some(Color::White)),
            g.history_seen_by(Some(Color::Black)),
            g.history_seen_by(None)
        ),
        format!("ply {}", g.ply()),
        format!("outcome {:?}", g.outcome()),
        format!("diagram {:?}", g.diagram(None).ok()),
        format!("perft1 {}", g.perft(1)),
        format!("divide1 {:?}", g.divide(1)),
        format!("turns {}", json(&g.turns())),
        format!("snapshot {}", snap(g)),
        format!("claims {}", json(&g.claims())),
        format!("made_claims {}", json(&g.made_claims())),
        format!("ending {:?}", g.ending()),
        format!("viewer {:?}", g.viewer()),
    ];
    // Views of the view show nothing more.
    for viewer in [
        Viewer::Player(Color::White),
        Viewer::Player(Color::Black),
        Viewer::Spectator,
        Viewer::Umpire,
    ] {
        let v = g.view(viewer);
        out.push(format!("view {viewer:?} fen {}", v.fen()));
        out.push(format!("view {viewer:?} snapshot {}", snap(v.as_ref())));
        out.push(format!("view {viewer:?} history {:?}", v.history()));
    }
    // Moves: the offered ones, inspections and moves naming each apparent Civilian of either
    // side, and a bogus one; each on a copy, with what a take-back then says.
    let mut tries: Vec<String> = g.legal_moves().into_iter().take(3).collect();
    for sq in geo.squares() {
        if g.piece_at(sq).is_some_and(|c| c.eq_ignore_ascii_case(&'c')) {
            let name = geo.square_name(sq);
            tries.push(format!("inspect:{name}"));
            tries.push(format!("appoint:{name}"));
            tries.push(format!("{name}:{name}"));
        }
    }
    tries.push("appoint".into());
    tries.push("xyz".into());
    for t in tries {
        let mut copy = g.fork();
        let pushed = copy.push(&t);
        let after = snap(copy.as_ref());
        let popped = copy.pop();
        out.push(format!(
            "push {t}: {pushed:?} -> {after} / pop {:?}",
            popped
        ));
    }
    // Endings from outside on a copy.
    let mut copy = g.fork();
    out.push(format!(
        "resign {:?} {:?}",
        copy.resign(Color::White),
        copy.outcome()
    ));
    out
}

/// serde_json for the values above without naming their types.
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap_or_else(|e| format!("error {e}"))
        }
    }
}

/// Plays random games from `fen` twice: the opponent of `viewer` appoints a different
/// Civilian in the second whenever it can. While the public positions agree, the viewer's
/// and a spectator's views of the two games must agree in everything. Returns how many
/// positions were compared with the two games' papers differing.
fn compare(fen: &str, viewer: Color, games: usize, rng: &mut Rng) -> usize {
    let opponent = viewer.other();
    let mut differing = 0;
    for _ in 0..games {
        let mut a = open(fen);
        let mut b = open(fen);
        for _ in 0..30 {
            if a.outcome().is_some() || b.outcome().is_some() {
                break;
            }
            let moves = a.legal_moves();
            let appoints: Vec<&String> =
                moves.iter().filter(|m| m.starts_with("appoint:")).collect();
            let mv = if !appoints.is_empty() && rng.below(2) == 0 {
                appoints[rng.below(appoints.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            let mut other = mv.clone();
            if a.turn() == opponent && mv.starts_with("appoint:") {
                if let Some(alt) = b
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.starts_with("appoint:") && *m != mv)
                {
                    other = alt;
                }
            }
            if b.push(&other).is_err() {
                break;
            }
            a.push(&mv).expect("legal in the first game");
            let public = |g: &dyn AnyGame| g.view(Viewer::Spectator).fen();
            if public(a.as_ref()) != public(b.as_ref()) {
                break;
            }
            if a.fen() != b.fen() {
                differing += 1;
            }
            for who in [Viewer::Player(viewer), Viewer::Spectator] {
                let (va, vb) = (a.view(who), b.view(who));
                let (ea, eb) = (everything(va.as_ref()), everything(vb.as_ref()));
                for (x, y) in ea.iter().zip(&eb) {
                    assert_eq!(x, y, "{who:?} after {:?}", a.history_canonical());
                }
                assert_eq!(ea.len(), eb.len());
            }
        }
    }
    differing
}

/// Texts included: an opponent's appointment reads `appoint` with no square (Contract 4's
/// `Position::move_seen_by`, told to the view when it is taken).
#[test]
fn views_do_not_depend_on_the_opponents_sealed_papers() {
    let mut rng = Rng(0x51de);
    let mut differing = 0;
    differing += compare(T15A, Color::Black, 6, &mut rng);
    differing += compare(MIRRORED, Color::White, 6, &mut rng);
    assert!(
        differing >= 40,
        "only {differing} positions with different papers"
    );
}

#[test]
fn a_view_keeps_its_owners_papers_and_the_history() {
    let mut g = open(T15A);
    g.push("appoint:g5").expect("legal");
    let white_papers = |g: &dyn AnyGame| -> Vec<String> {
        g.snapshot()
            .squares
            .into_iter()
            .filter(|s| s.marks.contains(&menagerie_core::Mark::DeputySealed))
            .map(|s| s.name)
            .collect()
    };
    assert_eq!(white_papers(g.as_ref()), ["g5", "c11"]);
    assert_eq!(
        white_papers(g.view(Viewer::Player(Color::White)).as_ref()),
        ["g5"]
    );
    assert_eq!(
        white_papers(g.view(Viewer::Player(Color::Black)).as_ref()),
        ["c11"]
    );
    assert!(white_papers(g.view(Viewer::Spectator).as_ref()).is_empty());
    let white = g.view(Viewer::Player(Color::White));
    let black = g.view(Viewer::Player(Color::Black));
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(white.fen(), g.view_fen(Color::White));
    assert_eq!(black.fen(), g.view_fen(Color::Black));
    assert!(white.fen().ends_with(" g5"), "{}", white.fen());
    assert!(black.fen().ends_with(" c11"), "{}", black.fen());
    assert_eq!(white.ply(), 1);
    assert_eq!(black.ply(), 1);
    assert_eq!(white.history(), g.history());
    for v in [&black, &spectator] {
        let (canonical, human) = &v.history()[0];
        assert!(
            !canonical.contains("g5") && !human.contains("g5"),
            "{canonical} {human}"
        );
        assert!(v.snapshot().last_turn.is_empty());
    }
    assert_eq!(white.snapshot().last_turn, ["g5"]);
    // Only the side to move is offered turns in a view; a spectator never.
    assert!(white.legal_moves().is_empty() && spectator.legal_moves().is_empty());
    assert_eq!(black.legal_moves(), g.legal_moves());
    let canonical =
        |g: &dyn AnyGame| -> Vec<String> { g.turns().into_iter().map(|t| t.canonical).collect() };
    assert_eq!(canonical(black.as_ref()), canonical(g.as_ref()));
    let mut b = g.view(Viewer::Player(Color::Black));
    let mut w = g.view(Viewer::Player(Color::White));
    let mv = g.legal_moves()[0].clone();
    assert!(w.push(&mv).is_err(), "not White's turn");
    assert!(b.push(&mv).is_ok());
    // Chess has no secrets: a view is a copy.
    let mut chess = find("chess")
        .expect("chess")
        .open(None, &RuleOptions::new())
        .expect("start");
    chess.push("e4").expect("legal");
    let v = chess.view(Viewer::Player(Color::White));
    assert_eq!(v.legal_moves(), chess.legal_moves());
    assert_eq!(v.history(), chess.history());
    assert_eq!(v.fen(), chess.fen());
}
