//! Who chooses the moves in `play` and `match`: a human, this engine, a random mover, a
//! greedy capturer, or an external UCI engine.

use crate::engine::Engine;
use crate::limits::{self, Kind};
use crate::uci_client::UciEngine;
use menagerie_variants::{AnyGame, Evaluation, Limits, Score, VariantError};
use std::time::Duration;

/// A small seeded generator (SplitMix64): reproducible matches without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// A player as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// A person typing moves.
    Human,
    /// This engine; `None` limits use the caller's default.
    Engine(Option<Limits>),
    /// A uniformly random legal move.
    Random,
    /// A winning move if there is one, else the capture gaining most material, else random.
    Greedy,
    /// An external UCI engine: its path and `name=value` options.
    Uci {
        /// The program to run.
        path: String,
        /// Options such as `elo=1350`, `skill=5`, `hash=16`, `threads=1`, `movetime=100`.
        options: Vec<(String, String)>,
    },
}

fn bad(spec: &str, why: &str) -> VariantError {
    VariantError::Other(format!("player '{spec}' is not understood: {why}"))
}

/// Reads `engine`, `engine:3` (depth 3), `engine:depth=3,movetime=100,nodes=5000`,
/// `engine:level=N` (one of the library's levels 1..=8 in `variant`,
/// [`menagerie_variants::level_limits`]; limits after it override the level's), `threads=N`;
/// each limit checked by the one rule of [`crate::limits`].
fn engine_limits(spec: &str, opts: &str, variant: &str) -> Result<Limits, VariantError> {
    let mut l = Limits::default();
    for item in opts.split(',').filter(|s| !s.is_empty()) {
        let read = |kind, v: &str| limits::parse(kind, v).map_err(|why| bad(spec, &why));
        match item.split_once('=') {
            None => l.depth = Some(read(Kind::Depth, item)? as u32),
            Some(("depth", v)) => l.depth = Some(read(Kind::Depth, v)? as u32),
            Some(("level", v)) => {
                let n = v
                    .parse::<u32>()
                    .map_err(|_| bad(spec, &format!("level needs a whole number, not '{v}'")))?;
                let level = menagerie_variants::level_limits(variant, n)
                    .map_err(|why| bad(spec, &why))?;
                l = Limits {
                    threads: l.threads,
                    contempt: l.contempt.or(level.contempt),
                    ..level
                };
            }
            Some(("threads", v)) => {
                let n = v.parse::<u64>().unwrap_or(0);
                l.threads = Some(Limits::checked_threads(n).map_err(|e| bad(spec, &e.0))?);
            }
            Some(("movetime" | "ms", v)) => {
                l.movetime = Some(Duration::from_millis(read(Kind::Movetime, v)?))
            }
            Some(("nodes", v)) => l.nodes = Some(read(Kind::Nodes, v)?),
            Some(("contempt", v)) => {
                let cp = v
                    .parse::<i32>()
                    .ok()
                    .filter(|cp| (-MAX_CONTEMPT..=MAX_CONTEMPT).contains(cp))
                    .ok_or_else(|| {
                        bad(
                            spec,
                            &format!(
                                "contempt is a whole number of centipawns from -{MAX_CONTEMPT} to {MAX_CONTEMPT}, not '{v}'"
                            ),
                        )
                    })?;
                l.contempt = Some(cp);
            }
            Some((k, _)) => {
                return Err(bad(
                    spec,
                    &format!(
                        "unknown engine option '{k}' (depth, movetime, nodes, level, threads, contempt)"
                    ),
                ))
            }
        }
    }
    Ok(l)
}

impl PlayerSpec {
    /// Reads a player of `variant` (whose table an engine's `level=N` takes): `human`,
    /// `engine[:options]`, `random`, `greedy`, `uci:<path>[:name=value,...]`.
    pub fn parse(spec: &str, variant: &str) -> Result<PlayerSpec, VariantError> {
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        match kind {
            "human" if rest.is_empty() => Ok(PlayerSpec::Human),
            "random" if rest.is_empty() => Ok(PlayerSpec::Random),
            "greedy" if rest.is_empty() => Ok(PlayerSpec::Greedy),
            "engine" if rest.is_empty() => Ok(PlayerSpec::Engine(None)),
            "engine" => Ok(PlayerSpec::Engine(Some(engine_limits(spec, rest, variant)?))),
            "uci" => {
                let (path, opts) = match rest.rsplit_once(':') {
                    Some((p, o)) if o.contains('=') => (p, o),
                    _ => (rest, ""),
                };
                if path.is_empty() {
                    return Err(bad(spec, "give the engine's path, as in uci:/usr/games/stockfish"));
                }
                let mut options = Vec::new();
                for item in opts.split(',').filter(|s| !s.is_empty()) {
                    let (k, v) = item
                        .split_once('=')
                        .ok_or_else(|| bad(spec, &format!("option '{item}' needs name=value")))?;
                    options.push((k.to_string(), v.to_string()));
                }
                Ok(PlayerSpec::Uci {
                    path: path.to_string(),
                    options,
                })
            }
            _ => Err(bad(
                spec,
                "use human, engine[:depth=N,movetime=MS,nodes=N,level=N,threads=N], random, greedy or uci:PATH[:elo=N]",
            )),
        }
    }
}

