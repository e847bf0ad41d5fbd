//! Trains the chess evaluation's correction network on scored positions and writes
//! `chess.nnue`: the network learns what to add to the weighted terms (the engine clamps
//! what it adds to `nnue::LIMIT`), so retrain it after tuning the terms.
//!
//! `cargo run --release -p menagerie-variants --example train_nnue -- [--epochs N]
//! [--rate R] [--batch N] [--threads N] [--seed N] [--held FILE] [--out FILE] DATA...`, each DATA file
//! holding lines `FEN;score` (centipawns, side to move's view, as written by
//! `search_positions.py`, which made the shipped network's positions, or
//! `stockfish_positions.py`). The loss is the squared difference of winning chances,
//! `1 / (1 + e^(-cp/400))`, of the terms' score plus the network's and the file's; Adam, the rate falling
//! tenfold over the last third of the epochs. The positions of `--held FILE` (or, without
//! it, every twentieth position) are held out to measure the loss on positions not trained
//! on, before and after quantisation, beside the weighted terms' loss.

use menagerie_chess::Chess;
use menagerie_core::Color;
use menagerie_variants::eval::chess::nnue::{
    active_features, Network, HIDDEN, INPUTS, QA, QB, SCALE,
};
use menagerie_variants::eval::chess::ChessEval;
use std::process::ExitCode;

/// Input weights are kept within this bound so the fixed-point hidden sums cannot overflow
/// (32 pieces x 1.98 x 255 < 32,767), output weights so each fits an `i16` at `QB`.
const CLIP: f32 = 1.98;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train_nnue: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Positions as inputs: each position's inputs from both sides, and its target.
#[derive(Default)]
struct Data {
    /// Inputs seen from the side to move, `start[i]..start[i + 1]` for position `i`.
    mover: Vec<u16>,
    /// The same inputs seen from the other side.
    other: Vec<u16>,
    /// Where each position's inputs start (one more entry than positions).
    start: Vec<usize>,
    /// Winning chances of the target score, side to move's view.
    target: Vec<f32>,
    /// The weighted terms' score in units of [`SCALE`], which the network corrects.
    base: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.target.len()
    }

    fn push(&mut self, pos: &Chess, score: i32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let (mut m, mut o) = ([0u16; 64], [0u16; 64]);
        let n = active_features(pos, &mut m, &mut o);
        self.mover.extend_from_slice(&m[..n]);
        self.other.extend_from_slice(&o[..n]);
        self.start.push(self.mover.len());
        self.target.push(sigmoid(score as f32 / SCALE as f32));
        self.base.push(terms_score(pos) as f32 / SCALE as f32);
    }
}

