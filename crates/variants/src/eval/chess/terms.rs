//! The terms of the chess evaluation: each is a count of a feature on the board (White's
//! count minus Black's) times a weight from [`super::weights::WEIGHTS`]. Writing the
//! evaluation once over a [`Sink`] lets the engine sum the weights and the tuner read the
//! counts, so the two can never disagree.

use super::weights::WEIGHTS;
use menagerie_chess::attacks::tables;
use menagerie_chess::{Chess, Role};
use menagerie_core::Color;

/// A weight: (middlegame, endgame) in centipawns.
pub type S = (i32, i32);

/// Material by role P N B R Q K.
pub const MATERIAL: usize = 0;
/// Piece-square bonus by role and square (from White's side, rank 8 first: `sq ^ 56`).
pub const PST: usize = MATERIAL + 6;
/// A passed pawn, by ranks advanced.
pub const PASSED: usize = PST + 6 * 64;
/// A pawn with another of its side on its file.
pub const DOUBLED: usize = PASSED + 8;
/// A pawn with none of its side on the files beside it.
pub const ISOLATED: usize = DOUBLED + 1;
/// A pawn defended by a pawn or with one beside it on its rank, by ranks advanced.
pub const CONNECTED: usize = ISOLATED + 1;
/// A passed pawn whose next square is occupied, by ranks advanced.
pub const PASSED_BLOCKED: usize = CONNECTED + 8;
/// Per square of distance from the own King to a passed pawn's next square, by ranks advanced.
pub const PASSED_OWN_KING: usize = PASSED_BLOCKED + 8;
/// Per square of distance from the enemy King to a passed pawn's next square, by ranks advanced.
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 8;
/// Knight mobility by safe squares reached (0..=8).
pub const MOBILITY_KNIGHT: usize = PASSED_THEIR_KING + 8;
/// Bishop mobility by safe squares reached (0..=13).
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility by safe squares reached (0..=14).
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility by safe squares reached (0..=27).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// A Rook on a file without pawns.
pub const ROOK_OPEN: usize = MOBILITY_QUEEN + 28;
/// A Rook on a file without pawns of its side.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Own pawns (0..=3) in front of the King, one or two ranks ahead.
pub const SHIELD: usize = ROOK_SEMI_OPEN + 1;
/// Both Bishops.
pub const BISHOP_PAIR: usize = SHIELD + 4;
/// The enemy King's danger (Stockfish's classical sum, [`king_danger`]), by bucket of
/// [`DANGER_STEP`] units.
pub const KING_DANGER: usize = BISHOP_PAIR + 1;
/// How many buckets the King-danger table has (the last takes every greater danger).
pub const DANGER_BUCKETS: usize = 32;
/// Danger units a bucket of the King-danger table spans.
pub const DANGER_STEP: i32 = 96;
/// Attacks on the enemy King's zone by weight (two attackers and a Queen at least).
pub const KING_ATTACK: usize = KING_DANGER + DANGER_BUCKETS;
/// An enemy piece (not a pawn or King) attacked by a pawn.
pub const THREAT_BY_PAWN: usize = KING_ATTACK + 16;
/// An enemy piece attacked by a Knight or Bishop, by its role.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// An enemy piece attacked by a Rook, by its role.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// An enemy piece (not the King) attacked and not defended.
pub const HANGING: usize = THREAT_BY_ROOK + 6;
/// Files (0..=3) at and beside the King without a pawn of its side.
pub const KING_BARE_FILES: usize = HANGING + 1;
/// Enemy pawns (0..=3) up to three ranks in front of the King on its and the beside files.
pub const PAWN_STORM: usize = KING_BARE_FILES + 4;
/// A Knight or Bishop (by role) in the enemy half, defended by a pawn, that no enemy pawn
/// can attack.
pub const OUTPOST: usize = PAWN_STORM + 4;
/// A passed pawn whose way to promotion is empty and not attacked, by ranks advanced.
pub const PASSED_FREE: usize = OUTPOST + 2;
/// A Knight or Bishop right behind a pawn of its side.
pub const MINOR_BEHIND_PAWN: usize = PASSED_FREE + 8;
/// Per own pawn on the squares of a Bishop's colour.
pub const BISHOP_PAWNS: usize = MINOR_BEHIND_PAWN + 1;
/// A square from which a piece (by role N B R Q, index 1 to 4) could give check, that the
/// piece reaches, and that the King's side does not attack.
pub const SAFE_CHECK: usize = BISHOP_PAWNS + 1;
/// A square of the enemy King's zone attacked and defended by no enemy pawn, Knight,
/// Bishop or Rook.
pub const KING_ZONE_WEAK: usize = SAFE_CHECK + 5;
/// The side to move.
pub const TEMPO: usize = KING_ZONE_WEAK + 1;
/// How many weights there are.
pub const COUNT: usize = TEMPO + 1;

