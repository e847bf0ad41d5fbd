//! Orthodox chess (FIDE Laws) on Menagerie's core: the calibration game, whose perft
//! numbers and rival engines are known.
//!
//! The board tables come from the core [`Geometry`](menagerie_core::Geometry) (leaps, rays,
//! square names); move generation uses 64-bit bitboards with magic slider look-ups and
//! pin-aware legal generation, counting the last perft ply without playing it.
//!
//! ## Where each rule lives (FIDE Laws, `rules/chess.md`)
//!
//! | rule | file |
//! |---|---|
//! | the board, the pieces' moves (Laws 3.1-3.7) | `src/attacks.rs` (tables), `src/movegen.rs` |
//! | en passant and promotion (3.7) | `src/movegen.rs` (`pawn_moves`), `src/board.rs` (`make`) |
//! | castling (3.8.2) | `src/castling.rs` |
//! | check, pins, legal moves (3.9, 3.10) | `src/movegen.rs` |
//! | checkmate, stalemate, dead positions, fifty moves, repetition (5, 9) | `src/lib.rs` |
//! | FEN | `src/fen.rs` |
//! | SAN and UCI, reading moves | `src/san.rs`; why a move is illegal: `src/explain.rs` |

#![warn(missing_docs)]

pub mod attacks;
pub mod board;
mod castling;
mod describe;
mod explain;
pub mod fen;
mod magics;
pub mod movegen;
mod san;

pub use board::{Chess, Move, MoveKind, Role};
pub use fen::START_FEN;

use menagerie_core::{
    Color, Geometry, MoveError, Outcome, Position, PositionError, RuleOptions, Square, Termination,
    VariantSpec,
};

/// The variants this crate serves: `chess`.
pub fn variants() -> Vec<VariantSpec<Chess>> {
    vec![VariantSpec {
        id: "chess",
        name: "Orthodox chess",
        summary: "FIDE chess on 8x8, the calibration game with known perft numbers",
        start_fen: START_FEN,
        options: &[],
        from_fen: |fen, options: &RuleOptions| {
            options
                .validate(&[])
                .map_err(|e| PositionError::new("rule options", e.to_string()))?;
            Chess::from_fen(fen)
        },
    }]
}

impl Default for Chess {
    fn default() -> Self {
        // The start string is a constant known to parse.
        Chess::from_fen(START_FEN).unwrap_or_else(|_| Chess::empty())
    }
}

impl Chess {
    /// The start position.
    pub fn start() -> Self {
        Self::default()
    }

    /// Whether neither side can ever checkmate (FIDE dead positions that material decides):
    /// K v K, K+minor v K, and bishops all on one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role[Role::Pawn as usize]
            | self.by_role[Role::Rook as usize]
            | self.by_role[Role::Queen as usize];
        if heavy != 0 {
            return false;
        }
        let knights = self.by_role[Role::Knight as usize];
        let bishops = self.by_role[Role::Bishop as usize];
        let minors = (knights | bishops).count_ones();
        if minors <= 1 {
            return true;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        knights == 0 && (bishops & DARK == 0 || bishops & !DARK == 0)
    }

    fn uci(&self, mv: Move) -> String {
        let g = attacks::geometry();
        let mut s = format!(
            "{}{}",
            g.square_name(Square(mv.from as u16)),
            g.square_name(Square(mv.to as u16))
        );
        if let Some(role) = mv.promotion {
            s.push(role.letter().to_ascii_lowercase());
        }
        s
    }
}

impl Position for Chess {
    type Move = Move;

    fn rule_draw(&self) -> bool {
        self.is_insufficient_material() || self.halfmove >= 100
    }

    fn variant(&self) -> &'static str {
        "chess"
    }
    fn geometry(&self) -> &Geometry {
        attacks::geometry()
    }
    fn turn(&self) -> Color {
        self.turn
    }
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(&mut movegen::Collect(moves));
    }
    fn legal_noisy_moves(&self, moves: &mut Vec<Move>) -> bool {
        self.noisy_moves(moves)
    }
    fn play(&mut self, mv: Move) {
        self.make(mv);
    }
    fn is_check(&self) -> bool {
        self.in_check()
    }
    fn may_give_check(&self, mv: Move) -> bool {
        self.gives_check(mv)
    }
    fn null_move(&self) -> Option<Self> {
        // Zugzwang is common when a side has only King and Pawns: no pass there.
        let own = self.by_color[self.turn.index()];
        let pieces = own & !(self.by_role[Role::Pawn as usize] | self.by_role[Role::King as usize]);
        if pieces == 0 || self.in_check() {
            return None;
        }
        let mut p = self.clone();
        p.make_null();
        Some(p)
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.count_moves() > 0 {
            return None;
        }
        Some(if self.in_check() {
            Outcome::win(self.turn.other(), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::Stalemate)
        })
    }
    fn outcome_in_play(&self, repetitions: usize) -> Option<Outcome> {
        // Mate and stalemate first: a mate on the hundredth halfmove still wins.
        self.outcome().or_else(|| {
            if self.is_insufficient_material() {
                Some(Outcome::draw(Termination::DeadPosition))
            } else if repetitions >= 3 {
                Some(Outcome::draw(Termination::Repetition))
            } else if self.halfmove >= 100 {
                Some(Outcome::draw(Termination::FiftyMoves))
            } else {
                None
            }
        })
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn fen(&self) -> String {
        self.to_fen()
    }
    fn move_text(&self, mv: Move) -> String {
        self.uci(mv)
    }
    fn move_human(&self, mv: Move) -> String {
        san::to_san(self, mv)
    }
    fn piece_char(&self, sq: Square) -> Option<char> {
        self.piece_at(sq.0 as u8).map(|(c, r)| match c {
            Color::White => r.letter(),
            Color::Black => r.letter().to_ascii_lowercase(),
        })
    }
    fn is_noisy(&self, mv: Move) -> bool {
        mv.promotion.is_some()
            || mv.kind == MoveKind::EnPassant
            || self.piece_at(mv.to).is_some() && mv.kind != MoveKind::Castle
    }
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        san::parse(self, text)
    }
    fn diagram_notes(&self) -> Vec<String> {
        let f = self.to_fen();
        let rest: Vec<&str> = f.split(' ').skip(2).collect();
        vec![format!(
            "castling {}, en passant {}, halfmove clock {}, move {}",
            rest.first().unwrap_or(&"-"),
            rest.get(1).unwrap_or(&"-"),
            self.halfmove,
            self.fullmove
        )]
    }
    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
    fn turn_shape(&self, mv: Move) -> menagerie_core::TurnShape {
        self.shape_of(mv)
    }
    fn piece_info(&self, sq: Square) -> Option<menagerie_core::PieceInfo> {
        self.piece_info_at(sq)
    }
}
