//! Glicko-2 through the public API, with exact figures: Glickman's worked example, lichess's
//! defaults, the bounds of the deviation and its growth with time away.

use menagerie_ratings::{rate_game, update, Params, Rating};

/// Rounds to `places` decimals, as the figures are quoted.
fn round(x: f64, places: i32) -> f64 {
    let factor = 10f64.powi(places);
    (x * factor).round() / factor
}

#[test]
fn glickmans_worked_example() {
    let player = Rating::new(1500.0, 200.0, 0.06);
    let games = [
        (Rating::new(1400.0, 30.0, 0.06), 1.0),
        (Rating::new(1550.0, 100.0, 0.06), 0.0),
        (Rating::new(1700.0, 300.0, 0.06), 0.0),
    ];
    let params = Params {
        tau: 0.5,
        ..Params::default()
    };
    let after = update(&player, &games, &params).unwrap();
    // The paper prints 1464.06, RD 151.52, volatility 0.05999. Its 1464.06 is
    // 173.7178 × μ′ + 1500 with μ′ already rounded to −0.2069; the unrounded μ′ = −0.206944
    // gives 1464.0507 (the unit test glickman_steps_6_to_8_reproduce_the_printed_figures
    // repeats the paper's rounding). Its σ′ = 0.05999 is 0.0599960 cut to five places.
    assert_eq!(round(after.rating, 4), 1464.0507);
    assert_eq!(round(after.deviation, 2), 151.52);
    assert_eq!(round(after.deviation, 4), 151.5165);
    assert_eq!((after.volatility * 100_000.0).trunc() / 100_000.0, 0.05999);
    assert_eq!(round(after.volatility, 7), 0.059_996_0);
}

#[test]
fn two_new_players_white_wins() {
    let params = Params::default();
    let new = Rating::new_player();
    let (white, black) = rate_game(&new, &new, 1.0, 0.0, 0.0, &params).unwrap();
    assert_eq!(
        (round(white.rating, 2), round(black.rating, 2)),
        (1741.62, 1258.38)
    );
    assert_eq!(
        (round(white.deviation, 2), round(black.deviation, 2)),
        (396.81, 396.81)
    );
    assert_eq!(
        (round(white.rating, 4), round(white.deviation, 4)),
        (1741.6244, 396.8118)
    );
    assert_eq!(round(white.volatility, 7), 0.089_998_3);
    assert!(white.is_provisional() && black.is_provisional());
    assert_eq!(
        (white.to_string(), black.to_string()),
        ("1742?".to_string(), "1258?".to_string())
    );
}

#[test]
fn two_new_players_black_wins_mirrors_white_winning() {
    let params = Params::default();
    let new = Rating::new_player();
    let (white, black) = rate_game(&new, &new, 0.0, 0.0, 0.0, &params).unwrap();
    assert_eq!(
        (round(white.rating, 2), round(black.rating, 2)),
        (1258.38, 1741.62)
    );
}

#[test]
fn a_draw_between_equals_leaves_them_equal() {
    let params = Params::default();
    let new = Rating::new_player();
    let (white, black) = rate_game(&new, &new, 0.5, 0.0, 0.0, &params).unwrap();
    assert_eq!(white, black);
    assert_eq!(white.rating, 1500.0);
    assert_eq!(round(white.deviation, 4), 396.8118);
    let established = Rating::new(1834.0, 70.0, 0.06);
    let (white, black) = rate_game(&established, &established, 0.5, 3.0, 3.0, &params).unwrap();
    assert_eq!(white, black);
    assert_eq!(white.rating, 1834.0);
}

#[test]
fn swapping_colours_swaps_the_results_exactly() {
    let params = Params::default();
    let a = Rating::new(1712.0, 83.0, 0.061);
    let b = Rating::new(1540.0, 240.0, 0.09);
    for score in [0.0, 0.5, 1.0] {
        let (a_white, b_black) = rate_game(&a, &b, score, 12.0, 0.5, &params).unwrap();
        let (b_white, a_black) = rate_game(&b, &a, 1.0 - score, 0.5, 12.0, &params).unwrap();
        assert_eq!((a_white, b_black), (a_black, b_white), "score {score}");
    }
}

#[test]
fn equal_deviations_give_equal_and_opposite_changes() {
    let params = Params::default();
    let white = Rating::new(1620.0, 90.0, 0.06);
    let black = Rating::new(1480.0, 90.0, 0.06);
    let (white_after, black_after) = rate_game(&white, &black, 0.0, 0.0, 0.0, &params).unwrap();
    let gained = black_after.rating - black.rating;
    let lost = white.rating - white_after.rating;
    assert!(gained > 0.0);
    assert!((gained - lost).abs() < 1e-9, "gained {gained}, lost {lost}");
}

