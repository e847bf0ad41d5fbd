//! Where a protocol session writes, and how far the searches it starts may go: standard
//! output and the engine's own limits for `menagerie uci`/`xboard`; a sink and small bounds
//! for tests and fuzz targets, so no input can make a session run long.

use menagerie_variants::Limits;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The output of a session, shared by its loop and its search threads (one line at a time).
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Standard output.
    pub fn stdout() -> Out {
        Out::new(std::io::stdout())
    }

    /// Any writer (a `Vec<u8>` behind a shared handle, `std::io::sink()`).
    pub fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes it; a write error (a closed pipe) is ignored.
    pub fn say(&self, line: &str) {
        // A thread that panicked while writing leaves the writer usable.
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Bounds on what a session runs, on top of the protocol's own rules.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// The deepest search (`None`: the protocol's own limits only).
    pub depth: Option<u32>,
    /// The largest node budget of a search.
    pub nodes: Option<u64>,
    /// The longest time of a search.
    pub movetime: Option<Duration>,
    /// The deepest `go perft`.
    pub perft_depth: u32,
    /// How long a UCI command arriving during a limited search waits for it to end.
    pub stray_patience: Duration,
    /// How long the end of a session waits for a stopped search or perft.
    pub quit_patience: Duration,
}

impl Bounds {
    /// The bounds of `menagerie uci` and `menagerie xboard`: the protocol's own.
    pub fn protocol() -> Bounds {
        Bounds {
            depth: None,
            nodes: None,
            movetime: None,
            perft_depth: menagerie_play::perft::MAX_DEPTH,
            stray_patience: Duration::from_secs(5),
            quit_patience: Duration::from_secs(2),
        }
    }

    /// Small bounds for tests and fuzz targets: every search stops within a few thousand
    /// nodes or 50 ms, perft within depth 2.
    pub fn small() -> Bounds {
        Bounds {
            depth: Some(3),
            nodes: Some(2_000),
            movetime: Some(Duration::from_millis(50)),
            perft_depth: 2,
            stray_patience: Duration::from_millis(200),
            quit_patience: Duration::from_secs(5),
        }
    }

    /// `limits` within these bounds (an unlimited search gets the bounds as its limits).
    pub fn cap(&self, limits: Limits) -> Limits {
        fn min<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        let mut l = limits;
        l.depth = min(l.depth, self.depth);
        l.nodes = min(l.nodes, self.nodes);
        l.movetime = min(l.movetime, self.movetime);
        l
    }
}
