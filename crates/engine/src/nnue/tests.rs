use super::file::{file_bytes, fnv1a, MAGIC, VERSION};
use super::*;
use proptest::prelude::*;

/// Positions along a random game from `start` (moves picked by `seed`), the start included.
fn random_game(start: &str, seed: u64, plies: usize) -> Vec<Position> {
    let mut pos: Position = start.parse().unwrap();
    let mut state = seed | 1;
    let mut out = vec![pos];
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        let moves = pos.legal_moves();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(state >> 33) as usize % moves.len()];
        pos.play(mv).unwrap();
        out.push(pos);
    }
    out
}

pub(crate) const STARTS: [&str; 3] = [
    "x5o/7/7/7/7/7/o5x x 0 1",
    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    "x5o/7/3-3/2-1-2/3-3/7/o5x o 0 1",
];

/// The shapes the tests cover: net1's, and the second generation's candidates.
pub(crate) const SHAPES: [Shape; 3] = [
    Shape::NET1,
    Shape {
        hidden: 256,
        activation: Activation::SquaredClippedRelu,
    },
    Shape {
        hidden: 256,
        activation: Activation::ClippedRelu,
    },
];

/// net1's file (format version 1), the embedded net until net2 replaced it (docs/strength.md).
const NET1_FILE: &[u8] = include_bytes!("../../tests/fixtures/net1.nnue");

pub(crate) fn test_net(shape: Shape) -> FloatNet {
    // Larger weights than a fresh net's, so that units reach both ends of the clip.
    let mut net = FloatNet::random(7, 300.0, shape);
    for w in net.w1.iter_mut() {
        *w *= 3.0;
    }
    net.b2 = 0.05;
    net
}

#[test]
fn quantised_scores_agree_with_the_float_net_within_the_rounding_bound() {
    for shape in SHAPES {
        let float = test_net(shape);
        let net = float.quantise();
        let (mean, worst) = quantisation_error(&float, &net);
        // The stated tolerance, besides the per-position bound: a mean error under 2 % of the
        // scale (6 hundredths here) for the clipped ReLU (measured: 1.7 for net1's shape,
        // largest 5.8), under 5 % for the squared one (measured: 11.4 for 256 units, largest
        // 29). The latter is mostly one offset shared by all positions: with most units of
        // this test net saturated, the rounding errors of 512 output weights at QB = 128 add
        // up alike everywhere.
        let share = match shape.activation {
            Activation::ClippedRelu => 0.02,
            Activation::SquaredClippedRelu => 0.05,
        };
        assert!(
            mean < share * f64::from(net.scale()),
            "{shape:?}: mean error {mean}, largest {worst}"
        );
    }
}

/// The mean and largest error of `net` against `float` over three random games, after
/// checking each position against the rounding bound.
fn quantisation_error(float: &FloatNet, net: &Network) -> (f64, f64) {
    let scale = f64::from(net.scale());
    let act = float.shape.activation;
    let qb = f64::from(act.output_scale());
    // Rounding moves each of a unit's 37 terms (36 inputs and the bias) by at most 0.5/QA,
    // so a clipped unit by at most e_h and a squared one by at most 2·e_h (its slope is at
    // most 2); an output weight moves by at most 0.5/QB.
    let slope = match act {
        Activation::ClippedRelu => 1.0,
        Activation::SquaredClippedRelu => 2.0,
    };
    let e_h = slope * 37.0 * 0.5 / f64::from(QA);
    let sum_w2: f64 = net.w2.iter().map(|&w| f64::from(w).abs()).sum::<f64>() / qb;
    let (mut worst, mut total, mut count) = (0.0f64, 0.0, 0);
    let hidden = float.shape.hidden;
    for (i, start) in STARTS.iter().enumerate() {
        for pos in random_game(start, 11 + i as u64, 120) {
            let (mut us, mut them) = ([0.0; MAX_HIDDEN], [0.0; MAX_HIDDEN]);
            let (us, them) = (&mut us[..hidden], &mut them[..hidden]);
            float.hidden(&View::of(&pos, pos.turn()).inputs(), us);
            float.hidden(&View::of(&pos, !pos.turn()).inputs(), them);
            let active: f64 = us
                .iter()
                .chain(&*them)
                .map(|&h| f64::from(act.apply(h)))
                .sum();
            let bound_logit = e_h * sum_w2 + active * 0.5 / qb + 0.5 / (f64::from(QA) * qb);
            // One more hundredth for the integer division.
            let bound = bound_logit * scale + 1.0;
            let reference = (f64::from(float.output(us, them)) * scale)
                .clamp(-f64::from(MAX_EVAL), f64::from(MAX_EVAL));
            let quantised = f64::from(net.evaluate_position(&pos));
            let error = (quantised - reference).abs();
            assert!(
                error <= bound,
                "{:?} {pos}: {quantised} vs {reference}, bound {bound}",
                float.shape
            );
            worst = worst.max(error);
            total += error;
            count += 1;
        }
    }
    (total / count as f64, worst)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn incremental_accumulators_equal_a_full_refresh(
        seed in any::<u64>(),
        start in 0..STARTS.len(),
        shape in 0..SHAPES.len(),
    ) {
        let net = test_net(SHAPES[shape]).quantise();
        let game = random_game(STARTS[start], seed, 200);
        let mut acc = Accumulator::default();
        net.refresh(&game[0], &mut acc);
        for pair in game.windows(2) {
            let mut next = Accumulator::default();
            net.update(&acc, &mut next, &pair[0], &pair[1]);
            let mut fresh = Accumulator::default();
            net.refresh(&pair[1], &mut fresh);
            prop_assert_eq!(&next, &fresh, "{}", pair[1]);
            acc = next;
        }
    }

    #[test]
    fn the_detected_kernels_score_as_the_portable_ones(
        seed in any::<u64>(),
        shape in 0..SHAPES.len(),
    ) {
        let float = test_net(SHAPES[shape]);
        let fast = float.quantise();
        let portable = float.quantise().with_backend(Backend::Portable);
        for pos in random_game(STARTS[0], seed, 80) {
            prop_assert_eq!(fast.evaluate_position(&pos), portable.evaluate_position(&pos));
        }
    }
}

