//! The one rule for search limits: every front end (`bestmove`, `analyse`, `play`, `match`,
//! `engine:movetime=...`, UCI, XBoard) reads and checks depth, nodes and time here.
//!
//! The ranges are the engine's own ([`menagerie_engine::MIN_DEPTH`] and the rest).

use menagerie_engine::{
    MAX_DEPTH, MAX_MOVETIME_MS, MAX_NODES, MIN_DEPTH, MIN_MOVETIME_MS, MIN_NODES,
};
use menagerie_variants::Limits;
use std::ops::RangeInclusive;
use std::time::Duration;

/// Search depth in plies.
pub const DEPTH: RangeInclusive<u64> = MIN_DEPTH as u64..=MAX_DEPTH as u64;
/// Time per move in milliseconds (up to a day).
pub const MOVETIME_MS: RangeInclusive<u64> = MIN_MOVETIME_MS..=MAX_MOVETIME_MS;
/// Node budget per search.
pub const NODES: RangeInclusive<u64> = MIN_NODES..=MAX_NODES;

/// Which limit a number is for, with its range and how it is named in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Plies.
    Depth,
    /// Milliseconds.
    Movetime,
    /// Nodes.
    Nodes,
}

impl Kind {
    /// The allowed range.
    pub fn range(self) -> RangeInclusive<u64> {
        match self {
            Kind::Depth => DEPTH,
            Kind::Movetime => MOVETIME_MS,
            Kind::Nodes => NODES,
        }
    }
    fn what(self) -> &'static str {
        match self {
            Kind::Depth => "the depth (plies)",
            Kind::Movetime => "the time per move (milliseconds)",
            Kind::Nodes => "the node budget",
        }
    }
}

/// Why a limit was refused, in the engine's one sentence naming the real range.
pub fn out_of_range(kind: Kind, value: &str) -> String {
    let checked = value.parse::<u64>().ok().map(|n| match kind {
        Kind::Depth => Limits::checked_depth(n).err(),
        Kind::Movetime => Limits::checked_movetime(n).err(),
        Kind::Nodes => Limits::checked_nodes(n).err(),
    });
    match checked {
        Some(Some(e)) => e.to_string(),
        // In range, or too large for any whole number the engine reads: the same words.
        _ => {
            let r = kind.range();
            match kind {
                Kind::Depth => format!("depth {value} is not in {}..={} plies", r.start(), r.end()),
                Kind::Movetime => format!(
                    "movetime {value} is not in {}..={} milliseconds (24 hours)",
                    r.start(),
                    r.end()
                ),
                Kind::Nodes => format!("nodes {value} is not in {}..={}", r.start(), r.end()),
            }
        }
    }
}

/// Reads a limit from text and checks it against its range.
pub fn parse(kind: Kind, text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{} needs a whole number, not '{text}'",
            kind.what()
        ));
    }
    match t.parse::<u64>() {
        Ok(n) if kind.range().contains(&n) => Ok(n),
        _ => Err(out_of_range(kind, t)),
    }
}

/// A depth from text (for clap's `value_parser`).
pub fn parse_depth(text: &str) -> Result<u32, String> {
    parse(Kind::Depth, text).map(|d| d as u32)
}

/// A time per move in milliseconds from text (for clap's `value_parser`).
pub fn parse_movetime(text: &str) -> Result<u64, String> {
    parse(Kind::Movetime, text)
}

/// A node budget from text (for clap's `value_parser`).
pub fn parse_nodes(text: &str) -> Result<u64, String> {
    parse(Kind::Nodes, text)
}

/// Checks every limit that is set.
pub fn check(l: &Limits) -> Result<(), String> {
    l.validate().map_err(|e| e.to_string())
}

/// A number brought into `kind`'s range (for protocols, which must answer every `go`).
pub fn clamp(kind: Kind, n: u64) -> u64 {
    let r = kind.range();
    n.clamp(*r.start(), *r.end())
}

/// A time per move brought into range.
pub fn clamp_movetime(t: Duration) -> Duration {
    let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
    Duration::from_millis(clamp(Kind::Movetime, ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_name_their_real_range() {
        assert_eq!(parse_depth("12"), Ok(12));
        assert_eq!(
            parse_depth("99999999999"),
            Err("depth 99999999999 is not in 1..=64 plies".into())
        );
        assert_eq!(
            parse_movetime("0"),
            Err("movetime 0 is not in 1..=86400000 milliseconds (24 hours)".into())
        );
        assert_eq!(
            parse_movetime("99999999999999999999999"),
            Err(
                "movetime 99999999999999999999999 is not in 1..=86400000 milliseconds (24 hours)"
                    .into()
            )
        );
        assert!(parse_nodes("18446744073709551615").is_err());
        assert_eq!(
            parse_nodes("x"),
            Err("the node budget needs a whole number, not 'x'".into())
        );
        assert!(check(&Limits::movetime(0)).is_err());
        assert!(check(&Limits::depth(65)).is_err());
        assert!(check(&Limits::nodes(5000)).is_ok());
        assert_eq!(clamp(Kind::Depth, 0), 1);
        assert_eq!(
            clamp_movetime(Duration::from_secs(u64::MAX)),
            Duration::from_millis(86_400_000)
        );
    }
}
