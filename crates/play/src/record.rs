//! Game records in a PGN-like form: tags (`Variant`, `FEN` when not the start, `Result`,
//! `Termination`, ...) then movetext: each turn in human notation where that text is one
//! word and reads back as the same turn, else in the game's canonical text. Every record
//! written here loads back to the same game.

use menagerie_core::{fmt_points, Color, Outcome, Points, RuleOptions, Termination};
use menagerie_variants::{AnyGame, Variant, VariantError};

/// A record as read from a file: its tags and its move tokens with their line numbers.
#[derive(Debug, Default)]
pub struct Record {
    /// `(name, value)` in file order.
    pub tags: Vec<(String, String)>,
    /// Each move as written, with the line it is on (1-based).
    pub moves: Vec<(String, usize)>,
}

impl Record {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The points of each side for a finished game: the game's own table, else 1, ½ or 0.
pub fn points(o: &Outcome) -> (f32, f32) {
    match o.points {
        Some(p) => (p.white, p.black),
        None => (o.score(Color::White), o.score(Color::Black)),
    }
}

/// Writes the record of `game`, ended by `outcome` (unfinished when `None`).
pub fn write(
    game: &dyn AnyGame,
    variant_start: &str,
    extra_tags: &[(&str, String)],
    outcome: Option<&Outcome>,
) -> String {
    let mut out = String::new();
    let result = outcome.map_or("*", |o| o.result());
    out.push_str(&format!("[Variant \"{}\"]\n", game.variant()));
    let start = game.start_fen();
    if start != variant_start {
        out.push_str(&format!("[FEN \"{start}\"]\n"));
    }
    for (k, v) in extra_tags {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    if let Some(o) = outcome {
        out.push_str(&format!("[Termination \"{}\"]\n", o.termination.code()));
        if let Some(p) = o.points {
            out.push_str(&format!(
                "[Points \"White {}, Black {}\"]\n",
                fmt_points(f64::from(p.white)),
                fmt_points(f64::from(p.black))
            ));
        }
    }
    out.push('\n');
    let black_first = start.split_whitespace().nth(1) == Some("b");
    let mut words = Vec::new();
    for (i, text) in movetext(game).into_iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            words.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", ply / 2 + 1));
        }
        words.push(text);
    }
    words.push(result.to_string());
    // Lines of at most 80 characters, as PGN readers expect.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Whether `text` survives the movetext reader as one move: one word that is not a result,
/// a move number, a comment or a tag.
fn one_word(text: &str) -> bool {
    let move_number = text.contains('.') && text.starts_with(|c: char| c.is_ascii_digit());
    let special = |c: char| c.is_whitespace() || "{}[]\"".contains(c);
    let result = matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*");
    !(text.is_empty() || text.contains(special) || result || move_number)
}

/// The text of each turn of `game` as a record writes it: the human text where it is one
/// word and reads back as the same turn from the position before it, else the canonical.
pub fn movetext(game: &dyn AnyGame) -> Vec<String> {
    let mut replay = game.fork();
    while replay.pop().is_some() {}
    let mut out = Vec::new();
    for (canonical, human) in game.history() {
        let readable = one_word(&human)
            && match replay.push(&human) {
                Ok((c, _)) if c == canonical => true,
                Ok(_) => {
                    replay.pop();
                    false
                }
                Err(_) => false,
            };
        if readable {
            out.push(human);
        } else {
            // The game's own text always reads back; the history came from it.
            let _ = replay.push(&canonical);
            out.push(canonical);
        }
    }
    out
}

/// The largest record read, in bytes.
pub const MAX_RECORD_BYTES: usize = 4 << 20;
/// The most moves a record may hold.
pub const MAX_RECORD_MOVES: usize = 20_000;

/// Reads a record; `name` is the file name used in error messages.
pub fn parse(text: &str, name: &str) -> Result<Record, VariantError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(VariantError::Other(format!(
            "{name} is too long for a game record ({} bytes; at most {MAX_RECORD_BYTES})",
            text.len()
        )));
    }
    let mut rec = Record::default();
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim();
        if !in_comment && line.starts_with('[') {
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .and_then(|l| l.split_once(' '))
                .and_then(|(k, v)| {
                    v.trim()
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .map(|v| (k.to_string(), v.to_string()))
                });
            match inner {
                Some(tag) => rec.tags.push(tag),
                None => {
                    return Err(VariantError::Other(format!(
                        "{name} line {lineno}: a tag must look like [Name \"value\"]"
                    )))
                }
            }
            continue;
        }
        for tok in line.split_whitespace() {
            if in_comment {
                in_comment = !tok.ends_with('}');
                continue;
            }
            if tok.starts_with('{') {
                in_comment = !tok.ends_with('}');
                continue;
            }
            if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*") {
                continue;
            }
            // Move numbers, possibly glued to the move: `12.`, `12...`, `12.e4`.
            let tok = if tok.contains('.') && tok.starts_with(|c: char| c.is_ascii_digit()) {
                tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
            } else {
                tok
            };
            if tok.is_empty() {
                continue;
            }
            if rec.moves.len() == MAX_RECORD_MOVES {
                return Err(VariantError::Other(format!(
                    "{name} line {lineno}: a record holds at most {MAX_RECORD_MOVES} moves"
                )));
            }
            rec.moves.push((tok.to_string(), lineno));
        }
    }
    if rec.tags.is_empty() && rec.moves.is_empty() {
        return Err(VariantError::Other(format!(
            "{name} holds no game record (no tags and no moves)"
        )));
    }
    Ok(rec)
}

