//! Writes the committed seed corpora under `fuzz/seeds/` (run by hand when the library's
//! positions or notation change: `cargo test -p menagerie-robustness --test write_seeds --
//! --ignored`). Seeds are small: the rulebook's positions, a few turns each, a few records.

use menagerie_robustness::{api, checks};
use std::path::PathBuf;

fn write(target: &str, name: &str, data: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), data).unwrap();
}

#[test]
#[ignore]
fn write_seeds() {
    // position: a header line (variant and options), then the position string.
    let mut n = 0;
    for id in api::variant_ids() {
        for opts in api::option_sets(id) {
            let start = api::variant(id).unwrap().start_fen;
            let head = std::iter::once(id.to_string())
                .chain(opts)
                .collect::<Vec<_>>()
                .join(" ");
            write(
                "position",
                &format!("{n:03}-{id}"),
                format!("{head}\n{start}").as_bytes(),
            );
            n += 1;
        }
    }
    for line in include_str!("../data/positions.txt").lines() {
        let (id, fen) = line.split_once('\t').unwrap();
        write(
            "position",
            &format!("{n:03}-{id}"),
            format!("{id}\n{fen}").as_bytes(),
        );
        n += 1;
    }
    // move_text: position index, plies, then turn texts (canonical and human) and junk.
    let positions = checks::move_positions();
    for (i, (id, fen)) in positions.iter().enumerate().step_by(3).take(60) {
        let game = api::open(id, Some(fen), &[]).unwrap();
        let mut text = String::new();
        for (c, h) in game.legal_moves_with_human().iter().take(4) {
            text.push_str(&format!("{c}\n{h}\n"));
        }
        text.push_str("e2e4\nO-O\nxx\n");
        let mut data = vec![i as u8, (i % 3) as u8, 7, 3];
        if i % 3 == 0 {
            data.truncate(2);
        }
        data.extend_from_slice(text.as_bytes());
        write("move_text", &format!("{i:03}-{id}"), &data);
    }
    // pieces: the default table, and a few changed lines, for Common and Imperial.
    let default = include_str!("../../cheops/data/pieces.txt");
    let changes = [
        ("", ""),
        ("tower           T  T   R ", "tower           T  T   mRcpR "),
        ("knight          N  N   N ", "knight          N  N   NAD "),
        (
            "pawn            P  P   mfWcfF",
            "pawn            P  P   fmWfceF",
        ),
    ];
    for (i, (from, to)) in changes.iter().enumerate() {
        let table = if from.is_empty() {
            default.to_string()
        } else {
            default.replace(from, to)
        };
        for which in [0u8, 1] {
            let mut data = vec![which];
            data.extend_from_slice(table.as_bytes());
            write("pieces", &format!("{i}-{which}"), &data);
        }
    }
    // record: a few turns of each variant, as the writer writes them.
    for id in api::variant_ids() {
        let mut game = api::open(id, None, &[]).unwrap();
        for ply in 0..6 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.push(&moves[(ply * 7) % moves.len()]).unwrap();
        }
        write("record", id, api::write_record(game.as_ref()).as_bytes());
    }
}
