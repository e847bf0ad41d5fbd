//! Property tests over random games of every variant under every combination of its rule
//! options (`menagerie variants --options`).

use menagerie_core::{Color, Position, RuleOptions, VariantSpec};
use menagerie_robustness::api::{self, AnyGame, TypedCheck};
use menagerie_robustness::checks;
use menagerie_robustness::mutate::Rng;
use proptest::prelude::*;
use std::time::Duration;

/// Every `(variant, options)` pair.
fn all_settings() -> Vec<(&'static str, Vec<String>)> {
    let mut all = Vec::new();
    for id in api::variant_ids() {
        for opts in api::option_sets(id) {
            all.push((id, opts));
        }
    }
    all
}

/// A game of `id` under `opts` after up to `plies` random legal turns from its start,
/// checking play/undo and the position string round trip at every step.
fn random_game(id: &str, opts: &[String], seed: u64, plies: usize) -> Box<dyn AnyGame> {
    let mut game = api::open(id, None, opts).expect("the start opens");
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let before = game.fen();
        let mv = &moves[rng.below(moves.len())];
        let (c, _) = game
            .push(mv)
            .unwrap_or_else(|e| panic!("{id}: {mv} at {before}: {e}"));
        let after = game.fen();
        assert_eq!(game.pop().as_deref(), Some(c.as_str()));
        assert_eq!(
            game.fen(),
            before,
            "{id} {opts:?}: play and undo of {c} at {before}"
        );
        game.push(&c).expect("the same turn again");
        assert_eq!(
            game.fen(),
            after,
            "{id}: {c} played twice from {before} differs"
        );
        let reopened = api::open(id, Some(&after), opts)
            .unwrap_or_else(|e| panic!("{id} {opts:?}: {after} (after {c}) is refused: {e}"));
        assert_eq!(
            reopened.fen(),
            after,
            "{id} {opts:?}: round trip of {after}"
        );
    }
    game
}

fn setting() -> impl Strategy<Value = (&'static str, Vec<String>)> {
    let all = all_settings();
    (0..all.len()).prop_map(move |i| all[i].clone())
}

/// Every rule option set of Little Cheops Imperial.
fn imperial_options() -> impl Strategy<Value = Vec<String>> {
    let sets = api::option_sets("little-cheops-imperial");
    (0..sets.len()).prop_map(move |i| sets[i].clone())
}

/// Squares listed in field `n` (0-based) of a position string, `-` being none.
fn field_squares(fen: &str, n: usize) -> Vec<String> {
    match fen.split_whitespace().nth(n) {
        None | Some("-") => Vec::new(),
        Some(f) => f.split(',').map(str::to_string).collect(),
    }
}

/// The board letter on square `name` (`g5`) of a position string's board field.
fn letter_at(fen: &str, name: &str) -> Option<char> {
    let board = fen.split_whitespace().next()?;
    let rows: Vec<&str> = board.split('/').collect();
    let file = usize::from(name.bytes().next()?.checked_sub(b'a')?);
    let rank: usize = name.get(1..)?.parse().ok()?;
    let row = rows.get(rows.len().checked_sub(rank)?)?;
    let mut col = 0;
    let mut digits = String::new();
    for ch in row.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        col += digits.parse::<usize>().unwrap_or(0);
        digits.clear();
        if col == file {
            return Some(ch);
        }
        col += 1;
    }
    None
}

