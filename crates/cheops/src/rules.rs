//! The rules compiled for one style and one piece table: board size, piece components
//! oriented for each side, and square tables. Shared by every position of a game.

use crate::pieces::{class, default_pieces, PieceTable, ROLE_COUNT};
use menagerie_core::betza::Mode;
use menagerie_core::{BitBoard, Color, Geometry, Wide};
use std::sync::{Arc, OnceLock};

/// A set of squares; 169 squares need three words.
pub type Bits = Wide<3>;

/// The style of play.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Style {
    /// 9x9, no Castles, no Deputies.
    Common,
    /// 13x13 with Castles and Deputies.
    Imperial,
}

impl Style {
    /// Files (and ranks) of the board.
    pub const fn size(self) -> usize {
        match self {
            Style::Common => 9,
            Style::Imperial => 13,
        }
    }
    /// The style whose variant id is `id` (any case).
    pub fn from_id(id: &str) -> Option<Style> {
        [Style::Common, Style::Imperial]
            .into_iter()
            .find(|s| s.id().eq_ignore_ascii_case(id))
    }
    /// The variant id.
    pub const fn id(self) -> &'static str {
        match self {
            Style::Common => "little-cheops",
            Style::Imperial => "little-cheops-imperial",
        }
    }
}

/// One Betza component, oriented for one side.
#[derive(Clone, Debug)]
pub struct Comp {
    /// Offsets (dx, dy) as this side sees the board from White's seat.
    pub offsets: Vec<(i8, i8)>,
    /// Repeats its offset along a line.
    pub rider: bool,
    /// Moves and captures over exactly one screen (`p`).
    pub hopper: bool,
    /// May end on an empty square.
    pub moves: bool,
    /// May capture.
    pub captures: bool,
    /// A leap of `D`, `N` or `A`: passes over its whole rectangle (R9).
    pub rect: bool,
    /// Every offset is one step (at most one file and one rank): then only the offset
    /// `(sign dx, sign dy)` can reach a square `(dx, dy)` away.
    pub all_unit: bool,
    /// Bit `(oy + 1) * 3 + ox + 1` set for each one-step offset `(ox, oy)`.
    pub unit_dirs: u16,
}

/// One offset of one Betza component from one square, with the squares it reaches in order
/// (one for a leaper, the whole ray to the edge for a rider): move generation walks these
/// instead of computing and bounds-checking each square.
#[derive(Clone, Copy, Debug)]
pub struct Leg {
    /// Where the squares start in [`Rules::leg_squares`].
    pub start: u32,
    /// How many squares.
    pub len: u8,
    /// The component's flags (`LEG_*`).
    pub flags: u8,
    /// The first square (a leaper's only one): read without the slice (it fits the
    /// struct's padding).
    pub first: u8,
}

/// [`Leg::flags`]: the component repeats its offset.
pub const LEG_RIDER: u8 = 1;
/// [`Leg::flags`]: the component moves and captures over exactly one screen.
pub const LEG_HOPPER: u8 = 2;
/// [`Leg::flags`]: the component may end on an empty square.
pub const LEG_MOVES: u8 = 4;
/// [`Leg::flags`]: the component may capture.
pub const LEG_CAPTURES: u8 = 8;
/// [`Leg::flags`]: a leap of `D`, `N` or `A` (passes over its rectangle).
pub const LEG_RECT: u8 = 16;

/// The rule options this crate reads (defaults first).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Settings {
    /// R9 option: a leap is stopped only by landing in a Castle.
    pub leap_landing_only: bool,
    /// R36 option: repetition draws at the fourth occurrence.
    pub fourth_repetition: bool,
    /// R38 option: the challenge count in turns (100 = fifty rounds).
    pub challenge_turns: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            leap_landing_only: false,
            fourth_repetition: false,
            challenge_turns: 100,
        }
    }
}

