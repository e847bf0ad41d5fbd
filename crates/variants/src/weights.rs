//! The hand-written evaluations' other weights (beyond the piece values of [`crate::values`]),
//! named so that a tuner can try them without rebuilding: `MENAGERIE_WEIGHTS=FILE`, one
//! `game name value` a line (`cypher court 40`, `vyrt pawn_advance.1 160`), overrides the
//! code's defaults for that process. The two styles of Little Cheops share one evaluation
//! with weights of their own: `little-cheops` sets Common's, `little-cheops-imperial`
//! Imperial's. Nothing is shipped in such a file: a tuned weight that
//! wins its match is written into the evaluation's `Default`. The `tune_weights` example
//! fits them to self-play positions and prints such a file.

use crate::eval::{cheops::CheopsEval, cypher::CypherEval, vyrt::VyrtEval};
use std::sync::OnceLock;

/// The games whose weights are named here.
pub const GAMES: [&str; 4] = ["vyrt", "cypher", "little-cheops", "little-cheops-imperial"];

/// The largest magnitude a weight may be given.
pub const MAX_WEIGHT: i32 = 100_000;

/// An evaluation whose weights can be named one by one.
pub trait NamedWeights {
    /// Each tunable weight with its name (an array's entries as `name.index`).
    fn named_weights(&mut self) -> Vec<(String, &mut i32)>;
}

fn push_array<'a>(out: &mut Vec<(String, &'a mut i32)>, name: &str, a: &'a mut [i32]) {
    for (i, w) in a.iter_mut().enumerate() {
        out.push((format!("{name}.{i}"), w));
    }
}

impl NamedWeights for CypherEval {
    fn named_weights(&mut self) -> Vec<(String, &mut i32)> {
        let mut out = vec![
            ("court".to_string(), &mut self.court),
            ("border".to_string(), &mut self.border),
            ("prisoner".to_string(), &mut self.prisoner),
            ("flip_threat".to_string(), &mut self.flip_threat),
            ("king_court".to_string(), &mut self.king_court),
            ("infiltration".to_string(), &mut self.infiltration),
        ];
        push_array(&mut out, "pawn_advance", &mut self.pawn_advance);
        out
    }
}

impl NamedWeights for VyrtEval {
    fn named_weights(&mut self) -> Vec<(String, &mut i32)> {
        let mut out = vec![
            ("mobility".to_string(), &mut self.mobility),
            ("king_zone".to_string(), &mut self.king_zone),
            ("mop_up_lead".to_string(), &mut self.mop_up_lead),
            ("mop_up".to_string(), &mut self.mop_up),
            ("mop_up_pawn".to_string(), &mut self.mop_up_pawn),
        ];
        push_array(&mut out, "pawn_advance", &mut self.pawn_advance);
        out
    }
}

impl NamedWeights for CheopsEval {
    fn named_weights(&mut self) -> Vec<(String, &mut i32)> {
        let mut out = vec![
            ("castle".to_string(), &mut self.castle),
            ("shelter".to_string(), &mut self.shelter),
            ("king_danger".to_string(), &mut self.king_danger),
            ("master_threat".to_string(), &mut self.master_threat),
            ("centre".to_string(), &mut self.centre),
            ("mop_up_lead".to_string(), &mut self.mop_up_lead),
            ("mop_up".to_string(), &mut self.mop_up),
            ("mop_up_pawn".to_string(), &mut self.mop_up_pawn),
            ("fifty".to_string(), &mut self.fifty),
            ("rider_mobility".to_string(), &mut self.rider_mobility),
        ];
        push_array(&mut out, "pawn_advance", &mut self.pawn_advance);
        out
    }
}

/// The weights one file sets: `(game, name, value)` in the file's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    /// Each line's game, weight name and value.
    pub set: Vec<(String, String, i32)>,
}

impl Weights {
    /// `e` (an evaluation of `game`) with this file's weights for that game.
    pub fn apply<E: NamedWeights>(&self, game: &str, mut e: E) -> E {
        for (_, name, value) in self.set.iter().filter(|(g, _, _)| g == game) {
            if let Some((_, w)) = e.named_weights().into_iter().find(|(n, _)| n == name) {
                *w = *value;
            }
        }
        e
    }
}

