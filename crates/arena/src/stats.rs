//! Match statistics: Elo from a score, its 95% error, the likelihood of superiority (LOS),
//! normalised Elo, and the log-likelihood ratio of a sequential probability ratio test (SPRT).
//!
//! Results are counted two ways. [`Wdl`] counts single games (the trinomial model).
//! [`Pentanomial`] counts game *pairs*: the two games of one opening with colours swapped, scored
//! 0, ½, 1, 1½ or 2 points. Pairs are what a match actually samples, and their variance is the
//! honest one: an unbalanced opening makes both games of a pair lean the same way, which the
//! trinomial model would count as evidence twice.
//!
//! Both reduce to a [`Sample`]: a number of independent units, the mean score per game and the
//! variance of one unit. Elo, error, LOS and the SPRT all read that.
//!
//! ```
//! use arena::stats::{EloEstimate, Wdl};
//! let wdl = Wdl { wins: 60, draws: 30, losses: 10 };
//! let est = EloEstimate::new(&wdl.sample());
//! assert!((est.elo - 190.85).abs() < 0.01);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use thiserror::Error;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo per unit of normalised score `t = (mean − ½) / σ`: nElo = t · 800 / ln 10.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Games won, drawn and lost, from one engine's side.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Counts one game scored 0, ½ or 1.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// The games as a sample of single-game scores.
    pub fn sample(&self) -> Sample {
        Sample::from_counts(
            &[
                (0.0, self.losses as f64),
                (0.5, self.draws as f64),
                (1.0, self.wins as f64),
            ],
            1,
        )
    }

    /// Likelihood of superiority as cutechess computes it from wins and losses alone:
    /// Φ((W − L) / √(W + L)).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        normal_cdf((w - l) / (w + l).sqrt())
    }
}

/// The result of one game for one engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameScore {
    Loss,
    Draw,
    Win,
}

impl GameScore {
    /// Half-points: 0, 1 or 2.
    pub const fn half_points(self) -> usize {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }
}

/// Game pairs counted by the points the engine scored in both: index 0 = two losses, 1 = loss
/// and draw, 2 = two draws or a win and a loss, 3 = win and draw, 4 = two wins.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Counts one finished pair.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    /// The pairs as a sample of per-game scores (a pair's score is the mean of its two games).
    pub fn sample(&self) -> Sample {
        let counts: Vec<(f64, f64)> = (0..5).map(|i| (i as f64 / 4.0, self.0[i] as f64)).collect();
        Sample::from_counts(&counts, 2)
    }

    /// The same pairs with every empty bucket given a thousandth of a pair, so that a run of
    /// identical pairs still has a variance (fishtest regularises the same way).
    fn regularised_sample(&self) -> Sample {
        let counts: Vec<(f64, f64)> = (0..5)
            .map(|i| {
                let n = self.0[i] as f64;
                (i as f64 / 4.0, if n == 0.0 { 1e-3 } else { n })
            })
            .collect();
        Sample::from_counts(&counts, 2)
    }
}

/// Independent units (games or pairs) reduced to what the statistics need.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// How many units.
    pub units: f64,
    /// Games per unit: 1 for single games, 2 for pairs.
    pub games_per_unit: u32,
    /// Mean score per game, 0–1.
    pub mean: f64,
    /// Variance of one unit's per-game score.
    pub variance: f64,
}

impl Sample {
    /// From `(score, count)` buckets.
    pub fn from_counts(counts: &[(f64, f64)], games_per_unit: u32) -> Sample {
        let units: f64 = counts.iter().map(|&(_, n)| n).sum();
        if units == 0.0 {
            return Sample {
                units,
                games_per_unit,
                mean: 0.5,
                variance: 0.0,
            };
        }
        let mean = counts.iter().map(|&(s, n)| s * n).sum::<f64>() / units;
        let variance = counts
            .iter()
            .map(|&(s, n)| n * (s - mean).powi(2))
            .sum::<f64>()
            / units;
        Sample {
            units,
            games_per_unit,
            mean,
            variance,
        }
    }

    /// Standard error of the mean score.
    pub fn standard_error(&self) -> f64 {
        (self.variance / self.units).sqrt()
    }

    /// Standard deviation of one game's score: for pairs, √2 times the pair's (a pair averages
    /// two games).
    pub fn per_game_deviation(&self) -> f64 {
        (self.variance * f64::from(self.games_per_unit)).sqrt()
    }
}