/// Everything that does not change during a game.
#[derive(Debug)]
pub struct Rules {
    /// Common or Imperial.
    pub style: Style,
    /// Files = ranks.
    pub n: usize,
    /// The board.
    pub geometry: Geometry,
    /// The piece table.
    pub table: PieceTable,
    /// Components per role and side.
    pub comps: Vec<[Vec<Comp>; 2]>,
    /// Class flags per role.
    pub classes: [u16; ROLE_COUNT],
    /// File of each square.
    pub file: Vec<i8>,
    /// Rank of each square.
    pub rank: Vec<i8>,
    /// The 3x3 block around each square (empty on the edge).
    pub block: Vec<Bits>,
    /// The promotion choices, in table order.
    pub promotions: Vec<usize>,
    /// Whether the Deputy moves exactly as a Civilian (then a step never compromises it).
    pub deputy_steps_like_civilian: bool,
    /// The rule options in force.
    pub settings: Settings,
    /// Roles whose components can reach one square two ways (their moves need de-duplicating).
    pub overlap: [bool; ROLE_COUNT],
    /// `reach[color][role * len + t]`: the squares from which a piece of `role` and `color`
    /// could capture on `t` on some board (every capturing component, blockers ignored).
    pub reach: [Vec<Bits>; 2],
    /// `lines[color][t]`: the union of `reach` over the roles. A rider's path to `t` lies on
    /// its ray from `t`, so these are every square whose occupant can change whether `color`
    /// attacks `t` while the Castles stay as they are (fast legality, `attack_and_check.rs`).
    pub lines: [Vec<Bits>; 2],
    /// The board letter of each board cell value (0 for empty).
    pub cell_letters: [u8; 32],
    /// For each square `s`, the foundations (3x3 blocks whose chair may hold a Castle) with
    /// a corner on `s`: their other three corners, the first `foundation_count[s]` entries.
    pub foundations: Vec<[Bits; 4]>,
    /// How many of `foundations[s]` are in use.
    pub foundation_count: Vec<u8>,
    /// The union of `foundations[s]`: with fewer than three of a side's pieces on it, a
    /// piece of that side landing on `s` completes no foundation.
    pub foundation_union: Vec<Bits>,
    /// `leg_index[color][role * len + s]`: the range of `legs[color]` of a piece of `role`
    /// and `color` on `s`, in the order of its components and their offsets.
    pub leg_index: [Vec<(u32, u32)>; 2],
    /// The legs of every role, side and square (see `leg_index`).
    pub legs: [Vec<Leg>; 2],
    /// The squares of every leg.
    pub leg_squares: Vec<u8>,
    /// `capture_ride_index[color][role * len + s]`: the range of `capture_rides[color]`
    /// holding that piece's riding legs that capture, in `legs`' order (quiescence walks
    /// only these when no step can be noisy).
    pub capture_ride_index: [Vec<(u32, u32)>; 2],
    /// The capturing riding legs of every role, side and square (see `capture_ride_index`).
    pub capture_rides: [Vec<Leg>; 2],
    /// `step_targets[color][role * len + s]`: every square a non-riding leg of that piece
    /// reaches from `s` (moving or capturing), so quiescence can skip a piece's steps
    /// when none can capture or promote.
    pub step_targets: [Vec<Bits>; 2],
    /// Whether any component of a role rides (then its legs are walked anyway).
    pub rides: [bool; ROLE_COUNT],
    /// The squares of each colour's last rank (where its Pawns promote).
    pub last_rank_squares: [Bits; 2],
    /// Bit `code` set for the board cell codes whose piece can make a noisy move only by
    /// capturing a piece next to it (no riding, hopping or promoting, every capturing leg a
    /// single step of at most one file and rank; never a Civilian, who may be a Deputy):
    /// quiescence passes over such a piece when no enemy piece stands next to it.
    pub adjacent_captures_only: u32,
    /// Bit `code` set for the board cell codes of promoting pieces every leg of which,
    /// moving or capturing, is a single step of at most one file and rank (no riding or
    /// hopping; never a Civilian): such a piece (the built-in Pawn) can make a noisy move
    /// only by capturing next to itself or by stepping onto its last rank, so quiescence
    /// passes over it when no enemy piece stands next to it and it stands off
    /// [`Self::promotion_approach`].
    pub adjacent_promoters: u32,
    /// The squares on or next to each colour's last rank.
    pub promotion_approach: [Bits; 2],
    /// The squares off the first file, and off the last file.
    pub not_edge_files: [Bits; 2],
    /// Per role, [`RAY_CAPTURES`] and [`HOP_CAPTURES`]: whether some component captures
    /// riding, or hopping (what can give a discovered check).
    pub ray_captures: [u8; ROLE_COUNT],
    /// `rider_between[color][t]`: every square strictly between `t` and a square from which
    /// a capturing rider of `color` (any role) could reach `t` along its line: the squares
    /// whose emptying can open a line onto `t` (blockers ignored).
    pub rider_between: [Vec<Bits>; 2],
    /// [`Self::rider_between`] for the capturing hoppers only: the squares whose filling
    /// can give one its screen.
    pub hopper_between: [Vec<Bits>; 2],
    /// `unit_rays[s][(dy + 1) * 3 + dx + 1]`: the squares from `s` (excluded) to the edge
    /// in the one-step direction `(dx, dy)` (the middle entry empty): the squares strictly
    /// between `s` and `t` on such a line are `unit_rays[s][d] ^ unit_rays[t][d]` without
    /// `t`, so an attack along it is read from the occupancy bits.
    pub unit_rays: Vec<[Bits; 9]>,
    /// Bit `role + 1` set for the roles that are Rooks or pillars (what can complete a
    /// Castle's foundation).
    pub castle_builders: u32,
}

