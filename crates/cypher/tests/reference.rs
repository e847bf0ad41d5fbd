//! A second, deliberately naive implementation of the turn rules (coordinates and a plain
//! array, no bitboards or tables), compared with the fast generator on positions reached by
//! random play. It catches slips of the optimised code in corners the perft positions of
//! section 16 may not reach.

mod common;
use common::*;
use menagerie_core::{Color, Position};
use menagerie_cypher::{CypherPosition, Kind};

type Man = (Color, Kind);
#[derive(Clone)]
struct Board([Option<Man>; 110]);

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..10).contains(&f) && (0..11).contains(&r)).then(|| (r * 10 + f) as usize)
}
fn fr(s: usize) -> (i32, i32) {
    ((s % 10) as i32, (s / 10) as i32)
}
#[derive(PartialEq, Clone, Copy)]
enum Sec {
    Court,
    Border,
    Field,
}
fn sec(s: usize) -> Sec {
    let (f, r) = fr(s);
    if f == 0 || f == 9 || r == 0 || r == 10 {
        Sec::Court
    } else if r == 5 {
        Sec::Border
    } else {
        Sec::Field
    }
}
fn adj(a: usize, b: usize) -> bool {
    let ((fa, ra), (fb, rb)) = (fr(a), fr(b));
    a != b && (fa - fb).abs() <= 1 && (ra - rb).abs() <= 1
}
fn major(k: Kind) -> bool {
    matches!(k, Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight)
}
fn name(s: usize) -> String {
    let (f, r) = fr(s);
    format!(
        "{}{}",
        ["z", "a", "b", "c", "d", "e", "f", "g", "h", "i"][f as usize],
        r
    )
}
fn leap(a: usize, b: usize, long: i32) -> bool {
    let ((fa, ra), (fb, rb)) = (fr(a), fr(b));
    let (dx, dy) = ((fa - fb).abs(), (ra - rb).abs());
    (dx == 1 && dy == long) || (dx == long && dy == 1)
}
fn knight_ok(from: usize, to: usize) -> bool {
    match sec(from) {
        Sec::Field => leap(from, to, 2),
        Sec::Court => leap(from, to, 3),
        Sec::Border => leap(from, to, 2) || leap(from, to, 3),
    }
}

