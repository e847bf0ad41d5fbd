//! Tuning the chess evaluation's weights on scored positions (Texel's method): each
//! position's term counts are read once, and the weights are moved by gradient descent
//! (Adam) so that the evaluation's winning chance matches the target's. The targets are
//! Stockfish's search scores of quiet positions from its own games (docs/engine.md).

use super::terms::{terms, Sink, COUNT, LAYOUT};
use menagerie_chess::Chess;
use menagerie_core::Color;
use std::fmt::Write;

/// One position as the tuner sees it.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The non-zero term counts (White's minus Black's), by weight index.
    pub counts: Vec<(u16, i16)>,
    /// The game phase, 0 (bare Kings and pawns) to 24 (every piece).
    pub phase: u8,
    /// The target's winning chance for White, 0 to 1.
    pub target: f64,
}

/// The term counts of one position, as the tuner reads them.
struct Counts([i32; COUNT]);

impl Sink for Counts {
    fn add(&mut self, param: usize, count: i32) {
        self.0[param] += count;
    }
}

/// The winning chance of a score in centipawns (the logistic curve of the Elo scale).
pub fn win_chance(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// A sample of `pos`, whose score from the side to move's view is `score` centipawns.
pub fn sample(pos: &Chess, score: i32) -> Sample {
    let mut c = Counts([0; COUNT]);
    let phase = terms(pos, &mut c);
    let counts =
        c.0.iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
            .collect();
    let white = if pos.side() == Color::White {
        score
    } else {
        -score
    };
    Sample {
        counts,
        phase: phase as u8,
        target: win_chance(f64::from(white)),
    }
}

/// Reads a line `FEN;score` (the score in centipawns from the side to move's view).
pub fn parse_line(line: &str) -> Result<Sample, String> {
    let (fen, score) = line
        .rsplit_once(';')
        .ok_or_else(|| format!("the line {line:?} has no ';' before its score"))?;
    let score: i32 = score
        .trim()
        .parse()
        .map_err(|_| format!("the score {score:?} is not a whole number of centipawns"))?;
    let pos = Chess::from_fen(fen.trim()).map_err(|e| format!("the FEN {fen:?}: {e}"))?;
    Ok(sample(&pos, score))
}

/// The evaluation of a sample, White's view, in centipawns, with weights `w`.
pub fn evaluate(w: &[[f64; 2]], s: &Sample) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in &s.counts {
        mg += w[usize::from(i)][0] * f64::from(n);
        eg += w[usize::from(i)][1] * f64::from(n);
    }
    let p = f64::from(s.phase);
    (mg * p + eg * (24.0 - p)) / 24.0
}

