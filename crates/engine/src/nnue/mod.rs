//! A learned evaluation: a one-hidden-layer network over 2×2-window inputs
//! ([`features`]), trained in floating point ([`FloatNet`], see [`crate::train`]) and run with
//! integer weights ([`Network`]) on accumulators that the search updates move by move.
//!
//! Shape ([`Shape`], read from the net file): 9,216 sparse inputs (36 active per side) → 16 to
//! [`MAX_HIDDEN`] units per side, computed with the same weights from each side's view → an
//! [`Activation`] (clipped ReLU, or its square) → one output from both sides' units, the side
//! to move's first. The output is a logit of the expected result; times the net's `scale` it is
//! a score in hundredths of a piece.
//!
//! Quantisation: first-layer weights × [`QA`] in `i8` and biases × [`QA`] in `i16` (the clip
//! ceiling is `QA`), output weights × `QB` ([`Activation::output_scale`]) in `i16`, output bias
//! × `QA·QB` in `i32`. Training keeps first-layer weights within ±[`INPUT_WEIGHT_CLIP`] (so that
//! they fit `i8`: half the bytes per row the accumulators read, which is what inference waits
//! on), the biases within ±[`WEIGHT_CLIP`] and the output weights within their activation's
//! [`Activation::weight_clip`], so a unit's accumulator (a bias plus 36 weights) stays within
//! 505 + 36·127 ≈ 5,100 and never overflows `i16`; a loaded file is checked for the same.

mod error;
pub mod features;
pub mod file;
pub mod simd;

use std::path::Path;

use ataxx::{Color, Position};

use crate::rng::SplitMix;
use crate::score::MAX_EVAL;
pub use error::NetError;
use features::{changed_windows, window_of_anchor, View, INPUTS};
use simd::Backend;

/// The most hidden units per side a net may have: the accumulators' fixed width.
pub const MAX_HIDDEN: usize = 256;
/// Scale of the first layer's weights, and the clipped ReLU's ceiling.
pub const QA: i32 = 255;
/// Bound on the float biases and output weights.
pub const WEIGHT_CLIP: f32 = 1.98;
/// Bound on the float first-layer weights: × [`QA`] they fit `i8`.
pub const INPUT_WEIGHT_CLIP: f32 = i8::MAX as f32 / QA as f32;

/// What a hidden unit passes on to the output.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)` (net1).
    ClippedRelu,
    /// `clamp(x, 0, 1)²`: smooth at 0 and stronger for large units, at the price of one more
    /// multiplication per unit in the output.
    SquaredClippedRelu,
}

impl Activation {
    /// The unit's output for `x` before the activation.
    pub fn apply(self, x: f32) -> f32 {
        let clipped = x.clamp(0.0, 1.0);
        match self {
            Activation::ClippedRelu => clipped,
            Activation::SquaredClippedRelu => clipped * clipped,
        }
    }

    /// The derivative of [`Activation::apply`] at `x` (0 outside the clip's range).
    pub fn derivative(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::ClippedRelu => 1.0,
            Activation::SquaredClippedRelu => 2.0 * x,
        }
    }

    /// Scale of the output weights (`QB`). The squared activation multiplies a clipped unit
    /// (at most [`QA`]) by its weight in 16 bits before the second factor, so its quantised
    /// weights must stay within ±127: × 128 with weights within ±127/128 (trained output
    /// weights stay far inside: net1's largest is 0.30). × 64 within ±1.98 would double the
    /// rounding error (measured: a mean 3 % of the scale on a 256-unit test net).
    pub fn output_scale(self) -> i32 {
        match self {
            Activation::ClippedRelu => 256,
            Activation::SquaredClippedRelu => 128,
        }
    }

    /// Bound on the float output weights (and biases), so that they fit their quantised form.
    pub fn weight_clip(self) -> f32 {
        match self {
            Activation::ClippedRelu => WEIGHT_CLIP,
            Activation::SquaredClippedRelu => 127.0 / 128.0,
        }
    }

    /// The activation's number in the net file.
    pub fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::ClippedRelu),
            1 => Some(Activation::SquaredClippedRelu),
            _ => None,
        }
    }

    /// The name `ataxx train --activation` takes.
    pub fn name(self) -> &'static str {
        match self {
            Activation::ClippedRelu => "crelu",
            Activation::SquaredClippedRelu => "screlu",
        }
    }
}

impl std::str::FromStr for Activation {
    type Err = NetError;

    fn from_str(name: &str) -> Result<Activation, NetError> {
        [Activation::ClippedRelu, Activation::SquaredClippedRelu]
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| NetError::UnknownActivation(name.to_string()))
    }
}

