//! Cypher for front ends: the shape of each turn (kind and squares), the men's names and
//! the sector of every square. Only front ends call this; move generation never does.

use crate::moves::{CypherMove, TurnKind as Kind, NONE};
use crate::position::CypherPosition;
use crate::tables::Sector;
use menagerie_core::{Mark, PieceInfo, Square, TurnKind, TurnPart, TurnShape};

fn sq(s: u8) -> Square {
    Square(u16::from(s))
}

impl CypherPosition {
    /// A step from `from` to `to`, capturing the enemy man on `to` (a second half may land
    /// where the first half's man stood: nothing is captured there).
    fn step_part(&self, from: u8, to: u8) -> TurnPart {
        let captured = self
            .man_at(usize::from(to))
            .filter(|&(color, _)| color != self.turn)
            .map(|_| sq(to));
        TurnPart::step(sq(from), sq(to)).capturing(captured)
    }

    /// The kind of `mv` and its squares: both halves of a combined move or an
    /// infiltration, the pawn's step and the switched man of a coup, a release's square.
    pub fn shape_of(&self, mv: CypherMove) -> TurnShape {
        match mv.kind {
            Kind::Normal => {
                let part = self.step_part(mv.from, mv.to);
                let kind = if part.captures.is_empty() {
                    TurnKind::Move
                } else {
                    TurnKind::Capture
                };
                TurnShape::new(kind, vec![part])
            }
            Kind::Combined | Kind::Infiltration => {
                let kind = if mv.kind == Kind::Combined {
                    TurnKind::CombinedMove
                } else {
                    TurnKind::Infiltration
                };
                TurnShape::new(
                    kind,
                    vec![
                        self.step_part(mv.from, mv.to),
                        self.step_part(mv.extra_from, mv.extra_to),
                    ],
                )
            }
            Kind::Coup => {
                let mut parts = vec![self.step_part(mv.from, mv.to)];
                if mv.extra_from != NONE {
                    parts.push(TurnPart::point(sq(mv.extra_from)));
                }
                TurnShape::new(TurnKind::Coup, parts)
            }
            Kind::Release => TurnShape::new(TurnKind::Release, vec![TurnPart::point(sq(mv.to))]),
        }
    }

    /// The man on `s` with its name (`pawn`, ... `king`, `spy`).
    pub fn piece_info_at(&self, s: Square) -> Option<PieceInfo> {
        let (color, kind) = self.man_at(s.index())?;
        let letter = if color == menagerie_core::Color::White {
            kind.letter()
        } else {
            kind.letter().to_ascii_lowercase()
        };
        Some(PieceInfo::new(kind.name().to_lowercase(), color, letter))
    }

    /// The sector of `s`: `court`, `border` or `field`.
    pub fn marks_of(&self, s: Square) -> Vec<Mark> {
        if s.index() >= crate::tables::SQUARES {
            return Vec::new();
        }
        vec![match CypherPosition::sector(s.index()) {
            Sector::Court => Mark::Court,
            Sector::Border => Mark::Border,
            Sector::Field => Mark::Field,
        }]
    }
}
