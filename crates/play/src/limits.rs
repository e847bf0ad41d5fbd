//! The one rule for search limits: every front end (`bestmove`, `analyse`, `play`, `match`,
//! `engine:movetime=...`, UCI, XBoard) reads and checks depth, nodes and time here.
//!
//! The ranges are the engine's real ones; when the engine crate publishes its own range
//! constants, these become aliases of them.

use menagerie_variants::Limits;
use std::ops::RangeInclusive;
use std::time::Duration;

/// Search depth in plies.
pub const DEPTH: RangeInclusive<u64> = 1..=64;
/// Time per move in milliseconds (up to a day).
pub const MOVETIME_MS: RangeInclusive<u64> = 1..=86_400_000;
/// Node budget per search.
pub const NODES: RangeInclusive<u64> = 1..=1_000_000_000_000;

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

/// Why a limit was refused, in one sentence naming the real range.
pub fn out_of_range(kind: Kind, value: &str) -> String {
    let r = kind.range();
    format!(
        "{value} is out of range: {} must be from {} to {}",
        kind.what(),
        r.start(),
        r.end()
    )
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
    if let Some(d) = l.depth {
        if !DEPTH.contains(&u64::from(d)) {
            return Err(out_of_range(Kind::Depth, &d.to_string()));
        }
    }
    if let Some(n) = l.nodes {
        if !NODES.contains(&n) {
            return Err(out_of_range(Kind::Nodes, &n.to_string()));
        }
    }
    if let Some(t) = l.movetime {
        let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
        if !MOVETIME_MS.contains(&ms) {
            return Err(out_of_range(Kind::Movetime, &ms.to_string()));
        }
    }
    Ok(())
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
            Err("99999999999 is out of range: the depth (plies) must be from 1 to 64".into())
        );
        assert_eq!(
            parse_movetime("0"),
            Err(
                "0 is out of range: the time per move (milliseconds) must be from 1 to 86400000"
                    .into()
            )
        );
        assert!(parse_movetime("18446744073709551615").is_err());
        assert!(parse_movetime("99999999999999999999999").is_err());
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
