//! The trainer of the learned evaluation ([`crate::nnue`]): minibatch Adam on the CPU over
//! `ataxx datagen` records.
//!
//! Written here rather than with an ML framework: the network is one sparse layer (72 active
//! inputs of 9,216 per position) and one dense output, so the whole forward and backward pass
//! is a few loops over rows of the weight matrix. The general crates (candle, burn) compute a
//! dense first layer or need sparse-tensor support they do not offer on the CPU, which costs
//! the 9,216/72 ≈ 128× that sparsity saves.
//!
//! * **Target**: `λ·sigmoid(score / K) + (1 − λ)·result`, the search score turned into an
//!   expected result by the scale `K` (fitted to the training set's results by golden-section
//!   search, and stored in the net as its `scale`), mixed with the game's result (1, ½, 0).
//!   Loss: squared error of `sigmoid(output)`.
//! * **Data**: 7×7 records only; whole games go to the validation set (a hash of the game's
//!   index picks them), so that no validation position has a near-twin in training. Each
//!   training position is seen in a random one of the board's eight symmetries per epoch.
//! * **Determinism**: the shuffle and the symmetries come from the seed and the epoch, and the
//!   batch gradient is summed in a fixed order whatever the thread count's timing; so a run
//!   resumed from a [`Checkpoint`] ends with exactly the weights of an uninterrupted run.

use std::io;

use ataxx::Color;
use thiserror::Error;

use crate::data::Record;
use crate::nnue::features::{symmetric, View, BOARD_SIZE, INPUTS, WINDOWS};
use crate::nnue::{Activation, FloatNet, Shape, MAX_HIDDEN};
use crate::rng::SplitMix;
use crate::score::WIN_BOUND;

/// Settings of a training run (stored in its checkpoints).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The net's hidden width and activation.
    pub shape: Shape,
    pub epochs: u32,
    pub batch_size: usize,
    /// Adam step size of the first epoch.
    pub learning_rate: f32,
    /// Factor applied to the step size after each epoch.
    pub lr_decay: f32,
    /// λ: the weight of the search score in the target (the rest is the game's result).
    pub score_weight: f32,
    /// Share of games held out for validation.
    pub validation: f32,
    pub seed: u64,
    /// Threads computing each batch's gradient.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            shape: Shape::NET1,
            epochs: 10,
            batch_size: 16_384,
            learning_rate: 0.001,
            lr_decay: 0.8,
            score_weight: 0.5,
            validation: 0.05,
            seed: 1,
            threads: 1,
        }
    }
}