/// The outcome a record states in its `Result` and `Termination` tags, for endings the
/// position cannot show (resignation, agreement, adjudication).
pub fn stated_outcome(rec: &Record) -> Option<Outcome> {
    let winner = match rec.tag("Result")? {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        "1/2-1/2" => None,
        _ => return None,
    };
    let termination = match rec.tag("Termination").unwrap_or("") {
        "resignation" => Termination::Resignation,
        "agreement" => Termination::Agreement,
        "forfeit" => Termination::Forfeit,
        "checkmate" => Termination::Checkmate,
        "stalemate" => Termination::Stalemate,
        "repetition" => Termination::Repetition,
        "fifty-moves" => Termination::FiftyMoves,
        "dead-position" => Termination::DeadPosition,
        "" => Termination::rule("result-as-recorded", "result as recorded"),
        other => Termination::from_code(other, other),
    };
    Some(Outcome {
        winner,
        termination,
        points: rec.tag("Points").and_then(read_points),
    })
}

/// Reads a `Points` tag as the writer writes it: `White 0, Black 4`.
fn read_points(text: &str) -> Option<Points> {
    let (white, black) = text.split_once(',')?;
    let white = white.trim().strip_prefix("White")?.trim().parse().ok()?;
    let black = black.trim().strip_prefix("Black")?.trim().parse().ok()?;
    Some(Points { white, black })
}

/// Replays the moves of `rec` on `game`, naming the line and move of the first bad one.
pub fn replay(game: &mut dyn AnyGame, rec: &Record, name: &str) -> Result<(), VariantError> {
    for (i, (mv, line)) in rec.moves.iter().enumerate() {
        if let Err(e) = game.push(mv) {
            return Err(VariantError::Other(format!(
                "{name} line {line}: move {} '{mv}' cannot be played: {e}",
                i + 1
            )));
        }
    }
    Ok(())
}

/// A game read from a record: the game replayed, the outcome the record states for
/// endings the position cannot show, and the rules it was played with.
pub struct Loaded {
    /// The game after the record's moves.
    pub game: Box<dyn AnyGame>,
    /// The outcome stated by the `Result` and `Termination` tags when the moves do not end
    /// the game themselves (resignation, agreement, adjudication).
    pub stated: Option<Outcome>,
    /// The rule options: the record's `Rules` tag, else `rules`.
    pub rules: Vec<String>,
    /// How many moves were read.
    pub moves: usize,
}

/// Loads the record `text` (from the file `name`) as a game of `variant`, with `rules`
/// unless the record names its own; every error names the file.
pub fn load(
    text: &str,
    name: &str,
    variant: &Variant,
    rules: &[String],
) -> Result<Loaded, VariantError> {
    let rec = parse(text, name)?;
    if let Some(v) = rec.tag("Variant") {
        if !v.eq_ignore_ascii_case(variant.id) {
            return Err(VariantError::Other(format!(
                "{name} records a game of {v}, not {}",
                variant.id
            )));
        }
    }
    let rules: Vec<String> = match rec.tag("Rules") {
        Some(r) => r.split_whitespace().map(str::to_string).collect(),
        None => rules.to_vec(),
    };
    let options = RuleOptions::parse(&rules)
        .map_err(|e| VariantError::Other(format!("{name}: the Rules tag: {e}")))?;
    let mut game = variant
        .open(rec.tag("FEN"), &options)
        .map_err(|e| match rec.tag("FEN") {
            Some(_) => VariantError::Other(format!("{name}: the FEN tag: {e}")),
            None => e,
        })?;
    replay(game.as_mut(), &rec, name)?;
    let stated = if game.outcome().is_none() {
        stated_outcome(&rec)
    } else {
        None
    };
    Ok(Loaded {
        game,
        stated,
        rules,
        moves: rec.moves.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::RuleOptions;

    #[test]
    fn points_are_recorded_where_the_game_defines_them() {
        let chess = menagerie_variants::find("chess").expect("chess");
        let g = chess.open(None, &RuleOptions::new()).expect("the start");
        let o = Outcome::win(
            Color::White,
            Termination::rule("challenge", "challenge: mate"),
        )
        .with_points(2.0, 0.5);
        let text = write(g.as_ref(), chess.start_fen, &[], Some(&o));
        assert_eq!(
            text,
            "[Variant \"chess\"]\n[Result \"1-0\"]\n[Termination \"challenge\"]\n\
[Points \"White 2, Black 0.5\"]\n\n1-0\n"
        );
    }
}