#[test]
fn a_net_file_round_trips() {
    for shape in SHAPES {
        let net = test_net(shape).quantise();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_bytes(shape, VERSION));
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.shape(), shape);
        assert_eq!(back.to_bytes(), bytes);
        for pos in random_game(STARTS[1], 5, 60) {
            assert_eq!(back.evaluate_position(&pos), net.evaluate_position(&pos));
        }
    }
}

#[test]
fn net1s_version_1_file_loads_and_scores_as_its_rewritten_form() {
    let net1 = Network::from_bytes(NET1_FILE).unwrap();
    assert_eq!(net1.shape(), Shape::NET1);
    assert_eq!(NET1_FILE.len(), file_bytes(Shape::NET1, 1));
    let rewritten = net1.to_bytes();
    assert_eq!(rewritten.len(), file_bytes(Shape::NET1, VERSION));
    let again = Network::from_bytes(&rewritten).unwrap();
    for (i, start) in STARTS.iter().enumerate() {
        for pos in random_game(start, 3 + i as u64, 100) {
            assert_eq!(again.evaluate_position(&pos), net1.evaluate_position(&pos));
        }
    }
}

#[test]
fn bad_net_files_are_refused_with_the_reason() {
    let good = test_net(Shape::NET1).quantise().to_bytes();
    let length = file_bytes(Shape::NET1, VERSION);
    let refuse = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    assert_eq!(refuse(b"hello"), NetError::BadMagic);
    assert_eq!(refuse(&[0u8; 100]), NetError::BadMagic);
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(refuse(&version), NetError::UnsupportedVersion(9));
    let mut hidden = good.clone();
    hidden[16..20].copy_from_slice(&300u32.to_le_bytes());
    assert_eq!(refuse(&hidden), NetError::HiddenSize(300));
    // A valid width that the rest of the file does not have.
    hidden[16..20].copy_from_slice(&256u32.to_le_bytes());
    assert!(matches!(refuse(&hidden), NetError::Length { found, .. } if found == length));
    let mut activation = good.clone();
    activation[32..36].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        refuse(&activation),
        NetError::UnknownActivation("code 7".into())
    );
    // The squared activation's output scale differs: a header that claims it with the
    // clipped ReLU's QB is refused.
    activation[32..36].copy_from_slice(&1u32.to_le_bytes());
    assert!(matches!(
        refuse(&activation),
        NetError::Shape {
            field: "QB",
            expected: 128,
            found: 256
        }
    ));
    assert_eq!(
        refuse(&good[..good.len() - 10]),
        NetError::Length {
            expected: length,
            found: length - 10
        }
    );
    let mut flipped = good.clone();
    flipped[5000] ^= 1;
    assert_eq!(refuse(&flipped), NetError::Checksum);
    // A well-formed file whose weights could overflow an accumulator (a trained net cannot:
    // its weights are clipped).
    let mut huge = test_net(Shape::NET1).quantise();
    huge.b1[3] = i16::MAX - 100;
    let mut bytes = huge.to_bytes();
    assert_eq!(&bytes[..8], MAGIC);
    assert_eq!(
        Network::from_bytes(&bytes).map(|_| ()),
        Err(NetError::Overflow(3))
    );
    // An output weight of a squared-activation net beyond ±127 (its kernel's 16-bit product
    // would overflow).
    let mut steep = test_net(SHAPES[1]).quantise();
    steep.w2[9] = 128;
    assert_eq!(
        Network::from_bytes(&steep.to_bytes()).map(|_| ()),
        Err(NetError::OutputWeightRange {
            index: 9,
            value: 128
        })
    );
    // A first-layer weight outside `i8` in a version-1 file (net1's, changed by hand: the
    // checksum is made to match).
    let mut wide = NET1_FILE.to_vec();
    let at = 32 + 2 * 7;
    wide[at..at + 2].copy_from_slice(&1000i16.to_le_bytes());
    let body = wide.len() - 8;
    let sum = fnv1a(&wide[..body]);
    wide[body..].copy_from_slice(&sum.to_le_bytes());
    assert_eq!(
        refuse(&wide),
        NetError::InputWeightRange {
            index: 7,
            value: 1000
        }
    );
    bytes.truncate(3);
    assert_eq!(refuse(&bytes), NetError::BadMagic);
}
