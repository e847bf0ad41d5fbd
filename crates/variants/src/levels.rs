//! Engine levels for people: eight steps from 1 (weakest) to 8 (strongest), each a search
//! with a limited depth and node budget and, below the top, a habit of now and then playing
//! the second-best move when it is nearly as good ([`Skill`]). Nothing random is blundered:
//! a weak level sees less and settles for a close second, as a weaker player does.
//!
//! A ply is worth more in some games than in others, so each game may have its own table:
//! `data/levels.txt` holds them (a `default` table for the games without one), and
//! `MENAGERIE_LEVELS=FILE` plays with another file of the same form (read once per process).

use menagerie_engine::{Limits, Skill};
use std::sync::OnceLock;
use std::time::Duration;

/// The weakest level.
pub const MIN_LEVEL: u32 = 1;
/// The strongest level.
pub const MAX_LEVEL: u32 = 8;

/// The shipped tables.
pub const SHIPPED: &str = include_str!("../data/levels.txt");

/// One level of a table: what its search may do and how often it settles for a close second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The deepest iteration, if any.
    pub depth: Option<u32>,
    /// The node budget of a move.
    pub nodes: u64,
    /// The time cap of a move, in milliseconds.
    pub time_ms: u64,
    /// How far below the best the second-best move may score and still be played, in cp.
    pub margin_cp: u32,
    /// In how many positions of a hundred the second-best move is played (0: never).
    pub chance_percent: u32,
}

impl Level {
    /// The search limits of this level.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: Some(self.nodes),
            movetime: Some(Duration::from_millis(self.time_ms)),
            skill: (self.chance_percent > 0).then_some(Skill {
                margin_cp: self.margin_cp,
                chance_percent: self.chance_percent,
            }),
            contempt: Some(LEVEL_CONTEMPT),
            ..Limits::default()
        }
    }
}

/// The table of the games without one of their own, should the shipped file ever not parse
/// (a test keeps it parsing): (depth, nodes, time cap in ms, margin in cp, chance in %).
const FALLBACK: [(Option<u32>, u64, u64, u32, u32); 8] = [
    (Some(1), 1_000, 100, 200, 50),
    (Some(2), 3_000, 150, 120, 40),
    (Some(3), 8_000, 200, 80, 30),
    (Some(4), 20_000, 300, 60, 25),
    (Some(5), 50_000, 400, 40, 20),
    (Some(7), 150_000, 600, 25, 15),
    (Some(9), 400_000, 1_000, 15, 10),
    (None, 1_000_000, 2_000, 0, 0),
];

/// The levels of one file: the `default` table and each game's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelTables {
    /// The table of every game without one of its own.
    pub default: [Level; 8],
    /// The games with their own table, by variant id.
    pub games: Vec<(String, [Level; 8])>,
}

impl LevelTables {
    /// The table `variant` plays with: its own, else the default.
    pub fn table(&self, variant: &str) -> &[Level; 8] {
        self.games
            .iter()
            .find(|(id, _)| id == variant)
            .map_or(&self.default, |(_, t)| t)
    }
}

/// Reads a levels file; a bad line, a level given twice or a game missing one is refused with
/// one sentence naming the line or the level.
pub fn parse(text: &str) -> Result<LevelTables, String> {
    let mut got: Vec<(String, [Option<Level>; 8])> = Vec::new();
    for (n, line, words) in crate::data_file::lines(text) {
        let [game, level, depth, nodes, time, margin, chance] = words[..] else {
            return Err(format!(
                "line {n} of the levels is not 'game level depth nodes time margin chance': '{line}'"
            ));
        };
        let number = |what: &str, word: &str, lo: u64, hi: u64| {
            word.parse::<u64>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| {
                    format!("line {n} of the levels has '{word}' where {what} from {lo} to {hi} belongs")
                })
        };
        let level = number("a level", level, MIN_LEVEL.into(), MAX_LEVEL.into())? as usize;
        let depth = match depth {
            "-" => None,
            d => Some(number("a depth (or '-')", d, 1, 64)? as u32),
        };
        let entry = Level {
            depth,
            nodes: number("a node budget", nodes, 1, 1_000_000_000_000)?,
            time_ms: number("a time in milliseconds", time, 1, 86_400_000)?,
            margin_cp: number("a margin in centipawns", margin, 0, 10_000)? as u32,
            chance_percent: number("a chance in percent", chance, 0, 100)? as u32,
        };
        let i = match got.iter().position(|(id, _)| id == game) {
            Some(i) => i,
            None => {
                got.push((game.to_string(), [None; 8]));
                got.len() - 1
            }
        };
        if got[i].1[level - 1].replace(entry).is_some() {
            return Err(format!(
                "line {n} of the levels gives {game}'s level {level} a second time"
            ));
        }
    }
    let mut default = None;
    let mut games = Vec::new();
    for (game, levels) in got {
        let mut table = [FALLBACK_LEVEL; 8];
        for (l, slot) in levels.iter().enumerate() {
            table[l] = slot.ok_or_else(|| {
                format!(
                    "the levels give {game} no level {} (a game's table has all eight)",
                    l + 1
                )
            })?;
        }
        if game == "default" {
            default = Some(table);
        } else {
            games.push((game, table));
        }
    }
    let default = default.ok_or("the levels have no 'default' table")?;
    Ok(LevelTables { default, games })
}

