//! Why a move cannot be played: the rule that forbids it, found by pseudo-move reasoning.
//!
//! The text is read into an intent (which man, from where, to where, what second half), then
//! each rule of sections 3 to 10 is tried in turn on that intent; the first one it breaks is
//! named in players' words ("a Field queen cannot capture a Field rook: sanctuary").

use crate::board::{code_kind, Board, Kind};
use crate::moves::NONE;
use crate::notation::{square_name, strip_marks};
use crate::position::{knight_reach, CypherPosition, KingCourtEntry};
use crate::tables::{bishop_attacks, geometry, queen_attacks, rook_attacks, tables, Sector, WIDTH};
use menagerie_core::Color;

/// The second part of a turn as written.
#[derive(Clone, Copy, Debug)]
enum Second {
    None,
    /// `/`: a piece entering Court (`from` known, or only its kind and destination).
    Enter(Option<usize>, Option<Kind>, usize),
    /// `*` or `**`: a piece sent to d0 or d10.
    Send(Option<usize>, Option<Kind>, usize),
    /// `(...)`: the man switched by a coup d'état.
    Switch(usize),
}

/// A move as the player wrote it.
#[derive(Clone, Debug)]
struct Intent {
    /// Candidate departure squares (one for canonical text).
    from: Vec<usize>,
    /// The kind the player named, if any.
    kind: Option<Kind>,
    to: usize,
    second: Second,
    release: bool,
}

fn square_at(text: &str) -> Option<(usize, &str)> {
    let (sq, used) = geometry().parse_square_prefix(text)?;
    Some((sq.index(), &text[used..]))
}

/// Reads canonical text: `a-b`, `a-b/c-d`, `a-b*c-d`, `a-b(c)`, `P@a`.
fn parse_canonical(text: &str) -> Option<Intent> {
    let t = strip_marks(text);
    if let Some(rest) = t.strip_prefix("P@").or_else(|| t.strip_prefix("p@")) {
        let (to, rest) = square_at(rest)?;
        return rest.is_empty().then(|| Intent {
            from: vec![],
            kind: Some(Kind::Pawn),
            to,
            second: Second::None,
            release: true,
        });
    }
    let (from, rest) = square_at(t)?;
    let (to, rest) = square_at(rest.strip_prefix('-')?)?;
    let second = if rest.is_empty() {
        Second::None
    } else if let Some(r) = rest.strip_prefix('/') {
        let (a, r) = square_at(r)?;
        let (b, r) = square_at(r.strip_prefix('-')?)?;
        if !r.is_empty() {
            return None;
        }
        Second::Enter(Some(a), None, b)
    } else if let Some(r) = rest.strip_prefix('*') {
        let (a, r) = square_at(r)?;
        let (b, r) = square_at(r.strip_prefix('-')?)?;
        if !r.is_empty() {
            return None;
        }
        Second::Send(Some(a), None, b)
    } else if let Some(r) = rest.strip_prefix('(') {
        let (a, r) = square_at(r)?;
        if r != ")" {
            return None;
        }
        Second::Switch(a)
    } else {
        return None;
    };
    Some(Intent {
        from: vec![from],
        kind: None,
        to,
        second,
        release: false,
    })
}

