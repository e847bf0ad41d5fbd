//! The parts of a position string every game shares (the rulebook README's conventions):
//! the `<board>` field and decimal counters.

use crate::error::PositionError;
use crate::geometry::{Geometry, Square};

/// Reads a `<board>` field: rows from the top of the board as White sees it down to the
/// bottom, separated by `/`; inside a row, squares from White's left to right; a run of
/// empty squares is one decimal number for the whole run. Returns each square's letter
/// (`None` when empty), indexed by square. The game then checks the letters.
pub fn read_board(g: &Geometry, text: &str) -> Result<Vec<Option<char>>, PositionError> {
    const F: &str = "board";
    let (width, height) = (g.width() as usize, g.height() as usize);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != height {
        return Err(PositionError::new(
            F,
            format!("expected {height} rows, found {}", rows.len()),
        ));
    }
    let mut squares = vec![None; g.len()];
    for (i, row) in rows.iter().enumerate() {
        let rank = (height - 1 - i) as u8;
        let name = g.rank_name(rank);
        let too_long =
            || PositionError::new(F, format!("rank {name} has more than {width} squares"));
        let mut file = 0usize;
        let mut chars = row.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c.is_ascii_digit() {
                let mut end = at + 1;
                while let Some(&(j, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = j + 1;
                    chars.next();
                }
                let run = &row[at..end];
                if run.starts_with('0') {
                    return Err(PositionError::new(
                        F,
                        format!("rank {name}: a run of empty squares '{run}' starts with 0"),
                    ));
                }
                match run.parse::<usize>() {
                    Ok(n) if n <= width => file += n,
                    _ => {
                        return Err(PositionError::new(
                            F,
                            format!("rank {name}: a run of empty squares '{run}' is over {width}"),
                        ))
                    }
                }
                if file > width {
                    return Err(too_long());
                }
            } else if c.is_ascii_alphabetic() {
                if file >= width {
                    return Err(too_long());
                }
                squares[rank as usize * width + file] = Some(c);
                file += 1;
            } else {
                return Err(PositionError::new(
                    F,
                    format!(
                        "rank {name}: '{c}' is neither a piece letter nor a run of empty squares"
                    ),
                ));
            }
        }
        if file != width {
            return Err(PositionError::new(
                F,
                format!("rank {name} has {file} squares, it needs {width}"),
            ));
        }
    }
    Ok(squares)
}

/// Writes a `<board>` field from each square's letter.
pub fn write_board(g: &Geometry, letter: impl Fn(Square) -> Option<char>) -> String {
    let (width, height) = (g.width(), g.height());
    let mut out = String::with_capacity(g.len() + height as usize * 2);
    for rank in (0..height).rev() {
        let mut run = 0;
        for file in 0..width {
            match g.square(file, rank).and_then(&letter) {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(c);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Reads a counter field: a decimal number without sign or leading zeros.
pub fn read_number(field: &'static str, text: &str) -> Result<u32, PositionError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::new(
            field,
            format!("'{text}' is not a decimal number"),
        ));
    }
    if text.len() > 1 && text.starts_with('0') {
        return Err(PositionError::new(
            field,
            format!("'{text}' has a leading zero"),
        ));
    }
    text.parse()
        .map_err(|_| PositionError::new(field, format!("'{text}' is too large")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_read_and_write_back() {
        let g = Geometry::rectangle(10, 11);
        let text = "4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5";
        let squares = read_board(&g, text).unwrap();
        assert_eq!(squares[4], Some('S'));
        assert_eq!(squares[10 * 10 + 4], Some('s'));
        assert_eq!(write_board(&g, |s| squares[s.index()]), text);
    }

    #[test]
    fn malformed_boards_are_refused_with_the_rank_named() {
        let g = Geometry::rectangle(8, 8);
        for (bad, says) in [
            ("8/8/8", "expected 8 rows, found 3"),
            ("9/8/8/8/8/8/8/8", "over 8"),
            ("08/8/8/8/8/8/8/8", "starts with 0"),
            ("7/8/8/8/8/8/8/8", "rank 8 has 7 squares"),
            ("8/8/8/8/8/8/8/ppppppppp", "rank 1 has more than 8"),
            (
                "8/8/8/8/8/8/8/44p",
                "rank 1: a run of empty squares '44' is over 8",
            ),
            ("8/8/8/8/8/8/8/7*", "'*' is neither"),
            ("8/8/8/8/8/8/8/4é3", "neither"),
        ] {
            let e = read_board(&g, bad).unwrap_err();
            assert_eq!(e.field, "board");
            assert!(e.message.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn counters() {
        assert_eq!(read_number("halfmove clock", "0"), Ok(0));
        assert_eq!(read_number("fullmove number", "120"), Ok(120));
        for bad in ["", "-1", "+1", "01", "1a", "99999999999"] {
            assert!(read_number("fullmove number", bad).is_err(), "{bad}");
        }
    }
}
