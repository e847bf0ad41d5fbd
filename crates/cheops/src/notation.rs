//! Move text (rulebook §13): the machine form, the recorder notation, reading both, and
//! error messages that name the rule forbidding a move.

use crate::pieces::{class, CIVILIAN, DEPUTY, DUKE, PAWN};
use crate::position::{cell_color, cell_role, sqb, CheopsMove, CheopsPosition, TurnKind, NONE};
use crate::rules::{Rules, Style};
use menagerie_core::{BitBoard, Color, MoveError, Position};

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
                for l in mv.landings(r.n) {
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

    /// The recorder's action (§13.1) without the round, the human text of a turn as it is
    /// offered: `P e2-e3`, `Q f1Xf7`, `D g5:1:g7 N(c10)`, `appoints C g5`, `inspects C g5`,
    /// `K e1->g7`, `P c4=Q`. A hop chain whose count does not name it among the legal turns
    /// (two chains from one square with as many hops to one square) lists its landings
    /// instead: `D g5:g7:i9`. Each reads back to its turn with [`Self::read_move`].
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
                if self.hop_count_is_ambiguous(mv) {
                    self.hop_text(mv, true)
                } else {
                    self.hop_text(mv, false)
                }
            }
            // The appointed square is ours (13.1 writes only `appoints C`): it names the turn
            // for the player who makes it; others see `appoints C` ([`Self::seen_texts`]).
            TurnKind::Appoint => format!("appoints {} {to}", r.table.def(CIVILIAN).recorder),
            // The umpire's answer is not part of the turn offered: it is known only once
            // the turn is played ([`Self::seen_texts`]).
            TurnKind::Inspect => format!("inspects {} {to}", r.table.def(CIVILIAN).recorder),
            TurnKind::Abdicate => {
                format!("{} {from}->{to}", r.table.def(crate::pieces::KING).recorder)
            }
            TurnKind::Draw => "draw".into(),
        }
    }

    /// A hop chain in recorder notation: `D g5:2:i9` (the count), or with `landings`
    /// `D g5:g7:i9`; an arrest adds the arrestee and its room, `N(c10)`.
    fn hop_text(&self, mv: &CheopsMove, landings: bool) -> String {
        let r: &Rules = &self.rules;
        // A hop always shows the hopper for what it is: the hop compromises it.
        let role = self.move_role(mv.from as usize, self.board[mv.from as usize]);
        let mut s = format!(
            "{} {}",
            r.table.def(role).recorder,
            r.name(mv.from as usize)
        );
        if landings {
            for l in mv.landings(r.n) {
                s.push(':');
                s.push_str(&r.name(l.index()));
            }
        } else {
            s.push_str(&format!(":{}:{}", mv.hops, r.name(mv.to as usize)));
        }
        if let Some(room) = mv.arrest_room() {
            let mid = mv.last_hopped(r.n);
            s.push_str(&format!(
                " {}({})",
                self.recorder_at(mid),
                r.name(room.index())
            ));
        }
        s
    }

    /// Whether another legal hop chain has the same start, count, end and arrest room, so
    /// that the recorder's `from:n:to` does not name `mv` (13.1).
    fn hop_count_is_ambiguous(&self, mv: &CheopsMove) -> bool {
        self.moves().iter().any(|m| {
            m.kind == TurnKind::Hop
                && m.from == mv.from
                && m.hops == mv.hops
                && m.to == mv.to
                && m.room == mv.room
                && m.path_differs(mv)
        })
    }

    /// The umpire's public answer to an inspection of `sq` (guide §17), judged on the umpire's
    /// position before the turn.
    fn inspection_answer(&self, sq: usize) -> (char, &'static str) {
        if self.papers.has(sqb(sq)) || self.known.has(sqb(sq)) {
            ('D', "Deputy")
        } else {
            ('C', "Civilian")
        }
    }

    /// The canonical and human text of `mv`, played from this umpire's position, as
    /// `viewer` may know it (`None`: a spectator), for records, announcements and move
    /// lists (§15). An appointment is sealed: the player who makes it sees `appoint:g5` /
    /// `appoints C g5`, everyone else `appoint` / `appoints C` (13.2). An inspection, once
    /// played, carries the umpire's public answer for everyone: `inspect:g5=D` /
    /// `inspects C g5 (Deputy)`. Every other turn reads the same for all. Call it on the
    /// umpire's position: a player's view lacks the papers the answer depends on.
    pub fn seen_texts(&self, mv: &CheopsMove, viewer: Option<Color>) -> (String, String) {
        let r: &Rules = &self.rules;
        let civilian = &r.table.def(CIVILIAN).recorder;
        match mv.kind {
            TurnKind::Appoint if viewer != Some(self.turn) => {
                ("appoint".into(), format!("appoints {civilian}"))
            }
            TurnKind::Inspect => {
                let (letter, word) = self.inspection_answer(mv.to as usize);
                (
                    format!("{}={letter}", self.machine_text(mv)),
                    format!("{} ({word})", self.recorder_action(mv)),
                )
            }
            _ => (self.machine_text(mv), self.recorder_action(mv)),
        }
    }

    /// The full recorder notation: round, side (`a` White, `b` Black) and action
    /// (`1a P e2-e3`). The turn's human text ([`Self::recorder_action`]) has no round;
    /// [`Self::read_move`] reads either.
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
        let spaced = strip_round(trimmed)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let action = self.machine_alias(&spaced.to_ascii_lowercase());
        let found: Vec<CheopsMove> = moves
            .iter()
            .copied()
            .filter(|m| {
                if self.machine_text(m).eq_ignore_ascii_case(&action) {
                    return true;
                }
                match m.kind {
                    // A public record's sealed appointment: it names the turn only when
                    // there is one Civilian to appoint.
                    TurnKind::Appoint => action == "appoint",
                    TurnKind::Hop => [false, true]
                        .iter()
                        .any(|&long| self.hop_text(m, long).eq_ignore_ascii_case(&action)),
                    _ => self.recorder_action(m).eq_ignore_ascii_case(&action),
                }
            })
            .collect();
        match found.as_slice() {
            [m] => Ok(*m),
            [] => Err(self.diagnose(trimmed, &action)),
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

    /// The machine form of an appointment or inspection written any way a record or a
    /// player writes it (lower case, single spaces): `appoints c g5` and `appoints c` as
    /// `appoint:g5` and `appoint`; `inspects c g5`, `inspects c g5 (deputy)` and
    /// `inspect:g5=d` as `inspect:g5` (the answer a record carries is the umpire's, not part
    /// of the turn). Anything else is returned as it is.
    fn machine_alias(&self, lower: &str) -> String {
        let civilian = self.rules.table.def(CIVILIAN).recorder.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("appoints ") {
            if let Some(sq) = rest.strip_prefix(civilian.as_str()) {
                let sq = sq.trim();
                return if sq.is_empty() {
                    "appoint".into()
                } else {
                    format!("appoint:{sq}")
                };
            }
        }
        if let Some(rest) = lower.strip_prefix("inspects ") {
            if let Some(sq) = rest.strip_prefix(civilian.as_str()) {
                let sq = sq
                    .trim()
                    .trim_end_matches("(deputy)")
                    .trim_end_matches("(civilian)")
                    .trim();
                return format!("inspect:{sq}");
            }
        }
        if let Some(rest) = lower.strip_prefix("inspect:") {
            if let Some(sq) = rest.strip_suffix("=d").or_else(|| rest.strip_suffix("=c")) {
                return format!("inspect:{sq}");
            }
        }
        lower.to_string()
    }

    /// Says why `action` cannot be played, naming the rule where possible.
    fn diagnose(&self, text: &str, action: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let lower = action.to_ascii_lowercase();
        if lower == "draw" {
            return illegal("a draw can be accepted only at a third repetition where an abdication was possible (guide §11)".into());
        }
        if let Some(rest) = lower.strip_prefix("appoint:") {
            return self.why_no_appointment(text, rest);
        }
        if let Some(rest) = lower.strip_prefix("inspect:") {
            return self.why_no_inspection(text, rest);
        }
        if let Some((king, duke)) = lower.split_once("->") {
            return self.why_no_abdication(text, king, duke);
        }
        if lower.contains(':') {
            return self.why_no_hop(text, &lower);
        }
        self.why_no_move(text, &lower)
    }

    /// Why `appoint:<rest>` is not a legal turn (guide §16).
    fn why_no_appointment(&self, text: &str, rest: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let r: &Rules = &self.rules;
        let me = self.turn;
        let sq = |t: &str| r.geometry.parse_square(t).ok().map(|s| s.index());
        let imperial = r.style == Style::Imperial;
        if !imperial {
            return illegal(
                "there are no Castles, so no appointments, in the Common style (guide §16)".into(),
            );
        }
        let king = self.kings[me.index()];
        if !self
            .castles()
            .iter()
            .any(|c| c.active && c.owner == me && c.chair == king)
        {
            return illegal(
                "only a King on the chair of a Castle his side holds may appoint (guide §16)"
                    .into(),
            );
        }
        match sq(rest) {
            Some(s) if self.appointable(me).has(sqb(s)) => {
                illegal("your King would be in check (guide §7)".into())
            }
            Some(s) => illegal(format!(
                "{} holds no active Civilian of yours that is not already a Deputy (guide §16)",
                r.name(s)
            )),
            None => syntax(text, "appoint: needs a square"),
        }
    }

    /// Why `inspect:<rest>` is not a legal turn (guide §17).
    fn why_no_inspection(&self, text: &str, rest: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let r: &Rules = &self.rules;
        let me = self.turn;
        let sq = |t: &str| r.geometry.parse_square(t).ok().map(|s| s.index());
        let imperial = r.style == Style::Imperial;
        if !imperial {
            return illegal(
                "there are no Deputies, so no inspections, in the Common style (guide §17)".into(),
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
                "{} holds no enemy piece that looks like a Civilian (guide §17)",
                r.name(t)
            ));
        }
        if !self.attacked_by(me, t) {
            return illegal(format!(
                "none of your active pieces attacks {} (guide §17)",
                r.name(t)
            ));
        }
        illegal("your King would be in check (guide §7)".into())
    }

    /// Why the abdication `a->b` is not a legal turn (11).
    fn why_no_abdication(&self, text: &str, a: &str, b: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let r: &Rules = &self.rules;
        let me = self.turn;
        let sq = |t: &str| r.geometry.parse_square(t).ok().map(|s| s.index());
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
        illegal("the new King would be in check (11)".into())
    }

    /// Why the hop chain `lower` is not a legal turn (7.3, 10.5).
    fn why_no_hop(&self, text: &str, lower: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let r: &Rules = &self.rules;
        let me = self.turn;
        let sq = |t: &str| r.geometry.parse_square(t).ok().map(|s| s.index());
        let imperial = r.style == Style::Imperial;
        let first = lower.split(':').next().unwrap_or("");
        let Some(s) = sq(first) else {
            return syntax(text, "a hop chain starts with a square");
        };
        if !imperial {
            return illegal(
                "there are no Deputies, so no hops, in the Common style (guide §19)".into(),
            );
        }
        let c = self.board[s];
        if c == 0 || cell_color(c) != me {
            return illegal(format!("there is no piece of yours on {}", r.name(s)));
        }
        if !r.is(self.move_role(s, c), class::HOP) {
            return illegal(format!(
                "the piece on {} cannot hop: only a Deputy hops (guide §19)",
                r.name(s)
            ));
        }
        illegal("that chain breaks the hop rules (guide §19: adjacent piece, empty landing, no square twice, no active Castle crossed) or the arrest rules (guide §19)".into())
    }

    /// Why the move or promotion `lower` is not a legal turn (7.2, 7.5, §8, §9).
    fn why_no_move(&self, text: &str, lower: &str) -> MoveError {
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_string(),
            reason,
        };
        let r: &Rules = &self.rules;
        let me = self.turn;
        let sq = |t: &str| r.geometry.parse_square(t).ok().map(|s| s.index());
        // from-to, with an optional promotion; or a promotion in the halls.
        let (body, promo) = match lower.split_once('=') {
            Some((b, p)) => (b, Some(p)),
            None => (lower, None),
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
                return illegal(format!("a Pawn promotes only to a major piece ({letters}), never a King, a Civilian or a Deputy (guide §8)"));
            }
        }
        let c = self.board[from];
        if c == 0 || cell_color(c) != me {
            return illegal(format!("there is no piece of yours on {}", r.name(from)));
        }
        if self.bastions.has(sqb(from)) {
            return illegal(format!(
                "the piece on {} is a bastion of a Castle and never moves (guide §13)",
                r.name(from)
            ));
        }
        if self.frozen.has(sqb(from)) {
            return illegal(format!(
                "the piece on {} is an arrestee and cannot move (guide §15)",
                r.name(from)
            ));
        }
        if rest.is_empty() {
            return illegal(format!(
                "the Pawn on {} is not entitled to promote in the halls (guide §20)",
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
                return illegal("a Pawn reaching the last rank (or capturing from the chair into the halls) must promote (guide §8, §20)".into());
            }
            if !promotes && promo.is_some() {
                return illegal("this move does not promote (guide §8)".into());
            }
            return if self.in_check(me) {
                illegal("your King is in check and this does not parry it (guide §7)".into())
            } else {
                illegal("it would leave your King in check (guide §7)".into())
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
                    "the piece on {} is a bastion and can never be captured (guide §5)",
                    r.name(to)
                ));
            }
            if r.is(trole, class::ROYAL) {
                return illegal("a King is never captured (guide §5)".into());
            }
            if trole == CIVILIAN && !self.known.has(sqb(to)) {
                return illegal(
                    "a Civilian can never be captured, nor a Deputy until it is known (guide §5, §18)"
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
                    "the active Castle {} is closed to pieces outside it (guide §14)",
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
