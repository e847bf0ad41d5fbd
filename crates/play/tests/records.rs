//! Every record the library writes loads back to the same game, in every variant, over
//! random games steered to play every kind of turn the game has.

use menagerie_core::{Color, Outcome, RuleOptions, Termination};
use menagerie_play::players::Rng;
use menagerie_play::record;
use menagerie_variants::{find, AnyGame};
use std::collections::BTreeSet;

/// The form of a turn's text: capital letters (pieces), then lower-case letters, digits and
/// the marks between them, so that `e2e4` and `g1f3` are one kind and `Nf3`, `e7e8q`, `O-O`,
/// `appoint:h5`, `Sb8/Nb10`, `PRc5` others.
fn shape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let square_file = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        let k = if c.is_ascii_digit() {
            '9'
        } else if c.is_uppercase() && !square_file {
            c
        } else if c.is_alphabetic() {
            'a'
        } else {
            c
        };
        if out.ends_with(k) && (k == '9' || k == 'a') {
            continue;
        }
        out.push(k);
    }
    out
}

/// Plays a random game, preferring turns of a form not seen yet; returns the game.
fn random_game(
    id: &str,
    fen: Option<&str>,
    rng: &mut Rng,
    seen: &mut BTreeSet<(String, String)>,
    plies: usize,
) -> Box<dyn AnyGame> {
    let mut g = find(id)
        .expect("a variant")
        .open(fen, &RuleOptions::new())
        .expect("the start");
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        let moves = g.legal_moves_with_human();
        if moves.is_empty() {
            break;
        }
        let key = |(c, h): &(String, String)| (shape(c), shape(h));
        let fresh: Vec<&(String, String)> =
            moves.iter().filter(|m| !seen.contains(&key(m))).collect();
        let pick = if fresh.is_empty() || rng.below(4) == 0 {
            &moves[rng.below(moves.len())]
        } else {
            fresh[rng.below(fresh.len())]
        };
        seen.insert(key(pick));
        g.push(&pick.0).expect("a legal move plays");
    }
    g
}

fn round_trip(g: &dyn AnyGame, outcome: Option<&Outcome>) {
    let variant = find(g.variant()).expect("a variant");
    let text = record::write(g, variant.start_fen, &[], outcome);
    let loaded = record::load(&text, "test.pgn", &variant, &[])
        .unwrap_or_else(|e| panic!("{} record does not load: {e}\n{text}", g.variant()));
    assert_eq!(loaded.game.fen(), g.fen(), "{text}");
    assert_eq!(loaded.game.history_canonical(), g.history_canonical());
    assert_eq!(loaded.moves, g.ply());
    let expect = g.outcome().or_else(|| outcome.cloned());
    let got = loaded.game.outcome().or(loaded.stated);
    assert_eq!(
        got.as_ref().map(|o| (o.winner, o.termination.code())),
        expect.as_ref().map(|o| (o.winner, o.termination.code())),
        "{text}"
    );
}

/// Positions where turns that are rare from the start (Cypher's coup, infiltration and
/// release; an Imperial appointment and inspection, arrests) are at hand.
const EXTRA_STARTS: &[(&str, &str)] = &[
    (
        "cypher",
        "1s8/7k2/4P1b3/2N7/4r5/10/4Q1K3/10/10/10/4S5 w - Ii 0+0 1/1 0 1",
    ),
    (
        "little-cheops-imperial",
        "k12/13/2c1c8/3K9/2t1t8/13/5n7/13/6CC5/13/13/13/13 w d10:w@d10 - 0 1 -",
    ),
];

#[test]
fn every_record_loads_back_in_every_variant() {
    for id in [
        "chess",
        "vyrt",
        "cypher",
        "little-cheops",
        "little-cheops-imperial",
    ] {
        let mut rng = Rng::new(7);
        let mut seen = BTreeSet::new();
        for n in 0..12 {
            // Some games from a position where the rarer turns come at once.
            let fen = EXTRA_STARTS
                .iter()
                .find(|(v, _)| *v == id && n % 3 == 1)
                .map(|(_, f)| *f);
            let g = random_game(id, fen, &mut rng, &mut seen, 160);
            round_trip(g.as_ref(), None);
            if g.outcome().is_none() {
                let resigned = Outcome::win(
                    if n % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    },
                    Termination::Resignation,
                );
                round_trip(g.as_ref(), Some(&resigned));
            }
        }
        assert!(seen.len() > 3, "{id}: only {seen:?}");
    }
}

#[test]
fn a_little_cheops_record_is_written_so_it_reads_back() {
    let variant = find("little-cheops").expect("little-cheops");
    let mut g = variant.open(None, &RuleOptions::new()).expect("the start");
    g.push("e2e3").expect("a pawn step");
    let text = record::write(g.as_ref(), variant.start_fen, &[], None);
    // The human text `1a P e2-e3` is several words; the canonical text is written.
    assert_eq!(
        text,
        "[Variant \"little-cheops\"]\n[Result \"*\"]\n\n1. e2e3 *\n"
    );
    assert!(record::load(&text, "x.pgn", &variant, &[]).is_ok());
}

#[test]
fn empty_records_and_bad_positions_are_refused_naming_the_file() {
    let variant = find("chess").expect("chess");
    let err = |text: &str| {
        record::load(text, "game.pgn", &variant, &[])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert_eq!(
        err(""),
        "game.pgn holds no game record (no tags and no moves)"
    );
    assert_eq!(err("  \n{a comment}\n"), err(""));
    assert!(
        err("[FEN \"8/8/8 w - - 0 1\"]\n\n*\n").starts_with("game.pgn: the FEN tag: "),
        "{}",
        err("[FEN \"8/8/8 w - - 0 1\"]\n\n*\n")
    );
}

#[test]
fn records_are_bounded() {
    let variant = find("chess").expect("chess");
    let many = "Nf3 Nf6 Ng1 Ng8 ".repeat(record::MAX_RECORD_MOVES / 4 + 1);
    let err = record::load(&many, "long.pgn", &variant, &[])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(
        err,
        format!(
            "long.pgn line 1: a record holds at most {} moves",
            record::MAX_RECORD_MOVES
        )
    );
    let huge = " ".repeat(record::MAX_RECORD_BYTES + 1);
    assert!(record::parse(&huge, "huge.pgn").is_err());
}
