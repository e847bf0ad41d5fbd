//! The frozen ladder's plumbing (issue 34, `scripts/ladder.sh`): the current engine plays
//! another build of itself, run as an external UCI engine, in every variant, with paired
//! openings and the sequential test.

mod common;
use common::stderr;
use std::path::PathBuf;
use std::process::{Command, Output};

const VARIANTS: [&str; 4] = ["vyrt", "cypher", "little-cheops", "little-cheops-imperial"];

/// A folder of this test run's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-ladder-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// A program without arguments that runs `binary uci` (what `match` starts as `uci:PATH`).
fn uci_wrapper(dir: &std::path::Path, binary: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("uci-engine");
    std::fs::write(&path, format!("#!/bin/sh\nexec \"{binary}\" uci \"$@\"\n"))
        .expect("the wrapper is written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("the wrapper is made executable");
    path.to_string_lossy().into_owned()
}

/// The summary's last line, `score <A's points>/<games>` (on stderr with `--json`, else on
/// stdout): the games played.
fn games_played(o: &Output) -> u32 {
    let err = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(o));
    let last = err.lines().rfind(|l| l.starts_with("score ")).unwrap_or("");
    last.strip_prefix("score ")
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.split_once('/'))
        .and_then(|(_, games)| games.parse().ok())
        .unwrap_or_else(|| panic!("no score line in:\n{err}"))
}

#[test]
fn the_engine_plays_a_uci_build_of_itself_in_every_variant() {
    let dir = scratch("self");
    let uci = uci_wrapper(&dir, env!("CARGO_BIN_EXE_menagerie"));
    for variant in VARIANTS {
        let o = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["match", variant, "--a", "engine", "--b"])
            .arg(format!("uci:{uci}"))
            .args(["--nodes", "300", "--games", "2", "--opening-plies", "4"])
            .args(["--sprt", "0,50", "--json", "--max-plies", "120"])
            .output()
            .expect("the binary runs");
        assert!(o.status.success(), "{variant}: {}", stderr(&o));
        assert_eq!(games_played(&o), 2, "{variant}");
        let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object a game"))
            .collect();
        assert_eq!(rows.len(), 2, "{variant}");
        // Paired: one opening, A White in the first game and Black in the second.
        assert_eq!(rows[0]["white"], "A", "{variant}");
        assert_eq!(rows[1]["white"], "B", "{variant}");
        // Neither side lost on a move the game refused: every game has an ending.
        for row in &rows {
            assert!(
                row["plies"].as_u64().is_some_and(|p| p > 0),
                "{variant}: {row}"
            );
            assert!(row["llr"].is_number(), "{variant}: {row}");
        }
    }
}

/// Builds commit 02c7a06 from git (minutes the first time, cached after) and plays two
/// games against it in Vyrt: run by name (`cargo test -p menagerie --test ladder --
/// --ignored`), where git or cargo missing fails.
#[test]
#[ignore = "builds the baseline commit from git: minutes; run by name"]
fn the_ladder_script_builds_the_baseline_and_plays_it() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/ladder.sh");
    let o = Command::new("bash")
        .arg(&script)
        .args([
            "vyrt",
            "--nodes",
            "300",
            "--games",
            "2",
            "--opening-plies",
            "4",
        ])
        .args(["--max-plies", "120"])
        .env("MENAGERIE", env!("CARGO_BIN_EXE_menagerie"))
        .env("LADDER_NICE", "0")
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(games_played(&o), 2);
    assert!(stderr(&o).contains("(B, commit 02c7a06)"), "{}", stderr(&o));
}
