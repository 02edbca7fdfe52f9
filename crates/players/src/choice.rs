//! Choosing uniformly among the best moves.
//!
//! Seed 003 shows a player that, for every move tying the best score, replaces its choice with
//! probability 1/2: the last tied moves win far more often than the first. Here the k-th tie
//! replaces the choice with probability 1/k, which leaves each of k tied moves chosen 1/k of
//! the time.

use rand::Rng;

/// Keeps the highest score seen and a uniformly chosen item among those that reach it.
pub struct BestPicker<T, S> {
    best: Option<(S, T)>,
    ties: u32,
}

impl<T, S: PartialOrd> BestPicker<T, S> {
    pub fn new() -> Self {
        BestPicker {
            best: None,
            ties: 0,
        }
    }

    /// Offers `item` with `score`.
    pub fn offer(&mut self, score: S, item: T, rng: &mut impl Rng) {
        match &self.best {
            Some((best, _)) if score < *best => {}
            Some((best, _)) if score == *best => {
                self.ties += 1;
                if rng.random_range(0..self.ties) == 0 {
                    self.best = Some((score, item));
                }
            }
            _ => {
                self.best = Some((score, item));
                self.ties = 1;
            }
        }
    }

    /// The best score so far.
    pub fn best_score(&self) -> Option<&S> {
        self.best.as_ref().map(|(s, _)| s)
    }

    /// The chosen item and its score.
    pub fn into_best(self) -> Option<(S, T)> {
        self.best
    }
}

impl<T, S: PartialOrd> Default for BestPicker<T, S> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Each of k tied items comes up about 1/k of the time: a chi-squared bound at p ≈ 0.001.
    #[test]
    fn ties_are_broken_uniformly() {
        let k = 6;
        let draws = 60_000;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut counts = vec![0u32; k];
        for _ in 0..draws {
            let mut picker = BestPicker::new();
            picker.offer(0, usize::MAX, &mut rng);
            for i in 0..k {
                picker.offer(5, i, &mut rng);
            }
            counts[picker.into_best().unwrap().1] += 1;
        }
        let expected = draws as f64 / k as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        // 5 degrees of freedom: P(chi2 > 20.5) ≈ 0.001.
        assert!(chi2 < 20.5, "counts {counts:?}, chi2 {chi2}");
    }
}