/// Logistic Elo difference for a mean score: −400 · log10(1/score − 1). Infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference (inverse of [`elo_from_score`]).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo and its uncertainty from a sample.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Mean score per game, 0–1.
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half-width of the 95% confidence interval, in Elo: (elo(s + z·se) − elo(s − z·se)) / 2.
    pub error: f64,
    /// Lower and upper ends of that interval.
    pub lower: f64,
    pub upper: f64,
    /// Likelihood of superiority: Φ((s − ½) / se).
    pub los: f64,
    /// Normalised Elo: (s − ½) / σ per game · 800 / ln 10.
    pub nelo: f64,
    /// Half-width of nElo's 95% interval.
    pub nelo_error: f64,
}

impl EloEstimate {
    pub fn new(sample: &Sample) -> EloEstimate {
        let se = sample.standard_error();
        let lower = elo_from_score(sample.mean - Z95 * se);
        let upper = elo_from_score(sample.mean + Z95 * se);
        let sigma = sample.per_game_deviation();
        let (los, nelo, nelo_error) = if se > 0.0 {
            (
                normal_cdf((sample.mean - 0.5) / se),
                (sample.mean - 0.5) / sigma * NELO_PER_T,
                Z95 * se / sigma * NELO_PER_T,
            )
        } else {
            // No spread at all (every game or pair alike): certain, unless perfectly even.
            let side = (sample.mean - 0.5).signum();
            match sample.mean {
                m if m == 0.5 || sample.units == 0.0 => (0.5, 0.0, 0.0),
                _ => (0.5 + side / 2.0, side * f64::INFINITY, 0.0),
            }
        };
        EloEstimate {
            score: sample.mean,
            elo: elo_from_score(sample.mean),
            error: (upper - lower) / 2.0,
            lower,
            upper,
            los,
            nelo,
            nelo_error,
        }
    }
}

/// The estimate a match reports: from the game pairs once there are any (their variance is the
/// honest one), else from the single games.
pub fn match_estimate(wdl: &Wdl, pentanomial: &Pentanomial) -> EloEstimate {
    if pentanomial.pairs() > 0 {
        EloEstimate::new(&pentanomial.sample())
    } else {
        EloEstimate::new(&wdl.sample())
    }
}

/// The standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function, to a relative error below 1.2e-7 everywhere (the Chebyshev
/// fit in Numerical Recipes, §6.2): ample for percentages and LLRs shown to two decimals.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ]
    .iter()
    .rev()
    .fold(0.0, |acc, c| c + t * acc);
    let r = t * (-z * z + poly).exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// How the SPRT's two Elo hypotheses are measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Logistic Elo: the hypotheses are expected scores `score_from_elo(elo)`.
    Logistic,
    /// Normalised Elo (fishtest's and fastchess's default): the hypotheses are offsets of
    /// `nelo / (800 / ln 10)` standard deviations from ½, so the test costs about the same
    /// number of games whatever the draw rate.
    Normalized,
}

/// Which hypothesis an SPRT accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Hypothesis {
    /// H0: the Elo difference is `elo0` (or less).
    H0,
    /// H1: the Elo difference is `elo1` (or more).
    H1,
}

/// Pairs an SPRT needs before it may decide. The LLR divides by the pairs' variance, which a
/// handful of identical pairs (three won pairs, say) puts near zero, so that the test would
/// otherwise "decide" on a sample that says almost nothing.
pub const MIN_DECISION_PAIRS: u64 = 30;

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1` (H1) with error
/// rates `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly).
///
/// The log-likelihood ratio uses the normal approximation of the generalised SPRT: with `N`
/// units of mean `m` and variance `v`, and hypothesised means `m0`, `m1`,
/// `LLR = N · (m1 − m0) · (2m − m0 − m1) / (2v)`; the log of the ratio of two normal likelihoods
/// with the sample's own variance. The test stops when the LLR leaves
/// `[ln(β / (1 − α)), ln((1 − β) / α)]`.
///
/// Written `elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=normalized|logistic]`:
///
/// ```
/// use arena::stats::{Sprt, SprtModel};
/// let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
/// assert_eq!((sprt.alpha, sprt.beta, sprt.model), (0.05, 0.05, SprtModel::Normalized));
/// let (lower, upper) = sprt.bounds();
/// assert!((lower + 2.944).abs() < 1e-3 && (upper - 2.944).abs() < 1e-3);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

