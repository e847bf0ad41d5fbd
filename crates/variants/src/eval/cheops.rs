//! The Little Cheops evaluation (Common and Imperial), in the game's own terms: material
//! (Civilians and the Deputies hidden among them are never captured, so they count
//! nothing; Dukes are worth more, since a Duke lets a mated King abdicate), Masters that
//! threaten a capture over a screen, Pawns nearing promotion, active Castles owned, the
//! room of the riding pieces, and the King's shelter. The evaluation reads only the board
//! letters and the public Castles, never the sealed papers, so it is the same for every
//! hypothesis about the opponent's secret.

use menagerie_cheops::position::MAX_SQUARES;
use menagerie_cheops::rules::{Bits, RulesRef, LEG_HOPPER, LEG_MOVES, LEG_RIDER};
use menagerie_cheops::{CheopsMove, CheopsPosition, TurnKind};
use menagerie_core::{BitBoard, Color, Position, Square};
use menagerie_engine::{Evaluator, Mobility};
use std::cell::RefCell;
use std::sync::OnceLock;

/// The Little Cheops evaluation; every weight is data so self-play can tune it.
#[derive(Clone, Debug)]
pub struct CheopsEval {
    /// `(letter, value)` for each piece, upper case; letters not listed use `default`.
    pub values: [(char, i32); 15],
    /// The value of a letter missing from the table.
    pub default: i32,
    /// Pawn bonus by steps still to go to the last rank (index 1 = one step). It rises from
    /// the Pawn's first step on, not only near the last rank: with nothing for the first
    /// steps, every quiet move of a blocked-looking middlegame scored the same and the
    /// engine shuffled (issue 36); a Pawn step is progress, and it restarts the fifty-round
    /// count.
    pub pawn_advance: [i32; 13],
    /// Bonus of each active Castle a side owns.
    pub castle: i32,
    /// Bonus per own piece next to one's King (up to four).
    pub shelter: i32,
    /// Penalty per enemy major piece within two steps of one's King.
    pub king_danger: i32,
    /// Share (1/n) of a piece's value counted as a threat when a Master can take it.
    pub master_threat: i32,
    /// Centipawns per step of centralisation of one-step pieces and Knights.
    pub centre: i32,
    /// The material lead (centipawns) from which the leading side is rewarded for driving
    /// the other King to the edge and bringing its own King near: without it a won Imperial
    /// game could drift to the ply cap, every quiet move scoring the same.
    pub mop_up_lead: i32,
    /// Centipawns per step of that drive (the lone King's distance from the centre, and
    /// closeness of the two Kings) at a lead of `mop_up_lead`; it grows with the lead, up
    /// to four times at four times that lead, so a side far ahead drives harder.
    pub mop_up: i32,
    /// In that drive, centipawns per rank a Pawn of the leading side has advanced from its
    /// own first rank: far ahead, a Pawn that walks to promotion is progress at every step
    /// (the advance table alone gives nothing for the first steps on 13x13).
    pub mop_up_pawn: i32,
    /// How much of the evaluation the fifty-round count takes away as it runs (R38): the
    /// score is scaled by `(fifty - count) / fifty`, the count being the turns since the
    /// last Pawn move, capture or arrest, at most the challenge's, as a hundred at the
    /// challenge's end (two thirds of the score left at 300); 0 for no scaling. A side
    /// ahead then gains by a Pawn move, a capture or an arrest before the count runs out.
    pub fifty: i32,
    /// Centipawns per empty square a riding piece (Tower, Minister, Queen, Prime Minister,
    /// Master: whatever rides in the piece table) can move to along its lines: without it
    /// nothing asked a Tower to leave its corner or a Queen to stand where it reaches far,
    /// and a side far ahead shuffled its riders instead of bringing them to bear.
    pub rider_mobility: i32,
    /// Whether the search uses the three aids measured in chess: a correction history keyed
    /// by the Pawns, singular extensions from depth 6 and aspiration windows of ±30 cp. On
    /// in Common, where they were measured to gain (docs/engine.md, "The chess search's aids
    /// in Vyrt and Common"); off in Imperial, where they were not measured.
    pub search_aids: bool,
}

impl Default for CheopsEval {
    fn default() -> Self {
        CheopsEval {
            values: [
                ('K', 0),
                ('Q', 900),
                ('E', 700),
                ('I', 330),
                ('T', 500),
                ('M', 450),
                ('N', 300),
                ('D', 350),
                ('U', 260),
                ('B', 230),
                ('O', 230),
                ('A', 260),
                ('C', 0),
                ('P', 100),
                ('?', 0),
            ],
            default: 250,
            // Common's weights fitted to 1,200 self-play games (2026-11-29, `tune_weights
            // little-cheops --lambda 0.75`, the drive when ahead and the fifty-round
            // scaling held; docs/engine.md, "Little Cheops' styles apart").
            pawn_advance: [0, 223, 107, 38, 30, 22, 15, 2, 9, 5, 2, 0, 0],
            castle: 60,
            shelter: -2,
            king_danger: -2,
            master_threat: 8,
            centre: 9,
            mop_up_lead: 400,
            mop_up: 6,
            mop_up_pawn: 8,
            fifty: 300,
            rider_mobility: 3,
            search_aids: true,
        }
    }
}

impl CheopsEval {
    /// The weights of the Imperial style (13x13, Castles, Deputies): those both styles
    /// shared before Common's were fitted to Common's games (a fit to Imperial's own games
    /// did not play better, docs/engine.md, "Little Cheops' styles apart").
    pub fn imperial() -> Self {
        CheopsEval {
            pawn_advance: [0, 200, 100, 60, 40, 28, 20, 14, 9, 5, 2, 0, 0],
            shelter: 6,
            king_danger: 12,
            centre: 3,
            search_aids: false,
            ..CheopsEval::default()
        }
    }

    /// The value of a piece by its board letter (either case).
    pub fn value(&self, c: char) -> i32 {
        let up = c.to_ascii_uppercase();
        self.values
            .iter()
            .find(|&&(l, _)| l == up)
            .map_or(self.default, |&(_, v)| v)
    }

    /// Values by board letter byte (either case), built once per evaluation: the table's
    /// fields are public and may change between calls.
    fn value_table(&self) -> [i32; 26] {
        let mut values = [self.default; 26];
        for &(l, v) in self.values.iter().rev() {
            if l.is_ascii_uppercase() {
                values[(l as u8 - b'A') as usize] = v;
            }
        }
        values
    }

    /// `score` scaled down as the fifty-round count runs (see [`CheopsEval::fifty`]).
    pub fn fifty_scaled(&self, score: i32, pos: &CheopsPosition) -> i32 {
        if self.fifty <= 0 {
            return score;
        }
        let limit = pos.rules().settings.challenge_turns;
        let count = pos.halfmove().min(limit) as i32;
        // The count in the challenge's hundred turns, whatever count the game agreed.
        let count = count * 100 / limit.max(1) as i32;
        score * (self.fifty - count) / self.fifty
    }

