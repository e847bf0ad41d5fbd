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
}