/// Reads the inventor's notation: `Nh2`, `dxe4`, `Sd4/Qz3`, `Kb5**Rd10`, `e9(Qz6)`, `PRb5`.
fn parse_human(pos: &CypherPosition, text: &str) -> Option<Intent> {
    let t = strip_marks(text);
    if let Some(rest) = t.strip_prefix("PR") {
        let (to, rest) = square_at(rest)?;
        return rest.is_empty().then(|| Intent {
            from: vec![],
            kind: Some(Kind::Pawn),
            to,
            second: Second::None,
            release: true,
        });
    }
    // The second part, split off at its separator.
    let (first, second_text, sep) = if let Some(i) = t.find("**") {
        (&t[..i], &t[i + 2..], "**")
    } else if let Some(i) = t.find('/') {
        (&t[..i], &t[i + 1..], "/")
    } else if let Some(i) = t.find('(') {
        (&t[..i], t[i + 1..].trim_end_matches(')'), "(")
    } else {
        (t, "", "")
    };
    let lettered = |s: &str| -> Option<(Option<Kind>, usize)> {
        let mut chars = s.chars();
        let c = chars.next()?;
        if c.is_ascii_uppercase() {
            let kind = Kind::from_letter(c)?;
            let (sq, rest) = square_at(chars.as_str())?;
            rest.is_empty().then_some((Some(kind), sq))
        } else {
            let (sq, rest) = square_at(s)?;
            rest.is_empty().then_some((None, sq))
        }
    };
    let second = match sep {
        "**" => {
            let (k, sq) = lettered(second_text)?;
            Second::Send(None, k, sq)
        }
        "/" => {
            let (k, sq) = lettered(second_text)?;
            Second::Enter(None, k, sq)
        }
        "(" => Second::Switch(lettered(second_text)?.1),
        _ => Second::None,
    };
    // First part: [piece][file][rank][x]square.
    let mut chars = first.chars().peekable();
    let kind = match chars.peek() {
        Some(&c) if c.is_ascii_uppercase() => {
            chars.next();
            Some(Kind::from_letter(c)?)
        }
        _ => None,
    };
    let body: String = chars.collect();
    let body = body.replace('x', "");
    // The destination is the last square name in the body; what precedes it disambiguates.
    let mut split = None;
    for i in (0..body.len()).rev() {
        if !body.is_char_boundary(i) {
            continue;
        }
        if let Some((sq, rest)) = square_at(&body[i..]) {
            if rest.is_empty() {
                split = Some((i, sq));
                break;
            }
        }
    }
    let (i, to) = split?;
    let hint = &body[..i];
    let g = geometry();
    // What precedes the destination is a file, a rank or a square (a pawn's only a file,
    // and only when it captures): anything else is no move of this game.
    let is_file = (0..WIDTH as u8).any(|f| hint == g.file_name(f));
    let is_rank = (0..11u8).any(|r| hint == g.rank_name(r));
    let hint_ok = match kind {
        None => hint.is_empty() && !first.contains('x') || is_file,
        Some(_) => hint.is_empty() || is_file || is_rank || g.parse_square(hint).is_ok(),
    };
    if !hint_ok {
        return None;
    }
    let file_hint = (0..WIDTH as u8).find(|&f| hint.starts_with(g.file_name(f)));
    let rank_hint = (0..11u8).rev().find(|&r| hint.ends_with(g.rank_name(r)));
    let m = pos.turn;
    let kind_wanted = kind.unwrap_or(Kind::Pawn);
    let mut from: Vec<usize> = (0..crate::tables::SQUARES)
        .filter(|&s| pos.man_at(s) == Some((m, kind_wanted)))
        .filter(|&s| file_hint.is_none_or(|f| s % WIDTH == f as usize))
        .filter(|&s| rank_hint.is_none_or(|r| s / WIDTH == r as usize) || hint.len() <= 1)
        .collect();
    if kind.is_none() && file_hint.is_none() {
        // A pawn move without a capture stays on its file.
        from.retain(|&s| s % WIDTH == to % WIDTH);
    }
    Some(Intent {
        from,
        kind: Some(kind_wanted),
        to,
        second,
        release: false,
    })
}

/// The rule forbidding `text` here, or `None` when it is not a move in any known form.
pub(crate) fn explain(pos: &CypherPosition, text: &str) -> Option<String> {
    let intent = parse_canonical(text).or_else(|| parse_human(pos, text))?;
    if intent.release {
        return Some(release_reason(pos, intent.to));
    }
    if intent.from.is_empty() {
        let kind = intent.kind.unwrap_or(Kind::Pawn);
        return Some(format!(
            "{} has no {} that could go to {}",
            pos.turn,
            kind.name(),
            square_name(intent.to)
        ));
    }
    // Prefer a man whose own movement reaches the square; report the first reason found.
    let mut reasons: Vec<(bool, String)> = intent
        .from
        .iter()
        .map(|&from| {
            let shape = pos
                .man_at(from)
                .is_some_and(|(_, k)| shape_reason(pos, &pos.board, from, intent.to, k).is_none());
            (shape, turn_reason(pos, from, &intent))
        })
        .collect();
    reasons.sort_by_key(|(shape, _)| !*shape);
    reasons.into_iter().next().map(|(_, r)| r)
}

