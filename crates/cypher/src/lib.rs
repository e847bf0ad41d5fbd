//! Cypher Chess (Daniel Figahs, 2023) on Menagerie's core, exactly as the project's rulebook
//! (`rules/cypher.md`) rules it: a 10x11 board cut into Court, Border and Field; powers that
//! change with the sector a man stands on; the Spy, its combined move, transparency,
//! collusion and flips; infiltration; coups d'état; prisoner release; the 4-check rule and
//! the scoring table.
//!
//! Squares are indices `rank * 10 + file` (z0 = 0, i10 = 109); men are stored as a mailbox
//! plus `u128` bitboards (110 squares fit), with per-square tables built from the Geometry.
//! Legality is decided by copy-make where it can matter: a candidate turn is applied to a
//! copy of the board and the mover's King tested for check (sectors, transparency and
//! collusion make pins too irregular to precompute). Out of check, a turn that cannot touch
//! the King's safety (not the King, no coup or infiltration, not the man first on a line from
//! the King with an enemy line piece beyond it; a Spy's move never) is taken without the copy
//! (`CypherPosition::safety`; `legal_with` gives both lists, and a test compares them). An
//! ordinary move that may touch it is tested on the board as it stands, with the moved man's
//! squares and the taken man accounted for (`Board::in_check_after`); coups, combined moves,
//! infiltrations and everything under `self-flip=illegal` are still played on a copy.
//! Whether a turn gives check is told from the board before it where it can be
//! (`CypherPosition::check_hint`, also the search's `may_give_check`).
//! Perft counts the last ply without playing it.
//!
//! Readings where the rulebook leaves a detail open (all its worked cases and perft rows
//! hold under them):
//! * When one turn creates several flip conditions for the same winner, the reported rule
//!   is the first in 7.5's order (1 Spy flips King, 2 King flips Spy, 3 King next to his own
//!   Spy, 4 two Spies); R9 decides the winner, this only picks the words.
//! * "The placed pawn does not give check" (9.2) is the pawn's own diagonal attack on a Field
//!   or Border King; a Court King is never in check (4.3).
//! * Under `self-flip=illegal` a combined move or infiltration whose first half flips the
//!   mover's own side is illegal as a whole.
//! * Stalemate reports the core's `Termination::Stalemate`; every other ending is a
//!   `Termination::Rule` with a stable code (`king-capture`, `flip`,
//!   `checkmate-with-collusion`, `checkmate-without-collusion`, `four-checks`) and section
//!   11's words, always with the points of its table.
//!
//! ## Where each rule lives (sections of `rules/cypher.md`)
//!
//! | rule | file |
//! |---|---|
//! | board and sectors: Court, Border, Field (1) | `src/tables.rs` |
//! | men, set-up, position string (2, 12) | `src/board.rs`, `src/fen.rs` |
//! | moving by sector (3), captures and sanctuary (5.1) | `src/position.rs` (`generate`) |
//! | the King's steps, Court entry (3.4, R4), the Field King's captures (5.2) | `src/position/infiltration.rs` (`king_moves`), `src/position.rs` (`king_may_enter_court`) |
//! | the Spy (3.6) and the combined move (7.2) | `src/position/combined_move.rs` |
//! | check (4) and transparency (7.3) | `src/board/check.rs`; whether a turn checks: `src/position/gives_check.rs` |
//! | collusion (7.4) | `src/board/collusion.rs` |
//! | flips (7.5) | `src/board/flips.rs` |
//! | re-take (6) | `src/position/retake.rs` |
//! | infiltration (8) | `src/position/infiltration.rs` |
//! | coup d'état (9.1) | `src/position/coup.rs` |
//! | prisoner release (9.2) | `src/position/prisoner_release.rs` |
//! | legal turns, mate, the 4-check rule, endings and points (10, 11) | `src/position/endings.rs` |
//! | notation (13) | `src/notation.rs`; why a turn is illegal: `src/explain.rs` |
//! | rule options (14) | `src/lib.rs` (`OPTIONS`); rulebook codes cited: `src/guide.rs` |

#![warn(missing_docs)]

#[macro_use]
mod guide;
mod board;
mod describe;
mod explain;
mod fen;
mod moves;
mod notation;
mod position;
mod tables;

pub use board::{Flip, FlipRule, Kind};
pub use moves::{CypherMove, TurnKind, NONE};
pub use notation::FLIP_MARK;
pub use position::CypherPosition;
pub use tables::{geometry, Sector};

use menagerie_core::diagram;
use menagerie_core::{
    Color, Geometry, MoveError, Outcome, Position, PositionError, RuleOption, RuleOptions, Square,
    Termination, VariantSpec,
};
use position::endings_points;
use position::{KingCourtEntry, Rules};

