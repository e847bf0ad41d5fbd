//! Vyrt Chess (variant id `vyrt`): orthodox chess on a 12x12 torus, as ruled by the project's
//! rulebook `rules/vyrt.md`.
//!
//! Every edge wraps: a slider's ray goes round its 12-square circle and stops before its
//! origin, a blocker stops a ray in one direction only (the "other side" rule), and two routes
//! to one square are one move. Each side has the eight classic pieces in the middle of the
//! board and 22 pawns in a ring around them; pawns promote on the rank where the enemy King
//! started.
//!
//! The move generator keeps a 12-bit occupancy mask for every rank, file and diagonal circle
//! and reads a slider's reach from a 2,048-entry table after rotating the mask (see
//! `src/tables.rs`). Legality is "make the move and look outward from
//! the King", done without making it: only a move's from- and to-squares change, so a unit
//! other than the King can only expose its King when it is pinned, and pins are found by
//! looking both ways round each of the King's four lines. In check, and for en passant and
//! castling, every move is tested on the King's lines with exactly the squares it changes.
//!
//! ## Where each rule lives (sections of `rules/vyrt.md`)
//!
//! | rule | file |
//! |---|---|
//! | the board, its labels and the torus (§3) | `src/lib.rs` (`geometry`), `src/tables.rs` |
//! | how the units move (§5): slider circles, Knight, King, pawns | `src/tables.rs`, `src/position.rs` (`gen`) |
//! | castling (§6.1) | `src/position/castling.rs` |
//! | en passant across the seam (§6.2) | `src/position/en_passant.rs` |
//! | promotion (§6.3) | `src/position.rs` (`gen`, pawns), `src/tables.rs` (`PROMOTION_Y`) |
//! | check and pins on the torus (§7.2) | `src/position.rs` (`pins`, `attacked_after`) |
//! | results and automatic draws (§7.1) | `src/lib.rs` (`outcome`, `outcome_in_play`) |
//! | dead positions (§7.3) | `src/position/dead_positions.rs` |
//! | position strings (§8) | `src/fen.rs` |
//! | moves as text (§9) | `src/notation.rs` |
//! | rule options (§10) | `src/lib.rs` (`OPTIONS`, `Rules::from_options`); rulebook codes cited: `src/guide.rs` |

#![warn(missing_docs)]

#[macro_use]
mod guide;
mod describe;
mod fen;
mod notation;
mod position;
mod tables;

use menagerie_core::options::{RuleOption, RuleOptions};
use menagerie_core::{Color, Geometry, MoveError, Outcome, Position, PositionError, Square};
use menagerie_core::{RuleError, Termination, VariantSpec};
use std::sync::LazyLock;

pub use position::{Rules, SideTerms, VyrtMove, VyrtPosition};

/// The start position string (§8).
pub const START_FEN: &str = "12/1pppppppppp1/1prnbqkbnrp1/1pppppppppp1/12/12/12/12/1PPPPPPPPPP1/1PRNBQKBNRP1/1PPPPPPPPPP1/12 w KQkq - LABCDEFGHI/labcdefghi 0 1";

/// The rule options of §10; the first value of each is the rulebook's ruling.
pub const OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "double-step-any-unmoved",
        values: &["off", "on"],
        help: concat!(
            "every pawn that has never moved may double-step, flank and back-row pawns \
             included (rival to ",
            guide!(double_step),
            "); the position string's fifth field then lists squares"
        ),
    },
    RuleOption {
        name: "reversed-back-pawns",
        values: &["off", "on"],
        help: concat!(
            "the back-row pawns (ranks 12 and 9) walk and capture away from the centre and \
             promote after four steps (rival to ",
            guide!(back_row_pawns),
            ")"
        ),
    },
];

static GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| {
    Geometry::rectangle(12, 12)
        .with_wrap(true, true)
        .with_names(
            &["K", "L", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J"],
            &[
                "11", "12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
            ],
        )
});

/// The board: files K L A..J from White's left, ranks 11 12 1..10 from White's side, both
/// pairs of edges joined (§3). Square index `12 * y + x` as in §3.2.
pub fn geometry() -> &'static Geometry {
    &GEOMETRY
}

impl Rules {
    /// The rules chosen by `options` (validated against [`OPTIONS`]).
    pub fn from_options(options: &RuleOptions) -> Result<Rules, RuleError> {
        let o = options.read(OPTIONS)?;
        Ok(Rules {
            double_step_any_unmoved: o.is("double-step-any-unmoved", "on"),
            reversed_back_pawns: o.is("reversed-back-pawns", "on"),
        })
    }
}