impl Sprt {
    /// `(lower, upper)`: H0 is accepted at or below `lower`, H1 at or above `upper`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these pairs.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        self.llr_of(&pairs.regularised_sample())
    }

    /// The log-likelihood ratio for any sample (games or pairs).
    pub fn llr_of(&self, sample: &Sample) -> f64 {
        if sample.units == 0.0 || sample.variance <= 0.0 {
            return 0.0;
        }
        let (m0, m1) = match self.model {
            SprtModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            SprtModel::Normalized => {
                let sigma = sample.per_game_deviation();
                (
                    0.5 + self.elo0 / NELO_PER_T * sigma,
                    0.5 + self.elo1 / NELO_PER_T * sigma,
                )
            }
        };
        sample.units * (m1 - m0) * (2.0 * sample.mean - m0 - m1) / (2.0 * sample.variance)
    }

    /// The accepted hypothesis once the LLR has left the bounds, after at least
    /// [`MIN_DECISION_PAIRS`] pairs.
    pub fn decision(&self, llr: f64, pairs: u64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if pairs < MIN_DECISION_PAIRS {
            None
        } else if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

/// SPRT settings that could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SprtError {
    #[error("`{0}` is not key=value (keys: elo0, elo1, alpha, beta, model)")]
    Syntax(String),
    #[error("unknown SPRT key `{0}` (keys: elo0, elo1, alpha, beta, model)")]
    UnknownKey(String),
    #[error("{key}={value:?} is not a number")]
    Number { key: String, value: String },
    #[error("model {0:?} is neither `normalized` nor `logistic`")]
    Model(String),
    #[error("elo0 and elo1 are both required")]
    Missing,
    #[error("elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order { elo0: f64, elo1: f64 },
    #[error("alpha and beta must lie strictly between 0 and 1, with alpha + beta < 1")]
    Rates,
}