/// [`Rules::ray_captures`]: a component captures riding (a hopper's included).
pub const RAY_CAPTURES: u8 = 1;
/// [`Rules::ray_captures`]: a component captures hopping over a screen.
pub const HOP_CAPTURES: u8 = 2;

impl Rules {
    /// Compiles `table` for `style`.
    pub fn new(style: Style, table: PieceTable, settings: Settings) -> Self {
        let n = style.size();
        let geometry = Geometry::rectangle(n as u8, n as u8);
        let mut comps = Vec::with_capacity(ROLE_COUNT);
        let mut classes = [0u16; ROLE_COUNT];
        for def in table.defs() {
            classes[def.role] = def.classes;
            let side = |color: Color| -> Vec<Comp> {
                def.moves
                    .components
                    .iter()
                    .map(|c| {
                        let offsets: Vec<(i8, i8)> =
                            c.offsets_for(color).iter().map(|o| (o.dx, o.dy)).collect();
                        let unit =
                            |&(x, y): &(i8, i8)| x.abs() <= 1 && y.abs() <= 1 && (x, y) != (0, 0);
                        let unit_dirs = offsets
                            .iter()
                            .filter(|o| unit(o))
                            .fold(0u16, |m, &(x, y)| m | 1 << ((y + 1) * 3 + x + 1));
                        let all_unit = !offsets.is_empty() && offsets.iter().all(unit);
                        Comp {
                            offsets,
                            all_unit,
                            unit_dirs,
                            rider: c.rider,
                            hopper: c.hopper,
                            moves: c.mode != Mode::CaptureOnly,
                            captures: c.mode != Mode::MoveOnly,
                            rect: matches!(c.atom, 'D' | 'N' | 'A'),
                        }
                    })
                    .collect()
            };
            comps.push([side(Color::White), side(Color::Black)]);
        }
        let len = n * n;
        let file: Vec<i8> = (0..len).map(|s| (s % n) as i8).collect();
        let rank: Vec<i8> = (0..len).map(|s| (s / n) as i8).collect();
        let block = (0..len)
            .map(|s| {
                let (f, r) = (file[s] as usize, rank[s] as usize);
                let mut b = Bits::EMPTY;
                if f >= 1 && r >= 1 && f + 1 < n && r + 1 < n {
                    for rr in r - 1..=r + 1 {
                        for ff in f - 1..=f + 1 {
                            b.set(menagerie_core::Square((rr * n + ff) as u16));
                        }
                    }
                }
                b
            })
            .collect();
        let promotions = table.promotion_roles().collect();
        let deputy_steps_like_civilian = table.def(crate::pieces::DEPUTY).moves.text
            == table.def(crate::pieces::CIVILIAN).moves.text;
        let mut overlap = [false; ROLE_COUNT];
        for (role, sides) in comps.iter().enumerate() {
            overlap[role] = components_overlap(&sides[0], n as i32);
        }
        let (reach, lines) = reach_tables(&comps, n);
        let mut foundations = vec![[Bits::EMPTY; 4]; len];
        let mut foundation_count = vec![0u8; len];
        for s in 0..len {
            let (f, r) = (file[s] as i32, rank[s] as i32);
            for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                let (cf, cr) = (f + dx, r + dy);
                // A chair off the edge has no block (`block` is empty there).
                if cf < 1 || cr < 1 || cf + 1 >= n as i32 || cr + 1 >= n as i32 {
                    continue;
                }
                let chair = (cr * n as i32 + cf) as usize;
                let mut mates = Bits::EMPTY;
                for q in [chair - n - 1, chair - n + 1, chair + n - 1, chair + n + 1] {
                    if q != s {
                        mates.set(menagerie_core::Square(q as u16));
                    }
                }
                foundations[s][foundation_count[s] as usize] = mates;
                foundation_count[s] += 1;
            }
        }
        let mut rides = [false; ROLE_COUNT];
        for (role, sides) in comps.iter().enumerate() {
            rides[role] = sides.iter().flatten().any(|c| c.rider);
        }
        let mut ray_captures = [0u8; ROLE_COUNT];
        for (role, sides) in comps.iter().enumerate() {
            for c in sides.iter().flatten().filter(|c| c.captures && c.rider) {
                ray_captures[role] |= RAY_CAPTURES | if c.hopper { HOP_CAPTURES } else { 0 };
            }
        }
        let (rider_between, hopper_between) = between_tables(&comps, n);
        let mut last_rank_squares = [Bits::EMPTY; 2];
        for (s, &rk) in rank.iter().enumerate() {
            if rk == n as i8 - 1 {
                last_rank_squares[0].set(menagerie_core::Square(s as u16));
            }
            if rk == 0 {
                last_rank_squares[1].set(menagerie_core::Square(s as u16));
            }
        }
        let mut step_targets = [Vec::new(), Vec::new()];
        let mut leg_index = [Vec::new(), Vec::new()];
        let mut legs = [Vec::new(), Vec::new()];
        let mut leg_squares = Vec::new();
        let mut capture_ride_index = [Vec::new(), Vec::new()];
        let mut capture_rides = [Vec::new(), Vec::new()];
        for color in 0..2 {
            for sides in &comps {
                for s in 0..len {
                    let first = legs[color].len() as u32;
                    let (f, r) = (file[s] as i32, rank[s] as i32);
                    for comp in &sides[color] {
                        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
                        let flags = flag(comp.rider, LEG_RIDER)
                            | flag(comp.hopper, LEG_HOPPER)
                            | flag(comp.moves, LEG_MOVES)
                            | flag(comp.captures, LEG_CAPTURES)
                            | flag(comp.rect, LEG_RECT);
                        for &(ox, oy) in &comp.offsets {
                            let (ox, oy) = (ox as i32, oy as i32);
                            let start = leg_squares.len() as u32;
                            // A null offset reaches nothing (and would never end a ride).
                            let mut k = i32::from(ox != 0 || oy != 0);
                            while k > 0 {
                                let (x, y) = (f + k * ox, r + k * oy);
                                if x < 0 || y < 0 || x >= n as i32 || y >= n as i32 {
                                    break;
                                }
                                leg_squares.push((y * n as i32 + x) as u8);
                                k = if comp.rider { k + 1 } else { 0 };
                            }
                            let count = leg_squares.len() as u32 - start;
                            if count > 0 {
                                legs[color].push(Leg {
                                    start,
                                    len: count as u8,
                                    flags,
                                    first: leg_squares[start as usize],
                                });
                            }
                        }
                    }
                    leg_index[color].push((first, legs[color].len() as u32));
                    let rides_first = capture_rides[color].len() as u32;
                    for leg in &legs[color][first as usize..] {
                        let both = LEG_RIDER | LEG_CAPTURES;
                        if leg.flags & both == both {
                            capture_rides[color].push(*leg);
                        }
                    }
                    capture_ride_index[color]
                        .push((rides_first, capture_rides[color].len() as u32));
                    let mut steps = Bits::EMPTY;
                    for leg in &legs[color][first as usize..] {
                        if leg.flags & LEG_RIDER == 0 {
                            let t = leg_squares[leg.start as usize];
                            steps.set(menagerie_core::Square(u16::from(t)));
                        }
                    }
                    step_targets[color].push(steps);
                }
            }
        }
        // A component that moves (or captures) only one step, never riding or hopping.
        let one_step = |c: &Comp| {
            !c.rider
                && !c.hopper
                && c.offsets
                    .iter()
                    .all(|&(dx, dy)| dx.abs() <= 1 && dy.abs() <= 1)
        };
        // The cell codes (role and colour) of the non-Civilian roles whose components pass
        // `keep`, for the roles whose classes pass `class_ok`.
        let cell_mask = |class_ok: &dyn Fn(u16) -> bool, keep: &dyn Fn(&[Comp]) -> bool| {
            let mut mask = 0u32;
            for (role, sides) in comps.iter().enumerate() {
                for color in [Color::White, Color::Black] {
                    if role != crate::pieces::CIVILIAN
                        && class_ok(classes[role])
                        && keep(&sides[color.index()])
                    {
                        mask |= 1 << ((role + 1) | (color.index() << 4));
                    }
                }
            }
            mask
        };
        let adjacent_captures_only =
            cell_mask(&|c| c & (class::HOP | class::PROMOTES) == 0, &|cs| {
                cs.iter().filter(|c| c.captures).all(one_step)
            });
        let adjacent_promoters = cell_mask(
            &|c| c & class::HOP == 0 && c & class::PROMOTES != 0,
            &|cs| cs.iter().all(one_step),
        );
        let mut not_edge_files = [Bits::EMPTY; 2];
        for (s, &f) in file.iter().enumerate() {
            let square = menagerie_core::Square(s as u16);
            if f != 0 {
                not_edge_files[0].set(square);
            }
            if f != n as i8 - 1 {
                not_edge_files[1].set(square);
            }
        }
        let mut promotion_approach = [Bits::EMPTY; 2];
        for (s, &rk) in rank.iter().enumerate() {
            let square = menagerie_core::Square(s as u16);
            if rk >= n as i8 - 2 {
                promotion_approach[0].set(square);
            }
            if rk <= 1 {
                promotion_approach[1].set(square);
            }
        }
        let unit_rays = (0..len)
            .map(|s| {
                let mut rays = [Bits::EMPTY; 9];
                for (d, ray) in rays.iter_mut().enumerate() {
                    let (dx, dy) = (d as i32 % 3 - 1, d as i32 / 3 - 1);
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    let (mut f, mut r) = (file[s] as i32 + dx, rank[s] as i32 + dy);
                    while f >= 0 && r >= 0 && f < n as i32 && r < n as i32 {
                        ray.set(menagerie_core::Square((r * n as i32 + f) as u16));
                        f += dx;
                        r += dy;
                    }
                }
                rays
            })
            .collect();
        let mut cell_letters = [0u8; 32];
        for def in table.defs() {
            let l = def.letter as u8;
            cell_letters[def.role + 1] = l.to_ascii_uppercase();
            cell_letters[(def.role + 1) | 16] = l.to_ascii_lowercase();
        }
        let castle_builders = (0..ROLE_COUNT)
            .filter(|&role| classes[role] & (class::ROOK | class::PILLAR) != 0)
            .fold(0u32, |m, role| m | 1 << (role + 1));
        let foundation_union = foundations
            .iter()
            .map(|f| f.iter().fold(Bits::EMPTY, |u, &m| u | m))
            .collect();
        Rules {
            foundation_union,
            castle_builders,
            unit_rays,
            leg_index,
            legs,
            leg_squares,
            capture_ride_index,
            capture_rides,
            foundations,
            foundation_count,
            cell_letters,
            reach,
            lines,
            overlap,
            style,
            n,
            geometry,
            table,
            comps,
            classes,
            file,
            rank,
            block,
            promotions,
            deputy_steps_like_civilian,
            settings,
            step_targets,
            rides,
            ray_captures,
            rider_between,
            hopper_between,
            last_rank_squares,
            adjacent_captures_only,
            adjacent_promoters,
            promotion_approach,
            not_edge_files,
        }
    }

    /// The squares next to (a King's step from) some square of `b`, and `b`'s own; past the
    /// last rank, where nothing stands, bits may be set too (not masked: quiescence asks at
    /// every node).
    #[inline(always)]
    pub fn with_neighbours(&self, b: Bits) -> Bits {
        let row = b
            | (shift_up(b, 1) & self.not_edge_files[0])
            | (shift_down(b, 1) & self.not_edge_files[1]);
        row | shift_up(row, self.n as u32) | shift_down(row, self.n as u32)
    }

    /// The legs of a piece of `role` and `color` on `s`.
    #[inline(always)]
    pub fn legs_of(&self, role: usize, color: Color, s: usize) -> &[Leg] {
        let (a, b) = self.leg_index[color.index()][role * self.n * self.n + s];
        &self.legs[color.index()][a as usize..b as usize]
    }

    /// The riding legs that capture of a piece of `role` and `color` on `s`, in
    /// [`Self::legs_of`]' order.
    #[inline(always)]
    pub fn capture_rides_of(&self, role: usize, color: Color, s: usize) -> &[Leg] {
        let (a, b) = self.capture_ride_index[color.index()][role * self.n * self.n + s];
        &self.capture_rides[color.index()][a as usize..b as usize]
    }

    /// The squares of `leg`.
    #[inline(always)]
    pub fn leg_squares(&self, leg: &Leg) -> &[u8] {
        &self.leg_squares[leg.start as usize..leg.start as usize + leg.len as usize]
    }

    /// Whether `role`'s moves need de-duplicating.
    #[inline(always)]
    pub fn needs_dedup(&self, role: usize) -> bool {
        self.overlap[role]
    }

    /// Whether `role` has class `flag`.
    #[inline(always)]
    pub fn is(&self, role: usize, flag: u16) -> bool {
        self.classes[role] & flag != 0
    }

    /// The square `(f, r)` if it is on the board.
    #[inline(always)]
    pub fn sq(&self, f: i32, r: i32) -> Option<usize> {
        let n = self.n as i32;
        (f >= 0 && r >= 0 && f < n && r < n).then_some((r * n + f) as usize)
    }

    /// The square name (`e1`, `m13`).
    pub fn name(&self, sq: usize) -> String {
        format!(
            "{}{}",
            (b'a' + self.file[sq] as u8) as char,
            self.rank[sq] as i32 + 1
        )
    }

    /// The four corners (bastions) of the block whose chair is `chair`, in square order.
    pub fn corners(&self, chair: usize) -> [usize; 4] {
        let n = self.n;
        [chair - n - 1, chair - n + 1, chair + n - 1, chair + n + 1]
    }

    /// The halls (rooms and chair) of the Castle whose chair is `chair`, in square order;
    /// index 2 is the chair.
    pub fn halls(&self, chair: usize) -> [usize; 5] {
        let n = self.n;
        [chair - n, chair - 1, chair, chair + 1, chair + n]
    }

    /// Whether `chair` can be the chair of a Castle (not on the edge).
    pub fn chair_ok(&self, chair: usize) -> bool {
        !self.block[chair].is_empty()
    }

    /// The last rank for `color`'s Pawns.
    #[inline(always)]
    pub fn last_rank(&self, color: Color) -> i8 {
        match color {
            Color::White => self.n as i8 - 1,
            Color::Black => 0,
        }
    }

    /// Whether `role` is a promotion choice.
    pub fn promotable(&self, role: usize) -> bool {
        self.promotions.contains(&role)
    }

    /// Whether a piece of `role` is a Rook for Castle formation.
    pub fn rook(&self, role: usize) -> bool {
        self.is(role, class::ROOK)
    }
}

