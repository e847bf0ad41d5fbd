//! The match runner: two players over a number of games with alternating colours, random
//! openings, adjudication after a number of plies, forfeits for illegal moves, and the
//! score with its Elo difference. Openings may be paired (each played once with each
//! colour), and a sequential test ([`crate::sprt`]) may stop the match early. Output is the
//! caller's: it sees each game as it ends.

use crate::openings::balanced_opening;
use crate::players::{Player, Rng};
use crate::record::points;
use crate::sprt::{Sprt, SprtStatus, Verdict};
use menagerie_core::{Color, Outcome, RuleOptions, Termination};
use menagerie_variants::{Variant, VariantError};
use std::collections::BTreeMap;

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub variant: Variant,
    /// Every game starts here (default: the start position).
    pub fen: Option<String>,
    /// The rule options.
    pub options: RuleOptions,
    /// Number of games; A has White in the odd-numbered ones.
    pub games: u32,
    /// Random plies played before the players take over (a balanced opening:
    /// [`crate::openings`]).
    pub opening_plies: u32,
    /// A draw is adjudicated after this many plies.
    pub max_plies: u32,
    /// Seed for the random openings.
    pub seed: u64,
    /// Whether games 2k−1 and 2k share their random opening (each side plays it once with
    /// each colour), so a pair of games is one unit of the test.
    pub paired: bool,
    /// A sequential test that ends the match once it decides (checked after each pair when
    /// paired, else after each game); `games` stays the most played.
    pub sprt: Option<Sprt>,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// 1-based game number.
    pub number: u32,
    /// Whether player A had White.
    pub a_white: bool,
    /// How it ended.
    pub outcome: Outcome,
    /// Plies played.
    pub plies: usize,
    /// A's points by the game's own table (1, ½, 0 where it has none).
    pub points_a: f64,
    /// B's points.
    pub points_b: f64,
    /// The final position string.
    pub fen: String,
    /// The game's record (`Round`, `White` and `Black` as `A` or `B`, every move).
    pub record: String,
}

/// A whole match: each game, the totals, the Elo estimate.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The games in order.
    pub games: Vec<GameResult>,
    /// A's points.
    pub points_a: f64,
    /// B's points.
    pub points_b: f64,
    /// Where the sequential test stands after the games so far, if there is one.
    pub sprt: Option<SprtStatus>,
}

impl Summary {
    /// Each game's score for A as a fraction of the points in it, in [0, 1].
    pub fn fractions(&self) -> Vec<f64> {
        self.games
            .iter()
            .map(|r| r.points_a / (r.points_a + r.points_b).max(1e-9))
            .collect()
    }
    /// A's Elo difference and the half-width of its 95% interval (over games).
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        elo_with_margin(&self.fractions())
    }
    /// The same over pairs of games on one opening (each pair's mean score a sample, so
    /// the margin counts how the two colours of an opening go together); the unfinished
    /// last pair left out.
    pub fn elo_pairs(&self) -> (Option<f64>, Option<f64>) {
        let pairs: Vec<f64> = self
            .fractions()
            .chunks_exact(2)
            .map(|p| (p[0] + p[1]) / 2.0)
            .collect();
        elo_with_margin(&pairs)
    }
    /// How many games ended each way, by termination code.
    pub fn endings(&self) -> BTreeMap<String, u32> {
        let mut endings = BTreeMap::new();
        for r in &self.games {
            *endings.entry(r.outcome.termination.code()).or_default() += 1;
        }
        endings
    }
    /// The mean length in plies.
    pub fn average_plies(&self) -> f64 {
        let plies: usize = self.games.iter().map(|r| r.plies).sum();
        plies as f64 / self.games.len().max(1) as f64
    }
    /// A's share of all points, in percent.
    pub fn percent_a(&self) -> f64 {
        100.0 * self.points_a / (self.points_a + self.points_b).max(1e-9)
    }
}

/// The Elo difference for score fraction `p` (`None` at 0% or 100%).
fn elo(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10())
}

/// Elo difference and the half-width of its 95% interval, from per-game scores in [0, 1].
pub fn elo_with_margin(scores: &[f64]) -> (Option<f64>, Option<f64>) {
    let n = scores.len() as f64;
    if n == 0.0 {
        return (None, None);
    }
    let p = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
    let sd = (var / n).sqrt();
    let lo = elo(p - 1.96 * sd);
    let hi = elo(p + 1.96 * sd);
    let margin = match (lo, hi) {
        (Some(l), Some(h)) => Some((h - l) / 2.0),
        _ => None,
    };
    (elo(p), margin)
}

