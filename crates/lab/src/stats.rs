//! The statistics of a study, as pure functions of the games' figures: scores and their
//! intervals, Elo, draw rates, quantiles by ply, histograms, the significance tests used to
//! compare two rule sets, and a logistic regression for piece values.
//!
//! Choices, stated once: a score's 95% interval is the **normal** interval on the per-game
//! score (its variance from the games' own win/draw/loss mix); a rate of one kind of result
//! (White wins, draws) has the **Wilson** interval; two scores or two rates are compared by a
//! **two-proportion z-test** (pooled); two length samples by a **Mann-Whitney U** test
//! (normal approximation with the tie correction).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean score with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

/// The mean of per-game scores in [0, 1] with the normal 95% interval, clamped to [0, 1].
pub fn score_interval(scores: &[f64]) -> Option<Interval> {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return None;
    }
    let p = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
    let half = Z95 * (var / n).sqrt();
    Some(Interval {
        value: p,
        lo: (p - half).max(0.0),
        hi: (p + half).min(1.0),
    })
}

/// The Wilson 95% interval of `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> Option<Interval> {
    if n <= 0.0 {
        return None;
    }
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(Interval {
        value: p,
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    })
}

/// The Elo difference of a score fraction (`None` at 0 or 1).
pub fn elo(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10())
}

/// The Elo difference of a score interval, end by end (ends at 0 or 1 give `None`).
pub fn elo_interval(score: &Interval) -> (Option<f64>, Option<f64>, Option<f64>) {
    (elo(score.value), elo(score.lo), elo(score.hi))
}

/// The complementary error function (W. J. Cody's rational Chebyshev fit as in Numerical
/// Recipes' `erfcc`, relative error below 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The two-sided p-value of a standard normal statistic `z`.
pub fn two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// A test's statistic and two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Test {
    /// The standard normal statistic.
    pub z: f64,
    /// The two-sided p-value.
    pub p: f64,
}

impl Test {
    /// Whether the difference is significant at the 5% level.
    pub fn significant(&self) -> bool {
        self.p < 0.05
    }
}

/// The pooled two-proportion z-test of `x1` of `n1` against `x2` of `n2` (scores count a
/// draw as half a success). `None` when a sample is empty or the pooled rate is 0 or 1.
pub fn two_proportion(x1: f64, n1: f64, x2: f64, n2: f64) -> Option<Test> {
    if n1 <= 0.0 || n2 <= 0.0 {
        return None;
    }
    let pooled = (x1 + x2) / (n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se <= 0.0 {
        return None;
    }
    let z = (x1 / n1 - x2 / n2) / se;
    Some(Test {
        z,
        p: two_sided_p(z),
    })
}

/// The Mann-Whitney U test of sample `a` against `b` (normal approximation with the tie
/// correction, no continuity correction); `z` > 0 when `a` tends to be larger.
pub fn mann_whitney(a: &[f64], b: &[f64]) -> Option<Test> {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let mut all: Vec<(f64, bool)> = a
        .iter()
        .map(|&x| (x, true))
        .chain(b.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = all.len();
    let mut rank_a = 0.0;
    let mut ties = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        let t = (j - i + 1) as f64;
        ties += t * t * t - t;
        rank_a += rank * all[i..=j].iter().filter(|x| x.1).count() as f64;
        i = j + 1;
    }
    let u = rank_a - n1 * (n1 + 1.0) / 2.0;
    let mean = n1 * n2 / 2.0;
    let nn = n1 + n2;
    let var = n1 * n2 / 12.0 * ((nn + 1.0) - ties / (nn * (nn - 1.0)));
    if var <= 0.0 {
        return None;
    }
    let z = (u - mean) / var.sqrt();
    Some(Test {
        z,
        p: two_sided_p(z),
    })
}

/// The `q` quantile (0..=1) of sorted values, linearly interpolated (type 7).
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// The first quartile, the median and the third quartile at each ply, over the series
/// long enough to reach it; plies reached by fewer than `min_games` series are left out.
pub fn quartiles_by_ply(series: &[Vec<f64>], min_games: usize) -> Vec<(usize, f64, f64, f64)> {
    let longest = series.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for ply in 0..longest {
        let mut v: Vec<f64> = series.iter().filter_map(|s| s.get(ply).copied()).collect();
        if v.len() < min_games.max(1) {
            break;
        }
        v.sort_by(f64::total_cmp);
        if let (Some(a), Some(b), Some(c)) =
            (quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75))
        {
            out.push((ply, a, b, c));
        }
    }
    out
}

