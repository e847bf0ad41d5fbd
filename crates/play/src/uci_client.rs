//! A match player driving an external engine over UCI (Stockfish, Fairy-Stockfish, ...).
//! Moves go to it in the game's canonical text, which for chess is UCI's own notation.

use crate::limits::{self, Kind};
use crate::players::Player;
use menagerie_variants::{AnyGame, Limits, VariantError};
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
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.stdout.read_line(&mut line).map_err(|e| {
                VariantError::Other(format!("cannot read from the engine {}: {e}", self.path))
            })?;
            if n == 0 {
                return Err(VariantError::Other(format!(
                    "the engine {} stopped before answering '{prefix}'",
                    self.path
                )));
            }
            if line.trim_start().starts_with(prefix) {
                return Ok(line.trim().to_string());
            }
        }
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
        let line = self.wait_for("bestmove")?;
        match line.split_whitespace().nth(1) {
            Some(mv) if mv != "(none)" && mv != "0000" => Ok(mv.to_string()),
            _ => Err(VariantError::Other(format!(
                "the engine {} gave no move in {}",
                self.path,
                game.fen()
            ))),
        }
    }
    fn new_game(&mut self) {
        let _ = self.send("ucinewgame");
        let _ = self.send("isready");
        let _ = self.wait_for("readyok");
    }
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