const FALLBACK_LEVEL: Level = Level {
    depth: Some(1),
    nodes: 1,
    time_ms: 1,
    margin_cp: 0,
    chance_percent: 0,
};

fn fallback() -> LevelTables {
    LevelTables {
        default: FALLBACK.map(|(depth, nodes, time_ms, margin_cp, chance_percent)| Level {
            depth,
            nodes,
            time_ms,
            margin_cp,
            chance_percent,
        }),
        games: Vec::new(),
    }
}

/// The tables the levels play with: `MENAGERIE_LEVELS`'s file when set (a file that does not
/// read or parse is reported once on standard error and the shipped tables are used), else
/// the shipped file.
pub fn current() -> &'static LevelTables {
    static TABLES: OnceLock<LevelTables> = OnceLock::new();
    TABLES.get_or_init(|| crate::data_file::load("MENAGERIE_LEVELS", SHIPPED, parse, fallback))
}

/// Every level's contempt for a draw, in centipawns ([`Limits::contempt`]): a level plays
/// people and weaker engines, against whom a draw by repetition from an even position is
/// worth less than playing on, so it steers clear of one unless it stands worse.
pub const LEVEL_CONTEMPT: i32 = 25;

/// Where each level stands on Stockfish 15.1's `UCI_Elo` scale in chess (Stockfish at 100 ms a
/// move), used to turn a UCI `UCI_Elo` into a level: each level's rating fitted to its 16-game
/// matches against Stockfish (docs/engine.md, "Levels on Stockfish's scale, measured again");
/// levels 5 and 6 came out inverted within their error and share their pooled value. Chess
/// plays the `default` table of `data/levels.txt`.
pub const LEVEL_ELO: [u32; 8] = [1260, 1390, 1590, 1600, 1830, 1830, 1970, 2200];

/// The search limits (with their [`Skill`]) of `level` in `variant` (its own table, else the
/// default), 1 (weakest) ..= 8 (strongest); any other level is refused with a sentence.
pub fn level_limits(variant: &str, level: u32) -> Result<Limits, String> {
    let Some(entry) = level
        .checked_sub(MIN_LEVEL)
        .and_then(|i| current().table(variant).get(i as usize))
    else {
        return Err(format!(
            "level {level} is not in {MIN_LEVEL}..={MAX_LEVEL} (1 is the weakest, 8 the strongest)"
        ));
    };
    Ok(entry.limits())
}

/// The level whose chess strength is nearest a Stockfish-scale `UCI_Elo`.
pub fn level_for_elo(elo: u32) -> u32 {
    let mut best = MIN_LEVEL;
    for (i, &e) in LEVEL_ELO.iter().enumerate() {
        if elo.abs_diff(e) < elo.abs_diff(LEVEL_ELO[(best - 1) as usize]) {
            best = i as u32 + 1;
        }
    }
    best
}