    /// The evaluation from White's point of view.
    fn white_score(&self, pos: &CheopsPosition) -> i32 {
        let rules = pos.rules();
        PREPARED.with(|cache| {
            let mut cache = cache.borrow_mut();
            let i = match cache.iter().position(|p| p.matches(self, rules)) {
                Some(i) => i,
                None => {
                    // A handful of (weights, piece table) pairs at most are in use at once.
                    if cache.len() >= 4 {
                        cache.remove(0);
                    }
                    cache.push(Prepared::new(self, pos));
                    cache.len() - 1
                }
            };
            self.score_with(&mut cache[i], pos)
        })
    }

    /// [`Self::white_score`] with the tables of this evaluation and piece table.
    #[inline]
    fn score_with(&self, prep: &mut Prepared, pos: &CheopsPosition) -> i32 {
        let geo = prep.geo;
        let cells = pos.cells();
        // The terms read per square, White's minus Black's, with the material alone in the
        // high half (see `Prepared::psq`), and the squares of the Kings and Masters: from
        // the board evaluated last, corrected on the squares that differ (the search
        // evaluates positions a few moves apart, one after the other).
        let (packed, specials) = prep.last.update(cells, &prep.psq, prep.special);
        // The rest, White's minus Black's, kept in a register.
        let mut score = 0i32;
        let mut kings = [usize::MAX; 2];
        let occupied = pos.occupied();
        // Only Kings and Masters need more than their table entry, in square order.
        for (w, &word) in specials.0.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let s = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let c = usize::from(cells[s.min(MAX_SQUARES - 1)] & 31);
                if prep.kind[c] == KIND_KING {
                    kings[usize::from(prep.side[c])] = s;
                    continue;
                }
                // A rider or a Master (which rides to move).
                if self.rider_mobility != 0 {
                    let lines = prep.rider_lines[c << 8 | s];
                    let reach = self.rider_mobility
                        * if lines == LINES_BY_LEGS {
                            rider_reach(pos, cells, s)
                        } else {
                            geo.reach(s, lines, occupied)
                        };
                    score += if prep.side[c] == 0 { reach } else { -reach };
                }
                if prep.kind[c] == KIND_MASTER {
                    // A Master: a capture over exactly one screen, the first piece
                    // beyond the screen: the second occupied square of each rook ray,
                    // found on the occupancy bits (walking the rays square by square
                    // was about 600 instructions an Imperial evaluation).
                    let threat = &prep.threat[usize::from(prep.side[c])];
                    let rays = &geo.lines[s][..4];
                    for (ray, ascending) in rays.iter().zip([true, false, true, false]) {
                        let on = *ray & occupied;
                        let beyond = if ascending {
                            second_lowest(on)
                        } else {
                            second_highest(on)
                        };
                        if let Some(t) = beyond {
                            score += threat[usize::from(cells[t.min(MAX_SQUARES - 1)] & 31)];
                        }
                    }
                }
            }
        }
        // The low half is the square terms' sum (it fits in 32 bits), the rest the
        // material's (`packed - low` is an exact multiple of 2^32).
        let square_terms = packed as i32;
        score += square_terms;
        let lead = ((packed - i64::from(square_terms)) >> 32) as i32;
        for castle in pos.castles() {
            if castle.active {
                score += if castle.owner == Color::White {
                    self.castle
                } else {
                    -self.castle
                };
            }
        }
        // Far ahead: the side behind (`weak`) is driven, the leader's Pawns walk on.
        let mop_up = lead.abs() >= self.mop_up_lead && kings.iter().all(|&k| k != usize::MAX);
        let weak = usize::from(lead > 0);
        for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let k = kings[side];
            if k == usize::MAX {
                continue;
            }
            // Own pieces next to the King, enemy pieces within two steps but Civilians and
            // Pawns. A King far behind gets no shelter: Civilians are never captured, so
            // the ones round it would otherwise hold the lone King in the middle.
            let shelter = if mop_up && side == weak {
                0
            } else {
                (geo.ring[k] & pos.occupied_by(color)).count() as i32
            };
            let mut danger = 0;
            let mut foes = geo.zone[k] & pos.occupied_by(color.other());
            while let Some(t) = foes.pop_first() {
                danger += i32::from(prep.danger[usize::from(cells[t.index()] & 31)]);
            }
            let own = self.shelter * shelter.min(4) - self.king_danger * danger;
            score += if side == 0 { own } else { -own };
        }
        if mop_up {
            score += self.mop_up_score(prep, pos, lead, kings);
        }
        score
    }

    /// The drive of a side far ahead (`lead`, White's material minus Black's, at least
    /// `mop_up_lead` either way), White's point of view: the other King's distance from the
    /// centre, how close the two Kings are, both scaled with the lead, and the leader's
    /// Pawns' ranks advanced.
    fn mop_up_score(
        &self,
        prep: &Prepared,
        pos: &CheopsPosition,
        lead: i32,
        kings: [usize; 2],
    ) -> i32 {
        let rules = pos.rules();
        let n = rules.n as i32;
        let (strong, weak) = if lead > 0 { (0, 1) } else { (1, 0) };
        let (sk, wk) = (kings[strong], kings[weak]);
        let centre = n / 2;
        let edge = centre - prep.geo.centrality[wk];
        let apart = (i32::from(rules.file[sk]) - i32::from(rules.file[wk]))
            .abs()
            .max((i32::from(rules.rank[sk]) - i32::from(rules.rank[wk])).abs());
        // Scaled with the lead: one at `mop_up_lead`, four at four times it (in 64ths).
        let lead_abs = lead.abs().min(4 * self.mop_up_lead);
        let scale = (64 * lead_abs) / self.mop_up_lead.max(1);
        let mut own = self.mop_up * (2 * edge + (n - 1 - apart)) * scale / 64;
        if self.mop_up_pawn != 0 {
            let color = if strong == 0 {
                Color::White
            } else {
                Color::Black
            };
            let cells = pos.cells();
            let mut pawns = pos.occupied_by(color);
            while let Some(s) = pawns.pop_first() {
                let c = usize::from(cells[s.index()] & 31);
                if prep.kind[c] == KIND_PAWN {
                    let r = i32::from(rules.rank[s.index()]);
                    let advanced = if strong == 0 { r } else { n - 1 - r };
                    own += self.mop_up_pawn * advanced;
                }
            }
        }
        if strong == 0 {
            own
        } else {
            -own
        }
    }
}

/// The board a thread evaluated last with one [`Prepared`]'s tables, with the sums read
/// from it: a position's sums are those of the last board, corrected square by square
/// where the two differ (exact: integer sums).
struct LastBoard {
    /// The cells of the board evaluated last (all empty at first).
    cells: [u8; MAX_SQUARES],
    /// Its sum of [`Prepared::psq`] entries over the pieces.
    packed: i64,
    /// Its squares holding a code of [`Prepared::special`].
    specials: Bits,
}