/// The layer sizes and activation of a net.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Hidden units per side: a multiple of 16 (the SIMD width) up to [`MAX_HIDDEN`].
    pub hidden: usize,
    pub activation: Activation,
}

impl Shape {
    /// net1's shape.
    pub const NET1: Shape = Shape {
        hidden: 128,
        activation: Activation::ClippedRelu,
    };

    /// A shape, if `hidden` is a multiple of 16 between 16 and [`MAX_HIDDEN`].
    pub fn new(hidden: usize, activation: Activation) -> Result<Shape, NetError> {
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(NetError::HiddenSize(hidden as u64));
        }
        Ok(Shape { hidden, activation })
    }
}

impl Default for Shape {
    fn default() -> Self {
        Shape::NET1
    }
}

fn side_index(side: Color) -> usize {
    match side {
        Color::X => 0,
        Color::O => 1,
    }
}

/// The network in floating point: what the trainer fits and the reference that quantised
/// inference is tested against.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub shape: Shape,
    /// `INPUTS × hidden`, one row of `hidden` per input.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `2 × hidden`: the side to move's units, then the other side's.
    pub w2: Vec<f32>,
    pub b2: f32,
    /// Hundredths of a piece per logit unit (fitted from the data by the trainer).
    pub scale: f32,
}

impl FloatNet {
    /// Small random weights from `seed` (a fixed generator, so training is reproducible).
    pub fn random(seed: u64, scale: f32, shape: Shape) -> FloatNet {
        let mut rng = SplitMix(seed);
        let hidden = shape.hidden;
        // Inputs: 36 active per side, so rows of about 1/√36 keep units in the clip's range.
        FloatNet {
            shape,
            w1: (0..INPUTS * hidden).map(|_| rng.uniform(0.1)).collect(),
            b1: (0..hidden).map(|_| 0.1 + rng.uniform(0.1)).collect(),
            w2: (0..2 * hidden).map(|_| rng.uniform(0.02)).collect(),
            b2: 0.0,
            scale,
        }
    }

    /// A side's units before the activation: the bias plus the rows of its active inputs
    /// (`out` has `hidden` entries).
    pub fn hidden(&self, inputs: &[u16], out: &mut [f32]) {
        let hidden = self.shape.hidden;
        out.copy_from_slice(&self.b1);
        for &i in inputs {
            let row = &self.w1[usize::from(i) * hidden..][..hidden];
            for (o, w) in out.iter_mut().zip(row) {
                *o += w;
            }
        }
    }

    /// The output logit from both sides' units before the activation.
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let act = self.shape.activation;
        let (w_us, w_them) = self.w2.split_at(self.shape.hidden);
        let side = |units: &[f32], w: &[f32]| -> f32 {
            units.iter().zip(w).map(|(&h, w)| act.apply(h) * w).sum()
        };
        self.b2 + side(us, w_us) + side(them, w_them)
    }

    /// The output logit of `pos` (a 7×7 board).
    pub fn logit(&self, pos: &Position) -> f32 {
        let hidden = self.shape.hidden;
        let (mut us, mut them) = ([0.0; MAX_HIDDEN], [0.0; MAX_HIDDEN]);
        let (us, them) = (&mut us[..hidden], &mut them[..hidden]);
        self.hidden(&View::of(pos, pos.turn()).inputs(), us);
        self.hidden(&View::of(pos, !pos.turn()).inputs(), them);
        self.output(us, them)
    }

    /// Keeps the first-layer weights within ±[`INPUT_WEIGHT_CLIP`], the biases within
    /// ±[`WEIGHT_CLIP`] and the output weights within their activation's
    /// [`Activation::weight_clip`] (after each training step).
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut() {
            *w = w.clamp(-INPUT_WEIGHT_CLIP, INPUT_WEIGHT_CLIP);
        }
        for w in self.b1.iter_mut() {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
        let out = self.shape.activation.weight_clip();
        for w in self.w2.iter_mut() {
            *w = w.clamp(-out, out);
        }
    }

    /// The integer network: weights rounded to their scales.
    pub fn quantise(&self) -> Network {
        let q = |w: f32, clip: f32, s: i32| (w.clamp(-clip, clip) * s as f32).round() as i16;
        let q1 =
            |w: f32| (w.clamp(-INPUT_WEIGHT_CLIP, INPUT_WEIGHT_CLIP) * QA as f32).round() as i8;
        let act = self.shape.activation;
        let qb = act.output_scale();
        Network {
            shape: self.shape,
            w1: self.w1.iter().map(|&w| q1(w)).collect(),
            b1: self.b1.iter().map(|&w| q(w, WEIGHT_CLIP, QA)).collect(),
            w2: self
                .w2
                .iter()
                .map(|&w| q(w, act.weight_clip(), qb))
                .collect(),
            b2: (self.b2 * (QA * qb) as f32).round() as i32,
            scale: self.scale.round() as i32,
            backend: Backend::detect(),
        }
    }
}