impl Board {
    fn find(&self, m: Man) -> Option<usize> {
        (0..110).find(|&s| self.0[s] == Some(m))
    }
    /// Direction from a to b if on a line of the given kind.
    fn line(&self, a: usize, b: usize, straight: bool, diagonal: bool) -> Option<(i32, i32)> {
        let ((fa, ra), (fb, rb)) = (fr(a), fr(b));
        let (dx, dy) = (fb - fa, rb - ra);
        if a == b {
            return None;
        }
        let ok = (straight && (dx == 0 || dy == 0)) || (diagonal && dx.abs() == dy.abs());
        ok.then(|| (dx.signum(), dy.signum()))
    }
    /// Squares strictly between a and b (on a line).
    fn between(&self, a: usize, b: usize, d: (i32, i32)) -> Vec<usize> {
        let (mut f, mut r) = fr(a);
        let mut out = vec![];
        loop {
            f += d.0;
            r += d.1;
            let s = at(f, r).expect("on the board");
            if s == b {
                return out;
            }
            out.push(s);
        }
    }
    fn check_line_clear(&self, a: usize, b: usize, d: (i32, i32)) -> bool {
        self.between(a, b, d).into_iter().all(|s| match self.0[s] {
            None => true,
            Some((_, Kind::Spy)) => sec(s) != Sec::Court,
            _ => false,
        })
    }
    fn move_line_clear(&self, a: usize, b: usize, d: (i32, i32)) -> bool {
        self.between(a, b, d)
            .into_iter()
            .all(|s| self.0[s].is_none())
    }
    fn colluding(&self, p: usize, c: Color) -> bool {
        let Some(spy) = self.find((c, Kind::Spy)) else {
            return false;
        };
        sec(spy) == Sec::Field && sec(p) == Sec::Field && adj(p, spy)
    }
    fn spy_colludes(&self, c: Color) -> bool {
        let Some(spy) = self.find((c, Kind::Spy)) else {
            return false;
        };
        sec(spy) == Sec::Field
            && (0..110).any(|s| {
                matches!(self.0[s], Some((cc, k)) if cc == c && major(k) && sec(s) == Sec::Field && adj(s, spy))
            })
    }
    fn attacks_king(&self, p: usize, k: usize, collusion: bool) -> bool {
        let Some((c, kind)) = self.0[p] else {
            return false;
        };
        let kf = sec(k) == Sec::Field;
        let col = collusion && kf;
        match kind {
            Kind::Pawn => {
                let ((fp, rp), (fk, rk)) = (fr(p), fr(k));
                let dir = if c == Color::White { 1 } else { -1 };
                (fp - fk).abs() == 1 && rk - rp == dir
            }
            Kind::Knight => match sec(p) {
                Sec::Field => col && self.colluding(p, c) && leap(p, k, 2),
                _ => knight_ok(p, k),
            },
            Kind::King => sec(p) != Sec::Field && adj(p, k),
            Kind::Spy => {
                if adj(p, k) {
                    return false;
                }
                let ok = sec(p) != Sec::Field || (col && self.spy_colludes(c));
                ok && self
                    .line(p, k, true, true)
                    .is_some_and(|d| self.check_line_clear(p, k, d))
            }
            _ => {
                let ok = sec(p) != Sec::Field || (col && self.colluding(p, c));
                let (s, dg) = match kind {
                    Kind::Rook => (true, false),
                    Kind::Bishop => (false, true),
                    _ => (true, true),
                };
                ok && self
                    .line(p, k, s, dg)
                    .is_some_and(|d| self.check_line_clear(p, k, d))
            }
        }
    }
    fn in_check(&self, side: Color, collusion: bool) -> bool {
        let Some(k) = self.find((side, Kind::King)) else {
            return false;
        };
        if sec(k) == Sec::Court {
            return false;
        }
        (0..110).any(|p| {
            matches!(self.0[p], Some((c, _)) if c != side) && self.attacks_king(p, k, collusion)
        })
    }
    /// Whether the flip conditions after a turn of `mover` go against him (Some(true)),
    /// for him (Some(false)), or there are none.
    fn flip_against(&self, mover: Color) -> Option<bool> {
        let o = mover.other();
        let king = |c| self.find((c, Kind::King));
        let spy = |c| self.find((c, Kind::Spy));
        let near =
            |a: Option<usize>, b: Option<usize>| matches!((a, b), (Some(a), Some(b)) if adj(a, b));
        let court_line = |sc: Color| match (spy(sc), king(sc.other())) {
            (Some(s), Some(k)) if sec(s) == Sec::Court && sec(k) == Sec::Court => self
                .line(s, k, true, true)
                .is_some_and(|d| self.check_line_clear(s, k, d)),
            _ => false,
        };
        let both_court = |a: Option<usize>, b: Option<usize>| matches!((a, b), (Some(a), Some(b)) if sec(a) == Sec::Court && sec(b) == Sec::Court);
        let king_flips =
            |c: Color| near(king(c), spy(c.other())) && !both_court(king(c), spy(c.other()));
        if court_line(o)
            || king_flips(o)
            || near(king(mover), spy(mover))
            || near(spy(mover), spy(o))
        {
            return Some(true);
        }
        if court_line(mover) || king_flips(mover) || near(king(o), spy(o)) {
            return Some(false);
        }
        None
    }
}

struct Ref {
    b: Board,
    turn: Color,
    retake: Option<usize>,
    infil: bool,
    pool: u8,
}

impl Ref {
    fn new(p: &CypherPosition) -> Self {
        let mut b = Board([None; 110]);
        for (s, slot) in b.0.iter_mut().enumerate() {
            *slot = p.man_at(s);
        }
        Ref {
            b,
            turn: p.turn(),
            retake: p.retake_square(),
            infil: p.can_infiltrate(p.turn()),
            pool: p.pool(p.turn()),
        }
    }

    /// Whether the man on `from` may make the ordinary move to `to` (sections 3 and 5).
    fn pseudo(&self, from: usize, to: usize) -> bool {
        let b = &self.b;
        let m = self.turn;
        let Some((_, kind)) = b.0[from] else {
            return false;
        };
        if from == to || matches!(b.0[to], Some((c, _)) if c == m) {
            return false;
        }
        let victim = b.0[to];
        if matches!(victim, Some((_, Kind::King | Kind::Spy))) {
            return false;
        }
        let (sf, st) = (sec(from), sec(to));
        // Movement.
        let reach = match kind {
            Kind::Pawn => {
                let ((ff, rf), (ft, rt)) = (fr(from), fr(to));
                let dir = if m == Color::White { 1 } else { -1 };
                let start = if m == Color::White { 3 } else { 7 };
                if st == Sec::Court {
                    false
                } else if ft == ff && victim.is_none() {
                    rt - rf == dir
                        || (rf == start
                            && rt - rf == 2 * dir
                            && b.0[at(ff, rf + dir).unwrap_or(0)].is_none())
                } else {
                    (ft - ff).abs() == 1 && rt - rf == dir && victim.is_some()
                }
            }
            Kind::Knight => knight_ok(from, to),
            Kind::King => adj(from, to),
            _ => {
                let (s, d) = match kind {
                    Kind::Rook => (true, false),
                    Kind::Bishop => (false, true),
                    _ => (true, true),
                };
                b.line(from, to, s, d)
                    .is_some_and(|dir| b.move_line_clear(from, to, dir))
            }
        };
        if !reach {
            return false;
        }
        match victim {
            None => match kind {
                Kind::Pawn | Kind::Spy => true,
                Kind::King => {
                    st != Sec::Court
                        || b.find((m.other(), Kind::Spy))
                            .is_none_or(|s| sec(s) != Sec::Court)
                }
                _ => st != Sec::Court || sf == Sec::Court,
            },
            Some((_, vk)) => {
                if kind == Kind::Spy {
                    return sf == Sec::Court && st == Sec::Court && major(vk);
                }
                if st == Sec::Court {
                    return false;
                }
                if vk == Kind::Pawn || kind == Kind::Pawn {
                    return true;
                }
                if st == Sec::Border {
                    return false;
                }
                // A Field major.
                if sf != Sec::Field || self.retake == Some(to) {
                    return true;
                }
                kind == Kind::King && {
                    let k = from;
                    b.attacks_king(to, k, true) && b.colluding(to, m.other())
                }
            }
        }
    }

