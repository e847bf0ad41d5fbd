//! The piece table: every piece's Betza moves and classes, read from data (rulebook §4, §5).
//!
//! The engine knows each piece only by its *role* (the part it plays in the rules: the King
//! is royal, the Duke may take over by abdication, a Civilian can be appointed...). How a
//! role moves, its letters and its classes come from a text table, embedded from
//! `data/pieces.txt` and replaceable at run time with [`load_pieces`].

use menagerie_core::betza::PieceMoves;
use std::fmt;
use thiserror::Error;

/// Number of roles.
pub const ROLE_COUNT: usize = 15;

/// The King: royal; the game is about checkmating it.
pub const KING: usize = 0;
/// The Queen.
pub const QUEEN: usize = 1;
/// The Prime Minister.
pub const PRIME_MINISTER: usize = 2;
/// The Minister.
pub const MINISTER: usize = 3;
/// The Tower (a Rook).
pub const TOWER: usize = 4;
/// The Master (a Rook that captures over a screen).
pub const MASTER: usize = 5;
/// The Knight.
pub const KNIGHT: usize = 6;
/// The Duke: the piece that may take over by abdication.
pub const DUKE: usize = 7;
/// The Duchess.
pub const DUCHESS: usize = 8;
/// The Baron.
pub const BARON: usize = 9;
/// The Baroness.
pub const BARONESS: usize = 10;
/// The Assassin.
pub const ASSASSIN: usize = 11;
/// The Civilian: may be appointed a Deputy.
pub const CIVILIAN: usize = 12;
/// The Deputy: a Civilian with sealed papers; it has no board letter of its own.
pub const DEPUTY: usize = 13;
/// The Pawn.
pub const PAWN: usize = 14;

/// The role names, as the piece file writes them, in role order.
pub const ROLE_NAMES: [&str; ROLE_COUNT] = [
    "king",
    "queen",
    "prime-minister",
    "minister",
    "tower",
    "master",
    "knight",
    "duke",
    "duchess",
    "baron",
    "baroness",
    "assassin",
    "civilian",
    "deputy",
    "pawn",
];

/// The pieces' names for people, in role order.
pub const PIECE_NAMES: [&str; ROLE_COUNT] = [
    "King",
    "Queen",
    "Prime Minister",
    "Minister",
    "Tower",
    "Master",
    "Knight",
    "Duke",
    "Duchess",
    "Baron",
    "Baroness",
    "Assassin",
    "Civilian",
    "Deputy",
    "Pawn",
];

/// Class flags: the piece properties that are not Betza (rulebook §5, last paragraph).
pub mod class {
    /// The piece is the King: checkmating it wins.
    pub const ROYAL: u16 = 1;
    /// Nobility: may keep a Castle active anywhere in its halls.
    pub const NOBILITY: u16 = 1 << 1;
    /// An Heir (Duke, Duchess); informational.
    pub const HEIR: u16 = 1 << 2;
    /// A Rook: two of them make a Castle with two pillars.
    pub const ROOK: u16 = 1 << 3;
    /// A major piece: a promotion choice (Deputies excepted: they come only by appointment).
    pub const MAJOR: u16 = 1 << 4;
    /// A Castle pillar (Civilians and Deputies).
    pub const PILLAR: u16 = 1 << 5;
    /// Ignores the Castle Effect's closure (C1), as the Assassin does.
    pub const PASSES_CASTLES: u16 = 1 << 6;
    /// Never an arrestee and never arrested.
    pub const NEVER_ARRESTED: u16 = 1 << 7;
    /// Can never be captured (Civilians).
    pub const NEVER_CAPTURED: u16 = 1 << 8;
    /// May hop over an adjacent piece, in chains.
    pub const HOP: u16 = 1 << 9;
    /// The last hop of a chain may arrest.
    pub const ARREST: u16 = 1 << 10;
    /// Promotes on the last rank and in the halls.
    pub const PROMOTES: u16 = 1 << 11;