/// What went wrong.
#[derive(Debug, Error)]
pub enum TrainError {
    #[error("no 7x7 positions to train on")]
    NoData,
    #[error("the validation share must lie in [0, 0.5), not {0}")]
    BadValidation(f32),
    #[error("batch size and threads must be at least 1")]
    BadBatch,
    #[error("the checkpoint is not usable: {0}")]
    BadCheckpoint(&'static str),
    #[error("the checkpoint was written with other settings ({0} differs)")]
    ConfigMismatch(&'static str),
    #[error("checkpoint I/O: {0}")]
    Io(#[from] io::Error),
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A training position: the side to move's view, its target, and nothing else.
#[derive(Copy, Clone, Debug)]
struct Sample {
    view: View,
    /// Score for the side to move in hundredths of a piece, and the result in [0, 1].
    score: f32,
    result: f32,
}

impl Sample {
    fn of(record: &Record) -> Sample {
        let (ours, theirs) = match record.turn {
            Color::X => (record.x, record.o),
            Color::O => (record.o, record.x),
        };
        Sample {
            view: View {
                ours,
                theirs,
                blocked: record.blocked,
            },
            score: f32::from(record.score),
            result: (f32::from(record.result) + 1.0) / 2.0,
        }
    }

    fn target(&self, scale: f32, score_weight: f32) -> f32 {
        score_weight * sigmoid(self.score / scale) + (1.0 - score_weight) * self.result
    }

    /// Both sides' inputs in symmetry `symmetry`: the side to move's, then the other's.
    fn inputs(&self, symmetry: u8) -> ([u16; WINDOWS], [u16; WINDOWS]) {
        let v = &self.view;
        let us = View {
            ours: symmetric(v.ours, symmetry),
            theirs: symmetric(v.theirs, symmetry),
            blocked: symmetric(v.blocked, symmetry),
        };
        let them = View {
            ours: us.theirs,
            theirs: us.ours,
            blocked: us.blocked,
        };
        (us.inputs(), them.inputs())
    }
}

/// The scale `K` that best predicts results from scores: minimises the squared error of
/// `sigmoid(score / K)` against the results (decisive scores left out).
pub fn fit_scale(records: &[Record]) -> f32 {
    let pairs: Vec<(f64, f64)> = records
        .iter()
        .filter(|r| i32::from(r.score).abs() < WIN_BOUND)
        .map(|r| (f64::from(r.score), (f64::from(r.result) + 1.0) / 2.0))
        .collect();
    let error = |k: f64| -> f64 {
        pairs
            .iter()
            .map(|&(s, r)| (1.0 / (1.0 + (-s / k).exp()) - r).powi(2))
            .sum()
    };
    // Golden-section search on log K over 10–10,000.
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (10f64.ln(), 10_000f64.ln());
    for _ in 0..50 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a.exp()) < error(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp() as f32
}

/// Gradients of one batch, with the same layout as the network.
struct Gradient {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    loss: f64,
}

impl Gradient {
    fn zero(shape: Shape) -> Gradient {
        let hidden = shape.hidden;
        Gradient {
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
        self.loss = 0.0;
    }

    fn add(&mut self, other: &Gradient) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        self.b2 += other.b2;
        self.loss += other.loss;
    }

    /// Adds the gradient of one sample's squared error; returns nothing, the loss is summed.
    fn accumulate(
        &mut self,
        net: &FloatNet,
        inputs: &([u16; WINDOWS], [u16; WINDOWS]),
        target: f32,
    ) {
        let (hidden, act) = (net.shape.hidden, net.shape.activation);
        let (mut us, mut them) = ([0.0f32; MAX_HIDDEN], [0.0f32; MAX_HIDDEN]);
        let (us, them) = (&mut us[..hidden], &mut them[..hidden]);
        net.hidden(&inputs.0, us);
        net.hidden(&inputs.1, them);
        let p = sigmoid(net.output(us, them));
        self.loss += f64::from((p - target).powi(2));
        let g = 2.0 * (p - target) * p * (1.0 - p);
        self.b2 += g;
        for (side, (units, inputs)) in [(&*us, &inputs.0), (&*them, &inputs.1)]
            .into_iter()
            .enumerate()
        {
            let w2 = &net.w2[side * hidden..][..hidden];
            let gw2 = &mut self.w2[side * hidden..][..hidden];
            let mut delta = [0.0f32; MAX_HIDDEN];
            let delta = &mut delta[..hidden];
            for j in 0..hidden {
                let h = units[j];
                gw2[j] += g * act.apply(h);
                // Both activations pass gradient only inside the clip's range.
                delta[j] = g * w2[j] * act.derivative(h);
            }
            for (b, d) in self.b1.iter_mut().zip(&*delta) {
                *b += d;
            }
            for &i in inputs {
                let row = &mut self.w1[usize::from(i) * hidden..][..hidden];
                for (w, d) in row.iter_mut().zip(&*delta) {
                    *w += d;
                }
            }
        }
    }
}

/// Losses after one epoch.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// 1 for the first epoch.
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
}

/// A training run's whole state: settings, network, optimiser moments, epochs done.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub config: Config,
    pub net: FloatNet,
    /// Adam's first and second moments, laid out as `w1, b1, w2, b2`.
    moment: Vec<f32>,
    velocity: Vec<f32>,
    pub epochs_done: u32,
    steps: u64,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"ATAXXCKP";
/// Bytes before the weights: magic, version, shape, settings, progress and scale.
const CHECKPOINT_HEADER: usize = 72;
/// Version 2 added the activation.
const CHECKPOINT_VERSION: u32 = 2;

fn params(net: &FloatNet) -> usize {
    net.w1.len() + net.b1.len() + net.w2.len() + 1
}

impl Checkpoint {
    /// A fresh run: random weights, the scale fitted to `train`'s records.
    pub fn new(config: Config, scale: f32) -> Checkpoint {
        let net = FloatNet::random(config.seed, scale, config.shape);
        let n = params(&net);
        Checkpoint {
            config,
            net,
            moment: vec![0.0; n],
            velocity: vec![0.0; n],
            epochs_done: 0,
            steps: 0,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let c = &self.config;
        let mut out = Vec::new();
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(c.shape.hidden as u32).to_le_bytes());
        out.extend_from_slice(&c.shape.activation.code().to_le_bytes());
        out.extend_from_slice(&c.epochs.to_le_bytes());
        out.extend_from_slice(&(c.batch_size as u64).to_le_bytes());
        for f in [c.learning_rate, c.lr_decay, c.score_weight, c.validation] {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&c.seed.to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.steps.to_le_bytes());
        out.extend_from_slice(&self.net.scale.to_le_bytes());
        let n = &self.net;
        for f in n.w1.iter().chain(&n.b1).chain(&n.w2).chain([&n.b2]) {
            out.extend_from_slice(&f.to_le_bytes());
        }
        for f in self.moment.iter().chain(&self.velocity) {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, TrainError> {
        let bad = TrainError::BadCheckpoint;
        if bytes.len() < CHECKPOINT_HEADER || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err(bad("not a checkpoint file"));
        }
        let mut at = 8;
        let mut take = |n: usize| {
            let s = &bytes[at..at + n];
            at += n;
            s
        };
        let u32_of = |s: &[u8]| u32::from_le_bytes(s.try_into().expect("4"));
        let u64_of = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("8"));
        let f32_of = |s: &[u8]| f32::from_le_bytes(s.try_into().expect("4"));
        if u32_of(take(4)) != CHECKPOINT_VERSION {
            return Err(bad("unknown checkpoint version"));
        }
        let hidden = u32_of(take(4)) as usize;
        let activation = Activation::from_code(u32_of(take(4))).ok_or(bad("unknown activation"))?;
        let shape = Shape::new(hidden, activation).map_err(|_| bad("bad hidden size"))?;
        let epochs = u32_of(take(4));
        let batch_size = u64_of(take(8)) as usize;
        let (learning_rate, lr_decay, score_weight, validation) = (
            f32_of(take(4)),
            f32_of(take(4)),
            f32_of(take(4)),
            f32_of(take(4)),
        );
        let seed = u64_of(take(8));
        let epochs_done = u32_of(take(4));
        let steps = u64_of(take(8));
        let scale = f32_of(take(4));
        let n = INPUTS * hidden + 3 * hidden + 1;
        if bytes.len() - at != 3 * n * 4 {
            return Err(bad("wrong length"));
        }
        let floats: Vec<f32> = bytes[at..].chunks_exact(4).map(f32_of).collect();
        let (w, rest) = floats.split_at(n);
        let (moment, velocity) = rest.split_at(n);
        let (w1, w) = w.split_at(INPUTS * hidden);
        let (b1, w) = w.split_at(hidden);
        let (w2, b2) = w.split_at(2 * hidden);
        Ok(Checkpoint {
            config: Config {
                shape,
                epochs,
                batch_size,
                learning_rate,
                lr_decay,
                score_weight,
                validation,
                seed,
                threads: 1,
            },
            net: FloatNet {
                shape,
                w1: w1.to_vec(),
                b1: b1.to_vec(),
                w2: w2.to_vec(),
                b2: b2[0],
                scale,
            },
            moment: moment.to_vec(),
            velocity: velocity.to_vec(),
            epochs_done,
            steps,
        })
    }

    /// Whether `config` continues this run (the thread count and epoch count may change).
    pub fn check_resumable(&self, config: &Config) -> Result<(), TrainError> {
        let c = &self.config;
        let differs = [
            ("hidden size", c.shape.hidden != config.shape.hidden),
            ("activation", c.shape.activation != config.shape.activation),
            ("batch size", c.batch_size != config.batch_size),
            ("learning rate", c.learning_rate != config.learning_rate),
            ("lr decay", c.lr_decay != config.lr_decay),
            ("score weight", c.score_weight != config.score_weight),
            ("validation share", c.validation != config.validation),
            ("seed", c.seed != config.seed),
        ];
        match differs.iter().find(|(_, d)| *d) {
            Some((name, _)) => Err(TrainError::ConfigMismatch(name)),
            None => Ok(()),
        }
    }
}

/// Training and validation sets of one run.
pub struct Dataset {
    train: Vec<Sample>,
    validation: Vec<Sample>,
}

impl Dataset {
    /// Splits `records` (7×7 only; other sizes are skipped) by whole games.
    pub fn split(records: &[Record], validation: f32) -> Result<Dataset, TrainError> {
        if !(0.0..0.5).contains(&validation) {
            return Err(TrainError::BadValidation(validation));
        }
        let (mut train, mut held) = (Vec::new(), Vec::new());
        let mut game = 0u64;
        let mut in_validation = false;
        for r in records {
            if r.first_of_game {
                game += 1;
                let h = SplitMix(game).next_u64();
                in_validation = ((h >> 40) as f32 / (1u64 << 24) as f32) < validation;
            }
            if r.size != BOARD_SIZE {
                continue;
            }
            if in_validation { &mut held } else { &mut train }.push(Sample::of(r));
        }
        if train.is_empty() {
            return Err(TrainError::NoData);
        }
        Ok(Dataset {
            train,
            validation: held,
        })
    }

    pub fn train_len(&self) -> usize {
        self.train.len()
    }

    pub fn validation_len(&self) -> usize {
        self.validation.len()
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Runs the remaining epochs of `run` on `data`. `on_batch(done, total)` follows the batches
/// of the current epoch; `on_epoch` sees each epoch's losses and the state to checkpoint.
pub fn train(
    run: &mut Checkpoint,
    data: &Dataset,
    mut on_batch: impl FnMut(usize, usize),
    mut on_epoch: impl FnMut(&EpochReport, &Checkpoint) -> Result<(), TrainError>,
) -> Result<Vec<EpochReport>, TrainError> {
    let config = run.config.clone();
    if config.batch_size == 0 || config.threads == 0 {
        return Err(TrainError::BadBatch);
    }
    let threads = config.threads;
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::zero(config.shape)).collect();
    let mut reports = Vec::new();
    let batches = data.train.len().div_ceil(config.batch_size);
    while run.epochs_done < config.epochs {
        let epoch = run.epochs_done + 1;
        let mut rng = SplitMix(config.seed ^ u64::from(epoch).wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let symmetries: Vec<u8> = order.iter().map(|_| (rng.next_u64() >> 61) as u8).collect();
        let lr = config.learning_rate * config.lr_decay.powi(epoch as i32 - 1);
        let mut train_loss = 0.0;
        for (b, batch) in order.chunks(config.batch_size).enumerate() {
            let start = b * config.batch_size;
            let per_thread = batch.len().div_ceil(threads);
            let net = &run.net;
            std::thread::scope(|scope| {
                for (t, grad) in grads.iter_mut().enumerate() {
                    let lo = (t * per_thread).min(batch.len());
                    let hi = ((t + 1) * per_thread).min(batch.len());
                    let (part, syms) = (&batch[lo..hi], &symmetries[start + lo..start + hi]);
                    scope.spawn(move || {
                        grad.clear();
                        for (&i, &s) in part.iter().zip(syms) {
                            let sample = &data.train[i as usize];
                            let target = sample.target(net.scale, config.score_weight);
                            grad.accumulate(net, &sample.inputs(s), target);
                        }
                    });
                }
            });
            // Summed in thread order, so the result does not depend on timing.
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                first[0].add(g);
            }
            train_loss += first[0].loss;
            run.adam_step(&first[0], batch.len(), lr);
            on_batch(b + 1, batches);
        }
        let report = EpochReport {
            epoch,
            train_loss: train_loss / data.train.len() as f64,
            validation_loss: validation_loss(&run.net, &data.validation, config.score_weight),
        };
        run.epochs_done = epoch;
        on_epoch(&report, run)?;
        reports.push(report);
    }
    Ok(reports)
}

impl Checkpoint {
    fn adam_step(&mut self, grad: &Gradient, batch: usize, lr: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        let scale = 1.0 / batch as f32;
        let net = &mut self.net;
        let weights = net
            .w1
            .iter_mut()
            .chain(&mut net.b1)
            .chain(&mut net.w2)
            .chain([&mut net.b2]);
        let grads = grad
            .w1
            .iter()
            .chain(&grad.b1)
            .chain(&grad.w2)
            .chain([&grad.b2]);
        for (((w, &g), m), v) in weights
            .zip(grads)
            .zip(&mut self.moment)
            .zip(&mut self.velocity)
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        }
        net.clip();
    }
}

/// Mean squared error of `net` on `samples` (as they are, no symmetry).
fn validation_loss(net: &FloatNet, samples: &[Sample], score_weight: f32) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (us, them) = s.inputs(0);
            let hidden = net.shape.hidden;
            let (mut hu, mut ht) = ([0.0; MAX_HIDDEN], [0.0; MAX_HIDDEN]);
            let (hu, ht) = (&mut hu[..hidden], &mut ht[..hidden]);
            net.hidden(&us, hu);
            net.hidden(&them, ht);
            let p = sigmoid(net.output(hu, ht));
            f64::from((p - s.target(net.scale, score_weight)).powi(2))
        })
        .sum();
    total / samples.len() as f64
}