/// Each group of weights: its name, its first index and its length (the weights file and
/// the tuner's report follow this order).
pub const LAYOUT: [(&str, usize, usize); 33] = [
    ("material", MATERIAL, 6),
    ("pst", PST, 384),
    ("passed", PASSED, 8),
    ("doubled", DOUBLED, 1),
    ("isolated", ISOLATED, 1),
    ("connected", CONNECTED, 8),
    ("passed_blocked", PASSED_BLOCKED, 8),
    ("passed_own_king", PASSED_OWN_KING, 8),
    ("passed_their_king", PASSED_THEIR_KING, 8),
    ("mobility_knight", MOBILITY_KNIGHT, 9),
    ("mobility_bishop", MOBILITY_BISHOP, 14),
    ("mobility_rook", MOBILITY_ROOK, 15),
    ("mobility_queen", MOBILITY_QUEEN, 28),
    ("rook_open", ROOK_OPEN, 1),
    ("rook_semi_open", ROOK_SEMI_OPEN, 1),
    ("shield", SHIELD, 4),
    ("bishop_pair", BISHOP_PAIR, 1),
    ("king_danger", KING_DANGER, DANGER_BUCKETS),
    ("king_attack", KING_ATTACK, 16),
    ("threat_by_pawn", THREAT_BY_PAWN, 1),
    ("threat_by_minor", THREAT_BY_MINOR, 6),
    ("threat_by_rook", THREAT_BY_ROOK, 6),
    ("hanging", HANGING, 1),
    ("king_bare_files", KING_BARE_FILES, 4),
    ("pawn_storm", PAWN_STORM, 4),
    ("outpost", OUTPOST, 2),
    ("passed_free", PASSED_FREE, 8),
    ("minor_behind_pawn", MINOR_BEHIND_PAWN, 1),
    ("bishop_pawns", BISHOP_PAWNS, 1),
    ("safe_check", SAFE_CHECK, 5),
    ("king_zone_weak", KING_ZONE_WEAK, 1),
    ("tempo", TEMPO, 1),
    ("end", COUNT, 0),
];

/// Game phase each piece contributes (24 with all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Where the terms go: summed with the weights, or counted for the tuner.
pub trait Sink {
    /// Adds `count` times the weight `param` (negative counts for Black).
    fn add(&mut self, param: usize, count: i32);
    /// Adds a piece of `color` and `role` on `sq`: its material and its square's bonus.
    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: usize) {
        let (sign, flip) = if color == Color::White {
            (1, 56)
        } else {
            (-1, 0)
        };
        let r = role as usize;
        self.add(MATERIAL + r, sign);
        self.add(PST + r * 64 + (sq ^ flip), sign);
    }
}

/// The weighted sum of the terms, middlegame and endgame apart.
#[derive(Default)]
pub struct Sum {
    /// Middlegame score.
    pub mg: i32,
    /// Endgame score.
    pub eg: i32,
}

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        let (mg, eg) = WEIGHTS[param];
        self.mg += count * mg;
        self.eg += count * eg;
    }
}

