//! The game trait every variant implements, and the outcome of a game.

use crate::error::MoveError;
use crate::geometry::{Geometry, Square};
use crate::snapshot::{Mark, PieceInfo};
use crate::turn::{TurnKind, TurnShape};
use std::fmt;
use std::hash::Hash;

/// A side: White moves first. JSON: `"white"`, `"black"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
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

/// The rule that ended a game: a stable [`Termination::code`] plus a sentence for people.
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
    /// A player's clock ran out.
    TimeForfeit,
    /// The game was decided by an arbiter or a match rule (a move limit, ...).
    Adjudication,
    /// A game-specific ending: a stable `code` (`flip`, `king-capture`, `deadlock`, ...)
    /// and the rule's sentence in the game's own words.
    Rule {
        /// Lower case, words joined by `-`: stable for records and statistics.
        code: String,
        /// The ending in the rulebook's words (`flip: White's King flipped Black's Spy`).
        sentence: String,
    },
}

impl Termination {
    /// A game-specific ending with a stable `code` and a `sentence` for people.
    pub fn rule(code: impl Into<String>, sentence: impl Into<String>) -> Self {
        Termination::Rule {
            code: code.into(),
            sentence: sentence.into(),
        }
    }
    /// The termination a record's code names: the core endings by their codes, anything
    /// else a [`Termination::Rule`] with `sentence` (the code itself when empty).
    pub fn from_code(code: &str, sentence: &str) -> Self {
        match code {
            "checkmate" => Termination::Checkmate,
            "stalemate" => Termination::Stalemate,
            "repetition" => Termination::Repetition,
            "fifty-moves" => Termination::FiftyMoves,
            "dead-position" => Termination::DeadPosition,
            "resignation" => Termination::Resignation,
            "agreement" => Termination::Agreement,
            "forfeit" => Termination::Forfeit,
            "time-forfeit" => Termination::TimeForfeit,
            "adjudication" => Termination::Adjudication,
            other => Termination::rule(other, if sentence.is_empty() { other } else { sentence }),
        }
    }
    /// The ending in words a player understands.
    pub fn describe(&self) -> String {
        self.sentence().to_string()
    }
    /// The ending in words a player understands (`checkmate`, `threefold repetition`, ...).
    pub fn sentence(&self) -> &str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "threefold repetition",
            Termination::FiftyMoves => "the fifty-move rule",
            Termination::DeadPosition => "dead position, neither side can checkmate",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::Forfeit => "forfeit",
            Termination::TimeForfeit => "time forfeit",
            Termination::Adjudication => "adjudication",
            Termination::Rule { sentence, .. } => sentence,
        }
    }
    /// A short stable code for records and statistics (`checkmate`, `flip`, ...).
    pub fn code(&self) -> String {
        self.code_str().to_string()
    }
    /// [`Termination::code`] without a copy.
    pub fn code_str(&self) -> &str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::FiftyMoves => "fifty-moves",
            Termination::DeadPosition => "dead-position",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::Forfeit => "forfeit",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Adjudication => "adjudication",
            Termination::Rule { code, .. } => code,
        }
    }
}

/// Points each side scores, where a game defines a scoring table.
/// JSON: `{"white":3.0,"black":0.0}`.
#[derive(Clone, Copy, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Points {
    /// White's points.
    pub white: f32,
    /// Black's points.
    pub black: f32,
}