impl LastBoard {
    fn new() -> Self {
        LastBoard {
            cells: [0; MAX_SQUARES],
            packed: 0,
            specials: Bits::EMPTY,
        }
    }

    /// Makes `cells` the board evaluated last; returns its sum of table entries and its
    /// squares holding special codes. Compares thirty-two squares at a time, then eight.
    #[inline]
    fn update(
        &mut self,
        cells: &[u8; MAX_SQUARES],
        psq: &[i64; PSQ_LEN],
        special: u32,
    ) -> (i64, Bits) {
        let mut packed = self.packed;
        let mut specials = self.specials;
        let mut change = |s: usize, old: u8, new: u8| {
            let (old, new) = (usize::from(old & 31), usize::from(new & 31));
            packed += psq[(new << 8 | s) & (PSQ_LEN - 1)] - psq[(old << 8 | s) & (PSQ_LEN - 1)];
            if special >> new & 1 != 0 {
                specials.set(Square(s as u16));
            } else {
                specials.clear(Square(s as u16));
            }
        };
        let word = |board: &[u8; MAX_SQUARES], at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&board[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let mut start = 0;
        // Where the eight-square steps stop when a block of thirty-two differs.
        let mut block_end = 0;
        while start + 8 <= MAX_SQUARES {
            // Thirty-two squares at once first: most of the board is as it was.
            if start >= block_end && start + 32 <= MAX_SQUARES {
                let mut any = 0;
                for k in (0..32).step_by(8) {
                    any |= word(cells, start + k) ^ word(&self.cells, start + k);
                }
                if any == 0 {
                    start += 32;
                    continue;
                }
                block_end = start + 32;
            }
            let (mut a, mut b) = ([0u8; 8], [0u8; 8]);
            a.copy_from_slice(&cells[start..start + 8]);
            b.copy_from_slice(&self.cells[start..start + 8]);
            let mut diff = u64::from_le_bytes(a) ^ u64::from_le_bytes(b);
            while diff != 0 {
                let byte = diff.trailing_zeros() as usize / 8;
                diff &= !(0xff << (8 * byte));
                change(start + byte, b[byte], a[byte]);
            }
            if a != b {
                self.cells[start..start + 8].copy_from_slice(&a);
            }
            start += 8;
        }
        for (s, (&new, old)) in cells
            .iter()
            .zip(self.cells.iter_mut())
            .enumerate()
            .skip(start)
        {
            if new != *old {
                change(s, *old, new);
                *old = new;
            }
        }
        self.packed = packed;
        self.specials = specials;
        (packed, specials)
    }
}

/// Entries of [`Prepared::psq`]: 32 cell codes by 256 squares (more than any board).
const PSQ_LEN: usize = 32 * 256;

/// [`Prepared::kind`]: nothing beyond the table entry.
const KIND_PLAIN: u8 = 0;
/// [`Prepared::kind`]: a King (its square is kept for shelter and mop-up).
const KIND_KING: u8 = 1;
/// [`Prepared::kind`]: a Master (its screen captures are looked for).
const KIND_MASTER: u8 = 2;
/// [`Prepared::kind`]: a Pawn (not special: read only by the mop-up).
const KIND_PAWN: u8 = 3;
/// [`Prepared::kind`]: a piece that rides (its empty squares ahead count as mobility).
const KIND_RIDER: u8 = 4;

thread_local! {
    /// The tables of the evaluations this thread used lately (the search asks at every
    /// node; building them costs about as much as a hundred evaluations).
    static PREPARED: RefCell<Vec<Prepared>> = const { RefCell::new(Vec::new()) };
}

/// Everything of one evaluation's weights and one piece table that depends on the board
/// cell code alone (or on code and square), so an evaluation reads one entry per piece
/// instead of deciding by its letter. Built from the public weights and checked against
/// them at every call, since they may change between calls.
struct Prepared {
    /// The weights the tables were built from.
    values: [(char, i32); 15],
    default: i32,
    pawn_advance: [i32; 13],
    centre: i32,
    master_threat: i32,
    rider_mobility: i32,
    /// The compiled rules (style, piece table, options) the tables were built for, held so
    /// that its address, by which it is matched, cannot be another's while it is cached: the
    /// riders' lines and kinds come from its legs, and two tables may share their letters.
    rules: RulesRef,
    geo: &'static Tables,
    /// By `code << 8 | square`: material, Pawn advance and centralisation (White's
    /// positive, Black's negative) plus the material alone times 2^32, so one addition per
    /// piece keeps both sums.
    psq: Box<[i64; PSQ_LEN]>,
    /// Bit `code` set for the codes that need more than their table entry (Kings, Masters).
    special: u32,
    /// The board this thread evaluated last with these tables, and its sums.
    last: Box<LastBoard>,
    /// `KIND_*` by cell code.
    kind: [u8; 32],
    /// 0 White, 1 Black by cell code (from the letter's case).
    side: [u8; 32],
    /// What a Master of each side gains (signed) by a screen capture of each code.
    threat: [[i32; 32]; 2],
    /// Whether a code counts as an enemy major near a King (not a Civilian nor a Pawn).
    danger: [bool; 32],
    /// By `code << 8 | square`, for riders and Masters: the lines of [`Tables::lines`]
    /// their riding moves follow (bit `d` for line `d`), or `LINES_BY_LEGS` where a riding
    /// leg is not one of them (a leg that is not a whole straight or diagonal line to the
    /// edge), counted then by walking the legs.
    rider_lines: Box<[u16; PSQ_LEN]>,
}

impl Prepared {
    /// Whether these tables were built for `e`'s weights and these compiled rules.
    #[inline]
    fn matches(&self, e: &CheopsEval, rules: &RulesRef) -> bool {
        // The weights' differences folded into one word without a branch per field (the
        // compiler keeps this in vector registers): about 150 instructions a call before.
        let mut diff = (self.default ^ e.default)
            | (self.centre ^ e.centre)
            | (self.master_threat ^ e.master_threat)
            | (self.rider_mobility ^ e.rider_mobility);
        for (a, b) in self.values.iter().zip(&e.values) {
            diff |= (u32::from(a.0) ^ u32::from(b.0)) as i32 | (a.1 ^ b.1);
        }
        for (a, b) in self.pawn_advance.iter().zip(&e.pawn_advance) {
            diff |= a ^ b;
        }
        self.rules.same(rules) && diff == 0
    }

