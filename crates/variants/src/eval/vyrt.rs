//! The Vyrt Chess evaluation, in the game's own terms: the author's value order Queen >
//! Elephant (B) > Horse (N) > Rook > Pawn (rulebook R17), attacks counted along both routes
//! round the torus, king safety by the attacked squares next to each King, and pawns
//! advancing toward their promotion rank.

use menagerie_core::{Color, Position};
use menagerie_engine::{Evaluator, Mobility};
use menagerie_vyrt::{VyrtMove, VyrtPosition};

/// The Vyrt Chess evaluation: material in the author's order, torus mobility, king safety and
/// pawn advance; every weight is data so self-play can tune it.
#[derive(Clone, Debug)]
pub struct VyrtEval {
    /// Values of Pawn, Knight (Horse), Bishop (Elephant), Rook, Queen.
    pub values: [i32; 5],
    /// Centipawns per square a piece attacks or may move to (per route).
    pub mobility: i32,
    /// Centipawns lost per attacked square next to one's King.
    pub king_zone: i32,
    /// Pawn bonus by steps still to go to the promotion rank (index 1 = one step).
    pub pawn_advance: [i32; 12],
    /// The material lead (centipawns) from which the leading side is driven to convert: a
    /// King and Queen cannot mate a lone King on the torus (vyrt.md), so a won game needs
    /// more material, and without a drive every quiet move of such a game scored the same.
    pub mop_up_lead: i32,
    /// Centipawns per step the leader's King stands nearer the other King (torus distance,
    /// 6 at most), at a lead of `mop_up_lead`; up to four times that at four times the lead.
    pub mop_up: i32,
    /// Centipawns per push a Pawn of the leader has made (11 pushes to go counts nothing):
    /// far ahead, every Pawn step towards a new Queen is progress.
    pub mop_up_pawn: i32,
    /// Whether the search uses the three aids measured in chess: a correction history keyed
    /// by the Pawns, singular extensions from depth 6 and aspiration windows of ±30 cp (on:
    /// measured to gain here too, docs/engine.md, "The chess search's aids in Vyrt and
    /// Common").
    pub search_aids: bool,
}

impl Default for VyrtEval {
    fn default() -> Self {
        VyrtEval {
            values: [100, 450, 600, 420, 1000],
            // Fitted twice to self-play (issue 34, `tune_weights vyrt`): 600 games with the
            // search's scores as labels, then 1,200 (600 more played with that fit) with
            // three quarters scores and a quarter results (docs/engine.md, "Vyrt's second
            // fit").
            mobility: 3,
            king_zone: 7,
            pawn_advance: [0, 214, 82, 40, 22, 23, 13, 5, 9, 0, 0, 0],
            mop_up_lead: 476,
            mop_up: 22,
            // Not fitted: the fit took the Pawns' drive to 0, which left more games unended;
            // ramped from the drive's lead, 8 costs nothing (+3 ± 32 Elo) and ends more.
            mop_up_pawn: 8,
            search_aids: true,
        }
    }
}

impl VyrtEval {
    /// The value of a unit by its board letter (either case); the King counts nothing.
    pub fn value(&self, c: char) -> i32 {
        match c.to_ascii_uppercase() {
            'P' => self.values[0],
            'N' => self.values[1],
            'B' => self.values[2],
            'R' => self.values[3],
            'Q' => self.values[4],
            _ => 0,
        }
    }

    /// The evaluation from White's point of view, from the board's counts
    /// ([`VyrtPosition::eval_terms`]).
    fn white_score(&self, pos: &VyrtPosition) -> i32 {
        let terms = pos.eval_terms();
        let mut score = [0i32; 2];
        for (side, t) in terms.iter().enumerate() {
            let mut s = 0;
            for (value, n) in self.values.iter().zip(t.units) {
                s += value * n;
            }
            for (bonus, n) in self.pawn_advance.iter().zip(t.pawns_by_steps) {
                s += bonus * n;
            }
            s += self.mobility * t.reach;
            if t.has_king {
                let hits = t.king_zone_hits;
                // Attacks on the King's neighbourhood grow worse faster than linearly.
                s -= self.king_zone * hits + hits * hits * self.king_zone / 4;
                s += 4 * t.shelter.min(5);
            }
            score[side] = s;
        }
        let material = |t: &menagerie_vyrt::SideTerms| -> i32 {
            self.values.iter().zip(t.units).map(|(v, n)| v * n).sum()
        };
        let lead = material(&terms[0]) - material(&terms[1]);
        let mut total = score[0] - score[1];
        if lead.abs() >= self.mop_up_lead && terms.iter().all(|t| t.has_king) {
            let strong = usize::from(lead < 0);
            let own = self.mop_up_score(pos, lead.abs(), &terms[strong]);
            total += if strong == 0 { own } else { -own };
        }
        total
    }

