//! Glicko-2: steps 1–8 of Glickman's "Example of the Glicko-2 system", and lichess's way of
//! using them (each rated game its own rating period, the deviation growing with time away).

use std::f64::consts::PI;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::RatingError;

/// The factor between the Glicko scale and the Glicko-2 scale (the paper's step 2).
pub const SCALE: f64 = 173.7178;

/// The rating at μ = 0 on the Glicko-2 scale (the paper's step 2).
const CENTRE: f64 = 1500.0;

/// A rating is provisional (shown with "?") while its deviation is at least this (lichess's 110).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The volatility iteration (step 5) stops once its interval is this narrow (the paper's ε).
pub const CONVERGENCE: f64 = 0.000_001;

/// The Illinois algorithm needs a handful of iterations; this only stops a hang on absurd figures.
const MAX_ITERATIONS: u32 = 1_000;

/// A player's rating in one variant: the rating, its deviation (RD) and its volatility σ.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating on the familiar scale (a new player has 1500).
    pub rating: f64,
    /// The rating deviation, RD: one standard deviation of the rating, on the same scale.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are (Glicko-2 scale).
    pub volatility: f64,
}

impl Rating {
    /// The rating a new player starts with: 1500, RD 500, volatility 0.09 (lichess's start).
    pub const NEW_PLAYER: Rating = Rating::starting_at(1500.0);

    /// A rating from its three figures.
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// The rating a new player starts with: 1500, RD 500, volatility 0.09 (lichess's start).
    pub const fn new_player() -> Rating {
        Rating::NEW_PLAYER
    }

    /// A new player starting at another rating, with RD 500 and volatility 0.09.
    ///
    /// lichess starts its bots at 2000, RD 500 (`Glicko.defaultBot`); which rating each of
    /// our engine levels starts at is the server's choice. With RD 500 the first games move
    /// the rating by hundreds of points, so a poor guess is soon corrected.
    pub const fn starting_at(rating: f64) -> Rating {
        Rating {
            rating,
            deviation: 500.0,
            volatility: 0.09,
        }
    }

    /// Whether the rating is still provisional: its deviation is at least 110.
    pub fn is_provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating on the Glicko-2 scale, μ = (r − 1500) / 173.7178 (the paper's step 2).
    pub fn mu(&self) -> f64 {
        (self.rating - CENTRE) / SCALE
    }

    /// The deviation on the Glicko-2 scale, φ = RD / 173.7178 (the paper's step 2).
    pub fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// The rating of μ, φ and σ on the Glicko-2 scale (the paper's step 8).
    fn from_glicko2(mu: f64, phi: f64, volatility: f64) -> Rating {
        Rating {
            rating: SCALE * mu + CENTRE,
            deviation: SCALE * phi,
            volatility,
        }
    }

    /// Checks that the three figures are finite and the deviation and volatility positive.
    pub fn check(&self) -> Result<(), RatingError> {
        if !self.rating.is_finite() {
            return Err(RatingError::BadRating {
                field: "rating",
                value: self.rating,
            });
        }
        for (field, value) in [
            ("deviation", self.deviation),
            ("volatility", self.volatility),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(RatingError::BadRating { field, value });
            }
        }
        Ok(())
    }

    /// The rating after `days` without a rated game: φ* = √(φ² + σ²·t), t = days × the
    /// rating periods per day, the deviation then kept within the bounds.
    ///
    /// This is the deviation a player has when a game starts (and the one a leaderboard
    /// should show); the rating and volatility do not change.
    pub fn after_inactivity(&self, days: f64, params: &Params) -> Result<Rating, RatingError> {
        self.check()?;
        params.check()?;
        if !(days.is_finite() && days >= 0.0) {
            return Err(RatingError::BadDays(days));
        }
        let periods = days * params.rating_periods_per_day;
        // √(φ² + σ²·t) on the familiar scale, RD* = √(RD² + (173.7178·σ)²·t): the same figure,
        // and a stored RD comes back bit for bit when no time has passed.
        let sigma = SCALE * self.volatility;
        let grown = (self.deviation * self.deviation + sigma * sigma * periods).sqrt();
        Ok(Rating {
            deviation: params.clamp(grown),
            ..*self
        })
    }
}

impl Default for Rating {
    /// A new player's rating.
    fn default() -> Rating {
        Rating::NEW_PLAYER
    }
}

