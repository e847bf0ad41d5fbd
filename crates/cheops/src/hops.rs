//! Jumps (rulebook 7.3): a Deputy's hop chains over adjacent pieces, and the arrest its
//! last hop may make (10.5), the arrestee carried to an empty room of its side's Castle.

use crate::order_of_events::{Arrest, TurnEffects};
use crate::pieces::{class, KING};
use crate::position::{
    cell_color, cell_role, sqb, CheopsMove, CheopsPosition, TurnKind, ARREST_PENDING, MAX_HOPS,
    NONE,
};
use crate::rules::{Bits, Rules};
use menagerie_core::geometry::{Offset, KING as HOP_DIRECTIONS};
use menagerie_core::{BitBoard, Color};

impl CheopsPosition {
    /// Hop chains (7.3) and arrests (10.5) of the hopping piece on `s`.
    pub(crate) fn gen_hops(&self, s: usize, role: usize, out: &mut Vec<CheopsMove>) {
        let r: &Rules = &self.rules;
        let passes = r.is(role, class::PASSES_CASTLES);
        let arrests = r.is(role, class::ARREST);
        let act_bastions = self.active_bastions();
        let mut mv = CheopsMove::new(TurnKind::Hop, s, s);
        let mut visited = Bits::EMPTY;
        self.hop_from(
            s,
            s,
            passes,
            arrests,
            &act_bastions,
            &mut mv,
            &mut visited,
            out,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn hop_from(
        &self,
        start: usize,
        cur: usize,
        passes: bool,
        arrests: bool,
        act_bastions: &Bits,
        mv: &mut CheopsMove,
        visited: &mut Bits,
        out: &mut Vec<CheopsMove>,
    ) {
        let r: &Rules = &self.rules;
        let me = self.turn;
        // Castle rules are judged from the square each hop starts from (7.3).
        let closed = self.closed_for(cur, passes);
        let (f, rk) = (r.file[cur] as i32, r.rank[cur] as i32);
        for (dir, &Offset { dx, dy }) in HOP_DIRECTIONS.iter().enumerate() {
            let (dx, dy) = (dx as i32, dy as i32);
            let (Some(mid), Some(land)) = (r.sq(f + dx, rk + dy), r.sq(f + 2 * dx, rk + 2 * dy))
            else {
                continue;
            };
            // The starting square counts as empty during the chain.
            if mid == start || self.board[mid] == 0 || act_bastions.has(sqb(mid)) {
                continue;
            }
            if self.board[land] != 0 || visited.has(sqb(land)) {
                continue;
            }
            if closed.has(sqb(mid)) || closed.has(sqb(land)) {
                continue;
            }
            if mv.hops as usize >= MAX_HOPS {
                continue;
            }
            mv.push_hop(dir, land);
            visited.set(sqb(land));
            out.push(*mv);
            if arrests && self.arrestable(mid, me) {
                let mut pending = *mv;
                pending.room = ARREST_PENDING;
                let mut sim = self.clone();
                sim.apply(&pending);
                for castle in sim.castles() {
                    if !castle.active || castle.owner != me {
                        continue;
                    }
                    for (i, h) in r.halls(castle.chair as usize).into_iter().enumerate() {
                        if i != 2 && sim.board[h] == 0 {
                            let mut a = *mv;
                            a.room = h as u8;
                            out.push(a);
                        }
                    }
                }
            }
            self.hop_from(start, land, passes, arrests, act_bastions, mv, visited, out);
            visited.clear(sqb(land));
            mv.pop_hop(cur);
        }
    }

    /// Whether the piece on `t` may be arrested by `mover` (10.5): an active enemy piece,
    /// not a King and not an Assassin.
    pub(crate) fn arrestable(&self, t: usize, mover: Color) -> bool {
        let c = self.board[t];
        c != 0
            && cell_color(c) != mover
            && !self.frozen.has(sqb(t))
            && !self
                .rules
                .is(cell_role(c), class::ROYAL | class::NEVER_ARRESTED)
    }

    /// Step 1 of a hop chain (7.3), which compromises the Deputy (10.3); its last hop may
    /// arrest the piece hopped, carried to its room at step 5 (10.5).
    #[inline]
    pub(crate) fn hop_chain(&mut self, mv: &CheopsMove, turn: &mut TurnEffects) {
        let me = self.turn;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let role = cell_role(self.board[from]);
        self.relocate(from, to);
        if self.papers.has(sqb(to)) {
            self.papers.clear(sqb(to));
            self.known.set(sqb(to));
        }
        if role == KING {
            self.kings[me.index()] = to as u8;
        }
        turn.moved = Some((from, to, self.rules.is(role, class::NOBILITY)));
        turn.change(from);
        turn.change(to);
        if mv.room != NONE {
            let mid = mv.last_hopped(self.rules.n);
            let known = self.known.has(sqb(mid));
            let papers = self.papers.has(sqb(mid));
            let piece = self.remove(mid);
            turn.left[0] = mid;
            turn.change(mid);
            turn.reset = true;
            if mv.room != ARREST_PENDING {
                turn.arrest = Some(Arrest {
                    piece,
                    known,
                    papers,
                    room: mv.room as usize,
                });
            }
        }
    }

    /// Step 5: the arrested piece is carried to its room, its papers with it (10.5).
    #[inline]
    pub(crate) fn carry_to_room(&mut self, arrest: Arrest) {
        self.put(arrest.room, arrest.piece);
        if arrest.known {
            self.known.set(sqb(arrest.room));
        }
        if arrest.papers {
            self.papers.set(sqb(arrest.room));
        }
    }
}