/// How a finished game ended. JSON: `{"winner":"white"|"black"|null,"code":"checkmate",
/// "sentence":"White wins by checkmate","points":{"white":3.0,"black":0.0}|null,"result":"1-0"}`.
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
    /// The ending in one sentence without the points: `White wins by checkmate`,
    /// `Draw by threefold repetition`, `White wins: flip: White's King flipped Black's Spy`.
    pub fn sentence(&self) -> String {
        match (&self.winner, &self.termination) {
            (Some(w), Termination::Rule { sentence, .. }) => format!("{w} wins: {sentence}"),
            (Some(w), t) => format!("{w} wins by {}", t.sentence()),
            (None, Termination::Rule { sentence, .. }) => format!("Draw: {sentence}"),
            (None, t @ Termination::DeadPosition) => format!("Draw: {}", t.sentence()),
            (None, t) => format!("Draw by {}", t.sentence()),
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
        f.write_str(&self.sentence())?;
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
    /// Appends the legal moves that [`Position::is_noisy`] accepts, in
    /// [`Position::legal_moves`]' order, and says whether there is any legal move at all:
    /// quiescence searches only these but must still see a position without moves. Games
    /// whose generator can skip the quiet moves override it. Default: every legal move,
    /// then the quiet ones dropped.
    fn legal_noisy_moves(&self, moves: &mut Vec<Self::Move>) -> bool {
        let start = moves.len();
        self.legal_moves(moves);
        let any = moves.len() > start;
        let mut keep = start;
        for i in start..moves.len() {
            if self.is_noisy(moves[i]) {
                moves[keep] = moves[i];
                keep += 1;
            }
        }
        moves.truncate(keep);
        any
    }
    /// Plays `mv`, which must be one of [`Position::legal_moves`].
    fn play(&mut self, mv: Self::Move);
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;
    /// Whether playing the legal move `mv` may leave the opponent in check: `false` only
    /// when it certainly does not (a search then skips a pruned quiet move without playing
    /// it). Default: `true`, always safe.
    #[inline]
    fn may_give_check(&self, _mv: Self::Move) -> bool {
        true
    }
    /// The ending the position alone decides (checkmate, stalemate, a flip, ...), if any.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash key; equal for positions the repetition rule counts as the same.
    fn key(&self) -> u64;
    /// The position string: the umpire's, with every secret (Little Cheops Imperial's sealed
    /// papers). It is never for a player: players get [`Position::view_fen`], spectators the
    /// public string (the view of [`Viewer::Spectator`]).
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

    /// The shape of `mv` (one of the legal turns here) for front ends: its kind and the
    /// squares a board needs to enter it by pointing. Never called by move generation.
    /// Default: kind `move`, no parts (every game overrides it).
    fn turn_shape(&self, _mv: Self::Move) -> TurnShape {
        TurnShape::bare(TurnKind::Move)
    }

    /// The shape of `mv` as `viewer` may know it once played: without squares where they
    /// are the mover's secret (an opponent's appointment in Little Cheops Imperial). Call it
    /// on the umpire's position. Default: [`Position::turn_shape`].
    fn turn_shape_seen_by(&self, mv: Self::Move, _viewer: Viewer) -> TurnShape {
        self.turn_shape(mv)
    }

    /// The piece on `sq` for a board: its kind in the game's own words (lower case), its
    /// owner and its letter. Default: from [`Position::piece_char`], the letter as the kind.
    fn piece_info(&self, sq: Square) -> Option<PieceInfo> {
        let c = self.piece_char(sq)?;
        Some(PieceInfo::from_letter(
            c,
            c.to_ascii_lowercase().to_string(),
        ))
    }

    /// The marks of `sq` (regions, Castles, arrestees, Deputies) as this position knows
    /// them. Default: none.
    fn square_marks(&self, _sq: Square) -> Vec<Mark> {
        Vec::new()
    }

    /// Whether players know less than the umpire (sealed papers): then a player's or a
    /// spectator's view differs from the position. Default: no.
    fn has_secrets(&self) -> bool {
        false
    }

    /// The position as `viewer` may know it: what that viewer may not know is removed (the
    /// opponent's sealed papers for a player, every secret for a spectator). Default: a copy.
    fn seen_by(&self, _viewer: Viewer) -> Self {
        self.clone()
    }

    /// The turns the rules offer in place of `ending` (an ending decided by history, which
    /// the position alone does not decide): Little Cheops R36, at a repetition with an
    /// abdication available, the side to move chooses an abdication or the draw. Empty (the
    /// default) when the ending stands.
    fn choices_instead_of(&self, _ending: &Outcome) -> Vec<Self::Move> {
        Vec::new()
    }

    /// The claims the rulebook lets either player make at any time without using a turn
    /// (Little Cheops: the fifty-round challenge). Default: none.
    fn claim_rules(&self) -> &'static [ClaimRule] {
        &[]
    }

    /// The ending that the claim `code`, made `turns_since` turns ago, forces now (if the
    /// count it starts has run out). Default: none.
    fn claim_outcome(&self, _code: &str, _turns_since: u32) -> Option<Outcome> {
        None
    }

    /// The points the game's rules give an ending decided from outside the board
    /// (resignation, agreement, a clock): Cypher's scoring table gives a resignation 4 to
    /// the winner and an agreed draw 0.5 each. Default: none (the game counts no points).
    fn points_for(&self, _outcome: &Outcome) -> Option<Points> {
        None
    }

    /// Counts leaves `depth` plies ahead; games override this with faster counting.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft_generic(self, depth)
    }

    /// Whether the position is drawn by a rule the position alone decides that
    /// [`Position::outcome`] leaves to the game (a dead position, an expired move count),
    /// for searches that must not play on in a drawn position. Default: never.
    fn rule_draw(&self) -> bool {
        false
    }

    /// The position after the side to move passes, for a search's null-move pruning: `None`
    /// where the game has no pass or assuming one is unsound (in check, or where zugzwang is
    /// common, such as a chess side with only King and Pawns). A search only uses it to
    /// prune, never as a move. Default: none.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// An ending seen without generating moves (a flip, a captured King), for searches:
    /// `Some(Some(winner))`, `Some(None)` for a draw, `None` when there is none or it needs
    /// the legal moves. Default: none.
    fn quick_outcome(&self) -> Option<Option<Color>> {
        None
    }

    /// The position as `player` knows it when the game hides something from players (Little
    /// Cheops Imperial's sealed papers): the opponent's secrets removed, the player's own
    /// kept. `None` when nothing is hidden. An engine playing `player` searches this.
    fn hidden_view(&self, _player: Color) -> Option<Self> {
        None
    }

    /// The positions the side to move must reckon with, `self` being its
    /// [`Position::hidden_view`]: one per possible secret of the opponent, `self` (no
    /// secret) first. Empty when nothing is hidden.
    fn hypotheses(&self) -> Vec<Self> {
        Vec::new()
    }

    /// The key of this position, one of the game's earlier positions as the side now to move
    /// saw it (its [`Position::hidden_view`]), as it would be with the opponent's secrets of
    /// `hypothesis` (one of the current view's [`Position::hypotheses`]): a search of that
    /// hypothesis compares the game's earlier positions by these keys, since its own
    /// positions carry secrets the views leave out. Default: [`Position::key`].
    fn key_under(&self, _hypothesis: &Self) -> u64 {
        self.key()
    }
}