    fn new(e: &CheopsEval, pos: &CheopsPosition) -> Self {
        let rules = pos.rules();
        let n = rules.n;
        let len = n * n;
        let geo = Tables::of(n);
        let letters = rules.cell_letters;
        let values = e.value_table();
        // Letters are ASCII letters (the piece table's), so `c & !32` is the upper case and
        // bit 5 the side (lower case: Black).
        let value = |c: u8| values[((c & !32).wrapping_sub(b'A') as usize).min(25)];
        let side_of = |c: u8| usize::from(c & 32 != 0);
        let signed = |side: usize, v: i32| if side == 0 { v } else { -v };
        let mut p = Prepared {
            values: e.values,
            default: e.default,
            pawn_advance: e.pawn_advance,
            centre: e.centre,
            master_threat: e.master_threat,
            rider_mobility: e.rider_mobility,
            rules: rules.clone(),
            geo,
            psq: Box::new([0; PSQ_LEN]),
            special: 0,
            last: Box::new(LastBoard::new()),
            kind: [KIND_PLAIN; 32],
            side: [0; 32],
            threat: [[0; 32]; 2],
            danger: [false; 32],
            rider_lines: Box::new([0; PSQ_LEN]),
        };
        for (code, &l) in letters.iter().enumerate() {
            let (side, up) = (side_of(l), l & !32);
            if l != 0 {
                let material = i64::from(signed(side, value(l)));
                p.side[code] = side as u8;
                // What rides is read from the piece table, not from the letter: a table
                // that corrects a provisional piece corrects its mobility too.
                let rides = rules
                    .table
                    .role_of_letter(char::from(up))
                    .is_some_and(|role| rules.rides[role]);
                p.kind[code] = match up {
                    b'K' => KIND_KING,
                    b'M' => KIND_MASTER,
                    b'P' => KIND_PAWN,
                    _ if rides && e.rider_mobility != 0 => KIND_RIDER,
                    _ => KIND_PLAIN,
                };
                if matches!(p.kind[code], KIND_KING | KIND_MASTER | KIND_RIDER) {
                    p.special |= 1 << code;
                }
                if matches!(p.kind[code], KIND_MASTER | KIND_RIDER) {
                    for s in 0..len {
                        p.rider_lines[code << 8 | s] = lines_of_legs(pos, geo, code as u8, s);
                    }
                }
                for s in 0..len {
                    let mut own = value(l);
                    match up {
                        b'P' => {
                            let r = i32::from(rules.rank[s]);
                            let steps = if side == 0 { n as i32 - 1 - r } else { r };
                            own += e.pawn_advance[steps.clamp(0, 12) as usize];
                        }
                        b'N' | b'D' | b'U' | b'B' | b'O' | b'A' => {
                            own += e.centre * geo.centrality[s];
                        }
                        _ => {}
                    }
                    p.psq[code << 8 | s] = (material << 32) + i64::from(signed(side, own));
                }
            }
            // A Master of side `m` threatens any piece of the other side but a Civilian or
            // a King (an empty code never stands on an occupied square).
            for m in 0..2 {
                if side_of(l) != m && up != b'C' && up != b'K' {
                    // No threat term at all rather than a division by zero.
                    p.threat[m][code] =
                        signed(m, value(l).checked_div(e.master_threat).unwrap_or(0));
                }
            }
            p.danger[code] = up != b'C' && up != b'P';
        }
        p
    }
}

/// The squares, in order, of each riding leg that moves (a hopper's lines, which need a
/// screen, left out) of the piece of cell `code` on `s`; none for an empty cell.
fn riding_legs(pos: &CheopsPosition, code: u8, s: usize) -> impl Iterator<Item = &[u8]> {
    let rules = pos.rules();
    let color = if code & 16 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let legs = match usize::from(code & 15).checked_sub(1) {
        Some(role) => rules.legs_of(role, color, s),
        None => &[],
    };
    legs.iter()
        .filter(|leg| leg.flags & (LEG_RIDER | LEG_MOVES | LEG_HOPPER) == LEG_RIDER | LEG_MOVES)
        .map(|leg| rules.leg_squares(leg))
}

/// The empty squares the riding piece on `s` can move to along its lines (a line ends at
/// the first piece; a hopper's lines, which need a screen, are not counted).
#[inline]
fn rider_reach(pos: &CheopsPosition, cells: &[u8; MAX_SQUARES], s: usize) -> i32 {
    let code = cells[s.min(MAX_SQUARES - 1)];
    riding_legs(pos, code, s)
        .map(|squares| {
            squares
                .iter()
                .take_while(|&&t| cells[usize::from(t)] == 0)
                .count() as i32
        })
        .sum()
}

/// [`Prepared::rider_lines`]: the riding legs are not all lines of [`Tables::lines`].
const LINES_BY_LEGS: u16 = 1 << 8;

/// The lines of [`Tables::lines`] that the riding moves (not a hopper's) of the piece of
/// cell `code` on `s` follow, or [`LINES_BY_LEGS`] if one of its riding legs is not such a
/// line, square for square.
fn lines_of_legs(pos: &CheopsPosition, geo: &Tables, code: u8, s: usize) -> u16 {
    let mut lines = 0;
    for squares in riding_legs(pos, code, s) {
        if squares.is_empty() {
            continue;
        }
        let line = (0..8).find(|&d| {
            geo.line_squares[s][d].len() == squares.len()
                && geo.line_squares[s][d]
                    .iter()
                    .zip(squares)
                    .all(|(&a, &b)| a == usize::from(b))
        });
        match line {
            Some(d) if lines & 1 << d == 0 => lines |= 1 << d,
            _ => return LINES_BY_LEGS,
        }
    }
    lines
}

/// The lowest square of `b`.
#[inline(always)]
fn lowest(b: Bits) -> Option<usize> {
    b.0.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(i, &w)| i * 64 + w.trailing_zeros() as usize)
}

/// The highest square of `b`.
#[inline(always)]
fn highest(b: Bits) -> Option<usize> {
    b.0.iter()
        .enumerate()
        .rev()
        .find(|(_, &w)| w != 0)
        .map(|(i, &w)| i * 64 + 63 - w.leading_zeros() as usize)
}