impl FromStr for Sprt {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1) = (None, None);
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 0.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SprtError::Syntax(item.to_string()))?;
            let number = || {
                value.parse::<f64>().map_err(|_| SprtError::Number {
                    key: key.to_string(),
                    value: value.to_string(),
                })
            };
            match key {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    sprt.model = match value {
                        "normalized" | "normalised" => SprtModel::Normalized,
                        "logistic" => SprtModel::Logistic,
                        _ => return Err(SprtError::Model(value.to_string())),
                    }
                }
                _ => return Err(SprtError::UnknownKey(key.to_string())),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtError::Missing);
        };
        if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
            return Err(SprtError::Order { elo0, elo1 });
        }
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !rate_ok(sprt.alpha) || !rate_ok(sprt.beta) || sprt.alpha + sprt.beta >= 1.0 {
            return Err(SprtError::Rates);
        }
        sprt.elo0 = elo0;
        sprt.elo1 = elo1;
        Ok(sprt)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let model = match self.model {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
        };
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={model}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tolerance: f64) {
        assert!((got - want).abs() <= tolerance, "got {got}, want {want}");
    }

    /// 60 wins, 30 draws, 10 losses: score ¾, so Elo = 400·log10(3) = 190.8485. Per-game
    /// variance (60·¼² + 30·¼² + 10·¾²)/100 = 0.1125, standard error √(0.1125/100) = 0.033541;
    /// the 95% score interval 0.75 ± 0.065739 maps to Elo 134.357…258.447, half-width 62.045.
    #[test]
    fn trinomial_elo_error_and_los() {
        let wdl = Wdl {
            wins: 60,
            draws: 30,
            losses: 10,
        };
        let sample = wdl.sample();
        close(sample.variance, 0.1125, 1e-12);
        let est = EloEstimate::new(&sample);
        close(est.score, 0.75, 1e-12);
        close(est.elo, 190.848_502, 1e-5);
        close(est.lower, 134.357_270, 1e-5);
        close(est.upper, 258.447_341, 1e-5);
        close(est.error, 62.045_035, 1e-5);
        // nElo = 0.25 / √0.1125 · 800 / ln 10.
        close(est.nelo, 258.963_196, 1e-5);
        // cutechess LOS from 12 wins and 8 losses: Φ(4 / √20) = Φ(0.894427).
        let los = Wdl {
            wins: 12,
            draws: 7,
            losses: 8,
        }
        .los();
        close(los, 0.814_453_3, 1e-6);
    }

    /// Pairs 2/5/10/6/3 (0, ¼, ½, ¾, 1 per game): mean 13.75/26 = 0.528846, pair variance
    /// 0.073687; Elo 20.067 ± 73.850, LOS Φ(0.028846 / √(0.073687/26)) = 0.706039.
    #[test]
    fn pentanomial_elo_error_and_los() {
        let mut pairs = Pentanomial::default();
        for (count, (a, b)) in [
            (2, (GameScore::Loss, GameScore::Loss)),
            (5, (GameScore::Draw, GameScore::Loss)),
            (7, (GameScore::Draw, GameScore::Draw)),
            (3, (GameScore::Loss, GameScore::Win)),
            (6, (GameScore::Win, GameScore::Draw)),
            (3, (GameScore::Win, GameScore::Win)),
        ] {
            for _ in 0..count {
                pairs.add(a, b);
            }
        }
        assert_eq!(pairs, Pentanomial([2, 5, 10, 6, 3]));
        let sample = pairs.sample();
        close(sample.mean, 13.75 / 26.0, 1e-12);
        close(sample.variance, 0.073_687_13, 1e-8);
        let est = EloEstimate::new(&sample);
        close(est.elo, 20.066_644, 1e-5);
        close(est.error, 73.849_599, 1e-5);
        close(est.los, 0.706_039, 1e-6);
    }

    /// Pairs 5/10/40/25/20: mean 0.6125, pair variance 0.0596875. Logistic bounds 0 and 10 Elo
    /// mean scores ½ and 0.514387; LLR = 100 · 0.014387 · (1.225 − 1.014387) / (2 · 0.0596875).
    #[test]
    fn sprt_llr_both_models() {
        let pairs = Pentanomial([5, 10, 40, 25, 20]);
        let est = EloEstimate::new(&pairs.sample());
        close(est.elo, 79.533_754, 1e-5);
        close(est.error, 38.599_785, 1e-5);
        close(est.nelo, 103.203_747, 1e-5);
        close(est.nelo_error, 48.151_231, 1e-5);
        let logistic: Sprt = "elo0=0,elo1=10,model=logistic".parse().unwrap();
        close(logistic.llr(&pairs), 2.112_506, 1e-4);
        // Normalised: the hypotheses sit 0 and 10·ln10/800 per-game deviations (√(2·var))
        // above ½.
        let normalized: Sprt = "elo0=0,elo1=10".parse().unwrap();
        close(normalized.llr(&pairs), 1.627_082, 1e-4);
        assert_eq!(normalized.decision(1.627, 100), None);
        assert_eq!(normalized.decision(2.95, 100), Some(Hypothesis::H1));
        assert_eq!(normalized.decision(-2.95, 100), Some(Hypothesis::H0));
        // The same test on single games uses the trinomial variance.
        let wdl = Wdl {
            wins: 60,
            draws: 30,
            losses: 10,
        };
        close(logistic.llr_of(&wdl.sample()), 3.105_156, 1e-5);
    }

    #[test]
    fn identical_pairs_decide_only_after_enough_pairs() {
        let all_won = Pentanomial([0, 0, 0, 0, 10]);
        let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
        // Regularised with 0.001 of a pair in each empty bucket.
        close(sprt.llr(&all_won), 7.431_471, 1e-4);
        // Past the bound, but ten pairs are too few to decide on; thirty are enough.
        assert_eq!(sprt.decision(sprt.llr(&all_won), all_won.pairs()), None);
        let more = Pentanomial([0, 0, 0, 0, MIN_DECISION_PAIRS]);
        assert_eq!(
            sprt.decision(sprt.llr(&more), more.pairs()),
            Some(Hypothesis::H1)
        );
        let est = EloEstimate::new(&all_won.sample());
        assert_eq!((est.los, est.nelo), (1.0, f64::INFINITY));
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_settings_are_checked() {
        let sprt: Sprt = "elo0=-1.5,elo1=3,alpha=0.1,beta=0.2,model=logistic"
            .parse()
            .unwrap();
        assert_eq!(sprt.to_string().parse::<Sprt>(), Ok(sprt));
        close(sprt.bounds().0, (0.2f64 / 0.9).ln(), 1e-12);
        close(sprt.bounds().1, 8f64.ln(), 1e-12);
        for bad in [
            "elo0=5,elo1=0",
            "elo1=5",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=5,alpha=0.6,beta=0.5",
            "elo0=0,elo1=5,model=bayes",
            "elo0=0,elo1=5,gamma=1",
            "elo0=zero,elo1=5",
            "elo0",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn normal_cdf_matches_tables() {
        close(normal_cdf(0.0), 0.5, 1e-7);
        close(normal_cdf(1.959_963_985), 0.975, 1e-7);
        close(normal_cdf(-1.0), 0.158_655_25, 1e-7);
        close(normal_cdf(3.0), 0.998_650_10, 1e-7);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -35.5, 0.0, 12.0, 800.0] {
            close(elo_from_score(score_from_elo(elo)), elo, 1e-9);
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }
}