/// Who looks at a game: a player, a spectator, or the umpire who sees everything.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Viewer {
    /// One of the players: sees the public position and that side's own secrets.
    Player(Color),
    /// Anyone else: sees the public position only.
    Spectator,
    /// The umpire (the server, an arbiter): sees everything.
    Umpire,
}

impl Viewer {
    /// The player, or `None` for a spectator or the umpire.
    pub fn player(self) -> Option<Color> {
        match self {
            Viewer::Player(c) => Some(c),
            _ => None,
        }
    }
    /// The viewer's name: `white`, `black`, `spectator` or `umpire`.
    pub fn code(self) -> &'static str {
        match self {
            Viewer::Player(Color::White) => "white",
            Viewer::Player(Color::Black) => "black",
            Viewer::Spectator => "spectator",
            Viewer::Umpire => "umpire",
        }
    }
}

/// A claim a player may make outside the turns (the fifty-round challenge, ...).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClaimRule {
    /// The claim's stable code (`challenge`).
    pub code: &'static str,
    /// What it does, in the rulebook's words.
    pub sentence: &'static str,
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

#[cfg(feature = "serde")]
mod outcome_serde {
    use super::{Color, Outcome, Points, Termination};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Wire {
        winner: Option<Color>,
        code: String,
        sentence: String,
        points: Option<Points>,
        result: String,
    }

    impl Serialize for Outcome {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            Wire {
                winner: self.winner,
                code: self.termination.code(),
                sentence: self.sentence(),
                points: self.points,
                result: self.result().to_string(),
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Outcome {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let w = Wire::deserialize(d)?;
            // The sentence carries the winner ("White wins: ..."); the rule's own words follow.
            let rule_words = w
                .sentence
                .split_once(": ")
                .map_or(w.sentence.as_str(), |(_, rest)| rest);
            Ok(Outcome {
                winner: w.winner,
                termination: Termination::from_code(&w.code, rule_words),
                points: w.points,
            })
        }
    }

    impl Serialize for super::Viewer {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.code())
        }
    }
}