/// The second lowest square of `b` (the second piece met going up the board).
#[inline(always)]
fn second_lowest(b: Bits) -> Option<usize> {
    let mut words = b.0;
    let mut skipped = false;
    for (i, w) in words.iter_mut().enumerate() {
        while *w != 0 {
            if skipped {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
            *w &= *w - 1;
            skipped = true;
        }
    }
    None
}

/// The second highest square of `b` (the second piece met going down the board).
#[inline(always)]
fn second_highest(b: Bits) -> Option<usize> {
    let mut words = b.0;
    let mut skipped = false;
    for (i, w) in words.iter_mut().enumerate().rev() {
        while *w != 0 {
            let top = 63 - w.leading_zeros() as usize;
            if skipped {
                return Some(i * 64 + top);
            }
            *w &= !(1u64 << top);
            skipped = true;
        }
    }
    None
}

/// Square tables of one board size, built once: the eight lines from each square to the
/// edge, the squares within two steps of each and the eight next to it, and each square's
/// centrality (`centre - distance to the centre`, in King steps).
struct Tables {
    /// The eight lines from each square to the edge, the square itself left out (the four
    /// rook rays right, left, up, down, then the diagonals up-right, up-left, down-right,
    /// down-left; see [`LINE_STEPS`]), as bits and as squares in order.
    lines: Vec<[Bits; 8]>,
    line_squares: Vec<[Vec<usize>; 8]>,
    /// Each square's file and rank, from 0.
    file: Vec<u8>,
    rank: Vec<u8>,
    zone: Vec<Bits>,
    ring: Vec<Bits>,
    centrality: Vec<i32>,
}

/// The steps of [`Tables::lines`]: right, left, up, down, then up-right, up-left,
/// down-right, down-left.
const LINE_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

impl Tables {
    fn new(n: usize) -> Self {
        let ni = n as i32;
        let on = |x: i32, y: i32| (0..ni).contains(&x) && (0..ni).contains(&y);
        let at = |x: i32, y: i32| Square((y * ni + x) as u16);
        let mut t = Tables {
            lines: Vec::with_capacity(n * n),
            line_squares: Vec::with_capacity(n * n),
            file: (0..n * n).map(|s| (s % n) as u8).collect(),
            rank: (0..n * n).map(|s| (s / n) as u8).collect(),
            zone: Vec::with_capacity(n * n),
            ring: Vec::with_capacity(n * n),
            centrality: Vec::with_capacity(n * n),
        };
        let centre = ni / 2;
        for s in 0..n * n {
            let (f, r) = ((s % n) as i32, (s / n) as i32);
            let squares = LINE_STEPS.map(|(df, dr)| {
                let (mut x, mut y, mut line) = (f + df, r + dr, Vec::new());
                while on(x, y) {
                    line.push(at(x, y).index());
                    (x, y) = (x + df, y + dr);
                }
                line
            });
            t.lines.push(squares.each_ref().map(|line| {
                let mut bits = Bits::EMPTY;
                for &q in line {
                    bits.set(Square(q as u16));
                }
                bits
            }));
            t.line_squares.push(squares);
            let (mut zone, mut ring) = (Bits::EMPTY, Bits::EMPTY);
            for dr in -2..=2i32 {
                for df in -2..=2i32 {
                    let (x, y) = (f + df, r + dr);
                    if (df, dr) != (0, 0) && on(x, y) {
                        zone.set(at(x, y));
                        if df.abs() <= 1 && dr.abs() <= 1 {
                            ring.set(at(x, y));
                        }
                    }
                }
            }
            t.zone.push(zone);
            t.ring.push(ring);
            t.centrality
                .push(centre - (f - centre).abs().max((r - centre).abs()));
        }
        t
    }

    /// The empty squares reached from `s` along `lines` (bits of [`Tables::lines`]), each
    /// line ending at its first piece of `occupied`.
    #[inline]
    fn reach(&self, s: usize, lines: u16, occupied: Bits) -> i32 {
        let mut count = 0;
        let mut lines = lines;
        while lines != 0 {
            let d = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let on = self.lines[s][d] & occupied;
            // Lines 0, 2, 4 and 5 go up the square order, the others down.
            let first = if matches!(d, 0 | 2 | 4 | 5) {
                lowest(on)
            } else {
                highest(on)
            };
            count += match first {
                // Steps along the line to the first piece, that square left out: files
                // apart, or ranks on the up and down lines (no division at every node).
                Some(t) => {
                    let (a, b) = if matches!(d, 2 | 3) {
                        (self.rank[t], self.rank[s])
                    } else {
                        (self.file[t], self.file[s])
                    };
                    i32::from(a.abs_diff(b)) - 1
                }
                None => self.line_squares[s][d].len() as i32,
            };
        }
        count
    }

    /// The tables of an `n`x`n` board (Little Cheops has two sizes).
    fn of(n: usize) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 2] = [OnceLock::new(), OnceLock::new()];
        let slot = &TABLES[usize::from(n != 9)];
        let t = slot.get_or_init(|| Tables::new(n));
        if t.centrality.len() == n * n {
            t
        } else {
            // No style has another size; a table for one would be built (and kept) here.
            Box::leak(Box::new(Tables::new(n)))
        }
    }
}

impl Evaluator<CheopsPosition> for CheopsEval {
    fn evaluate(&self, pos: &CheopsPosition, _mobility: Mobility) -> i32 {
        let s = self.fifty_scaled(self.white_score(pos), pos);
        let s = if pos.turn() == Color::White { s } else { -s };
        // The learnt correction (issue 34), 0 unless the variant's network is on.
        s + 10 + super::net::cheops(pos)
    }

    fn move_hint(&self, pos: &CheopsPosition, mv: CheopsMove) -> i32 {
        // The letter by the board's cell code (what `piece_char` gives, without its
        // look-up through the piece table).
        let cells = pos.cells();
        let letters = &pos.rules().cell_letters;
        let at = |s: Square| match cells.get(s.index()).map_or(0, |&c| c & 31) {
            0 => 0,
            code => self.value(char::from(letters[usize::from(code)])),
        };
        match mv.kind {
            TurnKind::Move => {
                let promo = if mv.promotion().is_some() {
                    self.value('Q') - self.value('P')
                } else {
                    0
                };
                16 * at(mv.to()) + promo - at(mv.from()) / 16
            }
            TurnKind::HallPromotion => self.value('Q'),
            TurnKind::Hop => 16 * self.value('P'),
            _ => 0,
        }
    }

    fn material(&self, pos: &CheopsPosition) -> i32 {
        let us = pos.turn();
        let n = pos.rules().n;
        (0..n * n)
            .filter_map(|i| pos.piece_char(Square(i as u16)))
            .map(|c| {
                let v = self.value(c);
                if c.is_ascii_uppercase() == (us == Color::White) {
                    v
                } else {
                    -v
                }
            })
            .sum()
    }

    fn uses_mobility(&self) -> bool {
        false
    }

    fn correction_key(&self, pos: &CheopsPosition) -> Option<u64> {
        // The Pawns: the structure the evaluation misjudges the same way move after move.
        self.search_aids.then(|| pos.pawn_key())
    }

    fn singular_depth(&self) -> Option<i32> {
        self.search_aids.then_some(6)
    }

    fn aspiration_window(&self) -> Option<i32> {
        self.search_aids.then_some(30)
    }

    fn idle_moves(
        &self,
        root: &CheopsPosition,
        earlier: &[(CheopsPosition, CheopsMove)],
        moves: &[CheopsMove],
    ) -> Vec<(CheopsMove, i32)> {
        // A plain step (no promotion) as from and to squares.
        let step = |m: CheopsMove| {
            (m.kind == TurnKind::Move && m.promotion().is_none()).then(|| (m.from(), m.to()))
        };
        moves
            .iter()
            .filter(|&&m| match m.kind {
                TurnKind::Inspect => certified(root.turn(), earlier, m.to()),
                TurnKind::Move => {
                    step(m).is_some_and(|sq| super::steps_back(root, earlier, sq, step))
                }
                _ => false,
            })
            .map(|&m| (m, super::IDLE_MARGIN))
            .collect()
    }
}