/// A weight packed into one integer, `mg · 2³² + eg`: one multiply and one add sum both
/// halves, and they come apart exactly while each half's sum stays within `i32`.
const fn pack((mg, eg): S) -> i64 {
    ((mg as i64) << 32) + eg as i64
}

/// Every weight, packed ([`pack`]).
static PACKED: [i64; COUNT] = {
    let mut out = [0i64; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = pack(WEIGHTS[i]);
        i += 1;
    }
    out
};

/// Material plus square bonus of each piece by colour (White 0), role and square, packed
/// ([`pack`]) and signed from White's point of view: one addition a piece.
static PIECE_PACKED: [[[i64; 64]; 6]; 2] = {
    let mut out = [[[0i64; 64]; 6]; 2];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = pack(WEIGHTS[MATERIAL + r]);
            out[0][r][sq] = m + pack(WEIGHTS[PST + r * 64 + (sq ^ 56)]);
            out[1][r][sq] = -(m + pack(WEIGHTS[PST + r * 64 + sq]));
            sq += 1;
        }
        r += 1;
    }
    out
};

/// The weighted sum as [`Sum`] makes it, both halves packed in one integer ([`pack`]): the
/// engine's sink ([`white_score`]); `counts_times_weights_is_the_evaluation` checks that it
/// agrees with [`Sum`].
#[derive(Default)]
struct Packed(i64);

impl Packed {
    /// The middlegame and endgame sums.
    fn unpack(&self) -> (i32, i32) {
        let eg = self.0 as i32;
        let mg = ((self.0 - i64::from(eg)) >> 32) as i32;
        (mg, eg)
    }
}

impl Sink for Packed {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        self.0 += i64::from(count) * PACKED[param];
    }
    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: usize) {
        self.0 += PIECE_PACKED[color.index()][role as usize][sq];
    }
}

/// The squares of a bitboard, lowest first.
pub(super) struct Bits(pub(super) u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(s)
    }
}

#[inline(always)]
fn bits(b: u64) -> Bits {
    Bits(b)
}

/// Squares ahead of `sq` on its file and the two beside it, towards promotion.
fn front_span(color: Color, sq: usize) -> u64 {
    let file = sq % 8;
    let mut files = FILE_A << file;
    if file > 0 {
        files |= FILE_A << (file - 1);
    }
    if file < 7 {
        files |= FILE_A << (file + 1);
    }
    let rank = sq / 8;
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << ((rank + 1) * 8),
        Color::Black if rank > 0 => !0u64 >> ((8 - rank) * 8),
        _ => 0,
    };
    files & ahead
}

/// The ranks of the board among the next two and the next three ahead of `rank` for
/// `color` (towards the enemy), as square masks.
fn ranks_ahead(color: Color, rank: usize) -> (u64, u64) {
    // Shifted within 128 bits, so the ranks past the edge fall off either end.
    let (two, three) = (0xFFFFu128, 0xFF_FFFFu128);
    match color {
        Color::White => {
            let at = (rank + 1) * 8;
            ((two << at) as u64, (three << at) as u64)
        }
        Color::Black => {
            let top = 64 + rank * 8;
            (
                ((two << (top - 16)) >> 64) as u64,
                ((three << (top - 24)) >> 64) as u64,
            )
        }
    }
}

/// The files (bit `f` for file `f`) holding at least one of `pawns`.
fn pawn_files(pawns: u64) -> u64 {
    let mut x = pawns;
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    x & 0xFF
}

/// The files beside the file mask `file` (one or two).
fn files_beside(file: u64) -> u64 {
    ((file & !(FILE_A << 7)) << 1) | ((file & !FILE_A) >> 1)
}

fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

fn distance(a: usize, b: usize) -> i32 {
    let files = (a % 8).abs_diff(b % 8);
    let ranks = (a / 8).abs_diff(b / 8);
    files.max(ranks) as i32
}

