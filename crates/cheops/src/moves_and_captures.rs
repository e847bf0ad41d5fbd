//! Moving and capturing by the Betza definitions (rulebook §5, 7.2): steps, leaps, riders,
//! and the Master's screen capture (a `p` component moves and captures over exactly one
//! screen); what may be captured (7.2: never a King, a bastion, a Civilian or an unknown
//! Deputy).

use crate::order_of_events::TurnEffects;
use crate::pieces::{class, CIVILIAN, DEPUTY, KING};
use crate::position::{cell, cell_color, cell_role, sqb, CheopsMove, CheopsPosition, NONE};
use crate::rules::{Bits, Rules, LEG_CAPTURES, LEG_HOPPER, LEG_MOVES, LEG_RECT, LEG_RIDER};
use menagerie_core::{BitBoard, Color};

impl CheopsPosition {
    /// Whether the piece on `t` may be captured by the side to move (7.2): not a King, not a
    /// bastion, not a Civilian or a Deputy that is not known.
    #[inline(always)]
    pub(crate) fn capturable(&self, t: usize, mover: Color) -> bool {
        let c = self.board[t];
        if c == 0 || cell_color(c) == mover || self.bastions.has(sqb(t)) {
            return false;
        }
        let mut role = cell_role(c);
        if role == CIVILIAN && self.known.has(sqb(t)) {
            role = DEPUTY;
        }
        !self.rules.is(role, class::ROYAL | class::NEVER_CAPTURED)
    }

    /// The moves and captures of the piece `c` on `s` moving as `role`; with `QUIET` false
    /// only the noisy ones (captures and promotions, for quiescence), in the same order.
    // Inlined into the loop over the pieces: a call per piece paid its set-up each time.
    #[inline(always)]
    pub(crate) fn gen_betza<const QUIET: bool>(
        &self,
        s: usize,
        c: u8,
        role: usize,
        out: &mut Vec<CheopsMove>,
    ) {
        let r: &Rules = &self.rules;
        let me = self.turn;
        let promotes = r.is(cell_role(c), class::PROMOTES);
        // For quiescence: when no step of the piece lands on an enemy piece nor (for a
        // promoting piece) on the last rank, no step is noisy, and a piece without riding
        // components has nothing to give at all (most Pawns and steppers, most nodes): it
        // is left before the Castles are looked at.
        let quiet_steps = !QUIET && {
            let steps = r.step_targets[me.index()][role * r.n * r.n + s];
            (steps & self.occ[me.other().index()]).is_empty()
                && (!promotes || (steps & r.last_rank_squares[me.index()]).is_empty())
        };
        if quiet_steps && !r.rides[role] {
            return;
        }
        let passes = r.is(role, class::PASSES_CASTLES);
        let closed = self.closed_for(s, passes);
        // With no Castle closed to this piece no leg can be closed (most positions).
        let open = closed.is_empty();
        let act_bastions = if self.any_active() {
            self.active_bastions()
        } else {
            Bits::EMPTY
        };
        let last_rank = r.last_rank(cell_color(c));
        let emit = |t: usize, capture: bool, out: &mut Vec<CheopsMove>| {
            // A step to an empty square is noisy only as a promotion on the last rank (the
            // halls promote by capture alone).
            let noisy = capture || (promotes && r.rank[t] == last_rank);
            if !QUIET && !noisy {
                return;
            }
            // A step to an empty square short of the last rank promotes nowhere (the halls
            // promote by capture alone): pushed here, without the call.
            if promotes && (capture || r.rank[t] == last_rank) {
                self.emit(s, t, c, capture, out);
            } else {
                out.push(CheopsMove::new(crate::position::TurnKind::Move, s, t));
            }
        };
        // For quiescence, when no step can be noisy, no Castle is closed to the piece and
        // it does not promote, only its riding legs that capture can give anything: the
        // others are not walked at all.
        let legs = if !QUIET && quiet_steps && open && !promotes {
            r.capture_rides_of(role, me, s)
        } else {
            r.legs_of(role, me, s)
        };
        for leg in legs {
            let rect = leg.flags & LEG_RECT != 0;
            let (moves, captures) = (leg.flags & LEG_MOVES != 0, leg.flags & LEG_CAPTURES != 0);
            if leg.flags & LEG_RIDER == 0 {
                if quiet_steps {
                    continue;
                }
                let t = leg.first as usize;
                if !open && self.leg_closed(s, t, &closed, rect) {
                    continue;
                }
                if self.board[t] == 0 {
                    if moves {
                        emit(t, false, out);
                    }
                } else if captures && self.capturable(t, me) && !self.chair_shielded(s, t, passes) {
                    emit(t, true, out);
                }
                continue;
            }
            let squares = r.leg_squares(leg);
            let hopper = leg.flags & LEG_HOPPER != 0;
            if !QUIET && open && !promotes {
                // Captures only, no Castle closed to the piece and no promotion: only the
                // first piece on the line matters (a hopper's screen, then the piece past
                // it); scanning for it was most of quiescence's move generation.
                if !captures {
                    continue;
                }
                // Most rays end at once on a piece (an own one mostly): read from the leg.
                let first = leg.first as usize;
                if !hopper && self.board[first] != 0 {
                    if self.capturable(first, me) && !self.chair_shielded(s, first, passes) {
                        emit(first, true, out);
                    }
                    continue;
                }
                let mut pieces = squares
                    .iter()
                    .map(|&t| t as usize)
                    .filter(|&t| self.board[t] != 0);
                let Some(mut t) = pieces.next() else {
                    continue;
                };
                if hopper {
                    if act_bastions.has(sqb(t)) {
                        continue;
                    }
                    let Some(past) = pieces.next() else {
                        continue;
                    };
                    t = past;
                }
                if self.capturable(t, me) && !self.chair_shielded(s, t, passes) {
                    emit(t, true, out);
                }
                continue;
            }
            let mut prev = s;
            let mut screened = false;
            for &t in squares {
                let t = t as usize;
                if !open && self.leg_closed(prev, t, &closed, rect) {
                    break;
                }
                let occupied = self.board[t] != 0;
                if hopper && !screened {
                    if occupied {
                        if act_bastions.has(sqb(t)) {
                            break;
                        }
                        screened = true;
                    }
                } else if !occupied {
                    if moves {
                        emit(t, false, out);
                    }
                } else {
                    if captures && self.capturable(t, me) && !self.chair_shielded(s, t, passes) {
                        emit(t, true, out);
                    }
                    break;
                }
                prev = t;
            }
        }
    }