/// Plays game `number` of the match between `a` and `b`.
pub fn play_game(
    config: &MatchConfig,
    number: u32,
    a: &mut dyn Player,
    b: &mut dyn Player,
    rng: &mut Rng,
) -> Result<GameResult, VariantError> {
    let a_white = number % 2 == 1;
    let mut g = config
        .variant
        .open(config.fen.as_deref(), &config.options)?;
    a.new_game();
    b.new_game();
    let opening = balanced_opening(
        &config.variant,
        config.fen.as_deref(),
        &config.options,
        config.opening_plies,
        rng,
    )?;
    for mv in &opening {
        g.push(mv)?;
    }
    let outcome: Outcome = loop {
        if let Some(o) = g.outcome() {
            break o;
        }
        if g.ply() >= config.max_plies as usize {
            break Outcome::draw(Termination::rule(
                "max-plies",
                format!(
                    "max-plies: adjudicated a draw after {} plies",
                    config.max_plies
                ),
            ));
        }
        let white_to_move = g.turn() == Color::White;
        let mover: &mut dyn Player = if white_to_move == a_white { a } else { b };
        let mv = mover.choose(g.as_mut())?;
        // A claim the mover makes with its turn (the fifty-round challenge, R38); one the
        // game refuses changes nothing.
        if let Some(code) = mover.claim(g.as_ref()) {
            let side = g.turn();
            let _ = g.claim_by(side, &code);
        }
        if g.push(&mv).is_err() {
            // An illegal move from an external engine loses the game, as in any arena.
            break Outcome::win(
                g.turn().other(),
                Termination::rule("forfeit", format!("forfeit: illegal move {mv}")),
            );
        }
    };
    let (w, bl) = points(&outcome);
    let (pa, pb) = if a_white { (w, bl) } else { (bl, w) };
    let (white, black) = if a_white { ("A", "B") } else { ("B", "A") };
    let tags = [
        ("Round", number.to_string()),
        ("White", white.to_string()),
        ("Black", black.to_string()),
    ];
    let record = crate::record::write(g.as_ref(), config.variant.start_fen, &tags, Some(&outcome));
    Ok(GameResult {
        number,
        a_white,
        plies: g.ply(),
        points_a: f64::from(pa),
        points_b: f64::from(pb),
        fen: g.fen(),
        record,
        outcome,
    })
}