/// Whether the piece on `s` is a Civilian `me` has already certified: `me` inspected `s`
/// and since then no turn moved a piece from or to `s` and the opponent appointed no one
/// (an appointment may have made it a Deputy). An inspection that found a Deputy makes it
/// known, and a known Deputy is never offered for inspection.
fn certified(me: Color, earlier: &[(CheopsPosition, CheopsMove)], s: Square) -> bool {
    for (pos, mv) in earlier.iter().rev() {
        let mine = pos.turn() == me;
        match mv.kind {
            TurnKind::Inspect if mine && mv.to() == s => return true,
            TurnKind::Inspect => {}
            TurnKind::Appoint if !mine => return false,
            _ if mv.from() == s || mv.to() == s => return false,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_cheops::Style;

    /// Little Cheops' largest board (Imperial, 13x13).
    const MAX: usize = 169;

    /// The evaluation as it was written before the square tables (the reference).
    fn by_scanning(e: &CheopsEval, pos: &CheopsPosition) -> i32 {
        let n = pos.rules().n;
        let len = n * n;
        let mut board = [0u8; MAX];
        pos.letters_into(&mut board);
        // Values by upper-case letter, looked up once per evaluation, not per piece.
        let mut values = [e.default; 26];
        for &(l, v) in e.values.iter().rev() {
            if l.is_ascii_uppercase() {
                values[(l as u8 - b'A') as usize] = v;
            }
        }
        let value = |up: char| {
            if up.is_ascii_uppercase() {
                values[(up as u8 - b'A') as usize]
            } else {
                e.value(up)
            }
        };
        let side_of = |c: u8| usize::from((c as char).is_ascii_lowercase());
        let mut score = [0i32; 2];
        let mut kings = [usize::MAX; 2];
        let centre = (n / 2) as i32;
        for s in 0..len {
            let c = board[s];
            if c == 0 {
                continue;
            }
            let side = side_of(c);
            let up = (c as char).to_ascii_uppercase();
            let (f, r) = ((s % n) as i32, (s / n) as i32);
            score[side] += value(up);
            match up {
                'K' => kings[side] = s,
                'P' => {
                    let steps = if side == 0 { n as i32 - 1 - r } else { r };
                    score[side] += e.pawn_advance[steps.clamp(0, 12) as usize];
                }
                'M' => {
                    // A capture over exactly one screen: the first piece beyond the screen.
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (mut x, mut y) = (f + df, r + dr);
                        let mut screens = 0;
                        while (0..n as i32).contains(&x) && (0..n as i32).contains(&y) {
                            let t = board[(y as usize) * n + x as usize];
                            if t != 0 {
                                if screens == 1 {
                                    let tu = (t as char).to_ascii_uppercase();
                                    if side_of(t) != side && tu != 'C' && tu != 'K' {
                                        score[side] += value(tu) / e.master_threat;
                                    }
                                    break;
                                }
                                screens += 1;
                            }
                            x += df;
                            y += dr;
                        }
                    }
                }
                'N' | 'D' | 'U' | 'B' | 'O' | 'A' => {
                    let dist = (f - centre).abs().max((r - centre).abs());
                    score[side] += e.centre * (centre - dist);
                }
                _ => {}
            }
            // The riders of the shipped table by their letters: Tower and Master along
            // files and ranks, Minister and Prime Minister along diagonals, Queen both.
            const STRAIGHT: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
            let lines: &[(i32, i32)] = match up {
                'T' | 'M' => &STRAIGHT,
                'I' | 'E' => &DIAGONAL,
                'Q' => &[STRAIGHT, DIAGONAL].concat(),
                _ => &[],
            };
            for &(df, dr) in lines {
                let (mut x, mut y) = (f + df, r + dr);
                while (0..n as i32).contains(&x)
                    && (0..n as i32).contains(&y)
                    && board[(y as usize) * n + x as usize] == 0
                {
                    score[side] += e.rider_mobility;
                    x += df;
                    y += dr;
                }
            }
        }
        for castle in pos.castles() {
            if castle.active {
                score[castle.owner.index()] += e.castle;
            }
        }
        for side in 0..2 {
            let k = kings[side];
            if k == usize::MAX {
                continue;
            }
            let (kf, kr) = ((k % n) as i32, (k / n) as i32);
            let mut shelter = 0;
            let mut danger = 0;
            for dr in -2..=2i32 {
                for df in -2..=2i32 {
                    let (x, y) = (kf + df, kr + dr);
                    if (df, dr) == (0, 0)
                        || !(0..n as i32).contains(&x)
                        || !(0..n as i32).contains(&y)
                    {
                        continue;
                    }
                    let t = board[(y as usize) * n + x as usize];
                    if t == 0 {
                        continue;
                    }
                    let tu = (t as char).to_ascii_uppercase();
                    if side_of(t) == side {
                        if df.abs() <= 1 && dr.abs() <= 1 {
                            shelter += 1;
                        }
                    } else if tu != 'C' && tu != 'P' {
                        danger += 1;
                    }
                }
            }
            score[side] += e.shelter * shelter.min(4) - e.king_danger * danger;
        }
        score[0] - score[1]
    }

    /// The tables give the evaluation of scanning the board, over random games of both
    /// styles (the mop-up, newer than the scanning code, is left out of the comparison and
    /// tested on its own).
    #[test]
    fn tables_agree_with_scanning_the_board() {
        let e = CheopsEval {
            mop_up_lead: i32::MAX,
            ..CheopsEval::default()
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut compared = 0;
        for style in [Style::Common, Style::Imperial] {
            for _ in 0..20 {
                let mut pos = CheopsPosition::start(style);
                for _ in 0..120 {
                    assert_eq!(e.white_score(&pos), by_scanning(&e, &pos), "{}", pos.fen());
                    compared += 1;
                    let moves = pos.moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
                }
            }
        }
        assert!(compared > 2000, "{compared}");
    }

    /// The riders' room read off the lines' bits is the room found by walking the piece
    /// table's legs square by square, for every rider and Master of random games of both
    /// styles; every riding piece of the shipped table follows whole lines; a table whose
    /// Tower rides a Knight's leaps (no such line) is counted by walking its legs.
    #[test]
    fn the_lines_reach_what_the_legs_reach() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut compared = 0;
        for style in [Style::Common, Style::Imperial] {
            for _ in 0..10 {
                let mut pos = CheopsPosition::start(style);
                let geo = Tables::of(pos.rules().n);
                for _ in 0..120 {
                    let cells = pos.cells();
                    for s in 0..pos.rules().n * pos.rules().n {
                        let code = cells[s] & 31;
                        let letter = pos.rules().cell_letters[usize::from(code)] & !32;
                        if !matches!(letter, b'T' | b'M' | b'I' | b'E' | b'Q') {
                            continue;
                        }
                        let lines = lines_of_legs(&pos, geo, code, s);
                        assert_ne!(lines, LINES_BY_LEGS, "{} on {s}", char::from(letter));
                        assert_eq!(
                            geo.reach(s, lines, pos.occupied()),
                            rider_reach(&pos, cells, s),
                            "{} on {s} in {}",
                            char::from(letter),
                            pos.fen()
                        );
                        compared += 1;
                    }
                    let moves = pos.moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
        let text = menagerie_cheops::pieces::DEFAULT_PIECES
            .replace("tower           T  T   R ", "tower           T  T   NN");
        let table = menagerie_cheops::pieces::load_pieces(&text).unwrap();
        // A White Pawn on e6 stops the Tower's line up, not the Nightrider's leaps.
        let fen = "k8/9/9/4P4/4T4/9/9/9/8K w 0 1";
        let pos =
            CheopsPosition::from_fen_with_pieces(Style::Common, fen, &table, &Default::default())
                .unwrap();
        let tower = pos.cells()[40];
        assert_eq!(
            pos.rules().cell_letters[usize::from(tower & 31)],
            b'T',
            "e5 holds the Tower"
        );
        let geo = Tables::of(9);
        assert_eq!(lines_of_legs(&pos, geo, tower, 40), LINES_BY_LEGS);
        // Two leaps along each of its 8 lines from the centre.
        assert_eq!(rider_reach(&pos, pos.cells(), 40), 16);
        let shipped = CheopsPosition::from_fen(Style::Common, fen).unwrap();
        let lines = lines_of_legs(&shipped, geo, tower, 40);
        assert_eq!(lines, 0b1111);
        // Four squares right, left and down; none up.
        assert_eq!(geo.reach(40, lines, shipped.occupied()), 12);
        // The evaluation counts each table's own room, whichever it evaluated before: the
        // two tables share their letters, and their tables of lines must not be mixed up.
        let e = CheopsEval::default();
        let room = 4 * e.rider_mobility;
        for _ in 0..2 {
            let (tower, nightrider) = (e.white_score(&shipped), e.white_score(&pos));
            assert_eq!(nightrider - tower, room);
            let (nightrider, tower) = (e.white_score(&pos), e.white_score(&shipped));
            assert_eq!(nightrider - tower, room);
        }
    }

    /// The move hints read the letters by cell code: the same as through `piece_char`, the
    /// way they were computed before, for every legal move of random games of both styles,
    /// with the default weights and with changed ones (a changed weight counts at once).
    #[test]
    fn move_hints_as_by_piece_letters() {
        let by_letters = |e: &CheopsEval, pos: &CheopsPosition, mv: CheopsMove| {
            let at = |s: Square| pos.piece_char(s).map_or(0, |c| e.value(c));
            match mv.kind {
                TurnKind::Move => {
                    let promo = if mv.promotion().is_some() {
                        e.value('Q') - e.value('P')
                    } else {
                        0
                    };
                    16 * at(mv.to()) + promo - at(mv.from()) / 16
                }
                TurnKind::HallPromotion => e.value('Q'),
                TurnKind::Hop => 16 * e.value('P'),
                _ => 0,
            }
        };
        let mut changed = CheopsEval::default();
        changed.values[1] = ('Q', 1000);
        changed.values[3] = ('X', 5);
        changed.default = 17;
        let mut seed = 0x5851_f42d_4c95_7f2du64;
        let (mut compared, mut captures) = (0, 0);
        for style in [Style::Common, Style::Imperial] {
            for _ in 0..6 {
                let mut pos = CheopsPosition::start(style);
                for _ in 0..100 {
                    let moves = pos.moves();
                    if moves.is_empty() {
                        break;
                    }
                    for e in [&CheopsEval::default(), &changed] {
                        for &mv in &moves {
                            assert_eq!(e.move_hint(&pos, mv), by_letters(e, &pos, mv));
                            compared += 1;
                            captures += usize::from(pos.is_noisy(mv));
                        }
                    }
                    pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
                }
            }
        }
        assert!(compared > 20_000 && captures > 500, "{compared} {captures}");
        // The Minister's entry replaced: an 'I' now has the default value.
        let p = CheopsPosition::from_fen(Style::Common, "4k4/9/9/9/9/9/9/9/2I1K4 w 0 1").unwrap();
        let mv = p
            .moves()
            .into_iter()
            .find(|m| m.from() == Square(2))
            .unwrap();
        assert_eq!(changed.move_hint(&p, mv), -17 / 16);
        assert_eq!(CheopsEval::default().move_hint(&p, mv), -330 / 16);
    }

    /// A score does not depend on the board evaluated before it (the sums are carried from
    /// it, `LastBoard`): positions of random games of both styles, evaluated in a shuffled
    /// order, styles mixed, score as the scanning code says.
    #[test]
    fn scores_do_not_depend_on_the_board_before() {
        let e = CheopsEval {
            mop_up_lead: i32::MAX,
            ..CheopsEval::default()
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut positions = Vec::new();
        for style in [Style::Common, Style::Imperial] {
            for _ in 0..6 {
                let mut pos = CheopsPosition::start(style);
                for _ in 0..100 {
                    positions.push(pos.clone());
                    let moves = pos.moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[(next() % moves.len() as u64) as usize]);
                }
            }
        }
        for i in (1..positions.len()).rev() {
            positions.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        for pos in &positions {
            assert_eq!(e.white_score(pos), by_scanning(&e, pos), "{}", pos.fen());
        }
        assert_eq!(positions.len(), 1200);
    }

    /// The prepared tables follow the public weights: a weight changed between two calls
    /// on the same evaluation counts at once, and the old tables serve the old weights.
    #[test]
    fn changed_weights_count_at_once() {
        let fen = "4k4/9/9/9/9/9/9/9/3QK4 w 0 1";
        let p = CheopsPosition::from_fen(Style::Common, fen).unwrap();
        // Without the mop-up, whose weight the Queen's value scales.
        let mut e = CheopsEval {
            mop_up_lead: i32::MAX,
            ..CheopsEval::default()
        };
        let before = e.white_score(&p);
        assert_eq!(e.values[1], ('Q', 900));
        e.values[1] = ('Q', 1000);
        assert_eq!(e.white_score(&p), before + 100);
        e.values[1] = ('Q', 900);
        assert_eq!(e.white_score(&p), before);
        // A Knight on the centre square against one in the corner: 4 steps of centre.
        let centre = CheopsPosition::from_fen(Style::Common, "4k4/9/9/9/4N4/9/9/9/4K4 w 0 1");
        let corner = CheopsPosition::from_fen(Style::Common, "4k4/9/9/9/9/9/9/9/N3K4 w 0 1");
        let (centre, corner) = (centre.unwrap(), corner.unwrap());
        let gap = e.white_score(&centre) - e.white_score(&corner);
        e.centre += 5;
        assert_eq!(e.white_score(&centre) - e.white_score(&corner), gap + 4 * 5);
    }

    #[test]
    fn starts_are_balanced() {
        let e = CheopsEval::default();
        for style in [Style::Common, Style::Imperial] {
            let start = CheopsPosition::start(style);
            assert_eq!(e.white_score(&start), 0, "{style:?}");
            assert_eq!(e.material(&start), 0);
        }
        assert_eq!(e.value('c'), 0);
        assert!(e.value('Q') > e.value('T'));
    }

    /// With a Queen and a Tower against a bare King, the lone King in a corner and the
    /// Kings close score better for the leader than the lone King in the centre, by exactly
    /// the mop-up terms, scaled with the lead; with equal material nothing is added.
    #[test]
    fn a_clear_lead_drives_the_lone_king_to_the_edge() {
        let e = CheopsEval::default();
        let none = CheopsEval {
            mop_up: 0,
            mop_up_pawn: 0,
            ..CheopsEval::default()
        };
        let at = |e: &CheopsEval, fen: &str| {
            let p = CheopsPosition::from_fen(Style::Common, fen)
                .unwrap_or_else(|err| panic!("{fen}: {err:?}"));
            e.white_score(&p)
        };
        let (centre, corner) = (
            "9/9/9/9/4k4/9/9/9/TQ2K4 w 0 1",
            "8k/9/9/9/9/9/9/9/TQ2K4 w 0 1",
        );
        // A lead of 1400 (Queen and Tower): 1400/400 = 3.5 times the weight (224/64).
        // Centre: edge 0, Kings 4 apart (8 - 4); corner: edge 4, Kings 8 apart (8 - 8 = 0).
        assert_eq!(at(&e, centre) - at(&none, centre), 6 * 4 * 224 / 64);
        assert_eq!(at(&e, corner) - at(&none, corner), 6 * 2 * 4 * 224 / 64);
        assert_eq!(6 * 4 * 224 / 64, 84);
        // A lead of 500 (a Tower): 80/64 of the weight; of 2600 or more: four times.
        let tower = "8k/9/9/9/9/9/9/9/T3K4 w 0 1";
        assert_eq!(at(&e, tower) - at(&none, tower), 6 * 8 * 80 / 64);
        let queens = "8k/9/9/9/9/9/9/9/1QQQK4 w 0 1";
        assert_eq!(at(&e, queens) - at(&none, queens), 6 * 8 * 4);
        let even = "4k4/4q4/9/9/9/9/9/4Q4/4K4 w 0 1";
        assert_eq!(at(&e, even), at(&none, even));
        // Below the lead, nothing: a Minister (330) ahead.
        let minister = "8k/9/9/9/9/9/9/9/2I1K4 w 0 1";
        assert_eq!(at(&e, minister), at(&none, minister));
    }

    /// Far ahead, the leader's Pawns gain `mop_up_pawn` per rank advanced, and the lone
    /// King's Civilians give it no shelter; the side behind's Pawns gain nothing more.
    #[test]
    fn far_ahead_pawns_walk_on_and_civilians_shelter_no_lone_king() {
        // Without the riders' mobility, which a Pawn's step or a Civilian also changes
        // (the Tower's file opens, the Queen's diagonal closes).
        let e = CheopsEval {
            rider_mobility: 0,
            ..CheopsEval::default()
        };
        let at = |fen: &str| {
            let p = CheopsPosition::from_fen(Style::Common, fen).unwrap();
            e.white_score(&p)
        };
        // The same but a White Pawn on the third rank (index 2) against the second (1).
        let back = at("8k/9/9/9/9/9/9/P8/TQ2K4 w 0 1");
        let on = at("8k/9/9/9/9/9/P8/9/TQ2K4 w 0 1");
        let table = e.pawn_advance[6] - e.pawn_advance[7];
        assert_eq!(on - back, table + e.mop_up_pawn);
        // A Black Pawn (the side behind) steps on for its table only (a lead of 1300).
        let b_back = at("8k/8p/9/9/9/9/9/9/TQ2K4 w 0 1");
        let b_on = at("8k/9/8p/9/9/9/9/9/TQ2K4 w 0 1");
        assert_eq!(b_back - b_on, e.pawn_advance[6] - e.pawn_advance[7]);
        // Two Civilians next to the lone King: no shelter (Civilians count nothing);
        // with equal material they shelter it.
        let bare = at("8k/9/9/9/9/9/9/9/TQ2K4 w 0 1");
        let walled = at("7ck/8c/9/9/9/9/9/9/TQ2K4 w 0 1");
        assert_eq!(walled, bare);
        assert_eq!(
            at("7ck/8c/9/9/9/9/9/9/4K4 w 0 1") - at("8k/9/9/9/9/9/9/9/4K4 w 0 1"),
            -2 * e.shelter
        );
    }

    /// The same position with the colours exchanged (ranks mirrored, letters' case swapped,
    /// the other side to move) scores the same for the side to move: over positions of
    /// random games of both styles, where captures leave one side far ahead.
    #[test]
    fn the_evaluation_is_symmetric() {
        let e = CheopsEval::default();
        let mirror = |fen: &str| -> String {
            let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
            let ranks: Vec<String> = fields[0]
                .split('/')
                .rev()
                .map(|r| {
                    r.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect();
            fields[0] = ranks.join("/");
            fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
            fields.join(" ")
        };
        let mut seed = 0x0bad_5eed_1234_5678u64;
        let (mut compared, mut far_ahead) = (0, 0);
        for style in [Style::Common, Style::Imperial] {
            for _ in 0..30 {
                let mut pos = CheopsPosition::start(style);
                for _ in 0..150 {
                    let fen = pos.fen();
                    // Only boards whose other fields the mirror leaves true (no Castle,
                    // no Deputy, nothing but the clocks).
                    let plain = fen
                        .split(' ')
                        .skip(2)
                        .all(|f| f == "-" || f.parse::<u32>().is_ok());
                    if plain {
                        let m = CheopsPosition::from_fen(style, &mirror(&fen)).unwrap();
                        let mobility = Mobility {
                            own: 0,
                            other: None,
                        };
                        assert_eq!(
                            e.evaluate(&pos, mobility),
                            e.evaluate(&m, mobility),
                            "{fen}"
                        );
                        assert_eq!(e.white_score(&pos), -e.white_score(&m), "{fen}");
                        compared += 1;
                        far_ahead += usize::from(e.material(&pos).abs() >= e.mop_up_lead);
                    }
                    let moves = pos.moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
                }
            }
        }
        assert!(compared > 1000 && far_ahead > 200, "{compared} {far_ahead}");
    }

    /// The fifty-round count scales the score down: by a third at the challenge's hundred
    /// turns, not at all after a Pawn move, capture or arrest.
    #[test]
    fn the_fifty_round_count_takes_from_the_lead() {
        let e = CheopsEval::default();
        let fen = |count: u32| format!("8k/9/9/9/9/9/9/9/TQ2K4 w {count} 60");
        let score = |count: u32| {
            let p = CheopsPosition::from_fen(Style::Common, &fen(count)).unwrap();
            e.evaluate(
                &p,
                Mobility {
                    own: 0,
                    other: None,
                },
            ) - 10
        };
        let full = {
            let p = CheopsPosition::from_fen(Style::Common, &fen(0)).unwrap();
            e.white_score(&p)
        };
        assert_eq!(score(0), full);
        assert_eq!(score(30), full * 270 / 300);
        assert_eq!(score(100), full * 200 / 300);
        assert_eq!(score(150), full * 200 / 300);
    }
}
