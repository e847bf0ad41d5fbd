//! UCI and XBoard sessions of random command lines, driven through the `menagerie` binary
//! (the process as a GUI starts it: its exit, its signals; the loops themselves are also
//! fuzzed in-process by the `uci` and `xboard` targets). Each session must end by itself at end of input, within its time, without a
//! panic or a signal. Skipped, with a line on stderr, when the binary is not built (it is
//! under `cargo test --workspace`). They take minutes, so they are `#[ignore]`d and CI runs them
//! with `--ignored`. Random sessions with huge clock values found the overflows of issue 15
//! in `go_limits` (UCI) and `level`/`st`/`time` (XBoard), since fixed on main.

use menagerie_robustness::mutate::{run_seed, Rng};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?;
    let bin = dir.join(format!("menagerie{}", std::env::consts::EXE_SUFFIX));
    bin.exists().then_some(bin)
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "30",
    "100",
    "1000",
    "-1",
    "4294967295",
    "18446744073709551615",
    "99999999999999999999",
    "1e30",
    "x",
    "",
];

fn number(rng: &mut Rng) -> &'static str {
    NUMBERS[rng.below(NUMBERS.len())]
}

fn uci_line(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => "uci".into(),
        1 => "isready".into(),
        2 => "ucinewgame".into(),
        3 => "position startpos moves e2e4 e7e5 g1f3".into(),
        4 => "position fen 4k3/8/8/8/8/2B5/8/1NB1K3 w - - 0 1 moves c1d2".into(),
        5 => format!("position fen {} {}", "8/8/8/8/8/8/8/8 w", number(rng)),
        6 => format!("go depth {}", ["1", "2", "0", "-1", "x"][rng.below(5)]),
        7 => format!("go nodes {}", ["1", "100", "2000", "0"][rng.below(4)]),
        8 => format!(
            "go wtime {} btime {} winc {} binc {}",
            number(rng),
            number(rng),
            number(rng),
            number(rng)
        ),
        9 => "stop".into(),
        10 => format!("go perft {}", ["0", "1", "2", "x"][rng.below(4)]),
        _ => [
            "setoption name Hash value 1",
            "position",
            "go",
            "\u{0}\u{7f}",
            "position fen",
        ][rng.below(5)]
        .into(),
    }
}

fn xboard_line(rng: &mut Rng) -> String {
    match rng.below(14) {
        0 => "xboard".into(),
        1 => "protover 2".into(),
        2 => "new".into(),
        3 => [
            "variant chess",
            "variant vyrt",
            "variant cypher",
            "variant nope",
        ][rng.below(4)]
        .into(),
        4 => "force".into(),
        5 => ["e2e4", "e7e5", "g1f3", "zz", "usermove e2e4"][rng.below(5)].into(),
        6 => format!("sd {}", ["1", "2", "0", "x"][rng.below(4)]),
        7 => format!("st {}", number(rng)),
        8 => format!("level {} {} {}", number(rng), number(rng), number(rng)),
        9 => format!("time {}", number(rng)),
        10 => format!("ping {}", number(rng)),
        11 => "undo".into(),
        12 => "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1".into(),
        _ => [
            "remove",
            "post",
            "hard",
            "random",
            "?",
            "result 1-0 {x}",
            "edit",
            ".",
        ][rng.below(8)]
        .into(),
    }
}

/// Runs one session; the error says what went wrong.
fn session(bin: &PathBuf, mode: &str, input: &str, limit: Duration) -> Result<(), String> {
    let mut child = Command::new(bin)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut e, &mut err);
            }
            return if status.success() && !err.contains("panicked") {
                Ok(())
            } else {
                Err(format!("{status}: {err}"))
            };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("no exit within {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sessions(mode: &str, line: fn(&mut Rng) -> String, count: usize) {
    let Some(bin) = binary() else {
        eprintln!("{mode}: the menagerie binary is not built; skipped");
        return;
    };
    let seed = run_seed();
    eprintln!("{mode}: {count} sessions, seed {seed}");
    let mut rng = Rng::new(seed);
    for _ in 0..count {
        let n = 1 + rng.below(12);
        let input: String = (0..n).map(|_| line(&mut rng) + "\n").collect();
        if let Err(e) = session(&bin, mode, &input, Duration::from_secs(30)) {
            panic!("{mode} session (seed {seed}) failed: {e}\ninput:\n{input}");
        }
    }
}

#[test]
#[ignore = "slow (up to 30 s a session, about 4 minutes in all): CI runs it with --ignored"]
fn uci_sessions_end_cleanly() {
    sessions("uci", uci_line, 12);
}

#[test]
#[ignore = "slow (up to 30 s a session, about 4 minutes in all): CI runs it with --ignored"]
fn xboard_sessions_end_cleanly() {
    sessions("xboard", xboard_line, 12);
}