/// Counts of `values` in bins of `width` from 0: `(bin start, count)` up to the largest.
pub fn histogram(values: &[usize], width: usize) -> Vec<(usize, usize)> {
    let width = width.max(1);
    let Some(&max) = values.iter().max() else {
        return Vec::new();
    };
    let mut bins = vec![0; max / width + 1];
    for &v in values {
        bins[v / width] += 1;
    }
    bins.into_iter()
        .enumerate()
        .map(|(i, c)| (i * width, c))
        .collect()
}

/// Solves `a x = b` (square, row-major) by Gaussian elimination with partial pivoting;
/// `None` when singular.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            for k in col..n {
                a[row][k] -= f * a[col][k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// Logistic regression of outcomes `y` in [0, 1] (a draw is ½) on features `x` with an
/// intercept, by Newton's method with a small ridge penalty `ridge` on the slopes (so that
/// a feature that never varies gets 0). Returns `[intercept, slopes...]`.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn logistic(x: &[Vec<f64>], y: &[f64], ridge: f64) -> Option<Vec<f64>> {
    let k = x.first()?.len() + 1;
    let mut beta = vec![0.0; k];
    let row = |i: usize| {
        std::iter::once(1.0)
            .chain(x[i].iter().copied())
            .collect::<Vec<f64>>()
    };
    for _ in 0..50 {
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        for (i, &yi) in y.iter().enumerate() {
            let r = row(i);
            let eta: f64 = r.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-eta).exp());
            let w = (p * (1.0 - p)).max(1e-9);
            for a in 0..k {
                grad[a] += (yi - p) * r[a];
                for b in 0..k {
                    hess[a][b] += w * r[a] * r[b];
                }
            }
        }
        for a in 1..k {
            grad[a] -= ridge * beta[a];
            hess[a][a] += ridge;
        }
        let step = solve(hess, grad)?;
        let mut size = 0.0f64;
        for (b, s) in beta.iter_mut().zip(&step) {
            *b += s;
            size = size.max(s.abs());
        }
        if size < 1e-10 {
            break;
        }
    }
    Some(beta)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting;
/// `None` when singular.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let d = m[col][col];
        for k in 0..2 * n {
            m[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col];
                if f != 0.0 {
                    for k in 0..2 * n {
                        m[row][k] -= f * m[col][k];
                    }
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// A logistic fit with what a cluster-robust covariance needs.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// `[intercept, slopes...]`.
    pub beta: Vec<f64>,
    /// The inverse of the penalised Hessian at `beta`.
    pub inv_hessian: Vec<Vec<f64>>,
    /// Each cluster's summed score vector `sum (y - p) (1, x)` at `beta`.
    pub cluster_scores: Vec<Vec<f64>>,
}

/// [`logistic`] with, at the fit, the inverse Hessian and the score summed over each
/// cluster (`cluster[i]` is row `i`'s cluster, 0-based: the game it was sampled from).
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn logistic_fit(
    x: &[Vec<f64>],
    y: &[f64],
    cluster: &[usize],
    ridge: f64,
) -> Option<LogisticFit> {
    let beta = logistic(x, y, ridge)?;
    let k = beta.len();
    let clusters = cluster.iter().max().map_or(0, |m| m + 1);
    let mut hess = vec![vec![0.0; k]; k];
    let mut scores = vec![vec![0.0; k]; clusters];
    for (i, &yi) in y.iter().enumerate() {
        let r: Vec<f64> = std::iter::once(1.0).chain(x[i].iter().copied()).collect();
        let eta: f64 = r.iter().zip(&beta).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-eta).exp());
        let w = p * (1.0 - p);
        for a in 0..k {
            scores[*cluster.get(i)?][a] += (yi - p) * r[a];
            for b in 0..k {
                hess[a][b] += w * r[a] * r[b];
            }
        }
    }
    for a in 1..k {
        hess[a][a] += ridge;
    }
    Some(LogisticFit {
        beta,
        inv_hessian: invert(&hess)?,
        cluster_scores: scores,
    })
}

