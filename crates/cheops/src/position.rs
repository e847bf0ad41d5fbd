//! The umpire's position: the whole board, the Castles, the known Deputies and the sealed
//! papers; move generation and the order of events inside a turn (rulebook §7 to §11, §16).

use crate::pieces::{class, PAWN};
use crate::rules::{Bits, Rules, RulesRef};
use menagerie_core::geometry::KING as HOP_DIRECTIONS;
use menagerie_core::{BitBoard, Color, Square};

/// Squares on the largest board.
pub const MAX_SQUARES: usize = 169;
/// The most Castles a position can hold. With two Civilians a side (the parser's limit) at
/// most two can ever exist; the room is for piece tables that make other pieces pillars.
pub const MAX_CASTLES: usize = 8;
/// The longest hop chain: its landing squares share the parity of its start, so a 13x13
/// board has at most 48 of them.
pub const MAX_HOPS: usize = 48;
/// Bytes of a move's hop path: each hop is one of the eight King directions, three bits.
const PATH_BYTES: usize = (MAX_HOPS * 3).div_ceil(8);
/// "No square" in a move's byte fields.
pub const NONE: u8 = 0xFF;
/// A hop whose arrest room is still to be chosen (used only while generating moves).
pub(crate) const ARREST_PENDING: u8 = 0xFE;

/// What kind of turn a move is (rulebook §7.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TurnKind {
    /// A move or capture by the Betza definition, promotion included.
    Move,
    /// A Pawn entitled to it becomes a major piece in the halls (8.2 a).
    HallPromotion,
    /// A hop or a chain of hops, possibly ending in an arrest.
    Hop,
    /// The King of a Castle appoints one of his Civilians a Deputy.
    Appoint,
    /// An inspection of an apparent enemy Civilian's papers.
    Inspect,
    /// The King abdicates in favour of a Duke.
    Abdicate,
    /// Accepting the draw at a repetition where an abdication was possible (12.2).
    Draw,
}

/// One whole turn.
// 24 bytes: a hop path is kept as directions, three bits a hop (a hop always jumps two
// squares in one of the King's eight directions, 7.3), so the search's move lists and the
// hash table hold small moves. Aligned so that copies are whole words. The bits of the path
// past `hops` are always zero, so the derived equality is the equality of turns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(align(8))]
pub struct CheopsMove {
    /// The kind of turn.
    pub kind: TurnKind,
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) promo: u8,
    pub(crate) room: u8,
    pub(crate) hops: u8,
    /// Hop `i`'s direction (an index of `menagerie_core::geometry::KING`) in bits `3i..3i+3`.
    path: [u8; PATH_BYTES],
}

impl std::hash::Hash for CheopsMove {
    /// Only the used part of the hop path.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
        state.write(&[self.from, self.to, self.promo, self.room, self.hops]);
        state.write(&self.path[..(self.hops as usize * 3).div_ceil(8)]);
    }
}

/// The square offset of one step in King direction `dir` on a board `n` squares wide.
#[inline(always)]
fn step(dir: usize, n: usize) -> isize {
    let o = HOP_DIRECTIONS[dir];
    o.dx as isize + o.dy as isize * n as isize
}

