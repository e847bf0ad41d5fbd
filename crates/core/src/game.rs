//! A game in progress: a position plus its history, with push/pop like python-chess, the
//! endings that depend on history (repetition, move counts, the rulebook's claims), the
//! endings from outside the position (resignation, agreement, time, adjudication), and the
//! game as one viewer may see it.

use crate::error::MoveError;
use crate::position::{strip_marks, Color, Outcome, Position, Termination, Viewer};
use crate::snapshot::BoardSnapshot;
use crate::turn::{TurnInfo, TurnKind, TurnShape};
use std::collections::HashMap;

/// A claim a player may make now (JSON: `{"code":"challenge","sentence":"...","by":null}`).
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Claim {
    /// The claim's code, what [`Game::claim`] takes (`challenge`, `draw`).
    pub code: String,
    /// What the claim does, in words.
    pub sentence: String,
    /// Who may make it: one side, or `None` for either player.
    pub by: Option<Color>,
}

/// A claim made during the game (for records): when, by whom, which.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MadeClaim {
    /// The number of turns played when it was made.
    pub ply: usize,
    /// The player who made it.
    pub by: Color,
    /// The claim's code.
    pub code: String,
}

/// A game from a start position: the moves played so far and every position reached, the
/// claims made and the ending decided from outside the position, if any.
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    positions: Vec<P>,
    moves: Vec<P::Move>,
    /// An ending from outside the position (resignation, ...), or a view's announced one.
    ending: Option<Outcome>,
    claims: Vec<MadeClaim>,
    viewer: Viewer,
    /// In a view of a game with secrets: the choices the umpire offered (R36) at this ply,
    /// and the ending they stand in for.
    offered: Option<(usize, Vec<P::Move>, Outcome)>,
    /// In a view of a game with secrets: the turns played before the view was taken, as
    /// the umpire told them to the viewer (texts and squares).
    told: Vec<Told>,
    /// How often each position key occurs in `positions`: the repetition count is read here
    /// instead of hashing every earlier position at every turn (which made a game's cost
    /// grow with the square of its length).
    occurrences: HashMap<u64, u32>,
}

/// A turn as the umpire tells it to one viewer: its texts and its squares.
#[derive(Clone, Debug)]
struct Told {
    canonical: String,
    human: String,
    shape: TurnShape,
}

/// Where a game stands: over, waiting for a choice the rules offer, or going on.
enum State<M> {
    Over(Outcome),
    Choices(Vec<M>, Outcome),
    Open,
}

/// The canonical and human text of `mv`, played from `pos` (the umpire's position), as
/// `viewer` may know it ([`Position::move_seen_by`]).
fn seen_texts<P: Position>(pos: &P, mv: P::Move, viewer: Viewer) -> (String, String) {
    match viewer {
        Viewer::Umpire => (pos.move_text(mv), pos.move_human(mv)),
        Viewer::Player(c) => pos.move_seen_by(mv, Some(c)),
        Viewer::Spectator => pos.move_seen_by(mv, None),
    }
}

