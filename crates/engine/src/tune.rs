//! Texel tuning of the hand-crafted evaluation: logistic regression of game results on the
//! evaluation's features.
//!
//! Every sample is a position with the final result of its game, from the side to move's view
//! (1 win, ½ draw, 0 loss). The evaluation predicts the result as `sigmoid(k · eval / 100)`;
//! tuning first fits the scale `k` to the current weights, then moves the weights down the
//! gradient of the mean squared prediction error (Adam steps, full batch). The evaluation is
//! linear in its weights, so features are counted once per position.

use ataxx::Position;

use crate::eval::{Features, Weights, FEATURES};

/// One training position.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    pub features: Features,
    /// The game's result for the side to move in this position: 1, 0.5 or 0.
    pub result: f64,
}

impl Sample {
    /// A sample for `pos` whose game ended with `score` for x (1, 0.5 or 0); `None` for
    /// positions that tell the evaluation nothing (game over, forced pass).
    pub fn new(pos: &Position, x_score: f64) -> Option<Sample> {
        if pos.is_game_over() || pos.must_pass() {
            return None;
        }
        let result = match pos.turn() {
            ataxx::Color::X => x_score,
            ataxx::Color::O => 1.0 - x_score,
        };
        Some(Sample {
            features: Features::of(pos),
            result,
        })
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(weights: &[f64; FEATURES], features: &Features) -> f64 {
    weights
        .iter()
        .zip(features.0)
        .map(|(w, f)| w * f64::from(f))
        .sum()
}

/// Mean squared error of `weights` with scale `k` over `samples`.
pub fn error(samples: &[Sample], weights: &[f64; FEATURES], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * dot(weights, &s.features) / 100.0);
            (s.result - p).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale `k` that minimises the error of `weights` (golden-section search on 0.01–10).
pub fn fit_scale(samples: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.01f64, 10.0f64);
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Gradient descent on the weights, one full pass over the samples per [`Tuner::epoch`].
pub struct Tuner {
    samples: Vec<Sample>,
    weights: [f64; FEATURES],
    k: f64,
    learning_rate: f64,
    moment: [f64; FEATURES],
    velocity: [f64; FEATURES],
    steps: i32,
}

impl Tuner {
    /// Starts from `initial` and fits the scale to it. The learning rate is in weight units
    /// (hundredths of a piece) per step.
    pub fn new(samples: Vec<Sample>, initial: &Weights, learning_rate: f64) -> Tuner {
        let weights = initial.0.map(f64::from);
        let k = fit_scale(&samples, &weights);
        Tuner {
            samples,
            weights,
            k,
            learning_rate,
            moment: [0.0; FEATURES],
            velocity: [0.0; FEATURES],
            steps: 0,
        }
    }

    pub fn scale(&self) -> f64 {
        self.k
    }

    pub fn samples(&self) -> usize {
        self.samples.len()
    }

    /// The current mean squared error.
    pub fn error(&self) -> f64 {
        error(&self.samples, &self.weights, self.k)
    }

    /// One Adam step on the full-batch gradient; returns the error before the step.
    pub fn epoch(&mut self) -> f64 {
        let mut gradient = [0.0; FEATURES];
        let mut total = 0.0;
        let scale = self.k / 100.0;
        for s in &self.samples {
            let p = sigmoid(scale * dot(&self.weights, &s.features));
            let residual = s.result - p;
            total += residual * residual;
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) * scale * f
            let common = -2.0 * residual * p * (1.0 - p) * scale;
            for (g, f) in gradient.iter_mut().zip(s.features.0) {
                *g += common * f64::from(f);
            }
        }
        let n = self.samples.len().max(1) as f64;
        let (beta1, beta2) = (0.9, 0.999);
        self.steps += 1;
        let adam = self
            .weights
            .iter_mut()
            .zip(&mut self.moment)
            .zip(&mut self.velocity)
            .zip(gradient);
        for (((weight, moment), velocity), sum) in adam {
            let g = sum / n;
            *moment = beta1 * *moment + (1.0 - beta1) * g;
            *velocity = beta2 * *velocity + (1.0 - beta2) * g * g;
            let m = *moment / (1.0 - beta1.powi(self.steps));
            let v = *velocity / (1.0 - beta2.powi(self.steps));
            *weight -= self.learning_rate * m / (v.sqrt() + 1e-12);
        }
        total / n
    }

    /// The weights rounded to the evaluation's integers.
    pub fn weights(&self) -> Weights {
        Weights(self.weights.map(|w| w.round() as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{SQUARE_CLASSES, TEMPO};

    /// Games where the side with more pieces always wins: tuning must keep material positive
    /// and lower the error.
    #[test]
    fn tuning_lowers_the_error_on_results_that_follow_material() {
        let fens = [
            ("xxx4/xx5/7/7/7/5oo/6o x 0 10", 1.0),
            ("xxx4/xx5/7/7/7/5oo/6o o 0 10", 1.0),
            ("xx5/x6/7/7/7/4ooo/5oo x 0 10", 0.0),
            ("xx5/x6/7/7/7/4ooo/5oo o 0 10", 0.0),
            ("xx5/x6/7/7/7/5oo/6o x 0 10", 0.5),
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .map(|(fen, x_score)| Sample::new(&fen.parse().unwrap(), *x_score).unwrap())
            .collect();
        assert_eq!(samples[1].result, 0.0, "o to move in an x win");
        let start = Weights([0; FEATURES]);
        let mut tuner = Tuner::new(samples, &start, 5.0);
        let before = tuner.error();
        for _ in 0..200 {
            tuner.epoch();
        }
        assert!(
            tuner.error() < before * 0.5,
            "{} -> {}",
            before,
            tuner.error()
        );
        let material: i32 = tuner.weights().0[..SQUARE_CLASSES].iter().sum();
        assert!(material > 0, "{:?}", tuner.weights());
        // Every sample has the tempo feature 1 and results are balanced by side: tempo stays small.
        assert!(tuner.weights().0[TEMPO].abs() < material.abs());
    }

    #[test]
    fn finished_games_and_forced_passes_are_not_samples() {
        assert!(Sample::new(&"x5o/7/7/7/7/7/o5x x 100 1".parse().unwrap(), 0.5).is_none());
        assert!(Sample::new(&"7/7/7/7/4ooo/4ooo/4oox x 0 1".parse().unwrap(), 0.0).is_none());
    }
}
