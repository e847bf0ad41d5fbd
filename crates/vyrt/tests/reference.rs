//! A deliberately naive second implementation of the rulebook, written from the text alone:
//! a mailbox, rays stepped square by square with `(x + dx) mod 12`, and legality by making
//! the move and scanning every enemy unit's attacks. The fast generator must agree with it on
//! every legal move list and every position string along random games and in random sparse
//! positions, under every combination of rule options.

// `is_multiple_of` is newer than the workspace's minimum Rust version.
#![allow(clippy::manual_is_multiple_of)]

use menagerie_core::zobrist::KeyGen;
use menagerie_core::Position;
use menagerie_vyrt::{Rules, VyrtPosition, START_FEN};
use std::collections::BTreeSet;

const FILES: &str = "KLABCDEFGHIJ";

fn sq(x: i32, y: i32) -> usize {
    (12 * y.rem_euclid(12) + x.rem_euclid(12)) as usize
}

fn name(s: usize) -> String {
    let rank = (s / 12 + 11) % 12;
    format!(
        "{}{}",
        &FILES[s % 12..s % 12 + 1],
        if rank == 0 { 12 } else { rank }
    )
}

fn parse_sq(t: &str) -> usize {
    let x = FILES.find(t[..1].to_ascii_uppercase().as_str()).unwrap();
    let r: usize = t[1..].parse().unwrap();
    12 * ((r + 1) % 12) + x
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Unit {
    white: bool,
    kind: char, // P N B R Q K
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Normal,
    Double,
    EnPassant,
    Castle,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Mv {
    from: usize,
    to: usize,
    promo: Option<char>,
    kind: Kind,
}

#[derive(Clone)]
struct Ref {
    board: [Option<Unit>; 144],
    white: bool,
    castling: [bool; 4],
    ep: Option<usize>,
    ds: BTreeSet<usize>,
    half: u32,
    full: u32,
    any_unmoved: bool,
    reversed: bool,
}

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ORTHOGONALS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];
const KING: [(i32, i32); 8] = [
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
];

impl Ref {
    fn parse(fen: &str, rules: Rules) -> Ref {
        let f: Vec<&str> = fen.split(' ').collect();
        let mut board = [None; 144];
        for (i, row) in f[0].split('/').enumerate() {
            let y = 11 - i as i32;
            let mut x = 0;
            let mut num = String::new();
            for c in row.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    num.push(c);
                    continue;
                }
                if !num.is_empty() {
                    x += num.parse::<i32>().unwrap();
                    num.clear();
                }
                if c != '/' {
                    board[sq(x, y)] = Some(Unit {
                        white: c.is_ascii_uppercase(),
                        kind: c.to_ascii_uppercase(),
                    });
                    x += 1;
                }
            }
        }
        let mut ds = BTreeSet::new();
        if f[4] != "-" {
            if rules.double_step_any_unmoved {
                ds.extend(f[4].split(',').map(parse_sq));
            } else {
                let (w, b) = f[4].split_once('/').unwrap();
                for (part, y) in [(w, 3), (b, 8)] {
                    for c in part.chars().filter(|&c| c != '-') {
                        let x = FILES.find(c.to_ascii_uppercase()).unwrap() as i32;
                        ds.insert(sq(x, y));
                    }
                }
            }
        }
        Ref {
            board,
            white: f[1] == "w",
            castling: ['K', 'Q', 'k', 'q'].map(|c| f[2].contains(c)),
            ep: (f[3] != "-").then(|| parse_sq(f[3])),
            ds,
            half: f[5].parse().unwrap(),
            full: f[6].parse().unwrap(),
            any_unmoved: rules.double_step_any_unmoved,
            reversed: rules.reversed_back_pawns,
        }
    }

    fn fen(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..12).rev() {
            let mut row = String::new();
            let mut run = 0;
            for x in 0..12 {
                match self.board[sq(x, y)] {
                    None => run += 1,
                    Some(u) => {
                        if run > 0 {
                            row += &run.to_string();
                            run = 0;
                        }
                        row.push(if u.white {
                            u.kind
                        } else {
                            u.kind.to_ascii_lowercase()
                        });
                    }
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        let castling: String = ['K', 'Q', 'k', 'q']
            .iter()
            .zip(self.castling)
            .filter(|(_, on)| *on)
            .map(|(c, _)| *c)
            .collect();
        let ds = if self.ds.is_empty() {
            "-".to_string()
        } else if self.any_unmoved {
            self.ds
                .iter()
                .map(|&s| name(s))
                .collect::<Vec<_>>()
                .join(",")
        } else {
            let part = |y: usize, upper: bool| {
                let s: String = (1..=10)
                    .filter(|&x| self.ds.contains(&(12 * y + x)))
                    .map(|x| {
                        let c = FILES.as_bytes()[x] as char;
                        if upper {
                            c
                        } else {
                            c.to_ascii_lowercase()
                        }
                    })
                    .collect();
                if s.is_empty() {
                    "-".to_string()
                } else {
                    s
                }
            };
            format!("{}/{}", part(3, true), part(8, false))
        };
        format!(
            "{} {} {} {} {} {} {}",
            rows.join("/"),
            if self.white { 'w' } else { 'b' },
            if castling.is_empty() {
                "-".into()
            } else {
                castling
            },
            self.ep.map(name).unwrap_or("-".into()),
            ds,
            self.half,
            self.full
        )
    }

    /// +1 or -1: which way a pawn of this colour on this square walks.
    fn pawn_dy(&self, white: bool, s: usize) -> i32 {
        let y = s / 12;
        let back_row_pawn = self.reversed && (y <= 1 || y >= 10);
        if white != back_row_pawn {
            1
        } else {
            -1
        }
    }

    fn promotes(white: bool, s: usize) -> bool {
        s / 12 == if white { 9 } else { 2 }
    }

    /// Every square attacked by `white`'s units (a King is a blocker like any unit).
    fn attacks(&self, white: bool) -> [bool; 144] {
        let mut a = [false; 144];
        for s in 0..144 {
            let Some(u) = self.board[s] else { continue };
            if u.white != white {
                continue;
            }
            let (x, y) = ((s % 12) as i32, (s / 12) as i32);
            let dirs: Vec<(i32, i32)> = match u.kind {
                'B' => DIAGONALS.to_vec(),
                'R' => ORTHOGONALS.to_vec(),
                'Q' => [DIAGONALS, ORTHOGONALS].concat(),
                _ => vec![],
            };
            for (dx, dy) in dirs {
                for k in 1..12 {
                    let t = sq(x + k * dx, y + k * dy);
                    a[t] = true;
                    if self.board[t].is_some() {
                        break;
                    }
                }
            }
            match u.kind {
                'N' => KNIGHT
                    .iter()
                    .for_each(|(dx, dy)| a[sq(x + dx, y + dy)] = true),
                'K' => KING
                    .iter()
                    .for_each(|(dx, dy)| a[sq(x + dx, y + dy)] = true),
                'P' => {
                    let dy = self.pawn_dy(white, s);
                    a[sq(x - 1, y + dy)] = true;
                    a[sq(x + 1, y + dy)] = true;
                }
                _ => {}
            }
        }
        a
    }

    fn king(&self, white: bool) -> usize {
        (0..144)
            .find(|&s| self.board[s] == Some(Unit { white, kind: 'K' }))
            .unwrap()
    }

    fn in_check(&self) -> bool {
        self.attacks(!self.white)[self.king(self.white)]
    }

    fn make(&mut self, m: Mv) {
        let u = self.board[m.from].unwrap();
        let dy = self.pawn_dy(u.white, m.from);
        self.half += 1;
        if self.board[m.to].is_some() || u.kind == 'P' {
            self.half = 0;
        }
        self.board[m.to] = Some(match m.promo {
            Some(p) => Unit {
                white: u.white,
                kind: p,
            },
            None => u,
        });
        self.board[m.from] = None;
        self.ep = None;
        match m.kind {
            Kind::Double => self.ep = Some(sq((m.from % 12) as i32, (m.from / 12) as i32 + dy)),
            Kind::EnPassant => {
                let victim = sq(
                    (m.to % 12) as i32,
                    (m.to / 12) as i32 + self.pawn_dy(!u.white, m.to),
                );
                self.board[victim] = None;
            }
            Kind::Castle => {
                let y = m.from / 12;
                let (rf, rt) = if m.to % 12 == 8 { (9, 7) } else { (2, 5) };
                self.board[12 * y + rt] = self.board[12 * y + rf].take();
            }
            Kind::Normal => {}
        }
        for s in [m.from, m.to] {
            for (i, corner) in [(0, "H1"), (1, "A1"), (2, "H8"), (3, "A8")] {
                if s == parse_sq(corner) {
                    self.castling[i] = false;
                }
            }
            if s == parse_sq("E1") {
                self.castling[0] = false;
                self.castling[1] = false;
            }
            if s == parse_sq("E8") {
                self.castling[2] = false;
                self.castling[3] = false;
            }
            self.ds.remove(&s);
        }
        if !self.white {
            self.full += 1;
        }
        self.white = !self.white;
    }

    fn legal(&self) -> Vec<Mv> {
        let me = self.white;
        let mut pseudo = BTreeSet::new();
        let add_pawn = |set: &mut BTreeSet<Mv>, from: usize, to: usize, kind: Kind| {
            if Self::promotes(me, to) {
                for p in ['Q', 'R', 'B', 'N'] {
                    set.insert(Mv {
                        from,
                        to,
                        promo: Some(p),
                        kind,
                    });
                }
            } else {
                set.insert(Mv {
                    from,
                    to,
                    promo: None,
                    kind,
                });
            }
        };
        for s in 0..144 {
            let Some(u) = self.board[s] else { continue };
            if u.white != me {
                continue;
            }
            let (x, y) = ((s % 12) as i32, (s / 12) as i32);
            let free = |t: usize| self.board[t].is_none_or(|v| v.white != me);
            let mut normal = |t: usize| {
                pseudo.insert(Mv {
                    from: s,
                    to: t,
                    promo: None,
                    kind: Kind::Normal,
                });
            };
            let dirs: Vec<(i32, i32)> = match u.kind {
                'B' => DIAGONALS.to_vec(),
                'R' => ORTHOGONALS.to_vec(),
                'Q' => [DIAGONALS, ORTHOGONALS].concat(),
                _ => vec![],
            };
            for (dx, dy) in dirs {
                for k in 1..12 {
                    let t = sq(x + k * dx, y + k * dy);
                    if free(t) {
                        normal(t);
                    }
                    if self.board[t].is_some() {
                        break;
                    }
                }
            }
            match u.kind {
                'N' => KNIGHT
                    .iter()
                    .map(|(dx, dy)| sq(x + dx, y + dy))
                    .filter(|&t| free(t))
                    .for_each(&mut normal),
                'K' => KING
                    .iter()
                    .map(|(dx, dy)| sq(x + dx, y + dy))
                    .filter(|&t| free(t))
                    .for_each(&mut normal),
                'P' => {
                    let dy = self.pawn_dy(me, s);
                    let one = sq(x, y + dy);
                    if self.board[one].is_none() {
                        add_pawn(&mut pseudo, s, one, Kind::Normal);
                        let two = sq(x, y + 2 * dy);
                        if self.ds.contains(&s) && self.board[two].is_none() {
                            add_pawn(&mut pseudo, s, two, Kind::Double);
                        }
                    }
                    for t in [sq(x - 1, y + dy), sq(x + 1, y + dy)] {
                        if self.board[t].is_some_and(|v| v.white != me) {
                            add_pawn(&mut pseudo, s, t, Kind::Normal);
                        }
                        if self.ep == Some(t) {
                            add_pawn(&mut pseudo, s, t, Kind::EnPassant);
                        }
                    }
                }
                _ => {}
            }
        }
        let mut legal: Vec<Mv> = pseudo
            .into_iter()
            .filter(|&m| {
                let mut next = self.clone();
                next.make(m);
                !next.attacks(!me)[next.king(me)]
            })
            .collect();
        // castling (§6.1)
        let (y, rights) = if me { (2, [0, 1]) } else { (9, [2, 3]) };
        let enemy = self.attacks(!me);
        for (right, between, crossing, landing) in [
            (rights[0], vec![7, 8], 7, 8),
            (rights[1], vec![3, 4, 5], 5, 4),
        ] {
            if !self.castling[right]
                || between.iter().any(|&x| self.board[12 * y + x].is_some())
                || enemy[12 * y + 6]
                || enemy[12 * y + crossing]
                || enemy[12 * y + landing]
            {
                continue;
            }
            let m = Mv {
                from: 12 * y + 6,
                to: 12 * y + landing,
                promo: None,
                kind: Kind::Castle,
            };
            let mut next = self.clone();
            next.make(m);
            if !next.attacks(!me)[next.king(me)] {
                legal.push(m);
            }
        }
        legal
    }

    fn text(m: Mv) -> String {
        match (m.kind, m.to % 12) {
            (Kind::Castle, 8) => "O-O".into(),
            (Kind::Castle, _) => "O-O-O".into(),
            _ => format!(
                "{}-{}{}",
                name(m.from),
                name(m.to),
                m.promo.map(|p| format!("={p}")).unwrap_or_default()
            ),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.make(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}

fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for any in [false, true] {
        for rev in [false, true] {
            v.push(Rules {
                double_step_any_unmoved: any,
                reversed_back_pawns: rev,
            });
        }
    }
    v
}

/// Compares the two implementations on `pos`; returns the fast one's legal moves.
fn compare(pos: &VyrtPosition, reference: &Ref) -> Vec<menagerie_vyrt::VyrtMove> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let fast: BTreeSet<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    let slow: BTreeSet<String> = reference.legal().into_iter().map(Ref::text).collect();
    assert_eq!(fast.len(), moves.len(), "duplicate moves in {}", pos.fen());
    // Quiescence's list: exactly the noisy moves, in the same order, and whether any move
    // at all exists (a position with none is mate or stalemate).
    let mut noisy = Vec::new();
    let any = pos.legal_noisy_moves(&mut noisy);
    let filtered: Vec<_> = moves.iter().copied().filter(|&m| pos.is_noisy(m)).collect();
    assert_eq!(noisy, filtered, "noisy moves of {}", pos.fen());
    assert_eq!(any, !moves.is_empty(), "any move in {}", pos.fen());
    assert_eq!(fast, slow, "legal moves of {}", pos.fen());
    assert_eq!(pos.fen(), reference.fen());
    assert_eq!(
        pos.is_check(),
        reference.in_check(),
        "check in {}",
        pos.fen()
    );
    // The search's check hint: exact after every move but castling and en passant, for
    // which it must say "may".
    for &m in &moves {
        let mut child = pos.clone();
        child.play(m);
        let may = pos.may_give_check(m);
        if m.is_castling() || m.is_en_passant() {
            assert!(may, "{} in {}", pos.move_text(m), pos.fen());
        } else {
            assert_eq!(
                may,
                child.is_check(),
                "gives check: {} in {}",
                pos.move_text(m),
                pos.fen()
            );
        }
    }
    moves
}

/// Plays a random game, comparing at every step; captures and promotions are favoured so
/// that games reach open boards, promotions and endings.
fn random_game(mut pos: VyrtPosition, rules: Rules, rng: &mut KeyGen, plies: usize) {
    let mut reference = Ref::parse(&pos.fen(), rules);
    for _ in 0..plies {
        let moves = compare(&pos, &reference);
        if moves.is_empty() {
            break;
        }
        let noisy: Vec<_> = moves.iter().copied().filter(|&m| pos.is_noisy(m)).collect();
        let pool = if !noisy.is_empty() && rng.next() % 3 != 0 {
            &noisy
        } else {
            &moves
        };
        let mv = pool[(rng.next() % pool.len() as u64) as usize];
        let text = pos.move_text(mv);
        let slow = reference
            .legal()
            .into_iter()
            .find(|&m| Ref::text(m) == text)
            .unwrap();
        pos.play(mv);
        reference.make(slow);
        assert_eq!(
            pos.key(),
            VyrtPosition::from_fen(&pos.fen(), rules).unwrap().key()
        );
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = KeyGen::new(2024);
    for rules in all_rules() {
        for _ in 0..12 {
            random_game(VyrtPosition::start(rules), rules, &mut rng, 250);
        }
    }
}

/// A random sparse position: both Kings and a few units, with castling rights where the
/// units stand for them, and the side to move at random.
fn random_sparse(rng: &mut KeyGen, rules: Rules) -> Option<String> {
    let mut board = [None::<char>; 144];
    let place = |c: char, rng: &mut KeyGen, board: &mut [Option<char>; 144]| loop {
        let s = (rng.next() % 144) as usize;
        if board[s].is_none() {
            board[s] = Some(c);
            return;
        }
    };
    // Kings and Rooks often on their home squares, so that castling comes up
    if rng.next() % 2 == 0 {
        board[parse_sq("E1")] = Some('K');
        board[parse_sq("H1")] = Some('R');
        board[parse_sq("A1")] = Some('R');
    } else {
        place('K', rng, &mut board);
    }
    if rng.next() % 2 == 0 {
        board[parse_sq("E8")] = Some('k');
        board[parse_sq("H8")] = Some('r');
        board[parse_sq("A8")] = Some('r');
    } else {
        place('k', rng, &mut board);
    }
    // pawns: half of them on a start square (with its double-step right), the rest on the
    // ranks where double steps and en passant meet
    let start_squares = |white: bool| -> Vec<usize> {
        let rows: [i32; 3] = if white { [1, 2, 3] } else { [10, 9, 8] };
        (1..=10)
            .flat_map(|x| rows.iter().map(move |&y| sq(x, y)))
            .filter(|&s| s / 12 != 2 && s / 12 != 9 || s % 12 == 1 || s % 12 == 10)
            .collect()
    };
    let pawns = rng.next() % 7;
    for _ in 0..pawns {
        let white = rng.next() % 2 == 0;
        let c = if white { 'P' } else { 'p' };
        let s = if rng.next() % 2 == 0 {
            let list = start_squares(white);
            list[(rng.next() % list.len() as u64) as usize]
        } else {
            let y = if white { 6 } else { 5 };
            sq((rng.next() % 12) as i32, y)
        };
        if board[s].is_none() {
            board[s] = Some(c);
        }
    }
    let n = 1 + rng.next() % 5;
    for _ in 0..n {
        let c = b"NBRQnbrq"[(rng.next() % 8) as usize] as char;
        place(c, rng, &mut board);
    }
    // a third of the time: a double step was just played beside an enemy pawn, sometimes
    // with a Rook or Queen on that rank that en passant could uncover (T30)
    let mut ep = None;
    let side = if rng.next() % 2 == 0 { 'w' } else { 'b' };
    if rng.next() % 3 == 0 {
        let white_moved = side == 'b';
        let x = 1 + (rng.next() % 10) as i32;
        let (from_y, ep_y, to_y) = if white_moved { (3, 4, 5) } else { (8, 7, 6) };
        let (mine, theirs) = if white_moved { ('P', 'p') } else { ('p', 'P') };
        board[sq(x, from_y)] = None;
        board[sq(x, ep_y)] = None;
        board[sq(x, to_y)] = Some(mine);
        let dx = if rng.next() % 2 == 0 { 1 } else { -1 };
        if board[sq(x + dx, to_y)].is_none_or(|c| c != 'K' && c != 'k') {
            board[sq(x + dx, to_y)] = Some(theirs);
        }
        if rng.next() % 2 == 0 {
            let slider = if white_moved { *b"RQ" } else { *b"rq" }[(rng.next() % 2) as usize];
            let s = sq((rng.next() % 12) as i32, to_y);
            if board[s].is_none() {
                board[s] = Some(slider as char);
            }
        }
        ep = Some(sq(x, ep_y));
    }
    let mut rows = Vec::new();
    for y in (0..12).rev() {
        let mut row = String::new();
        let mut run = 0;
        for x in 0..12 {
            match board[12 * y + x] {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        row += &run.to_string();
                    }
                    run = 0;
                    row.push(c);
                }
            }
        }
        if run > 0 {
            row += &run.to_string();
        }
        rows.push(row);
    }
    let at = |s: &str, c: char| board[parse_sq(s)] == Some(c);
    let mut castling = String::new();
    for (letter, king, kc, rook, rc) in [
        ('K', "E1", 'K', "H1", 'R'),
        ('Q', "E1", 'K', "A1", 'R'),
        ('k', "E8", 'k', "H8", 'r'),
        ('q', "E8", 'k', "A8", 'r'),
    ] {
        if at(king, kc) && at(rook, rc) {
            castling.push(letter);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ds: Vec<usize> = (0..144)
        .filter(|&s| {
            let white = board[s] == Some('P');
            (white || board[s] == Some('p'))
                && if rules.double_step_any_unmoved {
                    start_squares(white).contains(&s)
                } else {
                    s / 12 == if white { 3 } else { 8 } && (1..=10).contains(&(s % 12))
                }
        })
        .collect();
    let ds = if ds.is_empty() {
        "-".to_string()
    } else if rules.double_step_any_unmoved {
        ds.iter().map(|&s| name(s)).collect::<Vec<_>>().join(",")
    } else {
        let part = |y: usize, upper: bool| {
            let t: String = ds
                .iter()
                .filter(|&&s| s / 12 == y)
                .map(|&s| FILES.as_bytes()[s % 12] as char)
                .map(|c| if upper { c } else { c.to_ascii_lowercase() })
                .collect();
            if t.is_empty() {
                "-".to_string()
            } else {
                t
            }
        };
        format!("{}/{}", part(3, true), part(8, false))
    };
    let ep = ep.map(name).unwrap_or("-".into());
    let fen = format!("{} {side} {castling} {ep} {ds} 0 1", rows.join("/"));
    VyrtPosition::from_fen(&fen, rules).ok().map(|_| fen)
}

#[test]
fn random_sparse_positions_agree_with_the_reference() {
    let mut rng = KeyGen::new(144);
    let mut tested = 0;
    for rules in all_rules() {
        let mut n = 0;
        while n < 600 {
            let Some(fen) = random_sparse(&mut rng, rules) else {
                continue;
            };
            let pos = VyrtPosition::from_fen(&fen, rules).unwrap();
            random_game(pos, rules, &mut rng, 12);
            n += 1;
        }
        tested += n;
    }
    assert_eq!(tested, 2400);
}

#[test]
fn hand_picked_positions_agree_with_the_reference() {
    let any = Rules {
        double_step_any_unmoved: true,
        reversed_back_pawns: false,
    };
    let both = Rules {
        double_step_any_unmoved: true,
        reversed_back_pawns: true,
    };
    let mut rng = KeyGen::new(7);
    for (fen, rules, line, en_passant) in [
        // A12-A2 passes A1, Black's promotion rank: B2xA1 e.p. promotes
        (
            "12/12/6k5/12/12/12/7K4/12/3p8/12/2P9/12 w - - A12 0 1",
            any,
            "A12-A2",
            true,
        ),
        // a reversed White pawn double-steps A12-A10 across the seam; B10xA11 e.p.
        (
            "3p8/12/6k5/12/12/12/12/12/12/6K5/2P9/12 w - - A12 0 1",
            both,
            "A12-A10",
            true,
        ),
        // T30 (en passant refused) and T21
        (
            "6k5/12/12/12/12/3r2N2KpP/12/12/12/12/12/12 w - I6 - 0 1",
            Rules::default(),
            "",
            false,
        ),
        (
            "9k2/12/12/6p5/12/5P6/12/12/12/2K9/12/12 b - - -/e 0 1",
            Rules::default(),
            "E7-E5",
            true,
        ),
    ] {
        let mut pos = VyrtPosition::from_fen(fen, rules).unwrap();
        let mut reference = Ref::parse(fen, rules);
        for text in line.split_whitespace() {
            compare(&pos, &reference);
            let m = pos.parse_move(text).unwrap();
            let slow = reference
                .legal()
                .into_iter()
                .find(|&m| Ref::text(m) == text)
                .unwrap();
            pos.play(m);
            reference.make(slow);
        }
        let moves = compare(&pos, &reference);
        assert_eq!(
            moves.iter().any(|m| m.is_en_passant()),
            en_passant,
            "{}",
            pos.fen()
        );
        for _ in 0..20 {
            random_game(pos.clone(), rules, &mut rng, 6);
        }
    }
    // the en passant promotion itself
    let pos = VyrtPosition::from_fen("12/12/6k5/12/12/12/7K4/12/3p8/12/2P9/12 w - - A12 0 1", any)
        .unwrap();
    let mut pos = pos;
    pos.play(pos.parse_move("A12-A2").unwrap());
    assert_eq!(
        pos.fen(),
        "12/12/6k5/12/12/12/7K4/12/2Pp8/12/12/12 b - A1 - 0 1"
    );
    let ep = pos.parse_move("B2-A1=N").unwrap();
    assert!(ep.is_en_passant());
    assert_eq!(pos.move_human(ep), "B2xA1=N e.p.");
    pos.play(ep);
    assert_eq!(
        pos.fen(),
        "12/12/6k5/12/12/12/7K4/12/12/2n9/12/12 w - - - 0 2"
    );
}

#[test]
fn perft_agrees_with_the_reference_under_every_option() {
    for rules in all_rules() {
        let fast = VyrtPosition::start(rules);
        let slow = Ref::parse(&fast.fen(), rules);
        for d in 1..=3 {
            assert_eq!(fast.perft(d), slow.perft(d), "{rules:?} depth {d}");
        }
    }
    // the §11 positions under the rulings, one ply deeper than the move lists above
    for fen in [
        "6k5/12/12/12/12/NK4P4r/12/12/12/12/12/12 w - - - 0 1",
        "1b9b/B11/6k5/12/12/12/12/6K5/5P1P4/12/12/12 w - - - 0 1",
        "6k5/12/12/12/12/3r2N2KpP/12/12/12/12/12/12 w - I6 - 0 1",
        "12/12/6k5/12/12/12/12/12/12/2R3K2R1r/12/12 w KQ - - 0 1",
    ] {
        let fast = VyrtPosition::from_fen(fen, Rules::default()).unwrap();
        let slow = Ref::parse(fen, Rules::default());
        assert_eq!(fast.perft(3), slow.perft(3), "{fen}");
    }
    assert_eq!(
        VyrtPosition::from_fen(START_FEN, Rules::default())
            .unwrap()
            .perft(2),
        Ref::parse(START_FEN, Rules::default()).perft(2)
    );
}

#[test]
fn option_perft_numbers() {
    // The rulebook gives numbers for double-step-any-unmoved only; the others are this
    // implementation's, checked against the reference above to depth 3.
    let numbers = |rules: Rules| -> Vec<u64> {
        let p = VyrtPosition::start(rules);
        (1..=4).map(|d| p.perft(d)).collect()
    };
    let rules = |any, rev| Rules {
        double_step_any_unmoved: any,
        reversed_back_pawns: rev,
    };
    assert_eq!(numbers(rules(false, false)), [28, 784, 24_792, 779_419]);
    assert_eq!(numbers(rules(true, false)), [28, 784, 24_848, 782_967]);
    // this implementation's figures, guarded against change
    assert_eq!(numbers(rules(false, true)), [38, 1_444, 59_584, 2_451_637]);
    assert_eq!(numbers(rules(true, true)), [48, 2_288, 116_208, 5_843_359]);
}
