//! Whole studies, tiny: shards merged equal one run with the same seed; the report's files.

use menagerie_lab::report;
use menagerie_lab::run::{self, GameData, StudyConfig};
use std::path::PathBuf;

fn tiny() -> StudyConfig {
    StudyConfig {
        variant: "chess".into(),
        rules: Vec::new(),
        vs_rules: None,
        games: 6,
        nodes: Some(200),
        movetime: None,
        seed: 7,
        openings: 2,
        max_plies: 24,
        pieces: None,
        vs_pieces: None,
        fen: None,
        vs_fen: None,
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("menagerie-lab-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn shards_merged_equal_one_run() {
    let config = tiny();
    let whole = run::run(&config, (1, 1), 2, &|_| {}).expect("the whole study");
    assert_eq!(whole.len(), 6);
    assert_eq!(
        whole.iter().map(|g| g.index).collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4, 5]
    );
    // Both games of a pair share the opening and the seed.
    assert_eq!(whole[0].opening, whole[1].opening);
    assert_eq!(whole[0].seed, whole[1].seed);
    assert_ne!(whole[0].seed, whole[2].seed);
    assert_eq!(whole[0].opening.len(), 2);
    assert!(whole
        .iter()
        .all(|g| g.plies <= 24 && g.material.len() == g.plies + 1 && g.mobility.len() == g.plies));

    let (d1, d2, merged) = (dir("s1"), dir("s2"), dir("merged"));
    let one = run::run(&config, (1, 2), 1, &|_| {}).expect("shard 1");
    let two = run::run(&config, (2, 2), 1, &|_| {}).expect("shard 2");
    assert_eq!(
        one.iter().map(|g| g.index).collect::<Vec<_>>(),
        vec![0, 1, 4, 5]
    );
    assert_eq!(two.iter().map(|g| g.index).collect::<Vec<_>>(), vec![2, 3]);
    report::write_all(&d1, &config, &one).expect("report 1");
    report::write_all(&d2, &config, &two).expect("report 2");
    let (_, only_one) = menagerie_lab::cli::read_shards(std::slice::from_ref(&d1)).expect("one");
    assert_eq!(
        menagerie_lab::cli::missing(&config, &only_one),
        vec![(0, 2), (0, 3)],
        "shard 2's games are missing"
    );
    // A shard given twice counts once.
    let rep =
        menagerie_lab::cli::merge(&[d1.clone(), d2.clone(), d1.clone()], &merged).expect("merge");
    assert_eq!(rep, report::report(&config, &whole));
    let text = std::fs::read_to_string(merged.join("games.jsonl")).expect("merged games");
    let (c, games) = report::read_jsonl(&text, "merged").expect("read back");
    assert_eq!(c, config);
    assert_eq!(games, whole);
    for f in [
        "index.html",
        "results.json",
        "games.csv",
        "games.pgn",
        "results.svg",
        "lengths.svg",
        "material.svg",
        "mobility.svg",
        "pieces.svg",
    ] {
        assert!(merged.join(f).is_file(), "{f}");
    }
    let html = std::fs::read_to_string(merged.join("index.html")).expect("page");
    assert!(html.contains("<svg") && !html.contains("<script"));
    let csv = std::fs::read_to_string(merged.join("games.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 7);
    // A shard of another study is refused.
    let other = StudyConfig {
        seed: 8,
        ..config.clone()
    };
    report::write_all(&d2, &other, &two).expect("report 2 again");
    let err = menagerie_lab::cli::merge(&[d1.clone(), d2.clone()], &merged).unwrap_err();
    assert!(err.contains("not the same study"), "{err}");
    for d in [d1, d2, merged] {
        let _ = std::fs::remove_dir_all(d);
    }
}

fn game(set: u8, index: u32, result: &str, termination: &str, plies: usize) -> GameData {
    let (w, b) = match result {
        "1-0" => (1.0, 0.0),
        "0-1" => (0.0, 1.0),
        _ => (0.5, 0.5),
    };
    GameData {
        set,
        index,
        seed: 0,
        opening: Vec::new(),
        result: result.into(),
        termination: termination.into(),
        white_points: w,
        black_points: b,
        plies,
        material: vec![0; plies + 1],
        mobility: vec![20; plies],
        samples: Vec::new(),
        record: String::new(),
        fallbacks: 0,
    }
}

#[test]
fn report_of_a_synthetic_study() {
    // A: 10 wins, 5 draws, 5 losses for White; B: 5 wins, 5 draws, 10 losses.
    let mut games = Vec::new();
    for i in 0..20u32 {
        let r = if i < 10 {
            "1-0"
        } else if i < 15 {
            "1/2-1/2"
        } else {
            "0-1"
        };
        let t = if !(10..15).contains(&i) {
            "checkmate"
        } else {
            "stalemate"
        };
        games.push(game(0, i, r, t, 40 + i as usize));
        let r = if i < 5 {
            "1-0"
        } else if i < 10 {
            "1/2-1/2"
        } else {
            "0-1"
        };
        games.push(game(1, i, r, "checkmate", 60 + i as usize));
    }
    games.sort_by_key(|g| (g.set, g.index));
    let config = StudyConfig {
        vs_rules: Some(vec!["x=y".into()]),
        games: 20,
        ..tiny()
    };
    let rep = report::report(&config, &games);
    let (a, b) = (&rep.sets[0], &rep.sets[1]);
    assert_eq!((a.white_wins, a.draws, a.black_wins), (10, 5, 5));
    let s = a.white_score.expect("score");
    assert!(
        (s.value - 0.625).abs() < 1e-12
            && (s.lo - 0.443_306).abs() < 1e-6
            && (s.hi - 0.806_694).abs() < 1e-6
    );
    assert!((a.white_elo.0.expect("elo") - 88.739_500).abs() < 1e-5);
    let d = a.draw_rate.expect("draws");
    assert!((d.lo - 0.111_862).abs() < 1e-6 && (d.hi - 0.468_701).abs() < 1e-6);
    assert_eq!(
        a.endings
            .iter()
            .map(|e| (e.code.as_str(), e.count, e.white_points))
            .collect::<Vec<_>>(),
        vec![("checkmate", 15, 10.0), ("stalemate", 5, 2.5)]
    );
    assert_eq!(a.plies_quartiles, Some((44.75, 49.5, 54.25)));
    assert_eq!(a.mobility_by_ply.first(), Some(&(0, 20.0, 20.0, 20.0)));
    let c = rep.comparison.as_ref().expect("comparison");
    let t = c.white_score.expect("score test");
    assert!((t.z - 1.581_139).abs() < 1e-6 && (t.p - 0.113_846).abs() < 1e-5);
    // Every A game is shorter than every B game: U = 0.
    let l = c.length.expect("length test");
    assert!(l.z < -5.0 && l.significant());
    assert_eq!(b.white_wins, 5);
    let plots = menagerie_lab::plots::all(&rep).expect("plots");
    assert_eq!(plots.len(), 5);
    assert!(plots.iter().all(|(_, svg)| svg.contains("<svg")));
}

#[test]
fn a_seed_and_a_node_limit_fix_the_games_and_the_bar_counts_each() {
    let config = StudyConfig { games: 4, ..tiny() };
    let calls = std::sync::Mutex::new(Vec::new());
    let tally = std::sync::Mutex::new(menagerie_lab::cli::Tally::default());
    let on_game = |g: &GameData| {
        if let (Ok(mut c), Ok(mut t)) = (calls.lock(), tally.lock()) {
            c.push(g.index);
            t.add(g);
        }
    };
    let first = run::run(&config, (1, 1), 1, &on_game).expect("first run");
    let again = run::run(&config, (1, 1), 2, &|_| {}).expect("second run");
    assert_eq!(
        first, again,
        "the same seed and node limit on other threads"
    );
    let mut seen = calls.into_inner().expect("calls");
    seen.sort_unstable();
    assert_eq!(seen, vec![0, 1, 2, 3], "the bar advances once a game");
    let count = |r: &str| first.iter().filter(|g| g.result == r).count();
    assert_eq!(
        tally.into_inner().expect("tally").message(1),
        format!(
            "White +{} ={} -{}",
            count("1-0"),
            count("1/2-1/2"),
            count("0-1")
        )
    );
    let other = run::run(&StudyConfig { seed: 8, ..config }, (1, 1), 1, &|_| {}).expect("seed 8");
    assert_ne!(
        first.iter().map(|g| &g.record).collect::<Vec<_>>(),
        other.iter().map(|g| &g.record).collect::<Vec<_>>()
    );
}

#[test]
fn progress_message_of_two_rule_sets() {
    let mut t = menagerie_lab::cli::Tally::default();
    for (set, r) in [(0, "1-0"), (0, "1-0"), (0, "1/2-1/2"), (1, "0-1")] {
        t.add(&game(set, 0, r, "checkmate", 10));
    }
    assert_eq!(t.message(2), "White A +2 =1 -0 B +0 =0 -1");
    assert_eq!(t.message(1), "White +2 =1 -0");
}

/// A player that proposes a move the game does not offer.
struct Stubborn;

impl menagerie_play::players::Player for Stubborn {
    fn choose(
        &mut self,
        _: &mut dyn menagerie_variants::AnyGame,
    ) -> Result<String, menagerie_variants::VariantError> {
        Ok("a1a1".into())
    }
}

#[test]
fn a_refused_engine_move_is_replaced_by_the_best_offered_one() {
    let chess = menagerie_variants::find("chess").expect("chess");
    let options = menagerie_core::RuleOptions::parse(&Vec::<String>::new()).expect("no options");
    // After 1. f3 e5 2. g4, Black mates at once.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
    let mut g = chess.open(Some(fen), &options).expect("position");
    let eval = chess.evaluation();
    let (mv, fell_back) = run::choose(&mut Stubborn, g.as_mut(), &eval).expect("a move");
    assert_eq!((mv.as_str(), fell_back), ("d8h4", true));
    assert_eq!(g.fen(), fen, "the position is left as it was");
    let mut engine = menagerie_play::players::EnginePlayer::new(menagerie_variants::Limits {
        depth: Some(2),
        nodes: None,
        movetime: None,
        ..menagerie_variants::Limits::default()
    });
    let (mv, fell_back) = run::choose(&mut engine, g.as_mut(), &eval).expect("a move");
    assert_eq!((mv.as_str(), fell_back), ("d8h4", false));
}

#[test]
fn piece_values_say_what_the_games_cannot_tell() {
    // Ten games: pawns differ in most; knights and bishops always differ together (their
    // values cannot be told apart); queens differ in two games only; kings never.
    let dp = [1, 2, -1, 0, 1, -2, 1, -1, 2, 0];
    let minor = [0, 1, 0, -1, 1, 0, 0, 1, -1, 0];
    let results = [
        "1-0", "1-0", "0-1", "0-1", "1-0", "0-1", "1/2-1/2", "1/2-1/2", "1/2-1/2", "1/2-1/2",
    ];
    let games: Vec<GameData> = (0..10)
        .map(|i| {
            let mut g = game(0, i as u32, results[i], "checkmate", 6);
            let counts = |p: i32, minor: i32, q: i32| {
                [('k', 0), ('p', p), ('n', minor), ('b', minor), ('q', q)]
                    .into_iter()
                    .collect::<std::collections::BTreeMap<char, i32>>()
            };
            let material = |p: i32, minor: i32, q: i32| 100 * p + 600 * minor + 900 * q;
            let q = i32::from(i < 2);
            g.samples = vec![
                (0, 0, counts(0, 0, 0)),
                (2, material(dp[i], minor[i], 0), counts(dp[i], minor[i], 0)),
                (4, material(dp[i], minor[i], q), counts(dp[i], minor[i], q)),
            ];
            g
        })
        .collect();
    let refs: Vec<&GameData> = games.iter().collect();
    let (values, slope) = report::piece_values(&refs);
    let slope = slope.expect("material slope");
    assert!(slope.value > 0.0 && slope.lo < slope.value);
    let got: Vec<(char, Option<f64>, usize, Option<&str>)> = values
        .iter()
        .map(|v| (v.piece, v.engine, v.unequal_games, v.note.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            ('b', Some(300.0), 5, Some("not identifiable: its count difference is nearly a linear function of the other pieces' (R² = 1.00)")),
            ('k', None, 0, Some("not identifiable: the two sides always have as many")),
            ('n', Some(300.0), 5, Some("not identifiable: its count difference is nearly a linear function of the other pieces' (R² = 1.00)")),
            ('p', Some(100.0), 8, None),
            ('q', Some(900.0), 2, Some("not identifiable: the counts differ in only 2 games (at least 5 needed)")),
        ]
    );
    let p = values[3].estimated.expect("the pawn is estimated");
    // The results here make a pawn worth three of the engine's: 302 [112, 492] centipawns.
    assert_eq!((p.value, p.lo, p.hi), (302.0, 112.0, 492.0));
    assert!(values
        .iter()
        .filter(|v| v.piece != 'p')
        .all(|v| v.estimated.is_none()));
    // Two rule sets: the pawn's 302 [112, 492] against 202 [12, 392] is not a significant
    // difference (z = 100 / sqrt(2 (380 / 2z95)²)).
    let ra = report::set_report("A", &[], &refs, 10);
    let mut rb = ra.clone();
    for v in rb.piece_values.iter_mut() {
        if let Some(e) = v.estimated.as_mut() {
            (e.value, e.lo, e.hi) = (e.value - 100.0, e.lo - 100.0, e.hi - 100.0);
        }
    }
    let c = report::compare(&refs, &refs, &ra, &rb);
    assert_eq!(c.piece_values.keys().collect::<Vec<_>>(), vec![&'p']);
    let t = c.piece_values[&'p'];
    assert!((t.z - 0.729_423_065_447_199).abs() < 1e-9, "{t:?}");
    assert!((t.p - 0.465_742_912_881_188).abs() < 1e-6, "{t:?}");
}

#[test]
fn a_study_of_each_game_runs_from_the_command_line() {
    for variant in [
        "chess",
        "vyrt",
        "cypher",
        "little-cheops",
        "little-cheops-imperial",
    ] {
        let out = dir(&format!("cli-{variant}"));
        let args: Vec<String> = [
            variant,
            "--games",
            "2",
            "--nodes",
            "100",
            "--max-plies",
            "12",
            "--openings",
            "0",
            "--threads",
            "1",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(std::iter::once(out.display().to_string()))
        .collect();
        menagerie_lab::cli::main(&args).expect(variant);
        let text = std::fs::read_to_string(out.join("games.jsonl")).expect("games");
        let (config, games) = report::read_jsonl(&text, variant).expect("read back");
        assert_eq!((config.variant.as_str(), games.len()), (variant, 2));
        let _ = std::fs::remove_dir_all(out);
    }
    let err = |args: &[&str]| {
        menagerie_lab::cli::main(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .unwrap_err()
    };
    assert_eq!(
        err(&["chess", "--shard", "3/2"]),
        "invalid value '3/2' for '--shard <I/N>': '3/2' is not a shard: write I/N with 1 <= I <= N, as in 2/8, or auto/N"
    );
    assert!(err(&["nosuchgame", "--games", "1"]).contains("nosuchgame"));
}

/// `--shard auto/3` on a cluster: three Kubernetes pods (JOB_COMPLETION_INDEX 0, 1, 2) and
/// three Slurm array tasks (SLURM_ARRAY_TASK_ID 1, 2, 3, `--array=1-3`) each play their
/// slice through the command line; merged, either set is the single run, game for game.
#[test]
fn auto_shards_from_kubernetes_and_slurm_merge_into_the_single_run() {
    let config = tiny();
    let whole = run::run(&config, (1, 1), 1, &|_| {}).expect("the whole study");
    let args = |out: &PathBuf| -> Vec<String> {
        [
            "chess",
            "--games",
            "6",
            "--nodes",
            "200",
            "--seed",
            "7",
            "--openings",
            "2",
            "--max-plies",
            "24",
            "--threads",
            "1",
            "--shard",
            "auto/3",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(std::iter::once(out.display().to_string()))
        .collect()
    };
    for (name, first) in [("JOB_COMPLETION_INDEX", 0), ("SLURM_ARRAY_TASK_ID", 1)] {
        let mut dirs = Vec::new();
        for k in 0..3u32 {
            let d = dir(&format!("auto-{name}-{k}"));
            let value = (k + first).to_string();
            let env = |v: &str| (v == name).then(|| value.clone());
            menagerie_lab::cli::main_with_env(&args(&d), &env).expect("a shard");
            let text = std::fs::read_to_string(d.join("games.jsonl")).expect("shard games");
            let (_, games) = report::read_jsonl(&text, "shard").expect("read back");
            // Shard k+1 of 3 plays the pairs k, k+3, ...: here the pair 2k, 2k+1.
            assert_eq!(
                games.iter().map(|g| g.index).collect::<Vec<_>>(),
                vec![2 * k, 2 * k + 1],
                "{name}={value}"
            );
            dirs.push(d);
        }
        let merged = dir(&format!("auto-{name}-merged"));
        let rep = menagerie_lab::cli::merge(&dirs, &merged).expect("merge");
        assert_eq!(rep, report::report(&config, &whole), "{name}");
        let text = std::fs::read_to_string(merged.join("games.jsonl")).expect("merged games");
        let (_, games) = report::read_jsonl(&text, "merged").expect("read back");
        assert_eq!(games, whole, "{name}");
        for d in dirs.into_iter().chain([merged]) {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// `auto/N` says which variable it reads, and refuses an index outside the array.
#[test]
fn auto_shard_numbers_and_their_errors() {
    use menagerie_lab::cli::{parse_shard, resolve_shard, Shard};
    let none = |_: &str| None;
    assert_eq!(parse_shard("auto/4"), Ok(Shard::Auto(4)));
    assert_eq!(parse_shard("2/4"), Ok(Shard::Given(2, 4)));
    assert!(parse_shard("auto/0").is_err());
    let k = |v: &'static str| move |n: &str| (n == "JOB_COMPLETION_INDEX").then(|| v.to_string());
    let s = |v: &'static str| move |n: &str| (n == "SLURM_ARRAY_TASK_ID").then(|| v.to_string());
    assert_eq!(resolve_shard(Shard::Auto(4), &k("0")), Ok((1, 4)));
    assert_eq!(resolve_shard(Shard::Auto(4), &k("3")), Ok((4, 4)));
    assert_eq!(resolve_shard(Shard::Auto(4), &s("1")), Ok((1, 4)));
    assert_eq!(resolve_shard(Shard::Auto(4), &s("4")), Ok((4, 4)));
    assert_eq!(resolve_shard(Shard::Given(2, 4), &none), Ok((2, 4)));
    assert_eq!(
        resolve_shard(Shard::Auto(4), &k("4")),
        Err("--shard auto/4: JOB_COMPLETION_INDEX is '4', not a number from 0 to 3".into())
    );
    assert_eq!(
        resolve_shard(Shard::Auto(4), &s("0")),
        Err("--shard auto/4: SLURM_ARRAY_TASK_ID is '0', not a number from 1 to 4".into())
    );
    assert_eq!(
        resolve_shard(Shard::Auto(4), &none),
        Err("--shard auto/4 reads the shard's number from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, 0 to 3) or SLURM_ARRAY_TASK_ID (a Slurm array --array=1-4), and neither is set".into())
    );
}

/// The built-in Little Cheops table with the Knight's moves replaced by `betza`.
fn knight_as(betza: &str, name: &str) -> run::PieceFile {
    let text = menagerie_cheops::DEFAULT_PIECES
        .lines()
        .map(|l| {
            if l.starts_with("knight ") {
                format!("knight N N {betza} provisional major")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    run::PieceFile {
        name: name.into(),
        text,
    }
}

#[test]
fn a_set_plays_with_its_own_piece_table() {
    let common = StudyConfig {
        variant: "little-cheops".into(),
        games: 4,
        nodes: Some(300),
        max_plies: 40,
        ..tiny()
    };
    // The built-in table given as a file plays exactly the games of no file.
    let plain = run::run(&common, (1, 1), 2, &|_| {}).expect("built-in pieces");
    let same = StudyConfig {
        pieces: Some(run::PieceFile {
            name: "pieces.txt".into(),
            text: menagerie_cheops::DEFAULT_PIECES.to_string(),
        }),
        ..common.clone()
    };
    assert_eq!(
        plain,
        run::run(&same, (1, 1), 2, &|_| {}).expect("same table")
    );

    // Set B's Knights step as Wazirs: its games replay under its table and not under the
    // rulebook's; set A's replay under the rulebook's.
    let config = StudyConfig {
        vs_pieces: Some(knight_as("W", "wazir-knights.txt")),
        ..common
    };
    assert_eq!(config.set_count(), 2);
    assert_eq!(config.set_rules(1), config.set_rules(0));
    assert_eq!(
        config.set_label(1),
        vec!["pieces=wazir-knights.txt".to_string()]
    );
    let games = run::run(&config, (1, 1), 2, &|_| {}).expect("two tables");
    assert_eq!(games.iter().filter(|g| g.set == 1).count(), 4);
    let rulebook = menagerie_variants::find("little-cheops").expect("the game");
    let wazirs = rulebook
        .with_pieces(&knight_as("W", "w").text)
        .expect("the Wazir table");
    let replays = |v: &menagerie_variants::Variant, g: &GameData| {
        let rec = menagerie_play::record::parse(&g.record, "study").expect("the record");
        let mut game = v.open(None, &Default::default()).expect("the start");
        menagerie_play::record::replay(game.as_mut(), &rec, "study").is_ok()
    };
    for g in &games {
        let own = if g.set == 0 { &rulebook } else { &wazirs };
        assert!(
            replays(own, g),
            "game {} of set {} replays under its own table",
            g.index,
            g.set
        );
    }
    assert!(
        games
            .iter()
            .filter(|g| g.set == 1)
            .any(|g| !replays(&rulebook, g)),
        "some Knight of set B stepped as a Wazir"
    );
    let rep = report::report(&config, &games);
    assert_eq!(
        rep.sets[1].rules,
        vec!["pieces=wazir-knights.txt".to_string()]
    );
    assert!(rep.comparison.is_some());

    // A table that is not one is refused before any game, in one sentence.
    let bad = StudyConfig {
        vs_pieces: Some(knight_as("Z", "bad.txt")),
        ..config
    };
    let e = run::run(&bad, (1, 1), 1, &|_| {}).expect_err("a bad table");
    assert!(e.to_string().contains("Z"), "{e}");
}

#[test]
fn piece_table_files_on_the_command_line() {
    let d = dir("pieces-cli");
    std::fs::create_dir_all(&d).expect("dir");
    let wazirs = d.join("wazir-knights.txt");
    std::fs::write(&wazirs, knight_as("W", "w").text).expect("write");
    let out = d.join("report");
    let args = |extra: &[&str]| -> Vec<String> {
        [
            "--games",
            "2",
            "--nodes",
            "100",
            "--max-plies",
            "10",
            "--threads",
            "1",
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .chain(["--out".to_string(), out.display().to_string()])
        .collect()
    };
    let w = wazirs.display().to_string();
    menagerie_lab::cli::main(&args(&["little-cheops-imperial", "--vs-pieces", &w]))
        .expect("a study of two tables");
    let text = std::fs::read_to_string(out.join("games.jsonl")).expect("games");
    let (config, games) = report::read_jsonl(&text, "games.jsonl").expect("read back");
    assert_eq!(games.len(), 4);
    assert_eq!(config.pieces, None);
    assert_eq!(
        config.vs_pieces.as_ref().map(|p| p.name.as_str()),
        Some("wazir-knights.txt")
    );
    let page = std::fs::read_to_string(out.join("index.html")).expect("page");
    assert!(
        page.contains("B: pieces=wazir-knights.txt"),
        "the report names B's table"
    );

    let e = menagerie_lab::cli::main(&args(&["chess", "--pieces", &w])).expect_err("chess");
    assert_eq!(
        e,
        "--pieces applies to Little Cheops, whose pieces are data, not to 'chess'"
    );
    let missing = d.join("none.txt").display().to_string();
    let e = menagerie_lab::cli::main(&args(&["little-cheops", "--pieces", &missing]))
        .expect_err("no file");
    assert!(
        e.starts_with("cannot read ") && e.contains("none.txt"),
        "{e}"
    );
}

#[test]
fn two_rule_sets_are_compared_on_the_same_openings_and_budgets() {
    let config = StudyConfig {
        variant: "little-cheops".into(),
        vs_rules: Some(vec!["repetition=fourth".into()]),
        games: 4,
        nodes: Some(200),
        max_plies: 16,
        openings: 4,
        ..tiny()
    };
    let games = run::run(&config, (1, 1), 2, &|_| {}).expect("two rule sets");
    let (a, b): (Vec<&GameData>, Vec<&GameData>) = games.iter().partition(|g| g.set == 0);
    assert_eq!((a.len(), b.len()), (4, 4));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((x.index, x.seed), (y.index, y.seed));
        assert_eq!(x.opening.len(), 4);
        assert_eq!(x.opening, y.opening, "game {}", x.index);
    }
    // Set A's games are those of the same study with one rule set.
    let alone = run::run(
        &StudyConfig {
            vs_rules: None,
            ..config
        },
        (1, 1),
        1,
        &|_| {},
    )
    .expect("set A alone");
    assert_eq!(alone, a.into_iter().cloned().collect::<Vec<_>>());
}

#[test]
fn a_set_starts_from_its_own_position() {
    let fen = "t3k3t/ppppppppp/9/2c3c2/9/2C3C2/9/PPPPPPPPP/T3K3T w 0 1";
    let config = StudyConfig {
        variant: "little-cheops".into(),
        vs_fen: Some(fen.into()),
        games: 2,
        nodes: Some(200),
        max_plies: 12,
        ..tiny()
    };
    assert_eq!(config.set_label(1), vec![format!("fen={fen}")]);
    let games = run::run(&config, (1, 1), 1, &|_| {}).expect("two starts");
    let game = menagerie_variants::find("little-cheops").expect("the game");
    for g in &games {
        let tag = format!("[FEN \"{fen}\"]");
        assert_eq!(g.record.contains(&tag), g.set == 1, "{}", g.record);
        let loaded = menagerie_play::record::load(&g.record, "study", &game, &[])
            .expect("the record replays from its start");
        assert_eq!(loaded.game.ply(), g.plies);
        let start = if g.set == 1 { fen } else { game.start_fen };
        assert_eq!(loaded.game.start_fen(), start);
    }
    let bad = StudyConfig {
        vs_fen: Some("t3k3t/ppp w 0 1".into()),
        ..config
    };
    assert!(run::run(&bad, (1, 1), 1, &|_| {}).is_err());
}