impl fmt::Display for Rating {
    /// The rating as players see it: rounded, with "?" while provisional (e.g. `1742?`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.is_provisional() { "?" } else { "" };
        write!(f, "{:.0}{mark}", self.rating)
    }
}

/// The system's constants: τ, the bounds of the deviation and the rating periods per day.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// The system constant τ, which limits how fast the volatility changes (lichess: 0.75).
    pub tau: f64,
    /// The least deviation a rating keeps (lichess: 45), so a rating never freezes.
    pub min_deviation: f64,
    /// The greatest deviation a rating reaches (lichess: 500), however long the absence.
    pub max_deviation: f64,
    /// Rating periods per day of absence (lichess: 0.21436, chosen so a typical RD goes
    /// from 60 to 110 in one year).
    pub rating_periods_per_day: f64,
}

impl Params {
    /// lichess's constants: τ = 0.75, RD within [45, 500], 0.21436 rating periods per day.
    pub const LICHESS: Params = Params {
        tau: 0.75,
        min_deviation: 45.0,
        max_deviation: 500.0,
        rating_periods_per_day: 0.21436,
    };

    /// Checks that τ is positive, the bounds ordered and positive, the factor per day not negative.
    pub fn check(&self) -> Result<(), RatingError> {
        if !(self.tau.is_finite() && self.tau > 0.0) {
            return Err(RatingError::BadParams(
                "τ must be a finite number above zero",
            ));
        }
        if !(self.min_deviation.is_finite()
            && self.max_deviation.is_finite()
            && 0.0 < self.min_deviation
            && self.min_deviation <= self.max_deviation)
        {
            return Err(RatingError::BadParams(
                "the deviation bounds must be finite with 0 < min ≤ max",
            ));
        }
        if !(self.rating_periods_per_day.is_finite() && self.rating_periods_per_day >= 0.0) {
            return Err(RatingError::BadParams(
                "the rating periods per day must be a finite number, zero or more",
            ));
        }
        Ok(())
    }

    /// The deviation kept within [min_deviation, max_deviation].
    fn clamp(&self, deviation: f64) -> f64 {
        deviation.clamp(self.min_deviation, self.max_deviation)
    }
}

impl Default for Params {
    /// lichess's constants ([`Params::LICHESS`]).
    fn default() -> Params {
        Params::LICHESS
    }
}

/// One rating period for one player (Glickman's example): the player's new rating after the
/// games against `opponents`, each `(opponent's rating, score)` with score 1 a win, ½ a draw,
/// 0 a loss. All games of a period count as simultaneous; the opponents' ratings are those at
/// the start of the period.
///
/// A period without games only widens the deviation (the paper's step 6 alone). The new
/// deviation is then kept within the bounds of `params`; no time passes besides the period
/// itself (use [`Rating::after_inactivity`] first for that).
pub fn update(
    player: &Rating,
    opponents: &[(Rating, f64)],
    params: &Params,
) -> Result<Rating, RatingError> {
    player.check()?;
    params.check()?;
    for (opponent, score) in opponents {
        opponent.check()?;
        if !(0.0..=1.0).contains(score) {
            return Err(RatingError::BadScore(*score));
        }
    }
    let (mu, phi, sigma) = period(player, opponents, params.tau)?;
    let rating = Rating::from_glicko2(mu, phi, sigma);
    if !(rating.rating.is_finite() && rating.deviation.is_finite() && sigma.is_finite()) {
        return Err(RatingError::NotFinite);
    }
    Ok(Rating {
        deviation: params.clamp(rating.deviation),
        ..rating
    })
}

/// One rated game, applied at once as its own rating period (as lichess does): White's and
/// Black's new ratings.
///
/// `score_white` is 1 when White wins, 0.5 for a draw, 0 when Black wins. Each player's
/// deviation first grows with the days since their last rated game
/// ([`Rating::after_inactivity`]; 0 for a player's first game), then both are rated against
/// each other's grown rating ([`update`]), and each new deviation is kept within the bounds.
pub fn rate_game(
    white: &Rating,
    black: &Rating,
    score_white: f64,
    days_since_white: f64,
    days_since_black: f64,
    params: &Params,
) -> Result<(Rating, Rating), RatingError> {
    if !(0.0..=1.0).contains(&score_white) {
        return Err(RatingError::BadScore(score_white));
    }
    let white = white.after_inactivity(days_since_white, params)?;
    let black = black.after_inactivity(days_since_black, params)?;
    let white_after = update(&white, &[(black, score_white)], params)?;
    let black_after = update(&black, &[(white, 1.0 - score_white)], params)?;
    Ok((white_after, black_after))
}

