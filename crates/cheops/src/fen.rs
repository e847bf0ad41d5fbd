//! Position strings (rulebook §14): reading with field-named errors, and writing.

use crate::pieces::{class, CIVILIAN, KING, PAWN};
use crate::position::{
    cell, cell_color, cell_role, sqb, Castle, CheopsPosition, MAX_CASTLES, NONE,
};
use crate::rules::{Bits, Rules, RulesRef, Style};
use menagerie_core::board_text::{read_board, write_board};
use menagerie_core::{BitBoard, Color, PositionError};

type R<T> = Result<T, PositionError>;

fn err<T>(field: &'static str, msg: impl Into<String>) -> R<T> {
    Err(PositionError::new(field, msg))
}

fn square(rules: &Rules, field: &'static str, text: &str) -> R<usize> {
    match rules.geometry.parse_square(text) {
        Ok(s) => Ok(s.index()),
        Err(_) => err(field, format!("'{text}' is not a square of this board")),
    }
}

fn number(field: &'static str, text: &str) -> R<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(field, format!("'{text}' is not a number"));
    }
    text.parse::<u32>()
        .or_else(|_| err(field, format!("'{text}' is too large")))
}

fn square_list(rules: &Rules, field: &'static str, text: &str) -> R<Bits> {
    let mut out = Bits::EMPTY;
    if text == "-" {
        return Ok(out);
    }
    for part in text.split(',') {
        let s = square(rules, field, part)?;
        if out.has(sqb(s)) {
            return err(field, format!("{} is listed twice", rules.name(s)));
        }
        out.set(sqb(s));
    }
    Ok(out)
}