/// The names of `game`'s weights, or `None` for a game not in [`GAMES`].
pub fn names(game: &str) -> Option<Vec<String>> {
    let listed = |v: Vec<(String, &mut i32)>| v.into_iter().map(|(n, _)| n).collect();
    match game {
        "vyrt" => Some(listed(VyrtEval::default().named_weights())),
        "cypher" => Some(listed(CypherEval::default().named_weights())),
        "little-cheops" | "little-cheops-imperial" => {
            Some(listed(CheopsEval::default().named_weights()))
        }
        _ => None,
    }
}

/// Reads a weights file; a bad line, an unknown game or weight, or a weight given twice is
/// refused with one sentence naming the line.
pub fn parse(text: &str) -> Result<Weights, String> {
    let mut set: Vec<(String, String, i32)> = Vec::new();
    for (n, line, words) in crate::data_file::lines(text) {
        let [game, name, value] = words[..] else {
            return Err(format!(
                "line {n} of the weights is not 'game name value': '{line}'"
            ));
        };
        let known = names(game).ok_or_else(|| {
            format!(
                "line {n} of the weights names an unknown game '{game}' ({})",
                GAMES.join(", ")
            )
        })?;
        if !known.iter().any(|k| k == name) {
            return Err(format!(
                "line {n} of the weights names '{name}', which is not a weight of {game}"
            ));
        }
        let v = value
            .parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= MAX_WEIGHT)
            .ok_or_else(|| {
                format!("line {n} of the weights has '{value}' where a whole number from -{MAX_WEIGHT} to {MAX_WEIGHT} belongs")
            })?;
        if set.iter().any(|(g, k, _)| g == game && k == name) {
            return Err(format!(
                "line {n} of the weights gives {game}'s '{name}' a second time"
            ));
        }
        set.push((game.to_string(), name.to_string(), v));
    }
    Ok(Weights { set })
}

/// The weights the engine plays with: `MENAGERIE_WEIGHTS`'s file when set (one that does not
/// read or parse is reported once on standard error and ignored), else none (the code's).
pub fn current() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| crate::data_file::load("MENAGERIE_WEIGHTS", "", parse, Weights::default))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_sets_the_named_weights_of_its_game_only() {
        let w =
            parse("cypher court 41\ncypher pawn_advance.1 230 # the last step\nvyrt mobility 4\n")
                .unwrap();
        let c = w.apply("cypher", CypherEval::default());
        assert_eq!(c.court, 41);
        assert_eq!(c.pawn_advance[1], 230);
        assert_eq!(c.border, CypherEval::default().border);
        let v = w.apply("vyrt", VyrtEval::default());
        assert_eq!(v.mobility, 4);
        assert_eq!(v.pawn_advance, VyrtEval::default().pawn_advance);
        let k = w.apply("little-cheops", CheopsEval::default());
        assert_eq!(k.castle, CheopsEval::default().castle);
        // Each style of Little Cheops reads its own lines only.
        let w = parse("little-cheops castle 70\nlittle-cheops-imperial castle 80\n").unwrap();
        assert_eq!(w.apply("little-cheops", CheopsEval::default()).castle, 70);
        assert_eq!(
            w.apply("little-cheops-imperial", CheopsEval::imperial())
                .castle,
            80
        );
        assert_eq!(names("little-cheops-imperial"), names("little-cheops"));
        assert_eq!(parse("").unwrap(), Weights::default());
        let cypher = names("cypher").unwrap();
        assert_eq!(cypher.len(), 14);
        assert!(cypher.contains(&"pawn_advance.7".to_string()));
        assert_eq!(names("chess"), None);
    }

    #[test]
    fn a_bad_file_is_refused_with_a_sentence() {
        assert_eq!(
            parse("cypher court").unwrap_err(),
            "line 1 of the weights is not 'game name value': 'cypher court'"
        );
        assert_eq!(
            parse("shogi court 3").unwrap_err(),
            "line 1 of the weights names an unknown game 'shogi' (vyrt, cypher, little-cheops, little-cheops-imperial)"
        );
        assert_eq!(
            parse("\ncypher moat 3").unwrap_err(),
            "line 2 of the weights names 'moat', which is not a weight of cypher"
        );
        assert_eq!(
            parse("cypher court x").unwrap_err(),
            "line 1 of the weights has 'x' where a whole number from -100000 to 100000 belongs"
        );
        assert_eq!(
            parse("cypher court 3\ncypher court 4").unwrap_err(),
            "line 2 of the weights gives cypher's 'court' a second time"
        );
    }
}
