//! The variants' correction networks (issue 34; `eval::net`), learnt the way Fairy-Stockfish
//! learns one: positions of our own self-play from random openings, scored by our own
//! search, and a network trained on the CPU to add to the hand-written terms what they
//! misjudge. Two steps (docs/engine.md, "Networks for the variants", has the runs):
//!
//! ```sh
//! # 1. self-play data: one line a position, `game;position;score;result;terms`
//! cargo run --release -p menagerie-variants --example variant_nets -- generate vyrt \
//!     --games 400 --nodes 5000 --opening-plies 8 --seed 1 --out vyrt-1.txt
//! # 2. a network from one or more data files, written where the engine includes it
//! cargo run --release -p menagerie-variants --example variant_nets -- train vyrt \
//!     --out crates/variants/src/eval/net/vyrt.nnue vyrt-1.txt
//! ```
//!
//! `generate` plays games between two copies of the engine at `--nodes` a move after
//! `--opening-plies` random plies (a different opening each game, from `--seed`); every
//! position from which the engine moves (not in check, not a mate score) is written with
//! the score of that search (the label: a search of thousands of nodes sees further than
//! the static evaluation), the game's result from the side to move's view (1, 0.5 or 0; a
//! game at `--max-plies` counts as a draw) and the hand-written terms' static score (the
//! evaluation without the network, which the network corrects). Shards: run it several
//! times with different seeds and give `train` all the files. With `MENAGERIE_NETS` naming
//! the variant (and `MENAGERIE_NETS_DIR` the folder of the new network, or the network
//! copied into `src/eval/net/` and rebuilt), the games are played with the network: the
//! next generation's data.
//!
//! `train` reads the boards' letters ([`net::Shape::features`], the same inputs the engine
//! reads: the board only, never hidden papers) and minimises the squared difference of
//! winning chances, `1 / (1 + e^(-cp/400))`, between the terms plus the network and the
//! target `lambda x chances(score) + (1 - lambda) x result`; Adam, the rate falling tenfold
//! over the last third of the epochs. Every twentieth game is held out; the held-out loss
//! is printed for the terms alone and for the terms with the quantised network, through the
//! engine's own code. Options: `--epochs N` (4), `--rate R` (0.001), `--batch N` (4096),
//! `--threads N` (2), `--lambda L` (1.0), `--limit CP` (80: the largest correction the
//! engine adds), `--seed N`.

use menagerie_core::{Color, RuleOptions};
use menagerie_variants::eval::net::{self, Network, HIDDEN, QA, QB, SCALE};
use menagerie_variants::{find, Engine, Limits, Score};
use std::io::Write;
use std::process::ExitCode;

