//! The shape of a turn, for front ends: what kind of turn it is and the squares a board needs
//! to enter it by pointing (each part's from and to, the captured or arrested squares, the
//! chosen room, the promotion piece).
//!
//! A part moves one piece from `from` to `to`; a part with only `to` names a square to point
//! at (a released pawn's square, an inspected Civilian, the man a coup switches); a part with
//! only `from` acts on a piece where it stands (an appointment, a hall promotion). A hop
//! chain has one part per hop, each starting where the previous one landed. Move
//! generation never calls this: [`crate::Position::turn_shape`] is for front ends.

use crate::geometry::{Geometry, Square};

/// What kind of turn a legal turn is (JSON: kebab-case, `en-passant`, `hop-chain`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum TurnKind {
    /// A piece moves to an empty square.
    Move,
    /// A piece moves and captures.
    Capture,
    /// A pawn (or other promoting piece) moves and becomes another piece.
    Promotion,
    /// The King and a Rook move together.
    Castling,
    /// A pawn captures the pawn that passed it.
    EnPassant,
    /// Cypher: a Spy leaves Court and a major piece enters it (7.2).
    CombinedMove,
    /// Cypher: a King steps onto the Border and sends a piece to d0 or d10 (8).
    Infiltration,
    /// Cypher: a prisoner pawn comes back onto the Border (9.2).
    Release,
    /// Cypher: a pawn reaches its last Field rank and an enemy man changes sides (9.1).
    Coup,
    /// Little Cheops: one hop or a chain of hops (7.3).
    HopChain,
    /// Little Cheops: a hop chain ending in an arrest, the arrestee carried to a room (10.5).
    Arrest,
    /// Little Cheops: the King of a Castle appoints a Civilian a Deputy (10.2).
    Appointment,
    /// Little Cheops: an inspection of an apparent enemy Civilian's papers (10.4).
    Inspection,
    /// Little Cheops: an entitled Pawn promotes in the halls of a Castle (8.2).
    HallPromotion,
    /// Little Cheops: the King abdicates in favour of a Duke (11).
    Abdication,
    /// A choice the rules offer in place of a turn (Little Cheops: accept a repetition draw).
    Claim,
}

impl TurnKind {
    /// The kind's JSON name (`hop-chain`, `en-passant`, ...).
    pub fn code(self) -> &'static str {
        match self {
            TurnKind::Move => "move",
            TurnKind::Capture => "capture",
            TurnKind::Promotion => "promotion",
            TurnKind::Castling => "castling",
            TurnKind::EnPassant => "en-passant",
            TurnKind::CombinedMove => "combined-move",
            TurnKind::Infiltration => "infiltration",
            TurnKind::Release => "release",
            TurnKind::Coup => "coup",
            TurnKind::HopChain => "hop-chain",
            TurnKind::Arrest => "arrest",
            TurnKind::Appointment => "appointment",
            TurnKind::Inspection => "inspection",
            TurnKind::HallPromotion => "hall-promotion",
            TurnKind::Abdication => "abdication",
            TurnKind::Claim => "claim",
        }
    }
}

/// One part of a turn, as squares of the board.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TurnPart {
    /// The square of the piece this part moves or acts on.
    pub from: Option<Square>,
    /// Where the piece lands, or the square this part points at.
    pub to: Option<Square>,
    /// The squares emptied of enemy pieces by this part (captured or arrested).
    pub captures: Vec<Square>,
    /// The room an arrested piece is carried to.
    pub room: Option<Square>,
    /// The letter of the piece chosen by a promotion (upper case).
    pub promotion: Option<char>,
}

impl TurnPart {
    /// A part moving a piece from `from` to `to`.
    pub fn step(from: Square, to: Square) -> Self {
        TurnPart {
            from: Some(from),
            to: Some(to),
            ..TurnPart::default()
        }
    }
    /// A part pointing at `to` only.
    pub fn point(to: Square) -> Self {
        TurnPart {
            to: Some(to),
            ..TurnPart::default()
        }
    }
    /// A part acting on the piece on `from` where it stands.
    pub fn at(from: Square) -> Self {
        TurnPart {
            from: Some(from),
            ..TurnPart::default()
        }
    }
    /// The same part capturing on `squares`.
    pub fn capturing(mut self, squares: impl IntoIterator<Item = Square>) -> Self {
        self.captures.extend(squares);
        self
    }
    /// Every square the part names (from, to, captures, room), in that order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.from
            .into_iter()
            .chain(self.to)
            .chain(self.captures.iter().copied())
            .chain(self.room)
    }
}