    /// The class names as the piece file writes them.
    pub const NAMES: [(&str, u16); 12] = [
        ("royal", ROYAL),
        ("nobility", NOBILITY),
        ("heir", HEIR),
        ("rook", ROOK),
        ("major", MAJOR),
        ("pillar", PILLAR),
        ("passes-castles", PASSES_CASTLES),
        ("never-arrested", NEVER_ARRESTED),
        ("never-captured", NEVER_CAPTURED),
        ("hop", HOP),
        ("arrest", ARREST),
        ("promotes", PROMOTES),
    ];
}

/// Whether a definition is the published one or stands in for a missing one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// Published by the inventor.
    Published,
    /// Provisional until the published definition is found (rulebook §0.2).
    Provisional,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Published => "published",
            Status::Provisional => "provisional",
        })
    }
}

/// One piece of the table.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// The role number (see the role constants).
    pub role: usize,
    /// The board letter, upper case.
    pub letter: char,
    /// The recorder abbreviation (`PM`, `Ma`, ...).
    pub recorder: String,
    /// The Betza moves.
    pub moves: PieceMoves,
    /// Published or provisional.
    pub status: Status,
    /// Class flags (see [`class`]).
    pub classes: u16,
}

impl PieceDef {
    /// Whether the piece has class `flag`.
    #[inline]
    pub fn is(&self, flag: u16) -> bool {
        self.classes & flag != 0
    }
    /// The piece's name for people.
    pub fn name(&self) -> &'static str {
        PIECE_NAMES[self.role]
    }
}

/// The whole piece table, one definition per role.
#[derive(Clone, Debug)]
pub struct PieceTable {
    defs: Vec<PieceDef>,
    by_letter: [Option<usize>; 26],
    source: String,
}

impl PieceTable {
    /// The definition of `role`.
    #[inline]
    pub fn def(&self, role: usize) -> &PieceDef {
        &self.defs[role]
    }
    /// Every definition, in role order.
    pub fn defs(&self) -> &[PieceDef] {
        &self.defs
    }
    /// The board role of an upper-case `letter` (a Deputy is written as a Civilian).
    pub fn role_of_letter(&self, letter: char) -> Option<usize> {
        let u = letter.to_ascii_uppercase();
        if !u.is_ascii_uppercase() {
            return None;
        }
        self.by_letter[(u as u8 - b'A') as usize]
    }
    /// The text the table was read from (used to share compiled rules between equal tables).
    pub fn source(&self) -> &str {
        &self.source
    }
    /// The promotion choices: every major piece but the Deputy, in table order (§8.1).
    pub fn promotion_roles(&self) -> impl Iterator<Item = usize> + '_ {
        self.defs
            .iter()
            .filter(|d| d.is(class::MAJOR) && d.role != DEPUTY && d.role != KING)
            .map(|d| d.role)
    }
    /// One line per piece for help text: letter, name, recorder, Betza, status.
    pub fn listing(&self) -> Vec<String> {
        self.defs
            .iter()
            .map(|d| {
                let letter = if d.role == DEPUTY {
                    format!("({})", d.letter)
                } else {
                    format!("{} ", d.letter)
                };
                format!(
                    "{letter} {:<15} {:<3} {:<8} {}",
                    d.name(),
                    d.recorder,
                    d.moves.text,
                    if d.status == Status::Provisional {
                        "[provisional]"
                    } else {
                        "published"
                    }
                )
            })
            .collect()
    }
    /// The names of the provisional pieces, for diagram notes.
    pub fn provisional_names(&self) -> Vec<&'static str> {
        self.defs
            .iter()
            .filter(|d| d.status == Status::Provisional)
            .map(|d| d.name())
            .collect()
    }
}

/// The built-in piece table text (the rulebook's definitions, provisional ones included).
pub const DEFAULT_PIECES: &str = include_str!("../data/pieces.txt");

/// A piece file that cannot be read: the line, the piece and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("piece file, line {line}, piece '{piece}': {message}")]
pub struct PieceFileError {
    /// The line at fault (1-based); for a missing piece, the line after the last.
    pub line: usize,
    /// The piece (role name) concerned, as written.
    pub piece: String,
    /// What is wrong.
    pub message: String,
}