/// Input weights are kept within this bound so the fixed-point hidden sums cannot overflow
/// (the biggest army here, Vyrt's 60 units a side... 120 pieces at most on a board,
/// x 1.05 x 255 < 32,767); output weights so each fits an `i16` at `QB`.
const CLIP: f32 = 1.05;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("generate") => generate(&args[1..]),
        Some("train") => train(&args[1..]),
        _ => Err("give generate VARIANT [options] or train VARIANT [options] DATA...".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("variant_nets: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Options as `--name value` pairs and the other words, in order.
struct Args {
    pairs: Vec<(String, String)>,
    words: Vec<String>,
}

impl Args {
    fn read(args: &[String]) -> Result<Args, String> {
        let (mut pairs, mut words) = (Vec::new(), Vec::new());
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                let v = it.next().ok_or(format!("--{name} needs a value"))?;
                pairs.push((name.to_string(), v.clone()));
            } else {
                words.push(a.clone());
            }
        }
        Ok(Args { pairs, words })
    }

    fn get<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.pairs.iter().rev().find(|(n, _)| n == name) {
            None => Ok(default),
            Some((_, v)) => v
                .parse()
                .map_err(|_| format!("--{name} does not take {v:?}")),
        }
    }

    fn check(&self, known: &[&str]) -> Result<(), String> {
        match self
            .pairs
            .iter()
            .find(|(n, _)| !known.contains(&n.as_str()))
        {
            Some((n, _)) => Err(format!(
                "unknown option --{n} (known: {})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    }
}

/// SplitMix64: the openings of a seed are the same on every machine.
fn next(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn generate(args: &[String]) -> Result<(), String> {
    let a = Args::read(args)?;
    a.check(&[
        "games",
        "nodes",
        "opening-plies",
        "seed",
        "out",
        "max-plies",
    ])?;
    let variant_id = a.words.first().ok_or("give the variant")?;
    let variant = find(variant_id).map_err(|e| e.to_string())?;
    net::shape(variant_id).ok_or(format!("{variant_id} has no network"))?;
    let games: usize = a.get("games", 100)?;
    let nodes: u64 = a.get("nodes", 5000)?;
    let opening: usize = a.get("opening-plies", 8)?;
    let max_plies: usize = a.get("max-plies", 300)?;
    let mut seed: u64 = a.get("seed", 1)?;
    let out_path: String = a.get("out", format!("{variant_id}-data.txt"))?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&out_path).map_err(|e| format!("cannot write {out_path}: {e}"))?,
    );
    let eval = variant.evaluation();
    let mut engine = Engine::new(16);
    let limits = Limits::nodes(nodes);
    let started = std::time::Instant::now();
    let mut written = 0usize;
    for g in 0..games {
        let game_no = next(&mut seed) >> 16;
        let mut game = variant
            .open(None, &RuleOptions::new())
            .map_err(|e| e.to_string())?;
        engine.clear();
        // Random plies, none of which ends the game (a random Cypher move may well lose at
        // once), kept if a short search scores the position within 150 centipawns (the
        // lab's rule; the most balanced of 20 tries otherwise).
        let mut best_opening: Option<(i32, Vec<String>)> = None;
        for _ in 0..20 {
            let mut trial = variant
                .open(None, &RuleOptions::new())
                .map_err(|e| e.to_string())?;
            let mut line = Vec::new();
            for _ in 0..opening {
                let mut moves = trial.legal_moves();
                while !moves.is_empty() {
                    let at = (next(&mut seed) % moves.len() as u64) as usize;
                    let mv = moves.swap_remove(at);
                    trial.push(&mv).map_err(|e| e.to_string())?;
                    if trial.outcome().is_none() {
                        line.push(mv);
                        break;
                    }
                    trial.pop();
                }
            }
            if trial.outcome().is_some() || trial.legal_moves().is_empty() {
                continue;
            }
            let probe = engine.search(trial.as_ref(), &Limits::nodes(2000), None, &mut |_| {});
            let off = match probe.info.score {
                Score::Cp(cp) => cp.abs(),
                _ => i32::MAX,
            };
            if best_opening.as_ref().is_none_or(|(o, _)| off < *o) {
                best_opening = Some((off, line));
            }
            if off <= 150 {
                break;
            }
        }
        engine.clear();
        for mv in best_opening.map(|(_, line)| line).unwrap_or_default() {
            game.push(&mv).map_err(|e| e.to_string())?;
        }
        // (position, side to move, score, terms) of each searched position.
        let mut rows: Vec<(String, Color, i32, i32)> = Vec::new();
        let mut winner: Option<Option<Color>> = None;
        while game.ply() < max_plies {
            if let Some(o) = game.outcome() {
                winner = Some(o.winner);
                break;
            }
            let report = engine.search(game.as_ref(), &limits, None, &mut |_| {});
            let Some(best) = report.best else { break };
            if let Score::Cp(cp) = report.info.score {
                if !game.is_check() {
                    let terms = eval.evaluate(game.as_ref()) - net::correction(game.as_ref());
                    rows.push((game.fen(), game.turn(), cp, terms));
                }
            }
            if game.push(&best).is_err() {
                // An offered move the game refuses (Imperial's third repetition seen from
                // a view): the game ends here, scored as a draw.
                break;
            }
        }
        for (fen, side, score, terms) in &rows {
            let result = match winner.flatten() {
                Some(w) if w == *side => "1",
                Some(_) => "0",
                None => "0.5",
            };
            writeln!(out, "{game_no};{fen};{score};{result};{terms}")
                .map_err(|e| format!("cannot write {out_path}: {e}"))?;
        }
        written += rows.len();
        eprintln!(
            "game {}/{games}: {} plies, {} positions ({written} in all, {:.0} s)",
            g + 1,
            game.ply(),
            rows.len(),
            started.elapsed().as_secs_f64()
        );
    }
    out.flush()
        .map_err(|e| format!("cannot write {out_path}: {e}"))?;
    Ok(())
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Positions as inputs: each position's inputs from both sides, and its target.
#[derive(Default)]
struct Data {
    mover: Vec<u16>,
    other: Vec<u16>,
    start: Vec<usize>,
    target: Vec<f32>,
    /// The terms' score in units of [`SCALE`].
    base: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.target.len()
    }
}

/// The held-out boards: letters, side to move, terms, target chances.
type Held = Vec<(Vec<u8>, Color, i32, f32)>;

fn load(variant: &str, files: &[String], lambda: f32) -> Result<(Data, Data, Held), String> {
    let shape = net::shape(variant).ok_or(format!("{variant} has no network"))?;
    let v = find(variant).map_err(|e| e.to_string())?;
    let (mut train, mut held, mut boards) = (Data::default(), Data::default(), Vec::new());
    train.start.push(0);
    held.start.push(0);
    let mut inputs = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let bad = |what: &str| format!("{path}:{}: {what}", n + 1);
            let fields: Vec<&str> = line.split(';').collect();
            let [game_no, fen, score, result, terms] = fields[..] else {
                return Err(bad("a line is game;position;score;result;terms"));
            };
            let num = |t: &str| {
                t.trim()
                    .parse::<f32>()
                    .map_err(|_| bad("a number is not one"))
            };
            let (score, result, terms) = (num(score)?, num(result)?, num(terms)?);
            let game_no: u64 = game_no
                .parse()
                .map_err(|_| bad("the game is not a number"))?;
            let game = v
                .open(Some(fen), &RuleOptions::new())
                .map_err(|e| bad(&e.to_string()))?;
            let letters = net::letters_of(game.as_ref());
            let side = game.turn();
            let target = lambda * sigmoid(score / SCALE as f32) + (1.0 - lambda) * result;
            let kept = game_no.is_multiple_of(20);
            let d = if kept { &mut held } else { &mut train };
            for (view, list) in [(side, 0), (side.other(), 1)] {
                inputs.clear();
                shape.features(&letters, view, &mut inputs);
                if list == 0 {
                    d.mover.extend_from_slice(&inputs);
                } else {
                    d.other.extend_from_slice(&inputs);
                }
            }
            d.start.push(d.mover.len());
            d.target.push(target);
            d.base.push(terms / SCALE as f32);
            if kept {
                boards.push((letters, side, terms as i32, target));
            }
        }
    }
    Ok((train, held, boards))
}