fn release_reason(pos: &CypherPosition, to: usize) -> String {
    let t = tables();
    let m = pos.turn;
    if pos.pools[m as usize] == 0 {
        return format!("{m} has no captured pawn to release (the pool is empty)");
    }
    if t.sector[to] != Sector::Border {
        return "a released pawn is placed on an empty Border square (a5 to h5)".into();
    }
    if pos.man_at(to).is_some() {
        return format!(
            "{} is occupied; a released pawn needs an empty Border square",
            square_name(to)
        );
    }
    if pos.board.in_check(m, true) {
        return "no prisoner release while your King is in check".into();
    }
    "the released pawn would give check to the enemy King".into()
}

fn man(color: Color, kind: Kind) -> String {
    format!("{} {}", color, kind.name())
}

/// Whether a man of `kind` on `from` could reach `to` by its own movement on `board`
/// (blockers included); the reason if not.
fn shape_reason(
    pos: &CypherPosition,
    board: &Board,
    from: usize,
    to: usize,
    kind: Kind,
) -> Option<String> {
    let t = tables();
    let sf = t.sector[from];
    let occ = board.occupied();
    let line = |empty_board: u128, real: u128, how: &str| -> Option<String> {
        if empty_board >> to & 1 == 0 {
            return Some(how.to_string());
        }
        if real >> to & 1 == 0 {
            // The first man on the way.
            let between = empty_board & queen_between(from, to);
            let mut blockers = between & occ;
            let mut nearest = None;
            while blockers != 0 {
                let s = blockers.trailing_zeros() as usize;
                blockers &= blockers - 1;
                let d = distance(from, s);
                if nearest.is_none_or(|(nd, _)| d < nd) {
                    nearest = Some((d, s));
                }
            }
            if let Some((_, s)) = nearest {
                let (c, k) = board.kind_at(s).unwrap_or((Color::White, Kind::Pawn));
                let spy = if k == Kind::Spy {
                    " (a Spy blocks movement in every sector)"
                } else {
                    ""
                };
                return Some(format!(
                    "the way is blocked by the {} on {}{spy}",
                    man(c, k),
                    square_name(s)
                ));
            }
            return Some(how.to_string());
        }
        None
    };
    match kind {
        Kind::Knight => {
            if knight_reach(sf, from) >> to & 1 != 0 {
                return None;
            }
            Some(match sf {
                Sector::Field if t.knight_x[from] >> to & 1 != 0 => {
                    "a Field knight leaps only the ordinary L; the extended L is for Court and Border knights".into()
                }
                Sector::Field => "a Field knight leaps only the ordinary L".into(),
                Sector::Court if t.knight_l[from] >> to & 1 != 0 => {
                    "a Court knight leaps only the extended L (the long leg one square longer); the ordinary L is for Field and Border knights".into()
                }
                Sector::Court => "a Court knight leaps only the extended L (the long leg one square longer)".into(),
                Sector::Border => "a Border knight leaps the ordinary or the extended L, nothing else".into(),
            })
        }
        Kind::Bishop => line(
            bishop_attacks(t, from, 0),
            bishop_attacks(t, from, occ),
            "a bishop moves along diagonals",
        ),
        Kind::Rook => line(
            rook_attacks(t, from, 0),
            rook_attacks(t, from, occ),
            "a rook moves along ranks and files",
        ),
        Kind::Queen => line(
            queen_attacks(t, from, 0),
            queen_attacks(t, from, occ),
            "a queen moves along ranks, files and diagonals",
        ),
        Kind::Spy => line(
            queen_attacks(t, from, 0),
            queen_attacks(t, from, occ),
            "the Spy moves like a queen, along ranks, files and diagonals",
        ),
        Kind::King => (t.adjacent[from] >> to & 1 == 0)
            .then(|| "the King steps one square in any direction (there is no castling)".into()),
        Kind::Pawn => {
            let m = board.kind_at(from).map_or(pos.turn, |(c, _)| c);
            let (dir, start): (isize, usize) = if m == Color::White { (1, 3) } else { (-1, 7) };
            let df = (to % WIDTH) as isize - (from % WIDTH) as isize;
            let dr = ((to / WIDTH) as isize - (from / WIDTH) as isize) * dir;
            match (df, dr) {
                (0, 1) => None,
                (0, 2) if from / WIDTH != start => Some(format!(
                    "only a pawn on its starting rank (rank {start} for {m}) may move two squares"
                )),
                (0, 2) => {
                    let mid = (from as isize + 10 * dir) as usize;
                    board.kind_at(mid).map(|(c, k)| {
                        format!("the way is blocked by the {} on {}", man(c, k), square_name(mid))
                    })
                }
                (-1 | 1, 1) => None,
                _ => Some(format!(
                    "a pawn moves one square straight forward (towards rank {}), two from its starting rank, and captures one square diagonally forward",
                    if m == Color::White { 10 } else { 0 }
                )),
            }
        }
    }
}

