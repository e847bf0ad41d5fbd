//! Little Cheops for front ends: the shape of each turn (kind and squares), the pieces'
//! names (the piece file's role names: `king`, `prime-minister`, ...), the marks of every square (bastions, chairs, rooms, Castles and their owners,
//! arrestees, Deputies), the position as each viewer may know it, and the rulebook's claims
//! (the repetition choice R36, the fifty-round challenge R38). Only front ends and the
//! core's `Game` call this; move generation never does.

use crate::pieces::{CIVILIAN, DEPUTY, ROLE_NAMES};
use crate::position::{cell_color, cell_role, sqb, CheopsMove, CheopsPosition, TurnKind};
use menagerie_core::{
    BitBoard, ClaimRule, Color, Mark, Outcome, PieceInfo, Square, Termination, TurnKind as Kind,
    TurnPart, TurnShape, Viewer,
};

/// The claims of 12.2 that either player may make at any time.
pub(crate) const CLAIMS: &[ClaimRule] = &[ClaimRule {
    code: "challenge",
    sentence: "challenge the opponent to show a mate: if 50 rounds then pass with no Pawn \
               move, capture, arrest or checkmate, the game is drawn (R38)",
}];

impl CheopsPosition {
    /// The kind of `mv` and its squares: each hop of a chain from where the last landed,
    /// the arrested square and its room, the appointed, inspected or promoted piece, the
    /// King and the Duke of an abdication; a repetition draw is a claim with no squares.
    pub fn shape_of(&self, mv: CheopsMove) -> TurnShape {
        let r = self.rules();
        let promotion = mv.promotion().map(|p| r.table.def(p).letter);
        let (from, to) = (mv.from(), mv.to());
        match mv.kind {
            TurnKind::Move => {
                let captured = (self.board[to.index()] != 0).then_some(to);
                let mut part = TurnPart::step(from, to).capturing(captured);
                part.promotion = promotion;
                let kind = if promotion.is_some() {
                    Kind::Promotion
                } else if part.captures.is_empty() {
                    Kind::Move
                } else {
                    Kind::Capture
                };
                TurnShape::new(kind, vec![part])
            }
            TurnKind::HallPromotion => {
                let mut part = TurnPart::at(to);
                part.promotion = promotion;
                TurnShape::new(Kind::HallPromotion, vec![part])
            }
            TurnKind::Hop => {
                let mut parts = Vec::new();
                let mut prev = from;
                for landing in mv.landings(self.rules.n) {
                    parts.push(TurnPart::step(prev, landing));
                    prev = landing;
                }
                let room = mv.arrest_room();
                if let (Some(room), Some(last)) = (room, parts.last_mut()) {
                    let (a, b) = (last.from.unwrap_or(from), last.to.unwrap_or(to));
                    let mid = Square((a.0 + b.0) / 2);
                    last.captures.push(mid);
                    last.room = Some(room);
                }
                let kind = if room.is_some() {
                    Kind::Arrest
                } else {
                    Kind::HopChain
                };
                TurnShape::new(kind, parts)
            }
            TurnKind::Appoint => TurnShape::new(Kind::Appointment, vec![TurnPart::at(to)]),
            TurnKind::Inspect => TurnShape::new(Kind::Inspection, vec![TurnPart::point(to)]),
            TurnKind::Abdicate => TurnShape::new(Kind::Abdication, vec![TurnPart::step(from, to)]),
            TurnKind::Draw => TurnShape::bare(Kind::Claim),
        }
    }

    /// The shape of `mv` as `viewer` is told it once played: an appointment's Civilian is
    /// its owner's secret (§15), so others see an appointment with no square.
    pub fn shape_seen_by(&self, mv: CheopsMove, viewer: Viewer) -> TurnShape {
        let secret = mv.kind == TurnKind::Appoint
            && self.rules.style == crate::rules::Style::Imperial
            && viewer != Viewer::Umpire
            && viewer != Viewer::Player(self.turn);
        if secret {
            TurnShape::bare(Kind::Appointment)
        } else {
            self.shape_of(mv)
        }
    }

    /// The piece on `s` with its name (`king`, `civilian`, ...): a Civilian this position
    /// knows to be a Deputy (known, or sealed papers it holds) is a `deputy`.
    pub fn piece_info_at(&self, s: Square) -> Option<PieceInfo> {
        let c = *self.board.get(s.index())?;
        if c == 0 {
            return None;
        }
        let mut role = cell_role(c);
        if role == CIVILIAN && (self.known | self.papers).has(sqb(s.index())) {
            role = DEPUTY;
        }
        let name = ROLE_NAMES.get(role).copied().unwrap_or("piece");
        Some(PieceInfo::new(name, cell_color(c), self.letter(c)))
    }

    /// The marks of `s`: the Castle squares (bastion, chair, room; active or inactive and
    /// the owner of an active one), an arrestee, a known Deputy, and a sealed Deputy where
    /// this position holds its papers (the umpire's, or its owner's view).
    pub fn marks_of(&self, s: Square) -> Vec<Mark> {
        let r = self.rules();
        let i = s.index();
        if i >= r.n * r.n {
            return Vec::new();
        }
        let mut marks = Vec::new();
        for c in self.castles() {
            let chair = c.chair as usize;
            let bastion = r.corners(chair).contains(&i);
            let hall = r.halls(chair).contains(&i);
            if !bastion && !hall {
                continue;
            }
            marks.push(if bastion {
                Mark::Bastion
            } else if i == chair {
                Mark::Chair
            } else {
                Mark::Room
            });
            if c.active {
                marks.push(Mark::CastleActive);
                marks.push(match c.owner {
                    Color::White => Mark::CastleWhite,
                    Color::Black => Mark::CastleBlack,
                });
            } else {
                marks.push(Mark::CastleInactive);
            }
        }
        let b = sqb(i);
        if self.frozen.has(b) && !self.bastions.has(b) && self.board[i] != 0 {
            marks.push(Mark::Arrestee);
        }
        if self.known.has(b) {
            marks.push(Mark::DeputyKnown);
        }
        if self.papers.has(b) {
            marks.push(Mark::DeputySealed);
        }
        marks
    }

    /// The position as `viewer` may know it: a player keeps only their own sealed papers, a
    /// spectator none, the umpire all.
    pub fn seen_as(&self, viewer: Viewer) -> Self {
        match viewer {
            Viewer::Umpire => Clone::clone(self),
            Viewer::Player(c) => self.view(c).into_position(),
            Viewer::Spectator => {
                let mut seen = self.view(Color::White).into_position();
                seen.papers = crate::rules::Bits::EMPTY;
                seen
            }
        }
    }

    /// The turns offered in place of `ending`: at a repetition, the abdications and `draw`
    /// (12.2, R36); nothing otherwise.
    pub fn choices_instead(&self, ending: &Outcome) -> Vec<CheopsMove> {
        if ending.termination == Termination::Repetition && !self.draw_accepted {
            self.repetition_choices()
        } else {
            Vec::new()
        }
    }

    /// The ending a claim `code` made `turns_since` turns ago forces now (the challenge).
    pub fn claim_ending(&self, code: &str, turns_since: u32) -> Option<Outcome> {
        (code == "challenge")
            .then(|| self.challenge_outcome(turns_since))
            .flatten()
    }
}