/// The level of a UCI `Skill Level` of 0..=20 (Stockfish's scale): 0 is level 1, 20 level 8.
pub fn level_for_skill(skill: u32) -> u32 {
    (MIN_LEVEL + skill.min(20) * (MAX_LEVEL - MIN_LEVEL) / 20).clamp(MIN_LEVEL, MAX_LEVEL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_levels_grow_stronger_in_every_table_and_others_are_refused() {
        let tables = parse(SHIPPED).unwrap();
        let ids: Vec<&str> = crate::registry().iter().map(|v| v.id).collect();
        let mut all = vec![("default", &tables.default)];
        for (game, table) in &tables.games {
            assert!(ids.contains(&game.as_str()), "{game} is not a variant");
            all.push((game, table));
        }
        for (game, table) in all {
            let limits: Vec<Limits> = table.iter().map(Level::limits).collect();
            for w in limits.windows(2) {
                // A level never searches less than the one below, and searches more or plays
                // its second best less often (which of the two makes it stronger, and by how
                // much, is measured: docs/engine.md, "Levels").
                assert!(
                    w[0].nodes <= w[1].nodes && w[0].movetime <= w[1].movetime,
                    "{game}"
                );
                assert!(w[1].depth.is_none() || w[0].depth <= w[1].depth, "{game}");
                let chance = |l: &Limits| l.skill.map_or(0, |s| s.chance_percent);
                let deeper = w[1].depth.is_none() || w[0].depth < w[1].depth;
                assert!(deeper || chance(&w[0]) > chance(&w[1]), "{game}");
            }
            assert!(limits.iter().all(|l| l.validate().is_ok()));
            assert_eq!(limits[7].skill, None, "{game}'s level 8 is the full engine");
        }
        assert_eq!(
            level_limits("vyrt", 9).unwrap_err(),
            "level 9 is not in 1..=8 (1 is the weakest, 8 the strongest)"
        );
        assert!(level_limits("chess", 0).is_err());
        // Chess plays the default table, whose levels LEVEL_ELO places.
        assert_eq!(
            level_limits("chess", 3).unwrap(),
            tables.default[2].limits()
        );
        assert_eq!(level_for_elo(0), 1);
        assert_eq!(level_for_elo(1410), 2);
        assert_eq!(level_for_elo(1500), 3);
        assert_eq!(level_for_elo(1660), 4);
        // Levels 5 and 6 share a value: the nearer is the weaker.
        assert_eq!(level_for_elo(1830), 5);
        assert_eq!(level_for_elo(2000), 7);
        assert_eq!(level_for_elo(3000), 8);
        assert_eq!(level_for_skill(0), 1);
        assert_eq!(level_for_skill(10), 4);
        assert_eq!(level_for_skill(20), 8);
    }

    /// A `default` table alone (the shipped file may give any game its own).
    fn defaults() -> String {
        (1..=8)
            .map(|l| format!("default {l} {l} {} 100 0 0\n", 1000 * l))
            .collect()
    }

    #[test]
    fn a_game_with_its_own_table_plays_it_and_the_others_the_default() {
        let mut text = defaults();
        for l in 1..=8 {
            text += &format!("vyrt {l} {l} {} 100 {} 0\n", 100 * l, 10 * l);
        }
        let t = parse(&text).unwrap();
        assert_eq!(
            t.table("vyrt")[2],
            Level {
                depth: Some(3),
                nodes: 300,
                time_ms: 100,
                margin_cp: 30,
                chance_percent: 0
            }
        );
        assert_eq!(t.table("vyrt")[2].limits().skill, None);
        assert_eq!(t.table("cypher"), &t.default);
        assert_eq!(t.table("nonesuch"), &t.default);
    }

    #[test]
    fn bad_files_are_refused_with_a_sentence() {
        let bad = |text: &str| parse(text).unwrap_err();
        assert_eq!(
            bad("default 1 1 1000 100 200"),
            "line 1 of the levels is not 'game level depth nodes time margin chance': 'default 1 1 1000 100 200'"
        );
        assert_eq!(
            bad("# a comment\ndefault 9 1 1000 100 200 50"),
            "line 2 of the levels has '9' where a level from 1 to 8 belongs"
        );
        assert_eq!(
            bad("default 1 x 1000 100 200 50"),
            "line 1 of the levels has 'x' where a depth (or '-') from 1 to 64 belongs"
        );
        assert_eq!(
            bad("default 1 1 1000 100 200 101"),
            "line 1 of the levels has '101' where a chance in percent from 0 to 100 belongs"
        );
        assert_eq!(
            bad("default 1 1 1000 0 200 50"),
            "line 1 of the levels has '0' where a time in milliseconds from 1 to 86400000 belongs"
        );
        assert_eq!(
            bad(&format!("{SHIPPED}default 2 2 3000 150 120 40\n")),
            format!(
                "line {} of the levels gives default's level 2 a second time",
                SHIPPED.lines().count() + 1
            )
        );
        assert_eq!(
            bad(&format!("{}vyrt 1 1 1000 100 200 50\n", defaults())),
            "the levels give vyrt no level 2 (a game's table has all eight)"
        );
        assert_eq!(
            bad("vyrt 1 1 1000 100 200 50"),
            "the levels give vyrt no level 2 (a game's table has all eight)"
        );
        let only_vyrt: String = (1..=8)
            .map(|l| format!("vyrt {l} {l} 1000 100 0 0\n"))
            .collect();
        assert_eq!(bad(&only_vyrt), "the levels have no 'default' table");
    }
}