/// The shape of one whole turn: its kind and its parts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnShape {
    /// The kind of turn.
    pub kind: TurnKind,
    /// The parts, in the order they are entered.
    pub parts: Vec<TurnPart>,
}

impl TurnShape {
    /// A shape of `kind` with `parts`.
    pub fn new(kind: TurnKind, parts: Vec<TurnPart>) -> Self {
        TurnShape { kind, parts }
    }
    /// A shape of `kind` with no squares (the default of [`crate::Position::turn_shape`]).
    pub fn bare(kind: TurnKind) -> Self {
        TurnShape {
            kind,
            parts: Vec::new(),
        }
    }
    /// Every square the turn names, in part order, without repeats.
    pub fn squares(&self) -> Vec<Square> {
        let mut out: Vec<Square> = Vec::new();
        for p in &self.parts {
            for s in p.squares() {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }
    /// The turn with its squares written in the game's own names.
    pub fn info(&self, geometry: &Geometry, canonical: String, human: String) -> TurnInfo {
        let name = |s: Square| geometry.square_name(s);
        TurnInfo {
            canonical,
            human,
            kind: self.kind,
            parts: self
                .parts
                .iter()
                .map(|p| PartInfo {
                    from: p.from.map(name),
                    to: p.to.map(name),
                    captures: p.captures.iter().map(|&s| name(s)).collect(),
                    room: p.room.map(name),
                    promotion: p.promotion.map(|c| c.to_string()),
                })
                .collect(),
        }
    }
}

/// One legal turn for a front end: its texts, kind and parts with square names.
///
/// JSON: `{"canonical":"e2e4","human":"e4","kind":"move","parts":[{"from":"e2","to":"e4",
/// "captures":[],"room":null,"promotion":null}]}`.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnInfo {
    /// The canonical machine text.
    pub canonical: String,
    /// The human notation.
    pub human: String,
    /// The kind of turn.
    pub kind: TurnKind,
    /// The parts, in the order they are entered.
    pub parts: Vec<PartInfo>,
}

/// One part of a [`TurnInfo`], squares by name.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PartInfo {
    /// The square of the piece the part moves or acts on.
    pub from: Option<String>,
    /// Where it lands, or the square the part points at.
    pub to: Option<String>,
    /// The captured or arrested squares.
    pub captures: Vec<String>,
    /// The room an arrestee is carried to.
    pub room: Option<String>,
    /// The promotion piece's letter.
    pub promotion: Option<String>,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_kebab_case_in_json() {
        let all = [
            TurnKind::Move,
            TurnKind::Capture,
            TurnKind::Promotion,
            TurnKind::Castling,
            TurnKind::EnPassant,
            TurnKind::CombinedMove,
            TurnKind::Infiltration,
            TurnKind::Release,
            TurnKind::Coup,
            TurnKind::HopChain,
            TurnKind::Arrest,
            TurnKind::Appointment,
            TurnKind::Inspection,
            TurnKind::HallPromotion,
            TurnKind::Abdication,
            TurnKind::Claim,
        ];
        let json: Vec<String> = all
            .iter()
            .map(|k| serde_json::to_string(k).unwrap_or_default())
            .collect();
        assert_eq!(
            json.join(","),
            "\"move\",\"capture\",\"promotion\",\"castling\",\"en-passant\",\"combined-move\",\
             \"infiltration\",\"release\",\"coup\",\"hop-chain\",\"arrest\",\"appointment\",\
             \"inspection\",\"hall-promotion\",\"abdication\",\"claim\""
        );
        for k in all {
            assert_eq!(
                serde_json::to_string(&k).unwrap_or_default(),
                format!("\"{}\"", k.code())
            );
        }
    }
}