#[test]
fn the_deviation_never_falls_below_45() {
    let steady = Rating::new(1500.0, 45.0, 0.01);
    // Without the bound this draw would bring both deviations to 44.6673.
    let unbounded = Params {
        min_deviation: 1.0,
        ..Params::default()
    };
    let (white, _) = rate_game(&steady, &steady, 0.5, 0.0, 0.0, &unbounded).unwrap();
    assert_eq!(round(white.deviation, 4), 44.6673);
    let (white, black) = rate_game(&steady, &steady, 0.5, 0.0, 0.0, &Params::default()).unwrap();
    assert_eq!((white.deviation, black.deviation), (45.0, 45.0));
}

#[test]
fn the_deviation_never_rises_above_500() {
    let params = Params::default();
    let new = Rating::new_player();
    // √(500² + (0.09 × 173.7178)² × 1000 × 0.21436) = 549.91, kept at 500.
    assert_eq!(
        new.after_inactivity(1000.0, &params).unwrap().deviation,
        500.0
    );
    let unbounded = Params {
        max_deviation: 1000.0,
        ..params
    };
    assert_eq!(
        round(
            new.after_inactivity(1000.0, &unbounded).unwrap().deviation,
            2
        ),
        549.91
    );
    // A period without games: √(500² + 0.09² × 173.7178²) = 500.24, kept at 500.
    assert_eq!(update(&new, &[], &params).unwrap().deviation, 500.0);
    assert_eq!(
        round(update(&new, &[], &unbounded).unwrap().deviation, 2),
        500.24
    );
}

#[test]
fn the_deviation_grows_with_time_away() {
    let params = Params::default();
    // lichess chose 0.21436 periods a day so that a typical RD goes from 60 to 110 in a year:
    // √(60² + (0.06 × 173.7178)² × 365 × 0.21436) = 110.0008.
    let regular = Rating::new(1600.0, 60.0, 0.06);
    let a_year_later = regular.after_inactivity(365.0, &params).unwrap();
    assert_eq!(round(a_year_later.deviation, 4), 110.0008);
    assert_eq!(
        (a_year_later.rating, a_year_later.volatility),
        (1600.0, 0.06)
    );
    assert!(!regular.is_provisional() && a_year_later.is_provisional());
    // √(200² + (0.09 × 173.7178)² × 30 × 0.21436) = 203.8920.
    let month = Rating::new(1500.0, 200.0, 0.09)
        .after_inactivity(30.0, &params)
        .unwrap();
    assert_eq!(round(month.deviation, 4), 203.892);
    assert_eq!(regular.after_inactivity(0.0, &params).unwrap(), regular);
}

#[test]
fn a_game_after_time_away_uses_the_grown_deviation() {
    let params = Params::default();
    let white = Rating::new(1600.0, 60.0, 0.06);
    let black = Rating::new(1500.0, 80.0, 0.06);
    // White comes back after a year (RD 110.0008) and loses to Black, who played today.
    let (white_after, black_after) = rate_game(&white, &black, 0.0, 365.0, 0.0, &params).unwrap();
    assert_eq!(round(white_after.rating, 4), 1560.1818);
    assert_eq!(round(white_after.deviation, 4), 105.9314);
    assert_eq!(round(black_after.rating, 4), 1521.4207);
    assert_eq!(round(black_after.deviation, 4), 78.9322);
}

#[test]
fn provisional_while_the_deviation_is_110_or_more() {
    assert!(Rating::new_player().is_provisional());
    assert!(Rating::new(1500.0, 110.0, 0.06).is_provisional());
    assert!(!Rating::new(1500.0, 109.99, 0.06).is_provisional());
    assert_eq!(Rating::new(1500.0, 110.0, 0.06).to_string(), "1500?");
    assert_eq!(Rating::new(1623.4, 109.0, 0.06).to_string(), "1623");
}

#[test]
fn new_players_and_bots_start_at_rd_500() {
    assert_eq!(Rating::new_player(), Rating::new(1500.0, 500.0, 0.09));
    assert_eq!(Rating::default(), Rating::new_player());
    assert_eq!(
        Rating::starting_at(2000.0),
        Rating::new(2000.0, 500.0, 0.09)
    );
    assert_eq!(
        Params::default(),
        Params {
            tau: 0.75,
            min_deviation: 45.0,
            max_deviation: 500.0,
            rating_periods_per_day: 0.21436
        }
    );
}