/// `b` with every square moved `k` (below 64) squares up (higher indices; bits past the
/// third word are dropped).
#[inline(always)]
fn shift_up(b: Bits, k: u32) -> Bits {
    let w = b.0;
    menagerie_core::Wide([
        w[0] << k,
        w[1] << k | w[0] >> (64 - k),
        w[2] << k | w[1] >> (64 - k),
    ])
}

/// `b` with every square moved `k` (1 to 63) squares down (lower indices).
#[inline(always)]
fn shift_down(b: Bits, k: u32) -> Bits {
    let w = b.0;
    menagerie_core::Wide([
        w[0] >> k | w[1] << (64 - k),
        w[1] >> k | w[2] << (64 - k),
        w[2] >> k,
    ])
}

/// A shared reference to the compiled rules a position is played under.
///
/// The built-in piece table compiles once per style and rule options (a fixed, small set:
/// [`default_rules`]), and positions refer to it with a plain reference. A custom table
/// (`--pieces <file>`) is compiled for the game opened with it and shared by counting
/// references, so its memory goes when the last position of that game does: no table is
/// process-wide, and opening any number of custom tables does not grow memory.
#[derive(Clone, Debug)]
pub enum RulesRef {
    /// The built-in pieces, compiled once for the program.
    Builtin(&'static Rules),
    /// A custom piece table, owned by the games opened with it.
    Custom(Arc<Rules>),
}

impl std::ops::Deref for RulesRef {
    type Target = Rules;
    #[inline(always)]
    fn deref(&self) -> &Rules {
        match self {
            RulesRef::Builtin(r) => r,
            RulesRef::Custom(r) => r,
        }
    }
}

impl From<&RulesRef> for RulesRef {
    fn from(r: &RulesRef) -> Self {
        r.clone()
    }
}

impl RulesRef {
    /// Compiles `table` for `style` and `settings`, sharing the built-in compilation when
    /// `table` is the built-in table.
    pub fn new(style: Style, table: &PieceTable, settings: Settings) -> Self {
        if table.source() == crate::pieces::DEFAULT_PIECES {
            if let Some(r) = builtin(style, settings) {
                return RulesRef::Builtin(r);
            }
        }
        RulesRef::Custom(Arc::new(Rules::new(style, table.clone(), settings)))
    }