impl<P: Position> Game<P> {
    /// A new game starting from `start`, seen by the umpire (everything).
    pub fn new(start: P) -> Self {
        let occurrences = HashMap::from([(start.key(), 1)]);
        Game {
            positions: vec![start],
            moves: Vec::new(),
            ending: None,
            claims: Vec::new(),
            viewer: Viewer::Umpire,
            offered: None,
            told: Vec::new(),
            occurrences,
        }
    }
    /// The occurrences of each key in `positions`, counted afresh (after they are replaced).
    fn count_occurrences(positions: &[P]) -> HashMap<u64, u32> {
        let mut counts = HashMap::new();
        for p in positions {
            *counts.entry(p.key()).or_insert(0) += 1;
        }
        counts
    }
    /// The current position.
    pub fn position(&self) -> &P {
        // Invariant: `positions` always holds the start position.
        &self.positions[self.positions.len() - 1]
    }
    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }
    /// The moves played, in order.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }
    /// The positions reached, the start first and the current one last.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }
    /// Who this game is seen by ([`Viewer::Umpire`] unless it is a [`Game::view`]).
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }
    /// Whether this is a restricted view: the game has secrets and the viewer is not the
    /// umpire.
    fn restricted(&self) -> bool {
        self.viewer != Viewer::Umpire && self.position().has_secrets()
    }
    /// Where the game stands, computed once: an ending from outside first, then the
    /// position's own, then history's (unless the rules offer a choice instead, R36), then
    /// the endings the claims made force.
    fn state(&self) -> State<P::Move> {
        if let Some(e) = &self.ending {
            return State::Over(e.clone());
        }
        if self.restricted() {
            // A view knows only what the umpire announced when it was taken.
            return match &self.offered {
                Some((ply, moves, o)) if *ply == self.moves.len() => {
                    State::Choices(moves.clone(), o.clone())
                }
                _ => State::Open,
            };
        }
        let pos = self.position();
        if let Some(o) = pos.outcome_in_play(self.repetitions()) {
            if pos.outcome().is_some() {
                return State::Over(o);
            }
            let choices = pos.choices_instead_of(&o);
            return if choices.is_empty() {
                State::Over(o)
            } else {
                State::Choices(choices, o)
            };
        }
        let ply = self.moves.len();
        let forced = self.claims.iter().find_map(|c| {
            let since = u32::try_from(ply - c.ply).unwrap_or(u32::MAX);
            pos.claim_outcome(&c.code, since)
        });
        forced.map_or(State::Open, State::Over)
    }
    /// The legal moves in `state` (none once over; in a player's view of a game with
    /// secrets none unless it is that player's turn; none for a spectator there).
    fn moves_in(&self, state: State<P::Move>) -> Vec<P::Move> {
        if self.restricted() && self.viewer != Viewer::Player(self.position().turn()) {
            return Vec::new();
        }
        match state {
            State::Over(_) => Vec::new(),
            State::Choices(moves, _) => moves,
            State::Open => {
                let mut moves = Vec::new();
                self.position().legal_moves(&mut moves);
                moves
            }
        }
    }
    /// The legal moves now (none once the game has ended; at a repetition where the rules
    /// offer a choice, the choice; in a player's view of a game with secrets, none unless it
    /// is that player's turn, and none for a spectator).
    pub fn legal_moves(&self) -> Vec<P::Move> {
        self.moves_in(self.state())
    }
    /// Plays `mv` after checking that it is legal and the game is not over.
    pub fn push(&mut self, mv: P::Move) -> Result<(), MoveError> {
        let state = self.state();
        self.push_in(mv, state)
    }
    /// Plays `mv` in `state` (this game's, just computed: each computation generates the
    /// position's moves, so a turn computes it once). The move is checked against the
    /// game's legal moves even when a parser named it: a game's own parser is not trusted
    /// to know the game's history-dependent limits.
    fn push_in(&mut self, mv: P::Move, state: State<P::Move>) -> Result<(), MoveError> {
        if let State::Over(o) = &state {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let pos = self.position();
        if !self.moves_in(state).contains(&mv) {
            return Err(MoveError::Illegal {
                text: pos.move_text(mv),
                reason: "it is not a legal move in this position".into(),
            });
        }
        let mut next = pos.clone();
        next.play(mv);
        *self.occurrences.entry(next.key()).or_insert(0) += 1;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }
    /// Reads `text` (canonical or human notation) and plays it.
    pub fn push_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        let state = self.state();
        if let State::Over(o) = &state {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let pos = self.position();
        if self.restricted() && self.viewer != Viewer::Player(pos.turn()) {
            return Err(MoveError::Illegal {
                text: text.trim().to_string(),
                reason: format!("it is {}'s turn", pos.turn().name()),
            });
        }
        let choices = match &state {
            State::Choices(moves, _) => moves.clone(),
            _ => Vec::new(),
        };
        let mv = if choices.is_empty() {
            pos.parse_move(text)?
        } else {
            let t = strip_marks(text);
            let found: Vec<P::Move> = choices
                .iter()
                .copied()
                .filter(|&m| {
                    pos.move_text(m).eq_ignore_ascii_case(t)
                        || strip_marks(&pos.move_human(m)).eq_ignore_ascii_case(t)
                })
                .collect();
            match found.as_slice() {
                [m] => *m,
                _ => {
                    let offered: Vec<String> = choices.iter().map(|&m| pos.move_text(m)).collect();
                    return Err(MoveError::Illegal {
                        text: text.trim().to_string(),
                        reason: format!(
                            "the position has occurred again and the rules offer only a choice: {}",
                            offered.join(", ")
                        ),
                    });
                }
            }
        };
        self.push_in(mv, state)?;
        Ok(mv)
    }
    /// Takes back the last move and returns it, with the claims made after it and any
    /// ending from outside.
    pub fn pop(&mut self) -> Option<P::Move> {
        let mv = self.moves.pop()?;
        if let Some(left) = self.positions.pop() {
            let key = left.key();
            if let Some(n) = self.occurrences.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.occurrences.remove(&key);
                }
            }
        }
        let ply = self.moves.len();
        self.claims.retain(|c| c.ply <= ply);
        self.told.truncate(ply);
        self.ending = None;
        Some(mv)
    }
    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let key = self.position().key();
        self.occurrences.get(&key).map_or(0, |&n| n as usize)
    }
    /// The ending: one from outside the position (resignation, agreement, time,
    /// adjudication) first, then the position's own, then the game's draws by repetition or
    /// move count (unless the rules offer a choice instead, R36), then the endings the
    /// claims made force. A view of a game with secrets reports the umpire's ending as it
    /// was when the view was taken.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.state() {
            State::Over(o) => Some(o),
            _ => None,
        }
    }
    /// The ending decided from outside the position (resignation, agreement, time forfeit,
    /// adjudication), if any: what a record states beyond its moves.
    pub fn ending(&self) -> Option<&Outcome> {
        self.ending.as_ref()
    }
    /// Ends the game from outside with `outcome`, if it is not over yet.
    fn end(&mut self, outcome: Outcome) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let mut outcome = outcome;
        if outcome.points.is_none() {
            outcome.points = self.position().points_for(&outcome);
        }
        self.ending = Some(outcome);
        Ok(())
    }
    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Color) -> Result<(), MoveError> {
        self.end(Outcome::win(side.other(), Termination::Resignation))
    }
    /// The players agree a draw.
    pub fn agree_draw(&mut self) -> Result<(), MoveError> {
        self.end(Outcome::draw(Termination::Agreement))
    }
    /// `side`'s clock ran out: the other side wins.
    pub fn forfeit_on_time(&mut self, side: Color) -> Result<(), MoveError> {
        self.end(Outcome::win(side.other(), Termination::TimeForfeit))
    }
    /// An arbiter or a match rule decides the game: `outcome` stands as given.
    pub fn adjudicate(&mut self, outcome: Outcome) -> Result<(), MoveError> {
        self.end(outcome)
    }
    /// The claims that may be made now: the choice the rules offer at a repetition (R36,
    /// by the side to move), and the rulebook's claims not made yet (either player).
    pub fn claims(&self) -> Vec<Claim> {
        let pos = self.position();
        let mut out: Vec<Claim> = match self.state() {
            State::Over(_) => return Vec::new(),
            State::Open => Vec::new(),
            State::Choices(moves, ending) => moves
                .into_iter()
                .filter(|&m| pos.turn_shape(m).kind == TurnKind::Claim)
                .map(|m| Claim {
                    code: pos.move_text(m),
                    sentence: format!("accept the ending: {}", ending.sentence()),
                    by: Some(pos.turn()),
                })
                .collect(),
        };
        for rule in pos.claim_rules() {
            if !self.claims.iter().any(|c| c.code == rule.code) {
                out.push(Claim {
                    code: rule.code.to_string(),
                    sentence: rule.sentence.to_string(),
                    by: None,
                });
            }
        }
        if let Viewer::Player(me) = self.viewer {
            out.retain(|c| c.by.is_none_or(|b| b == me));
        }
        out
    }
    /// `by` makes the claim `code` (one of [`Game::claims`]). A choice at a repetition is
    /// played as the turn it is; a rulebook claim is recorded and its count starts now.
    pub fn claim(&mut self, by: Color, code: &str) -> Result<(), MoveError> {
        let offered = self.claims();
        let Some(claim) = offered
            .iter()
            .find(|c| c.code.eq_ignore_ascii_case(code.trim()))
        else {
            let names: Vec<&str> = offered.iter().map(|c| c.code.as_str()).collect();
            return Err(MoveError::Illegal {
                text: code.trim().to_string(),
                reason: if names.is_empty() {
                    "no claim can be made now".into()
                } else {
                    format!("the claims open now are: {}", names.join(", "))
                },
            });
        };
        if claim.by.is_some_and(|b| b != by) {
            return Err(MoveError::Illegal {
                text: code.trim().to_string(),
                reason: format!(
                    "only {} may make this claim now",
                    self.position().turn().name()
                ),
            });
        }
        if claim.by.is_some() {
            let code = claim.code.clone();
            self.push_text(&code)?;
        } else {
            self.claims.push(MadeClaim {
                ply: self.moves.len(),
                by,
                code: claim.code.clone(),
            });
        }
        Ok(())
    }
    /// The rulebook claims made so far, in order.
    pub fn made_claims(&self) -> &[MadeClaim] {
        &self.claims
    }
    /// The game as `viewer` may see it: every position as that viewer may know it, the same
    /// turns (their texts as the viewer may know them, see [`Game::history_texts`]), the
    /// claims made, and the umpire's ending. Games with no secrets give a copy.
    pub fn view(&self, viewer: Viewer) -> Game<P> {
        if self.restricted() {
            // A view of a view knows no more than the view it is taken of, whoever looks.
            let mut g = self.clone();
            g.positions = self.positions.iter().map(|p| p.seen_by(viewer)).collect();
            g.occurrences = Self::count_occurrences(&g.positions);
            g.told = (0..self.moves.len())
                .map(|i| {
                    let (canonical, human) = self.history_text(i).unwrap_or_default();
                    let shape = self.told.get(i).map_or_else(
                        || self.positions[i].turn_shape(self.moves[i]),
                        |t| t.shape.clone(),
                    );
                    Told {
                        canonical,
                        human,
                        shape,
                    }
                })
                .collect();
            // Nobody becomes the umpire of a view.
            if viewer != Viewer::Umpire {
                g.viewer = viewer;
            }
            return g;
        }
        if viewer == Viewer::Umpire || !self.position().has_secrets() {
            let mut g = self.clone();
            g.viewer = viewer;
            return g;
        }
        let (ending, offered) = match self.state() {
            State::Over(o) => (Some(o), None),
            State::Choices(moves, o) => (None, Some((self.moves.len(), moves, o))),
            State::Open => (None, None),
        };
        let told = self
            .positions
            .iter()
            .zip(&self.moves)
            .map(|(p, &m)| {
                let (canonical, human) = seen_texts(p, m, viewer);
                Told {
                    canonical,
                    human,
                    shape: p.turn_shape_seen_by(m, viewer),
                }
            })
            .collect();
        let positions: Vec<P> = self.positions.iter().map(|p| p.seen_by(viewer)).collect();
        Game {
            occurrences: Self::count_occurrences(&positions),
            positions,
            moves: self.moves.clone(),
            ending,
            claims: self.claims.clone(),
            viewer,
            offered,
            told,
        }
    }
    /// The turns played as `(canonical, human)` text, as this game's viewer may know them
    /// (in a view, as the umpire told them; turns played on the view itself as its own
    /// position writes them).
    pub fn history_texts(&self) -> Vec<(String, String)> {
        (0..self.moves.len())
            .filter_map(|i| self.history_text(i))
            .collect()
    }
    /// The text of turn `index` (0 the first), as this game's viewer may know it.
    pub fn history_text(&self, index: usize) -> Option<(String, String)> {
        if let Some(t) = self.told.get(index) {
            return Some((t.canonical.clone(), t.human.clone()));
        }
        let mv = *self.moves.get(index)?;
        let pos = &self.positions[index];
        Some(if self.viewer == Viewer::Umpire || self.restricted() {
            // The umpire's own texts; a view's own turns, written by its own position.
            (pos.move_text(mv), pos.move_human(mv))
        } else {
            seen_texts(pos, mv, self.viewer)
        })
    }
    /// The shape of the last turn as the viewer may know it (an opponent's secret turn
    /// without squares), if any turn was played.
    pub fn last_shape(&self) -> Option<TurnShape> {
        let index = self.moves.len().checked_sub(1)?;
        if let Some(t) = self.told.get(index) {
            return Some(t.shape.clone());
        }
        let mv = self.moves[index];
        Some(self.positions[index].turn_shape_seen_by(mv, self.viewer))
    }
    /// The legal turns with their texts, kinds and squares, sorted by canonical text.
    pub fn turns(&self) -> Vec<TurnInfo> {
        let pos = self.position();
        let g = pos.geometry();
        let mut out: Vec<TurnInfo> = self
            .legal_moves()
            .into_iter()
            .map(|m| {
                pos.turn_shape(m)
                    .info(g, pos.move_text(m), pos.move_human(m))
            })
            .collect();
        out.sort_by(|a, b| a.canonical.cmp(&b.canonical));
        out
    }
    /// The board as this game's viewer may see it, with the last turn's squares.
    pub fn snapshot(&self) -> BoardSnapshot {
        BoardSnapshot::of(self.position(), self.last_shape().as_ref())
    }
}