impl Dataset {
    /// The validation loss of `net` on this dataset.
    pub fn validation_loss(&self, net: &FloatNet, score_weight: f32) -> f64 {
        validation_loss(net, &self.validation, score_weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Chunk;

    fn fixture() -> Vec<Record> {
        Chunk::from_bytes(include_bytes!("../tests/fixtures/selfplay.games.zst"))
            .unwrap()
            .records()
            .unwrap()
    }

    const SQUARED_32: Shape = Shape {
        hidden: 32,
        activation: Activation::SquaredClippedRelu,
    };

    fn small_config(epochs: u32) -> Config {
        Config {
            shape: Shape::NET1,
            epochs,
            batch_size: 256,
            learning_rate: 0.001,
            lr_decay: 0.9,
            score_weight: 1.0,
            validation: 0.2,
            seed: 3,
            threads: 2,
        }
    }

    #[test]
    fn training_on_self_play_lowers_the_validation_loss_below_a_constant_guess() {
        let records = fixture();
        let data = Dataset::split(&records, 0.2).unwrap();
        assert!(data.validation_len() > 300 && data.train_len() > 2000);
        let scale = fit_scale(&records);
        for shape in [Shape::NET1, SQUARED_32] {
            let config = Config {
                shape,
                ..small_config(4)
            };
            lowers_the_validation_loss(&data, config, scale);
        }
    }

    fn lowers_the_validation_loss(data: &Dataset, config: Config, scale: f32) {
        let mut run = Checkpoint::new(config, scale);
        let before = data.validation_loss(&run.net, 1.0);
        let reports = train(&mut run, data, |_, _| {}, |_, _| Ok(())).unwrap();
        assert_eq!(reports.len(), 4);
        let after = reports.last().unwrap().validation_loss;
        assert_eq!(after, data.validation_loss(&run.net, 1.0));
        // The best constant prediction: the mean target of the validation set.
        let targets: Vec<f64> = data
            .validation
            .iter()
            .map(|s| f64::from(s.target(scale, 1.0)))
            .collect();
        let mean = targets.iter().sum::<f64>() / targets.len() as f64;
        let constant =
            targets.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / targets.len() as f64;
        assert!(
            after < before && after < 0.9 * constant,
            "{:?}: {before} -> {after}, constant {constant}",
            run.config.shape
        );
    }

    #[test]
    fn a_checkpoint_resumes_to_the_same_weights() {
        let records = fixture();
        let data = Dataset::split(&records, 0.2).unwrap();
        let config = |epochs| Config {
            shape: SQUARED_32,
            ..small_config(epochs)
        };
        let mut straight = Checkpoint::new(config(2), 250.0);
        train(&mut straight, &data, |_, _| {}, |_, _| Ok(())).unwrap();

        let mut first = Checkpoint::new(config(1), 250.0);
        let mut saved = Vec::new();
        train(
            &mut first,
            &data,
            |_, _| {},
            |_, c| {
                saved = c.to_bytes();
                Ok(())
            },
        )
        .unwrap();
        let mut resumed = Checkpoint::from_bytes(&saved).unwrap();
        assert_eq!(resumed.epochs_done, 1);
        assert_eq!(resumed.net.shape, SQUARED_32);
        let mut more = config(2);
        resumed.check_resumable(&more).unwrap();
        more.threads = 2;
        resumed.config = more;
        let reports = train(&mut resumed, &data, |_, _| {}, |_, _| Ok(())).unwrap();
        assert_eq!(reports.len(), 1);
        assert_eq!(resumed, straight);
        // Other settings are refused; a damaged file too.
        let mut other = config(2);
        other.seed = 4;
        assert!(matches!(
            resumed.check_resumable(&other),
            Err(TrainError::ConfigMismatch("seed"))
        ));
        assert!(matches!(
            resumed.check_resumable(&small_config(2)),
            Err(TrainError::ConfigMismatch("hidden size"))
        ));
        for cut in [4, saved.len() - 64, saved.len() - 70] {
            assert!(matches!(
                Checkpoint::from_bytes(&saved[..saved.len() - cut]),
                Err(TrainError::BadCheckpoint(_))
            ));
        }
    }

    #[test]
    fn the_fitted_scale_recovers_the_one_that_drew_the_results() {
        let mut rng = SplitMix(9);
        let pos = ataxx::Position::startpos();
        let records: Vec<Record> = (0..20_000)
            .map(|_| {
                let score = rng.uniform(800.0) as i32;
                let draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let win = draw < 1.0 / (1.0 + (-f64::from(score) / 200.0).exp());
                Record::new(&pos, score, if win { 1 } else { -1 }, false)
            })
            .collect();
        let k = fit_scale(&records);
        assert!((180.0..220.0).contains(&k), "{k}");
    }
}