    /// Whether two references are to the same compiled rules.
    pub fn same(&self, other: &RulesRef) -> bool {
        std::ptr::eq::<Rules>(&**self, &**other)
    }
}

/// The built-in compilations: one per style and per rule options that [`crate::OPTIONS`]
/// can choose (2 styles x 2 x 2 x 2), each made on first use. `None` for settings no option
/// produces (they are compiled per game like a custom table).
fn builtin(style: Style, settings: Settings) -> Option<&'static Rules> {
    static BUILTIN: [OnceLock<Rules>; 16] = [const { OnceLock::new() }; 16];
    let challenge = match settings.challenge_turns {
        100 => 0,
        50 => 1,
        _ => return None,
    };
    let index = (style == Style::Imperial) as usize * 8
        + settings.leap_landing_only as usize * 4
        + settings.fourth_repetition as usize * 2
        + challenge;
    Some(BUILTIN[index].get_or_init(|| Rules::new(style, default_pieces(), settings)))
}

/// The compiled rules for `style`, `table` and `settings` (see [`RulesRef`]).
pub fn rules_for(style: Style, table: &PieceTable, settings: Settings) -> RulesRef {
    RulesRef::new(style, table, settings)
}

/// The compiled rules with the built-in piece table.
pub fn default_rules(style: Style, settings: Settings) -> RulesRef {
    match builtin(style, settings) {
        Some(r) => RulesRef::Builtin(r),
        None => RulesRef::Custom(Arc::new(Rules::new(style, default_pieces(), settings))),
    }
}

