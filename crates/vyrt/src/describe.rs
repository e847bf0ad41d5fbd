//! Vyrt for front ends: the shape of each turn (kind and squares) and the units' names.
//! Only front ends call this; move generation never does.

use crate::position::{VyrtMove, VyrtPosition};
use menagerie_core::{Color, PieceInfo, Position, Square, TurnKind, TurnPart, TurnShape};

/// The name of the unit with board letter `c` (either case).
fn unit_name(c: char) -> &'static str {
    match c.to_ascii_uppercase() {
        'P' => "pawn",
        'N' => "knight",
        'B' => "bishop",
        'R' => "rook",
        'Q' => "queen",
        _ => "king",
    }
}

impl VyrtPosition {
    /// The kind of `mv` and its squares: the King's and the Rook's steps for castling, the
    /// captured pawn for en passant (found by playing the move on a copy), the promotion.
    pub fn shape_of(&self, mv: VyrtMove) -> TurnShape {
        let (from, to) = (mv.from(), mv.to());
        let step = TurnPart::step(from, to);
        if mv.is_castling() {
            let y = from.index() / 12;
            let (rf, rt) = if to.index() > from.index() {
                (12 * y + 9, 12 * y + 7)
            } else {
                (12 * y + 2, 12 * y + 5)
            };
            let rook = TurnPart::step(Square(rf as u16), Square(rt as u16));
            return TurnShape::new(TurnKind::Castling, vec![step, rook]);
        }
        if mv.is_en_passant() {
            let them = self.turn().other();
            let mut after = self.clone();
            after.play(mv);
            let victims = self
                .geometry()
                .squares()
                .filter(|&s| s != to && self.owner(s) == Some(them) && after.unit_at(s).is_none());
            return TurnShape::new(TurnKind::EnPassant, vec![step.capturing(victims)]);
        }
        let captures = self.unit_at(to).map(|_| to);
        let mut part = step.capturing(captures);
        let kind = match mv.promotion() {
            Some(p) => {
                part.promotion = Some(p.to_ascii_uppercase());
                TurnKind::Promotion
            }
            None if part.captures.is_empty() => TurnKind::Move,
            None => TurnKind::Capture,
        };
        TurnShape::new(kind, vec![part])
    }

    fn owner(&self, s: Square) -> Option<Color> {
        self.unit_at(s).map(|c| {
            if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            }
        })
    }

    /// The unit on `s` with its name (`pawn`, `knight`, ... `king`).
    pub fn piece_info_at(&self, s: Square) -> Option<PieceInfo> {
        let c = self.unit_at(s)?;
        Some(PieceInfo::from_letter(c, unit_name(c)))
    }
}