/// The outpost and behind-a-pawn terms of a Knight (`which` 0) or Bishop (1) on `sq`.
fn minor_terms<K: Sink>(
    sink: &mut K,
    color: Color,
    sq: usize,
    which: usize,
    pawns: u64,
    cover: &[u64; 2],
    their_pawns: u64,
) {
    let sign = if color == Color::White { 1 } else { -1 };
    let rank = sq / 8;
    let enemy_half = if color == Color::White {
        rank >= 4
    } else {
        rank <= 3
    };
    // An enemy pawn on a file beside, further back than this square, could still come to
    // attack it.
    let file = FILE_A << (sq % 8);
    let beside = files_beside(file);
    if enemy_half
        && cover[color.index()] & (1u64 << sq) != 0
        && front_span(color, sq) & beside & their_pawns == 0
    {
        sink.add(OUTPOST + which, sign);
    }
    let ahead = if color == Color::White {
        sq + 8
    } else {
        sq.wrapping_sub(8)
    };
    if ahead < 64 && pawns & (1u64 << ahead) != 0 {
        sink.add(MINOR_BEHIND_PAWN, sign);
    }
}

/// Adds every term of `pos` to `sink` from White's point of view and returns the game
/// phase (24 with all pieces on the board, fewer as they leave, never more).
pub fn terms<K: Sink>(pos: &Chess, sink: &mut K) -> i32 {
    let passed = pawn_terms(pos, sink);
    other_terms(pos, sink, passed)
}

/// Ranks a pawn of `color` on `sq` has advanced from its own first rank.
fn advance(color: Color, sq: usize) -> usize {
    if color == Color::White {
        sq / 8
    } else {
        7 - sq / 8
    }
}

/// Adds the terms of the pawns alone (their material, squares and structure) to `sink`,
/// and returns each side's passed pawns (White, Black). They depend on the pawns only, so
/// the engine keeps them by pawn structure ([`white_score`]).
pub fn pawn_terms<K: Sink>(pos: &Chess, sink: &mut K) -> [u64; 2] {
    let mut passed = [0u64; 2];
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        let pawns = pos.pieces(color, Role::Pawn);
        let their_pawns = pos.pieces(color.other(), Role::Pawn);
        let cover = pawn_attacks(color, pawns);
        for sq in bits(pawns) {
            sink.piece(color, Role::Pawn, sq);
            let file = FILE_A << (sq % 8);
            let adv = advance(color, sq);
            if front_span(color, sq) & their_pawns == 0 {
                passed[color.index()] |= 1u64 << sq;
                sink.add(PASSED + adv, sign);
            }
            if (pawns & file).count_ones() > 1 {
                sink.add(DOUBLED, sign);
            }
            let beside = files_beside(file);
            if pawns & beside == 0 {
                sink.add(ISOLATED, sign);
            }
            let rank = 0xFFu64 << (sq / 8 * 8);
            if cover & (1u64 << sq) != 0 || pawns & beside & rank != 0 {
                sink.add(CONNECTED + adv, sign);
            }
        }
    }
    passed
}

