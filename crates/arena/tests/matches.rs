//! Whole matches between small Python test engines (tests/engines/mover.py), well-behaved and
//! deliberately broken.

use std::time::Duration;

use arena::game::Ending;
use arena::pgn::{game_record, PgnHeader};
use arena::stats::Hypothesis;
use arena::{run_match, EngineSpec, FinishedGame, Format, GameSettings, MatchSettings, MatchState};
use ataxx::{Color, GameResult, Outcome};

fn mover(flags: &str) -> EngineSpec {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/mover.py");
    EngineSpec::from_command_line(&format!("python3 -S {script} {flags}")).unwrap()
}

fn settings(engines: Vec<EngineSpec>, tc: &str, games: u32, openings: &[&str]) -> MatchSettings {
    MatchSettings {
        engines,
        format: Format::HeadToHead,
        games,
        openings: openings.iter().map(|f| f.parse().unwrap()).collect(),
        game: GameSettings {
            time_control: tc.parse().unwrap(),
            margin: Duration::from_millis(50),
            hang_timeout: Duration::from_millis(1500),
            material_margin: None,
            max_plies: None,
        },
        concurrency: 2,
        sprt: None,
    }
}

fn play(settings: &MatchSettings) -> (MatchState, Vec<FinishedGame>) {
    let mut games = Vec::new();
    let state = run_match(settings, |game, _| games.push(game.clone())).unwrap();
    games.sort_by_key(|g| g.round);
    (state, games)
}

const BOOK: [&str; 4] = [
    "x5o/7/7/7/7/7/o5x x 0 1",
    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
    "x5o/7/7/7/7/7/o3x2 o 1 1",
];

#[test]
fn depth_one_match_plays_every_game_and_records_it() {
    let engines = vec![mover("--seed 1"), mover("--seed 2")];
    let (state, games) = play(&settings(engines, "depth=1", 8, &BOOK));
    assert_eq!(state.games_played, 8);
    assert_eq!(state.pairings[0].wdl.games(), 8);
    assert_eq!(state.pairings[0].pentanomial.pairs(), 4);
    assert_eq!(state.names, ["mover", "mover (2)"]);
    assert_eq!(state.endings.get("rules"), Some(&8));
    assert_eq!(state.points.iter().sum::<f64>(), 8.0);

    // Each opening is played twice, colours swapped.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].record.start, pair[1].record.start);
        assert_eq!((pair[0].x, pair[0].o), (pair[1].o, pair[1].x));
    }
    let mut openings: Vec<String> = games.iter().map(|g| g.record.start.to_string()).collect();
    openings.dedup();
    openings.sort();
    let mut book: Vec<String> = BOOK.iter().map(|f| f.to_string()).collect();
    book.sort();
    assert_eq!(openings, book);

    let header = PgnHeader {
        event: "test",
        site: "here",
        date: "2025.01.02",
    };
    let pgn: String = games
        .iter()
        .map(|g| game_record(g, &state.names, &header).to_pgn())
        .collect();
    assert!(pgn.contains("[SetUp \"1\"]"));
    // The rules library's reader replays every move and checks each tag against the replay.
    let read = ataxx::pgn::parse_games(&pgn).unwrap();
    assert_eq!(read.len(), 8);
    for (record, game) in read.iter().zip(&games) {
        assert_eq!(record.start(), game.record.start);
        assert_eq!(record.final_position(), game.record.end);
        assert_eq!(
            record.outcome(),
            Some(game.record.outcome),
            "over by the rules"
        );
        assert_eq!(record.result(), GameResult::from(game.record.outcome));
        assert_eq!(record.tag("Round"), Some(game.round.to_string().as_str()));
        assert_eq!(record.tag("Black"), Some(state.names[game.x].as_str()));
        let times: Vec<Option<u64>> = record.moves().iter().map(|m| m.movetime_ms).collect();
        let want: Vec<Option<u64>> = game
            .record
            .moves
            .iter()
            .map(|m| Some(m.time.as_millis() as u64))
            .collect();
        assert_eq!(times, want);
    }
}

/// A good engine against a broken one: the broken one loses both games of the pair, for the
/// given reason, and the match completes.
fn broken(flags: &str, tc: &str) -> Vec<Ending> {
    let engines = vec![mover(""), mover(flags)];
    let mut settings = settings(engines, tc, 2, &BOOK[..1]);
    // Generous, so that only the broken engine can run out of time on a busy machine.
    settings.game.margin = Duration::from_millis(250);
    let (state, games) = play(&settings);
    assert_eq!(state.games_played, 2);
    assert_eq!(
        (state.pairings[0].wdl.wins, state.pairings[0].wdl.losses),
        (2, 0),
        "{flags}"
    );
    let header = PgnHeader {
        event: "faults",
        site: "here",
        date: "2025.01.02",
    };
    games
        .iter()
        .map(|g| {
            let broken_color = if g.x == 1 { Color::X } else { Color::O };
            assert_eq!(g.record.ending.offender(), Some(broken_color), "{flags}");
            // The record names the fault, and reads back with the same result.
            let pgn = game_record(g, &state.names, &header).to_pgn();
            let read = &ataxx::pgn::parse_games(&pgn).unwrap()[0];
            assert_eq!(read.result(), GameResult::Win(!broken_color), "{pgn}");
            let reason = g.record.ending.to_string();
            assert_eq!(read.tag("Reason"), Some(reason.as_str()), "{pgn}");
            assert!(read.termination().is_some(), "{pgn}");
            g.record.ending.clone()
        })
        .collect()
}

