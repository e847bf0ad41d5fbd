//! Search scores: centipawns, or a game-ending win or loss at a known distance.

use std::fmt;

/// The score of a win delivered at the root itself; a win `n` plies ahead scores
/// `WIN - n`, so shorter wins score higher.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are game-ending wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// Larger than any score, for search windows.
pub const INFINITY: i32 = WIN + 1;

/// A search score from the point of view of the side to move.
///
/// With the `serde` feature it reads and writes as `{"cp":N}` or `{"mate":N}`, where `N`
/// counts the side to move's own moves, positive when it mates and negative when it is
/// mated (as in UCI); a mate read back is the shortest number of plies it stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "ScoreJson", into = "ScoreJson")
)]
pub enum Score {
    /// An evaluation in centipawns (hundredths of a pawn).
    Cp(i32),
    /// The side to move wins in this many plies (counting both sides' moves).
    WinIn(u32),
    /// The side to move loses in this many plies.
    LossIn(u32),
}

/// The JSON form of a [`Score`].
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum ScoreJson {
    Cp(i32),
    Mate(i32),
}

#[cfg(feature = "serde")]
impl From<Score> for ScoreJson {
    fn from(s: Score) -> Self {
        match s {
            Score::Cp(cp) => ScoreJson::Cp(cp),
            Score::WinIn(p) => ScoreJson::Mate(p.div_ceil(2).min(i32::MAX as u32) as i32),
            Score::LossIn(p) => ScoreJson::Mate(-(p.div_ceil(2).min(i32::MAX as u32) as i32)),
        }
    }
}

#[cfg(feature = "serde")]
impl From<ScoreJson> for Score {
    fn from(s: ScoreJson) -> Self {
        match s {
            ScoreJson::Cp(cp) => Score::Cp(cp),
            ScoreJson::Mate(n) if n > 0 => Score::WinIn(2 * n.unsigned_abs() - 1),
            ScoreJson::Mate(n) => Score::LossIn(2 * n.unsigned_abs()),
        }
    }
}

impl Score {
    /// Classifies a raw search score.
    pub fn from_raw(raw: i32) -> Score {
        if raw > WIN_BOUND {
            Score::WinIn((WIN - raw) as u32)
        } else if raw < -WIN_BOUND {
            Score::LossIn((WIN + raw) as u32)
        } else {
            Score::Cp(raw)
        }
    }
    /// The raw search score this classifies (inverse of [`Score::from_raw`]).
    pub fn raw(&self) -> i32 {
        match *self {
            Score::Cp(cp) => cp,
            Score::WinIn(p) => WIN - p as i32,
            Score::LossIn(p) => -WIN + p as i32,
        }
    }
    /// The UCI form: `cp 34` or `mate 3` / `mate -2` (in moves of the side to move).
    pub fn uci(&self) -> String {
        match *self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::WinIn(plies) => format!("mate {}", plies.div_ceil(2)),
            Score::LossIn(plies) => format!("mate -{}", plies.div_ceil(2)),
        }
    }
    /// Whether the score is a forced win or loss.
    pub fn is_decisive(&self) -> bool {
        !matches!(self, Score::Cp(_))
    }
}

impl fmt::Display for Score {
    /// `+0.34`, `win in 3 plies (mate 2)`, `loss in 2 plies (mate -1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            Score::WinIn(p) => write!(f, "win in {} ({})", plies(p), self.uci()),
            Score::LossIn(p) => write!(f, "loss in {} ({})", plies(p), self.uci()),
        }
    }
}

fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_distances() {
        assert_eq!(Score::from_raw(WIN - 3), Score::WinIn(3));
        assert_eq!(Score::from_raw(-WIN + 2), Score::LossIn(2));
        assert_eq!(Score::WinIn(3).uci(), "mate 2");
        assert_eq!(Score::LossIn(2).uci(), "mate -1");
        assert_eq!(Score::Cp(-34).to_string(), "-0.34");
        assert_eq!(Score::Cp(150).to_string(), "+1.50");
        assert_eq!(Score::WinIn(1).to_string(), "win in 1 ply (mate 1)");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn scores_read_and_write_json_as_centipawns_or_mates() {
        let json = |s: Score| serde_json::to_string(&s).unwrap();
        assert_eq!(json(Score::Cp(-34)), r#"{"cp":-34}"#);
        assert_eq!(json(Score::WinIn(3)), r#"{"mate":2}"#);
        assert_eq!(json(Score::LossIn(2)), r#"{"mate":-1}"#);
        let back = |t: &str| serde_json::from_str::<Score>(t).unwrap();
        assert_eq!(back(r#"{"cp":12}"#), Score::Cp(12));
        assert_eq!(back(r#"{"mate":2}"#), Score::WinIn(3));
        assert_eq!(back(r#"{"mate":-1}"#), Score::LossIn(2));
        assert!(serde_json::from_str::<Score>(r#"{"pawns":1}"#).is_err());
    }
}
