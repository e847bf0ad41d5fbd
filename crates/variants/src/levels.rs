//! Engine levels for people: eight steps from 1 (weakest) to 8 (strongest), each a search
//! with a limited depth and node budget and, below the top, a habit of now and then playing
//! the second-best move when it is nearly as good ([`Skill`]). Nothing random is blundered:
//! a weak level sees less and settles for a close second, as a weaker player does.

use menagerie_engine::{Limits, Skill};
use std::time::Duration;

/// The weakest level.
pub const MIN_LEVEL: u32 = 1;
/// The strongest level.
pub const MAX_LEVEL: u32 = 8;

/// (depth, nodes, time cap in ms, second-best margin in cp, second-best chance in %).
/// The time cap keeps the slow games (Little Cheops Imperial) quick at every level.
const TABLE: [(Option<u32>, u64, u64, u32, u32); 8] = [
    (Some(1), 1_000, 100, 200, 50),
    (Some(2), 3_000, 150, 120, 40),
    (Some(3), 8_000, 200, 80, 30),
    (Some(4), 20_000, 300, 60, 25),
    (Some(5), 50_000, 400, 40, 20),
    (Some(7), 150_000, 600, 25, 15),
    (Some(9), 400_000, 1_000, 15, 10),
    (None, 1_000_000, 2_000, 0, 0),
];

/// Every level's contempt for a draw, in centipawns ([`Limits::contempt`]): a level plays
/// people and weaker engines, against whom a draw by repetition from an even position is
/// worth less than playing on, so it steers clear of one unless it stands worse.
pub const LEVEL_CONTEMPT: i32 = 25;

/// Where each level stands on Stockfish 15.1's `UCI_Elo` scale in chess (Stockfish at 100 ms a
/// move), used to turn a UCI `UCI_Elo` into a level: each level's rating fitted to its 16-game
/// matches against Stockfish (docs/engine.md, "Levels on Stockfish's scale, measured again");
/// levels 5 and 6 came out inverted within their error and share their pooled value.
pub const LEVEL_ELO: [u32; 8] = [1260, 1390, 1590, 1600, 1830, 1830, 1970, 2200];

/// The search limits (with their [`Skill`]) of `level`, 1 (weakest) ..= 8 (strongest); any
/// other level is refused with a sentence.
pub fn level_limits(level: u32) -> Result<Limits, String> {
    let Some(&(depth, nodes, ms, margin_cp, chance_percent)) = level
        .checked_sub(MIN_LEVEL)
        .and_then(|i| TABLE.get(i as usize))
    else {
        return Err(format!(
            "level {level} is not in {MIN_LEVEL}..={MAX_LEVEL} (1 is the weakest, 8 the strongest)"
        ));
    };
    Ok(Limits {
        depth,
        nodes: Some(nodes),
        movetime: Some(Duration::from_millis(ms)),
        skill: (chance_percent > 0).then_some(Skill {
            margin_cp,
            chance_percent,
        }),
        contempt: Some(LEVEL_CONTEMPT),
        ..Limits::default()
    })
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
    fn eight_levels_grow_stronger_and_others_are_refused() {
        let all: Vec<Limits> = (1..=8).map(|l| level_limits(l).unwrap()).collect();
        for w in all.windows(2) {
            assert!(w[0].nodes < w[1].nodes && w[0].movetime < w[1].movetime);
            assert!(w[1].depth.is_none() || w[0].depth < w[1].depth);
            let chance = |l: &Limits| l.skill.map_or(0, |s| s.chance_percent);
            assert!(chance(&w[0]) > chance(&w[1]));
        }
        assert!(all.iter().all(|l| l.validate().is_ok()));
        assert_eq!(all[7].skill, None);
        assert_eq!(
            level_limits(9).unwrap_err(),
            "level 9 is not in 1..=8 (1 is the weakest, 8 the strongest)"
        );
        assert!(level_limits(0).is_err());
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
}
