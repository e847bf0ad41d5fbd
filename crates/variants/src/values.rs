//! The pieces' values of the hand-written evaluations as data (issue 34, item 3):
//! `data/piece-values.txt`, one `game letter value` a line, read into the evaluations the
//! registry searches with. A value changes in that file, not in code; `MENAGERIE_VALUES=FILE`
//! plays with another file of the same form (read once per process), so a changed value can
//! be tried against the shipped one without rebuilding.

use crate::eval::{cheops::CheopsEval, cypher::CypherEval, vyrt::VyrtEval};
use std::sync::OnceLock;

/// The shipped values.
pub const SHIPPED: &str = include_str!("../data/piece-values.txt");

/// The games with values in the file, each with the letters it must give, in the order of
/// the evaluation's own table. The two styles of Little Cheops share the evaluation's code,
/// not their values (the lab measures each style's pieces apart).
pub const GAMES: [(&str, &str); 4] = [
    ("vyrt", "PNBRQ"),
    ("cypher", "PNBRQ"),
    ("little-cheops", "KQEITMNDUBOACP"),
    ("little-cheops-imperial", "KQEITMNDUBOACP"),
];

/// The largest value a file may give, in centipawns.
pub const MAX_VALUE: i32 = 10_000;

/// The values of one file: for each game of [`GAMES`], its letters' values in that order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceValues {
    /// `values[g][i]`: game `GAMES[g]`, letter `i` of its letters.
    pub values: [Vec<i32>; 4],
}

impl PieceValues {
    /// The value of `letter` (upper case) in `game`, if the file has it.
    pub fn get(&self, game: &str, letter: char) -> Option<i32> {
        let g = GAMES.iter().position(|(id, _)| *id == game)?;
        let i = GAMES[g].1.chars().position(|c| c == letter)?;
        self.values[g].get(i).copied()
    }

    /// `e` with this file's Vyrt values.
    pub fn vyrt(&self, mut e: VyrtEval) -> VyrtEval {
        for (v, &x) in e.values.iter_mut().zip(&self.values[0]) {
            *v = x;
        }
        e
    }

    /// `e` with this file's Cypher values.
    pub fn cypher(&self, mut e: CypherEval) -> CypherEval {
        for (v, &x) in e.values.iter_mut().zip(&self.values[1]) {
            *v = x;
        }
        e
    }

    /// `e` with this file's Little Cheops (Common) values (letters not in the file keep
    /// theirs).
    pub fn cheops(&self, e: CheopsEval) -> CheopsEval {
        self.cheops_style("little-cheops", e)
    }

    /// `e` with this file's Little Cheops Imperial values (letters not in the file keep
    /// theirs).
    pub fn imperial(&self, e: CheopsEval) -> CheopsEval {
        self.cheops_style("little-cheops-imperial", e)
    }

    fn cheops_style(&self, game: &str, mut e: CheopsEval) -> CheopsEval {
        for (letter, v) in e.values.iter_mut() {
            if let Some(x) = self.get(game, *letter) {
                *v = x;
            }
        }
        e
    }
}

/// Reads a values file; a bad line, an unknown game or letter, a letter given twice or one
/// missing is refused with one sentence naming the line or the letter.
pub fn parse(text: &str) -> Result<PieceValues, String> {
    let mut got: [Vec<Option<i32>>; 4] = GAMES.map(|(_, letters)| vec![None; letters.len()]);
    for (n, line, words) in crate::data_file::lines(text) {
        let [game, letter, value] = words[..] else {
            return Err(format!(
                "line {n} of the piece values is not 'game letter value': '{line}'"
            ));
        };
        let g = GAMES
            .iter()
            .position(|(id, _)| *id == game)
            .ok_or_else(|| {
                let known: Vec<&str> = GAMES.iter().map(|(id, _)| *id).collect();
                format!(
                    "line {n} of the piece values names an unknown game '{game}' ({})",
                    known.join(", ")
                )
            })?;
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(format!(
                "line {n} of the piece values has '{letter}' where one letter belongs"
            ));
        };
        let i = GAMES[g].1.chars().position(|l| l == c).ok_or_else(|| {
            format!(
                "line {n} of the piece values gives '{c}', which is not a valued piece of {game} ({})",
                GAMES[g].1
            )
        })?;
        let v = value
            .parse::<i32>()
            .ok()
            .filter(|v| (0..=MAX_VALUE).contains(v))
            .ok_or_else(|| {
                format!("line {n} of the piece values has '{value}' where a value from 0 to {MAX_VALUE} belongs")
            })?;
        if got[g][i].replace(v).is_some() {
            return Err(format!(
                "line {n} of the piece values gives {game}'s '{c}' a second time"
            ));
        }
    }
    let mut values: [Vec<i32>; 4] = Default::default();
    for (g, (game, letters)) in GAMES.iter().enumerate() {
        for (i, c) in letters.chars().enumerate() {
            values[g].push(
                got[g][i]
                    .ok_or_else(|| format!("the piece values give no value to {game}'s '{c}'"))?,
            );
        }
    }
    Ok(PieceValues { values })
}

