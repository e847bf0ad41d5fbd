//! Move text (rulebook §13): the machine form, the recorder notation, reading both, and
//! error messages that name the rule forbidding a move.

use crate::pieces::{class, CIVILIAN, DEPUTY, DUKE, PAWN};
use crate::position::{cell_color, cell_role, sqb, CheopsMove, CheopsPosition, TurnKind, NONE};
use crate::rules::{Rules, Style};
use menagerie_core::{BitBoard, MoveError, Position};

impl CheopsPosition {
    /// The machine form (§13.2): `e2e3`, `e8e9=Q`, `c4=Q`, `g5:g7@c10`, `appoint:g5`, ...
    pub fn machine_text(&self, mv: &CheopsMove) -> String {
        let r: &Rules = &self.rules;
        let (from, to) = (r.name(mv.from as usize), r.name(mv.to as usize));
        let promo = |s: &mut String| {
            if mv.promo != NONE {
                s.push('=');
                s.push(r.table.def(mv.promo as usize).letter);
            }
        };
        match mv.kind {
            TurnKind::Move => {
                let mut s = format!("{from}{to}");
                promo(&mut s);
                s
            }
            TurnKind::HallPromotion => {
                let mut s = to;
                promo(&mut s);
                s
            }
            TurnKind::Hop => {
                let mut s = from;
                for l in mv.landings() {
                    s.push(':');
                    s.push_str(&r.name(l.index()));
                }
                if let Some(room) = mv.arrest_room() {
                    s.push('@');
                    s.push_str(&r.name(room.index()));
                }
                s
            }
            TurnKind::Appoint => format!("appoint:{to}"),
            TurnKind::Inspect => format!("inspect:{to}"),
            TurnKind::Abdicate => format!("{from}->{to}"),
            TurnKind::Draw => "draw".into(),
        }
    }

    /// The recorder abbreviation of the piece on `s` as the public record shows it: a Deputy
    /// is written `D` only once it is known.
    fn recorder_at(&self, s: usize) -> String {
        let c = self.board[s];
        if c == 0 {
            return "?".into();
        }
        let mut role = cell_role(c);
        if role == CIVILIAN && self.known.has(sqb(s)) {
            role = DEPUTY;
        }
        self.rules.table.def(role).recorder.clone()
    }

    /// The recorder's action (§13.1) without the round: `Q f1Xf7`, `D g5:1:g7 N(c10)`, ...
    pub fn recorder_action(&self, mv: &CheopsMove) -> String {
        let r: &Rules = &self.rules;
        let (from, to) = (r.name(mv.from as usize), r.name(mv.to as usize));
        let promo = || {
            if mv.promo != NONE {
                format!("={}", r.table.def(mv.promo as usize).recorder)
            } else {
                String::new()
            }
        };
        match mv.kind {
            TurnKind::Move => {
                let sep = if self.board[mv.to as usize] != 0 {
                    'X'
                } else {
                    '-'
                };
                format!(
                    "{} {from}{sep}{to}{}",
                    self.recorder_at(mv.from as usize),
                    promo()
                )
            }
            TurnKind::HallPromotion => format!("{} {to}{}", r.table.def(PAWN).recorder, promo()),
            TurnKind::Hop => {
                // A hop always shows the hopper for what it is: the hop compromises it.
                let role = self.move_role(mv.from as usize, self.board[mv.from as usize]);
                let mut s = format!("{} {from}:{}:{to}", r.table.def(role).recorder, mv.hops);
                if let Some(room) = mv.arrest_room() {
                    let prev = if mv.hops >= 2 {
                        mv.path[mv.hops as usize - 2] as usize
                    } else {
                        mv.from as usize
                    };
                    let mid = (prev + mv.to as usize) / 2;
                    s.push_str(&format!(
                        " {}({})",
                        self.recorder_at(mid),
                        r.name(room.index())
                    ));
                }
                s
            }
            TurnKind::Appoint => format!("appoints {}", r.table.def(CIVILIAN).recorder),
            TurnKind::Inspect => format!(
                "inspects {} {to} ({})",
                r.table.def(CIVILIAN).recorder,
                if self.papers.has(sqb(mv.to as usize)) || self.known.has(sqb(mv.to as usize)) {
                    "Deputy"
                } else {
                    "Civilian"
                }
            ),
            TurnKind::Abdicate => {
                format!("{} {from}->{to}", r.table.def(crate::pieces::KING).recorder)
            }
            TurnKind::Draw => "draw".into(),
        }
    }

    /// The full recorder notation: round, side (`a` White, `b` Black) and action.
    pub fn recorder_text(&self, mv: &CheopsMove) -> String {
        let side = match self.turn {
            menagerie_core::Color::White => 'a',
            menagerie_core::Color::Black => 'b',
        };
        format!("{}{side} {}", self.fullmove, self.recorder_action(mv))
    }

