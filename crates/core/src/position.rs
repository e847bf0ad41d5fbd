//! The game trait every variant implements, and the outcome of a game.

use crate::error::MoveError;
use crate::geometry::{Geometry, Square};
use std::fmt;
use std::hash::Hash;

/// A side: White moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White,
    /// The other side.
    Black,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black, for table look-ups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The side's name with a capital letter.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
    /// The letter used in position strings: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
    /// Both sides, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule that ended a game.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The same position arose for the third time.
    Repetition,
    /// Fifty moves by each side without a capture or a pawn move.
    FiftyMoves,
    /// Neither side can ever checkmate with the material on the board.
    DeadPosition,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A player ran out of time or moves in a match (platform ending).
    Forfeit,
    /// A game-specific ending, in the game's own words (`flip: White's King flipped Black's Spy`).
    Rule(String),
}

impl Termination {
    /// The ending in words a player understands.
    pub fn describe(&self) -> String {
        match self {
            Termination::Checkmate => "checkmate".into(),
            Termination::Stalemate => "stalemate".into(),
            Termination::Repetition => "threefold repetition".into(),
            Termination::FiftyMoves => "the fifty-move rule".into(),
            Termination::DeadPosition => "dead position, neither side can checkmate".into(),
            Termination::Resignation => "resignation".into(),
            Termination::Agreement => "agreement".into(),
            Termination::Forfeit => "forfeit".into(),
            Termination::Rule(text) => text.clone(),
        }
    }
    /// A short stable code for records and statistics (`checkmate`, `stalemate`, ...).
    pub fn code(&self) -> String {
        match self {
            Termination::Checkmate => "checkmate".into(),
            Termination::Stalemate => "stalemate".into(),
            Termination::Repetition => "repetition".into(),
            Termination::FiftyMoves => "fifty-moves".into(),
            Termination::DeadPosition => "dead-position".into(),
            Termination::Resignation => "resignation".into(),
            Termination::Agreement => "agreement".into(),
            Termination::Forfeit => "forfeit".into(),
            Termination::Rule(text) => text
                .split(':')
                .next()
                .unwrap_or("rule")
                .trim()
                .replace(' ', "-"),
        }
    }
}

/// Points each side scores, where a game defines a scoring table.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Points {
    /// White's points.
    pub white: f32,
    /// Black's points.
    pub black: f32,
}

/// How a finished game ended.
#[derive(Clone, PartialEq, Debug)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that ended the game.
    pub termination: Termination,
    /// The points, where the game's rules define them.
    pub points: Option<Points>,
}

impl Outcome {
    /// A win for `winner` by `termination`.
    pub fn win(winner: Color, termination: Termination) -> Self {
        Outcome {
            winner: Some(winner),
            termination,
            points: None,
        }
    }
    /// A draw by `termination`.
    pub fn draw(termination: Termination) -> Self {
        Outcome {
            winner: None,
            termination,
            points: None,
        }
    }
    /// The same outcome with points attached.
    pub fn with_points(mut self, white: f32, black: f32) -> Self {
        self.points = Some(Points { white, black });
        self
    }
    /// The result as a record writes it: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
    /// The score of `side`: 1, 0.5 or 0.
    pub fn score(&self, side: Color) -> f32 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.winner, &self.termination) {
            (Some(w), Termination::Rule(t)) => write!(f, "{w} wins: {t}")?,
            (Some(w), t) => write!(f, "{w} wins by {}", t.describe())?,
            (None, Termination::Rule(t)) => write!(f, "Draw: {t}")?,
            (None, t @ Termination::DeadPosition) => write!(f, "Draw: {}", t.describe())?,
            (None, t) => write!(f, "Draw by {}", t.describe())?,
        }
        if let Some(p) = self.points {
            write!(
                f,
                "; points White {}, Black {}",
                fmt_points(f64::from(p.white)),
                fmt_points(f64::from(p.black))
            )?;
        }
        Ok(())
    }
}

/// A number of points as people write it: `1`, `0.5`, `2.5`.
pub fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{}", p as i64)
    } else {
        format!("{p}")
    }
}