/// Plays the whole match; `on_game` sees each game as it ends (and may stop the match
/// with an error).
pub fn run(
    config: &MatchConfig,
    a: &mut dyn Player,
    b: &mut dyn Player,
    on_game: &mut dyn FnMut(&GameResult, &Summary) -> Result<(), VariantError>,
) -> Result<Summary, VariantError> {
    if config.games == 0 {
        return Err(VariantError::Other("--games needs at least 1 game".into()));
    }
    // Opening once up front reports a bad position before any game starts.
    config
        .variant
        .open(config.fen.as_deref(), &config.options)?;
    let mut rng = Rng::new(config.seed ^ 0x5EED);
    let mut pair_start = rng.clone();
    let mut summary = Summary::default();
    for number in 1..=config.games {
        // The second game of a pair replays the first one's opening.
        if config.paired {
            if number % 2 == 1 {
                pair_start = rng.clone();
            } else {
                rng = pair_start.clone();
            }
        }
        let r = play_game(config, number, a, b, &mut rng)?;
        summary.points_a += r.points_a;
        summary.points_b += r.points_b;
        summary.games.push(r);
        if let Some(test) = &config.sprt {
            summary.sprt = Some(test.status(&summary.fractions(), config.paired));
        }
        if let Some(last) = summary.games.last() {
            on_game(last, &summary)?;
        }
        let unit_done = !config.paired || number % 2 == 0;
        if unit_done && summary.sprt.is_some_and(|s| s.verdict != Verdict::Continue) {
            break;
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{GreedyPlayer, RandomPlayer};

    /// Little Cheops (Common) with the Pawns locked across the whole board in a chain that
    /// no Pawn can capture past and no King can cross: nobody can make progress.
    const BLOCKED: &str = "4k4/9/9/9/1p1p1p1p1/pPpPpPpPp/P1P1P1P1P/9/4K4 w 0 1";

    #[test]
    fn engines_claim_the_fifty_round_challenge_and_a_blocked_game_ends_by_it() {
        use crate::players::{engine_claim, EnginePlayer, CHALLENGE_CP};
        let variant = menagerie_variants::find("little-cheops").expect("little-cheops");
        let g = variant
            .open(Some(BLOCKED), &RuleOptions::new())
            .expect("blocked position");
        // Not ahead (the move's bonus at most): the challenge; ahead: none; once made, the
        // claim is no longer open.
        let even = Some(menagerie_variants::Score::Cp(CHALLENGE_CP));
        assert_eq!(engine_claim(g.as_ref(), even).as_deref(), Some("challenge"));
        let ahead = Some(menagerie_variants::Score::Cp(CHALLENGE_CP + 1));
        assert_eq!(engine_claim(g.as_ref(), ahead), None);
        let config = MatchConfig {
            variant,
            fen: Some(BLOCKED.to_string()),
            options: RuleOptions::new(),
            games: 1,
            opening_plies: 0,
            max_plies: 300,
            seed: 1,
            paired: false,
            sprt: None,
        };
        let limits = menagerie_variants::Limits::depth(2);
        let (mut a, mut b) = (EnginePlayer::new(limits), EnginePlayer::new(limits));
        let mut rng = Rng::new(1);
        let r = play_game(&config, 1, &mut a, &mut b, &mut rng).expect("the game");
        // White claims at once; a hundred turns later, with no Pawn move or capture
        // possible, the game is drawn by the challenge, not at the ply cap.
        assert_eq!(r.outcome.termination.code(), "fifty-round-challenge");
        assert_eq!(r.plies, 100);
        assert_eq!((r.points_a, r.points_b), (0.5, 0.5));
    }

    #[test]
    fn greedy_and_random_players_claim_nothing() {
        let g = menagerie_variants::find("little-cheops")
            .expect("little-cheops")
            .open(Some(BLOCKED), &RuleOptions::new())
            .expect("blocked position");
        assert_eq!(GreedyPlayer(Rng::new(1)).claim(g.as_ref()), None);
        assert_eq!(RandomPlayer(Rng::new(1)).claim(g.as_ref()), None);
    }

    #[test]
    fn elo_from_scores() {
        let (e, m) = elo_with_margin(&[1.0, 0.0]);
        assert_eq!(e, Some(0.0));
        assert!(m.is_none());
        let (e, m) = elo_with_margin(&[1.0, 1.0, 1.0, 0.0, 0.5, 0.5, 1.0, 0.0]);
        assert!((e.unwrap() - 88.7).abs() < 1.0, "{e:?}");
        assert!(m.unwrap() > 100.0);
    }

    #[test]
    fn a_match_alternates_colours_and_adjudicates() {
        let config = MatchConfig {
            variant: menagerie_variants::find("chess").expect("chess"),
            fen: None,
            options: RuleOptions::new(),
            games: 2,
            opening_plies: 0,
            max_plies: 6,
            seed: 1,
            paired: false,
            sprt: None,
        };
        let mut a = RandomPlayer(Rng::new(1));
        let mut b = GreedyPlayer(Rng::new(2));
        let mut seen = 0;
        let s = run(&config, &mut a, &mut b, &mut |_, _| {
            seen += 1;
            Ok(())
        })
        .expect("the match");
        assert_eq!(seen, 2);
        assert!(s.games[0].a_white && !s.games[1].a_white);
        assert!(s.games.iter().all(|g| g.plies == 6));
        assert_eq!(s.points_a + s.points_b, 2.0);
        assert_eq!(s.endings().get("max-plies"), Some(&2));
        // Each record names the seats and replays to the game's final position.
        for r in &s.games {
            let (white, black) = if r.a_white { ("A", "B") } else { ("B", "A") };
            let rec = crate::record::parse(&r.record, "game").expect("a record");
            assert_eq!(rec.tag("Round"), Some(r.number.to_string().as_str()));
            assert_eq!(rec.tag("White"), Some(white));
            assert_eq!(rec.tag("Black"), Some(black));
            assert_eq!(rec.tag("Termination"), Some("max-plies"));
            let mut g = config.variant.open(None, &config.options).expect("chess");
            crate::record::replay(g.as_mut(), &rec, "game").expect("replays");
            assert_eq!(g.ply(), 6);
            assert_eq!(g.fen(), r.fen);
        }
    }

    #[test]
    fn paired_openings_repeat_and_a_test_stops_the_match() {
        // Adjudicated right after 4 random plies: each game ends on its opening.
        let mut config = MatchConfig {
            variant: menagerie_variants::find("chess").expect("chess"),
            fen: None,
            options: RuleOptions::new(),
            games: 6,
            opening_plies: 4,
            max_plies: 4,
            seed: 3,
            paired: true,
            sprt: None,
        };
        let mut a = RandomPlayer(Rng::new(1));
        let mut b = RandomPlayer(Rng::new(2));
        let s = run(&config, &mut a, &mut b, &mut |_, _| Ok(())).expect("the match");
        let fens: Vec<&str> = s.games.iter().map(|g| g.fen.as_str()).collect();
        assert_eq!(fens[0], fens[1]);
        assert_eq!(fens[2], fens[3]);
        assert_eq!(fens[4], fens[5]);
        assert!(fens[0] != fens[2] || fens[2] != fens[4]);
        assert!(s.sprt.is_none());
        // Every game a draw: the LLR falls to H0 (A is not 10 Elo better), which stops
        // the match at the end of a pair once there are enough pairs, long before 400 games.
        config.games = 400;
        config.sprt = Sprt::new(0.0, 10.0, 0.05, 0.05);
        let mut seen = 0;
        let s = run(&config, &mut a, &mut b, &mut |_, _| {
            seen += 1;
            Ok(())
        })
        .expect("the match");
        let n = s.games.len();
        assert_eq!(seen, n);
        assert_eq!(n, 2 * crate::sprt::MIN_UNITS as usize, "{n} games");
        let status = s.sprt.expect("a test");
        assert_eq!(status.verdict, Verdict::H0);
        assert!(status.llr <= status.lower);
        // One pair fewer would not have decided.
        let before = Sprt::new(0.0, 10.0, 0.05, 0.05)
            .expect("a test")
            .status(&s.fractions()[..n - 2], true);
        assert_eq!(before.verdict, Verdict::Continue);
    }
}
