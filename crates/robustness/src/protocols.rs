//! The UCI and XBoard loops in-process: a session over a byte slice, its output to a buffer,
//! every search within [`Bounds::small`], so that an input cannot make a run take long.

pub use menagerie_cli::session::Bounds;
use menagerie_cli::session::Out;
use menagerie_cli::{uci_server, xboard};
use menagerie_core::RuleOptions;
use menagerie_play::lines::{self, Line};
use menagerie_variants::{registry, Variant};
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

/// A writer into a shared buffer (what a session wrote, read after it ends).
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// The command lines a session reads, as the loop reads them, up to the first `quit`.
fn commands(input: &[u8]) -> Vec<Vec<String>> {
    let mut cursor = Cursor::new(input);
    let mut all = Vec::new();
    while let Ok(line) = lines::next_line(&mut cursor) {
        match line {
            Line::Text(t) => {
                let words: Vec<String> = t.split_whitespace().map(str::to_string).collect();
                if words.first().is_some_and(|w| w == "quit") {
                    break;
                }
                all.push(words);
            }
            Line::NotText | Line::TooLong => {}
            Line::End => break,
        }
    }
    all
}

/// The variant byte 0 of an input chooses.
fn variant_of(data: &[u8]) -> Option<(Variant, &[u8])> {
    let (&which, rest) = data.split_first()?;
    let all = registry();
    let v = all.get(usize::from(which) % all.len())?.clone();
    Some((v, rest))
}

/// A UCI session of `variant` over `input` within `bounds`: whether nothing it started still
/// ran at its end, and what it wrote.
pub fn uci_output(variant: &Variant, input: &[u8], bounds: Bounds) -> (bool, String) {
    let buf = Buffer::default();
    let clean = uci_server::session(
        variant.clone(),
        RuleOptions::new(),
        Cursor::new(input.to_vec()),
        Out::new(buf.clone()),
        bounds,
    )
    .unwrap_or_else(|e| panic!("{}: the session did not start: {e}", variant.id));
    (clean, buf.text())
}

/// An XBoard session of `variant` over `input` within `bounds`: what it wrote.
pub fn xboard_output(variant: &Variant, input: &[u8], bounds: Bounds) -> String {
    let buf = Buffer::default();
    xboard::session(
        variant.clone(),
        RuleOptions::new(),
        Cursor::new(input.to_vec()),
        Out::new(buf.clone()),
        bounds,
    )
    .unwrap_or_else(|e| panic!("{}: the session did not start: {e}", variant.id));
    buf.text()
}

/// Runs a UCI session; returns its output. Panics when a search or perft still runs after
/// the session's end, or when a `go` is not answered by exactly one `bestmove`.
pub fn uci_session(data: &[u8]) -> String {
    let Some((variant, input)) = variant_of(data) else {
        return String::new();
    };
    let (clean, text) = uci_output(&variant, input, Bounds::small());
    assert!(
        clean,
        "{}: a search or perft still ran 5 s after it was stopped\ninput: {:?}\noutput:\n{text}",
        variant.id,
        String::from_utf8_lossy(input)
    );
    let searches = commands(input)
        .iter()
        .filter(|w| w.first().is_some_and(|c| c == "go") && w.get(1).is_none_or(|a| a != "perft"))
        .count();
    let answers = text.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(
        answers,
        searches,
        "{}: {searches} searches, {answers} bestmove lines\ninput: {:?}\noutput:\n{text}",
        variant.id,
        String::from_utf8_lossy(input)
    );
    text
}

/// Runs an XBoard session; returns its output. Panics when a `ping` read before `quit` is
/// not answered by a `pong`.
pub fn xboard_session(data: &[u8]) -> String {
    let Some((variant, input)) = variant_of(data) else {
        return String::new();
    };
    let text = xboard_output(&variant, input, Bounds::small());
    let pings = commands(input)
        .iter()
        .filter(|w| w.first().is_some_and(|c| c == "ping"))
        .count();
    let pongs = text.lines().filter(|l| l.starts_with("pong")).count();
    assert_eq!(
        pongs,
        pings,
        "{}: {pings} pings, {pongs} pongs\ninput: {:?}\noutput:\n{text}",
        variant.id,
        String::from_utf8_lossy(input)
    );
    text
}