    fn ok(&self, child: &Board) -> bool {
        !child.in_check(self.turn, true)
    }

    fn legal(&self) -> Vec<String> {
        let m = self.turn;
        let b = &self.b;
        let mut out = vec![];
        for from in 0..110 {
            let Some((c, kind)) = b.0[from] else { continue };
            if c != m {
                continue;
            }
            for to in 0..110 {
                if !self.pseudo(from, to) {
                    continue;
                }
                let mut child = b.clone();
                child.0[to] = child.0[from].take();
                let text = format!("{}-{}", name(from), name(to));
                let last = if m == Color::White { 9 } else { 1 };
                if kind == Kind::Pawn && fr(to).1 == last {
                    child.0[to] = None;
                    let rank = |k: Kind| match k {
                        Kind::Queen => 4,
                        Kind::Rook => 3,
                        Kind::Bishop | Kind::Knight => 2,
                        _ => 1,
                    };
                    let theirs: Vec<usize> = (0..110)
                        .filter(|&s| matches!(child.0[s], Some((cc, k)) if cc != m && k != Kind::King && k != Kind::Spy))
                        .collect();
                    let best = theirs
                        .iter()
                        .map(|&s| child.0[s].map_or(0, |(_, k)| rank(k)))
                        .max();
                    let chosen: Vec<usize> = theirs
                        .into_iter()
                        .filter(|&s| Some(child.0[s].map_or(0, |(_, k)| rank(k))) == best)
                        .collect();
                    if chosen.is_empty() && self.ok(&child) {
                        out.push(text.clone());
                    }
                    for s in chosen {
                        let mut g = child.clone();
                        g.0[s] = g.0[s].map(|(_, k)| (m, k));
                        if self.ok(&g) {
                            out.push(format!("{text}({})", name(s)));
                        }
                    }
                    continue;
                }
                let spy_exit =
                    kind == Kind::Spy && sec(from) == Sec::Court && sec(to) != Sec::Court;
                let infiltrates = kind == Kind::King && self.infil && sec(to) == Sec::Border;
                if !(spy_exit || infiltrates) {
                    if self.ok(&child) {
                        out.push(text);
                    }
                    continue;
                }
                if !self.ok(&child) {
                    continue;
                }
                out.push(text.clone());
                if child.flip_against(m).is_some() {
                    continue;
                }
                for p in 0..110 {
                    let Some((pc, pk)) = child.0[p] else { continue };
                    if pc != m || !major(pk) {
                        continue;
                    }
                    if spy_exit {
                        if sec(p) == Sec::Court {
                            continue;
                        }
                        for dest in
                            (0..110).filter(|&d| sec(d) == Sec::Court && child.0[d].is_none())
                        {
                            let reach = match pk {
                                Kind::Knight => knight_ok(p, dest),
                                _ => {
                                    let (s, d) = match pk {
                                        Kind::Rook => (true, false),
                                        Kind::Bishop => (false, true),
                                        _ => (true, true),
                                    };
                                    child
                                        .line(p, dest, s, d)
                                        .is_some_and(|dir| child.move_line_clear(p, dest, dir))
                                }
                            };
                            if reach {
                                let mut g = child.clone();
                                g.0[dest] = g.0[p].take();
                                if self.ok(&g) {
                                    out.push(format!("{text}/{}-{}", name(p), name(dest)));
                                }
                            }
                        }
                    } else {
                        for dest in [4usize, 104] {
                            if matches!(child.0[dest], Some((cc, _)) if cc == m) {
                                continue;
                            }
                            let mut g = child.clone();
                            g.0[dest] = g.0[p].take();
                            if self.ok(&g) {
                                out.push(format!("{text}*{}-{}", name(p), name(dest)));
                            }
                        }
                    }
                }
            }
        }
        if self.pool > 0 && !b.in_check(m, true) {
            let enemy = b.find((m.other(), Kind::King));
            for f in 1..=8 {
                let s = 50 + f;
                if b.0[s].is_some() {
                    continue;
                }
                let mut g = b.clone();
                g.0[s] = Some((m, Kind::Pawn));
                if enemy.is_some_and(|k| sec(k) != Sec::Court && g.attacks_king(s, k, true)) {
                    continue;
                }
                out.push(format!("P@{}", name(s)));
            }
        }
        out.sort();
        out
    }
}