/// Both sides' hidden units of one position, in quantised form: the first `hidden` of each
/// side's [`MAX_HIDDEN`] are used, the rest stay 0.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Accumulator {
    sides: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            sides: [[0; MAX_HIDDEN]; 2],
        }
    }
}

/// The quantised network that the engine runs.
#[derive(Clone, Debug)]
pub struct Network {
    shape: Shape,
    /// `INPUTS × hidden`, one row per input.
    w1: Box<[i8]>,
    b1: Box<[i16]>,
    w2: Box<[i16]>,
    b2: i32,
    scale: i32,
    backend: Backend,
}

impl Network {
    /// Reads a net file (format in [`mod@file`]).
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            kind: e.kind(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Hundredths of a piece per logit unit.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// Its layer sizes and activation.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The same network running on `backend` (for tests and benchmarks of the kernels).
    pub fn with_backend(mut self, backend: Backend) -> Network {
        self.backend = backend;
        self
    }

    fn row(&self, input: usize) -> &[i8] {
        let hidden = self.shape.hidden;
        &self.w1[input * hidden..][..hidden]
    }

    /// Computes both sides' units of `pos` from scratch.
    pub fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        for side in Color::ALL {
            let units = &mut acc.sides[side_index(side)][..self.shape.hidden];
            units.copy_from_slice(&self.b1);
            for input in View::of(pos, side).inputs() {
                self.backend.add(units, self.row(usize::from(input)));
            }
        }
    }

    /// `child` = the units after the move from `before` to `after`, from `parent` (the units
    /// of `before`): only the windows over changed cells are updated.
    #[inline]
    pub fn update(
        &self,
        parent: &Accumulator,
        child: &mut Accumulator,
        before: &Position,
        after: &Position,
    ) {
        let hidden = self.shape.hidden;
        for (c, p) in child.sides.iter_mut().zip(&parent.sides) {
            c[..hidden].copy_from_slice(&p[..hidden]);
        }
        let changed = (before.pieces(Color::X).0 ^ after.pieces(Color::X).0)
            | (before.pieces(Color::O).0 ^ after.pieces(Color::O).0);
        let mut windows = changed_windows(changed);
        if windows == 0 {
            return;
        }
        let views = |pos: &Position| [View::of(pos, Color::X), View::of(pos, Color::O)];
        let (old, new) = (views(before), views(after));
        while windows != 0 {
            let window = window_of_anchor(windows.trailing_zeros());
            windows &= windows - 1;
            for side in 0..2 {
                let (from, to) = (old[side].input(window), new[side].input(window));
                self.backend.add_sub(
                    &mut child.sides[side][..hidden],
                    self.row(to),
                    self.row(from),
                );
            }
        }
    }

    /// The score of the position whose units are `acc`, for `turn`, in hundredths of a piece.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, turn: Color) -> i32 {
        let hidden = self.shape.hidden;
        let (w_us, w_them) = self.w2.split_at(hidden);
        let us = &acc.sides[side_index(turn)][..hidden];
        let them = &acc.sides[side_index(!turn)][..hidden];
        let ceiling = QA as i16;
        let qb = i64::from(self.shape.activation.output_scale());
        let qa = i64::from(QA);
        // Each side's sum fits `i32` (the file check bounds it); their total may not.
        let (sum, divisor) = match self.shape.activation {
            Activation::ClippedRelu => (
                i64::from(self.backend.clipped_dot(us, w_us, ceiling))
                    + i64::from(self.backend.clipped_dot(them, w_them, ceiling))
                    + i64::from(self.b2),
                qa * qb,
            ),
            // Units are squared at scale QA², so the bias (at QA·QB) is raised by QA.
            Activation::SquaredClippedRelu => (
                i64::from(self.backend.squared_clipped_dot(us, w_us, ceiling))
                    + i64::from(self.backend.squared_clipped_dot(them, w_them, ceiling))
                    + i64::from(self.b2) * qa,
                qa * qa * qb,
            ),
        };
        let score = sum * i64::from(self.scale) / divisor;
        score.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }

    /// The score of `pos` (a 7×7 board) computed from scratch.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(&acc, pos.turn())
    }
}

#[cfg(test)]
pub(crate) mod tests;