/// The start position string (12.2).
pub const START_FEN: &str =
    "4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1";

/// The rule options of section 14; the first value of each is the ruling.
pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "self-flip",
        values: &["loses", "illegal"],
        help: concat!(
            "a turn that flips its own side (a Spy landing next to a King or the other Spy, ...) loses (",
            guide!(self_flip),
            "), or may not be played"
        ),
    },
    RuleOption {
        name: "king-court-entry",
        values: &["enemy-spy-outside", "own-spy-outside", "free"],
        help: concat!(
            "a King may step onto a Court square only while the enemy Spy is not in Court (",
            guide!(king_court_entry),
            "), only while his own Spy is not, or always"
        ),
    },
    RuleOption {
        name: "infiltration-target",
        values: &["either", "enemy-home"],
        help: concat!(
            "an infiltrating piece goes to d0 or d10 (",
            guide!(infiltration_target),
            "), or only to the enemy's home square (White d10, Black d0)"
        ),
    },
    RuleOption {
        name: "coup-minor",
        values: &["choice", "bishop-first"],
        help: concat!(
            "in a coup d'etat Bishop and Knight rank equal and the coup-maker chooses (",
            guide!(coup),
            "), or a Bishop goes before a Knight"
        ),
    },
    RuleOption {
        name: "coup-pawns",
        values: &["yes", "no"],
        help: concat!(
            "with no Queen, Rook, Bishop or Knight left, a coup d'etat switches a pawn (",
            guide!(coup),
            "), or nothing"
        ),
    },
];

/// The rules chosen by `options`, checked against [`OPTIONS`] (defaults: the rulings).
fn rules_from(options: &RuleOptions) -> Result<Rules, PositionError> {
    let o = options.read(OPTIONS)?;
    Ok(Rules {
        self_flip_illegal: o.is("self-flip", "illegal"),
        king_court_entry: match o.value("king-court-entry") {
            "own-spy-outside" => KingCourtEntry::OwnSpyOutside,
            "free" => KingCourtEntry::Free,
            _ => KingCourtEntry::EnemySpyOutside,
        },
        infiltration_enemy_home: o.is("infiltration-target", "enemy-home"),
        coup_bishop_first: o.is("coup-minor", "bishop-first"),
        coup_pawns: o.is("coup-pawns", "yes"),
    })
}

impl CypherPosition {
    /// Reads a position string under the given rule options (validated against [`OPTIONS`]).
    pub fn from_fen(text: &str, options: &RuleOptions) -> Result<Self, PositionError> {
        fen::parse(text, rules_from(options)?)
    }
    /// Reads a position string under the default rules.
    pub fn from_fen_default(text: &str) -> Result<Self, PositionError> {
        fen::parse(text, Rules::default())
    }
    /// Every legal turn (none once the game has ended), as a new list.
    pub fn legal(&self) -> Vec<CypherMove> {
        let mut v = Vec::new();
        Position::legal_moves(self, &mut v);
        v
    }
    /// Why the move written `text` (canonical or the inventor's notation) cannot be played
    /// here, naming the rule that forbids it; `None` when it is a legal turn.
    pub fn explain_illegal(&self, text: &str) -> Option<String> {
        match Position::parse_move(self, text) {
            Ok(_) => None,
            Err(MoveError::Illegal { reason, .. }) => Some(reason),
            // "not a move of cypher: <the forms it reads>"
            Err(MoveError::Syntax { reason, .. }) => Some(reason),
            Err(e) => Some(e.to_string()),
        }
    }
    /// The position after `mv`.
    pub fn after(&self, mv: CypherMove) -> Self {
        let mut next = self.clone();
        next.play_move(mv);
        next
    }
}

/// The variants this crate serves: `cypher`.
pub fn variants() -> Vec<VariantSpec<CypherPosition>> {
    vec![VariantSpec {
        id: "cypher",
        name: "Cypher Chess",
        summary: "10x11 board with Court, Border and Field: powers change by sector; a Spy that flips Kings, colludes and lets pieces into Court",
        start_fen: START_FEN,
        options: OPTIONS,
        from_fen: CypherPosition::from_fen,
    }]
}

impl Position for CypherPosition {
    type Move = CypherMove;

    fn quick_outcome(&self) -> Option<Option<Color>> {
        // The King of the side to move was captured by infiltration, or a flip ended it.
        if self.king_square(self.turn()).is_none() {
            return Some(Some(self.turn().other()));
        }
        self.flip().map(|f| Some(f.winner))
    }

