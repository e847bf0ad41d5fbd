//! Text diagrams of a position in the game's own coordinates.

use crate::geometry::Square;
use crate::position::Position;

/// How to draw a diagram.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiagramOptions {
    /// On a joined (wrapping) board, the square to put in the middle of the picture.
    pub center: Option<Square>,
}

/// Draws `pos` with White at the bottom: ranks down the left, files along the bottom,
/// upper case White, region marks on empty squares, then the game's notes.
pub fn diagram<P: Position>(pos: &P, options: DiagramOptions) -> String {
    let g = pos.geometry();
    let (w, h) = (g.width() as i32, g.height() as i32);
    // Shift so that the centre square lands in the middle column/row, only along joined axes.
    let (mut shift_f, mut shift_r) = (0, 0);
    if let Some(c) = options.center {
        if g.wraps_files() {
            shift_f = g.file(c) as i32 - (w - 1) / 2;
        }
        if g.wraps_ranks() {
            shift_r = g.rank(c) as i32 - (h - 1) / 2;
        }
    }
    let files: Vec<u8> = (0..w).map(|i| (i + shift_f).rem_euclid(w) as u8).collect();
    let ranks: Vec<u8> = (0..h).map(|i| (i + shift_r).rem_euclid(h) as u8).collect();
    let label_w = ranks
        .iter()
        .map(|&r| g.rank_name(r).len())
        .max()
        .unwrap_or(1);
    let cell_w = files
        .iter()
        .map(|&f| g.file_name(f).len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for &r in ranks.iter().rev() {
        out.push_str(&format!("{:>label_w$} |", g.rank_name(r)));
        for &f in &files {
            let sq = g.square(f, r).unwrap_or_default();
            let c = pos.piece_char(sq).unwrap_or_else(|| pos.empty_glyph(sq));
            out.push_str(&format!(" {c:<cell_w$}"));
        }
        out.push('\n');
    }
    out.push_str(&format!("{:>label_w$}  ", ""));
    for &f in &files {
        out.push_str(&format!(" {:<cell_w$}", g.file_name(f)));
    }
    out.push('\n');
    // A finished game has nobody to move: the game's notes or the caller say how it ended.
    if pos.outcome().is_none() {
        out.push_str(&format!("{} to move", pos.turn()));
        if pos.is_check() {
            out.push_str(", in check");
        }
        out.push('\n');
    }
    for note in pos.diagram_notes() {
        out.push_str(&note);
        out.push('\n');
    }
    out
}