/// Adds every term but the pawns' own ([`pawn_terms`], whose passed pawns are `passed`) and
/// returns the game phase.
fn other_terms<K: Sink>(pos: &Chess, sink: &mut K, passed: [u64; 2]) -> i32 {
    let t = tables();
    let occ = pos.occupied();
    let mut phase = 0;
    let all_pawns = pos.pieces(Color::White, Role::Pawn) | pos.pieces(Color::Black, Role::Pawn);
    let cover = [
        pawn_attacks(Color::White, pos.pieces(Color::White, Role::Pawn)),
        pawn_attacks(Color::Black, pos.pieces(Color::Black, Role::Pawn)),
    ];
    // Squares each side attacks: by role (N B R Q; the pawns' are `cover`), and by anything.
    let mut by_role = [[0u64; 5]; 2];
    let mut by_any = cover;
    // Squares each side attacks twice (a pawn's pair first: they stay there).
    let mut by_two = [
        pawn_double_attacks(Color::White, pos.pieces(Color::White, Role::Pawn)),
        pawn_double_attacks(Color::Black, pos.pieces(Color::Black, Role::Pawn)),
    ];
    let ring = [
        king_ring(pos, Color::White, &by_two),
        king_ring(pos, Color::Black, &by_two),
    ];
    // Pieces of each side that attack the enemy King's ring (pawns counted), their weights
    // by role, and their attacks on the squares next to that King (Stockfish's classical
    // `kingAttackersCount`, `kingAttackersWeight`, `kingAttacksCount`).
    let mut ring_attackers = [
        (ring[1] & cover[0]).count_ones() as i32,
        (ring[0] & cover[1]).count_ones() as i32,
    ];
    let mut ring_weight = [0i32; 2];
    let mut next_to_king = [0i32; 2];
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        let us = color.index();
        let them = color.other();
        let own = pos.color_pieces(color);
        let pawns = pos.pieces(color, Role::Pawn);
        let their_pawns = pos.pieces(them, Role::Pawn);
        let safe = !own & !cover[them.index()];
        let own_king = pos.king_square(color);
        let their_king = pos.king_square(them);
        let their_ring = ring[them.index()];
        let king_zone = t.king[their_king] | 1u64 << their_king;
        let mut attack_weight = 0;
        let mut attackers = 0;
        let beside_their_king = t.king[their_king];

        for role in Role::ALL {
            if role == Role::Pawn {
                continue;
            }
            let r = role as usize;
            for sq in bits(pos.pieces(color, role)) {
                phase += PHASE[r];
                sink.piece(color, role, sq);
                let (attacks, mobility, zone_weight) = match role {
                    // Skipped above: material, squares and structure come from `pawn_terms`.
                    Role::Pawn => continue,
                    Role::Knight => {
                        minor_terms(sink, color, sq, 0, pawns, &cover, their_pawns);
                        let a = t.knight[sq];
                        (a, MOBILITY_KNIGHT, 2)
                    }
                    Role::Bishop => {
                        minor_terms(sink, color, sq, 1, pawns, &cover, their_pawns);
                        let light = 0x55AA_55AA_55AA_55AAu64;
                        let same = if light & (1u64 << sq) != 0 {
                            light
                        } else {
                            !light
                        };
                        sink.add(BISHOP_PAWNS, sign * (pawns & same).count_ones() as i32);
                        let a = t.bishop(sq, occ);
                        (a, MOBILITY_BISHOP, 2)
                    }
                    Role::Rook => {
                        let file = FILE_A << (sq % 8);
                        if all_pawns & file == 0 {
                            sink.add(ROOK_OPEN, sign);
                        } else if pawns & file == 0 {
                            sink.add(ROOK_SEMI_OPEN, sign);
                        }
                        let a = t.rook(sq, occ);
                        (a, MOBILITY_ROOK, 3)
                    }
                    Role::Queen => (t.queen(sq, occ), MOBILITY_QUEEN, 5),
                    Role::King => {
                        by_two[us] |= by_any[us] & t.king[sq];
                        by_any[us] |= t.king[sq];
                        // Pawn shield: own pawns on the three files in front.
                        let (near, near3) = ranks_ahead(color, sq / 8);
                        let shield = front_span(color, sq) & pawns & near;
                        sink.add(SHIELD + shield.count_ones().min(3) as usize, sign);
                        // Files at and beside the King's without a pawn of its side.
                        let window = ((0b111u64 << (sq % 8)) >> 1) & 0xFF;
                        let bare = (window & !pawn_files(pawns)).count_ones() as usize;
                        sink.add(KING_BARE_FILES + bare.min(3), sign);
                        let storm = front_span(color, sq) & their_pawns & near3;
                        sink.add(PAWN_STORM + storm.count_ones().min(3) as usize, sign);
                        continue;
                    }
                };
                by_two[us] |= by_any[us] & attacks;
                by_any[us] |= attacks;
                by_role[us][r] |= attacks;
                sink.add(mobility + (attacks & safe).count_ones() as usize, sign);
                let hits = (attacks & king_zone).count_ones() as i32;
                if hits > 0 {
                    attackers += 1;
                    attack_weight += zone_weight * hits;
                }
                if attacks & their_ring != 0 {
                    ring_attackers[us] += 1;
                    ring_weight[us] += RING_ATTACK_WEIGHT[r];
                    next_to_king[us] += (attacks & beside_their_king).count_ones() as i32;
                }
            }
        }
        for sq in bits(passed[us]) {
            let adv = advance(color, sq);
            let stop = if color == Color::White {
                sq + 8
            } else {
                sq - 8
            };
            if occ & (1u64 << stop) != 0 {
                sink.add(PASSED_BLOCKED + adv, sign);
            }
            sink.add(PASSED_OWN_KING + adv, sign * distance(own_king, stop));
            sink.add(PASSED_THEIR_KING + adv, sign * distance(their_king, stop));
        }
        if pos.pieces(color, Role::Bishop).count_ones() >= 2 {
            sink.add(BISHOP_PAIR, sign);
        }
        if attackers >= 2 && pos.pieces(color, Role::Queen) != 0 {
            sink.add(KING_ATTACK + (attack_weight as usize / 2).min(15), sign);
        }
    }
    let by_minor = by_role.map(|a| a[Role::Knight as usize] | a[Role::Bishop as usize]);
    let by_rook = by_role.map(|a| a[Role::Rook as usize]);
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        let (us, them) = (color.index(), color.other());
        let king = pos.pieces(them, Role::King);
        let targets = pos.color_pieces(them) & !king;
        let pieces = targets & !pos.pieces(them, Role::Pawn);
        sink.add(
            THREAT_BY_PAWN,
            sign * (cover[us] & pieces).count_ones() as i32,
        );
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let victims = pos.pieces(them, role);
            let r = role as usize;
            sink.add(
                THREAT_BY_MINOR + r,
                sign * (by_minor[us] & victims).count_ones() as i32,
            );
            sink.add(
                THREAT_BY_ROOK + r,
                sign * (by_rook[us] & victims).count_ones() as i32,
            );
        }
        // Checks the defender cannot answer by taking the checking piece where it lands.
        let ksq = pos.king_square(them);
        let safe = !pos.color_pieces(color) & !by_any[them.index()];
        let bishop_checks = t.bishop(ksq, occ);
        let rook_checks = t.rook(ksq, occ);
        let checks = [
            0,
            t.knight[ksq],
            bishop_checks,
            rook_checks,
            bishop_checks | rook_checks,
        ];
        for r in 1..5 {
            if by_role[us][r] & checks[r] & safe != 0 {
                sink.add(SAFE_CHECK + r, sign);
            }
        }
        let danger = king_danger(
            pos,
            color,
            &by_role,
            &by_any,
            &by_two,
            ring[them.index()],
            ring_attackers[us] * ring_weight[us] + 69 * next_to_king[us],
        );
        let bucket = (danger.max(0) / DANGER_STEP) as usize;
        if bucket > 0 {
            sink.add(KING_DANGER + bucket.min(DANGER_BUCKETS - 1), sign);
        }
        let defended = cover[them.index()] | by_minor[them.index()] | by_rook[them.index()];
        let zone = t.king[ksq];
        sink.add(
            KING_ZONE_WEAK,
            sign * (by_any[us] & zone & !defended).count_ones() as i32,
        );
        let hanging = by_any[us] & targets & !by_any[them.index()];
        sink.add(HANGING, sign * hanging.count_ones() as i32);
        for sq in bits(passed[us]) {
            let way = front_span(color, sq) & (FILE_A << (sq % 8));
            if way & (occ | by_any[them.index()]) == 0 {
                sink.add(PASSED_FREE + advance(color, sq), sign);
            }
        }
    }
    sink.add(TEMPO, if pos.side() == Color::White { 1 } else { -1 });
    phase.min(24)
}