impl VyrtPosition {
    /// The start position (§4) under `rules`.
    pub fn start(rules: Rules) -> VyrtPosition {
        let mut pos = fen::parse(START_FEN, Rules::default()).expect("the start position");
        pos.rules = rules;
        if rules.double_step_any_unmoved {
            pos.double_step = pos.pawns_on_original_squares();
            pos.rehash();
        }
        pos
    }

    /// Reads a position string (§8) under `rules`; the error names the field at fault.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<VyrtPosition, PositionError> {
        fen::parse(fen, rules)
    }

    /// Reads a position string under the rule options chosen by name. Under
    /// `double-step-any-unmoved` the default start string [`START_FEN`] stands for that
    /// option's start position, so a front end can always begin from the spec's start.
    pub fn from_fen_with_options(
        fen: &str,
        options: &RuleOptions,
    ) -> Result<VyrtPosition, PositionError> {
        let rules = Rules::from_options(options)?;
        if rules.double_step_any_unmoved && fen.trim() == START_FEN {
            return Ok(Self::start(rules));
        }
        fen::parse(fen, rules)
    }

    /// Every square's unit as a board letter byte (upper case White, 0 when empty), indexed
    /// by square: the whole board at once for an evaluation.
    pub fn letters(&self) -> [u8; 144] {
        const BY_CODE: [u8; 16] = [
            0, b'P', b'N', b'B', b'R', b'Q', b'K', 0, 0, b'p', b'n', b'b', b'r', b'q', b'k', 0,
        ];
        self.board.map(|code| BY_CODE[(code & 15) as usize])
    }

    /// The square of `color`'s King, if it has one (a position string may set none).
    pub fn king_square(&self, color: Color) -> Option<Square> {
        let k = usize::from(self.king[color.index()]);
        (k < 144).then_some(Square(k as u16))
    }

    /// A key of the Pawns alone (both sides' Pawn sets), the same wherever the other units
    /// stand: the structure an evaluation misjudges the same way move after move.
    pub fn pawn_key(&self) -> u64 {
        const MIX: [[u64; 3]; 2] = [
            [
                0xff51_afd7_ed55_8ccd,
                0x9e37_79b9_7f4a_7c15,
                0xbf58_476d_1ce4_e5b9,
            ],
            [
                0xc4ce_b9fe_1a85_ec53,
                0x94d0_49bb_1331_11eb,
                0xd6e8_feb8_6659_fd93,
            ],
        ];
        let mut key = 0u64;
        for (side, mix) in MIX.iter().enumerate() {
            for (word, m) in self.pawns[side].0.iter().zip(mix) {
                key ^= word.wrapping_mul(*m).rotate_left(17 * side as u32 + 7);
            }
        }
        key
    }

    /// The unit on `sq` as a board letter (upper case White), if any.
    pub fn unit_at(&self, sq: Square) -> Option<char> {
        let code = *self.board.get(sq.index())?;
        (code != 0).then(|| position::letter(code))
    }

    /// Whether `sq` is attacked by a unit of `by` as the board stands, counting attacks that
    /// come across the seams and either way round a line. Every unit blocks, the Kings
    /// included: the squares a King may not step to are those attacked once it has left.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        sq.index() < 144 && self.attacked(sq.index(), by.index())
    }

    /// How many pushes a pawn of `color` on `sq` still needs to reach its promotion rank
    /// under the rules in force (`reversed-back-pawns` turns the back-row pawns round);
    /// 0 on the promotion rank itself.
    pub fn pawn_steps_to_promotion(&self, color: Color, sq: Square) -> u32 {
        let reading = usize::from(self.rules().reversed_back_pawns);
        u32::from(tables::PAWN_STEPS[reading][color.index()][sq.index() % 144])
    }

    /// The two squares a pawn of `color` on `sq` captures on under the rules in force.
    pub fn pawn_capture_squares(&self, color: Color, sq: Square) -> [Square; 2] {
        let reading = usize::from(self.rules().reversed_back_pawns);
        let [l, r] = tables::PAWNS[reading].captures[color.index()][sq.index() % 144];
        [Square(u16::from(l)), Square(u16::from(r))]
    }

    /// Whether the material on the board is a dead position of §7.3 (a draw at once in play;
    /// move lists and perft ignore it).
    pub fn is_dead_position(&self) -> bool {
        self.is_dead()
    }

    /// Whether the fifty-move rule has been reached (halfmove clock 100).
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmove >= 100
    }

    /// The fullmove number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
}