/// Reads a piece table in the format of `data/pieces.txt`, or says in one sentence what is
/// wrong with it (line number, piece, fault).
pub fn load_pieces(text: &str) -> Result<PieceTable, PieceFileError> {
    let mut defs: Vec<Option<PieceDef>> = vec![None; ROLE_COUNT];
    let mut lines = [0usize; ROLE_COUNT];
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        let piece = fields[0].to_string();
        let err = |message: String| PieceFileError {
            line,
            piece: piece.clone(),
            message,
        };
        let Some(role) = ROLE_NAMES.iter().position(|&r| r == fields[0]) else {
            return Err(err(format!(
                "unknown piece; the pieces are {}",
                ROLE_NAMES.join(", ")
            )));
        };
        if defs[role].is_some() {
            return Err(err("the piece is defined twice".into()));
        }
        if fields.len() < 5 {
            return Err(err(
                "a line needs at least role, letter, recorder, betza and status".into(),
            ));
        }
        let mut letters = fields[1].chars();
        let letter = match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                return Err(err(format!(
                    "the board letter '{}' must be one upper-case letter",
                    fields[1]
                )))
            }
        };
        let recorder = fields[2];
        if !recorder.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(err(format!(
                "the recorder abbreviation '{recorder}' must be letters only"
            )));
        }
        let moves = PieceMoves::parse(fields[3])
            .map_err(|e| err(format!("invalid Betza '{}': {}", e.text, e.message)))?;
        let status = match fields[4] {
            "published" => Status::Published,
            "provisional" => Status::Provisional,
            other => {
                return Err(err(format!(
                    "the status '{other}' must be 'published' or 'provisional'"
                )))
            }
        };
        let mut classes = 0;
        for name in &fields[5..] {
            let Some(&(_, flag)) = class::NAMES.iter().find(|(n, _)| n == name) else {
                let known: Vec<_> = class::NAMES.iter().map(|(n, _)| *n).collect();
                return Err(err(format!(
                    "unknown class '{name}'; the classes are {}",
                    known.join(", ")
                )));
            };
            classes |= flag;
        }
        if (classes & class::ROYAL != 0) != (role == KING) {
            return Err(err("the King, and only the King, is royal".into()));
        }
        if classes & class::ARREST != 0 && classes & class::HOP == 0 {
            return Err(err(
                "a piece that arrests must hop (arrest is the last hop)".into(),
            ));
        }
        lines[role] = line;
        defs[role] = Some(PieceDef {
            role,
            letter,
            recorder: recorder.to_string(),
            moves,
            status,
            classes,
        });
    }
    let mut out = Vec::with_capacity(ROLE_COUNT);
    for (role, def) in defs.into_iter().enumerate() {
        match def {
            Some(d) => out.push(d),
            None => {
                return Err(PieceFileError {
                    line: last_line + 1,
                    piece: ROLE_NAMES[role].to_string(),
                    message: "the piece is not defined".into(),
                })
            }
        }
    }
    let mut by_letter = [None; 26];
    for d in &out {
        if d.role == DEPUTY {
            continue;
        }
        let slot = &mut by_letter[(d.letter as u8 - b'A') as usize];
        if let Some(other) = *slot {
            return Err(PieceFileError {
                line: lines[d.role],
                piece: ROLE_NAMES[d.role].to_string(),
                message: format!(
                    "the letter {} is already the {}'s",
                    d.letter, ROLE_NAMES[other]
                ),
            });
        }
        *slot = Some(d.role);
    }
    if out[DEPUTY].letter != out[CIVILIAN].letter {
        return Err(PieceFileError {
            line: lines[DEPUTY],
            piece: "deputy".into(),
            message: "a Deputy is written as a Civilian, so it must share the Civilian's letter"
                .into(),
        });
    }
    Ok(PieceTable {
        defs: out,
        by_letter,
        source: text.to_string(),
    })
}

/// The built-in table (the rulebook's definitions).
pub fn default_pieces() -> PieceTable {
    match load_pieces(DEFAULT_PIECES) {
        Ok(t) => t,
        // The embedded file is part of the build and tested; this cannot happen.
        Err(e) => panic!("the built-in piece table is broken: {e}"),
    }
}