/// The network in floating point.
#[derive(Clone)]
struct Model {
    w0: Vec<f32>,
    b0: Vec<f32>,
    w1: Vec<f32>,
    b1: f32,
}

impl Model {
    fn new(inputs: usize, seed: &mut u64) -> Model {
        let mut r = || (next(seed) >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0;
        Model {
            w0: (0..inputs * HIDDEN).map(|_| r() * 0.05).collect(),
            b0: vec![0.1; HIDDEN],
            w1: (0..2 * HIDDEN).map(|_| r() * 0.05).collect(),
            b1: 0.0,
        }
    }

    fn zeros(inputs: usize) -> Model {
        Model {
            w0: vec![0.0; inputs * HIDDEN],
            b0: vec![0.0; HIDDEN],
            w1: vec![0.0; 2 * HIDDEN],
            b1: 0.0,
        }
    }

    fn hidden(&self, inputs: &[u16], h: &mut [f32; HIDDEN]) {
        h.copy_from_slice(&self.b0);
        for &f in inputs {
            for (a, w) in h.iter_mut().zip(&self.w0[f as usize * HIDDEN..][..HIDDEN]) {
                *a += w;
            }
        }
    }

    fn forward(&self, d: &Data, i: usize, hm: &mut [f32; HIDDEN], ho: &mut [f32; HIDDEN]) -> f32 {
        let (s, e) = (d.start[i], d.start[i + 1]);
        self.hidden(&d.mover[s..e], hm);
        self.hidden(&d.other[s..e], ho);
        let (near, far) = self.w1.split_at(HIDDEN);
        let mut out = self.b1 + d.base[i];
        for k in 0..HIDDEN {
            out += hm[k].clamp(0.0, 1.0) * near[k] + ho[k].clamp(0.0, 1.0) * far[k];
        }
        out
    }

    fn gradient(&self, d: &Data, order: &[u32], g: &mut Model) -> f64 {
        let (mut hm, mut ho) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        let (mut dm, mut dn) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        let mut loss = 0.0f64;
        for &i in order {
            let i = i as usize;
            let out = self.forward(d, i, &mut hm, &mut ho);
            let p = sigmoid(out);
            let err = p - d.target[i];
            loss += f64::from(err * err);
            let go = 2.0 * err * p * (1.0 - p);
            g.b1 += go;
            let (near, far) = self.w1.split_at(HIDDEN);
            let (gnear, gfar) = g.w1.split_at_mut(HIDDEN);
            for k in 0..HIDDEN {
                let (a, b) = (hm[k], ho[k]);
                gnear[k] += go * a.clamp(0.0, 1.0);
                gfar[k] += go * b.clamp(0.0, 1.0);
                dm[k] = if a > 0.0 && a < 1.0 {
                    go * near[k]
                } else {
                    0.0
                };
                dn[k] = if b > 0.0 && b < 1.0 { go * far[k] } else { 0.0 };
                g.b0[k] += dm[k] + dn[k];
            }
            let (s, e) = (d.start[i], d.start[i + 1]);
            for (&fm, &fo) in d.mover[s..e].iter().zip(&d.other[s..e]) {
                for (r, x) in g.w0[fm as usize * HIDDEN..][..HIDDEN].iter_mut().zip(&dm) {
                    *r += x;
                }
                for (r, x) in g.w0[fo as usize * HIDDEN..][..HIDDEN].iter_mut().zip(&dn) {
                    *r += x;
                }
            }
        }
        loss
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w0
            .iter_mut()
            .chain(self.b0.iter_mut())
            .chain(self.w1.iter_mut())
            .chain(std::iter::once(&mut self.b1))
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.w0
            .iter()
            .chain(self.b0.iter())
            .chain(self.w1.iter())
            .chain(std::iter::once(&self.b1))
    }

    fn loss(&self, d: &Data) -> f64 {
        let (mut hm, mut ho) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        let mut sum = 0.0f64;
        for i in 0..d.len() {
            let err = sigmoid(self.forward(d, i, &mut hm, &mut ho)) - d.target[i];
            sum += f64::from(err * err);
        }
        sum / d.len().max(1) as f64
    }

    fn quantise(&self, variant: &str, limit: i32) -> Result<Vec<u8>, String> {
        let q = |x: f32, unit: i32| (x * unit as f32).round() as i16;
        let w0: Vec<[i16; HIDDEN]> = self
            .w0
            .chunks_exact(HIDDEN)
            .map(|row| std::array::from_fn(|k| q(row[k], QA)))
            .collect();
        let b0: [i16; HIDDEN] = std::array::from_fn(|k| q(self.b0[k], QA));
        let w1: Vec<i16> = self.w1.iter().map(|&x| q(x, QB)).collect();
        let b1 = (self.b1 * (QA * QB) as f32).round() as i32;
        Network::to_bytes(variant, limit, &w0, &b0, &w1, b1)
            .ok_or(format!("{variant} has no network"))
    }
}

fn train(args: &[String]) -> Result<(), String> {
    let a = Args::read(args)?;
    a.check(&[
        "epochs", "rate", "batch", "threads", "lambda", "limit", "seed", "out",
    ])?;
    let (variant, files) = a.words.split_first().ok_or("give the variant")?;
    if files.is_empty() {
        return Err("give at least one data file".into());
    }
    let epochs: usize = a.get("epochs", 4)?;
    let rate: f32 = a.get("rate", 0.001)?;
    let batch: usize = a.get::<usize>("batch", 4096)?.max(1);
    let threads: usize = a.get::<usize>("threads", 2)?.max(1);
    let lambda: f32 = a.get("lambda", 1.0)?;
    let limit: i32 = a.get("limit", 80)?;
    let mut seed: u64 = a.get("seed", 7)?;
    let out: String = a.get("out", format!("{variant}.nnue"))?;
    let shape = net::shape(variant).ok_or(format!("{variant} has no network"))?;
    let (train, held, boards) = load(variant, files, lambda)?;
    eprintln!(
        "{} positions to train on, {} held out",
        train.len(),
        held.len()
    );
    let inputs = shape.inputs();
    let mut model = Model::new(inputs, &mut seed);
    let n = model.params().count();
    let (mut m1, mut m2) = (vec![0f32; n], vec![0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let w0_len = inputs * HIDDEN;
    let terms_held = Model::zeros(inputs);
    eprintln!("terms alone: held-out loss {:.6}", terms_held.loss(&held));
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (next(&mut seed) % (i as u64 + 1)) as usize);
        }
        let lr = if epoch * 3 >= epochs * 2 {
            rate * 0.1
        } else {
            rate
        };
        let mut epoch_loss = 0.0;
        for chunk in order.chunks(batch) {
            let per = chunk.len().div_ceil(threads);
            let parts: Vec<(Model, f64)> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .map(|part| {
                        let (model, train) = (&model, &train);
                        s.spawn(move || {
                            let mut g = Model::zeros(inputs);
                            let l = model.gradient(train, part, &mut g);
                            (g, l)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join())
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|_| "a training thread failed".to_string())?;
            let mut grads = Model::zeros(inputs);
            for (g, l) in &parts {
                epoch_loss += l;
                for (x, y) in grads.params_mut().zip(g.params()) {
                    *x += y;
                }
            }
            step += 1;
            let scale = 1.0 / chunk.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for (k, (p, g)) in model.params_mut().zip(grads.params()).enumerate() {
                let g = g * scale;
                m1[k] = b1 * m1[k] + (1.0 - b1) * g;
                m2[k] = b2 * m2[k] + (1.0 - b2) * g * g;
                *p -= lr * (m1[k] / c1) / ((m2[k] / c2).sqrt() + eps);
                if k < w0_len {
                    *p = p.clamp(-CLIP, CLIP);
                } else if k >= w0_len + HIDDEN && k < w0_len + 3 * HIDDEN {
                    *p = p.clamp(-1.98, 1.98);
                }
            }
        }
        eprintln!(
            "epoch {:3}: train loss {:.6}, held-out {:.6}",
            epoch + 1,
            epoch_loss / train.len().max(1) as f64,
            model.loss(&held)
        );
    }
    let bytes = model.quantise(variant, limit)?;
    let network = Network::from_bytes(variant, &bytes)?;
    // Through the engine's own code, clamp included: the held-out loss with the network,
    // and how far it moves the terms on average.
    let (mut with, mut alone, mut moved) = (0.0f64, 0.0f64, 0.0f64);
    for (letters, side, terms, target) in &boards {
        let c = network.evaluate(letters, *side);
        let e1 = sigmoid((terms + c) as f32 / SCALE as f32) - target;
        let e0 = sigmoid(*terms as f32 / SCALE as f32) - target;
        with += f64::from(e1 * e1);
        alone += f64::from(e0 * e0);
        moved += f64::from(c.abs());
    }
    let count = boards.len().max(1) as f64;
    eprintln!(
        "held out ({} positions): terms alone {:.6}, terms + quantised network (clamped to {limit}) {:.6}; mean |correction| {:.1} cp",
        boards.len(),
        alone / count,
        with / count,
        moved / count
    );
    std::fs::write(&out, &bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!("wrote {out} ({} bytes)", bytes.len());
    Ok(())
}