fn distance(a: usize, b: usize) -> usize {
    let (fa, ra, fb, rb) = (a % WIDTH, a / WIDTH, b % WIDTH, b / WIDTH);
    fa.abs_diff(fb).max(ra.abs_diff(rb))
}

/// The squares strictly between `a` and `b` on a line (0 if not on one line).
fn queen_between(a: usize, b: usize) -> u128 {
    let t = tables();
    for d in 0..8 {
        if t.rays[d][a] >> b & 1 != 0 {
            return t.rays[d][a] & !t.rays[d][b] & !(1u128 << b);
        }
    }
    0
}

/// The rule a first half from `from` to `to` breaks as an ordinary move, if any.
fn first_half_reason(pos: &CypherPosition, from: usize, to: usize) -> Option<String> {
    let t = tables();
    let b = &pos.board;
    let m = pos.turn;
    let Some((c, k)) = b.kind_at(from) else {
        return Some(format!("there is no man on {}", square_name(from)));
    };
    if c != m {
        return Some(format!(
            "the {} on {} is {c}'s, and it is {m}'s turn",
            k.name(),
            square_name(from)
        ));
    }
    if from == to {
        return Some("a move must go to another square".into());
    }
    let target = b.kind_at(to);
    if let Some((tc, tk)) = target {
        if tc == m {
            return Some(format!("{} holds your own {}", square_name(to), tk.name()));
        }
    }
    let (sf, st) = (t.sector[from], t.sector[to]);
    if k == Kind::Pawn {
        let df = (to % WIDTH) as isize - (from % WIDTH) as isize;
        if st == Sector::Court {
            return Some("pawns never stand on, move to or capture on a Court square".into());
        }
        if let Some(r) = shape_reason(pos, b, from, to, k) {
            return Some(r);
        }
        if df == 0 && target.is_some() {
            return Some(
                "a pawn captures only diagonally forward; straight ahead it needs an empty square"
                    .into(),
            );
        }
        if df != 0 && target.is_none() {
            return Some("a pawn moves diagonally only to capture (there is no en passant)".into());
        }
    } else if let Some(r) = shape_reason(pos, b, from, to, k) {
        return Some(r);
    }
    if let Some((_, vk)) = target {
        if vk == Kind::King {
            return Some("a King is never captured by a move (only an infiltrating piece sent onto him takes him)".into());
        }
        if vk == Kind::Spy {
            return Some("no man captures a Spy; only infiltration removes it".into());
        }
        if k == Kind::Spy {
            if sf != Sector::Court {
                return Some("the Spy captures only when it starts its move in Court".into());
            }
            if st != Sector::Court {
                return Some("the Spy may not capture outside Court".into());
            }
            return None;
        }
        if st == Sector::Court {
            return Some("a man in Court can be taken only by the enemy Spy starting from Court, or by infiltration".into());
        }
        if vk.is_major() && st == Sector::Border && k != Kind::Pawn {
            return Some(format!(
                "a Border {} can be taken only by a pawn: sanctuary",
                vk.name()
            ));
        }
        if vk.is_major() && st == Sector::Field && sf == Sector::Field && pos.retake as usize != to
        {
            let window = if pos.retake != NONE {
                format!(
                    " (this turn's re-take is only against the man on {})",
                    square_name(pos.retake as usize)
                )
            } else {
                " (a re-take is allowed only on the very next turn after a Border or Court piece's capture)".into()
            };
            if k.is_major() {
                return Some(format!(
                    "a Field {} cannot capture a Field {}: sanctuary{window}",
                    k.name(),
                    vk.name()
                ));
            }
            if k == Kind::King && b.colluding_checkers(m) >> to & 1 == 0 {
                return Some(format!(
                    "a Field King may take a Field {} only as a re-take or when it checks him by collusion",
                    vk.name()
                ));
            }
        }
    } else if st == Sector::Court {
        if k.is_major() && sf != Sector::Court {
            return Some(format!(
                "a {} {} may enter Court only as the second half of a combined move (its Spy leaving Court) or by infiltration",
                sf.name(),
                k.name()
            ));
        }
        if k == Kind::King && !pos.king_may_enter_court(m) {
            return Some(match pos.rules.king_court_entry {
                KingCourtEntry::OwnSpyOutside => {
                    "the King may not step onto a Court square while his own Spy is in Court".into()
                }
                _ => "the King may not step onto a Court square while the enemy Spy is in Court"
                    .into(),
            });
        }
    }
    None
}