    /// The drive of the side ahead by `lead` (whose counts are `terms`): its King nearer
    /// the other (torus distance, scaled with the lead) and its Pawns' pushes made.
    fn mop_up_score(
        &self,
        pos: &VyrtPosition,
        lead: i32,
        terms: &menagerie_vyrt::SideTerms,
    ) -> i32 {
        let (Some(w), Some(b)) = (pos.king_square(Color::White), pos.king_square(Color::Black))
        else {
            return 0;
        };
        let (w, b) = (w.index(), b.index());
        let torus = |a: usize, b: usize| {
            let d = a.abs_diff(b);
            d.min(12 - d) as i32
        };
        let apart = torus(w % 12, b % 12).max(torus(w / 12, b / 12));
        let lead = lead.min(4 * self.mop_up_lead);
        let near = self.mop_up * (6 - apart) * (64 * lead / self.mop_up_lead.max(1)) / 64;
        let pushes: i32 = terms
            .pawns_by_steps
            .iter()
            .enumerate()
            .map(|(steps, n)| (11 - steps as i32) * n)
            .sum();
        // The Pawns' drive grows from nothing at the lead that starts the drive, so that
        // crossing that lead is not worth a jump of hundreds of centipawns (a jump cost
        // 42 Elo; the ramp none, docs/engine.md, "Vyrt's Pawns driven again").
        let over = lead - self.mop_up_lead;
        near + self.mop_up_pawn * pushes * over / self.mop_up_lead.max(1)
    }
}

impl VyrtEval {
    /// The terms' score for the side to move, with a small bonus for having the move.
    fn mover_terms(&self, pos: &VyrtPosition) -> i32 {
        let s = self.white_score(pos);
        10 + if pos.turn() == Color::White { s } else { -s }
    }
}

impl Evaluator<VyrtPosition> for VyrtEval {
    fn evaluate(&self, pos: &VyrtPosition, _mobility: Mobility) -> i32 {
        // The learnt correction (issue 34), 0 unless the variant's network is on.
        self.mover_terms(pos) + super::net::vyrt(pos)
    }

    fn evaluate_within(&self, pos: &VyrtPosition, _mobility: Mobility, lo: i32, hi: i32) -> i32 {
        // The network moves the terms by at most its limit: beyond that from the window,
        // the side is known without it (two thirds of the stand-pat evaluations of a Vyrt
        // middlegame, 2026-11-30).
        let limit = super::net::vyrt_limit();
        super::corrected_within(self.mover_terms(pos), limit, lo, hi, || {
            super::net::vyrt(pos)
        })
    }

    fn move_hint(&self, pos: &VyrtPosition, mv: VyrtMove) -> i32 {
        let victim = if mv.is_en_passant() {
            self.values[0]
        } else {
            pos.unit_at(mv.to()).map_or(0, |c| self.value(c))
        };
        let attacker = pos.unit_at(mv.from()).map_or(0, |c| self.value(c));
        let promo = mv.promotion().map_or(0, |c| self.value(c) - self.values[0]);
        16 * victim + promo - attacker / 16
    }

    fn gain(&self, pos: &VyrtPosition, mv: VyrtMove) -> Option<i32> {
        let victim = if mv.is_en_passant() {
            self.values[0]
        } else {
            pos.unit_at(mv.to()).map_or(0, |c| self.value(c))
        };
        Some(victim + mv.promotion().map_or(0, |c| self.value(c) - self.values[0]))
    }

    fn material(&self, pos: &VyrtPosition) -> i32 {
        let us = pos.turn();
        let mut total = 0;
        for c in pos.letters() {
            if c != 0 {
                let c = c as char;
                let v = self.value(c);
                total += if c.is_ascii_uppercase() == (us == Color::White) {
                    v
                } else {
                    -v
                };
            }
        }
        total
    }

    fn uses_mobility(&self) -> bool {
        false
    }

