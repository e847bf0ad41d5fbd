//! The sequential probability ratio test of a match (as fishtest and cutechess run it): is
//! A stronger than B by `elo1` rather than by `elo0`? The log-likelihood ratio is the
//! generalised SPRT's normal approximation over logistic Elo,
//! `LLR = N (s1 − s0) (2 m − s0 − s1) / (2 v)`, where `m` and `v` are the mean and variance
//! of A's score per unit, `N` the number of units and `s0`, `s1` the scores `elo0` and `elo1`
//! predict. A unit is a pair of games on one opening with the colours swapped (pentanomial:
//! a pair scores 0, ¼, ½, ¾ or 1), or a single game when the openings are not paired
//! (trinomial). As fishtest does, every category's count is raised to at least 10⁻³, so a
//! run whose units all scored the same still has a variance. With a handful of units that
//! variance means nothing, so no verdict is given before [`MIN_UNITS`] units.

/// The fewest units (pairs, or games when unpaired) a verdict rests on: one pair 1½–½ alone
/// would otherwise cross the bound, its estimated variance being nearly nil.
pub const MIN_UNITS: u32 = 10;

/// What the test decides: the hypotheses and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis (A is no better than this).
    pub elo0: f64,
    /// The Elo difference of the alternative (A is at least this much better).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound crossed yet.
    Continue,
    /// The LLR fell to the lower bound: A is not `elo1` better (H0).
    H0,
    /// The LLR reached the upper bound: A is `elo1` better (H1).
    H1,
}

impl Verdict {
    /// A word for people.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Continue => "inconclusive",
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        }
    }
}

/// The expected score of a side `elo` points stronger, on the logistic scale.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`; `None` unless
    /// `elo0 < elo1` and both rates are strictly between 0 and ½.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Option<Sprt> {
        let rate = |r: f64| r > 0.0 && r < 0.5;
        (elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && rate(alpha) && rate(beta))
            .then_some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
    }

    /// The lower and upper bounds of the LLR: `ln(β / (1 − α))` and `ln((1 − β) / α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of units whose scores (in [0, 1]) occurred `counts` times,
    /// `scores[i]` having occurred `counts[i]` times (trinomial: 0, ½, 1; pentanomial: 0, ¼,
    /// ½, ¾, 1). 0 without any unit.
    pub fn llr(&self, scores: &[f64], counts: &[u32]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regular: Vec<f64> = counts.iter().map(|&c| f64::from(c).max(1e-3)).collect();
        let n: f64 = regular.iter().sum();
        let mean = scores.iter().zip(&regular).map(|(s, c)| s * c).sum::<f64>() / n;
        let var = scores
            .iter()
            .zip(&regular)
            .map(|(s, c)| c * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict for an LLR: H1 at or above the upper bound, H0 at or below the lower.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// Scores of the trinomial categories (a game lost, drawn, won by A).
pub const TRINOMIAL: [f64; 3] = [0.0, 0.5, 1.0];
/// Scores of the pentanomial categories (a pair of games scoring 0, ½, 1, 1½, 2 for A, halved).
pub const PENTANOMIAL: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A's results, counted as the test needs them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games A lost, drew, won (by its share of the points: under ½, ½, over ½).
    pub trinomial: [u32; 3],
    /// Pairs of games on one opening by A's points in the pair: 0, ½, 1, 1½, 2.
    pub pentanomial: [u32; 5],
}

impl Tally {
    /// Counts games whose scores for A (each in [0, 1]) are `fractions`, in order; when
    /// `paired`, games 1 and 2, 3 and 4, ... are pairs (an unfinished last pair is left out of
    /// the pentanomial).
    pub fn from_fractions(fractions: &[f64], paired: bool) -> Tally {
        let mut t = Tally::default();
        for &f in fractions {
            t.trinomial[category(f, 2)] += 1;
        }
        if paired {
            for pair in fractions.chunks_exact(2) {
                t.pentanomial[category((pair[0] + pair[1]) / 2.0, 4)] += 1;
            }
        }
        t
    }
}

/// The category of a unit score in [0, 1] among `steps + 1` evenly spaced ones (a score
/// between two is rounded to the nearer; Cypher's tables can give fractions).
fn category(score: f64, steps: usize) -> usize {
    ((score.clamp(0.0, 1.0) * steps as f64).round() as usize).min(steps)
}

/// The state of a test after some games: the LLR, its bounds and the verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound.
    pub lower: f64,
    /// The upper bound.
    pub upper: f64,
    /// What it says.
    pub verdict: Verdict,
}

