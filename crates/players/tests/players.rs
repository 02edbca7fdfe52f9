//! Every player and level plays only legal moves, passes only when forced, and breaks ties
//! uniformly.

use ataxx::{Move, Position};
use ataxx_players::{Player, PlayerSpec, LEVELS};

const SPECS: [&str; 9] = [
    "random",
    "greedy",
    "pieces-won",
    "applet",
    "gataxx",
    "minimax:depth=2,eval=own,moves=raw",
    "alphabeta:depth=2,eval=diff,moves=merged",
    "alphabeta:depth=3,eval=rings,moves=reduced,jitter=on",
    "minimax:depth=1,eval=rings",
];

#[test]
fn players_make_only_legal_moves_over_whole_games() {
    let layouts = [
        "startpos",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x5o/7/-------/7/-------/7/o5x x 0 1",
    ];
    let level_specs = LEVELS.iter().filter_map(|l| match l.strength {
        ataxx_players::Strength::Classic(s) => Some(s),
        ataxx_players::Strength::Engine { .. } => None,
    });
    for (i, spec) in SPECS.into_iter().chain(level_specs).enumerate() {
        let spec: PlayerSpec = spec.parse().unwrap();
        for (g, layout) in layouts.iter().enumerate() {
            // The player plays both sides against a random opponent, so that positions vary.
            let mut player = spec.build(i as u64 * 10 + g as u64);
            let mut opponent = PlayerSpec::Random.build(99 + g as u64);
            player.new_game();
            let mut pos: Position = layout.parse().unwrap();
            let mut ply = 0;
            while !pos.is_game_over() && ply < 300 {
                let mover: &mut dyn Player = if ply % 2 == 0 {
                    &mut player
                } else {
                    &mut opponent
                };
                let mv = mover.choose(&pos).expect("a move while the game goes on");
                assert!(pos.is_legal(mv), "{spec} played {mv} in {pos}");
                if mv == Move::Pass {
                    assert!(pos.must_pass());
                }
                pos.play_unchecked(mv);
                ply += 1;
            }
            if pos.is_game_over() {
                assert_eq!(
                    player.choose(&pos),
                    None,
                    "{spec} moved in a finished game {pos}"
                );
            }
        }
    }
    // The forced-pass position too.
    let stuck: Position = "7/7/7/7/4ooo/4ooo/4oox x 0 1".parse().unwrap();
    for spec in SPECS {
        let mut player = spec.parse::<PlayerSpec>().unwrap().build(1);
        assert_eq!(player.choose(&stuck), Some(Move::Pass), "{spec}");
    }
}

/// From the start, greedy's six singles tie (3 pieces each): each is chosen about 1/6 of the time.
#[test]
fn greedy_breaks_ties_uniformly_in_a_real_position() {
    let pos = Position::startpos();
    let mut player = PlayerSpec::Greedy.build(5);
    let draws = 12_000;
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..draws {
        *counts
            .entry(player.choose(&pos).unwrap().to_string())
            .or_insert(0u32) += 1;
    }
    assert_eq!(
        counts.keys().cloned().collect::<Vec<_>>(),
        ["a6", "b6", "b7", "f1", "f2", "g2"]
    );
    let expected = draws as f64 / 6.0;
    let chi2: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 20.5, "{counts:?} chi2 {chi2}");
}