/// The cluster-robust ("sandwich") covariance of two fits on the same clusters:
/// `A⁻¹ (G/(G-1)) Σ_g s_g t_gᵀ B⁻¹` (`A`, `B` their Hessians, `s_g`, `t_g` their scores of
/// cluster `g`); with `a` = `b` it is the fit's own covariance.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn sandwich(a: &LogisticFit, b: &LogisticFit) -> Vec<Vec<f64>> {
    let (ka, kb) = (a.beta.len(), b.beta.len());
    let g = a.cluster_scores.len().min(b.cluster_scores.len());
    let correction = if g > 1 {
        g as f64 / (g as f64 - 1.0)
    } else {
        1.0
    };
    let mut meat = vec![vec![0.0; kb]; ka];
    for c in 0..g {
        for i in 0..ka {
            for j in 0..kb {
                meat[i][j] += correction * a.cluster_scores[c][i] * b.cluster_scores[c][j];
            }
        }
    }
    let mut left = vec![vec![0.0; kb]; ka];
    for i in 0..ka {
        for j in 0..kb {
            left[i][j] = (0..ka).map(|m| a.inv_hessian[i][m] * meat[m][j]).sum();
        }
    }
    let mut out = vec![vec![0.0; kb]; ka];
    for i in 0..ka {
        for j in 0..kb {
            out[i][j] = (0..kb).map(|m| left[i][m] * b.inv_hessian[m][j]).sum();
        }
    }
    out
}

/// Piece values in the engine's centipawns from results: `pieces` is the logistic fit of
/// the result on the piece-count differences, `material` the fit of the result on the
/// engine's material balance (one slope, log-odds per centipawn). Piece `i` is worth
/// `β_i / k` centipawns (`k` the material slope): the value at which the results and the
/// engine would agree. Its 95% interval is by the delta method on the two fits' joint
/// cluster-robust covariance. `None` when the material slope is not clearly positive
/// (its own interval reaches 0), since then the results give no scale.
pub fn values_from_results(pieces: &LogisticFit, material: &LogisticFit) -> Option<Vec<Interval>> {
    let k = *material.beta.get(1)?;
    let vk = *sandwich(material, material).get(1)?.get(1)?;
    if k <= 0.0 || k - Z95 * vk.max(0.0).sqrt() <= 0.0 {
        return None;
    }
    let vb = sandwich(pieces, pieces);
    let cross = sandwich(pieces, material);
    Some(
        (1..pieces.beta.len())
            .map(|i| {
                let b = pieces.beta[i];
                let v =
                    vb[i][i] / (k * k) + b * b * vk / k.powi(4) - 2.0 * b * cross[i][1] / k.powi(3);
                let half = Z95 * v.max(0.0).sqrt();
                Interval {
                    value: b / k,
                    lo: b / k - half,
                    hi: b / k + half,
                }
            })
            .collect(),
    )
}

/// The share of column `col`'s variance explained by the other columns and an intercept
/// (R² of least squares; 1 when the column is a linear function of the others, 0 when it
/// never varies).
pub fn collinearity(x: &[Vec<f64>], col: usize) -> f64 {
    let n = x.len() as f64;
    if x.is_empty() {
        return 0.0;
    }
    let target: Vec<f64> = x.iter().map(|r| r[col]).collect();
    let mean = target.iter().sum::<f64>() / n;
    let total: f64 = target.iter().map(|t| (t - mean).powi(2)).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let others: Vec<Vec<f64>> = x
        .iter()
        .map(|r| {
            std::iter::once(1.0)
                .chain(
                    r.iter()
                        .enumerate()
                        .filter(|(j, _)| *j != col)
                        .map(|(_, v)| *v),
                )
                .collect()
        })
        .collect();
    let Some(w) = least_squares(&others, &target, 1e-9) else {
        return 1.0;
    };
    let resid: f64 = others
        .iter()
        .zip(&target)
        .map(|(r, t)| (t - r.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>()).powi(2))
        .sum();
    (1.0 - resid / total).clamp(0.0, 1.0)
}