impl Sprt {
    /// The test after games scoring `fractions` for A, paired or not.
    pub fn status(&self, fractions: &[f64], paired: bool) -> SprtStatus {
        let t = Tally::from_fractions(fractions, paired);
        let (llr, units) = if paired {
            (
                self.llr(&PENTANOMIAL, &t.pentanomial),
                t.pentanomial.iter().sum::<u32>(),
            )
        } else {
            (
                self.llr(&TRINOMIAL, &t.trinomial),
                t.trinomial.iter().sum::<u32>(),
            )
        };
        let (lower, upper) = self.bounds();
        SprtStatus {
            llr,
            lower,
            upper,
            verdict: if units < MIN_UNITS {
                Verdict::Continue
            } else {
                self.verdict(llr)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn bounds_at_five_per_cent() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("a test");
        let (lo, hi) = t.bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!(close(lo, -2.944_438_979_166_440_5), "{lo}");
        assert!(close(hi, 2.944_438_979_166_440_5), "{hi}");
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_none());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_none());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.5).is_none());
    }

    #[test]
    fn trinomial_llr_by_hand() {
        // 10 wins, 5 draws, 5 losses, H0 0 Elo, H1 10 Elo. s0 = 0.5,
        // s1 = 1 / (1 + 10^(-1/40)) = 0.514387...; every count above the 10⁻³ floor,
        // N = 20, mean = 12.5 / 20 = 0.625, var = 11.25 / 20 − 0.625² = 0.171875, and
        // LLR = 20 (s1 − s0)(1.25 − s0 − s1) / (2 · 0.171875).
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("a test");
        let s1 = expected_score(10.0);
        assert!(close(s1, 0.514_387_184_165_998_7), "{s1}");
        let by_hand = 20.0 * (s1 - 0.5) * (1.25 - 0.5 - s1) / (2.0 * 0.171_875);
        let llr = t.llr(&TRINOMIAL, &[5, 5, 10]);
        assert!(close(llr, by_hand), "{llr} vs {by_hand}");
        assert!(close(llr, 0.197_225_016_626_811), "{llr}");
        // The mirror image (mean 0.375) drives the LLR down, by 20 (s1 − s0)(0.75 − s0 − s1)
        // / (2 · 0.171875).
        let mirror = 20.0 * (s1 - 0.5) * (0.75 - 0.5 - s1) / (2.0 * 0.171_875);
        assert!(close(t.llr(&TRINOMIAL, &[10, 5, 5]), mirror));
        assert!(mirror < -0.2);
        assert_eq!(t.llr(&TRINOMIAL, &[0, 0, 0]), 0.0);
    }

    #[test]
    fn pentanomial_llr_by_hand() {
        // Pairs scoring 0, ¼, ½, ¾, 1 seen 1, 2, 10, 5, 2 times: N = 20, mean = 11.25 / 20 =
        // 0.5625, E[x²] = (0.125 + 2.5 + 2.8125 + 2) / 20 = 0.371875, var = 0.05546875.
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("a test");
        let s1 = expected_score(10.0);
        let var = 0.371_875 - 0.5625 * 0.5625;
        let by_hand = 20.0 * (s1 - 0.5) * (1.125 - 0.5 - s1) / (2.0 * var);
        let llr = t.llr(&PENTANOMIAL, &[1, 2, 10, 5, 2]);
        assert!(close(llr, by_hand), "{llr} vs {by_hand}");
        assert!(close(llr, 0.286_901_535_102_823_6), "{llr}");
    }

    #[test]
    fn a_run_of_equal_units_still_has_a_variance() {
        // 40 won pairs and nothing else: the 10⁻³ floor on the other four categories.
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("a test");
        let llr = t.llr(&PENTANOMIAL, &[0, 0, 0, 0, 40]);
        assert!(llr > t.bounds().1, "{llr}");
    }

    #[test]
    fn the_stopping_rule() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("a test");
        assert_eq!(t.verdict(0.0), Verdict::Continue);
        assert_eq!(t.verdict(2.95), Verdict::H1);
        assert_eq!(t.verdict(-2.95), Verdict::H0);
        // A won every pair: H1 after enough of them, not before.
        let mut fractions = Vec::new();
        let mut first_h1 = None;
        for pair in 1..=40 {
            fractions.extend([1.0, 0.5]);
            if first_h1.is_none() && t.status(&fractions, true).verdict == Verdict::H1 {
                first_h1 = Some(pair);
            }
        }
        // The LLR crosses the bound at once, but no verdict comes before MIN_UNITS pairs.
        assert!(t.status(&fractions[..2], true).llr > 2.95);
        assert_eq!(first_h1, Some(MIN_UNITS as usize));
        // An unfinished pair does not count in the pentanomial.
        let s = t.status(&[1.0, 0.0, 1.0], true);
        assert_eq!(
            Tally::from_fractions(&[1.0, 0.0, 1.0], true).pentanomial,
            [0, 0, 1, 0, 0]
        );
        assert!(close(s.llr, t.llr(&PENTANOMIAL, &[0, 0, 1, 0, 0])));
        // Losing steadily: H0.
        let losses: Vec<f64> = (0..200)
            .map(|i| if i % 3 == 0 { 0.5 } else { 0.0 })
            .collect();
        assert_eq!(t.status(&losses, true).verdict, Verdict::H0);
        assert_eq!(t.status(&losses, false).verdict, Verdict::H0);
    }
}