/// The rule the board after a (part of a) turn breaks: check first (10.1), then self-flip.
fn after_reason(
    pos: &CypherPosition,
    child: &Board,
    king_moved: bool,
    what: &str,
) -> Option<String> {
    let m = pos.turn;
    if child.in_check(m, true) {
        return Some(if king_moved {
            format!("the King would be in check{what}")
        } else if pos.board.in_check(m, true) {
            format!("the King is in check, and this turn does not parry it{what}")
        } else {
            format!("the King would be in check{what}: the turn opens a line to him")
        });
    }
    if pos.rules.self_flip_illegal {
        if let Some(f) = child.flip(m).filter(|f| f.winner != m) {
            return Some(format!(
                "under option self-flip=illegal a turn may not flip its own side ({})",
                f.describe()
            ));
        }
    }
    None
}

fn turn_reason(pos: &CypherPosition, from: usize, intent: &Intent) -> String {
    let t = tables();
    let m = pos.turn;
    let to = intent.to;
    if let Some(r) = first_half_reason(pos, from, to) {
        return r;
    }
    let kind = pos.man_at(from).map_or(Kind::Pawn, |(_, k)| k);
    let mut child = pos.board;
    child.shift(from, to);
    let fallback = || "no legal move matches it".to_string();
    match intent.second {
        Second::None | Second::Switch(_) => {
            let last = if m == Color::White { 9 } else { 1 };
            let coup = kind == Kind::Pawn && to / WIDTH == last;
            if let Second::Switch(x) = intent.second {
                if !coup {
                    return "only a pawn reaching its last Field rank (rank 9 for White, 1 for Black) makes a coup d'etat".into();
                }
                child.remove(to);
                let candidates = pos.coup_candidates(&child, m.other());
                if candidates >> x & 1 == 0 {
                    return coup_choice(pos, &child, candidates, "the coup d'etat switches");
                }
                let c = child.remove(x);
                child.put(x, m, code_kind(c));
            } else if coup {
                child.remove(to);
                let candidates = pos.coup_candidates(&child, m.other());
                if candidates != 0 {
                    return coup_choice(
                        pos,
                        &child,
                        candidates,
                        "a coup d'etat must name the man that changes sides",
                    );
                }
            }
            after_reason(pos, &child, kind == Kind::King, "").unwrap_or_else(fallback)
        }
        Second::Enter(second_from, second_kind, dest) => {
            if !(kind == Kind::Spy
                && t.sector[from] == Sector::Court
                && t.sector[to] != Sector::Court)
            {
                return "only a Spy moving from Court to a Field or Border square lets a piece enter Court".into();
            }
            if let Some(r) = after_reason(pos, &child, false, " after the Spy's move") {
                return r;
            }
            if let Some(f) = child.flip(m) {
                return format!(
                    "the Spy's move ends the game at once ({}), so no piece may enter Court",
                    f.describe()
                );
            }
            let pieces = second_candidates(&child, m, second_from, second_kind);
            let Some(&piece) = pieces.first() else {
                return "you have no such piece to let into Court".into();
            };
            let Some((c, k)) = child.kind_at(piece) else {
                return if piece == from {
                    "the Spy has just left that square; the entering piece must be another man"
                        .into()
                } else {
                    format!("there is no man on {}", square_name(piece))
                };
            };
            if c != m {
                return format!("the {} on {} is not yours", k.name(), square_name(piece));
            }
            if !k.is_major() {
                return "only a Queen, Rook, Bishop or Knight may enter Court (never the King, a pawn or the Spy)".into();
            }
            if t.sector[piece] == Sector::Court {
                return "a piece already in Court needs no entry; it moves on its own turns".into();
            }
            if t.sector[dest] != Sector::Court {
                return "the entering piece must land on a Court square".into();
            }
            if child.kind_at(dest).is_some() {
                return "the entering piece must land on an empty Court square (it cannot capture there)".into();
            }
            if let Some(r) = shape_reason(pos, &child, piece, dest, k) {
                return if r.contains("Spy on") && dest != to {
                    format!(
                        "{r}: the Spy moves first, and its new square blocks the entering piece"
                    )
                } else {
                    r
                };
            }
            child.shift(piece, dest);
            after_reason(pos, &child, false, "").unwrap_or_else(fallback)
        }
        Second::Send(second_from, second_kind, dest) => {
            if kind != Kind::King {
                return "only a King's move onto the Border can bring an infiltration".into();
            }
            if t.sector[to] != Sector::Border {
                return "infiltration follows only a King move that lands on the Border".into();
            }
            if !pos.infiltration[m as usize] {
                return format!("{m} has already used its infiltration (once per game)");
            }
            if let Some(r) = after_reason(
                pos,
                &child,
                true,
                &format!(
                    " on {}; the King's step must be legal by itself",
                    square_name(to)
                ),
            ) {
                return r;
            }
            if let Some(f) = child.flip(m) {
                return format!(
                    "the King's step ends the game at once ({}), so nothing is sent",
                    f.describe()
                );
            }
            let pieces = second_candidates(&child, m, second_from, second_kind);
            let Some(&piece) = pieces.first() else {
                return "you have no such piece to send".into();
            };
            match child.kind_at(piece) {
                Some((c, k)) if c == m && k.is_major() => {}
                Some((c, _)) if c != m => return format!("the man on {} is not yours", square_name(piece)),
                None => return format!("there is no man on {}", square_name(piece)),
                _ => return "only a Queen, Rook, Bishop or Knight may be sent (never a pawn, the King or the Spy)".into(),
            }
            let targets = pos.infiltration_targets(m);
            if !targets.contains(&(dest as u8)) {
                return if dest == 4 || dest == 104 {
                    format!(
                        "under option infiltration-target=enemy-home {m} sends only to {}",
                        square_name(targets.first().copied().unwrap_or(4) as usize)
                    )
                } else {
                    "an infiltrating piece is sent to d0 or d10".into()
                };
            }
            if let Some((c, k)) = child.kind_at(dest) {
                if c == m {
                    return format!("{} holds your own {}", square_name(dest), k.name());
                }
            }
            child.shift(piece, dest);
            after_reason(pos, &child, false, "").unwrap_or_else(fallback)
        }
    }
}

fn coup_choice(pos: &CypherPosition, board: &Board, candidates: u128, lead: &str) -> String {
    let o = pos.turn.other();
    if candidates == 0 {
        return format!(
            "nothing changes sides: {o} has no man but its King and Spy that a coup may switch"
        );
    }
    let names: Vec<String> = (0..crate::tables::SQUARES)
        .filter(|&s| candidates >> s & 1 != 0)
        .map(|s| {
            let k = board.kind_at(s).map_or(Kind::Pawn, |(_, k)| k);
            format!("the {} on {}", k.name(), square_name(s))
        })
        .collect();
    format!("{lead} {o}'s highest-ranking man: {}", names.join(" or "))
}

/// The squares the second half of a turn may name: the square given, or every man of
/// `side` of the kind given.
fn second_candidates(
    child: &Board,
    side: Color,
    from: Option<usize>,
    kind: Option<Kind>,
) -> Vec<usize> {
    match from {
        Some(s) => vec![s],
        None => (0..crate::tables::SQUARES)
            .filter(|&s| {
                child
                    .kind_at(s)
                    .is_some_and(|(c, k)| c == side && Some(k) == kind)
            })
            .collect(),
    }
}