/// Least squares of `y` on `x` with no intercept (the engine's material is linear in the
/// piece counts, so this recovers its piece values). `None` when singular.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn least_squares(x: &[Vec<f64>], y: &[f64], ridge: f64) -> Option<Vec<f64>> {
    let k = x.first()?.len();
    let mut a = vec![vec![0.0; k]; k];
    let mut b = vec![0.0; k];
    for (row, &yi) in x.iter().zip(y) {
        for i in 0..k {
            b[i] += row[i] * yi;
            for j in 0..k {
                a[i][j] += row[i] * row[j];
            }
        }
    }
    for (i, r) in a.iter_mut().enumerate() {
        r[i] += ridge;
    }
    solve(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} != {b}");
    }

    fn games(w: usize, d: usize, l: usize) -> Vec<f64> {
        let mut v = vec![1.0; w];
        v.extend(vec![0.5; d]);
        v.extend(vec![0.0; l]);
        v
    }

    #[test]
    fn ten_wins_five_draws_five_losses() {
        let s = score_interval(&games(10, 5, 5)).unwrap();
        // variance (10*.375^2 + 5*.125^2 + 5*.625^2)/20 = 0.171875; se = sqrt(.171875/20)
        close(s.value, 0.625, 1e-12);
        close(s.lo, 0.625 - Z95 * 0.092_702_481_088_695, 1e-9);
        close(s.lo, 0.443_306, 1e-6);
        close(s.hi, 0.806_694, 1e-6);
        let (e, lo, hi) = elo_interval(&s);
        close(e.unwrap(), 88.739_500, 1e-5);
        close(lo.unwrap(), -39.564_838, 1e-5);
        close(hi.unwrap(), 248.184_867, 1e-5);
    }

    #[test]
    fn all_wins_have_no_finite_elo() {
        let s = score_interval(&games(4, 0, 0)).unwrap();
        assert_eq!((s.value, s.lo, s.hi), (1.0, 1.0, 1.0));
        assert_eq!(elo(s.value), None);
        assert_eq!(score_interval(&[]), None);
    }

    #[test]
    fn wilson_interval_of_five_draws_in_twenty() {
        let w = wilson(5.0, 20.0).unwrap();
        close(w.value, 0.25, 1e-12);
        close(w.lo, 0.111_862, 1e-6);
        close(w.hi, 0.468_701, 1e-6);
        let none = wilson(0.0, 10.0).unwrap();
        assert_eq!(none.lo, 0.0);
        close(none.hi, 0.277_533, 1e-6);
    }

    #[test]
    fn normal_tail_and_two_proportions() {
        close(two_sided_p(Z95), 0.05, 1e-6);
        close(two_sided_p(0.0), 1.0, 1e-6);
        // 12.5 of 20 against 7.5 of 20: pooled 0.5, se = sqrt(.25 * .1) = 0.158114
        let t = two_proportion(12.5, 20.0, 7.5, 20.0).unwrap();
        close(t.z, 1.581_139, 1e-6);
        close(t.p, 0.113_846, 1e-5);
        assert!(!t.significant());
        let t = two_proportion(40.0, 50.0, 20.0, 50.0).unwrap();
        close(t.z, 4.082_483, 1e-6);
        assert!(t.significant());
        assert_eq!(two_proportion(0.0, 5.0, 0.0, 5.0), None);
    }

    #[test]
    fn mann_whitney_with_and_without_ties() {
        // a all above b: U = 9, mean 4.5, var = 3*3*7/12 = 5.25
        let t = mann_whitney(&[4.0, 5.0, 6.0], &[1.0, 2.0, 3.0]).unwrap();
        close(t.z, 4.5 / 5.25f64.sqrt(), 1e-12);
        close(t.p, 0.049_535, 1e-5);
        // ties: ranks 1.5,1.5,3.5,3.5 ; U = 3.5+3.5-3 = 4 = mean: z = 0
        let t = mann_whitney(&[1.0, 2.0], &[1.0, 2.0]).unwrap();
        close(t.z, 0.0, 1e-12);
        assert_eq!(mann_whitney(&[1.0, 1.0], &[1.0]), None);
    }

    #[test]
    fn quantiles_histograms() {
        close(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5).unwrap(), 2.5, 1e-12);
        close(quantile(&[1.0, 2.0, 3.0, 4.0], 0.25).unwrap(), 1.75, 1e-12);
        let q = quartiles_by_ply(&[vec![0.0, 1.0, 5.0], vec![2.0, 3.0], vec![4.0]], 2);
        assert_eq!(q, vec![(0, 1.0, 2.0, 3.0), (1, 1.5, 2.0, 2.5)]);
        assert_eq!(
            histogram(&[0, 9, 10, 25], 10),
            vec![(0, 2), (10, 1), (20, 1)]
        );
    }

    #[test]
    fn regressions_recover_known_weights() {
        // material = 100 * a + 300 * b exactly
        let x = vec![
            vec![1.0, 0.0],
            vec![0.0, 1.0],
            vec![2.0, -1.0],
            vec![1.0, 1.0],
        ];
        let y: Vec<f64> = x.iter().map(|r| 100.0 * r[0] + 300.0 * r[1]).collect();
        let w = least_squares(&x, &y, 0.0).unwrap();
        close(w[0], 100.0, 1e-9);
        close(w[1], 300.0, 1e-9);
        // outcomes drawn from a logistic law are fitted back: with fractional targets equal
        // to the law's probabilities the fit is exact.
        let (b0, b1) = (0.2, 0.8);
        let x: Vec<Vec<f64>> = (-3..=3).map(|v| vec![f64::from(v)]).collect();
        let y: Vec<f64> = x
            .iter()
            .map(|r| 1.0 / (1.0 + (-(b0 + b1 * r[0])).exp()))
            .collect();
        let beta = logistic(&x, &y, 0.0).unwrap();
        close(beta[0], b0, 1e-8);
        close(beta[1], b1, 1e-8);
    }

    /// Five games (clusters) of three sampled positions each: White-minus-Black counts of two
    /// pieces, the material in pawns (1 and 3 a piece), the game's result.
    type Rows = Vec<Vec<f64>>;

    fn five_games() -> (Rows, Rows, Vec<f64>, Vec<usize>) {
        let rows: [((i32, i32), f64, usize); 15] = [
            ((0, 0), 1.0, 0),
            ((1, 0), 1.0, 0),
            ((1, 1), 1.0, 0),
            ((0, 0), 0.5, 1),
            ((-1, 0), 0.5, 1),
            ((-1, 1), 0.5, 1),
            ((0, 0), 0.0, 2),
            ((0, -1), 0.0, 2),
            ((1, -1), 0.0, 2),
            ((0, 0), 1.0, 3),
            ((2, -1), 1.0, 3),
            ((0, 1), 1.0, 3),
            ((0, 0), 0.0, 4),
            ((-1, 0), 0.0, 4),
            ((0, -1), 0.0, 4),
        ];
        let x = rows
            .iter()
            .map(|((a, b), _, _)| vec![f64::from(*a), f64::from(*b)])
            .collect::<Vec<_>>();
        let m = x.iter().map(|r| vec![r[0] + 3.0 * r[1]]).collect();
        (
            x,
            m,
            rows.iter().map(|r| r.1).collect(),
            rows.iter().map(|r| r.2).collect(),
        )
    }

    #[test]
    fn piece_values_with_cluster_robust_intervals() {
        // Reference figures from an independent implementation (Python, the same formulas).
        let (x, m, y, cl) = five_games();
        let material = logistic_fit(&m, &y, &cl, 0.0).unwrap();
        close(material.beta[1], 0.895_959_569_990_897, 1e-9);
        close(
            sandwich(&material, &material)[1][1].sqrt(),
            0.372_102_460_959_712,
            1e-9,
        );
        let pieces = logistic_fit(&x, &y, &cl, 0.0).unwrap();
        close(pieces.beta[0], 0.031_697_671_657_893, 1e-9);
        close(pieces.beta[1], 2.494_739_658_840_897, 1e-9);
        close(pieces.beta[2], 3.417_972_325_888_819, 1e-9);
        let v = values_from_results(&pieces, &material).unwrap();
        close(v[0].value, 2.784_433_296_321_889, 1e-9);
        close(v[0].hi - v[0].value, 1.602_366_092_647_021, 1e-9);
        close(v[0].value - v[0].lo, 1.602_366_092_647_021, 1e-9);
        close(v[1].value, 3.814_873_394_257_672, 1e-9);
        close(v[1].hi - v[1].value, 1.737_853_194_993_882, 1e-9);
        // The ridge shrinks the slopes towards 0 (strongly, on so few positions).
        let shrunk = logistic_fit(&x, &y, &cl, 1.0).unwrap();
        let v = values_from_results(&shrunk, &material).unwrap();
        close(v[0].value, 0.926_140_860_120_358, 1e-9);
        close(v[0].hi - v[0].value, 0.846_711_913_692_831, 1e-9);
        close(v[1].value, 1.121_205_100_758_464, 1e-9);
        close(v[1].hi - v[1].value, 0.814_474_743_391_415, 1e-9);
        close(collinearity(&x, 0), 0.121_772_918_861_960, 1e-9);
    }

    #[test]
    fn results_that_follow_the_material_give_its_values_exactly() {
        // Scores equal to the logistic law of the material (1 and 3 pawns): every position's
        // score residual is 0, so the values are exact and their intervals have no width.
        let (x, m, _, cl) = five_games();
        let y: Vec<f64> = m
            .iter()
            .map(|r| 1.0 / (1.0 + (-(0.1 + 0.7 * r[0])).exp()))
            .collect();
        let pieces = logistic_fit(&x, &y, &cl, 0.0).unwrap();
        let material = logistic_fit(&m, &y, &cl, 0.0).unwrap();
        let v = values_from_results(&pieces, &material).unwrap();
        close(v[0].value, 1.0, 1e-8);
        close(v[1].value, 3.0, 1e-8);
        close(v[1].hi - v[1].lo, 0.0, 1e-6);
        // Results unrelated to the material give no scale: nothing is identifiable.
        let flat: Vec<f64> = (0..15).map(|i| [1.0, 0.0, 0.5][i % 3]).collect();
        let material = logistic_fit(&m, &flat, &cl, 0.0).unwrap();
        let pieces = logistic_fit(&x, &flat, &cl, 0.0).unwrap();
        assert_eq!(values_from_results(&pieces, &material), None);
    }

    #[test]
    fn collinear_columns_and_inverses() {
        let x = vec![
            vec![1.0, 2.0, 0.0],
            vec![2.0, 4.0, 1.0],
            vec![-1.0, -2.0, 1.0],
            vec![0.0, 0.0, 0.0],
        ];
        close(collinearity(&x, 0), 1.0, 1e-9);
        assert_eq!(collinearity(&[vec![1.0, 0.0], vec![1.0, 1.0]], 0), 0.0);
        let inv = invert(&[vec![4.0, 7.0], vec![2.0, 6.0]]).unwrap();
        close(inv[0][0], 0.6, 1e-12);
        close(inv[0][1], -0.7, 1e-12);
        close(inv[1][0], -0.2, 1e-12);
        close(inv[1][1], 0.4, 1e-12);
        assert_eq!(invert(&[vec![1.0, 2.0], vec![2.0, 4.0]]), None);
    }
}
