//! The Little Cheops evaluation (Common and Imperial), in the game's own terms: material
//! (Civilians and the Deputies hidden among them are never captured, so they count
//! nothing; Dukes are worth more, since a Duke lets a mated King abdicate), Masters that
//! threaten a capture over a screen, Pawns nearing promotion, active Castles owned, and the
//! King's shelter. The evaluation reads only the board letters and the public Castles, never
//! the sealed papers, so it is the same for every hypothesis about the opponent's secret.

use menagerie_cheops::{CheopsMove, CheopsPosition, TurnKind};
use menagerie_core::{Color, Position, Square};
use menagerie_engine::{Evaluator, Mobility};

/// Little Cheops' largest board (Imperial, 13x13).
const MAX: usize = 169;

/// The Little Cheops evaluation; every weight is data so self-play can tune it.
#[derive(Clone, Debug)]
pub struct CheopsEval {
    /// `(letter, value)` for each piece, upper case; letters not listed use `default`.
    pub values: [(char, i32); 15],
    /// The value of a letter missing from the table.
    pub default: i32,
    /// Pawn bonus by steps still to go to the last rank (index 1 = one step).
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
    /// closeness of the two Kings).
    pub mop_up: i32,
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
            pawn_advance: [0, 200, 90, 45, 20, 8, 3, 0, 0, 0, 0, 0, 0],
            castle: 60,
            shelter: 6,
            king_danger: 12,
            master_threat: 8,
            centre: 3,
            mop_up_lead: 400,
            mop_up: 6,
        }
    }
}

impl CheopsEval {
    /// The value of a piece by its board letter (either case).
    pub fn value(&self, c: char) -> i32 {
        let up = c.to_ascii_uppercase();
        self.values
            .iter()
            .find(|&&(l, _)| l == up)
            .map_or(self.default, |&(_, v)| v)
    }

    /// The evaluation from White's point of view.
    fn white_score(&self, pos: &CheopsPosition) -> i32 {
        let n = pos.rules().n;
        let len = n * n;
        let mut board = [0u8; MAX];
        pos.letters_into(&mut board);
        // Values by upper-case letter, looked up once per evaluation, not per piece.
        let mut values = [self.default; 26];
        for &(l, v) in self.values.iter().rev() {
            if l.is_ascii_uppercase() {
                values[(l as u8 - b'A') as usize] = v;
            }
        }
        let value = |up: char| {
            if up.is_ascii_uppercase() {
                values[(up as u8 - b'A') as usize]
            } else {
                self.value(up)
            }
        };
        let side_of = |c: u8| usize::from((c as char).is_ascii_lowercase());
        let mut score = [0i32; 2];
        let mut material = [0i32; 2];
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
            material[side] += value(up);
            match up {
                'K' => kings[side] = s,
                'P' => {
                    let steps = if side == 0 { n as i32 - 1 - r } else { r };
                    score[side] += self.pawn_advance[steps.clamp(0, 12) as usize];
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
                                        score[side] += value(tu) / self.master_threat;
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
                    score[side] += self.centre * (centre - dist);
                }
                _ => {}
            }
        }
        for castle in pos.castles() {
            if castle.active {
                score[castle.owner.index()] += self.castle;
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
            score[side] += self.shelter * shelter.min(4) - self.king_danger * danger;
        }
        let lead = material[0] - material[1];
        if lead.abs() >= self.mop_up_lead && kings.iter().all(|&k| k != usize::MAX) {
            let (strong, weak) = if lead > 0 { (0, 1) } else { (1, 0) };
            let at = |k: usize| ((k % n) as i32, (k / n) as i32);
            let ((sf, sr), (wf, wr)) = (at(kings[strong]), at(kings[weak]));
            let edge = (wf - centre).abs().max((wr - centre).abs());
            let apart = (sf - wf).abs().max((sr - wr).abs());
            score[strong] += self.mop_up * (2 * edge + (n as i32 - 1 - apart));
        }
        score[0] - score[1]
    }
}

impl Evaluator<CheopsPosition> for CheopsEval {
    fn evaluate(&self, pos: &CheopsPosition, _mobility: Mobility) -> i32 {
        let s = self.white_score(pos);
        let s = if pos.turn() == Color::White { s } else { -s };
        s + 10
    }

    fn move_hint(&self, pos: &CheopsPosition, mv: CheopsMove) -> i32 {
        let at = |s: Square| pos.piece_char(s).map_or(0, |c| self.value(c));
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_cheops::Style;

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
    /// the mop-up terms; with equal material nothing is added.
    #[test]
    fn a_clear_lead_drives_the_lone_king_to_the_edge() {
        let e = CheopsEval::default();
        let at = |fen: &str| {
            let p = CheopsPosition::from_fen(Style::Common, fen).unwrap();
            e.white_score(&p)
        };
        let centre = at("9/9/9/9/4k4/9/9/9/TQ2K4 w 0 1");
        let corner = at("8k/9/9/9/9/9/9/9/TQ2K4 w 0 1");
        // Centre: edge 0, Kings 4 apart; corner: edge 4, Kings 8 apart (n = 9).
        let shelter_and_danger = |fen: &str| {
            let p = CheopsPosition::from_fen(Style::Common, fen).unwrap();
            CheopsEval {
                mop_up: 0,
                ..CheopsEval::default()
            }
            .white_score(&p)
        };
        assert_eq!(
            centre - shelter_and_danger("9/9/9/9/4k4/9/9/9/TQ2K4 w 0 1"),
            e.mop_up * (8 - 4)
        );
        assert_eq!(
            corner - shelter_and_danger("8k/9/9/9/9/9/9/9/TQ2K4 w 0 1"),
            e.mop_up * (2 * 4 + (8 - 8))
        );
        let even = "4k4/4q4/9/9/9/9/9/4Q4/4K4 w 0 1";
        assert_eq!(at(even), shelter_and_danger(even));
    }
}