/// Steps 3–7 on the Glicko-2 scale: the player's new μ′, φ′ and σ′ (before any clamping).
fn period(
    player: &Rating,
    opponents: &[(Rating, f64)],
    tau: f64,
) -> Result<(f64, f64, f64), RatingError> {
    let (mu, phi, sigma) = (player.mu(), player.phi(), player.volatility);
    if opponents.is_empty() {
        // The paper: a player who did not compete keeps μ and σ, and φ′ = √(φ² + σ²).
        return Ok((mu, (phi * phi + sigma * sigma).sqrt(), sigma));
    }
    let (v, improvement) = variance_and_improvement(mu, opponents);
    // Step 4: Δ, the estimated improvement.
    let delta = v * improvement;
    // Step 5: the new volatility.
    let sigma_new = volatility(delta, phi, v, sigma, tau)?;
    // Step 6: the pre-period deviation, one rating period later.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    // Step 7: the new deviation and rating.
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * improvement;
    Ok((mu_new, phi_new, sigma_new))
}

/// The paper's g(φ), which discounts a result against an opponent whose rating is uncertain.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The paper's E(μ, μj, φj): the expected score against one opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// Step 3 and the sum of step 4: v, the estimated variance from the results alone, and
/// Σ g(φj)(sj − E), the improvement before it is scaled by v.
fn variance_and_improvement(mu: f64, opponents: &[(Rating, f64)]) -> (f64, f64) {
    let mut information = 0.0;
    let mut improvement = 0.0;
    for (opponent, score) in opponents {
        let g_j = g(opponent.phi());
        let e = expected(mu, opponent.mu(), opponent.phi());
        information += g_j * g_j * e * (1.0 - e);
        improvement += g_j * (score - e);
    }
    (1.0 / information, improvement)
}

