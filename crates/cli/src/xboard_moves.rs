//! Moves and positions as XBoard sees them: squares named `a`.. and `1`.. from White's
//! bottom-left corner (ranks from `0` on boards of exactly ten ranks), coordinate moves
//! (`e2e4`, `e7e8q`), standard FEN and a piece-to-char table for the `setup` command.
//!
//! A turn maps cleanly when it is one piece going from one square to another (with a
//! promotion letter at most), or a castling (written as the King's move). Turns of several
//! parts (Cypher's combined moves, infiltrations, coups with a recapture, releases; Little
//! Cheops' appointments, inspections, abdications, multi-hops and arrests) have no XBoard
//! form and are left out of the table.

use menagerie_core::{Color, Geometry, Square};
use menagerie_variants::AnyGame;
use std::collections::BTreeMap;

/// XBoard's fairy piece types in its internal order; the last one is the King.
const XBOARD_TYPES: &str = "PNBRQFEACWMOHIJGDVLSUK";

/// The XBoard name of square `sq` of `g`.
pub fn xb_square(g: &Geometry, sq: Square) -> String {
    let file = char::from(b'a' + g.file(sq));
    let rank = u32::from(g.rank(sq)) + u32::from(g.height() != 10);
    format!("{file}{rank}")
}

/// Reads an XBoard square name at the start of `text`: the square and the bytes used.
pub fn parse_xb_square(g: &Geometry, text: &str) -> Option<(Square, usize)> {
    let bytes = text.as_bytes();
    let file = bytes.first()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let rank: u32 = text[1..1 + digits].parse().ok()?;
    let row = rank.checked_sub(u32::from(g.height() != 10))?;
    let row = u8::try_from(row).ok()?;
    let sq = g.square(file - b'a', row)?;
    Some((sq, 1 + digits))
}

/// A move as squares: from, to and a promotion letter (lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coords {
    /// The square left.
    pub from: Square,
    /// The square reached.
    pub to: Square,
    /// The piece promoted to, lower case.
    pub promo: Option<char>,
}

/// Reads an XBoard coordinate move (`e2e4`, `e7e8q`, `a10a11`).
pub fn parse_xb_move(g: &Geometry, text: &str) -> Option<Coords> {
    let (from, a) = parse_xb_square(g, text)?;
    let (to, b) = parse_xb_square(g, &text[a..])?;
    let rest = &text[a + b..];
    let promo = match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        [c] | ['=', c] if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => return None,
    };
    Some(Coords { from, to, promo })
}

/// The XBoard text of `c`.
pub fn xb_text(g: &Geometry, c: Coords) -> String {
    let mut s = format!("{}{}", xb_square(g, c.from), xb_square(g, c.to));
    if let Some(p) = c.promo {
        s.push(p);
    }
    s
}

/// The squares of a canonical move of one piece from one square to another, with the
/// separator's rank (0 for a plain move, 1 for a hop written `from:to`); `None` for any
/// other kind of turn.
fn plain_coords(g: &Geometry, text: &str) -> Option<(Coords, u8)> {
    let (from, a) = g.parse_square_prefix(text)?;
    let rest = &text[a..];
    let (rest, rank) = match rest.as_bytes().first() {
        Some(b'-') | Some(b'x') | Some(b'X') => (&rest[1..], 0),
        Some(b':') => (&rest[1..], 1),
        _ => (rest, 0),
    };
    let (to, b) = g.parse_square_prefix(rest)?;
    let promo = match rest[b..].chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        ['=', c] | [c] if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => return None,
    };
    Some((Coords { from, to, promo }, rank))
}

/// The square of `side`'s King (letter `K`), if there is one.
fn king_square(game: &dyn AnyGame, side: Color) -> Option<Square> {
    let king = match side {
        Color::White => 'K',
        Color::Black => 'k',
    };
    game.geometry()
        .squares()
        .find(|&sq| game.piece_at(sq) == Some(king))
}

/// Every legal move that has an XBoard form: XBoard text to canonical text. Where two
/// turns share a form (a plain move and a hop between the same squares), the plain one
/// keeps it.
pub fn xb_moves(game: &dyn AnyGame) -> BTreeMap<String, String> {
    let g = game.geometry();
    let mut table: BTreeMap<String, (u8, String)> = BTreeMap::new();
    for canonical in game.legal_moves() {
        let found = if canonical.starts_with("O-O") {
            // Castling: the King's own step, found by playing it.
            let mut probe = game.fork();
            let side = game.turn();
            match (king_square(game, side), probe.push(&canonical)) {
                (Some(from), Ok(_)) => king_square(probe.as_ref(), side).map(|to| {
                    (
                        Coords {
                            from,
                            to,
                            promo: None,
                        },
                        0,
                    )
                }),
                _ => None,
            }
        } else {
            plain_coords(g, &canonical)
        };
        if let Some((coords, rank)) = found {
            let key = xb_text(g, coords);
            match table.get(&key) {
                Some((r, _)) if *r <= rank => {}
                _ => {
                    table.insert(key, (rank, canonical));
                }
            }
        }
    }
    table.into_iter().map(|(k, (_, c))| (k, c)).collect()
}