/// The largest contempt an engine player accepts, in centipawns (`engine:contempt=N`).
pub const MAX_CONTEMPT: i32 = 500;

/// An engine player challenges its opponent to show a mate (Little Cheops R38) once its own
/// search scores the position at most this (centipawns, its own view; a quarter Pawn, about
/// the evaluation's bonus for the move): it is then not the side that can make progress,
/// and the count (from the later of the challenge and the last Pawn move, capture or
/// arrest) only ends a game that nobody is winning. Claiming costs such a side nothing.
pub const CHALLENGE_CP: i32 = 25;

/// A player that chooses moves by itself.
pub trait Player {
    /// The move to play now, in canonical text; `game` is the game so far (not over).
    fn choose(&mut self, game: &mut dyn AnyGame) -> Result<String, VariantError>;
    /// A rulebook claim the player makes now, after choosing its move and before it is
    /// played (Little Cheops' fifty-round challenge, R38), by its code; none by default.
    fn claim(&mut self, _game: &dyn AnyGame) -> Option<String> {
        None
    }
    /// Called before each new game.
    fn new_game(&mut self) {}
}

/// This engine; its [`Engine`] keeps its hash table across moves.
pub struct EnginePlayer {
    limits: Limits,
    engine: Engine,
    /// The score of its last search, from its own view.
    last_score: Option<Score>,
}

impl EnginePlayer {
    /// An engine searching within `limits`.
    pub fn new(limits: Limits) -> Self {
        EnginePlayer {
            limits,
            engine: Engine::new(),
            last_score: None,
        }
    }
}

/// The claim an engine whose last search scored `score` makes in `game`: the fifty-round
/// challenge (R38) when it is open and the engine is not ahead ([`CHALLENGE_CP`]).
pub fn engine_claim(game: &dyn AnyGame, score: Option<Score>) -> Option<String> {
    let not_ahead = match score? {
        Score::Cp(cp) => cp <= CHALLENGE_CP,
        Score::LossIn(_) => true,
        Score::WinIn(_) => false,
    };
    (not_ahead
        && game
            .claims()
            .iter()
            .any(|c| c.code == "challenge" && c.by.is_none()))
    .then(|| "challenge".to_string())
}

impl Player for EnginePlayer {
    fn choose(&mut self, game: &mut dyn AnyGame) -> Result<String, VariantError> {
        let report = self.engine.search(game, &self.limits, None, &mut |_| {});
        self.last_score = Some(report.info.score);
        report
            .best
            .ok_or_else(|| VariantError::Other("the engine found no legal move".into()))
    }
    fn claim(&mut self, game: &dyn AnyGame) -> Option<String> {
        engine_claim(game, self.last_score.take())
    }
    fn new_game(&mut self) {
        self.last_score = None;
        self.engine.new_game();
    }
}

/// A uniformly random legal move.
pub struct RandomPlayer(pub Rng);

impl Player for RandomPlayer {
    fn choose(&mut self, game: &mut dyn AnyGame) -> Result<String, VariantError> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(VariantError::Other("there is no legal move".into()));
        }
        Ok(moves[self.0.below(moves.len())].clone())
    }
}

/// A winning move if any; else the move gaining most material (by the game's material
/// count, so "best capture" means the same in every game); else a random move.
pub struct GreedyPlayer(pub Rng);

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &mut dyn AnyGame) -> Result<String, VariantError> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(VariantError::Other("there is no legal move".into()));
        }
        let me = game.turn();
        let eval = Evaluation::for_game(&*game)?;
        let before = eval.material(&*game);
        let mut best_gain = 0;
        let mut best: Vec<&String> = Vec::new();
        for mv in &moves {
            game.push(mv)?;
            let wins = game.outcome().and_then(|o| o.winner) == Some(me);
            let gain = -eval.material(&*game) - before;
            game.pop();
            if wins {
                return Ok(mv.clone());
            }
            if gain > best_gain {
                best_gain = gain;
                best.clear();
            }
            if gain == best_gain && gain > 0 {
                best.push(mv);
            }
        }
        Ok(if best.is_empty() {
            moves[self.0.below(moves.len())].clone()
        } else {
            best[self.0.below(best.len())].clone()
        })
    }
}

