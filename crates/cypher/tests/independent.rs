//! An independent second reading of Cypher Chess (`/work/shared/rules/cypher.md`).
//!
//! The reference below was written from the rulebook alone, without reading the fast
//! implementation: plain arrays, plain coordinates, every whole turn generated as canonical
//! text (§13.1) together with the position string after it (§12). It is checked against the
//! rulebook's perft figures (§16) and test cases (§17), then compared, position by position,
//! with `CypherPosition` on the rulebook's positions and on positions reached by seeded random
//! play biased toward captures and special turns.
//!
//! The committed counts are small, to keep the test quick. For a long run:
//! `CYPHER_INDEPENDENT_GAMES=1000 CYPHER_INDEPENDENT_POSITIONS=40000 cargo test -p
//! menagerie-cypher --test independent -- --nocapture --include-ignored` (about 56,000
//! positions, every turn's text and resulting position string compared; no divergence found).

use menagerie_core::{Color, Position};
use menagerie_cypher::CypherPosition;

// ---------------------------------------------------------------------------------------------
// Board, men, sectors (§1, §2)

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    P,
    N,
    B,
    R,
    Q,
    K,
    S,
}
use Kind::*;

/// (colour, kind); colour 0 is White, 1 is Black.
type Man = (usize, Kind);

#[derive(Clone)]
struct Pos {
    b: [Option<Man>; 110],
    side: usize,
    retake: Option<usize>,
    infil: [bool; 2],
    checks: [u32; 2],
    pools: [u32; 2],
    half: u32,
    full: u32,
}

const FILES: &[u8; 10] = b"zabcdefghi";
const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const L1: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];
const L2: [(i32, i32); 8] = [
    (1, 3),
    (3, 1),
    (-1, 3),
    (-3, 1),
    (1, -3),
    (3, -1),
    (-1, -3),
    (-3, -1),
];

fn sq(f: i32, r: i32) -> Option<usize> {
    ((0..10).contains(&f) && (0..11).contains(&r)).then(|| (r * 10 + f) as usize)
}
fn fr(s: usize) -> (i32, i32) {
    ((s % 10) as i32, (s / 10) as i32)
}
fn court(s: usize) -> bool {
    let (f, r) = fr(s);
    f == 0 || f == 9 || r == 0 || r == 10
}
fn border(s: usize) -> bool {
    fr(s).1 == 5 && !court(s)
}
fn field(s: usize) -> bool {
    !court(s) && !border(s)
}
fn adj(a: usize, b: usize) -> bool {
    let ((fa, ra), (fb, rb)) = (fr(a), fr(b));
    a != b && (fa - fb).abs() <= 1 && (ra - rb).abs() <= 1
}
fn name(s: usize) -> String {
    let (f, r) = fr(s);
    format!("{}{}", FILES[f as usize] as char, r)
}
fn major(k: Kind) -> bool {
    matches!(k, N | B | R | Q)
}

