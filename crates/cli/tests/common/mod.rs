//! Running the `menagerie` binary from the integration tests.
#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `menagerie args` with empty input.
pub fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `menagerie args` with `input` on stdin.
pub fn with_input(args: &[&str], input: &str) -> Output {
    with_input_in(None, args, input)
}

/// Runs `menagerie args` with `input` on stdin, in folder `dir` when given.
pub fn with_input_in(dir: Option<&std::path::Path>, args: &[&str], input: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_menagerie"));
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input.as_bytes())
        .expect("the program reads");
    child.wait_with_output().expect("the program ends")
}

/// Runs `menagerie args` on `input`, asserts it succeeded and returns stdout.
pub fn run_ok(args: &[&str], input: &str) -> String {
    let out = with_input(args, input);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// The standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