    fn correction_key(&self, pos: &VyrtPosition) -> Option<u64> {
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
        root: &VyrtPosition,
        earlier: &[(VyrtPosition, VyrtMove)],
        moves: &[VyrtMove],
    ) -> Vec<(VyrtMove, i32)> {
        // A plain move (no castling, en passant or promotion) as from and to squares.
        let plain = |m: VyrtMove| {
            (!m.is_castling() && !m.is_en_passant() && m.promotion().is_none())
                .then(|| (m.from(), m.to()))
        };
        moves
            .iter()
            .filter(|&&m| plain(m).is_some_and(|sq| super::steps_back(root, earlier, sq, plain)))
            .map(|&m| (m, super::IDLE_MARGIN))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_core::Square;

    const N: usize = 144;
    const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
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
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];

    #[inline]
    fn sq(x: i32, y: i32) -> usize {
        (12 * y.rem_euclid(12) + x.rem_euclid(12)) as usize
    }

    /// The evaluation as it was written before the torus tables.
    fn by_walking(e: &VyrtEval, pos: &VyrtPosition) -> i32 {
        let this = e;
        let mut board = [0u8; N];
        for (i, cell) in board.iter_mut().enumerate() {
            if let Some(c) = pos.unit_at(Square(i as u16)) {
                *cell = c as u8;
            }
        }
        let mut attacked = [[0u8; N]; 2];
        let mut score = [0i32; 2];
        let mut kings = [usize::MAX; 2];
        for (s, &c) in board.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let c = c as char;
            let side = usize::from(c.is_ascii_lowercase());
            let (x, y) = ((s % 12) as i32, (s / 12) as i32);
            score[side] += this.value(c);
            let mut reach = 0;
            let mut ray = |dirs: &[(i32, i32)], att: &mut [u8; N]| {
                for &(dx, dy) in dirs {
                    for k in 1..12 {
                        let t = sq(x + dx * k, y + dy * k);
                        if t == s {
                            break;
                        }
                        att[t] = att[t].saturating_add(1);
                        reach += 1;
                        if board[t] != 0 {
                            break;
                        }
                    }
                }
            };
            match c.to_ascii_uppercase() {
                'P' => {
                    let color = if side == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let steps = pos.pawn_steps_to_promotion(color, Square(s as u16));
                    score[side] += this.pawn_advance[(steps as usize).min(11)];
                    for t in pos.pawn_capture_squares(color, Square(s as u16)) {
                        let t = t.index();
                        attacked[side][t] = attacked[side][t].saturating_add(1);
                    }
                }
                'N' => {
                    for &(dx, dy) in &KNIGHT {
                        let t = sq(x + dx, y + dy);
                        attacked[side][t] = attacked[side][t].saturating_add(1);
                    }
                    reach += 8;
                }
                'B' => ray(&BISHOP_DIRS, &mut attacked[side]),
                'R' => ray(&ROOK_DIRS, &mut attacked[side]),
                'Q' => {
                    ray(&ROOK_DIRS, &mut attacked[side]);
                    ray(&BISHOP_DIRS, &mut attacked[side]);
                    reach /= 2;
                }
                'K' => kings[side] = s,
                _ => {}
            }
            score[side] += this.mobility * reach;
        }
        for side in 0..2 {
            let k = kings[side];
            if k == usize::MAX {
                continue;
            }
            let (x, y) = ((k % 12) as i32, (k / 12) as i32);
            let enemy = &attacked[1 - side];
            let mut hits = 0;
            let mut shelter = 0;
            for &(dx, dy) in &KING {
                let t = sq(x + dx, y + dy);
                hits += i32::from(enemy[t].min(2));
                let c = board[t];
                if c != 0 && usize::from((c as char).is_ascii_lowercase()) == side {
                    shelter += 1;
                }
            }
            // Attacks on the King's neighbourhood grow worse faster than linearly.
            score[side] -= this.king_zone * hits + hits * hits * this.king_zone / 4;
            score[side] += 4 * shelter.min(5);
        }
        score[0] - score[1]
    }

    /// The board's counts ([`VyrtPosition::eval_terms`]: line look-ups, attacks counted
    /// next to the Kings only) give the same score as walking every ray, over random games
    /// under every reading of the pawn rules.
    #[test]
    fn board_counts_agree_with_walking_the_board() {
        use menagerie_vyrt::Rules;
        // The mop-up, newer than the walking code, is left out (tested on its own).
        let e = VyrtEval {
            mop_up_lead: i32::MAX,
            ..VyrtEval::default()
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let reach_only = VyrtEval {
            values: [0; 5],
            mobility: 1,
            king_zone: 0,
            pawn_advance: [0; 12],
            ..e.clone()
        };
        let kings_only = VyrtEval {
            mobility: 0,
            king_zone: 16,
            ..reach_only.clone()
        };
        let mut compared = 0;
        let mut zone_hits = 0;
        for game in 0..40 {
            let rules = Rules {
                double_step_any_unmoved: game % 2 == 1,
                reversed_back_pawns: game % 4 >= 2,
            };
            let mut pos = VyrtPosition::start(rules);
            for _ in 0..120 {
                let letters = pos.letters();
                for (i, &c) in letters.iter().enumerate() {
                    assert_eq!(pos.unit_at(Square(i as u16)).map_or(0, |c| c as u8), c);
                }
                // Each term alone as well, so that errors cannot cancel out.
                for e in [&e, &reach_only, &kings_only] {
                    assert_eq!(e.white_score(&pos), by_walking(e, &pos), "{}", pos.fen());
                }
                compared += 1;
                zone_hits += pos
                    .eval_terms()
                    .iter()
                    .map(|t| t.king_zone_hits)
                    .sum::<i32>();
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
            }
        }
        assert!(compared > 2000, "{compared}");
        // The random games do attack the Kings' neighbourhoods.
        assert!(zone_hits > 1000, "{zone_hits}");
    }

    #[test]
    fn start_is_balanced_and_value_order_is_the_authors() {
        let e = VyrtEval::default();
        let start = VyrtPosition::start(Default::default());
        assert_eq!(e.white_score(&start), 0);
        assert_eq!(e.material(&start), 0);
        assert!(e.value('Q') > e.value('B'));
        assert!(e.value('B') > e.value('N'));
        assert!(e.value('N') > e.value('R'));
        assert!(e.value('R') > e.value('P'));
    }

    #[test]
    fn pawn_advance_follows_the_pawn_rules_in_force() {
        use menagerie_vyrt::Rules;
        let rulings = VyrtPosition::start(Rules::default());
        let reversed = VyrtPosition::start(Rules {
            reversed_back_pawns: true,
            ..Rules::default()
        });
        // The rulings: White walks up to row y 9 (rank 8), Black down to y 2 (rank 1).
        for s in 0..N {
            let y = (s / 12) as i32;
            let sq = Square(s as u16);
            let white = rulings.pawn_steps_to_promotion(Color::White, sq);
            let black = rulings.pawn_steps_to_promotion(Color::Black, sq);
            assert_eq!(white as i32, (9 - y).rem_euclid(12));
            assert_eq!(black as i32, (y - 2).rem_euclid(12));
        }
        // `reversed-back-pawns`: a White pawn on y 1 walks down, 1 → 0 → 11 → 10 → 9.
        let e1 = Square(12 + 4);
        assert_eq!(rulings.pawn_steps_to_promotion(Color::White, e1), 8);
        assert_eq!(reversed.pawn_steps_to_promotion(Color::White, e1), 4);
        let down = reversed.pawn_capture_squares(Color::White, e1);
        assert_eq!(down.map(|t| t.index() / 12), [0, 0]);
        let up = rulings.pawn_capture_squares(Color::White, e1);
        assert_eq!(up.map(|t| t.index() / 12), [2, 2]);
    }

    /// Far ahead, the leader's King nearer the other King (torus distance) and its Pawns'
    /// pushes score exactly the mop-up terms; below the lead nothing is added.
    #[test]
    fn a_clear_lead_brings_the_king_near_and_pawns_on() {
        let e = VyrtEval::default();
        let none = VyrtEval {
            mop_up: 0,
            mop_up_pawn: 0,
            ..VyrtEval::default()
        };
        let no_pawn = VyrtEval {
            mop_up_pawn: 0,
            ..VyrtEval::default()
        };
        let at = |e: &VyrtEval, rows: [&str; 12]| {
            let fen = format!("{} w - - - 0 1", rows.join("/"));
            let p = VyrtPosition::from_fen(&fen, Default::default())
                .unwrap_or_else(|err| panic!("{fen}: {err:?}"));
            e.white_score(&p)
        };
        let board = |king_row: usize, king: &'static str, pawn: bool| {
            let mut rows = ["12"; 12];
            rows[0] = "k11";
            rows[7] = "7R4";
            rows[8] = "5Q6";
            rows[11 - king_row] = king;
            if pawn {
                rows[11 - 4] = "7R1P2";
            }
            rows
        };
        // The Kings 6 apart both ways round (the farthest on the torus): nothing for them.
        let far = board(5, "6K5", false);
        assert_eq!(at(&e, far), at(&none, far));
        // The weight scaled by the lead over `mop_up_lead`, in 64ths, four times at most.
        let scale = |lead: i32| 64 * lead.min(4 * e.mop_up_lead) / e.mop_up_lead;
        assert!(1420 < 4 * e.mop_up_lead && 420 < e.mop_up_lead);
        // 2 apart, a Rook and a Queen ahead (420 + 1000): (6 - 2) steps at 1420 of the lead.
        let near = board(9, "2K9", false);
        assert_eq!(
            at(&e, near) - at(&none, near),
            e.mop_up * 4 * scale(1420) / 64
        );
        // A White Pawn on row 4 has 5 pushes to go, so 6 made; the Pawns' term grows with
        // the lead over `mop_up_lead`: at a lead of 1520 (Rook, Queen and Pawn) over 400,
        // 5 a push makes 5 * 6 * 1120 / 400 = 84.
        let with_lead = |mop_up_lead: i32, mop_up_pawn: i32| VyrtEval {
            mop_up_lead,
            mop_up_pawn,
            ..VyrtEval::default()
        };
        let pawn = board(9, "2K9", true);
        assert_eq!(
            at(&with_lead(400, 5), pawn) - at(&with_lead(400, 0), pawn),
            84
        );
        assert_eq!(
            at(&e, pawn) - at(&no_pawn, pawn),
            e.mop_up_pawn * 6 * (1520 - e.mop_up_lead) / e.mop_up_lead
        );
        // Without the Queen the lead is 520: nothing from the Pawn when the drive starts
        // there (no jump at the drive's lead), 5 * 6 when it starts at 260.
        let mut rook_pawn = pawn;
        rook_pawn[8] = "12";
        assert_eq!(
            at(&with_lead(520, 5), rook_pawn),
            at(&with_lead(520, 0), rook_pawn)
        );
        assert_eq!(
            at(&with_lead(260, 5), rook_pawn) - at(&with_lead(260, 0), rook_pawn),
            30
        );
        // A Rook (420) ahead only: 2 apart, but the lead is below `mop_up_lead`: nothing;
        // with the lead lowered to the Rook, the drive at 420 of the lead.
        let mut rook = board(9, "2K9", false);
        rook[8] = "12";
        assert_eq!(at(&e, rook), at(&none, rook));
        let low = VyrtEval {
            mop_up_lead: 420,
            ..VyrtEval::default()
        };
        let low_none = VyrtEval {
            mop_up: 0,
            mop_up_pawn: 0,
            ..low.clone()
        };
        assert_eq!(at(&low, rook) - at(&low_none, rook), low.mop_up * 4);
        // Level material: nothing.
        let mut even = board(9, "2K9", false);
        even[8] = "12";
        even[3] = "5r6";
        assert_eq!(at(&e, even), at(&none, even));
    }

    /// The same position with the colours exchanged (rows mirrored, y to 11 - y, which
    /// exchanges the promotion rows; letters' case swapped; the other side to move) scores
    /// the same for the side to move, over positions of random games.
    #[test]
    fn the_evaluation_is_symmetric() {
        let e = VyrtEval::default();
        let board_of = |fen: &str| fen.split(' ').next().unwrap_or("").to_string();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let mut seed = 0x0bad_5eed_8765_4321u64;
        let (mut compared, mut far_ahead) = (0, 0);
        for _ in 0..30 {
            let mut pos = VyrtPosition::start(Default::default());
            for _ in 0..150 {
                let board = board_of(&pos.fen());
                let mirrored: Vec<String> = board
                    .split('/')
                    .rev()
                    .map(|r| r.chars().map(swap).collect())
                    .collect();
                let (fen, mirror_fen) = (
                    format!(
                        "{board} {} - - - 0 1",
                        if pos.turn() == Color::White { "w" } else { "b" }
                    ),
                    format!(
                        "{} {} - - - 0 1",
                        mirrored.join("/"),
                        if pos.turn() == Color::White { "b" } else { "w" }
                    ),
                );
                if let (Ok(a), Ok(b)) = (
                    VyrtPosition::from_fen(&fen, Default::default()),
                    VyrtPosition::from_fen(&mirror_fen, Default::default()),
                ) {
                    let mobility = Mobility {
                        own: 0,
                        other: None,
                    };
                    assert_eq!(e.evaluate(&a, mobility), e.evaluate(&b, mobility), "{fen}");
                    assert_eq!(e.white_score(&a), -e.white_score(&b), "{fen}");
                    compared += 1;
                    far_ahead += usize::from(e.material(&a).abs() >= e.mop_up_lead);
                }
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
            }
        }
        assert!(compared > 1000 && far_ahead > 200, "{compared} {far_ahead}");
    }
}