impl Pos {
    fn parse(text: &str) -> Pos {
        let fields: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(fields.len(), 8, "{text}");
        let mut b = [None; 110];
        let rows: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(rows.len(), 11);
        for (i, row) in rows.iter().enumerate() {
            let r = 10 - i as i32;
            let mut f = 0i32;
            let mut num = 0i32;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    num = num * 10 + d as i32;
                    continue;
                }
                f += num;
                num = 0;
                let c = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let k = match ch.to_ascii_uppercase() {
                    'P' => P,
                    'N' => N,
                    'B' => B,
                    'R' => R,
                    'Q' => Q,
                    'K' => K,
                    'S' => S,
                    _ => panic!("letter {ch}"),
                };
                b[sq(f, r).unwrap()] = Some((c, k));
                f += 1;
            }
            f += num;
            assert_eq!(f, 10, "row {row}");
        }
        let side = if fields[1] == "w" { 0 } else { 1 };
        let retake = (fields[2] != "-").then(|| {
            let by = fields[2].as_bytes();
            let f = FILES.iter().position(|&c| c == by[0]).unwrap() as i32;
            sq(f, fields[2][1..].parse().unwrap()).unwrap()
        });
        let infil = [fields[3].contains('I'), fields[3].contains('i')];
        let (cw, cb) = fields[4].split_once('+').unwrap();
        let (pw, pb) = fields[5].split_once('/').unwrap();
        Pos {
            b,
            side,
            retake,
            infil,
            checks: [cw.parse().unwrap(), cb.parse().unwrap()],
            pools: [pw.parse().unwrap(), pb.parse().unwrap()],
            half: fields[6].parse().unwrap(),
            full: fields[7].parse().unwrap(),
        }
    }

    fn fen(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..11).rev() {
            let mut row = String::new();
            let mut run = 0;
            for f in 0..10 {
                match self.b[sq(f, r).unwrap()] {
                    None => run += 1,
                    Some((c, k)) => {
                        if run > 0 {
                            row += &run.to_string();
                            run = 0;
                        }
                        let l = match k {
                            P => 'p',
                            N => 'n',
                            B => 'b',
                            R => 'r',
                            Q => 'q',
                            K => 'k',
                            S => 's',
                        };
                        row.push(if c == 0 { l.to_ascii_uppercase() } else { l });
                    }
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        let infil = match self.infil {
            [true, true] => "Ii",
            [true, false] => "I",
            [false, true] => "i",
            [false, false] => "-",
        };
        format!(
            "{} {} {} {} {}+{} {}/{} {} {}",
            rows.join("/"),
            if self.side == 0 { "w" } else { "b" },
            self.retake.map_or("-".to_string(), name),
            infil,
            self.checks[0],
            self.checks[1],
            self.pools[0],
            self.pools[1],
            self.half,
            self.full
        )
    }

    fn find(&self, c: usize, k: Kind) -> Option<usize> {
        (0..110).find(|&s| self.b[s] == Some((c, k)))
    }

    /// Captures whatever stands on `t` (a pawn goes to its colour's pool, §9.2); true if
    /// something was there.
    fn take(&mut self, t: usize) -> bool {
        match self.b[t].take() {
            Some((c, P)) => {
                self.pools[c] += 1;
                true
            }
            Some(_) => true,
            None => false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Check (§4, §7.3, §7.4)

/// Whether the man on `s` is a colluding piece or a colluding Spy (§7.4), ignoring the King.
fn colluding(p: &Pos, s: usize) -> bool {
    let Some((c, k)) = p.b[s] else { return false };
    if !field(s) {
        return false;
    }
    let near = |want: &dyn Fn(Kind) -> bool| {
        (0..110).any(|t| {
            adj(s, t) && field(t) && matches!(p.b[t], Some((c2, k2)) if c2 == c && want(k2))
        })
    };
    if major(k) {
        near(&|k2| k2 == S)
    } else if k == S {
        near(&major)
    } else {
        false
    }
}

/// Whether a check line from `s` to `k` along `dirs` exists: every square between is empty or
/// holds a Spy outside Court (§4.2, §7.3).
fn check_line(p: &Pos, s: usize, k: usize, dirs: &[(i32, i32)]) -> bool {
    let (f0, r0) = fr(s);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while let Some(t) = sq(f, r) {
            if t == k {
                return true;
            }
            match p.b[t] {
                None => {}
                Some((_, S)) if !court(t) => {}
                Some(_) => break,
            }
            f += df;
            r += dr;
        }
    }
    false
}

/// Whether the man on `s` checks a King standing on the Field or Border square `k`.
fn checks_from(p: &Pos, s: usize, k: usize) -> bool {
    let Some((c, kind)) = p.b[s] else {
        return false;
    };
    let powered = !field(s) || (field(k) && colluding(p, s));
    let (fs, rs) = fr(s);
    let (fk, rk) = fr(k);
    let leap = |set: &[(i32, i32)]| set.iter().any(|&(a, b)| fs + a == fk && rs + b == rk);
    match kind {
        P => {
            let d = if c == 0 { 1 } else { -1 };
            rk == rs + d && (fk - fs).abs() == 1
        }
        K => !field(s) && adj(s, k),
        N => {
            if !powered {
                false
            } else if court(s) {
                leap(&L2)
            } else if border(s) {
                leap(&L1) || leap(&L2)
            } else {
                leap(&L1)
            }
        }
        B => powered && check_line(p, s, k, &DIAG),
        R => powered && check_line(p, s, k, &ORTH),
        Q | S => powered && (check_line(p, s, k, &DIAG) || check_line(p, s, k, &ORTH)),
    }
}

/// Whether side `c` is in check (§4, §10.1): a Court King never is; a King next to the enemy
/// Spy ignores that Spy's own attack.
fn in_check(p: &Pos, c: usize) -> bool {
    let Some(k) = p.find(c, K) else { return false };
    if court(k) {
        return false;
    }
    (0..110).any(|s| match p.b[s] {
        Some((c2, kind)) if c2 != c => !(kind == S && adj(s, k)) && checks_from(p, s, k),
        _ => false,
    })
}

// ---------------------------------------------------------------------------------------------
// Flips (§7.5) and the end of the game (§11)

fn flip_line(p: &Pos, s: usize, k: usize) -> bool {
    if !(court(s) && court(k)) {
        return false;
    }
    let ((fs, rs), (fk, rk)) = (fr(s), fr(k));
    let (df, dr) = (fk - fs, rk - rs);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return false;
    }
    let n = df.abs().max(dr.abs());
    let (sf, sr) = (df.signum(), dr.signum());
    (1..n).all(|i| {
        let t = sq(fs + sf * i, rs + sr * i).unwrap();
        match p.b[t] {
            None => true,
            Some((_, S)) => !court(t),
            _ => false,
        }
    })
}

/// The winner by a flip on the board, `mover` being the side that just moved (R9).
fn flip_winner(p: &Pos, mover: usize) -> Option<usize> {
    let mut any = false;
    let mut fault = false;
    let spies = [p.find(0, S), p.find(1, S)];
    let kings = [p.find(0, K), p.find(1, K)];
    for c in 0..2 {
        let e = 1 - c;
        if let (Some(s), Some(k)) = (spies[c], kings[e]) {
            if flip_line(p, s, k) {
                any = true;
                fault |= e == mover;
            }
            if adj(s, k) && !(court(s) && court(k)) {
                any = true;
                fault |= c == mover;
            }
        }
        if let (Some(s), Some(k)) = (spies[c], kings[c]) {
            if adj(s, k) {
                any = true;
                fault |= c == mover;
            }
        }
    }
    if let (Some(a), Some(b)) = (spies[0], spies[1]) {
        if adj(a, b) {
            any = true;
            fault = true;
        }
    }
    any.then_some(if fault { 1 - mover } else { mover })
}

/// Whether the game has ended by a rule the position string decides, other than mate and
/// stalemate (those show as an empty list of turns).
fn ended(p: &Pos) -> bool {
    p.find(p.side, K).is_none() || flip_winner(p, 1 - p.side).is_some() || p.checks[1 - p.side] >= 4
}

// ---------------------------------------------------------------------------------------------
// Turns (§3, §5 to §9), as canonical text (§13.1) with the position after them

/// Squares the man on `s` reaches by its own movement: sliders stop at the first man; the
/// knight's leaps depend on its sector (§3.3).
fn movement(p: &Pos, s: usize, kind: Kind) -> Vec<usize> {
    let (f0, r0) = fr(s);
    let mut out = Vec::new();
    let mut leaps = |set: &[(i32, i32)]| {
        for &(a, b) in set {
            if let Some(t) = sq(f0 + a, r0 + b) {
                out.push(t);
            }
        }
    };
    let dirs: Vec<(i32, i32)> = match kind {
        N => {
            if court(s) {
                leaps(&L2);
            } else if border(s) {
                leaps(&L1);
                leaps(&L2);
            } else {
                leaps(&L1);
            }
            return out;
        }
        K => {
            leaps(&ORTH);
            leaps(&DIAG);
            return out;
        }
        B => DIAG.to_vec(),
        R => ORTH.to_vec(),
        Q | S => [ORTH, DIAG].concat(),
        P => unreachable!(),
    };
    for (df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while let Some(t) = sq(f, r) {
            out.push(t);
            if p.b[t].is_some() {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// Bookkeeping after the board part of a turn: side, re-take window, check counters, clocks.
fn finish(before: &Pos, mut q: Pos, reset: bool, retake: Option<usize>) -> Pos {
    let us = before.side;
    q.side = 1 - us;
    q.retake = retake;
    q.checks[us] = if in_check(&q, 1 - us) {
        before.checks[us] + 1
    } else {
        0
    };
    q.half = if reset { 0 } else { before.half + 1 };
    if us == 1 {
        q.full += 1;
    }
    q
}

fn gen(p: &Pos) -> Vec<(String, Pos)> {
    let mut out = Vec::new();
    if ended(p) {
        return out;
    }
    let us = p.side;
    let them = 1 - us;
    let legal = |q: &Pos| !in_check(q, us);
    for s in 0..110 {
        let Some((c, kind)) = p.b[s] else { continue };
        if c != us {
            continue;
        }
        match kind {
            P => {
                let d = if us == 0 { 1 } else { -1 };
                let (f, r) = fr(s);
                let last = if us == 0 { 9 } else { 1 };
                let mut targets = Vec::new();
                if let Some(t) = sq(f, r + d) {
                    if !court(t) && p.b[t].is_none() {
                        targets.push(t);
                        let start = if us == 0 { 3 } else { 7 };
                        if r == start {
                            let t2 = sq(f, r + 2 * d).unwrap();
                            if p.b[t2].is_none() {
                                targets.push(t2);
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(t) = sq(f + df, r + d) {
                        if !court(t) {
                            if let Some((c2, k2)) = p.b[t] {
                                if c2 == them && k2 != K && k2 != S {
                                    targets.push(t);
                                }
                            }
                        }
                    }
                }
                for t in targets {
                    let mut q = p.clone();
                    q.b[s] = None;
                    q.take(t);
                    let text = format!("{}-{}", name(s), name(t));
                    if fr(t).1 == last {
                        // Coup d'état (§9.1).
                        let men: Vec<usize> = (0..110)
                            .filter(|&x| matches!(q.b[x], Some((c2, k2)) if c2 == them && k2 != K && k2 != S))
                            .collect();
                        let rank = |k: Kind| match k {
                            Q => 3,
                            R => 2,
                            B | N => 1,
                            _ => 0,
                        };
                        let best = men.iter().map(|&x| rank(q.b[x].unwrap().1)).max();
                        match best {
                            None => {
                                let q2 = finish(p, q, true, None);
                                if legal(&q2) {
                                    out.push((text, q2));
                                }
                            }
                            Some(b) => {
                                for &x in &men {
                                    if rank(q.b[x].unwrap().1) != b {
                                        continue;
                                    }
                                    let mut q2 = q.clone();
                                    q2.b[x] = Some((us, q.b[x].unwrap().1));
                                    let q2 = finish(p, q2, true, None);
                                    if legal(&q2) {
                                        out.push((format!("{text}({})", name(x)), q2));
                                    }
                                }
                            }
                        }
                    } else {
                        q.b[t] = Some((us, P));
                        let q2 = finish(p, q, true, None);
                        if legal(&q2) {
                            out.push((text, q2));
                        }
                    }
                }
            }
            N | B | R | Q => {
                for t in movement(p, s, kind) {
                    if court(t) && !court(s) {
                        continue;
                    }
                    let mut retake = None;
                    match p.b[t] {
                        None => {}
                        Some((c2, _)) if c2 == us => continue,
                        Some((_, vk)) => {
                            let ok = match vk {
                                K | S => false,
                                P => true,
                                _ => {
                                    if !field(t) {
                                        false
                                    } else if !field(s) {
                                        retake = Some(t);
                                        true
                                    } else {
                                        p.retake == Some(t)
                                    }
                                }
                            };
                            if !ok {
                                continue;
                            }
                        }
                    }
                    let mut q = p.clone();
                    q.b[s] = None;
                    let cap = q.take(t);
                    q.b[t] = Some((us, kind));
                    let q2 = finish(p, q, cap, retake);
                    if legal(&q2) {
                        out.push((format!("{}-{}", name(s), name(t)), q2));
                    }
                }
            }
            S => {
                for t in movement(p, s, S) {
                    match p.b[t] {
                        None => {}
                        Some((c2, _)) if c2 == us => continue,
                        // A Spy captures only from Court, only a major piece in Court (§3.6).
                        Some((_, vk)) if !(court(s) && court(t) && major(vk)) => continue,
                        Some(_) => {}
                    }
                    let mut q = p.clone();
                    q.b[s] = None;
                    let cap = q.take(t);
                    q.b[t] = Some((us, S));
                    let text = format!("{}-{}", name(s), name(t));
                    let alone = finish(p, q.clone(), cap, None);
                    if legal(&alone) {
                        out.push((text.clone(), alone));
                    }
                    if court(s) && !court(t) && flip_winner(&q, us).is_none() {
                        // Combined move (§7.2).
                        for m in 0..110 {
                            let Some((c2, k2)) = q.b[m] else { continue };
                            if c2 != us || !major(k2) || court(m) {
                                continue;
                            }
                            for t2 in movement(&q, m, k2) {
                                if !court(t2) || q.b[t2].is_some() {
                                    continue;
                                }
                                let mut q2 = q.clone();
                                q2.b[m] = None;
                                q2.b[t2] = Some((us, k2));
                                let q2 = finish(p, q2, cap, None);
                                if legal(&q2) {
                                    out.push((format!("{text}/{}-{}", name(m), name(t2)), q2));
                                }
                            }
                        }
                    }
                }
            }
            K => {
                let enemy_spy_in_court = p.find(them, S).is_some_and(court);
                for t in movement(p, s, K) {
                    if court(t) && enemy_spy_in_court {
                        continue;
                    }
                    match p.b[t] {
                        None => {}
                        Some((c2, _)) if c2 == us => continue,
                        Some((_, vk)) => {
                            let ok = match vk {
                                K | S => false,
                                P => true,
                                _ => {
                                    field(t)
                                        && (!field(s)
                                            || p.retake == Some(t)
                                            || checks_from(p, t, s))
                                }
                            };
                            if !ok {
                                continue;
                            }
                        }
                    }
                    let mut q = p.clone();
                    q.b[s] = None;
                    let cap = q.take(t);
                    q.b[t] = Some((us, K));
                    if in_check(&q, us) {
                        continue;
                    }
                    let text = format!("{}-{}", name(s), name(t));
                    out.push((text.clone(), finish(p, q.clone(), cap, None)));
                    if border(t) && p.infil[us] && flip_winner(&q, us).is_none() {
                        // Infiltration (§8).
                        for m in 0..110 {
                            let Some((c2, k2)) = q.b[m] else { continue };
                            if c2 != us || !major(k2) {
                                continue;
                            }
                            for dest in [sq(4, 0).unwrap(), sq(4, 10).unwrap()] {
                                if matches!(q.b[dest], Some((c3, _)) if c3 == us) {
                                    continue;
                                }
                                let mut q2 = q.clone();
                                q2.b[m] = None;
                                let cap2 = q2.take(dest);
                                q2.b[dest] = Some((us, k2));
                                q2.infil[us] = false;
                                let q2 = finish(p, q2, cap || cap2, None);
                                if legal(&q2) {
                                    out.push((format!("{text}*{}-{}", name(m), name(dest)), q2));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // Prisoner release (§9.2).
    if p.pools[us] > 0 && !in_check(p, us) {
        let d = if us == 0 { 1 } else { -1 };
        let ek = p.find(them, K);
        for f in 1..=8 {
            let t = sq(f, 5).unwrap();
            if p.b[t].is_some() {
                continue;
            }
            let gives_check = [-1, 1]
                .iter()
                .any(|&df| sq(f + df, 5 + d).is_some_and(|x| !court(x) && Some(x) == ek));
            if gives_check {
                continue;
            }
            let mut q = p.clone();
            q.b[t] = Some((us, P));
            q.pools[us] -= 1;
            let q2 = finish(p, q, true, None);
            if legal(&q2) {
                out.push((format!("P@{}", name(t)), q2));
            }
        }
    }
    out
}

fn perft(p: &Pos, d: u32) -> u64 {
    if d == 0 {
        return 1;
    }
    let moves = gen(p);
    if d == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|(_, q)| perft(q, d - 1)).sum()
}

// ---------------------------------------------------------------------------------------------
// The rulebook's own figures (§16, §17)

const START: &str =
    "4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - Ii 0+0 0/0 0 1";

/// §16: position, and perft at depths 1, 2, 3.
const PERFT: &[(&str, [u64; 3])] = &[
    (START, [39, 1357, 54974]),
    ("5n4/1sr1b1nr2/4qkb3/1pppppppp1/10/1P6P1/4P5/2PP1PPP2/3BQKB3/2RN2NR2/2S7 b - Ii 0+0 0/0 0 4", [35, 1919, 77956]),
    ("2s1k5/8r1/3b1qn3/5p4/1p1p3p2/10/2P3K1S1/1PQ1N2PP1/3B4R1/10/10 w - Ii 0+0 0/0 3 31", [52, 5156, 260551]),
    ("10/5n4/10/1p2k5/2N3Nr2/2RP2Pp2/2Qp3Pb1/4RK4/1r6S1/3sB5/10 b - Ii 0+3 5/5 1 52", [48, 2927, 125214]),
    ("10/2nk6/10/1B2p2n2/2r1P2P2/1PpPSp1pP1/1b8/5b4/3s6/7q2/1N1K6 w - Ii 0+0 3/4 0 59", [38, 1724, 59228]),
    ("2s7/4Sr4/4B5/1pp2k1p2/7Bp1/1qpPp1Pbb1/10/10/7KR1/1N8/r9 b - Ii 1+0 6/2 2 49", [5, 92, 7703]),
    ("1R2b5/6s3/8n1/n5N3/6r3/1P1Ppkppp1/10/2P3pP2/5S2p1/6q3/6K3 b - I 0+0 4/2 1 69", [62, 2528, 152041]),
    ("7n1S/4r1Qk2/3s6/1R6b1/5q4/1PpprPppP1/10/1b3R4/6K3/4N1N2B/10 w - Ii 0+0 5/4 0 49", [68, 3748, 243002]),
    ("9q/1Qrbb2r2/1s2Rk4/1pp2p4/7PP1/2P4pP1/1PpP1p2S1/R2P2P3/3B6/3N2N3/7K2 b d8 Ii 0+0 0/2 0 23", [60, 3976, 211433]),
    ("2r7/3Qn2R2/10/q3P2n2/10/1P1PBP1kP1/1p5Pb1/2rs1K2S1/1N4B3/1R4N3/10 w - I 0+1 2/7 1 53", [4, 146, 7020]),
    ("4q5/2r4r2/3s1k2n1/1pppn3p1/10/1PqSp1bbp1/3N2K3/10/10/4BBN3/R9 w - Ii 0+1 7/1 0 32", [13, 1071, 55226]),
    ("4k5/2rn3r2/5qb3/1pp2ppn2/3ps2p2/1Pp1PPpPQ1/10/1P3P4/1B3KBR2/S1bN2N3/10 w - Ii 0+0 2/0 0 21", [65, 2994, 196807]),
];

/// §17 positions (the refused strings V1-V8 left out).
const CASES: &[&str] = &[
    "4s5/7k2/10/10/10/10/5N4/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "4s5/7k2/10/10/10/10/N9/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "4s5/7k2/10/10/10/4N5/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "4s5/10/5k4/10/10/4N5/10/10/10/2K7/4S5 b - Ii 1+0 0/0 0 1",
    "4s5/7k2/10/10/10/10/10/2Q7/7K2/10/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/7k2/6b3/2N7/4r5/10/4Q5/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/7k2/6b3/2N7/4r5/4Q5/10/10/10/8K1/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/8k1/2q7/5p4/4p5/10/10/10/4R5/8K1/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/8k1/10/10/6p3/1R3B2r1/10/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1",
    "1s8/8k1/10/10/6p3/1R3B2r1/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 w - Ii 0+1 0/0 0 1",
    "1s8/8k1/10/10/10/4K3r1/10/10/10/10/4S5 w - Ii 0+1 0/0 0 1",
    "1s8/10/10/10/10/10/4Kk4/10/10/10/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/10/10/10/5k4/4K5/10/10/10/10/4S5 b - Ii 1+0 0/0 0 1",
    "1s8/10/10/5k4/10/10/5Q4/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1",
    "1s8/10/10/5k4/10/5Q4/10/10/10/2K7/4S5 b - Ii 1+0 0/0 0 1",
    "1s8/10/10/5k4/10/10/5Q4/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/10/5k4/10/3BS5/10/10/10/10/2K7/10 b - Ii 1+0 0/0 0 1",
    "1s8/10/5k4/10/3BSR4/10/10/10/10/2K7/10 b - Ii 1+0 0/0 0 1",
    "10/8k1/10/10/4s1p3/10/5K4/10/10/10/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/10/5k4/10/10/10/1S8/10/10/2K7/10 w - Ii 0+0 0/0 0 1",
    "9s/3k6/10/10/5P4/10/10/10/10/K9/4S5 w - Ii 0+0 0/0 0 1",
    "9s/3k6/10/10/5S4/10/10/10/10/K9/10 w - Ii 0+0 0/0 0 1",
    "10/10/8k1/10/10/10/4R5/10/10/10/3K1S2s1 w - Ii 0+0 0/0 0 1",
    "4s5/10/2n3P3/4k3r1/1q8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1",
    "4s5/10/2n3P3/4k3r1/1r8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1",
    "1s8/10/10/10/4k5/10/10/10/10/2K7/9S w - Ii 0+0 1/0 0 1",
    "4s5/10/8k1/10/10/10/5K4/10/10/1R8/4S5 w - Ii 0+0 0/0 0 1",
    "1s2k5/10/10/10/10/10/5K4/10/10/1R8/9S w - Ii 0+0 0/0 0 1",
    "1s8/10/8k1/10/10/10/5K4/10/10/1R6N1/9S w - Ii 0+0 0/0 0 1",
    "1s8/7k2/10/2n7/10/2Q7/10/10/2r7/8K1/4S5 w - Ii 0+0 0/0 0 1",
    "4s3R1/10/5k4/9R/10/10/10/9r/10/2K7/4S5 b - Ii 0+0 0/0 0 1",
    "10/8k1/10/10/10/10/R2s1n4/10/10/2K7/7S2 w - Ii 0+0 0/0 0 1",
    "10/10/10/10/10/10/R2s1k4/10/10/2K7/7S2 b - Ii 1+0 0/0 0 1",
    "10/10/r4k4/10/5s4/2b7/10/K9/10/10/4S5 w - Ii 0+0 0/0 0 1",
    "4s5/10/8k1/10/10/r5p3/1P1P6/5P4/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "10/10/8k1/10/10/5s4/4P5/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "4s5/8k1/10/10/10/10/R9/10/10/2K7/7S2 w - Ii 0+0 0/0 0 1",
    "9s/10/8k1/10/10/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1",
    "10/10/8k1/10/5s4/10/10/10/10/1K8/4S5 w - Ii 0+0 0/0 0 1",
    "4s5/10/5k4/R9/10/10/10/10/10/2K7/4S5 w - Ii 3+0 0/0 0 1",
    "4s5/1k8/R9/9R/10/10/10/10/10/2K7/4S5 w - Ii 3+0 0/0 0 1",
    "10/8k1/10/10/10/10/5bs3/4K5/10/5R4/4S5 w - Ii 0+1 0/0 0 1",
    "10/k9/10/10/10/10/10/10/10/10/K4S2s1 w - Ii 0+0 0/0 0 1",
    "1s8/10/10/9k/10/5r4/10/5K4/10/10/3S6 w - Ii 0+1 0/0 0 1",
    "1s2r5/10/8k1/10/10/10/3K6/10/10/1Q8/9S w - Ii 0+0 0/0 0 1",
    "4bbr3/5k4/9R/4Q5/10/10/8S1/10/10/2K7/s9 w - Ii 0+0 0/0 0 1",
    "1s8/10/3P4k1/10/5p1p2/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/10/3P4k1/10/10/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "1s8/8k1/10/10/10/4Kr4/10/10/10/10/4S5 w - Ii 0+1 1/0 0 1",
];

fn texts(p: &Pos) -> Vec<String> {
    let mut v: Vec<String> = gen(p).into_iter().map(|(t, _)| t).collect();
    v.sort();
    v
}

fn has(p: &Pos, m: &str) -> bool {
    gen(p).iter().any(|(t, _)| t == m)
}

fn after(p: &Pos, m: &str) -> Pos {
    gen(p)
        .into_iter()
        .find(|(t, _)| t == m)
        .unwrap_or_else(|| panic!("{m} not legal in {}", p.fen()))
        .1
}

#[test]
fn reference_agrees_with_rulebook_perft() {
    for (fen, counts) in PERFT {
        let p = Pos::parse(fen);
        assert_eq!(p.fen(), *fen);
        for (i, &n) in counts.iter().enumerate().take(2) {
            assert_eq!(perft(&p, i as u32 + 1), n, "perft {} of {fen}", i + 1);
        }
    }
    // One depth-3 figure, the start position.
    assert_eq!(perft(&Pos::parse(START), 3), 54974);
}

#[test]
fn reference_agrees_with_rulebook_cases() {
    let start = Pos::parse(START);
    let t2 = "a3-a4 a3-a5 b1-a1 b1-b2 b3-b4 b3-b5 c1-a2 c2-d1 c3-c4 c3-c5 d0-a0 d0-b0 d0-c0 d0-d1 \
              d0-e0 d0-e1 d0-f0 d0-g0 d0-h0 d0-i0 d0-z0 d2-d1 d2-e1 d3-d4 d3-d5 e2-d1 e2-e1 e3-e4 \
              e3-e5 f1-h2 f2-e1 f3-f4 f3-f5 g1-g2 g1-h1 g3-g4 g3-g5 h3-h4 h3-h5";
    assert_eq!(texts(&start).join(" "), t2);
    for m in ["d0-d1", "d0-e1", "e2-d1", "e2-e1"] {
        assert_eq!(flip_winner(&after(&start, m), 0), Some(1), "{m}");
    }
    // T6
    let t6 = Pos::parse(CASES[4]);
    assert_eq!(gen(&t6).len(), 159);
    assert!(has(&t6, "d0-d4/b3-z3") && has(&t6, "d0-b2/b3-z3") && has(&t6, "d0-d4"));
    for m in ["b3-z3", "d0-a3/b3-z3", "d0-d1/b3-e0", "d0-d9/b3-z3"] {
        assert!(!has(&t6, m), "{m}");
    }
    // T7b
    let t7b = Pos::parse(CASES[6]);
    let a = after(&t7b, "d5-d6");
    assert_eq!(
        a.fen(),
        "1s8/7k2/6b3/2N7/4Q5/10/10/10/10/8K1/4S5 b d6 Ii 0+0 0/0 0 1"
    );
    assert!(!has(&after(&a, "f8-d6"), "b7-d6"));
    assert!(!has(&after(&after(&a, "g9-h9"), "h1-g1"), "f8-d6"));
    // T9
    let t9 = Pos::parse(CASES[8]);
    assert_eq!(gen(&t9).len(), 57);
    assert!(has(&t9, "a10-f5/h5-h0") && has(&t9, "a10-g4/h5-i5") && !has(&t9, "h5-e5"));
    // T10b, T13, T13b, T29, T31, T35 (whole lists)
    assert_eq!(
        texts(&Pos::parse(CASES[11])).join(" "),
        "d5-c4 d5-c6 d5-d4 d5-d6 d5-e4"
    );
    assert_eq!(texts(&Pos::parse(CASES[17])).join(" "), "e8-e7 e8-e9 e8-f7");
    assert_eq!(texts(&Pos::parse(CASES[18])).join(" "), "e8-f7");
    assert_eq!(
        texts(&Pos::parse(CASES[44])).join(" "),
        "e3-d2 e3-d3 e3-d4 e3-f2 e3-f3 e3-f4"
    );
    assert_eq!(
        texts(&Pos::parse(CASES[49])).join(" "),
        "d5-c4 d5-c6 d5-d4 d5-d6"
    );
    // T16b: already over.
    assert!(gen(&Pos::parse(CASES[22])).is_empty());
    // T17
    let t17 = Pos::parse(CASES[23]);
    assert_eq!(gen(&t17).len(), 40);
    assert!(!has(&t17, "e0-e3/d4-d0") && !has(&t17, "c0-b0") && has(&t17, "c0-b1"));
    // T18, T34
    assert_eq!(
        after(&Pos::parse(CASES[24]), "f8-f9(a6)").fen(),
        "4s5/10/2n7/4k3r1/1Q8/10/10/10/10/2K7/9S b - Ii 0+0 0/0 0 1"
    );
    assert_eq!(
        after(&Pos::parse(CASES[47]), "c8-c9(e6)").fen(),
        "1s8/10/8k1/10/5P1p2/10/10/10/10/2K7/4S5 b - Ii 0+0 0/0 0 1"
    );
    // T20
    let t20 = Pos::parse(CASES[27]);
    assert_eq!(gen(&t20).len(), 93);
    assert_eq!(
        after(&t20, "e4-e5*a1-d10").fen(),
        "4R5/10/8k1/10/10/5K4/10/10/10/10/4S5 b - i 0+0 0/0 0 1"
    );
    for m in ["e4-e5*a1-d0", "e4-d5", "d0-d3/a1-a0", "d0-c1/a1-i1"] {
        assert!(!has(&t20, m), "{m}");
    }
    // T30: the mover's own fault first.
    let t30 = Pos::parse(CASES[43]);
    assert_eq!(flip_winner(&after(&t30, "e0-z5"), 0), Some(1));
    // T32
    let t32 = Pos::parse(CASES[45]);
    assert!(has(&t32, "c4-c5*a1-d10") && has(&t32, "c4-b5*a1-d0") && !has(&t32, "c4-d5"));
    // T28: the fourth check draws.
    assert!(gen(&after(&Pos::parse(CASES[40]), "z7-z8")).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Comparison with the fast implementation

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Compares both implementations on `fen`; returns the reference's turns.
fn compare(fen: &str, problems: &mut Vec<String>) -> Vec<(String, Pos)> {
    let p = Pos::parse(fen);
    let fast = CypherPosition::from_fen_default(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let reference = gen(&p);
    let mut mine: Vec<&str> = reference.iter().map(|(t, _)| t.as_str()).collect();
    mine.sort();
    let mut moves = Vec::new();
    fast.legal_moves(&mut moves);
    let mut theirs: Vec<(String, _)> = moves.iter().map(|&m| (fast.move_text(m), m)).collect();
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    let their_texts: Vec<&str> = theirs.iter().map(|(t, _)| t.as_str()).collect();
    if mine != their_texts {
        let only_ref: Vec<_> = mine.iter().filter(|t| !their_texts.contains(t)).collect();
        let only_fast: Vec<_> = their_texts.iter().filter(|t| !mine.contains(t)).collect();
        problems.push(format!(
            "{fen}\n  reference only: {only_ref:?}\n  fast only: {only_fast:?}"
        ));
    }
    if fast.outcome().is_some() != reference.is_empty() {
        problems.push(format!(
            "{fen}\n  fast outcome {:?}, reference has {} turns",
            fast.outcome(),
            reference.len()
        ));
    }
    if p.checks[1 - p.side] >= 4 && flip_winner(&p, 1 - p.side).is_none() && !reference.is_empty() {
        problems.push(format!("{fen}\n  reference: 4-check must end the game"));
    }
    if fast.is_check() != in_check(&p, p.side) {
        problems.push(format!("{fen}\n  is_check: fast {}", fast.is_check()));
    }
    let side = if fast.turn() == Color::White { 0 } else { 1 };
    if side != p.side {
        problems.push(format!("{fen}\n  turn differs"));
    }
    if let Some(w) = flip_winner(&p, 1 - p.side) {
        let fw = fast.outcome().and_then(|o| o.winner);
        let want = if w == 0 { Color::White } else { Color::Black };
        if fw != Some(want) {
            problems.push(format!(
                "{fen}\n  flip winner: reference {want:?}, fast {fw:?}"
            ));
        }
    }
    for (text, q) in &reference {
        if let Some((_, m)) = theirs.iter().find(|(t, _)| t == text) {
            let mut f2 = fast.clone();
            f2.play(*m);
            let (a, b) = (q.fen(), f2.fen());
            if a != b {
                problems.push(format!("{fen} {text}\n  reference {a}\n  fast      {b}"));
            }
        }
    }
    reference
}

fn weight(p: &Pos, text: &str, q: &Pos) -> u64 {
    let men = |x: &Pos| x.b.iter().flatten().count();
    if text.contains(['/', '*', '(', '@']) {
        12
    } else if q.checks[p.side] > 0 {
        10
    } else if men(q) < men(p) || q.retake.is_some() {
        8
    } else if text
        .split_once('-')
        .and_then(|(_, t)| {
            let t = t.as_bytes();
            FILES.iter().position(|&c| c == t[0]).map(|f| (f, t))
        })
        .is_some_and(|(f, t)| f == 0 || f == 9 || t[1..] == *b"0" || t[1..] == *b"10")
    {
        4
    } else {
        1
    }
}

/// How often each rule was exercised by the turns the reference generated.
#[derive(Default, Debug)]
struct Seen {
    combined: usize,
    infiltration: usize,
    king_capture: usize,
    coup: usize,
    coup_pawn: usize,
    release: usize,
    retake_window: usize,
    retake: usize,
    spy_capture: usize,
    flip: usize,
    four_check: usize,
    collusion_check: usize,
    court_king: usize,
    no_spy: usize,
    mate_or_stalemate: usize,
}

fn tally(seen: &mut Seen, p: &Pos, turns: &[(String, Pos)]) {
    let us = p.side;
    if turns.is_empty() {
        if flip_winner(p, 1 - us).is_some() {
            seen.flip += 1;
        } else if p.checks[1 - us] >= 4 {
            seen.four_check += 1;
        } else if p.find(us, K).is_none() {
            seen.king_capture += 1;
        } else {
            seen.mate_or_stalemate += 1;
        }
    }
    if p.retake.is_some() {
        seen.retake_window += 1;
    }
    if p.find(us, K).is_some_and(court) {
        seen.court_king += 1;
    }
    if p.find(0, S).is_none() || p.find(1, S).is_none() {
        seen.no_spy += 1;
    }
    if in_check(p, us) {
        // Check given only by Field attackers, that is, by collusion.
        let k = p.find(us, K).unwrap();
        if !(0..110).any(|s| {
            matches!(p.b[s], Some((c, kind)) if c != us && !(kind == S && adj(s, k)))
                && !(field(s) && matches!(p.b[s], Some((_, N | B | R | Q | S))))
                && checks_from(p, s, k)
        }) {
            seen.collusion_check += 1;
        }
    }
    for (t, q) in turns {
        seen.combined += t.contains('/') as usize;
        seen.infiltration += t.contains('*') as usize;
        seen.coup += t.contains('(') as usize;
        seen.release += t.contains('@') as usize;
        if t.contains('(') {
            let x = &t[t.find('(').unwrap() + 1..t.len() - 1];
            let (f, r) = (
                FILES.iter().position(|&c| c == x.as_bytes()[0]).unwrap() as i32,
                x[1..].parse().unwrap(),
            );
            seen.coup_pawn += matches!(q.b[sq(f, r).unwrap()], Some((_, P))) as usize;
        }
        if let Some(r) = p.retake {
            seen.retake += t.ends_with(&format!("-{}", name(r))) as usize;
        }
        if let Some((f, _)) = t.split_once('-') {
            if p.find(us, S).is_some_and(|s| name(s) == f)
                && q.b.iter().flatten().count() < p.b.iter().flatten().count()
            {
                seen.spy_capture += 1;
            }
        }
    }
}

fn random_compare(games: usize, plies: usize, seed: u64) -> (usize, Vec<String>) {
    let mut seen = Seen::default();
    let mut problems = Vec::new();
    let mut compared = 0;
    let mut rng = Rng(seed);
    let starts: Vec<&str> = std::iter::once(START)
        .chain(PERFT.iter().map(|(f, _)| *f))
        .chain(CASES.iter().copied())
        .collect();
    for g in 0..games {
        let mut fen = starts[g % starts.len()].to_string();
        for _ in 0..plies {
            let p = Pos::parse(&fen);
            let turns = compare(&fen, &mut problems);
            tally(&mut seen, &p, &turns);
            compared += 1;
            if turns.is_empty() || problems.len() > 20 {
                break;
            }
            let ws: Vec<u64> = turns.iter().map(|(t, q)| weight(&p, t, q)).collect();
            let mut pick = rng.next() % ws.iter().sum::<u64>();
            let mut i = 0;
            while pick >= ws[i] {
                pick -= ws[i];
                i += 1;
            }
            fen = turns[i].1.fen();
        }
    }
    eprintln!("{seen:?}");
    (compared, problems)
}

#[test]
fn fast_agrees_on_rulebook_positions() {
    let mut problems = Vec::new();
    for fen in PERFT.iter().map(|(f, _)| *f).chain(CASES.iter().copied()) {
        for (_, q) in compare(fen, &mut problems) {
            compare(&q.fen(), &mut problems);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn fast_agrees_on_random_play() {
    let games: usize = std::env::var("CYPHER_INDEPENDENT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let (compared, problems) = random_compare(games, 120, 0x9E37_79B9_7F4A_7C15);
    eprintln!("compared {compared} positions");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every §16 figure to depth 3 (a few seconds more; run with `--ignored`).
#[test]
#[ignore]
fn reference_agrees_with_rulebook_perft_depth_3() {
    for (fen, counts) in PERFT {
        assert_eq!(perft(&Pos::parse(fen), 3), counts[2], "perft 3 of {fen}");
    }
}

/// A random position the rules could hold: both Kings, usually both Spies, a few men
/// anywhere (pawns on files a to h, ranks 2 to 8), random pools and rights, the counters
/// and re-take square made consistent. None when the side that just moved is in check.
fn random_position(rng: &mut Rng) -> Option<String> {
    let mut p = Pos::parse("10/10/10/10/10/10/10/10/10/10/10 w - Ii 0+0 0/0 0 1");
    let place = |p: &mut Pos, rng: &mut Rng, man: Man| loop {
        let s = (rng.next() % 110) as usize;
        let (f, r) = fr(s);
        if p.b[s].is_none() && (man.1 != P || ((1..=8).contains(&f) && (2..=8).contains(&r))) {
            p.b[s] = Some(man);
            return s;
        }
    };
    for c in 0..2 {
        place(&mut p, rng, (c, K));
        if !rng.next().is_multiple_of(8) {
            place(&mut p, rng, (c, S));
        }
        for k in [Q, R, R, B, B, N, N] {
            if rng.next().is_multiple_of(3) {
                place(&mut p, rng, (c, k));
            }
        }
        for _ in 0..rng.next() % 6 {
            place(&mut p, rng, (c, P));
        }
        p.pools[c] = (rng.next() % 3) as u32;
        // Often a major piece next to a Field Spy, for collusion.
        if let Some(spy) = p
            .find(c, S)
            .filter(|&s| field(s) && rng.next().is_multiple_of(2))
        {
            let near: Vec<usize> = (0..110)
                .filter(|&t| adj(spy, t) && field(t) && p.b[t].is_none())
                .collect();
            if !near.is_empty() {
                let t = near[(rng.next() % near.len() as u64) as usize];
                p.b[t] = Some((c, [Q, R, B, N][(rng.next() % 4) as usize]));
            }
        }
    }
    p.side = (rng.next() % 2) as usize;
    let (us, them) = (p.side, 1 - p.side);
    if p.find(them, S).is_none() {
        p.infil[us] = false;
    }
    if p.find(us, S).is_none() {
        p.infil[them] = false;
    }
    if p.infil[them] && rng.next().is_multiple_of(4) {
        p.infil[them] = false;
    }
    if in_check(&p, them) {
        return None;
    }
    p.checks[them] = in_check(&p, us) as u32 * (1 + (rng.next() % 4) as u32);
    p.checks[us] = (rng.next() % 4) as u32;
    if rng.next().is_multiple_of(3) {
        p.retake =
            (0..110).find(|&s| field(s) && matches!(p.b[s], Some((c, k)) if c == them && major(k)));
    }
    Some(p.fen())
}

#[test]
fn fast_agrees_on_random_positions() {
    let count: usize = std::env::var("CYPHER_INDEPENDENT_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut problems = Vec::new();
    let mut seen = Seen::default();
    let mut compared = 0;
    let mut rejected = Vec::new();
    while compared < count && problems.len() < 20 {
        let Some(fen) = random_position(&mut rng) else {
            continue;
        };
        if let Err(e) = CypherPosition::from_fen_default(&fen) {
            rejected.push(format!("{fen}: {e}"));
            continue;
        }
        let p = Pos::parse(&fen);
        let turns = compare(&fen, &mut problems);
        tally(&mut seen, &p, &turns);
        compared += 1;
        // One turn further, so that the positions after special turns are compared too.
        if !turns.is_empty() {
            let i = (rng.next() % turns.len() as u64) as usize;
            compare(&turns[i].1.fen(), &mut problems);
            compared += 1;
        }
    }
    eprintln!("compared {compared} positions; {seen:?}");
    eprintln!("{} refused by the fast reader", rejected.len());
    for r in rejected.iter().take(10) {
        eprintln!("  {r}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The turns of the man on `from` (plain moves, coups and infiltrations), sorted.
fn moves_of(p: &Pos, from: &str) -> String {
    let prefix = format!("{from}-");
    let mut v: Vec<String> = texts(p)
        .into_iter()
        .filter(|t| t.starts_with(&prefix))
        .collect();
    v.dedup();
    v.join(" ")
}

#[test]
fn reference_agrees_with_more_rulebook_cases() {
    let c = |i: usize| Pos::parse(CASES[i]);
    // T3, T4, T5
    assert_eq!(
        moves_of(&c(0), "e4"),
        "e4-c3 e4-c5 e4-d2 e4-d6 e4-f2 e4-f6 e4-g3 e4-g5"
    );
    assert_eq!(moves_of(&c(1), "z4"), "z4-a1 z4-a7 z4-c3 z4-c5");
    assert_eq!(
        moves_of(&c(2), "d5"),
        "d5-a4 d5-a6 d5-b4 d5-b6 d5-c2 d5-c3 d5-c7 d5-c8 d5-e2 d5-e3 d5-e7 d5-e8 d5-f4 d5-f6 \
         d5-g4 d5-g6"
    );
    // T5b, T10, T11b
    assert!(in_check(&c(3), 1));
    assert_eq!(
        texts(&c(3)).join(" "),
        "e8-d7 e8-d8 e8-d9 e8-e9 e8-f7 e8-f8 e8-f9"
    );
    assert_eq!(texts(&c(10)).join(" "), "d5-c4 d5-c6 d5-d4 d5-d6");
    assert_eq!(texts(&c(13)).join(" "), "e6-d7 e6-e7 e6-f5 e6-f6 e6-f7");
    // T7, T8, T9b
    assert!(!has(&c(5), "d4-d6"));
    let t8 = after(&c(7), "d2-d6");
    assert_eq!(
        t8.fen(),
        "1s8/8k1/2q7/5p4/4R5/10/10/10/10/8K1/4S5 b - Ii 0+0 0/1 0 1"
    );
    assert!(has(&t8, "e7-d6") && !has(&t8, "b8-d6"));
    assert_eq!(
        moves_of(&c(9), "a5"),
        "a5-a1 a5-a2 a5-a3 a5-a4 a5-a6 a5-a7 a5-a8 a5-a9 a5-b5 a5-c5 a5-d5"
    );
    // T11, T12, T12b, T12c
    let t11 = c(12);
    assert!(has(&t11, "d4-d5") && has(&t11, "d4-e5") && has(&t11, "d4-e3"));
    assert!(in_check(&after(&t11, "d4-d5"), 1));
    assert!(!in_check(&c(14), 1) && in_check(&c(15), 1));
    assert!(in_check(&after(&c(16), "d0-d3"), 1));
    // T14, T15, T16
    let t14 = c(19);
    assert!(has(&t14, "e4-d5") && !has(&t14, "e4-e5"));
    assert_eq!(flip_winner(&after(&t14, "e4-d5"), 0), Some(0));
    assert_eq!(flip_winner(&after(&c(20), "a4-d7"), 0), Some(1));
    assert_eq!(flip_winner(&after(&c(21), "e6-e7"), 0), Some(1));
    // T17
    let t17 = c(23);
    assert_eq!(flip_winner(&after(&t17, "e0-e3"), 0), Some(1));
    assert_eq!(flip_winner(&after(&t17, "e0-f0"), 0), None);
    assert_eq!(flip_winner(&after(&t17, "e0-d0"), 0), Some(1));
    assert_eq!(flip_winner(&after(&t17, "e0-g0"), 0), Some(1));
    // T18b, T19
    assert_eq!(moves_of(&c(25), "f8"), "f8-f9(a6) f8-f9(h7)");
    let releases: Vec<String> = texts(&c(26))
        .into_iter()
        .filter(|t| t.starts_with('P'))
        .collect();
    assert_eq!(releases.join(" "), "P@a5 P@b5 P@d5 P@f5 P@g5 P@h5");
    assert_eq!(
        after(&c(26), "P@d5").fen(),
        "1s8/10/10/10/4k5/4P5/10/10/10/2K7/9S b - Ii 0+0 0/0 0 1"
    );
    // T20b, T20c
    let t20b = c(28);
    assert!(has(&t20b, "e4-e5*a1-d10") && has(&t20b, "e4-e5*a1-d0"));
    assert!(gen(&after(&t20b, "e4-e5*a1-d10")).is_empty());
    let t20c = c(29);
    for m in ["e4-e5*a1-d10", "e4-e5*h1-d0", "e4-e5*h1-d10"] {
        assert!(has(&t20c, m), "{m}");
    }
    let later = after(&after(&t20c, "e4-e5*a1-d10"), "h8-h7");
    assert!(has(&later, "e5-d5") && has(&later, "e5-d4"));
    for m in ["e5-d5*h1-d0", "e5-d5*h1-d10", "e5-f5"] {
        assert!(!has(&later, m), "{m}");
    }
    // T21, T22, T23, T23b, T24
    let t21 = after(&c(30), "b5-b7");
    assert_eq!(
        t21.fen(),
        "1s8/7k2/10/2Q7/10/10/10/10/2r7/8K1/4S5 b b7 Ii 0+0 0/0 0 1"
    );
    assert!(has(&t21, "b2-b7"));
    let t22 = c(31);
    assert!(has(&t22, "d10-h10") && !has(&t22, "i3-i7") && !has(&t22, "d10-i10"));
    let t23 = c(32);
    assert!(has(&t23, "z4-b4") && !has(&t23, "z4-e4") && !has(&t23, "z4-c4"));
    assert!(in_check(&c(33), 1));
    assert!(!in_check(&c(34), 0));
    assert_eq!(moves_of(&c(34), "z3"), "z3-a2 z3-a3 z3-z2 z3-z4");
    // T25, T25b, T26, T27, T27b
    let t25 = c(35);
    assert_eq!(moves_of(&t25, "e3"), "e3-e4 e3-e5");
    assert_eq!(moves_of(&t25, "a4"), "a4-a5");
    assert_eq!(moves_of(&t25, "c4"), "c4-c5");
    assert!(has(&after(&after(&t25, "e3-e4"), "h8-h7"), "e4-f5"));
    assert!(!has(&after(&t25, "e3-e5"), "f5-e4"));
    assert_eq!(moves_of(&c(36), "d4"), "d4-d5");
    let t26 = c(37);
    assert!(has(&t26, "z4-i4") && has(&t26, "z4-d4") && has(&t26, "z4-z10"));
    assert_eq!(moves_of(&c(38), "a1"), "a1-b1 a1-b2");
    assert!(has(&c(39), "a1-z1") && has(&c(39), "a1-a0"));
    // T28b, T29, T33: mates end the game; T34b.
    let mate = after(&c(41), "i7-i9");
    assert!(gen(&mate).is_empty() && in_check(&mate, 1));
    assert_eq!(
        moves_of(&c(42), "d3"),
        "d3-c3 d3-c4 d3-d4 d3-e2 d3-e3 d3-e4"
    );
    assert_eq!(moves_of(&c(42), "e1"), "");
    let t33 = c(46);
    assert!(!in_check(&t33, 0));
    let mate = after(&t33, "h4-e7");
    assert!(gen(&mate).is_empty() && in_check(&mate, 1));
    assert_eq!(moves_of(&c(48), "c8"), "c8-c9");
}

/// The quick legality test (`generate` takes a turn that cannot touch the King's safety
/// without playing it on a copy) gives exactly the turns of playing every candidate, in the
/// same order, with collusion on and off: random positions and random play from them under
/// combinations of every rule option, and random games from the rulebook's positions.
#[test]
fn fast_legality_matches_playing_every_move() {
    use menagerie_core::RuleOptions;
    let mut said_quiet = 0;
    let quiet = &mut said_quiet;
    let mut same = |p: &CypherPosition| {
        for collusion in [true, false] {
            assert_eq!(
                p.legal_with(collusion, true),
                p.legal_with(collusion, false),
                "{} (collusion {collusion})",
                p.fen()
            );
        }
        let legal = p.legal();
        assert_eq!(legal, p.legal_with(true, true), "{}", p.fen());
        // Quiescence's list: exactly the noisy turns, in the same order, and whether there
        // is any turn at all.
        let mut noisy = Vec::new();
        let any = p.legal_noisy_moves(&mut noisy);
        let filtered: Vec<_> = legal.iter().copied().filter(|&m| p.is_noisy(m)).collect();
        assert_eq!(noisy, filtered, "noisy turns of {}", p.fen());
        assert_eq!(any, !legal.is_empty(), "any turn in {}", p.fen());
        // A turn said to give no check gives none, by this file's reading of check.
        for &m in &legal {
            if !p.may_give_check(m) {
                let child = Pos::parse(&p.after(m).fen());
                assert!(
                    !in_check(&child, child.side),
                    "{} gives check in {}",
                    p.move_text(m),
                    p.fen()
                );
                *quiet += 1;
            }
        }
    };
    let mut compared = 0;
    for opts in 0..24u64 {
        let mut chosen = vec![
            ["self-flip=loses", "self-flip=illegal"][opts as usize % 2],
            [
                "king-court-entry=enemy-spy-outside",
                "king-court-entry=own-spy-outside",
                "king-court-entry=free",
            ][opts as usize / 2 % 3],
        ];
        if opts / 6 % 2 == 1 {
            chosen.extend(["infiltration-target=enemy-home", "coup-minor=bishop-first"]);
        }
        if opts / 12 == 1 {
            chosen.push("coup-pawns=no");
        }
        let options = RuleOptions::parse(&chosen).unwrap();
        let mut rng = Rng(0x51_7cc1_b727_220a ^ (opts + 1).wrapping_mul(0x9e37_79b9));
        let mut positions = 0;
        while positions < 150 {
            let Some(fen) = random_position(&mut rng) else {
                continue;
            };
            let Ok(mut pos) = CypherPosition::from_fen(&fen, &options) else {
                continue;
            };
            positions += 1;
            for _ in 0..12 {
                same(&pos);
                compared += 1;
                let moves = pos.legal();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
            }
        }
        let starts: Vec<&str> = std::iter::once(START)
            .chain(PERFT.iter().map(|(f, _)| *f))
            .chain(CASES.iter().copied())
            .collect();
        for (g, start) in starts.iter().enumerate().take(12) {
            let Ok(mut pos) = CypherPosition::from_fen(start, &options) else {
                continue;
            };
            for _ in 0..60 + g {
                same(&pos);
                compared += 1;
                let moves = pos.legal();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
            }
        }
    }
    eprintln!("{compared} positions compared, {said_quiet} turns said to give no check");
    // The hint is not `true` everywhere: most turns give no check.
    assert!(said_quiet > 10 * compared, "{said_quiet}");
}