/// Weight of a piece attacking the enemy King's ring, by role P N B R Q K (Stockfish's
/// classical `KingAttackWeights`).
const RING_ATTACK_WEIGHT: [i32; 6] = [0, 81, 52, 44, 10, 0];

/// Squares attacked by two pawns of `color`.
fn pawn_double_attacks(color: Color, pawns: u64) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) & ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) & ((pawns & not_h) >> 7),
    }
}

/// The ring of `color`'s King: the squares around it, moved in from the edge so that it
/// is always nine squares, less those two of its own pawns defend (so far only the
/// pawns have been counted in `by_two`).
fn king_ring(pos: &Chess, color: Color, by_two: &[u64; 2]) -> u64 {
    let ksq = pos.king_square(color);
    let centre = (ksq / 8).clamp(1, 6) * 8 + (ksq % 8).clamp(1, 6);
    (tables().king[centre] | 1u64 << centre) & !by_two[color.index()]
}

/// The files of a King's flank by the King's file (Stockfish's `KingFlank`).
const KING_FLANK: [u64; 8] = {
    let (a, b, c, d, e, f, g, h) = (
        FILE_A,
        FILE_A << 1,
        FILE_A << 2,
        FILE_A << 3,
        FILE_A << 4,
        FILE_A << 5,
        FILE_A << 6,
        FILE_A << 7,
    );
    let queen_side = a | b | c | d;
    let centre = c | d | e | f;
    let king_side = e | f | g | h;
    [
        queen_side ^ d,
        queen_side,
        queen_side,
        centre,
        centre,
        king_side,
        king_side,
        king_side ^ e,
    ]
};