/// The `reach` and `lines` tables of [`Rules`] for components `comps` on an `n`x`n` board.
#[allow(clippy::type_complexity)]
fn reach_tables(comps: &[[Vec<Comp>; 2]], n: usize) -> ([Vec<Bits>; 2], [Vec<Bits>; 2]) {
    let len = n * n;
    let ni = n as i32;
    let mut reach = [
        vec![Bits::EMPTY; comps.len() * len],
        vec![Bits::EMPTY; comps.len() * len],
    ];
    let mut lines = [vec![Bits::EMPTY; len], vec![Bits::EMPTY; len]];
    for color in 0..2 {
        for (role, sides) in comps.iter().enumerate() {
            for comp in sides[color].iter().filter(|c| c.captures) {
                for &(ox, oy) in &comp.offsets {
                    let (ox, oy) = (ox as i32, oy as i32);
                    for t in 0..len {
                        let (f, r) = ((t % n) as i32, (t / n) as i32);
                        let mut k = 1;
                        loop {
                            let (sf, sr) = (f - k * ox, r - k * oy);
                            if sf < 0 || sr < 0 || sf >= ni || sr >= ni || (ox, oy) == (0, 0) {
                                break;
                            }
                            let s = menagerie_core::Square((sr * ni + sf) as u16);
                            reach[color][role * len + t].set(s);
                            lines[color][t].set(s);
                            if !comp.rider {
                                break;
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
    }
    (reach, lines)
}

/// Whether two components (or two offsets of one) reach the same displacement on an
/// `n`x`n` board, so that one move could be generated twice.
fn components_overlap(comps: &[Comp], n: i32) -> bool {
    // A move-only and a capture-only component never give the same turn (one ends on an
    // empty square, the other on a piece): the Master's mR and cpR share every offset but
    // repeat nothing.
    let mut seen: Vec<((i32, i32), bool, bool)> = Vec::new();
    for c in comps {
        for &(dx, dy) in &c.offsets {
            let reach = if c.rider { n } else { 1 };
            for k in 1..=reach {
                let d = (dx as i32 * k, dy as i32 * k);
                if d.0.abs() >= n || d.1.abs() >= n {
                    break;
                }
                if seen
                    .iter()
                    .any(|&(e, m, x)| e == d && ((m && c.moves) || (x && c.captures)))
                {
                    return true;
                }
                seen.push((d, c.moves, c.captures));
            }
        }
    }
    false
}

/// [`Rules::rider_between`] and [`Rules::hopper_between`]: for each colour and target `t`,
/// the squares `t - j * o` (`j >= 1`) of every capturing rider offset `o` that have a square
/// `t - (j + 1) * o` beyond them on the board (from where the rider could stand).
fn between_tables(comps: &[[Vec<Comp>; 2]], n: usize) -> ([Vec<Bits>; 2], [Vec<Bits>; 2]) {
    let len = n * n;
    let mut riders = [vec![Bits::EMPTY; len], vec![Bits::EMPTY; len]];
    let mut hoppers = [vec![Bits::EMPTY; len], vec![Bits::EMPTY; len]];
    let on = |x: i32, y: i32| x >= 0 && y >= 0 && x < n as i32 && y < n as i32;
    for color in 0..2 {
        for sides in comps {
            for comp in sides[color].iter().filter(|c| c.captures && c.rider) {
                for &(ox, oy) in &comp.offsets {
                    let (ox, oy) = (i32::from(ox), i32::from(oy));
                    if ox == 0 && oy == 0 {
                        continue;
                    }
                    for t in 0..len {
                        let (f, r) = ((t % n) as i32, (t / n) as i32);
                        let mut j = 1;
                        while on(f - (j + 1) * ox, r - (j + 1) * oy) {
                            let q = menagerie_core::Square(
                                ((r - j * oy) * n as i32 + f - j * ox) as u16,
                            );
                            riders[color][t].set(q);
                            if comp.hopper {
                                hoppers[color][t].set(q);
                            }
                            j += 1;
                        }
                    }
                }
            }
        }
    }
    (riders, hoppers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::Square;

    /// Components overlap (their moves need de-duplicating) only when two of them reach the
    /// same offset and share a mode: a move-only and a capture-only component never give the
    /// same turn (the Master's `mRcpR`), a moving and a capturing one can.
    #[test]
    fn overlap_needs_a_shared_mode() {
        let rook = |moves: bool, captures: bool, hopper: bool| Comp {
            offsets: vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
            rider: true,
            hopper,
            moves,
            captures,
            rect: false,
            all_unit: true,
            unit_dirs: 0b010_101_010,
        };
        let wazir = |moves: bool, captures: bool| Comp {
            rider: false,
            ..rook(moves, captures, false)
        };
        assert!(!components_overlap(
            &[rook(true, false, false), rook(false, true, true)],
            13
        ));
        assert!(components_overlap(
            &[rook(true, true, false), rook(false, true, true)],
            13
        ));
        assert!(components_overlap(
            &[rook(true, false, false), rook(true, true, true)],
            13
        ));
        assert!(components_overlap(
            &[rook(true, false, false), wazir(true, false)],
            9
        ));
        assert!(!components_overlap(
            &[wazir(false, true), rook(true, false, false)],
            9
        ));
        assert!(!components_overlap(&[rook(true, true, false)], 9));
        let rules = default_rules(Style::Imperial, Settings::default());
        let dedup: Vec<usize> = (0..ROLE_COUNT).filter(|&r| rules.needs_dedup(r)).collect();
        assert_eq!(dedup, Vec::<usize>::new());
    }

    /// `with_neighbours` is the square itself and every King step from it, on both board
    /// sizes, at every square (edges and word boundaries included), one square at a time
    /// and for a few squares at once.
    #[test]
    fn neighbours_are_the_king_steps() {
        for style in [Style::Common, Style::Imperial] {
            let r = Rules::new(style, default_pieces(), Settings::default());
            let n = r.n as i32;
            let block = |s: usize| {
                let mut b = Bits::EMPTY;
                let (f, rk) = ((s as i32) % n, (s as i32) / n);
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if let Some(q) = r.sq(f + dx, rk + dy) {
                            b.set(Square(q as u16));
                        }
                    }
                }
                b
            };
            let len = r.n * r.n;
            let board = r.not_edge_files[0] | r.not_edge_files[1];
            for s in 0..len {
                let near = |b: Bits| r.with_neighbours(b) & board;
                assert_eq!(near(Bits::single(Square(s as u16))), block(s));
                let t = (s * 37 + 11) % len;
                let both = Bits::single(Square(s as u16)) | Bits::single(Square(t as u16));
                assert_eq!(near(both), block(s) | block(t));
            }
        }
    }

    /// Which pieces capture only next to themselves: the one-step pieces, not the riders,
    /// the Knight, the Pawn (it promotes) nor the Civilian (who may be a Deputy).
    #[test]
    fn adjacent_captures_only_by_role() {
        use crate::pieces::{CIVILIAN, KING};
        let r = Rules::new(Style::Imperial, default_pieces(), Settings::default());
        let code = |role: usize, color: usize| (role + 1) | (color << 4);
        let local = |role: usize| {
            (0..2).all(|color| r.adjacent_captures_only >> code(role, color) & 1 != 0)
        };
        let none = |role: usize| {
            (0..2).all(|color| r.adjacent_captures_only >> code(role, color) & 1 == 0)
        };
        assert!(local(KING));
        assert!(none(CIVILIAN));
        let mut locals = 0;
        for role in 0..ROLE_COUNT {
            assert!(local(role) || none(role), "role {role}");
            if local(role) {
                locals += 1;
                assert!(!r.rides[role] && !r.is(role, class::PROMOTES | class::HOP));
            }
        }
        // King, Duke, Duchess, Baron, Baroness, Assassin.
        assert_eq!(locals, 6);
    }

    /// Which pieces are one-step promoters: the Pawn alone in the built-in table; the
    /// approach is the last two ranks of each side.
    #[test]
    fn adjacent_promoters_by_role() {
        use crate::pieces::PAWN;
        let r = Rules::new(Style::Imperial, default_pieces(), Settings::default());
        let code = |role: usize, color: usize| (role + 1) | (color << 4);
        for role in 0..ROLE_COUNT {
            for color in 0..2 {
                let on = r.adjacent_promoters >> code(role, color) & 1 != 0;
                assert_eq!(on, role == PAWN, "role {role}, colour {color}");
            }
        }
        for s in 0..r.n * r.n {
            let square = Square(s as u16);
            assert_eq!(r.promotion_approach[0].has(square), r.rank[s] >= 11, "{s}");
            assert_eq!(r.promotion_approach[1].has(square), r.rank[s] <= 1, "{s}");
        }
    }
}