#[test]
fn an_illegal_move_loses() {
    for ending in broken("--illegal-at 2", "depth=1") {
        let Ending::IllegalMove { text, reason, .. } = ending else {
            panic!("{ending:?}")
        };
        assert!(reason.contains("not an empty cell"), "{reason}");
        assert_eq!(text.len(), 2);
    }
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let engines = vec![mover(""), mover("--exit-at 2")];
    let (state, games) = play(&settings(engines, "depth=1", 4, &BOOK[..2]));
    assert_eq!(state.games_played, 4);
    assert_eq!(state.endings.get("crash"), Some(&4));
    for game in &games {
        assert!(
            matches!(&game.record.ending, Ending::Crash { detail, .. } if detail.contains("exit status: 3")),
            "{:?}",
            game.record.ending
        );
        // A fresh process each game: it made its first move before dying on the second.
        let own_moves = if game.x == 1 {
            game.record.moves.len().div_ceil(2)
        } else {
            game.record.moves.len() / 2
        };
        assert_eq!(own_moves, 1, "{:?}", game.record);
    }
}

#[test]
fn a_hang_loses_under_a_depth_limit() {
    for ending in broken("--hang-at 1", "depth=1") {
        assert!(
            matches!(&ending, Ending::Hang { detail, .. } if detail.contains("bestmove")),
            "{ending:?}"
        );
    }
}

#[test]
fn a_hang_is_a_time_forfeit_under_a_clock_or_move_time() {
    for tc in ["0.3+0.01", "movetime=100"] {
        for ending in broken("--hang-at 2", tc) {
            assert!(
                matches!(ending, Ending::TimeForfeit { .. }),
                "{tc}: {ending:?}"
            );
        }
    }
}

#[test]
fn junk_instead_of_a_move_loses() {
    for ending in broken("--junk", "depth=1") {
        assert!(
            matches!(&ending, Ending::IllegalMove { text, .. } if text == "??junk"),
            "{ending:?}"
        );
    }
}

#[test]
fn noisy_but_correct_engines_play_on() {
    // x must pass at once: the noisy engine writes that pass `a1a1`.
    let forced_pass = "7/7/7/7/4ooo/4ooo/4oox x 0 1";
    let engines = vec![mover("--noisy"), mover("")];
    let (state, games) = play(&settings(engines, "depth=1", 4, &[forced_pass, BOOK[0]]));
    assert_eq!(state.games_played, 4);
    assert_eq!(state.endings.get("rules"), Some(&4));
    let noisy_passed = games
        .iter()
        .any(|g| g.x == 0 && g.record.moves[0].mv == ataxx::Move::Pass);
    assert!(noisy_passed);
    // Bare `info depth 1 score 12` lines are read as scores.
    let mut noisy_scores = games.iter().flat_map(|g| {
        let first = if g.x == 0 { 0 } else { 1 };
        g.record.moves.iter().skip(first).step_by(2)
    });
    assert!(noisy_scores.all(|m| m.score == Some(12) && m.depth == Some(1)));
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let engines = vec![mover("--seed 3"), mover("--random --seed 4")];
    let mut settings = settings(engines, "depth=1", 200, &BOOK);
    settings.sprt = Some("elo0=0,elo1=10".parse().unwrap());
    let (state, _) = play(&settings);
    let sprt = state.sprt.unwrap();
    assert_eq!(sprt.decision, Some(Hypothesis::H1));
    assert!(sprt.llr >= sprt.upper);
    assert!(state.games_played < 200);
    let history = &state.pairings[0].history;
    assert_eq!(history.last().unwrap().llr, Some(sprt.llr));
}

#[test]
fn round_robin_and_gauntlet_pair_everyone() {
    for (format, pairings) in [(Format::RoundRobin, 3), (Format::Gauntlet, 2)] {
        let engines = vec![mover("--seed 1"), mover("--seed 2"), mover("--random")];
        let mut settings = settings(engines, "depth=1", 2, &BOOK[..1]);
        settings.format = format;
        settings.game.max_plies = Some(12);
        let (state, games) = play(&settings);
        assert_eq!(state.pairings.len(), pairings);
        assert_eq!(state.games_played, 2 * pairings as u64);
        assert_eq!(state.points.iter().sum::<f64>(), games.len() as f64);
        if format == Format::Gauntlet {
            assert!(games.iter().all(|g| g.x == 0 || g.o == 0));
        }
    }
}

#[test]
fn adjudication_by_material_and_game_length() {
    let engines = vec![mover("--seed 5"), mover("--random --seed 6")];
    let mut settings = settings(engines, "depth=1", 8, &BOOK);
    settings.game.material_margin = Some(6);
    settings.game.max_plies = Some(16);
    let (state, games) = play(&settings);
    assert_eq!(state.games_played, 8);
    for game in &games {
        let record = &game.record;
        let (x, o) = (
            record.end.pieces(Color::X).count(),
            record.end.pieces(Color::O).count(),
        );
        match record.ending {
            Ending::Material => {
                assert!(x.abs_diff(o) >= 6, "{record:?}");
                let leader = if x > o { Color::X } else { Color::O };
                assert_eq!(record.outcome, Outcome::Win(leader));
                assert!(record.moves.len() <= 16);
            }
            Ending::MaxLength => {
                assert_eq!(record.moves.len(), 16);
                assert!(x.abs_diff(o) < 6);
                assert_eq!(record.outcome, Outcome::Draw);
            }
            Ending::Rules => assert!(record.end.is_game_over()),
            ref other => panic!("{other:?}"),
        }
    }
    assert!(
        state.endings.get("material").is_some_and(|&n| n > 0),
        "{:?}",
        state.endings
    );
}