/// Step 5: the new volatility σ′, the root of f by the Illinois algorithm (regula falsi with
/// the stale end's value halved), to ε = 0.000001.
fn volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> Result<f64, RatingError> {
    // Step 5.1.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let denominator = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * denominator * denominator)
            - (x - a) / (tau * tau)
    };
    // Step 5.2: A and B bracket the root.
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
            if k > f64::from(MAX_ITERATIONS) {
                return Err(RatingError::NoConvergence);
            }
        }
        a - k * tau
    };
    // Step 5.3.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // Step 5.4.
    let mut iterations = 0;
    while (big_b - big_a).abs() > CONVERGENCE {
        iterations += 1;
        if iterations > MAX_ITERATIONS {
            return Err(RatingError::NoConvergence);
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        // ≤ as lichess has it; a strict < differs only when f(C) is exactly zero.
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    // Step 5.5.
    let sigma_new = (big_a / 2.0).exp();
    if sigma_new.is_finite() && sigma_new > 0.0 {
        Ok(sigma_new)
    } else {
        Err(RatingError::NotFinite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's example: the player and the three opponents with their scores.
    fn glickman() -> (Rating, [(Rating, f64); 3]) {
        (
            Rating::new(1500.0, 200.0, 0.06),
            [
                (Rating::new(1400.0, 30.0, 0.06), 1.0),
                (Rating::new(1550.0, 100.0, 0.06), 0.0),
                (Rating::new(1700.0, 300.0, 0.06), 0.0),
            ],
        )
    }

    /// Rounds to `places` decimals, as the paper prints its figures.
    fn round(x: f64, places: i32) -> f64 {
        let factor = 10f64.powi(places);
        (x * factor).round() / factor
    }

    #[test]
    fn glickman_step_2_converts_to_the_glicko2_scale() {
        let (player, opponents) = glickman();
        assert_eq!((player.mu(), round(player.phi(), 4)), (0.0, 1.1513));
        let figures: Vec<(f64, f64)> = opponents
            .iter()
            .map(|(o, _)| (round(o.mu(), 4), round(o.phi(), 4)))
            .collect();
        assert_eq!(
            figures,
            [(-0.5756, 0.1727), (0.2878, 0.5756), (1.1513, 1.7269)]
        );
    }

    #[test]
    fn glickman_step_3_table_g_and_e() {
        let (player, opponents) = glickman();
        let g_and_e: Vec<(f64, f64)> = opponents
            .iter()
            .map(|(o, _)| {
                (
                    round(g(o.phi()), 4),
                    round(expected(player.mu(), o.mu(), o.phi()), 3),
                )
            })
            .collect();
        assert_eq!(g_and_e, [(0.9955, 0.639), (0.9531, 0.432), (0.7242, 0.303)]);
    }

    #[test]
    fn glickman_steps_3_to_5_v_delta_and_the_volatility() {
        let (player, opponents) = glickman();
        let (v, improvement) = variance_and_improvement(player.mu(), &opponents);
        assert_eq!(round(v, 4), 1.7790);
        assert_eq!(round(improvement, 4), -0.2720);
        assert_eq!(round(v * improvement, 4), -0.4839);
        // The paper prints v = 1.7785 and Δ = −0.4834: it computes them from its step-3 table,
        // g rounded to four places and E to three.
        let table = [
            (0.9955, 0.639, 1.0),
            (0.9531, 0.432, 0.0),
            (0.7242, 0.303, 0.0),
        ];
        let paper_v = 1.0
            / table
                .iter()
                .map(|(g, e, _)| g * g * e * (1.0 - e))
                .sum::<f64>();
        let paper_sum: f64 = table.iter().map(|(g, e, s)| g * (s - e)).sum();
        assert_eq!(
            (round(paper_v, 4), round(paper_v * paper_sum, 4)),
            (1.7785, -0.4834)
        );
        let sigma = volatility(v * improvement, player.phi(), v, 0.06, 0.5).unwrap();
        // The paper prints σ′ = 0.05999: the root is 0.0599960, printed cut to five places.
        assert_eq!(round(sigma, 7), 0.059_996_0);
        assert_eq!((sigma * 100_000.0).trunc() / 100_000.0, 0.05999);
    }

    #[test]
    fn glickman_steps_6_to_8_reproduce_the_printed_figures() {
        let (player, opponents) = glickman();
        let (mu, phi, _) = period(&player, &opponents, 0.5).unwrap();
        assert_eq!((round(mu, 4), round(phi, 4)), (-0.2069, 0.8722));
        // The paper converts the four-place μ′ and φ′: 173.7178 × −0.2069 + 1500 = 1464.06 and
        // 173.7178 × 0.8722 = 151.52. Unrounded, μ′ = −0.206944 gives 1464.0507.
        assert_eq!(round(SCALE * -0.2069 + CENTRE, 2), 1464.06);
        assert_eq!(round(SCALE * 0.8722, 2), 151.52);
        assert_eq!(round(SCALE * mu + CENTRE, 4), 1464.0507);
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let params = Params::default();
        let after = update(&Rating::new(1600.0, 100.0, 0.06), &[], &params).unwrap();
        assert_eq!(after.rating, 1600.0);
        assert_eq!(after.volatility, 0.06);
        // √(100² + (0.06 × 173.7178)²)
        assert_eq!(round(after.deviation, 4), 100.5417);
    }

    #[test]
    fn bad_figures_are_refused_in_one_sentence() {
        let params = Params::default();
        let player = Rating::new_player();
        let nan = Rating::new(f64::NAN, 500.0, 0.09);
        assert_eq!(
            update(&nan, &[], &params).unwrap_err().to_string(),
            "the rating NaN is not a finite number"
        );
        let no_rd = Rating::new(1500.0, 0.0, 0.09);
        assert_eq!(
            update(&player, &[(no_rd, 1.0)], &params)
                .unwrap_err()
                .to_string(),
            "the deviation 0 is not a finite number above zero"
        );
        assert_eq!(
            rate_game(&player, &player, 2.0, 0.0, 0.0, &params)
                .unwrap_err()
                .to_string(),
            "the score 2 is not between 0 (a loss) and 1 (a win)"
        );
        assert_eq!(
            rate_game(&player, &player, 1.0, -1.0, 0.0, &params)
                .unwrap_err()
                .to_string(),
            "the time since the last rated game, -1 days, is not zero or more"
        );
        let params = Params {
            min_deviation: 600.0,
            ..params
        };
        assert_eq!(
            update(&player, &[], &params).unwrap_err().to_string(),
            "the rating parameters are wrong: the deviation bounds must be finite with 0 < min ≤ max"
        );
    }
}