    /// Reads a move in machine form or recorder notation (with or without the round), and
    /// returns the legal move it names or the rule that forbids it. The answer depends only
    /// on what the side to move may see: the opponent's papers are set aside first.
    pub fn read_move(&self, text: &str) -> Result<CheopsMove, MoveError> {
        let seen = self.view(self.turn).into_position();
        seen.read_move_seen(text)
    }

    fn read_move_seen(&self, text: &str) -> Result<CheopsMove, MoveError> {
        let trimmed = text.trim();
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.to_string()));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let action = strip_round(trimmed);
        let lower = action.to_ascii_lowercase();
        let found: Vec<CheopsMove> = moves
            .iter()
            .copied()
            .filter(|m| {
                let machine = self.machine_text(m);
                if machine.eq_ignore_ascii_case(action) {
                    return true;
                }
                // A stored public record's inspection carries the umpire's answer.
                if m.kind == TurnKind::Inspect
                    && (lower == format!("{}=d", machine) || lower == format!("{}=c", machine))
                {
                    return true;
                }
                if m.kind == TurnKind::Appoint && lower == "appoint" {
                    return true;
                }
                let human = self.recorder_action(m);
                if human.eq_ignore_ascii_case(action) {
                    return true;
                }
                // An inspection may be asked for without its answer.
                if m.kind == TurnKind::Inspect {
                    let asked = format!("inspects C {}", self.rules.name(m.to as usize));
                    return asked.eq_ignore_ascii_case(action);
                }
                false
            })
            .collect();
        match found.as_slice() {
            [m] => Ok(*m),
            [] => Err(self.diagnose(trimmed, action)),
            many => Err(MoveError::Ambiguous {
                text: trimmed.to_string(),
                candidates: many
                    .iter()
                    .map(|m| self.machine_text(m))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// Says why `action` cannot be played, naming the rule where possible.
    fn diagnose(&self, text: &str, action: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let r: &Rules = &self.rules;
        let me = self.turn;
        let lower = action.to_ascii_lowercase();
        let sq = |t: &str| r.geometry.parse_square(t).ok().map(|s| s.index());
        let imperial = r.style == Style::Imperial;
        if lower == "draw" {
            return illegal("a draw can be accepted only at a third repetition where an abdication was possible (12.2)".into());
        }
        if let Some(rest) = lower.strip_prefix("appoint:") {
            if !imperial {
                return illegal(
                    "there are no Castles, so no appointments, in the Common style (R29)".into(),
                );
            }
            let king = self.kings[me.index()];
            if !self
                .castles()
                .iter()
                .any(|c| c.active && c.owner == me && c.chair == king)
            {
                return illegal(
                    "only a King on the chair of a Castle his side holds may appoint (10.1)".into(),
                );
            }
            return match sq(rest) {
                Some(s) if self.appointable(me).has(sqb(s)) => {
                    illegal("your King would be in check (7.5)".into())
                }
                Some(s) => illegal(format!(
                    "{} holds no active Civilian of yours that is not already a Deputy (10.1)",
                    r.name(s)
                )),
                None => syntax(text, "appoint: needs a square"),
            };
        }
        if let Some(rest) = lower.strip_prefix("inspect:") {
            if !imperial {
                return illegal(
                    "there are no Deputies, so no inspections, in the Common style (R29)".into(),
                );
            }
            let Some(t) = sq(rest.trim_end_matches("=d").trim_end_matches("=c")) else {
                return syntax(text, "inspect: needs a square");
            };
            let c = self.board[t];
            if c == 0
                || cell_color(c) == me
                || cell_role(c) != CIVILIAN
                || self.known.has(sqb(t))
                || self.bastions.has(sqb(t))
            {
                return illegal(format!(
                    "{} holds no enemy piece that looks like a Civilian (10.2)",
                    r.name(t)
                ));
            }
            if !self.attacked_by(me, t) {
                return illegal(format!(
                    "none of your active pieces attacks {} (10.2)",
                    r.name(t)
                ));
            }
            return illegal("your King would be in check (7.5)".into());
        }
        if let Some((a, b)) = lower.split_once("->") {
            let (Some(_), Some(d)) = (sq(a), sq(b)) else {
                return syntax(text, "an abdication is written king square -> Duke square");
            };
            let c = self.board[d];
            if c == 0 || cell_color(c) != me || cell_role(c) != DUKE {
                return illegal(format!(
                    "{} holds no Duke of yours to take over (11)",
                    r.name(d)
                ));
            }
            let mut cands = Vec::new();
            self.candidates(&mut cands);
            if cands.iter().any(|m| self.is_legal(m)) {
                return illegal("a King may abdicate only when no other turn is legal (11)".into());
            }
            return illegal("the new King would be in check (11)".into());
        }
        if lower.contains(':') {
            let first = lower.split(':').next().unwrap_or("");
            let Some(s) = sq(first) else {
                return syntax(text, "a hop chain starts with a square");
            };
            if !imperial {
                return illegal(
                    "there are no Deputies, so no hops, in the Common style (R29)".into(),
                );
            }
            let c = self.board[s];
            if c == 0 || cell_color(c) != me {
                return illegal(format!("there is no piece of yours on {}", r.name(s)));
            }
            if !r.is(self.move_role(s, c), class::HOP) {
                return illegal(format!(
                    "the piece on {} cannot hop: only a Deputy hops (7.3)",
                    r.name(s)
                ));
            }
            return illegal("that chain breaks the hop rules (7.3: adjacent piece, empty landing, no square twice, no active Castle crossed) or the arrest rules (10.5)".into());
        }
        // from-to, with an optional promotion; or a promotion in the halls.
        let (body, promo) = match lower.split_once('=') {
            Some((b, p)) => (b, Some(p)),
            None => (lower.as_str(), None),
        };
        let Some((from, used)) = r.geometry.parse_square_prefix(body) else {
            return syntax(text, "not a move in machine form (e2e3, e8e9=Q, c4=Q, g5:g7@c10, appoint:g5, inspect:g5, e1->g7, draw) or recorder notation");
        };
        let from = from.index();
        let rest = &body[used..];
        if let Some(p) = promo {
            let ok = p.len() == 1
                && r.table
                    .role_of_letter(p.chars().next().unwrap_or(' '))
                    .is_some_and(|role| r.promotable(role));
            if !ok {
                let letters: String = r
                    .promotions
                    .iter()
                    .map(|&p| r.table.def(p).letter)
                    .collect();
                return illegal(format!("a Pawn promotes only to a major piece ({letters}), never a King, a Civilian or a Deputy (8.1)"));
            }
        }
        let c = self.board[from];
        if c == 0 || cell_color(c) != me {
            return illegal(format!("there is no piece of yours on {}", r.name(from)));
        }
        if self.bastions.has(sqb(from)) {
            return illegal(format!(
                "the piece on {} is a bastion of a Castle and never moves (9.2)",
                r.name(from)
            ));
        }
        if self.frozen.has(sqb(from)) {
            return illegal(format!(
                "the piece on {} is an arrestee and cannot move (9.6)",
                r.name(from)
            ));
        }
        if rest.is_empty() {
            return illegal(format!(
                "the Pawn on {} is not entitled to promote in the halls (8.2)",
                r.name(from)
            ));
        }
        let Some(to) = sq(rest) else {
            return syntax(text, "the destination is not a square of this board");
        };
        let mut cands = Vec::new();
        self.candidates(&mut cands);
        let same: Vec<&CheopsMove> = cands
            .iter()
            .filter(|m| m.kind == TurnKind::Move && m.from as usize == from && m.to as usize == to)
            .collect();
        if !same.is_empty() {
            let promotes = same.iter().any(|m| m.promo != NONE);
            if promotes && promo.is_none() {
                return illegal("a Pawn reaching the last rank (or capturing from the chair into the halls) must promote (8.1, 8.2)".into());
            }
            if !promotes && promo.is_some() {
                return illegal("this move does not promote (8.1)".into());
            }
            return if self.in_check(me) {
                illegal("your King is in check and this does not parry it (7.5)".into())
            } else {
                illegal("it would leave your King in check (7.5)".into())
            };
        }
        let t = self.board[to];
        if t != 0 {
            if cell_color(t) == me {
                return illegal(format!("{} holds a piece of yours", r.name(to)));
            }
            let trole = cell_role(t);
            if self.bastions.has(sqb(to)) {
                return illegal(format!(
                    "the piece on {} is a bastion and can never be captured (7.2)",
                    r.name(to)
                ));
            }
            if r.is(trole, class::ROYAL) {
                return illegal("a King is never captured (7.2)".into());
            }
            if trole == CIVILIAN && !self.known.has(sqb(to)) {
                return illegal(
                    "a Civilian can never be captured, nor a Deputy until it is known (7.2, 10.3)"
                        .into(),
                );
            }
        }
        let role = self.move_role(from, c);
        let passes = r.is(role, class::PASSES_CASTLES);
        for castle in self.castles() {
            if castle.active
                && r.block[castle.chair as usize].has(sqb(to))
                && !passes
                && !self.in_halls(castle.chair as usize, from)
            {
                return illegal(format!(
                    "the active Castle {} is closed to pieces outside it (9.5, C1)",
                    r.name(castle.chair as usize)
                ));
            }
        }
        let def = r.table.def(role);
        illegal(format!(
            "the {} on {} cannot go to {} (its moves: {}; blocked lines, screens and Castles count, 7.2, 9.5)",
            def.name(),
            r.name(from),
            r.name(to),
            def.moves.text
        ))
    }
}

fn syntax(text: &str, reason: &str) -> MoveError {
    MoveError::Syntax {
        text: text.to_string(),
        reason: reason.to_string(),
    }
}

/// Drops a leading round-and-side (`12a `) from recorder notation.
fn strip_round(text: &str) -> &str {
    let digits = text.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 {
        let rest = &text[digits..];
        if let Some(r) = rest.strip_prefix('a').or_else(|| rest.strip_prefix('b')) {
            if r.starts_with(' ') {
                return r.trim_start();
            }
        }
    }
    text
}