/// Perft through the typed game.
struct TypedPerft(u32);
impl TypedCheck<u64> for TypedPerft {
    fn run<P: Position>(self, spec: VariantSpec<P>, fen: &str, opts: &RuleOptions) -> u64 {
        (spec.from_fen)(fen, opts).map_or(u64::MAX, |p| p.perft(self.0))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Play/undo identity and the round trip at every step; then, from where the game
    /// stands, every turn's key after play equals the key re-read from its string.
    #[test]
    fn play_undo_round_trip_and_keys((id, opts) in setting(), seed in any::<u64>(), plies in 0usize..60) {
        let mut game = random_game(id, &opts, seed, plies);
        checks::typed_position(id, &game.fen(), &opts);
        checks::accepted_game(id, &opts, game.as_mut());
        let start = game.start_fen();
        while game.pop().is_some() {}
        prop_assert_eq!(game.fen(), start);
    }

    /// Perft through the dynamic layer equals perft through the typed game.
    #[test]
    fn perft_dynamic_equals_typed((id, opts) in setting(), seed in any::<u64>(), plies in 0usize..30) {
        let game = random_game(id, &opts, seed, plies);
        let fen = game.fen();
        prop_assert_eq!(Some(game.perft(2)), api::with_typed(id, &fen, &opts, TypedPerft(2)), "{} at {}", id, fen);
    }

    /// Imperial, under each of its rule option sets: no view string holds the opponent's
    /// sealed papers, and the turns a player is offered from their view equal those offered
    /// from the umpire's position (R41).
    #[test]
    fn imperial_views_keep_the_secret(opts in imperial_options(), seed in any::<u64>(), plies in 0usize..120) {
        let id = "little-cheops-imperial";
        let mut game = api::open(id, None, &opts).expect("start");
        let mut rng = Rng::new(seed);
        for _ in 0..plies {
            let umpire = game.fen();
            let papers = field_squares(&umpire, 6);
            for player in [Color::White, Color::Black] {
                let view = game.view_fen(player);
                for sq in field_squares(&view, 6) {
                    let own = letter_at(&umpire, &sq).is_some_and(|c| match player {
                        Color::White => c.is_ascii_uppercase(),
                        Color::Black => c.is_ascii_lowercase(),
                    });
                    prop_assert!(own && papers.contains(&sq), "{:?}'s view {} of {} lists {}", player, view, umpire, sq);
                }
                if game.outcome().is_none() && game.turn() == player {
                    let seen = api::open(id, Some(&view), &opts).expect("a view opens");
                    prop_assert_eq!(seen.legal_moves(), game.legal_moves(), "R41 at {} (view {})", umpire, view);
                }
            }
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            // Appointments first when offered, so that sealed papers occur.
            let appoint: Vec<&String> = moves.iter().filter(|m| m.starts_with("appoint")).collect();
            let mv = if !appoint.is_empty() && rng.below(2) == 0 {
                appoint[rng.below(appoint.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            game.push(&mv).expect("an offered turn");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// A search with a node limit returns a legal turn having searched at most that many
    /// nodes; with a time limit, a legal turn within the time plus a generous margin.
    #[test]
    fn limited_search_returns_a_legal_turn((id, opts) in setting(), seed in any::<u64>(), plies in 0usize..30, nodes in 1u64..4000) {
        let mut game = random_game(id, &opts, seed, plies);
        if game.outcome().is_some() || game.legal_moves().is_empty() {
            return Ok(());
        }
        let legal = game.legal_moves();
        let by_nodes = api::search(game.as_mut(), None, Some(nodes), None);
        prop_assert!(by_nodes.best.as_ref().is_some_and(|b| legal.contains(b)), "{} {:?}", id, by_nodes);
        let by_time = api::search(game.as_mut(), None, None, Some(Duration::from_millis(30)));
        prop_assert!(by_time.best.as_ref().is_some_and(|b| legal.contains(b)), "{} {:?}", id, by_time);
        prop_assert!(by_time.elapsed < Duration::from_millis(30) + MARGIN, "{}: {:?} for 30 ms at {}", id, by_time.elapsed, game.fen());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// A search with a node limit searches at most that many nodes.
    #[test]
    fn node_limited_search_stays_within_its_limit((id, opts) in setting(), seed in any::<u64>(), plies in 0usize..30, nodes in 1u64..4000) {
        let mut game = random_game(id, &opts, seed, plies);
        if game.outcome().is_some() || game.legal_moves().is_empty() {
            return Ok(());
        }
        let by_nodes = api::search(game.as_mut(), None, Some(nodes), None);
        prop_assert!(by_nodes.nodes <= nodes, "{}: {} nodes searched for a limit of {} at {}", id, by_nodes.nodes, nodes, game.fen());
    }
}

/// What a time-limited search may overrun on a loaded machine.
const MARGIN: Duration = Duration::from_millis(1500);

/// Every option set of every variant plays a short random game (play/undo, round trips).
#[test]
fn every_option_set_plays_a_short_game() {
    for (i, (id, opts)) in all_settings().into_iter().enumerate() {
        random_game(id, &opts, i as u64, 12);
    }
}