/// The weighted terms' score, side to move's view.
fn terms_score(pos: &Chess) -> i32 {
    let white = ChessEval.white_score(pos);
    if pos.side() == Color::White {
        white
    } else {
        -white
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network in floating point: output = w1 · [clip(h_mover), clip(h_other)] + b1, in
/// units of [`SCALE`] centipawns.
#[derive(Clone)]
struct Model {
    w0: Vec<f32>,
    b0: Vec<f32>,
    w1: Vec<f32>,
    b1: f32,
}

impl Model {
    fn new(seed: &mut u64) -> Model {
        let mut r = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        Model {
            w0: (0..INPUTS * HIDDEN).map(|_| r() * 0.1).collect(),
            b0: vec![0.1; HIDDEN],
            w1: (0..2 * HIDDEN).map(|_| r() * 0.1).collect(),
            b1: 0.0,
        }
    }

    fn zeros() -> Model {
        Model {
            w0: vec![0.0; INPUTS * HIDDEN],
            b0: vec![0.0; HIDDEN],
            w1: vec![0.0; 2 * HIDDEN],
            b1: 0.0,
        }
    }

    fn hidden(&self, inputs: &[u16], h: &mut [f32; HIDDEN]) {
        h.copy_from_slice(&self.b0);
        for &f in inputs {
            let row = &self.w0[f as usize * HIDDEN..][..HIDDEN];
            for (a, w) in h.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output for position `i` of `d` (the terms' score included), and the hidden sums
    /// it came from.
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

    /// Adds the gradient of the loss over positions `order` of `d` to `g`; returns the loss.
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
                let row = &mut g.w0[fm as usize * HIDDEN..][..HIDDEN];
                for (r, x) in row.iter_mut().zip(&dm) {
                    *r += x;
                }
                let row = &mut g.w0[fo as usize * HIDDEN..][..HIDDEN];
                for (r, x) in row.iter_mut().zip(&dn) {
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

    /// The loss over `d` in floating point.
    fn loss(&self, d: &Data) -> f64 {
        let (mut hm, mut ho) = ([0f32; HIDDEN], [0f32; HIDDEN]);
        let mut sum = 0.0f64;
        for i in 0..d.len() {
            let err = sigmoid(self.forward(d, i, &mut hm, &mut ho)) - d.target[i];
            sum += f64::from(err * err);
        }
        sum / d.len().max(1) as f64
    }

    /// The network in fixed point, as the engine reads it.
    fn quantise(&self) -> Vec<u8> {
        let q = |x: f32, unit: i32| (x * unit as f32).round() as i16;
        let w0: Vec<[i16; HIDDEN]> = self
            .w0
            .chunks_exact(HIDDEN)
            .map(|row| std::array::from_fn(|k| q(row[k], QA)))
            .collect();
        let b0: [i16; HIDDEN] = std::array::from_fn(|k| q(self.b0[k], QA));
        let w1: Vec<i16> = self.w1.iter().map(|&x| q(x, QB)).collect();
        let b1 = (self.b1 * (QA * QB) as f32).round() as i32;
        Network::to_bytes(&w0, &b0, &w1, b1)
    }
}

/// The training positions, the held-out ones, and the held-out boards with their scores.
type Loaded = (Data, Data, Vec<(Chess, i32)>);

fn load(files: &[String], held_files: &[String]) -> Result<Loaded, String> {
    let (mut train, mut held, mut boards) = (Data::default(), Data::default(), Vec::new());
    let mut n = 0usize;
    for (path, kept) in files
        .iter()
        .map(|f| (f, false))
        .chain(held_files.iter().map(|f| (f, true)))
    {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (line_no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |what: String| format!("{path}:{}: {what}", line_no + 1);
            let (fen, score) = line
                .rsplit_once(';')
                .ok_or_else(|| bad("the line has no ';' before its score".into()))?;
            let score: i32 = score
                .trim()
                .parse()
                .map_err(|_| bad(format!("the score {score:?} is not a whole number")))?;
            let pos = Chess::from_fen(fen.trim()).map_err(|e| bad(format!("{e}")))?;
            n += 1;
            if kept || (held_files.is_empty() && n.is_multiple_of(20)) {
                held.push(&pos, score);
                boards.push((pos, score));
            } else {
                train.push(&pos, score);
            }
        }
    }
    Ok((train, held, boards))
}

/// A whole-number option's value, or one sentence naming the option.
fn whole(name: &str, text: String) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("{name} takes a whole number, not {text:?}"))
}

fn run() -> Result<(), String> {
    let mut epochs = 30usize;
    let mut rate = 0.001f32;
    let mut batch = 16384usize;
    let mut threads = 2usize;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = String::from("chess.nnue");
    let mut files = Vec::new();
    let mut held_files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--epochs" => epochs = whole("--epochs", value("--epochs")?)?,
            "--rate" => {
                rate = value("--rate")?
                    .parse()
                    .map_err(|_| "--rate takes a number such as 0.001".to_string())?
            }
            "--batch" => batch = whole("--batch", value("--batch")?)?.max(1),
            "--threads" => threads = whole("--threads", value("--threads")?)?,
            "--seed" => seed = whole("--seed", value("--seed")?)? as u64,
            "--out" => out = value("--out")?,
            "--held" => held_files.push(value("--held")?),
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return Err("give at least one file of scored positions".into());
    }
    let (train, held, held_positions) = load(&files, &held_files)?;
    eprintln!(
        "{} positions to train on, {} held out",
        train.len(),
        held.len()
    );
    let threads = threads.max(1);
    let mut model = Model::new(&mut seed);
    let n = model.params().count();
    let (mut m1, mut m2) = (vec![0f32; n], vec![0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in 0..epochs {
        // Fisher-Yates with xorshift: every run with the same seed trains the same net.
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
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
                            let mut g = Model::zeros();
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
            let mut grads = Model::zeros();
            for (g, l) in &parts {
                epoch_loss += l;
                for (a, b) in grads.params_mut().zip(g.params()) {
                    *a += b;
                }
            }
            step += 1;
            let scale = 1.0 / chunk.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            let w0_len = INPUTS * HIDDEN;
            for (k, (p, g)) in model.params_mut().zip(grads.params()).enumerate() {
                let g = g * scale;
                m1[k] = b1 * m1[k] + (1.0 - b1) * g;
                m2[k] = b2 * m2[k] + (1.0 - b2) * g * g;
                *p -= lr * (m1[k] / c1) / ((m2[k] / c2).sqrt() + eps);
                if k < w0_len || (k >= w0_len + HIDDEN && k < w0_len + 3 * HIDDEN) {
                    *p = p.clamp(-CLIP, CLIP);
                }
            }
        }
        eprintln!(
            "epoch {:3}: train loss {:.6}, held-out {:.6}",
            epoch + 1,
            epoch_loss / train.len() as f64,
            model.loss(&held)
        );
    }
    let bytes = model.quantise();
    // The quantised network, through the engine's own code, on the held-out positions.
    let net = Network::from_bytes(&bytes)?;
    // Squared error of winning chances and mean absolute error: the network with the
    // terms, then the terms alone.
    let (mut with, mut terms) = ([0.0f64; 2], [0.0f64; 2]);
    for (pos, score) in &held_positions {
        let base = terms_score(pos);
        for (acc, ours) in [(&mut with, base + net.evaluate(pos)), (&mut terms, base)] {
            let err = sigmoid(ours as f32 / SCALE as f32) - sigmoid(*score as f32 / SCALE as f32);
            acc[0] += f64::from(err * err);
            acc[1] += f64::from((ours - score).abs());
        }
    }
    let count = held_positions.len().max(1) as f64;
    eprintln!(
        "weighted terms: held-out loss {:.6}, mean |error| {:.1} cp",
        terms[0] / count,
        terms[1] / count
    );
    eprintln!(
        "quantised: held-out loss {:.6}, mean |error| {:.1} cp",
        with[0] / count,
        with[1] / count
    );
    std::fs::write(&out, bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!("wrote {out}");
    Ok(())
}
