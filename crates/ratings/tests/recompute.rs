//! Recomputing ratings from the rated games in order gives what rating each game as it ended gave.

use menagerie_ratings::{
    rate_game, recompute, GameRatings, Params, RatedGame, Rating, RecomputeError,
};

const DAY_MS: i64 = 86_400_000;

/// A rated game between two named players.
fn game(
    white: &'static str,
    black: &'static str,
    score_white: f64,
    ended_ms: i64,
) -> RatedGame<&'static str> {
    RatedGame {
        white,
        black,
        score_white,
        ended_ms,
    }
}

#[test]
fn recomputing_gives_what_each_game_gave_as_it_ended() {
    let params = Params::default();
    let t0 = 1_700_000_000_000;
    let games = vec![
        game("ada", "bo", 1.0, t0),
        game("bo", "cy", 0.5, t0 + 2 * DAY_MS),
        game("cy", "ada", 0.0, t0 + 9 * DAY_MS + 3_600_000),
        game("ada", "bo", 0.0, t0 + 40 * DAY_MS),
    ];
    let recomputed = recompute(games.clone(), |_| Rating::new_player(), &params).unwrap();

    // The same games rated one by one as they ended, the days since each player's last game by hand.
    let new = Rating::new_player();
    let (ada1, bo1) = rate_game(&new, &new, 1.0, 0.0, 0.0, &params).unwrap();
    let (bo2, cy2) = rate_game(&bo1, &new, 0.5, 2.0, 0.0, &params).unwrap();
    // An hour is 1/24 of a day: 7 days 1 hour = 169 / 24 days.
    let (cy3, ada3) = rate_game(&cy2, &ada1, 0.0, 169.0 / 24.0, 217.0 / 24.0, &params).unwrap();
    let (ada4, bo4) = rate_game(&ada3, &bo2, 0.0, 743.0 / 24.0, 38.0, &params).unwrap();
    let expected = [
        GameRatings {
            white_before: new,
            white_after: ada1,
            black_before: new,
            black_after: bo1,
        },
        GameRatings {
            white_before: bo1,
            white_after: bo2,
            black_before: new,
            black_after: cy2,
        },
        GameRatings {
            white_before: cy2,
            white_after: cy3,
            black_before: ada1,
            black_after: ada3,
        },
        GameRatings {
            white_before: ada3,
            white_after: ada4,
            black_before: bo2,
            black_after: bo4,
        },
    ];
    assert_eq!(recomputed.games, expected);
    let finals: Vec<(&str, Rating, u32, i64)> = recomputed
        .players
        .iter()
        .map(|(name, p)| (*name, p.rating, p.games, p.last_game_ms))
        .collect();
    assert_eq!(
        finals,
        [
            ("ada", ada4, 3, t0 + 40 * DAY_MS),
            ("bo", bo4, 3, t0 + 40 * DAY_MS),
            ("cy", cy3, 2, t0 + 9 * DAY_MS + 3_600_000),
        ]
    );
    // Bit for bit the same on a second run.
    assert_eq!(
        recompute(games, |_| Rating::new_player(), &params).unwrap(),
        recomputed
    );
}

#[test]
fn each_player_starts_where_start_says() {
    let params = Params::default();
    let bot = Rating::starting_at(2000.0);
    let start = |name: &&str| {
        if name.starts_with("level") {
            bot
        } else {
            Rating::new_player()
        }
    };
    let recomputed = recompute([game("ada", "level-3", 1.0, 0)], start, &params).unwrap();
    let (ada, level) = rate_game(&Rating::new_player(), &bot, 1.0, 0.0, 0.0, &params).unwrap();
    assert_eq!(recomputed.games[0].black_before, bot);
    assert_eq!(
        (
            recomputed.players["ada"].rating,
            recomputed.players["level-3"].rating
        ),
        (ada, level)
    );
    // Beating a player rated 500 points higher gains more than beating an equal: 1741.62.
    assert!(ada.rating > 1800.0, "{}", ada.rating);
}

#[test]
fn no_games_no_players() {
    let none: Vec<RatedGame<u32>> = Vec::new();
    let recomputed = recompute(none, |_| Rating::new_player(), &Params::default()).unwrap();
    assert!(recomputed.players.is_empty() && recomputed.games.is_empty());
}

#[test]
fn bad_games_are_named_by_their_number() {
    let params = Params::default();
    let new = |_: &&str| Rating::new_player();
    let same = recompute(
        [game("ada", "bo", 1.0, 0), game("ada", "ada", 1.0, 5)],
        new,
        &params,
    );
    assert_eq!(same, Err(RecomputeError::SamePlayer { game: 2 }));
    assert_eq!(
        same.unwrap_err().to_string(),
        "rated game 2 has the same player with White and Black"
    );
    let out_of_order = recompute(
        [game("ada", "bo", 1.0, 10), game("cy", "bo", 1.0, 9)],
        new,
        &params,
    );
    assert_eq!(
        out_of_order.unwrap_err().to_string(),
        "rated game 2 ended before an earlier game of one of its players"
    );
    let bad_score = recompute([game("ada", "bo", 2.0, 0)], new, &params);
    assert_eq!(
        bad_score.unwrap_err().to_string(),
        "rated game 1: the score 2 is not between 0 (a loss) and 1 (a win)"
    );
}

#[test]
fn ratings_come_back_from_json_bit_for_bit() {
    let params = Params::default();
    let games = [
        game("ada", "bo", 1.0, 0),
        game("bo", "ada", 0.5, 3 * DAY_MS + 17),
    ];
    let recomputed = recompute(games, |_| Rating::new_player(), &params).unwrap();
    let json = serde_json::to_string(&recomputed).unwrap();
    let back: menagerie_ratings::Recomputed<String> = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    assert_eq!(back.games, recomputed.games);
    assert_eq!(back.players["bo"], recomputed.players["bo"]);
    assert_eq!(
        serde_json::to_string(&Rating::new_player()).unwrap(),
        r#"{"rating":1500.0,"deviation":500.0,"volatility":0.09}"#
    );
}