impl CheopsMove {
    pub(crate) fn new(kind: TurnKind, from: usize, to: usize) -> Self {
        CheopsMove {
            kind,
            from: from as u8,
            to: to as u8,
            promo: NONE,
            room: NONE,
            hops: 0,
            path: [0; PATH_BYTES],
        }
    }
    /// The square the turn starts from (the appointed or inspected square for those turns).
    pub fn from(&self) -> Square {
        Square(self.from as u16)
    }
    /// The square the moving piece ends on (for an abdication: the Duke's square).
    pub fn to(&self) -> Square {
        Square(self.to as u16)
    }
    /// The role chosen by a promotion, if any.
    pub fn promotion(&self) -> Option<usize> {
        (self.promo != NONE).then_some(self.promo as usize)
    }
    /// The room an arrested piece is carried to, if the turn arrests.
    pub fn arrest_room(&self) -> Option<Square> {
        (self.room < NONE - 1).then_some(Square(self.room as u16))
    }
    /// The direction of hop `i` (an index of the King's eight directions).
    #[inline]
    pub(crate) fn hop_direction(&self, i: usize) -> usize {
        let bit = 3 * i;
        let (byte, shift) = (bit / 8, bit % 8);
        let hi = self.path.get(byte + 1).copied().unwrap_or(0) as u16;
        (((self.path[byte] as u16 | hi << 8) >> shift) & 7) as usize
    }
    /// Sets `bits` in hop `i`'s three bits (which must be zero), or clears them.
    #[inline]
    fn edit_hop(&mut self, i: usize, bits: u16, set: bool) {
        let bit = 3 * i;
        let (byte, shift) = (bit / 8, bit % 8);
        let m = bits << shift;
        let (lo, hi) = ((m & 0xFF) as u8, (m >> 8) as u8);
        if set {
            self.path[byte] |= lo;
            if hi != 0 {
                self.path[byte + 1] |= hi;
            }
        } else {
            self.path[byte] &= !lo;
            if hi != 0 {
                self.path[byte + 1] &= !hi;
            }
        }
    }
    /// Appends a hop in King direction `dir` landing on `land` (the caller checks
    /// [`MAX_HOPS`]).
    #[inline]
    pub(crate) fn push_hop(&mut self, dir: usize, land: usize) {
        self.edit_hop(self.hops as usize, dir as u16, true);
        self.hops += 1;
        self.to = land as u8;
    }
    /// Takes the last hop back; the piece ends on `back`, where that hop started.
    #[inline]
    pub(crate) fn pop_hop(&mut self, back: usize) {
        self.hops -= 1;
        self.edit_hop(self.hops as usize, 7, false);
        self.to = back as u8;
    }
    /// The square of the piece hopped by the last hop, on a board `n` squares wide.
    #[inline]
    pub(crate) fn last_hopped(&self, n: usize) -> usize {
        let d = self.hop_direction(self.hops as usize - 1);
        (self.to as isize - step(d, n)) as usize
    }
    /// The landing squares of a hop chain, in order, on a board `n` squares wide (the
    /// position's `rules().n`).
    pub fn landings(&self, n: usize) -> impl Iterator<Item = Square> + '_ {
        let mut at = self.from as isize;
        (0..self.hops as usize).map(move |i| {
            at += 2 * step(self.hop_direction(i), n);
            Square(at as u16)
        })
    }
    /// Whether the two moves' hop paths differ.
    pub(crate) fn path_differs(&self, other: &CheopsMove) -> bool {
        self.path != other.path
    }
}

/// A Castle (rulebook §9): named by its chair.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Castle {
    /// The chair square.
    pub chair: u8,
    /// Whether it is active.
    pub active: bool,
    /// The owner while active.
    pub owner: Color,
    /// The square of the activating piece while active.
    pub activator: u8,
    /// Pawns entitled to promote in the halls: bit i = hall i in square order.
    pub entitled: u8,
}

impl Castle {
    pub(crate) fn inactive(chair: usize) -> Self {
        Castle {
            chair: chair as u8,
            active: false,
            owner: Color::White,
            activator: NONE,
            entitled: 0,
        }
    }
}

/// The umpire's position of a Little Cheops game, Common or Imperial.
#[derive(Clone)]
pub struct CheopsPosition {
    pub(crate) rules: RulesRef,
    pub(crate) board: [u8; MAX_SQUARES],
    pub(crate) occ: [Bits; 2],
    /// Known Deputies (revealed or compromised).
    pub(crate) known: Bits,
    /// Sealed papers: Deputies not yet known.
    pub(crate) papers: Bits,
    /// Bastions of every Castle.
    pub(crate) bastions: Bits,
    /// Pieces that are not active: bastions and arrestees.
    pub(crate) frozen: Bits,
    pub(crate) castles: [Castle; MAX_CASTLES],
    pub(crate) ncastles: u8,
    pub(crate) kings: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// The side to move accepted the repetition draw (12.2).
    pub(crate) draw_accepted: bool,
}

/// The board letters of a position ([`CheopsPosition::letter_board`]).
#[derive(Clone, Copy)]
pub struct LetterBoard<'a> {
    cells: &'a [u8; MAX_SQUARES],
    letters: &'a [u8; 32],
}

impl LetterBoard<'_> {
    /// The letter on square `s` (upper case White, lower case Black), 0 when it is empty or
    /// off the board.
    #[inline(always)]
    pub fn at(&self, s: usize) -> u8 {
        self.cells
            .get(s)
            .map_or(0, |&c| self.letters[(c & 31) as usize])
    }
}

/// A board cell: 0 empty, else role + 1 in the low four bits and the colour in bit 4.
#[inline(always)]
pub(crate) fn cell(role: usize, color: Color) -> u8 {
    (role as u8 + 1) | ((color as u8) << 4)
}
#[inline(always)]
pub(crate) fn cell_role(c: u8) -> usize {
    ((c & 15) - 1) as usize
}
#[inline(always)]
pub(crate) fn cell_color(c: u8) -> Color {
    if c & 16 != 0 {
        Color::Black
    } else {
        Color::White
    }
}
#[inline(always)]
pub(crate) fn sqb(s: usize) -> Square {
    Square(s as u16)
}