/// Canonical texts a game might read for the squares of `c`, for asking it why a move
/// XBoard sent is illegal.
pub fn canonical_guesses(g: &Geometry, c: Coords) -> Vec<String> {
    let (from, to) = (g.square_name(c.from), g.square_name(c.to));
    let promo = c.promo.map(|p| p.to_ascii_uppercase());
    let mut v = Vec::new();
    for sep in ["", "-"] {
        match promo {
            Some(p) => {
                v.push(format!("{from}{sep}{to}{}", p.to_ascii_lowercase()));
                v.push(format!("{from}{sep}{to}={p}"));
            }
            None => v.push(format!("{from}{sep}{to}")),
        }
    }
    v
}

/// The board part and side to move of a standard FEN from `game`'s pieces.
pub fn xb_fen(game: &dyn AnyGame) -> String {
    let g = game.geometry();
    let mut rows = Vec::new();
    for rank in (0..g.height()).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..g.width() {
            match g.square(file, rank).and_then(|sq| game.piece_at(sq)) {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {} - - 0 1", rows.join("/"), game.turn().letter())
}

/// The piece-to-char table for the pieces of `game` (those on the board at its start):
/// each letter takes XBoard's type of the same letter where it has one, else a free type.
pub fn piece_table(letters: impl IntoIterator<Item = char>) -> String {
    let types: Vec<char> = XBOARD_TYPES.chars().collect();
    let mut slots: Vec<Option<char>> = vec![None; types.len()];
    let mut wanted: Vec<char> = letters
        .into_iter()
        .map(|c| c.to_ascii_uppercase())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut homeless = Vec::new();
    for &l in &wanted {
        match types.iter().position(|&t| t == l) {
            Some(i) if slots[i].is_none() => slots[i] = Some(l),
            _ => homeless.push(l),
        }
    }
    let last = types.len() - 1;
    for l in homeless {
        // A free type, the Rook's and Bishop's first (pictures people read as pieces), never
        // the Pawn's or the King's, which XBoard treats specially.
        let mut order = [3, 2, 1, 4].into_iter().chain(5..last);
        if let Some(i) = order.find(|&i| slots[i].is_none()) {
            slots[i] = Some(l);
        }
    }
    let white: String = slots.iter().map(|s| s.unwrap_or('.')).collect();
    format!("{white}{}", white.to_ascii_lowercase())
}

/// The `setup` command describing `game`'s board to XBoard, as `viewer` may see it.
pub fn setup_line(game: &dyn AnyGame, start: &dyn AnyGame) -> String {
    let g = game.geometry();
    let letters = g.squares().filter_map(|sq| start.piece_at(sq));
    format!(
        "setup ({}) {}x{}+0_fairy {}",
        piece_table(letters),
        g.width(),
        g.height(),
        xb_fen(game)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::RuleOptions;
    use menagerie_variants::find;

    fn open(id: &str) -> Box<dyn AnyGame> {
        find(id).unwrap().open(None, &RuleOptions::new()).unwrap()
    }

    #[test]
    fn squares_follow_xboard_naming() {
        let vyrt = open("vyrt");
        let g = vyrt.geometry();
        // K11 is the bottom-left corner; E2 is the seventh file, fourth row.
        assert_eq!(xb_square(g, g.parse_square("K11").unwrap()), "a1");
        assert_eq!(xb_square(g, g.parse_square("E2").unwrap()), "g4");
        assert_eq!(xb_square(g, g.parse_square("J10").unwrap()), "l12");
        assert_eq!(
            parse_xb_square(g, "l12"),
            Some((g.parse_square("J10").unwrap(), 3))
        );
        let cypher = open("cypher");
        let g = cypher.geometry();
        assert_eq!(xb_square(g, g.parse_square("z0").unwrap()), "a1");
        assert_eq!(xb_square(g, g.parse_square("i10").unwrap()), "j11");
        assert_eq!(parse_xb_square(g, "k1"), None);
        assert_eq!(parse_xb_square(g, "a12"), None);
    }

    #[test]
    fn move_tables_translate_each_game() {
        let chess = open("chess");
        let t = xb_moves(chess.as_ref());
        assert_eq!(t.len(), 20);
        assert_eq!(t["e2e4"], "e2e4");
        let vyrt = open("vyrt");
        let t = xb_moves(vyrt.as_ref());
        assert_eq!(t.len(), 28);
        assert_eq!(t["g4g6"], "E2-E4");
        let cypher = open("cypher");
        let t = xb_moves(cypher.as_ref());
        assert_eq!(t["e4e6"], "d3-d5");
        let cheops = open("little-cheops-imperial");
        let t = xb_moves(cheops.as_ref());
        assert_eq!(t["c3c12"], "c3c12");
    }

    #[test]
    fn piece_tables_keep_letters_and_end_with_the_king() {
        assert_eq!(
            piece_table("PRNBQKS".chars()),
            "PNBRQ..............S.Kpnbrq..............s.k"
        );
        // Little Cheops' Tower has no XBoard letter: it takes the Rook's free type.
        let t = piece_table("TNQKEIPC".chars());
        assert_eq!(&t[..22], "PN.TQ.E.C....I.......K");
    }
}