/// How much danger `color`'s pieces put the enemy King in, in Stockfish's classical units
/// (its `kingDanger`, without the shelter and mobility parts, which other terms count):
/// `rings` is the attackers' count times their weight plus 69 per attack next to the King,
/// counted while the attacks were made; `ring` is the King's ring.
fn king_danger(
    pos: &Chess,
    color: Color,
    by_role: &[[u64; 5]; 2],
    by_any: &[u64; 2],
    by_two: &[u64; 2],
    ring: u64,
    rings: i32,
) -> i32 {
    let t = tables();
    let them = color.other();
    let (us, ti) = (color.index(), them.index());
    let occ = pos.occupied();
    let ksq = pos.king_square(them);
    let beside = t.king[ksq];
    let their_queens = pos.pieces(them, Role::Queen);
    // Squares we attack that the King's side defends at most once, by its King or Queen.
    let weak = by_any[us] & !by_two[ti] & (!by_any[ti] | beside | by_role[ti][4]);
    let safe = !pos.color_pieces(color) & (!by_any[ti] | (weak & by_two[us]));
    let rook_lines = t.rook(ksq, occ ^ their_queens);
    let bishop_lines = t.bishop(ksq, occ ^ their_queens);
    let more = |b: u64| usize::from(b & b.wrapping_sub(1) != 0);
    let mut danger = rings + 37;
    let mut unsafe_checks = 0u64;
    let rook_checks = rook_lines & by_role[us][3] & safe;
    if rook_checks != 0 {
        danger += [1087, 1878][more(rook_checks)];
    } else {
        unsafe_checks |= rook_lines & by_role[us][3];
    }
    // A Queen's check counts only where no Rook's check is (those are worth more).
    let queen_checks =
        (rook_lines | bishop_lines) & by_role[us][4] & safe & !(by_role[ti][4] | rook_checks);
    if queen_checks != 0 {
        danger += [759, 1132][more(queen_checks)];
    }
    let bishop_checks = bishop_lines & by_role[us][2] & safe & !queen_checks;
    if bishop_checks != 0 {
        danger += [639, 974][more(bishop_checks)];
    } else {
        unsafe_checks |= bishop_lines & by_role[us][2];
    }
    let knight_checks = t.knight[ksq] & by_role[us][1];
    if knight_checks & safe != 0 {
        danger += [803, 1292][more(knight_checks & safe)];
    } else {
        unsafe_checks |= knight_checks;
    }
    // Pieces of either side alone between the King and one of our sliders.
    let rooks = pos.pieces(color, Role::Rook) | pos.pieces(color, Role::Queen);
    let bishops = pos.pieces(color, Role::Bishop) | pos.pieces(color, Role::Queen);
    let snipers = (t.rook(ksq, 0) & rooks) | (t.bishop(ksq, 0) & bishops);
    let mut blockers = 0u64;
    for s in bits(snipers) {
        let b = t.between[ksq][s] & occ & !snipers;
        if b != 0 && b & b.wrapping_sub(1) == 0 {
            blockers |= b;
        }
    }
    // The King's camp on its flank: our attacks there, those made twice, its defence.
    let camp = if them == Color::White {
        !0u64 >> 24
    } else {
        !0u64 << 24
    };
    let flank = KING_FLANK[ksq % 8] & camp;
    let flank_attack =
        (by_any[us] & flank).count_ones() as i32 + (by_two[us] & flank).count_ones() as i32;
    let flank_defence = (by_any[ti] & flank).count_ones() as i32;
    danger += 183 * (ring & weak).count_ones() as i32
        + 148 * unsafe_checks.count_ones() as i32
        + 98 * blockers.count_ones() as i32
        + 3 * flank_attack * flank_attack / 8
        - 4 * flank_defence;
    if pos.pieces(color, Role::Queen) == 0 {
        danger -= 873;
    }
    if by_role[ti][1] & beside != 0 {
        danger -= 100;
    }
    danger
}