    fn variant(&self) -> &'static str {
        "cypher"
    }
    fn geometry(&self) -> &Geometry {
        tables::geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<CypherMove>) {
        if !self.ended_quickly() {
            // Room for a typical position's turns at once: growing the list one doubling at
            // a time was a tenth of a search's time.
            moves.reserve(96);
            self.generate(true, moves);
        }
    }
    fn legal_noisy_moves(&self, moves: &mut Vec<CypherMove>) -> bool {
        // Only the noisy turns are generated: quiescence asks at most of its nodes.
        self.legal_noisy(moves)
    }
    fn play(&mut self, mv: CypherMove) {
        self.play_move(mv);
    }
    fn is_check(&self) -> bool {
        // A valid position's check counter says it (12.3), and `play_move` keeps it so.
        let check = self.checks[self.turn.other() as usize] > 0;
        debug_assert_eq!(check, self.board.in_check(self.turn, true));
        check
    }
    /// `false` only when the turn surely gives no check (ordinary turns are judged from the
    /// board; combined moves, infiltrations and coups always say `true`).
    #[inline]
    fn may_give_check(&self, mv: CypherMove) -> bool {
        self.may_check(mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.decide()
    }
    fn points_for(&self, outcome: &Outcome) -> Option<menagerie_core::Points> {
        endings_points(outcome)
    }
    fn outcome_in_play(&self, repetitions: usize) -> Option<Outcome> {
        self.decide().or_else(|| {
            (repetitions >= 3).then(|| Outcome::draw(Termination::Repetition).with_points(0.5, 0.5))
        })
    }
    fn key(&self) -> u64 {
        self.hash_key()
    }
    fn fen(&self) -> String {
        fen::write(self)
    }
    fn move_text(&self, mv: CypherMove) -> String {
        notation::canonical(mv)
    }
    fn move_human(&self, mv: CypherMove) -> String {
        let mut legal = Vec::new();
        self.generate(true, &mut legal);
        notation::human(self, mv, &legal)
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        let (color, kind) = self.man_at(sq.index())?;
        let c = kind.letter();
        Some(if color == Color::White {
            c
        } else {
            c.to_ascii_lowercase()
        })
    }
    fn is_noisy(&self, mv: CypherMove) -> bool {
        match mv.kind {
            // A coup is a pawn move that may also capture; a release only drops a pawn back,
            // and counting it noisy would let quiescence drop every prisoner in turn.
            TurnKind::Normal | TurnKind::Coup => self.man_at(mv.to as usize).is_some(),
            TurnKind::Combined | TurnKind::Release => false,
            TurnKind::Infiltration => true,
        }
    }
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    fn parse_move(&self, text: &str) -> Result<CypherMove, MoveError> {
        notation::parse(self, text)
    }
    fn empty_glyph(&self, sq: Square) -> char {
        match CypherPosition::sector(sq.index()) {
            Sector::Court => ':',
            Sector::Border => '=',
            Sector::Field => '.',
        }
    }
    fn diagram_notes(&self) -> Vec<String> {
        let mut notes = vec!["empty squares: ':' Court, '=' Border, '.' Field".to_string()];
        let retake = match self.retake_square() {
            Some(sq) => format!(
                "re-take: the {} on {} may be re-taken this turn by a Field major piece or the Field King",
                self.man_at(sq).map_or("man", |(_, k)| k.name()),
                notation::square_name(sq)
            ),
            None => "re-take: none".into(),
        };
        notes.push(retake);
        let right = |c: Color| {
            if self.can_infiltrate(c) {
                "yes"
            } else {
                "used"
            }
        };
        notes.push(format!(
            "infiltration right: White {}, Black {}",
            right(Color::White),
            right(Color::Black)
        ));
        notes.push(format!(
            "consecutive checks (4 draws): White {}, Black {}",
            self.checks[0], self.checks[1]
        ));
        notes.push(format!(
            "prisoner pools: White {}, Black {}",
            self.pools[0], self.pools[1]
        ));
        if let Some(o) = self.decide() {
            notes.push(format!("game over: {o}"));
        }
        notes
    }
    fn perft(&self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<CypherMove>> =
            (0..depth).map(|_| Vec::with_capacity(128)).collect();
        self.count(depth, &mut buffers)
    }
    fn turn_shape(&self, mv: CypherMove) -> menagerie_core::TurnShape {
        self.shape_of(mv)
    }
    fn piece_info(&self, sq: Square) -> Option<menagerie_core::PieceInfo> {
        self.piece_info_at(sq)
    }
    fn square_marks(&self, sq: Square) -> Vec<menagerie_core::Mark> {
        self.marks_of(sq)
    }
}

/// Draws the position with the generic diagram (regions marked, notes underneath).
pub fn draw(pos: &CypherPosition) -> String {
    diagram::diagram(pos, diagram::DiagramOptions::default())
}
