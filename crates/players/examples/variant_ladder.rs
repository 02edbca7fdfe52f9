//! Each variant level against the one below, in process (docs/levels.md records the runs).
//!
//!     cargo run --release -p ataxx-players --example variant_ladder -- hexxagon 60
//!
//! Two seats: the levels alternate colours game by game. Four seats: each level holds two
//! opposite seats (r and g, or b and y, swapped every game), and a game scores the four
//! pairwise results between a seat of one and a seat of the other, by rank.
//! The first 4 plies of each game pair are random (shared by both colour assignments), so
//! games differ.

use games::{GameKind, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ataxx_players::generic::{choose_with, variant_levels, GenericLevel, GenericStrength};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: GameKind = args
        .get(1)
        .map_or("hexxagon", |s| s.as_str())
        .parse()
        .unwrap();
    let games: usize = args.get(2).map_or(40, |s| s.parse().unwrap());
    // Optional: two depths to compare instead of the table (0 = greedy, 9 = random).
    let custom: Vec<GenericLevel> = args[3.min(args.len())..]
        .iter()
        .map(|d| {
            let strength = match d.parse::<u32>().unwrap() {
                0 => GenericStrength::Greedy,
                9 => GenericStrength::Random,
                depth => GenericStrength::Search { depth },
            };
            GenericLevel {
                name: "custom",
                strength,
                description: "",
            }
        })
        .collect();
    let levels: Vec<GenericLevel> = if custom.len() == 2 {
        vec![custom[1], custom[0]]
    } else {
        variant_levels(kind).to_vec()
    };
    for pair in levels.windows(2) {
        let (low, high) = (&pair[0], &pair[1]);
        let mut score = 0.0;
        let mut wins = 0;
        let mut draws = 0;
        let mut losses = 0;
        let mut opening_rng = ChaCha8Rng::seed_from_u64(2026);
        let mut opening = Vec::new();
        for g in 0..games {
            let mut pos = kind.start(&Default::default()).unwrap();
            if g.is_multiple_of(2) {
                opening.clear();
                let mut p = pos.clone();
                for _ in 0..4 {
                    let moves = p.legal_moves();
                    let mv = moves[opening_rng.random_range(0..moves.len())].clone();
                    p.play(&mv).unwrap();
                    opening.push(mv);
                }
            }
            for mv in &opening {
                pos.play(mv).unwrap();
            }
            let seats = pos.seats();
            // Seat s plays `high` when (s + g) is even.
            let high_seat = |s: usize| (s + g).is_multiple_of(2);
            let mut ply = 0u64;
            while pos.outcome().is_none() {
                let turn = pos.turn().index();
                let level = if high_seat(turn) { high } else { low };
                let mv = choose_with(level, pos.as_ref(), (g as u64) << 20 | ply).unwrap();
                pos.play(&mv).unwrap();
                ply += 1;
            }
            let outcome = pos.outcome().unwrap();
            let mut s = 0.0;
            let mut n = 0.0;
            for a in (0..seats).filter(|&a| high_seat(a)) {
                for b in (0..seats).filter(|&b| !high_seat(b)) {
                    s += outcome.pairwise(Seat(a as u8), Seat(b as u8));
                    n += 1.0;
                }
            }
            let game_score = s / n;
            score += game_score;
            if game_score > 0.5 {
                wins += 1;
            } else if game_score < 0.5 {
                losses += 1;
            } else {
                draws += 1;
            }
        }
        println!(
            "{kind}: {} vs {}: {wins}-{draws}-{losses} (W-D-L by game), score {:.1}%",
            high.spec(),
            low.spec(),
            100.0 * score / games as f64
        );
    }
}
