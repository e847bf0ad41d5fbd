//! Dead positions (§7.3, R16): material with which neither side can ever checkmate on the
//! torus; a draw at once in play (move lists and perft ignore it).

use super::*;

impl VyrtPosition {
    /// Whether the material is one of the dead positions of §7.3.
    pub(crate) fn is_dead(&self) -> bool {
        // Every dead position has a bare King; with men besides the King on both sides the
        // board need not be read (the search asks at every node).
        let several = |c: usize| {
            let w = self.units[c].0;
            w.iter().filter(|&&x| x != 0).count() > 1
                || w.iter().any(|&x| x & x.wrapping_sub(1) != 0)
        };
        if several(0) && several(1) {
            return false;
        }
        let mut count = [[0u8; 8]; 2];
        let mut bishop_colour = [[false; 2]; 2];
        for s in 0..N {
            let code = self.board[s];
            if code != 0 {
                let (c, k) = ((code >> 3) as usize, (code & 7) as usize);
                count[c][k] += 1;
                if k == BISHOP as usize {
                    bishop_colour[c][(s % 12 + s / 12) % 2] = true;
                }
            }
        }
        let bare = |c: usize| count[c][1..6].iter().all(|&x| x == 0);
        let weak = |c: usize| {
            let m = &count[c];
            let (p, n, b, r, q) = (m[1], m[2], m[3], m[4], m[5]);
            let others = n + b + r + q;
            p == 0
                && (others <= 1
                    || (others == 2 && n == 2)
                    || (others == 2 && b == 1 && n == 1)
                    || (others == 2 && r == 1 && n == 1)
                    || (others == 2 && b == 2 && !(bishop_colour[c][0] && bishop_colour[c][1])))
        };
        (bare(0) && weak(1)) || (bare(1) && weak(0))
    }
}
