//! Random openings for matches and studies: a few random plies from the start, kept when a
//! short search finds the position balanced. Random plies alone are not enough: in Cypher a
//! random move often loses at once, and a game that ends inside its opening (or is lost at
//! the first turn after it) measures nothing about the players.

use crate::engine::Engine;
use crate::players::Rng;
use menagerie_core::RuleOptions;
use menagerie_variants::{Limits, Score, Variant, VariantError};

/// An opening counts as balanced when its short search scores it within this many
/// centipawns of even.
pub const BALANCED_CP: i32 = 150;
/// The nodes of the short search that judges an opening.
pub const OPENING_NODES: u64 = 2_000;
/// Openings tried before the most balanced one tried is taken.
pub const OPENING_TRIES: usize = 20;

/// A random opening of `plies` plies from `fen` (the start position when `None`), as the
/// moves' canonical texts: the first of [`OPENING_TRIES`] tries that does not end the game
/// and whose search of [`OPENING_NODES`] nodes scores within [`BALANCED_CP`]; the most
/// balanced try when none does; no move at all when every try ends the game.
pub fn balanced_opening(
    variant: &Variant,
    fen: Option<&str>,
    options: &RuleOptions,
    plies: u32,
    rng: &mut Rng,
) -> Result<Vec<String>, VariantError> {
    if plies == 0 {
        return Ok(Vec::new());
    }
    let mut engine = Engine::new();
    let mut best: Option<(i32, Vec<String>)> = None;
    for _ in 0..OPENING_TRIES {
        let mut g = variant.open(fen, options)?;
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())].clone();
            g.push(&mv)?;
            line.push(mv);
        }
        if g.outcome().is_some() || g.legal_moves().is_empty() {
            continue;
        }
        // Each try judged afresh: what one probe learnt does not colour the next.
        engine.new_game();
        let limits = Limits {
            nodes: Some(OPENING_NODES),
            ..Limits::default()
        };
        let report = engine.search(g.as_ref(), &limits, None, &mut |_| {});
        let off = match report.info.score {
            Score::Cp(cp) => cp.abs(),
            _ => i32::MAX,
        };
        if off <= BALANCED_CP {
            return Ok(line);
        }
        if best.as_ref().is_none_or(|(b, _)| off < *b) {
            best = Some((off, line));
        }
    }
    Ok(best.map(|(_, line)| line).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cypher, where random plies often end the game: every opening drawn is playable
    /// (the game goes on after it) and scored within the bound by the probe.
    #[test]
    fn cypher_openings_neither_end_the_game_nor_hand_over_a_win() {
        let variant = menagerie_variants::find("cypher").expect("cypher");
        let options = RuleOptions::new();
        // How often plain random plies end the game, for comparison.
        let mut ended_raw = 0;
        let mut rng = Rng::new(7);
        for _ in 0..40 {
            let mut g = variant.open(None, &options).expect("cypher");
            for _ in 0..8 {
                let moves = g.legal_moves();
                if moves.is_empty() || g.outcome().is_some() {
                    break;
                }
                g.push(&moves[rng.below(moves.len())]).expect("legal");
            }
            if g.outcome().is_some() {
                ended_raw += 1;
            }
        }
        assert!(ended_raw >= 5, "random plies ended {ended_raw} of 40 games");
        let mut rng = Rng::new(7);
        for _ in 0..10 {
            let line = balanced_opening(&variant, None, &options, 8, &mut rng).expect("opening");
            assert_eq!(line.len(), 8, "{line:?}");
            let mut g = variant.open(None, &options).expect("cypher");
            for mv in &line {
                g.push(mv).expect("the opening replays");
            }
            assert!(g.outcome().is_none(), "{line:?} ends the game");
            let report = Engine::new().search(
                g.as_ref(),
                &Limits {
                    nodes: Some(OPENING_NODES),
                    ..Limits::default()
                },
                None,
                &mut |_| {},
            );
            assert!(
                matches!(report.info.score, Score::Cp(cp) if cp.abs() <= BALANCED_CP),
                "{line:?}: {:?}",
                report.info.score
            );
        }
    }

    #[test]
    fn no_plies_no_moves_and_the_same_seed_the_same_opening() {
        let variant = menagerie_variants::find("vyrt").expect("vyrt");
        let options = RuleOptions::new();
        let none = balanced_opening(&variant, None, &options, 0, &mut Rng::new(1));
        assert_eq!(none.expect("opening"), Vec::<String>::new());
        let a = balanced_opening(&variant, None, &options, 6, &mut Rng::new(5)).expect("a");
        let b = balanced_opening(&variant, None, &options, 6, &mut Rng::new(5)).expect("b");
        assert_eq!(a.len(), 6);
        assert_eq!(a, b);
    }
}