/// One step of the board's hashes: a word mixed into the running value.
#[inline(always)]
pub(crate) fn hash_mix(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// A hash's final avalanche, so that its low bits (a table's index) depend on all.
#[inline(always)]
pub(crate) fn board_hash(mut h: u64) -> u64 {
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

impl CheopsPosition {
    /// A key of the Pawns alone, the same wherever the other pieces stand: the structure an
    /// evaluation misjudges the same way move after move. It reads no papers.
    pub fn pawn_key(&self) -> u64 {
        // Eight cells at a time, as `key` reads the board: the search asks at every static
        // score. A Pawn is the last role, so its cell's low four bits are all set (role + 1
        // = 15) and adding one to them carries into bit 4 of that byte alone.
        const _: () = assert!(PAWN == 14);
        const LOW: u64 = 0x0f0f_0f0f_0f0f_0f0f;
        const ONES: u64 = 0x0101_0101_0101_0101;
        #[inline(always)]
        fn pawns_of(w: u64) -> u64 {
            let carry = ((w & LOW) + ONES) & (ONES << 4);
            // 0xff in each Pawn's byte: its cell (colour included) is kept, the rest cleared.
            w & ((carry >> 4) * 0xff)
        }
        board_hash(self.mix_board_words(0x243f_6a88_85a3_08d3, pawns_of))
    }

    /// Mixes the board's cells into `h` eight at a time (little-endian words, the last one
    /// padded with empty cells), each word first passed through `f`: the search hashes
    /// the board at every node, so it reads words, not cells.
    #[inline(always)]
    pub(crate) fn mix_board_words(&self, mut h: u64, f: impl Fn(u64) -> u64) -> u64 {
        let n = self.rules.n;
        let mut chunks = self.board[..n * n].chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = hash_mix(h, f(u64::from_le_bytes(w)));
        }
        let mut w = [0u8; 8];
        w[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        hash_mix(h, f(u64::from_le_bytes(w)))
    }

    /// The compiled rules (style, piece table, options).
    pub fn rules(&self) -> &RulesRef {
        &self.rules
    }

    /// The board letters (upper case White, lower case Black, 0 empty) of the first
    /// `n * n` squares, written into `out` (for evaluations that scan the board).
    pub fn letters_into(&self, out: &mut [u8; MAX_SQUARES]) {
        let table = &self.rules.cell_letters;
        let len = self.rules.n * self.rules.n;
        for (o, &c) in out[..len].iter_mut().zip(&self.board[..len]) {
            *o = table[(c & 31) as usize];
        }
    }

    /// The board letters, read square by square without copying the board (for
    /// evaluations).
    #[inline]
    pub fn letter_board(&self) -> LetterBoard<'_> {
        LetterBoard {
            cells: &self.board,
            letters: &self.rules.cell_letters,
        }
    }

    /// The board's cells, square by square (the first `n * n` are used): 0 for an empty
    /// square, otherwise a code below 32 whose letter is `rules().cell_letters[code]`
    /// (what [`Self::letter_board`] reads), so evaluations can index their own tables by it.
    #[inline]
    pub fn cells(&self) -> &[u8; MAX_SQUARES] {
        &self.board
    }

    /// The occupied squares, both colours (public: every piece stands on the board string).
    #[inline]
    pub fn occupied(&self) -> Bits {
        self.occ[0] | self.occ[1]
    }

    /// The squares `color`'s pieces stand on (bastions included).
    #[inline]
    pub fn occupied_by(&self, color: Color) -> Bits {
        self.occ[color.index()]
    }

    /// The Castles, in chair order.
    pub fn castles(&self) -> &[Castle] {
        &self.castles[..self.ncastles as usize]
    }

    pub(crate) fn put(&mut self, s: usize, c: u8) {
        self.board[s] = c;
        self.occ[cell_color(c).index()].set(sqb(s));
    }

    /// Removes the piece on `s` with its deputy status.
    pub(crate) fn remove(&mut self, s: usize) -> u8 {
        let c = self.board[s];
        if c != 0 {
            self.board[s] = 0;
            self.occ[cell_color(c).index()].clear(sqb(s));
            self.known.clear(sqb(s));
            self.papers.clear(sqb(s));
        }
        c
    }

    /// Moves the piece on `from` to the empty square `to`, its deputy status with it.
    pub(crate) fn relocate(&mut self, from: usize, to: usize) {
        let c = self.board[from];
        let known = self.known.has(sqb(from));
        let paper = self.papers.has(sqb(from));
        self.remove(from);
        self.put(to, c);
        if known {
            self.known.set(sqb(to));
        }
        if paper {
            self.papers.set(sqb(to));
        }
    }

    /// Every candidate turn of the side to move except abdication, before the check test.
    pub(crate) fn candidates(&self, out: &mut Vec<CheopsMove>) {
        self.candidates_of::<true>(out);
    }

    /// [`Self::candidates`]; with `QUIET` false only the noisy ones (captures, promotions,
    /// arrests: what `is_noisy` accepts), in the same order.
    fn candidates_of<const QUIET: bool>(&self, out: &mut Vec<CheopsMove>) {
        let me = self.turn;
        let r: &Rules = &self.rules;
        let pieces = self.occ[me.index()] & !self.frozen;
        // For quiescence: the squares next to an enemy piece. A piece that can only capture
        // next to itself (most of them: Kings' steps, Pawns' diagonals) has nothing noisy
        // elsewhere, and is passed over before its role is looked at.
        let near = if QUIET {
            Bits::EMPTY
        } else {
            r.with_neighbours(self.occ[me.other().index()])
        };
        // For quiescence: a one-step promoting piece (a Pawn) has nothing noisy unless an
        // enemy piece stands next to it or it stands on or next to its last rank.
        let near_or_approach = near | r.promotion_approach[me.index()];
        // Word by word (lowest square first, as `pop_first` went): popping from the whole
        // three-word set rescanned the empty words before each piece.
        for (w, &word) in pieces.0.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let s = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let c = self.board[s];
                if !QUIET {
                    let code = c & 31;
                    if (r.adjacent_captures_only >> code & 1 != 0 && !near.has(sqb(s)))
                        || (r.adjacent_promoters >> code & 1 != 0 && !near_or_approach.has(sqb(s)))
                    {
                        continue;
                    }
                }
                let role = self.move_role(s, c);
                let start = out.len();
                self.gen_betza::<QUIET>(s, c, role, out);
                // Fewer than two moves repeat nothing (quiescence mostly adds none).
                if r.needs_dedup(role) && out.len() - start >= 2 {
                    crate::moves_and_captures::dedup_tail(out, start);
                }
                if r.is(role, class::HOP) {
                    let start = out.len();
                    self.gen_hops(s, role, out);
                    if !QUIET {
                        // Only hops that arrest are noisy.
                        let mut keep = start;
                        for i in start..out.len() {
                            if out[i].arrest_room().is_some() {
                                out[keep] = out[i];
                                keep += 1;
                            }
                        }
                        out.truncate(keep);
                    }
                }
            }
        }
        if r.style == crate::rules::Style::Imperial {
            self.gen_hall_promotions(out);
            if QUIET {
                self.gen_appointments(out);
                self.gen_inspections(out);
            }
        }
    }

    /// Every legal turn by playing each candidate on a copy (the reference for the fast
    /// test in [`Self::generate`]).
    pub fn generate_by_playing(&self, out: &mut Vec<CheopsMove>) {
        if self.draw_accepted {
            return;
        }
        let start = out.len();
        self.candidates(out);
        let mut keep = start;
        for i in start..out.len() {
            let mv = out[i];
            if self.is_legal(&mv) {
                out[keep] = mv;
                keep += 1;
            }
        }
        out.truncate(keep);
        if keep == start {
            self.gen_abdications(out);
        }
    }

    /// Every legal turn, abdication included where it is allowed (§11).
    pub(crate) fn generate(&self, out: &mut Vec<CheopsMove>) {
        if self.draw_accepted {
            return;
        }
        // Room for a typical position's turns at once, instead of growing by doubling.
        out.reserve(8 * self.rules.n);
        let start = out.len();
        self.candidates(out);
        self.keep_legal(out, start);
        if out.len() == start {
            self.gen_abdications(out);
        }
    }

    /// The legal noisy turns ([`Self::generate`]'s that `is_noisy` accepts, in its order),
    /// and whether there is any legal turn at all: quiescence searches only the noisy ones
    /// but must still see a position without turns.
    pub(crate) fn generate_noisy(&self, out: &mut Vec<CheopsMove>) -> bool {
        if self.draw_accepted {
            return false;
        }
        let start = out.len();
        self.candidates_of::<false>(out);
        self.keep_legal(out, start);
        out.len() > start || self.has_legal_turn(out)
    }

    /// Drops the candidates in `out[start..]` that leave the mover's King attacked.
    #[inline]
    fn keep_legal(&self, out: &mut Vec<CheopsMove>, start: usize) {
        // Nothing to judge (quiescence without a noisy candidate): no guard to build.
        if out.len() == start {
            return;
        }
        // Out of check, most moves' legality is known without playing them on a copy; in
        // check, most moves are known to leave it unanswered.
        let guard = self.guard();
        let evasion = match guard {
            None => self.evasion(),
            _ => None,
        };
        let mut keep = start;
        for i in start..out.len() {
            // Read in place and moved only once a move was dropped: copying every move
            // through the stack was a tenth of the search's time.
            let legal = match &evasion {
                Some(e) => match self.evasion_legality(&out[i], e) {
                    Some(known) => known,
                    None => self.is_legal_with(&out[i], &e.blocks, true),
                },
                None => self.legal_by(&out[i], guard.as_ref()),
            };
            if legal {
                if keep != i {
                    out[keep] = out[i];
                }
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    #[inline(always)]
    fn legal_by(&self, mv: &CheopsMove, guard: Option<&crate::attack_and_check::Guard>) -> bool {
        match guard {
            Some(g) => match self.quick_legality(mv, g) {
                Some(known) => known,
                None => self.is_legal_with(mv, &g.blocks, g.settled),
            },
            None => self.is_legal(mv),
        }
    }

    /// Whether any turn is legal, stopping at the first one found (`scratch` is used for
    /// the candidates and left as it was).
    fn has_legal_turn(&self, scratch: &mut Vec<CheopsMove>) -> bool {
        let start = scratch.len();
        let found = self.first_legal_turn(scratch, start);
        scratch.truncate(start);
        found
    }

    fn first_legal_turn(&self, out: &mut Vec<CheopsMove>, start: usize) -> bool {
        let guard = self.guard();
        let r: &Rules = &self.rules;
        let legal_in = |out: &mut Vec<CheopsMove>| {
            let found = out[start..]
                .iter()
                .any(|mv| self.legal_by(mv, guard.as_ref()));
            out.truncate(start);
            found
        };
        // Piece by piece: the first piece usually has a legal step.
        let mut pieces = self.occ[self.turn.index()] & !self.frozen;
        while let Some(s) = pieces.pop_first() {
            let s = s.index();
            let c = self.board[s];
            let role = self.move_role(s, c);
            self.gen_betza::<true>(s, c, role, out);
            if r.is(role, class::HOP) {
                self.gen_hops(s, role, out);
            }
            if legal_in(out) {
                return true;
            }
        }
        if r.style == crate::rules::Style::Imperial {
            self.gen_hall_promotions(out);
            self.gen_appointments(out);
            self.gen_inspections(out);
            if legal_in(out) {
                return true;
            }
        }
        self.gen_abdications(out);
        let found = out.len() > start;
        out.truncate(start);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_three_words() {
        assert_eq!(std::mem::size_of::<CheopsMove>(), 24);
        assert_eq!(std::mem::size_of::<Option<CheopsMove>>(), 24);
    }

    #[test]
    fn hop_paths_keep_every_direction_and_clear_when_taken_back() {
        // 48 hops whose directions run through all eight values at every bit offset.
        let dirs: Vec<usize> = (0..MAX_HOPS).map(|i| (i * 5 + i / 8) % 8).collect();
        let start = CheopsMove::new(TurnKind::Hop, 84, 84);
        let mut mv = start;
        for (i, &d) in dirs.iter().enumerate() {
            mv.push_hop(d, i);
        }
        assert_eq!(mv.hops as usize, MAX_HOPS);
        assert_eq!(mv.to, 47);
        for (i, &d) in dirs.iter().enumerate() {
            assert_eq!(mv.hop_direction(i), d, "hop {i}");
        }
        for i in (0..MAX_HOPS).rev() {
            mv.pop_hop(if i == 0 { 84 } else { i - 1 });
        }
        assert_eq!(mv, start);
    }

    #[test]
    fn landings_follow_the_directions() {
        // On 13x13 from g7 (84): up to g9, right to i9, down-left back to g7 over h8 (only
        // the arithmetic: no board judges the chain here).
        let mut mv = CheopsMove::new(TurnKind::Hop, 84, 84);
        mv.push_hop(0, 110);
        mv.push_hop(1, 112);
        mv.push_hop(6, 84);
        let squares: Vec<u16> = mv.landings(13).map(|s| s.0).collect();
        assert_eq!(squares, vec![110, 112, 84]);
        assert_eq!(mv.last_hopped(13), 98);
    }
}
