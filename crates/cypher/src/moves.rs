//! One whole turn of Cypher Chess.

/// What kind of turn a [`CypherMove`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum TurnKind {
    /// An ordinary move or capture of one man (a Spy exit without a second half included).
    Normal,
    /// A Spy leaving Court, then one major piece entering Court (7.2).
    Combined,
    /// A King move onto the Border, then a piece sent to d0 or d10 (8).
    Infiltration,
    /// A pawn move onto its last Field rank (9.1); `extra_from` is the switched man or `NONE`.
    Coup,
    /// A prisoner release onto `to` (9.2).
    Release,
}

/// "No square" in a move's optional fields.
pub const NONE: u8 = u8::MAX;

/// One whole turn. Squares are indices `rank * 10 + file` (z0 = 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CypherMove {
    /// The turn's kind.
    pub kind: TurnKind,
    /// Where the (first) man starts; `NONE` for a release.
    pub from: u8,
    /// Where the (first) man lands, or the release square.
    pub to: u8,
    /// Second half: the entering or transferred piece's square, or the coup's switched man.
    pub extra_from: u8,
    /// Second half: where the entering or transferred piece lands.
    pub extra_to: u8,
}

impl CypherMove {
    /// An ordinary move.
    pub const fn normal(from: u8, to: u8) -> Self {
        CypherMove {
            kind: TurnKind::Normal,
            from,
            to,
            extra_from: NONE,
            extra_to: NONE,
        }
    }
    pub(crate) const fn with(
        kind: TurnKind,
        from: u8,
        to: u8,
        extra_from: u8,
        extra_to: u8,
    ) -> Self {
        CypherMove {
            kind,
            from,
            to,
            extra_from,
            extra_to,
        }
    }
}