/// The mean squared error between the evaluation's and the targets' winning chances.
pub fn loss(w: &[[f64; 2]], samples: &[Sample]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (win_chance(evaluate(w, s)) - s.target).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Adam's state: the moving averages of the gradient and of its square.
pub struct Adam {
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
    t: i32,
    /// The step size in centipawns.
    pub rate: f64,
    /// The weights a ridge penalty pulls towards, and its strength per squared centipawn
    /// (rarely seen weights then stay near their start instead of fitting noise).
    pub anchor: Option<(Vec<[f64; 2]>, f64)>,
    /// Weights that keep their value (by index).
    pub frozen: Vec<bool>,
}

impl Adam {
    /// A fresh optimiser moving each weight by about `rate` centipawns a step at first.
    pub fn new(rate: f64) -> Self {
        Adam {
            m: vec![[0.0; 2]; COUNT],
            v: vec![[0.0; 2]; COUNT],
            t: 0,
            rate,
            anchor: None,
            frozen: vec![false; COUNT],
        }
    }

    /// One step over all of `samples` (full batch); returns the loss before the step.
    pub fn step(&mut self, w: &mut [[f64; 2]], samples: &[Sample]) -> f64 {
        let mut grad = vec![[0.0f64; 2]; COUNT];
        let mut total = 0.0;
        let ln10 = std::f64::consts::LN_10;
        for s in samples {
            let p = win_chance(evaluate(w, s));
            let err = p - s.target;
            total += err * err;
            // d(loss)/d(eval) of this sample.
            let d = 2.0 * err * p * (1.0 - p) * ln10 / 400.0;
            let ph = f64::from(s.phase) / 24.0;
            for &(i, n) in &s.counts {
                let g = &mut grad[usize::from(i)];
                g[0] += d * f64::from(n) * ph;
                g[1] += d * f64::from(n) * (1.0 - ph);
            }
        }
        let count = samples.len().max(1) as f64;
        if let Some((anchor, ridge)) = &self.anchor {
            for ((g, wi), a) in grad.iter_mut().zip(w.iter()).zip(anchor) {
                for k in 0..2 {
                    g[k] += 2.0 * ridge * (wi[k] - a[k]) * count;
                }
            }
        }
        self.t += 1;
        let (b1, b2) = (0.9f64, 0.999f64);
        for (((wi, g), (m, v)), &frozen) in w
            .iter_mut()
            .zip(&grad)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
            .zip(&self.frozen)
        {
            if frozen {
                continue;
            }
            for k in 0..2 {
                let g = g[k] / count;
                m[k] = b1 * m[k] + (1.0 - b1) * g;
                v[k] = b2 * v[k] + (1.0 - b2) * g * g;
                let mh = m[k] / (1.0 - b1.powi(self.t));
                let vh = v[k] / (1.0 - b2.powi(self.t));
                wi[k] -= self.rate * mh / (vh.sqrt() + 1e-12);
            }
        }
        total / count
    }
}

/// The text of `weights.rs` holding `w`, rounded to whole centipawns, grouped as
/// [`LAYOUT`] says.
pub fn weights_file(w: &[[f64; 2]]) -> String {
    let mut out = String::from(
        "//! The chess evaluation's weights, (middlegame, endgame) in centipawns, in the order of\n\
         //! [`super::terms::LAYOUT`]. Written by the tuner (`cargo run --release -p menagerie-variants\n\
         //! --example tune_chess`, docs/engine.md); edit by hand only to try a change.\n\n\
         use super::terms::{COUNT, S};\n\n\
         /// Every weight of the chess evaluation.\n\
         #[rustfmt::skip]\n\
         pub static WEIGHTS: [S; COUNT] = [\n",
    );
    for &(name, start, len) in LAYOUT.iter().filter(|l| l.2 > 0) {
        let _ = writeln!(out, "    // {name}");
        for row in w[start..start + len].chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|x| format!("({}, {}),", x[0].round() as i32, x[1].round() as i32))
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::terms::{white_score, Sum};
    use super::super::weights::WEIGHTS;
    use super::*;
    use menagerie_core::Position;

    /// Positions reached by random play from the start (a fixed generator, so the test is
    /// the same every run).
    fn random_positions(count: usize) -> Vec<Chess> {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < count {
            let mut pos = Chess::start();
            for _ in 0..120 {
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[crate::eval::random_index(&mut seed, moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    /// The same position with colours swapped and the board turned upside down.
    fn mirrored(pos: &Chess) -> Chess {
        let fen = pos.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| r.chars().map(swap).collect())
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling: String = if f[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = f[2].chars().map(swap).collect();
            c.sort();
            c.into_iter().collect()
        };
        let ep = if f[3] == "-" {
            "-".to_string()
        } else {
            let b = f[3].as_bytes();
            format!("{}{}", b[0] as char, (b'9' - b[1] + b'0') as char)
        };
        let text = format!(
            "{} {side} {castling} {ep} {} {}",
            board.join("/"),
            f[4],
            f[5]
        );
        Chess::from_fen(&text).unwrap()
    }

    #[test]
    fn counts_times_weights_is_the_evaluation() {
        let w: Vec<[f64; 2]> = WEIGHTS
            .iter()
            .map(|&(m, e)| [f64::from(m), f64::from(e)])
            .collect();
        for pos in random_positions(2000) {
            let s = sample(&pos, 0);
            let mut sum = Sum::default();
            let phase = terms(&pos, &mut sum);
            assert_eq!(i32::from(s.phase), phase);
            let exact = f64::from(sum.mg * phase + sum.eg * (24 - phase)) / 24.0;
            assert!((evaluate(&w, &s) - exact).abs() < 1e-6, "{}", pos.to_fen());
            assert_eq!(
                white_score(&pos),
                (sum.mg * phase + sum.eg * (24 - phase)) / 24
            );
        }
    }

    #[test]
    fn the_evaluation_is_colour_symmetric() {
        for pos in random_positions(2000) {
            let m = mirrored(&pos);
            assert_eq!(white_score(&pos), -white_score(&m), "{}", pos.to_fen());
        }
    }

    #[test]
    fn king_danger_is_stockfish_s_sum() {
        use super::super::terms::{DANGER_BUCKETS, DANGER_STEP, KING_DANGER};
        // White's Queen against the castled Black King: no piece on the ring (0), the
        // constant 37, a safe Queen check on d8 (759), two attacked squares of the King's
        // flank (3 * 2 * 2 / 8 = 1), nine defended ones (-4 * 9): 761. Black, without a
        // Queen (-873), threatens nothing.
        let pos = Chess::from_fen("6k1/5ppp/8/8/8/8/8/3Q2K1 w - - 0 1").unwrap();
        let danger: Vec<(u16, i16)> = sample(&pos, 0)
            .counts
            .into_iter()
            .filter(|&(i, _)| (KING_DANGER..KING_DANGER + DANGER_BUCKETS).contains(&usize::from(i)))
            .collect();
        let bucket = (761 / DANGER_STEP) as usize;
        assert_eq!(danger, vec![((KING_DANGER + bucket) as u16, 1)]);
    }

    #[test]
    fn a_line_is_read_or_refused_in_one_sentence() {
        let s = parse_line("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1;-150").unwrap();
        assert!((s.target - win_chance(150.0)).abs() < 1e-12);
        assert_eq!(s.phase, 0);
        assert_eq!(
            parse_line("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap_err(),
            "the line \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\" has no ';' before its score"
        );
        assert!(parse_line("8/8 w - - 0 1;10")
            .unwrap_err()
            .starts_with("the FEN"));
    }

    #[test]
    fn a_step_lowers_the_loss_and_the_file_round_trips() {
        let samples: Vec<Sample> = random_positions(300).iter().map(|p| sample(p, 0)).collect();
        let mut w: Vec<[f64; 2]> = WEIGHTS
            .iter()
            .map(|&(m, e)| [f64::from(m), f64::from(e)])
            .collect();
        let before = loss(&w, &samples);
        let mut adam = Adam::new(1.0);
        for _ in 0..20 {
            adam.step(&mut w, &samples);
        }
        assert!(loss(&w, &samples) < before);
        let text = weights_file(
            &WEIGHTS
                .iter()
                .map(|&(m, e)| [f64::from(m), f64::from(e)])
                .collect::<Vec<_>>(),
        );
        assert_eq!(text, include_str!("weights.rs"));
    }
}