/// Whether `sq` is a light square: `x + y` odd (§3.4, R3), so J11 is light and A1 dark.
pub fn is_light(sq: Square) -> bool {
    (sq.index() % 12 + sq.index() / 12) % 2 == 1
}

/// The start position string under `rules` (the fifth field differs under
/// `double-step-any-unmoved`).
pub fn start_fen(rules: Rules) -> String {
    VyrtPosition::start(rules).fen()
}

impl std::fmt::Debug for VyrtPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VyrtPosition({})", self.fen())
    }
}

impl Position for VyrtPosition {
    type Move = VyrtMove;

    fn rule_draw(&self) -> bool {
        self.is_dead_position() || self.is_fifty_moves()
    }

    fn variant(&self) -> &'static str {
        "vyrt"
    }
    fn geometry(&self) -> &Geometry {
        geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<VyrtMove>) {
        // Room for a typical position's moves at once rather than doubling step by step.
        moves.reserve(96);
        self.generate::<false>(moves);
    }
    fn legal_noisy_moves(&self, moves: &mut Vec<VyrtMove>) -> bool {
        // Only the noisy moves are generated: quiescence asks at most of its nodes.
        self.generate_noisy(moves)
    }
    fn play(&mut self, mv: VyrtMove) {
        self.make(mv);
    }
    fn is_check(&self) -> bool {
        self.in_check()
    }
    /// Exact but for castling and en passant (always `true`): a search skips the pruned
    /// quiet moves that do not check without playing them.
    #[inline]
    fn may_give_check(&self, mv: VyrtMove) -> bool {
        self.may_check(mv)
    }
    /// Checkmate, stalemate, then the dead positions of §7.3.
    fn outcome(&self) -> Option<Outcome> {
        if self.generate::<true>(&mut Vec::new()) == 0 {
            return Some(if self.in_check() {
                Outcome::win(self.turn.other(), Termination::Checkmate)
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        self.is_dead()
            .then(|| Outcome::draw(Termination::DeadPosition))
    }
    /// Adds the automatic draws of play: threefold repetition and the fifty-move rule (a
    /// checkmate on the move that reaches the clock's 100 stands).
    fn outcome_in_play(&self, repetitions: usize) -> Option<Outcome> {
        self.outcome().or_else(|| {
            if repetitions >= 3 {
                Some(Outcome::draw(Termination::Repetition))
            } else if self.is_fifty_moves() {
                Some(Outcome::draw(Termination::FiftyMoves))
            } else {
                None
            }
        })
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn fen(&self) -> String {
        fen::write(self)
    }
    fn move_text(&self, mv: VyrtMove) -> String {
        notation::canonical(mv)
    }
    fn move_human(&self, mv: VyrtMove) -> String {
        notation::human(self, mv)
    }
    fn parse_move(&self, text: &str) -> Result<VyrtMove, MoveError> {
        notation::parse(self, text)
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        self.unit_at(sq)
    }
    fn is_noisy(&self, mv: VyrtMove) -> bool {
        self.board[mv.t()] != 0 || mv.is_en_passant() || mv.promo() != 0
    }
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    fn diagram_notes(&self) -> Vec<String> {
        vec!["The board is a torus: file J joins file K, rank 10 joins rank 11.".into()]
    }
    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
    fn turn_shape(&self, mv: VyrtMove) -> menagerie_core::TurnShape {
        self.shape_of(mv)
    }
    fn piece_info(&self, sq: Square) -> Option<menagerie_core::PieceInfo> {
        self.piece_info_at(sq)
    }
}

fn spec_from_fen(fen: &str, options: &RuleOptions) -> Result<VyrtPosition, PositionError> {
    VyrtPosition::from_fen_with_options(fen, options)
}

/// The variants this crate provides: `vyrt`.
pub fn variants() -> Vec<VariantSpec<VyrtPosition>> {
    vec![VariantSpec {
        id: "vyrt",
        name: "Vyrt Chess",
        summary: "Orthodox chess on a 12x12 torus: every edge wraps, 30 units a side, 22 pawns \
                  in a ring (V. Malashenkov)",
        start_fen: START_FEN,
        options: OPTIONS,
        from_fen: spec_from_fen,
    }]
}
