//! A match player driving an external engine over UCI (Stockfish, Fairy-Stockfish, ...).
//! Moves go to it in the game's canonical text, which for chess is UCI's own notation.

use crate::limits::{self, Kind};
use crate::players::{engine_claim, Player};
use menagerie_variants::{AnyGame, Limits, Score, VariantError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// A running UCI engine.
pub struct UciEngine {
    path: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    limits: Limits,
    /// The variant the engine was last told to play (`UCI_Variant`; UCI engines start with
    /// chess).
    variant: String,
    /// The score of its last search (the last `info ... score` before `bestmove`), from its
    /// own view: the match claims the fifty-round challenge (R38) for it on that score, as
    /// it does for this engine in-process (an arena adjudicates what UCI cannot say).
    last_score: Option<Score>,
}

impl UciEngine {
    /// Starts the engine at `path`, applies `options` (`elo`, `skill`, `hash`, `threads`,
    /// `depth`, `movetime`, `nodes`, or any UCI option by name) and waits until it is ready.
    pub fn start(
        path: &str,
        options: &[(String, String)],
        default: Limits,
    ) -> Result<UciEngine, VariantError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| VariantError::Other(format!("cannot start the engine {path}: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(VariantError::Other(format!(
                "cannot talk to the engine {path}"
            )));
        };
        let mut e = UciEngine {
            path: path.to_string(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            limits: default,
            variant: "chess".to_string(),
            last_score: None,
        };
        e.send("uci")?;
        e.wait_for("uciok")?;
        let mut own = Limits::default();
        for (k, v) in options {
            let num = |what: &str| -> Result<u64, VariantError> {
                v.parse().map_err(|_| {
                    VariantError::Other(format!("UCI option {what} needs a number, not '{v}'"))
                })
            };
            let limit = |kind| limits::parse(kind, v).map_err(VariantError::Other);
            match k.as_str() {
                "elo" => {
                    e.send("setoption name UCI_LimitStrength value true")?;
                    e.send(&format!("setoption name UCI_Elo value {}", num("elo")?))?;
                }
                "skill" => e.send(&format!(
                    "setoption name Skill Level value {}",
                    num("skill")?
                ))?,
                "hash" => e.send(&format!("setoption name Hash value {}", num("hash")?))?,
                "threads" => {
                    e.send(&format!("setoption name Threads value {}", num("threads")?))?
                }
                "depth" => own.depth = Some(limit(Kind::Depth)? as u32),
                "nodes" => own.nodes = Some(limit(Kind::Nodes)?),
                "movetime" => own.movetime = Some(Duration::from_millis(limit(Kind::Movetime)?)),
                "UCI_Variant" => {
                    e.send(&format!("setoption name UCI_Variant value {v}"))?;
                    e.variant = v.clone();
                }
                name => e.send(&format!("setoption name {name} value {v}"))?,
            }
        }
        if own != Limits::default() {
            e.limits = own;
        }
        e.send("isready")?;
        e.wait_for("readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), VariantError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| VariantError::Other(format!("the engine {} stopped: {e}", self.path)))
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> Result<String, VariantError> {
        loop {
            let line = self.next_line(prefix)?;
            if line.starts_with(prefix) {
                return Ok(line);
            }
        }
    }

    /// The next line from the engine, trimmed; `awaiting` names what it was asked for.
    fn next_line(&mut self, awaiting: &str) -> Result<String, VariantError> {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).map_err(|e| {
            VariantError::Other(format!("cannot read from the engine {}: {e}", self.path))
        })?;
        if n == 0 {
            return Err(VariantError::Other(format!(
                "the engine {} stopped before answering '{awaiting}'",
                self.path
            )));
        }
        Ok(line.trim().to_string())
    }
}

impl Player for UciEngine {
    fn choose(&mut self, game: &mut dyn AnyGame) -> Result<String, VariantError> {
        // An engine of several variants (this one, Fairy-Stockfish) is told the game first.
        let variant = game.variant();
        if variant != self.variant {
            self.send(&format!("setoption name UCI_Variant value {variant}"))?;
            self.send("isready")?;
            self.wait_for("readyok")?;
            self.variant = variant.to_string();
        }
        let moves = game.history_canonical();
        let mut pos = format!("position fen {}", game.start_fen());
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        self.send(&pos)?;
        let l = self.limits;
        let go = if let Some(ms) = l.movetime {
            format!("go movetime {}", ms.as_millis())
        } else if let Some(d) = l.depth {
            format!("go depth {d}")
        } else if let Some(n) = l.nodes {
            format!("go nodes {n}")
        } else {
            "go movetime 1000".to_string()
        };
        self.send(&go)?;
        self.last_score = None;
        let line = loop {
            let line = self.next_line("bestmove")?;
            if line.starts_with("bestmove") {
                break line;
            }
            if let Some(score) = info_score(&line) {
                self.last_score = Some(score);
            }
        };
        match line.split_whitespace().nth(1) {
            Some(mv) if mv != "(none)" && mv != "0000" => Ok(mv.to_string()),
            _ => Err(VariantError::Other(format!(
                "the engine {} gave no move in {}",
                self.path,
                game.fen()
            ))),
        }
    }
    fn claim(&mut self, game: &dyn AnyGame) -> Option<String> {
        engine_claim(game, self.last_score.take())
    }
    fn new_game(&mut self) {
        self.last_score = None;
        let _ = self.send("ucinewgame");
        let _ = self.send("isready");
        let _ = self.wait_for("readyok");
    }
}

/// The score of a UCI `info` line (`score cp N` or `score mate N`, moves to mate, negative
/// when the engine is mated), from the engine's view; none when the line has no score.
fn info_score(line: &str) -> Option<Score> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(w) = words.next() {
        // The rest of an `info string` is free text.
        if w == "string" {
            return None;
        }
        if w == "score" {
            let kind = words.next()?;
            let n: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(Score::Cp(n)),
                "mate" if n > 0 => Some(Score::WinIn(2 * n.unsigned_abs() - 1)),
                "mate" => Some(Score::LossIn(2 * n.unsigned_abs())),
                _ => None,
            };
        }
    }
    None
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to exit cleanly, then make sure it is gone.
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_the_engine_s_score() {
        let line = "info depth 7 seldepth 9 score cp -31 lowerbound nodes 5000 pv e2e4";
        assert_eq!(info_score(line), Some(Score::Cp(-31)));
        assert_eq!(
            info_score("info depth 3 score mate 2 pv a1a2"),
            Some(Score::WinIn(3))
        );
        assert_eq!(
            info_score("info depth 3 score mate -1"),
            Some(Score::LossIn(2))
        );
        assert_eq!(
            info_score("info depth 3 score mate 0"),
            Some(Score::LossIn(0))
        );
        assert_eq!(info_score("info string score cp 12"), None);
        assert_eq!(info_score("info depth 3 nodes 10"), None);
        assert_eq!(info_score("info depth 3 score cp x"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
    }
}