impl CheopsPosition {
    /// Reads a position string of `rules`' style (rulebook §14), or names the field at fault.
    pub fn parse_fen(rules: impl Into<RulesRef>, text: &str) -> R<Self> {
        let rules: RulesRef = rules.into();
        let shared = rules.clone();
        let rules: &Rules = &shared;
        let fields: Vec<&str> = text.split_whitespace().collect();
        let imperial = rules.style == Style::Imperial;
        let expected = if imperial { "6 or 7" } else { "4" };
        let ok_count = if imperial {
            fields.len() == 6 || fields.len() == 7
        } else {
            fields.len() == 4
        };
        if !ok_count {
            return err(
                "position",
                format!("expected {expected} fields, found {}", fields.len()),
            );
        }
        let mut pos = CheopsPosition {
            rules: shared.clone(),
            board: [0; crate::position::MAX_SQUARES],
            occ: [Bits::EMPTY; 2],
            known: Bits::EMPTY,
            papers: Bits::EMPTY,
            bastions: Bits::EMPTY,
            frozen: Bits::EMPTY,
            castles: [Castle::inactive(0); MAX_CASTLES],
            ncastles: 0,
            kings: [0; 2],
            turn: Color::White,
            halfmove: 0,
            fullmove: 1,
            draw_accepted: false,
        };
        pos.read_board(fields[0])?;
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return err("side to move", format!("'{other}' is not w or b")),
        };
        let (hm, fm) = if imperial { (4, 5) } else { (2, 3) };
        pos.halfmove = number("halfmove clock", fields[hm])?;
        pos.fullmove = number("fullmove number", fields[fm])?;
        if pos.fullmove == 0 {
            return err("fullmove number", "rounds are numbered from 1");
        }
        if imperial {
            pos.read_castles(fields[2])?;
            pos.known = square_list(rules, "deputies", fields[3])?;
            if let Some(p) = fields.get(6) {
                pos.papers = square_list(rules, "papers", p)?;
            }
            for (field, set) in [("deputies", pos.known), ("papers", pos.papers)] {
                for s in set.iter() {
                    let c = pos.board[s.index()];
                    if c == 0 || cell_role(c) != CIVILIAN {
                        return err(
                            field,
                            format!("{} holds no Civilian", rules.name(s.index())),
                        );
                    }
                }
            }
            if let Some(s) = (pos.known & pos.papers).first() {
                return err(
                    "papers",
                    format!(
                        "{} is both a known Deputy and sealed",
                        rules.name(s.index())
                    ),
                );
            }
        }
        pos.refresh();
        pos.check_pieces()?;
        if imperial {
            pos.check_castles()?;
        }
        if pos.in_check(pos.turn.other()) {
            return err(
                "side to move",
                format!("{} is not to move but is in check", pos.turn.other().name()),
            );
        }
        Ok(pos)
    }

    fn read_board(&mut self, text: &str) -> R<()> {
        let rules = self.rules.clone();
        let r: &Rules = &rules;
        for (s, letter) in read_board(&r.geometry, text)?.into_iter().enumerate() {
            let Some(ch) = letter else { continue };
            let Some(role) = r.table.role_of_letter(ch) else {
                return err("board", format!("'{ch}' is not a piece letter"));
            };
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            self.put(s, cell(role, color));
        }
        Ok(())
    }

    fn read_castles(&mut self, text: &str) -> R<()> {
        let rules = self.rules.clone();
        let r: &Rules = &rules;
        const F: &str = "castles";
        if text == "-" {
            return Ok(());
        }
        for item in text.split(',') {
            let mut parts = item.split('+');
            let head = parts.next().unwrap_or("");
            let (chair_text, state) = match head.split_once(':') {
                Some((c, s)) => (c, Some(s)),
                None => (head, None),
            };
            let chair = square(r, F, chair_text)?;
            if !r.chair_ok(chair) {
                return err(
                    F,
                    format!("the chair {} is on the edge of the board", r.name(chair)),
                );
            }
            if self.overlaps_castle(chair) {
                return err(
                    F,
                    format!("the Castle {} overlaps another Castle", r.name(chair)),
                );
            }
            if (self.ncastles as usize) >= MAX_CASTLES {
                return err(F, "too many Castles");
            }
            let mut castle = Castle::inactive(chair);
            if let Some(state) = state {
                let Some((owner, act)) = state.split_once('@') else {
                    return err(
                        F,
                        format!("'{item}': an active Castle is written chair:owner@activator"),
                    );
                };
                castle.owner = match owner {
                    "w" => Color::White,
                    "b" => Color::Black,
                    o => return err(F, format!("'{item}': the owner '{o}' is not w or b")),
                };
                castle.active = true;
                castle.activator = square(r, F, act)? as u8;
            }
            let halls = r.halls(chair);
            for e in parts {
                let s = square(r, F, e)?;
                let Some(i) = halls.iter().position(|&h| h == s) else {
                    return err(
                        F,
                        format!(
                            "the entitled square {} is not in the halls of {}",
                            r.name(s),
                            r.name(chair)
                        ),
                    );
                };
                if !castle.active {
                    return err(
                        F,
                        format!(
                            "the inactive Castle {} lists an entitled Pawn",
                            r.name(chair)
                        ),
                    );
                }
                if castle.entitled & (1 << i) != 0 {
                    return err(F, format!("{} is listed twice", r.name(s)));
                }
                castle.entitled |= 1 << i;
            }
            self.insert_castle(castle);
        }
        Ok(())
    }

    fn check_pieces(&mut self) -> R<()> {
        let r: &Rules = &self.rules;
        let n = r.n;
        for color in Color::BOTH {
            let mut kings = 0;
            let mut civilians = 0;
            for s in self.occ[color.index()].iter() {
                let role = cell_role(self.board[s.index()]);
                if role == KING {
                    kings += 1;
                    self.kings[color.index()] = s.index() as u8;
                }
                if role == CIVILIAN {
                    civilians += 1;
                }
            }
            if kings != 1 {
                return err(
                    "board",
                    format!("{} has {kings} Kings, not exactly one", color.name()),
                );
            }
            if civilians > 2 {
                return err(
                    "board",
                    format!(
                        "{} has {civilians} Civilians (Deputies included), more than two",
                        color.name()
                    ),
                );
            }
        }
        for s in 0..n * n {
            let c = self.board[s];
            if c == 0 || cell_role(c) != PAWN {
                continue;
            }
            let rank = r.rank[s] as usize;
            if rank == 0 || rank == n - 1 {
                let in_room = self
                    .castles()
                    .iter()
                    .any(|k| k.chair as usize != s && self.in_halls(k.chair as usize, s));
                if r.style == Style::Common || !in_room {
                    return err(
                        "board",
                        format!("a Pawn stands on {}, on rank 1 or {n}", r.name(s)),
                    );
                }
            }
        }
        Ok(())
    }

    fn check_castles(&self) -> R<()> {
        let r: &Rules = &self.rules;
        const F: &str = "castles";
        for c in self.castles() {
            let chair = c.chair as usize;
            let name = r.name(chair);
            if !self.pattern_at(chair, false) {
                return err(F, format!("the corners of {name} do not hold two Rooks and two Civilians of one colour"));
            }
            if !c.active {
                if self.board[chair] != 0 {
                    return err(
                        F,
                        format!("the inactive Castle {name} has a piece on its chair"),
                    );
                }
                continue;
            }
            let act = c.activator as usize;
            let p = self.board[act];
            if !self.in_halls(chair, act) || p == 0 || cell_color(p) != c.owner {
                return err(
                    F,
                    format!("the activator of {name} must be a piece of its owner in its halls"),
                );
            }
            if act != chair && !r.is(cell_role(p), class::NOBILITY) {
                return err(
                    F,
                    format!("the activator of {name} is not noble, so it must be on the chair"),
                );
            }
            for (i, h) in r.halls(chair).into_iter().enumerate() {
                if c.entitled & (1 << i) != 0 {
                    let q = self.board[h];
                    if q == 0 || cell_color(q) != c.owner || !r.is(cell_role(q), class::PROMOTES) {
                        return err(
                            F,
                            format!(
                                "the entitled square {} holds no Pawn of the owner",
                                r.name(h)
                            ),
                        );
                    }
                }
            }
        }
        for chair in 0..r.n * r.n {
            if r.chair_ok(chair) && !self.overlaps_castle(chair) && self.pattern_at(chair, true) {
                return err(
                    F,
                    format!(
                        "the corners around {} would have formed a Castle, but it is not listed",
                        r.name(chair)
                    ),
                );
            }
        }
        Ok(())
    }

    fn board_string(&self) -> String {
        write_board(&self.rules.geometry, |sq| {
            let c = self.board[sq.index()];
            (c != 0).then(|| self.letter(c))
        })
    }

    /// The board letter of a cell, upper case for White.
    pub(crate) fn letter(&self, c: u8) -> char {
        let l = self.rules.table.def(cell_role(c)).letter;
        if cell_color(c) == Color::White {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    fn squares_text(&self, set: Bits) -> String {
        if set.is_empty() {
            return "-".into();
        }
        set.iter()
            .map(|s| self.rules.name(s.index()))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The `<castles>` field.
    pub(crate) fn castles_text(&self) -> String {
        let r: &Rules = &self.rules;
        if self.ncastles == 0 {
            return "-".into();
        }
        self.castles()
            .iter()
            .map(|c| {
                let mut s = r.name(c.chair as usize);
                if c.active && c.activator != NONE {
                    s.push(':');
                    s.push(c.owner.letter());
                    s.push('@');
                    s.push_str(&r.name(c.activator as usize));
                    for (i, h) in r.halls(c.chair as usize).into_iter().enumerate() {
                        if c.entitled & (1 << i) != 0 {
                            s.push('+');
                            s.push_str(&r.name(h));
                        }
                    }
                }
                s
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The public string: what both players and spectators see (§14.2; Common: the string).
    pub fn public_fen(&self) -> String {
        let head = format!("{} {}", self.board_string(), self.turn.letter());
        match self.rules.style {
            Style::Common => format!("{head} {} {}", self.halfmove, self.fullmove),
            Style::Imperial => format!(
                "{head} {} {} {} {}",
                self.castles_text(),
                self.squares_text(self.known),
                self.halfmove,
                self.fullmove
            ),
        }
    }

    /// The umpire string (§14.2): the public string plus the sealed papers (Common: the
    /// four-field string).
    pub fn umpire_fen(&self) -> String {
        match self.rules.style {
            Style::Common => self.public_fen(),
            Style::Imperial => format!("{} {}", self.public_fen(), self.squares_text(self.papers)),
        }
    }
}
