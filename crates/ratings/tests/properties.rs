//! Properties of every rated game: figures finite, the deviation within its bounds, the winner
//! never losing rating, a draw moving each rating towards the other, colours not mattering.

use menagerie_ratings::{rate_game, update, Params, Rating};
use proptest::prelude::*;

/// Any rating a player can hold under the default bounds.
fn rating() -> impl Strategy<Value = Rating> {
    (0.0..4000.0f64, 45.0..=500.0f64, 0.01..0.2f64)
        .prop_map(|(rating, deviation, volatility)| Rating::new(rating, deviation, volatility))
}

/// A game's score for White: a loss, a draw or a win.
fn score() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(0.5), Just(1.0)]
}

/// Days since a player's last game, up to ten years.
fn days() -> impl Strategy<Value = f64> {
    0.0..3650.0f64
}

/// Whether a rating is finite with its deviation within the default bounds.
fn sound(r: &Rating) -> bool {
    r.rating.is_finite()
        && (45.0..=500.0).contains(&r.deviation)
        && r.volatility.is_finite()
        && r.volatility > 0.0
}

proptest! {
    #[test]
    fn every_game_gives_sound_ratings_and_the_winner_never_loses(
        white in rating(), black in rating(), score in score(), dw in days(), db in days(),
    ) {
        let (w, b) = rate_game(&white, &black, score, dw, db, &Params::default()).unwrap();
        prop_assert!(sound(&w) && sound(&b), "{w:?} {b:?}");
        if score == 1.0 {
            prop_assert!(w.rating > white.rating && b.rating < black.rating);
        } else if score == 0.0 {
            prop_assert!(w.rating < white.rating && b.rating > black.rating);
        } else if white.rating < black.rating {
            // A draw moves each rating towards the other's.
            prop_assert!(w.rating >= white.rating && b.rating <= black.rating);
        } else {
            prop_assert!(w.rating <= white.rating && b.rating >= black.rating);
        }
    }

    #[test]
    fn colours_do_not_matter(
        a in rating(), b in rating(), score in score(), da in days(), db in days(),
    ) {
        let params = Params::default();
        let (a_white, b_black) = rate_game(&a, &b, score, da, db, &params).unwrap();
        let (b_white, a_black) = rate_game(&b, &a, 1.0 - score, db, da, &params).unwrap();
        prop_assert_eq!((a_white, b_black), (a_black, b_white));
    }

    #[test]
    fn a_rating_period_of_many_games_gives_a_sound_rating(
        player in rating(), games in prop::collection::vec((rating(), score()), 0..30),
    ) {
        let after = update(&player, &games, &Params::default()).unwrap();
        prop_assert!(sound(&after), "{after:?}");
    }

    #[test]
    fn extreme_figures_give_sound_ratings_or_an_error(
        white in wide_rating(), black in wide_rating(),
        score in -0.5..1.5f64, dw in 0.0..1e9f64, db in 0.0..1e9f64,
    ) {
        // Whatever a corrupt store holds: never a panic, never a figure that is not finite.
        if let Ok((w, b)) = rate_game(&white, &black, score, dw, db, &Params::default()) {
            prop_assert!(sound(&w) && sound(&b), "{w:?} {b:?}");
        }
    }

    #[test]
    fn figures_that_are_not_numbers_are_refused(
        bad in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY)],
        field in 0..5usize,
    ) {
        let mut figures = [1500.0, 200.0, 0.06, 1.0, 3.0];
        figures[field] = bad;
        let white = Rating::new(figures[0], figures[1], figures[2]);
        let black = Rating::new_player();
        prop_assert!(rate_game(&white, &black, figures[3], figures[4], 0.0, &Params::default()).is_err());
    }
}

/// Ratings far outside any real pool, down to almost no deviation or volatility.
fn wide_rating() -> impl Strategy<Value = Rating> {
    (-1e12..1e12f64, 0.0..1e6f64, 0.0..10.0f64)
        .prop_map(|(rating, deviation, volatility)| Rating::new(rating, deviation, volatility))
}