/// A position of one game: the rules of that game, with no I/O.
///
/// Modelled on shakmaty's `Position` and python-chess's `Board`: a position knows its legal
/// moves (each a whole turn, however many parts it has), plays them, reports the outcome that
/// the position alone decides, and reads and writes its position string and move text.
/// History-dependent endings (repetition, move counts) live in [`crate::game::Game`].
pub trait Position: Clone + Send + Sync + 'static {
    /// One whole turn.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    /// The variant id (`chess`, `vyrt`, ...).
    fn variant(&self) -> &'static str;
    /// The board.
    fn geometry(&self) -> &Geometry;
    /// The side to move.
    fn turn(&self) -> Color;
    /// Appends every legal move to `moves`; none when the game has ended by a rule that
    /// perft counts (mate, stalemate, a flip, ...). Draws by material alone (dead
    /// positions) are reported by [`Position::outcome`] but, as in every perft tool, do not
    /// empty this list.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);
    /// Plays `mv`, which must be one of [`Position::legal_moves`].
    fn play(&mut self, mv: Self::Move);
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;
    /// The ending the position alone decides (checkmate, stalemate, a flip, ...), if any.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash key; equal for positions the repetition rule counts as the same.
    fn key(&self) -> u64;
    /// The position string.
    fn fen(&self) -> String;
    /// The canonical machine text of `mv`, played from this position.
    fn move_text(&self, mv: Self::Move) -> String;
    /// The human notation of `mv` (SAN in chess), played from this position.
    fn move_human(&self, mv: Self::Move) -> String;
    /// The canonical and human text of `mv`, played from this position, as `viewer` may
    /// know it (`None`: a spectator): what records, announcements, move lists and events
    /// shown to that viewer say. Games with hidden information (Little Cheops Imperial)
    /// hide what the viewer may not know and add what the turn reveals (an inspection's
    /// answer); call it on the full (umpire's) position. The default: the full texts,
    /// [`Position::move_text`] and [`Position::move_human`].
    fn move_seen_by(&self, mv: Self::Move, _viewer: Option<Color>) -> (String, String) {
        (self.move_text(mv), self.move_human(mv))
    }
    /// The board letter of the piece on `sq` (upper case White), if any.
    fn piece_char(&self, sq: Square) -> Option<char>;
    /// Whether `mv` changes material (a capture, promotion, ...), for quiescence search.
    fn is_noisy(&self, mv: Self::Move) -> bool;

    /// The position string as `player` may see it. Games with hidden information (Little
    /// Cheops Imperial) hide what that player may not know; [`Position::fen`] is the
    /// umpire's full string. The default: everything is public.
    fn view_fen(&self, _player: Color) -> String {
        self.fen()
    }

    /// The halfmove clock, for move-count rules; 0 where the game keeps none.
    fn halfmove_clock(&self) -> u32 {
        0
    }

    /// The ending once history is taken into account: `repetitions` is how often the
    /// current position has occurred (1 the first time). Default: the position's outcome,
    /// then threefold repetition.
    fn outcome_in_play(&self, repetitions: usize) -> Option<Outcome> {
        self.outcome()
            .or_else(|| (repetitions >= 3).then(|| Outcome::draw(Termination::Repetition)))
    }

    /// Reads a move in any form the game accepts (canonical or human) and returns the legal
    /// move it names, or says in one sentence why it cannot be played.
    ///
    /// The canonical text as written comes first, then the human text (check marks
    /// ignored), then the canonical text in any case: so a human text that reads as another
    /// move's canonical text in another case keeps its own meaning.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let trimmed = text.trim();
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let pick = |same: &dyn Fn(Self::Move) -> bool| -> Vec<Self::Move> {
            moves.iter().copied().filter(|&m| same(m)).collect()
        };
        let mut found = pick(&|m| self.move_text(m) == trimmed);
        if found.is_empty() {
            found = pick(&|m| strip_marks(&self.move_human(m)) == strip_marks(trimmed));
        }
        if found.is_empty() {
            found = pick(&|m| self.move_text(m).eq_ignore_ascii_case(trimmed));
        }
        match found.as_slice() {
            [m] => Ok(*m),
            [] => Err(unmatched_move(self, trimmed, &moves)),
            many => Err(MoveError::Ambiguous {
                text: trimmed.to_string(),
                candidates: many
                    .iter()
                    .map(|&m| self.move_text(m))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// The glyph of an empty square in diagrams; games mark regions with it.
    fn empty_glyph(&self, _sq: Square) -> char {
        '.'
    }

    /// Lines printed under a diagram (legends, provisional pieces, game state).
    fn diagram_notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// Counts leaves `depth` plies ahead; games override this with faster counting.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_generic(self, depth)
    }
}

/// Why `text`, which matches none of the `legal` moves of `pos`, cannot be played: text that
/// names no square of the board is not a move of the game at all; text that names a
/// departure and an arrival square is checked for a piece of the side to move on the first.
pub fn unmatched_move<P: Position>(pos: &P, text: &str, legal: &[P::Move]) -> MoveError {
    let g = pos.geometry();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < text.len() {
        match text.get(i..).and_then(|rest| g.parse_square_prefix(rest)) {
            Some((sq, used)) => {
                squares.push(sq);
                i += used;
            }
            None => i += text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if squares.is_empty() {
        let expected = match legal.first() {
            Some(&m) => format!("a move names its squares, as in {}", pos.move_text(m)),
            None => "a move names its squares".to_string(),
        };
        return MoveError::not_a_move(pos.variant(), text, expected);
    }
    let reason = match (squares.len(), pos.piece_char(squares[0])) {
        (2.., None) => format!("there is no piece on {}", g.square_name(squares[0])),
        (2.., Some(c)) if c.is_ascii_uppercase() != (pos.turn() == Color::White) => format!(
            "the piece on {} is not {}'s",
            g.square_name(squares[0]),
            pos.turn()
        ),
        _ => "no legal move matches it".to_string(),
    };
    MoveError::Illegal {
        text: text.to_string(),
        reason,
    }
}

/// A move's text without check and mate marks, for lenient comparison.
pub fn strip_marks(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

/// What a front end needs to offer one variant: its id, words for people, its start, its
/// rule options and how to read its position strings.
pub struct VariantSpec<P> {
    /// The variant id (`chess`, `little-cheops-imperial`, ...).
    pub id: &'static str,
    /// The game's name for people.
    pub name: &'static str,
    /// One line about the game.
    pub summary: &'static str,
    /// The start position string.
    pub start_fen: &'static str,
    /// The rule options the game offers (defaults first in each).
    pub options: &'static [crate::options::RuleOption],
    /// Reads a position string under the chosen options.
    pub from_fen: fn(&str, &crate::options::RuleOptions) -> Result<P, crate::error::PositionError>,
}

impl<P> Clone for VariantSpec<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for VariantSpec<P> {}