/// An engine player's limits: its own bounds (depth, nodes, time) when it sets any, else the
/// match's; threads, lines and skill each from the player when set, else from the match. So
/// `engine:threads=2` under `--movetime 100` still stops after 100 ms.
pub fn engine_player_limits(own: Option<&Limits>, default: Limits) -> Limits {
    let Some(l) = own else { return default };
    let bounded = l.depth.is_some() || l.nodes.is_some() || l.movetime.is_some();
    let bounds = if bounded { l } else { &default };
    Limits {
        depth: bounds.depth,
        nodes: bounds.nodes,
        movetime: bounds.movetime,
        threads: l.threads.or(default.threads),
        multipv: l.multipv.or(default.multipv),
        skill: l.skill.or(default.skill),
        contempt: l.contempt.or(default.contempt),
    }
}

/// Builds the player for `spec`; `default` limits apply to engines that set none.
pub fn build(
    spec: &PlayerSpec,
    default: Limits,
    seed: u64,
) -> Result<Option<Box<dyn Player>>, VariantError> {
    Ok(match spec {
        PlayerSpec::Human => None,
        PlayerSpec::Engine(l) => Some(Box::new(EnginePlayer::new(engine_player_limits(
            l.as_ref(),
            default,
        )))),
        PlayerSpec::Random => Some(Box::new(RandomPlayer(Rng::new(seed)))),
        PlayerSpec::Greedy => Some(Box::new(GreedyPlayer(Rng::new(seed)))),
        PlayerSpec::Uci { path, options } => {
            Some(Box::new(UciEngine::start(path, options, default)?))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs_read() {
        assert_eq!(
            PlayerSpec::parse("human", "chess").unwrap(),
            PlayerSpec::Human
        );
        assert_eq!(
            PlayerSpec::parse("engine:3", "chess").unwrap(),
            PlayerSpec::Engine(Some(Limits::depth(3)))
        );
        assert_eq!(
            PlayerSpec::parse("engine:depth=2,nodes=100", "chess").unwrap(),
            PlayerSpec::Engine(Some(Limits {
                depth: Some(2),
                nodes: Some(100),
                movetime: None,
                ..Limits::default()
            }))
        );
        assert_eq!(
            PlayerSpec::parse("uci:/usr/games/stockfish:elo=1350", "chess").unwrap(),
            PlayerSpec::Uci {
                path: "/usr/games/stockfish".into(),
                options: vec![("elo".into(), "1350".into())]
            }
        );
        assert!(PlayerSpec::parse("engine:depth=x", "chess").is_err());
        assert!(PlayerSpec::parse("engine:movetime=0", "chess").is_err());
        assert!(PlayerSpec::parse("engine:99999999999", "chess").is_err());
        assert!(PlayerSpec::parse("martian", "chess").is_err());
    }

    #[test]
    fn engine_players_keep_the_match_bounds_unless_they_set_their_own() {
        let m = Limits::movetime(100);
        let threads_only = PlayerSpec::parse("engine:threads=2", "chess").unwrap();
        let PlayerSpec::Engine(own) = threads_only else {
            panic!("not an engine")
        };
        let l = engine_player_limits(own.as_ref(), m);
        assert_eq!(l.movetime, Some(Duration::from_millis(100)));
        assert_eq!((l.depth, l.nodes, l.threads), (None, None, Some(2)));
        let PlayerSpec::Engine(own) = PlayerSpec::parse("engine:depth=3", "chess").unwrap() else {
            panic!("not an engine")
        };
        let l = engine_player_limits(own.as_ref(), m);
        assert_eq!((l.depth, l.movetime), (Some(3), None));
        assert_eq!(engine_player_limits(None, m), m);
    }

    #[test]
    fn an_engine_level_plays_its_games_own_table() {
        let level = |variant| {
            let PlayerSpec::Engine(Some(l)) = PlayerSpec::parse("engine:level=2", variant).unwrap()
            else {
                panic!("not an engine with limits")
            };
            l
        };
        assert_eq!(
            level("little-cheops"),
            menagerie_variants::level_limits("little-cheops", 2).unwrap()
        );
        assert_eq!(
            level("cypher"),
            menagerie_variants::level_limits("chess", 2).unwrap()
        );
        assert_ne!(level("little-cheops"), level("cypher"));
        assert_eq!(
            PlayerSpec::parse("engine:level=9", "vyrt").unwrap_err().to_string(),
            "player 'engine:level=9' is not understood: level 9 is not in 1..=8 (1 is the weakest, 8 the strongest)"
        );
    }

    #[test]
    fn rng_is_reproducible() {
        let mut a = Rng::new(1);
        let mut b = Rng::new(1);
        assert_eq!(a.next_u64(), b.next_u64());
        assert!((0..100).all(|_| a.below(7) < 7));
    }
}