    /// Step 1 of a move or capture by the Betza definition, promotion included (7.2, 8.1);
    /// a sealed Deputy's step that a Civilian could not make compromises it (10.3).
    #[inline]
    pub(crate) fn move_or_capture(&mut self, mv: &CheopsMove, turn: &mut TurnEffects) {
        let me = self.turn;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let role = cell_role(self.board[from]);
        if self.board[to] != 0 {
            self.remove(to);
            turn.left[0] = to;
            turn.reset = true;
        }
        if self.papers.has(sqb(from))
            && !self.rules.deputy_steps_like_civilian
            && !self.civilian_could(from, to)
        {
            self.papers.clear(sqb(from));
            self.known.set(sqb(from));
        }
        self.relocate(from, to);
        if self.rules.is(role, class::PROMOTES) {
            turn.reset = true;
        }
        if mv.promo != NONE {
            self.board[to] = cell(mv.promo as usize, me);
        }
        if role == KING {
            self.kings[me.index()] = to as u8;
        }
        turn.moved = Some((from, to, self.rules.is(role, class::NOBILITY)));
        turn.change(from);
        turn.change(to);
    }
}

/// Removes repeated moves from `out[start..]` (pieces whose Betza components overlap).
pub(crate) fn dedup_tail(out: &mut Vec<CheopsMove>, start: usize) {
    // Equal moves land on the same square: when no landing square repeats (most pieces,
    // most positions) nothing is repeated, and the quadratic scan below is skipped.
    let mut seen = Bits::EMPTY;
    let mut repeats = false;
    for m in &out[start..] {
        let t = sqb(usize::from(m.to));
        if seen.has(t) {
            repeats = true;
            break;
        }
        seen.set(t);
    }
    if !repeats {
        return;
    }
    let mut keep = start;
    for i in start..out.len() {
        let m = out[i];
        if !out[start..keep].contains(&m) {
            out[keep] = m;
            keep += 1;
        }
    }
    out.truncate(keep);
}