/// Slots of each thread's pawn-structure cache (a power of two; 48 bytes a slot).
const PAWN_CACHE_SIZE: usize = 1 << 11;

/// One pawn structure's terms: White's and Black's pawns, the weighted sum of
/// [`pawn_terms`] and the passed pawns.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [u64; 2],
    /// The packed sum ([`pack`]).
    sum: i64,
    passed: [u64; 2],
}

thread_local! {
    /// The pawn-structure cache of this thread: a search meets few pawn structures, and
    /// their terms are a fifth of the evaluation.
    static PAWN_CACHE: std::cell::RefCell<Vec<PawnEntry>> =
        std::cell::RefCell::new(vec![PawnEntry::default(); PAWN_CACHE_SIZE]);
}

/// The weighted sum of `pos`'s terms, tapered by phase, from White's point of view.
pub fn white_score(pos: &Chess) -> i32 {
    let pawns = [
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    ];
    let hash = (pawns[0].wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ pawns[1])
        .wrapping_mul(0xff51_afd7_ed55_8ccd);
    let slot = (hash >> 53) as usize & (PAWN_CACHE_SIZE - 1);
    let entry = PAWN_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let e = &mut cache[slot];
        // An empty slot holds the structure without pawns, whose terms are all zero.
        if e.pawns != pawns {
            let mut s = Packed::default();
            let passed = pawn_terms(pos, &mut s);
            *e = PawnEntry {
                pawns,
                sum: s.0,
                passed,
            };
        }
        *e
    });
    let mut s = Packed(entry.sum);
    let phase = other_terms(pos, &mut s, entry.passed);
    let (mg, eg) = s.unpack();
    (mg * phase + eg * (24 - phase)) / 24
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_masks_are_the_ranks_and_files_counted_one_by_one() {
        for color in Color::BOTH {
            let step = if color == Color::White { 1 } else { -1 };
            for rank in 0..8i32 {
                let ranks = |n: i32| {
                    (1..=n)
                        .map(|k| rank + k * step)
                        .filter(|r| (0..8).contains(r))
                        .fold(0u64, |m, r| m | 0xFFu64 << (r * 8))
                };
                assert_eq!(ranks_ahead(color, rank as usize), (ranks(2), ranks(3)));
            }
        }
        let mut seed = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let pawns = seed & seed.rotate_left(17) & 0x00FF_FFFF_FFFF_FF00;
            for king_file in 0..8usize {
                let bare = (king_file.saturating_sub(1)..=(king_file + 1).min(7))
                    .filter(|&f| pawns & (FILE_A << f) == 0)
                    .count();
                let window = ((0b111u64 << king_file) >> 1) & 0xFF;
                assert_eq!((window & !pawn_files(pawns)).count_ones() as usize, bare);
            }
        }
    }
}