/// The values the engine plays with: `MENAGERIE_VALUES`'s file when set (a file that does
/// not read or parse is reported once on standard error and the shipped values are used),
/// else the shipped file.
pub fn current() -> &'static PieceValues {
    static VALUES: OnceLock<PieceValues> = OnceLock::new();
    VALUES.get_or_init(|| crate::data_file::load("MENAGERIE_VALUES", SHIPPED, parse, fallback))
}

/// The evaluations' own defaults, should the shipped file ever not parse (a test keeps it
/// parsing).
fn fallback() -> PieceValues {
    let (common, imperial) = (CheopsEval::default(), CheopsEval::imperial());
    PieceValues {
        values: [
            VyrtEval::default().values.to_vec(),
            CypherEval::default().values.to_vec(),
            GAMES[2].1.chars().map(|c| common.value(c)).collect(),
            GAMES[3].1.chars().map(|c| imperial.value(c)).collect(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_values_parse_and_are_what_the_registry_searches_with() {
        let v = parse(SHIPPED).unwrap();
        assert_eq!(v.values[0], vec![100, 401, 575, 609, 1483]);
        assert_eq!(v.values[1], vec![100, 226, 240, 314, 676]);
        assert_eq!(v.get("little-cheops", 'E'), Some(966));
        assert_eq!(v.get("little-cheops", 'Q'), Some(1041));
        assert_eq!(v.get("little-cheops", 'N'), Some(291));
        assert_eq!(v.get("little-cheops-imperial", 'E'), Some(1000));
        assert_eq!(v.get("little-cheops-imperial", 'Q'), Some(1100));
        assert_eq!(v.get("little-cheops", '?'), None);
        assert_eq!(v.get("chess", 'P'), None);
        // The registry's evaluations carry the file's values.
        let e = v.cheops(CheopsEval::default());
        assert_eq!(e.value('E'), 966);
        assert_eq!(v.imperial(CheopsEval::imperial()).value('E'), 1000);
        assert_eq!(e.value('?'), 0);
        assert_eq!(
            v.vyrt(VyrtEval::default()).values,
            [100, 401, 575, 609, 1483]
        );
        assert_eq!(
            v.cypher(CypherEval::default()).values,
            [100, 226, 240, 314, 676]
        );
    }

    #[test]
    fn a_changed_file_changes_the_values_and_a_bad_one_is_refused_with_a_sentence() {
        let changed = SHIPPED
            .replace("vyrt R 609", "vyrt R 700")
            .replace("little-cheops N 291", "little-cheops N 450");
        let v = parse(&changed).unwrap();
        assert_eq!(
            v.vyrt(VyrtEval::default()).values,
            [100, 401, 575, 700, 1483]
        );
        assert_eq!(v.cheops(CheopsEval::default()).value('N'), 450);
        // Each style of Little Cheops reads its own lines.
        assert_eq!(v.imperial(CheopsEval::imperial()).value('N'), 300);
        let imperial = parse(&SHIPPED.replace(
            "little-cheops-imperial Q 1100",
            "little-cheops-imperial Q 1300",
        ))
        .unwrap();
        assert_eq!(imperial.imperial(CheopsEval::imperial()).value('Q'), 1300);
        assert_eq!(
            imperial.cheops(CheopsEval::default()).value('Q'),
            parse(SHIPPED)
                .unwrap()
                .get("little-cheops", 'Q')
                .unwrap_or(0)
        );
        assert_eq!(
            parse(&SHIPPED.replace("little-cheops-imperial T 500\n", "")).unwrap_err(),
            "the piece values give no value to little-cheops-imperial's 'T'"
        );
        assert_eq!(
            parse(&SHIPPED.replace("vyrt R 609", "vyrt R")).unwrap_err(),
            "line 19 of the piece values is not 'game letter value': 'vyrt R'"
        );
        assert_eq!(
            parse(&SHIPPED.replace("vyrt R 609", "vyrt R -5")).unwrap_err(),
            "line 19 of the piece values has '-5' where a value from 0 to 10000 belongs"
        );
        assert_eq!(
            parse(&SHIPPED.replace("vyrt R 609", "vyrt S 420")).unwrap_err(),
            "line 19 of the piece values gives 'S', which is not a valued piece of vyrt (PNBRQ)"
        );
        assert_eq!(
            parse(&SHIPPED.replace("vyrt R 609", "shogi R 420")).unwrap_err(),
            "line 19 of the piece values names an unknown game 'shogi' (vyrt, cypher, little-cheops, little-cheops-imperial)"
        );
        assert_eq!(
            parse(&SHIPPED.replace("vyrt R 609", "vyrt Q 420")).unwrap_err(),
            "line 20 of the piece values gives vyrt's 'Q' a second time"
        );
        assert_eq!(
            parse(&SHIPPED.replace("vyrt R 609", "")).unwrap_err(),
            "the piece values give no value to vyrt's 'R'"
        );
    }

    #[test]
    fn the_fallback_is_the_evaluations_own_defaults() {
        // The engine plays the file's values; the code's defaults (Vyrt's Rook and Queen
        // still 420 and 1000 there) are only the fallback should the file not parse.
        let f = fallback();
        assert_eq!(f.values[0], vec![100, 450, 600, 420, 1000]);
        assert_ne!(f, parse(SHIPPED).unwrap());
        assert_eq!(f.values[2].len(), 14);
        assert_eq!(f.values[3].len(), 14);
        assert_eq!(f.get("little-cheops", 'Q'), Some(900));
    }
}