const FENS: &[&str] = &[
    menagerie_cypher::START_FEN,
    "5n4/1sr1b1nr2/4qkb3/1pppppppp1/10/1P6P1/4P5/2PP1PPP2/3BQKB3/2RN2NR2/2S7 b - Ii 0+0 0/0 0 4",
    "2s1k5/8r1/3b1qn3/5p4/1p1p3p2/10/2P3K1S1/1PQ1N2PP1/3B4R1/10/10 w - Ii 0+0 0/0 3 31",
    "10/5n4/10/1p2k5/2N3Nr2/2RP2Pp2/2Qp3Pb1/4RK4/1r6S1/3sB5/10 b - Ii 0+3 5/5 1 52",
    "10/2nk6/10/1B2p2n2/2r1P2P2/1PpPSp1pP1/1b8/5b4/3s6/7q2/1N1K6 w - Ii 0+0 3/4 0 59",
    "2s7/4Sr4/4B5/1pp2k1p2/7Bp1/1qpPp1Pbb1/10/10/7KR1/1N8/r9 b - Ii 1+0 6/2 2 49",
    "1R2b5/6s3/8n1/n5N3/6r3/1P1Ppkppp1/10/2P3pP2/5S2p1/6q3/6K3 b - I 0+0 4/2 1 69",
    "7n1S/4r1Qk2/3s6/1R6b1/5q4/1PpprPppP1/10/1b3R4/6K3/4N1N2B/10 w - Ii 0+0 5/4 0 49",
    "9q/1Qrbb2r2/1s2Rk4/1pp2p4/7PP1/2P4pP1/1PpP1p2S1/R2P2P3/3B6/3N2N3/7K2 b d8 Ii 0+0 0/2 0 23",
    "2r7/3Qn2R2/10/q3P2n2/10/1P1PBP1kP1/1p5Pb1/2rs1K2S1/1N4B3/1R4N3/10 w - I 0+1 2/7 1 53",
    "4q5/2r4r2/3s1k2n1/1pppn3p1/10/1PqSp1bbp1/3N2K3/10/10/4BBN3/R9 w - Ii 0+1 7/1 0 32",
    "4k5/2rn3r2/5qb3/1pp2ppn2/3ps2p2/1Pp1PPpPQ1/10/1P3P4/1B3KBR2/S1bN2N3/10 w - Ii 0+0 2/0 0 21",
    "1s8/10/5k4/10/3BS5/10/10/10/10/2K7/10 b - Ii 1+0 0/0 0 1",
    "10/10/8k1/10/10/10/4R5/10/10/10/3K1S2s1 w - Ii 0+0 0/0 0 1",
    "4s5/10/2n3P3/4k3r1/1q8/10/10/10/10/2K7/9S w - Ii 0+0 0/0 0 1",
    "1s8/10/8k1/10/10/10/5K4/10/10/1R6N1/9S w - Ii 0+0 0/0 0 1",
    "1s8/10/3P4k1/10/5p1p2/10/10/10/10/2K7/4S5 w - Ii 0+0 0/0 0 1",
    "10/8k1/10/10/10/10/5bs3/4K5/10/5R4/4S5 w - Ii 0+1 0/0 0 1",
];

#[test]
fn naive_reference_agrees_on_random_games() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut rnd = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut compared = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for fen in FENS {
        for _ in 0..20 {
            let mut p = pos(fen);
            for _ in 0..100 {
                if p.outcome().is_some() {
                    break;
                }
                let reference = Ref::new(&p).legal();
                assert_eq!(all(&p), reference, "{}", p.fen());
                compared += 1;
                let moves = p.legal();
                let mv = moves[rnd(moves.len())];
                kinds.insert(format!("{:?}", mv.kind));
                p.play(mv);
            }
        }
    }
    assert!(compared > 5000, "{compared}");
    // Every kind of turn was played at least once.
    assert_eq!(kinds.len(), 5, "{kinds:?}");
}
