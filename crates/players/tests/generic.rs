//! The generic players: legal moves in every game, paranoid search judged against the strongest
//! or all rivals, the variant tables.

use ataxx_players::choose_any;
use ataxx_players::generic::{paranoid_search, search_with, variant_levels, Judge, Limits, WIN};
use games::{AnyPosition, GameKind, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random positions of a game: random playouts from its start, cut at random plies.
fn positions(kind: GameKind, count: usize, seed: u64) -> Vec<Box<dyn AnyPosition>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = kind.start(&Default::default()).unwrap();
        let plies = rng.random_range(0..120);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            pos.play(mv).unwrap();
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn every_level_of_every_game_plays_legal_moves() {
    for kind in GameKind::ALL {
        let names: Vec<&str> = match kind {
            GameKind::Ataxx => vec!["very-easy", "easy", "medium", "hard"],
            _ => variant_levels(kind).iter().map(|l| l.name).collect(),
        };
        for (i, pos) in positions(kind, 60, 11).iter().enumerate() {
            let legal = pos.legal_moves();
            for name in &names {
                // The search levels on fewer positions: debug builds are slow.
                if (*name == "hard" || *name == "medium") && i % 6 != 0 {
                    continue;
                }
                let mv = choose_any(name, pos.as_ref(), i as u64).unwrap();
                assert!(
                    legal.contains(&mv),
                    "{kind} {name}: {mv} not legal in {}",
                    pos.fen()
                );
            }
        }
    }
}

#[test]
fn whole_games_between_levels_stay_legal() {
    for (kind, search) in [(GameKind::Hexxagon, "medium"), (GameKind::Ataxx4, "hard")] {
        let mut pos = kind.start(&Default::default()).unwrap();
        let names = ["very-easy", "easy", search, "easy"];
        let mut ply = 0;
        while pos.outcome().is_none() && ply < 400 {
            let mv = choose_any(names[ply % names.len()], pos.as_ref(), ply as u64).unwrap();
            pos.play(&mv).unwrap();
            ply += 1;
        }
        assert!(pos.outcome().is_some(), "{kind}: game did not finish");
        assert!(choose_any("easy", pos.as_ref(), 1).is_err());
    }
}

#[test]
fn paranoid_search_finds_a_four_player_win() {
    // Red's single d4 takes blue c3, yellow c5 and green e5: everyone else is out.
    let pos = games::ataxx4::Position::from_fen("2y1g/5/2b1r/5/5 r 0 1").unwrap();
    for depth in 1..=4 {
        let mut rng = ChaCha8Rng::seed_from_u64(depth as u64);
        let found = paranoid_search(&pos, Limits::depth(depth), &mut rng).unwrap();
        assert_eq!(found.best.to_string(), "d4", "depth {depth}");
        assert!(found.score > WIN - 10, "depth {depth}: {}", found.score);
    }
}

#[test]
fn judged_against_all_rivals_search_finds_a_four_player_win() {
    let pos = games::ataxx4::Position::from_fen("2y1g/5/2b1r/5/5 r 0 1").unwrap();
    for depth in 1..=4 {
        let mut rng = ChaCha8Rng::seed_from_u64(depth as u64);
        let found = search_with(&pos, Limits::depth(depth), Judge::AllRivals, &mut rng).unwrap();
        assert_eq!(found.best.to_string(), "d4", "depth {depth}");
        assert!(found.score > WIN - 10, "depth {depth}: {}", found.score);
    }
}

#[test]
fn with_two_seats_both_judges_are_alpha_beta() {
    for fen in ["x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/2x4/3o3/7/7/o5x o 0 2"] {
        let pos = <ataxx::Position as Rules>::from_fen(fen).unwrap();
        for depth in 1..=3 {
            let seed = |s| ChaCha8Rng::seed_from_u64(s);
            let all = search_with(&pos, Limits::depth(depth), Judge::AllRivals, &mut seed(5));
            let paranoid = paranoid_search(&pos, Limits::depth(depth), &mut seed(5));
            let (all, paranoid) = (all.unwrap(), paranoid.unwrap());
            assert_eq!(all.score, paranoid.score, "{fen} depth {depth}");
        }
    }
}

#[test]
fn paranoid_search_avoids_a_loss_two_moves_deep() {
    // Square Ataxx, x to move: any search answers, and with two seats scores as alpha-beta.
    let pos = <ataxx::Position as Rules>::from_fen("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let found = paranoid_search(&pos, Limits::depth(3), &mut rng).unwrap();
    assert!(pos.legal_moves().contains(&found.best));
}

#[test]
fn node_limit_still_answers() {
    let pos = GameKind::Ataxx4.start(&Default::default()).unwrap();
    let p = <games::ataxx4::Position as Rules>::from_fen(&pos.fen()).unwrap();
    let limits = Limits {
        depth: 20,
        max_nodes: Some(500),
        deadline: None,
    };
    let found = paranoid_search(&p, limits, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
    assert!(p.legal_moves().contains(&found.best));
    assert!(found.depth < 20);
}

#[test]
fn variant_tables_and_unknown_levels() {
    for (kind, table) in [
        (GameKind::Hexxagon, "very-easy, easy, medium, hard"),
        (GameKind::Ataxx4, "very-easy, easy, hard"),
    ] {
        let names: Vec<&str> = variant_levels(kind).iter().map(|l| l.name).collect();
        assert_eq!(names.join(", "), table);
        let pos = kind.start(&Default::default()).unwrap();
        let err = choose_any("master", pos.as_ref(), 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains(table), "{err}");
        // The same seed gives the same move.
        assert_eq!(
            choose_any("very-easy", pos.as_ref(), 9).unwrap(),
            choose_any("Very Easy", pos.as_ref(), 9).unwrap()
        );
    }
    let square = GameKind::Ataxx.start(&Default::default()).unwrap();
    assert_eq!(choose_any("easy", square.as_ref(), 1).unwrap().len(), 2);
}
