//! Game records: the 1995 sample game (spec section 5, seed 001) in both formats, PGN of the
//! cuteataxx and python-ataxx dialects (spec 7.1, 7.2), the project dialect (7.3), and errors.

use ataxx::pgn::{self, PgnErrorKind};
use ataxx::record::{self, RecordErrorKind};
use ataxx::{
    Adjudication, Bitboard, Color, DiagramStyle, Game, GameResult, Move, Position, Termination,
};
use proptest::prelude::*;

const RECORD: &str = include_str!("data/keller-cobbs-1995.txt");
const PGN: &str = include_str!("data/keller-cobbs-1995.pgn");

/// The game as seed 001 holds it: the article's line breaks lost.
const SEED_LINE: &str = "White Black Cobbs Keller 1 b7 b2 2 f1 c3 3 g2 f6 4 e1 d2(1) 5 e2(2) b2d1(3) 6 f2(2) e3(2) 7 f3(3) d3(2) 8 f3d4(3) e2e4(3) 9 e2(4) f3(4) 10 c3e5(3) g7f5(3) 11 d4f4(5) f6d4(4) 12 b7d5(3) d3c5(2) 13 d3(3) c4(2) 14 c3(3) a1c2(4) 15 a7c6(2) b4(2) 16 b5(3) b3(2) 17 g3(2) b4d6(4) 18 e6(3) b4(1) 19 d6b6(3) b4d6(5) 20 f6(2) b4(1) 21 d7(2) d5e7(4) 22 d5(4) f6g4(4) 23 b6a4(3) c3a5(3) 24 c3(4) c1(2) 25 f6(2) d7f7(3) 26 b2(2) a3(3) 27 c1a2(3) c1(2) 28 b1(3) b6(2) 29 c7(2) d7(3) 30 g6(2) g5(3) 31 a6(2) Resigns Position 7 - - X X X O - 6 O O X X X X X 5 O O X O O X X 4 X X O O O X X 3 O O O O O X X 2 O O O X O O O 1 - O O X O O O a b c d e f g";

/// The movetext spec section 5 gives.
const SPEC_MOVETEXT: &str =
    "1. b7 b2 2. f1 c3 3. g2 f6 4. e1 d2 5. e2 b2d1 6. f2 e3 7. f3 d3 8. f3d4 e2e4 9. e2 f3
10. c3e5 g7f5 11. d4f4 f6d4 12. b7d5 d3c5 13. d3 c4 14. c3 a1c2 15. a7c6 b4 16. b5 b3
17. g3 b4d6 18. e6 b4 19. d6b6 b4d6 20. f6 b4 21. d7 d5e7 22. d5 f6g4 23. b6a4 c3a5
24. c3 c1 25. f6 d7f7 26. b2 a3 27. c1a2 c1 28. b1 b6 29. c7 d7 30. g6 g5 31. a6 1-0";

/// The article's closing diagram.
const SEED_DIAGRAM: &str = "\
7 - - X X X O -
6 O O X X X X X
5 O O X O O X X
4 X X O O O X X
3 O O O O O X X
2 O O O X O O O
1 - O O X O O O
  a b c d e f g
";

const FINAL_FEN: &str = "2ooox1/xxooooo/xxoxxoo/ooxxxoo/xxxxxoo/xxxoxxx/1xxoxxx o 0 31";

/// The verified facts of spec section 5.
fn assert_1995_facts(game: &Game) {
    let moves = game.moves();
    assert_eq!(game.start(), Position::startpos());
    assert_eq!(moves.len(), 61);
    assert_eq!(moves.iter().filter(|m| m.mv().is_jump()).count(), 20);
    assert!(moves.iter().all(|m| m.mv() != Move::Pass));
    assert_eq!(moves.iter().map(|m| m.flip_count()).sum::<u32>(), 149);
    let end = game.final_position();
    assert_eq!(end.to_string(), FINAL_FEN);
    assert_eq!(end.pieces(Color::X).count(), 26);
    assert_eq!(end.pieces(Color::O).count(), 19);
    assert_eq!(end.empty().count(), 4);
    assert_eq!(end.diagram(DiagramStyle::labels('O', 'X')), SEED_DIAGRAM);
    assert_eq!(game.result(), GameResult::Win(Color::X));
    assert_eq!(
        game.outcome(),
        None,
        "the game was resigned, not played out"
    );
}

/// Flip counts as the seed states them, one per move in order (none stated = 0).
fn seed_flip_counts() -> Vec<u32> {
    let moves = &SEED_LINE[..SEED_LINE.find(" Resigns").unwrap()];
    moves
        .split_whitespace()
        .skip(4)
        .filter(|w| !w.bytes().all(|b| b.is_ascii_digit()))
        .map(|w| match w.split_once('(') {
            Some((_, count)) => count.trim_end_matches(')').parse().unwrap(),
            None => 0,
        })
        .collect()
}

#[test]
fn the_1995_record_replays_to_the_spec_facts() {
    let game = record::parse_record(RECORD).unwrap();
    assert_1995_facts(&game);
    assert_eq!(game.termination(), Some(Termination::Resignation));
    assert_eq!(game.tag("Black"), Some("Cobbs"));
    assert_eq!(game.tag("White"), Some("Keller"));
    let flips: Vec<u32> = game.moves().iter().map(|m| m.flip_count()).collect();
    assert_eq!(flips, seed_flip_counts());
}

#[test]
fn the_seed_single_line_form_reads_as_the_multi_line_file() {
    assert_eq!(
        record::parse_record(SEED_LINE).unwrap(),
        record::parse_record(RECORD).unwrap()
    );
}

#[test]
fn text_around_the_record_is_skipped() {
    let article = format!("The rules, then a game:\n{SEED_LINE} A signature, an address.\n");
    assert_eq!(
        record::parse_record(&article).unwrap(),
        record::parse_record(RECORD).unwrap()
    );
    let multi_line = format!("Some words first.\n\n{RECORD}\nAnd a signature.\n");
    assert_eq!(
        record::parse_record(&multi_line).unwrap(),
        record::parse_record(RECORD).unwrap()
    );
}

#[test]
fn the_record_writer_reproduces_the_data_file() {
    let game = record::parse_record(RECORD).unwrap();
    // The writer names x "Black" as project PGN does; the article named its first player
    // "White". Everything else is the article's text.
    assert_eq!(
        game.to_record(Some(DiagramStyle::labels('O', 'X'))),
        RECORD.replacen("White    Black", "Black    White", 1)
    );
    assert!(RECORD.ends_with(SEED_DIAGRAM));
    assert!(RECORD.contains("\n31 a6(2)    Resigns\n"));
}

#[test]
fn the_1995_pgn_replays_to_the_same_game_and_is_written_back_unchanged() {
    let game: Game = PGN.parse().unwrap();
    assert_1995_facts(&game);
    assert_eq!(game.termination(), Some(Termination::Resignation));
    assert_eq!(game.to_pgn(), PGN);
    let from_record = record::parse_record(RECORD).unwrap();
    assert_eq!(game.moves(), from_record.moves());
}

#[test]
fn the_spec_movetext_reads_without_tags() {
    let game: Game = SPEC_MOVETEXT.parse().unwrap();
    assert_1995_facts(&game);
    assert_eq!(game.termination(), None);
}

#[test]
fn a_resignation_by_either_side_is_written_and_read_back() {
    for (plies, loser) in [(2, Color::X), (3, Color::O)] {
        let mut game = Game::default();
        for text in ["b7", "b2", "f1"].into_iter().take(plies) {
            game.push(text.parse().unwrap()).unwrap();
        }
        game.set_result(GameResult::Win(!loser));
        game.set_termination(Some(Termination::Resignation));
        let text = game.to_record(None);
        let back = record::parse_record(&text).unwrap();
        assert_eq!(back.result(), GameResult::Win(!loser), "{text}");
        assert_eq!(back.termination(), Some(Termination::Resignation));
        assert_eq!(back.moves(), game.moves());
    }
}

const CUTEATAXX: &str = r#"[Event "ply1 gauntlet"]
[Site "CuteAtaxx"]
[Date "2024-03-01 14:05:09"]
[Round "1"]
[black "Alpha 1.0"]
[white "Beta 2.1"]
[Result "0-1"]
[FEN "x5o/7/7/7/7/7/o3x2 o 1 1"]
[FinalFEN "x5o/5o1/7/7/7/o2x1x1/oxx1x2 o 0 4"]
[Adjudicated "Out of time"]
[Winner "Beta 2.1"]
[Loser "Alpha 1.0"]
[PlyCount "6"]
[Material "+2"]

1... a2 { movetime 12 } 2. d2 { movetime 230 } b1 { movetime 9 } 3. f2 { movetime 1500 } f6 { movetime 31 } 4. c1 { movetime 7 } 0-1


"#;

#[test]
fn reads_cuteataxx_pgn() {
    let game: Game = CUTEATAXX.parse().unwrap();
    assert_eq!(game.start().turn(), Color::O);
    let moves: Vec<String> = game.moves().iter().map(|m| m.mv().to_string()).collect();
    assert_eq!(moves, ["a2", "d2", "b1", "f2", "f6", "c1"]);
    let times: Vec<Option<u64>> = game.moves().iter().map(|m| m.movetime_ms).collect();
    assert_eq!(times, [12, 230, 9, 1500, 31, 7].map(Some));
    assert_eq!(game.moves()[5].flip_count(), 1, "c1 takes b1");
    assert_eq!(game.move_number(0), (1, Color::O));
    assert_eq!(game.move_number(1), (2, Color::X));
    assert_eq!(game.result(), GameResult::Win(Color::O));
    assert_eq!(
        game.termination(),
        Some(Termination::Adjudicated(Adjudication::OutOfTime))
    );
    assert_eq!(game.tag("Black"), Some("Alpha 1.0"));
    assert_eq!(game.tag("White"), Some("Beta 2.1"));
    assert_eq!(game.tag("Date"), Some("2024.03.01"));
    assert_eq!(game.tag("Time"), Some("14:05:09"));
    assert_eq!(game.tag("Material"), Some("+2"));

    let written = game.to_pgn();
    assert!(written.starts_with(
        "[Event \"ply1 gauntlet\"]\n[Site \"CuteAtaxx\"]\n[Date \"2024.03.01\"]\n[Round \"1\"]\n\
         [Black \"Alpha 1.0\"]\n[White \"Beta 2.1\"]\n[Result \"0-1\"]\n\
         [FEN \"x5o/7/7/7/7/7/o3x2 o 1 1\"]\n[SetUp \"1\"]\n\
         [FinalFEN \"x5o/5o1/7/7/7/o2x1x1/oxx1x2 o 0 4\"]\n[PlyCount \"6\"]\n\
         [Adjudicated \"Out of time\"]\n"
    ));
    assert!(written.contains("\n\n1... a2 { movetime 12 } 2. d2 { movetime 230 } b1"));
    assert_eq!(pgn::parse_games(&written).unwrap(), [game]);
}

const PYTHON_ATAXX: &str = r#"[Event "?"]
[Site "?"]
[Date "2024.03.01"]
[Round "-"]
[White "?"]
[Black "?"]
[Result "*"]
[FEN "x5o/7/2-1-2/7/2-1-2/7/o5x x"]
[SetUp "1"]

1. g2 { a comment } 1... a2 ( 1... b2 2. f1 { nested } ( 2. f2 ) ) 2. b6 $1 a1b3 ; to the end of the line }
3. f3 *

[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "-"]
[White "x moves first here"]
[Black "?"]
[Result "1-0"]
[FEN "7/7/7/7/4ooo/4ooo/4oox x 0 1"]
[SetUp "1"]

1. 0000 d1 2. 0000 d1b1 3. 0000 a1 1-0
"#;

#[test]
fn reads_python_ataxx_pgn_with_variations_and_several_games() {
    let games = pgn::parse_games(PYTHON_ATAXX).unwrap();
    assert_eq!(games.len(), 2);
    let first = &games[0];
    assert_eq!(first.start().to_string(), "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
    let moves: Vec<String> = first.moves().iter().map(|m| m.mv().to_string()).collect();
    assert_eq!(moves, ["g2", "a2", "b6", "a1b3", "f3"]);
    assert_eq!(first.moves()[0].comment.as_deref(), Some("a comment"));
    assert_eq!(first.result(), GameResult::Unfinished);

    // The spec's forced-pass counter vectors; `1-0` is x's win whatever the tag names say.
    let second = &games[1];
    assert_eq!(
        second.final_position().to_string(),
        "7/7/7/7/4ooo/4ooo/oo2oox x 0 4"
    );
    assert_eq!(
        second
            .moves()
            .iter()
            .filter(|m| m.mv() == Move::Pass)
            .count(),
        3
    );
    assert_eq!(second.result(), GameResult::Win(Color::X));
    assert_eq!(second.tag("White"), Some("x moves first here"));
    assert!(second
        .to_pgn()
        .contains("\n1. 0000 d1 2. 0000 d1b1 3. 0000 a1 1-0\n"));
}

#[test]
fn reads_tolerant_move_text_and_numbering_without_spaces() {
    let game: Game = "1.G2 a1-b2 2.x@f2 2...a1b3 3. F2-D4!".parse().unwrap();
    let moves: Vec<String> = game.moves().iter().map(|m| m.mv().to_string()).collect();
    assert_eq!(moves, ["g2", "b2", "f2", "a1b3", "f2d4"]);
}

#[test]
fn writes_o_first_numbering_and_a_standard_start_without_setup() {
    let mut game = Game::new("x5o/7/7/7/7/7/o5x o 0 1".parse().unwrap());
    game.push("a2".parse().unwrap()).unwrap();
    game.push("g2".parse().unwrap()).unwrap();
    game.push("b2".parse().unwrap()).unwrap();
    let text = game.to_pgn();
    assert!(text.contains("[SetUp \"1\"]"));
    assert!(text.ends_with("\n\n1... a2 2. g2 b2 *\n\n"), "{text}");
    let standard = Game::default().to_pgn();
    assert!(!standard.contains("SetUp"));
    assert!(standard.contains("[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]\n"));
}

// Errors.

fn record_error(text: &str) -> record::RecordError {
    record::parse_record(text).unwrap_err()
}

#[test]
fn a_wrong_flip_count_names_the_move_and_both_counts() {
    let err = record_error(&RECORD.replace("d2(1)", "d2(2)"));
    assert_eq!(err.line, 7);
    assert_eq!(
        err.kind,
        RecordErrorKind::FlipCount {
            number: 4,
            color: Color::O,
            token: "d2(2)".into(),
            stated: 2,
            computed: 1,
        }
    );
    assert_eq!(
        err.to_string(),
        "line 7: move 4... \"d2(2)\" states 2 flips, but the move flips 1"
    );
    // An unannotated move must flip nothing.
    let err = record_error(&SEED_LINE.replace("5 e2(2)", "5 e2"));
    assert_eq!(err.line, 1);
    assert!(matches!(
        err.kind,
        RecordErrorKind::FlipCount {
            number: 5,
            color: Color::X,
            stated: 0,
            computed: 2,
            ..
        }
    ));
}

#[test]
fn record_errors_say_what_and_where() {
    let cases: [(&str, &str, usize); 7] = [
        (" 9 e2(4)", " 8 e2(4)", 12),
        ("e2(4)", "e2(x)", 12),
        ("e2(4)", "a1(4)", 12),
        ("Resigns", "Resigns c1", 34),
        ("7 - - X X X O -", "7 - - X X X X -", 36),
        ("   Cobbs    Keller", "   Cobbs", 4),
        ("31 a6(2)    Resigns", "31", 34),
    ];
    for (from, to, line) in cases {
        let text = RECORD.replacen(from, to, 1);
        let err = record_error(&text);
        assert_eq!(err.line, line, "{from} -> {to}: {err}");
    }
    assert!(matches!(record_error("").kind, RecordErrorKind::NoMoves));
    assert!(matches!(
        record_error("1 b7 b2 3 f1").kind,
        RecordErrorKind::MoveNumber { expected: 2, .. }
    ));
    assert!(matches!(
        record_error("FEN x5o/7/7/7/7/7/o5x b 0 1\n1 b7").kind,
        RecordErrorKind::Fen { .. }
    ));
}

fn pgn_error(text: &str) -> pgn::PgnError {
    pgn::parse_games(text).unwrap_err()
}

#[test]
fn pgn_errors_name_the_game_line_and_token() {
    let two = format!("{PGN}\n{}", PGN.replace("21. d7 d5e7", "21. d7 d5e6"));
    let err = pgn_error(&two);
    assert_eq!((err.game, err.line), (2, 30));
    match &err.kind {
        PgnErrorKind::Move {
            number: 21,
            color: Color::O,
            token,
            ..
        } => assert_eq!(token, "d5e6"),
        other => panic!("{other:?}"),
    }
    assert!(err
        .to_string()
        .starts_with("game 2, line 30: move 21... \"d5e6\": "));

    let cases: [(&str, &str, usize); 8] = [
        ("[Site \"By post and e-mail\"]", "[Site \"By post]", 2),
        (
            "[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]",
            "[FEN \"x5o/7/7/7/7/7/o5x w\"]",
            8,
        ),
        ("[PlyCount \"61\"]", "[PlyCount \"60\"]", 10),
        ("[FinalFEN \"2ooox1", "[FinalFEN \"2oooo1", 9),
        ("31. a6 1-0", "31. a6 0-1", 14),
        ("1. b7 b2", "1. b7 { b2", 14),
        ("1. b7 b2", "1. b7 ( b2", 14),
        ("1. b7 b2", "1. b7 ) b2", 14),
    ];
    for (from, to, line) in cases {
        let err = pgn_error(&PGN.replacen(from, to, 1));
        assert_eq!((err.game, err.line), (1, line), "{from} -> {to}: {err}");
    }
    assert!(matches!(
        "".parse::<Game>().unwrap_err().kind,
        PgnErrorKind::GameCount { found: 0 }
    ));
    for two in ["1. b7 * 1. b7 *", "[Event \"a\"]\n[Event \"b\"]\n1. b7 *"] {
        assert!(matches!(
            two.parse::<Game>().unwrap_err().kind,
            PgnErrorKind::GameCount { found: 2 }
        ));
    }
}

// Properties.

/// A random legal game on a board of 3 to 8 cells a side with random blocks, from move choices.
fn random_game(size: u8, blocks: u64, choices: &[u16], o_first: bool) -> Game {
    let blocked = Bitboard(blocks) & Bitboard::board(size);
    let start = Position::start(size, blocked).unwrap_or_else(Position::startpos);
    let start = if o_first {
        let fen = start.to_string().replacen(" x ", " o ", 1);
        fen.parse().unwrap()
    } else {
        start
    };
    let mut game = Game::new(start);
    for &choice in choices {
        let moves = game.final_position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()];
        game.push(mv).unwrap();
    }
    game
}

fn termination() -> impl Strategy<Value = Option<Termination>> {
    prop_oneof![
        Just(None),
        Just(Some(Termination::Resignation)),
        Just(Some(Termination::TimeForfeit)),
        prop::sample::select(Adjudication::ALL.to_vec())
            .prop_map(|a| Some(Termination::Adjudicated(a))),
    ]
}

fn result() -> impl Strategy<Value = GameResult> {
    prop::sample::select(vec![
        GameResult::Win(Color::X),
        GameResult::Win(Color::O),
        GameResult::Draw,
        GameResult::Unfinished,
    ])
}

prop_compose! {
    fn any_game()(
        size in 3u8..=8,
        blocks in any::<u64>().prop_map(any_bits_sparse),
        o_first in any::<bool>(),
        choices in prop::collection::vec(any::<u16>(), 0..160),
        times in prop::collection::vec(prop::option::of(0u64..100_000), 160),
        comments in prop::collection::vec(prop::option::of("[a-z0-9]{1,8}( [a-z(){}]{1,8})?"), 160),
        players in ("[A-Za-z][A-Za-z .]{0,12}", "[A-Za-z][A-Za-z .]{0,12}"),
        tags in prop::collection::vec(
            ("[A-Za-z][A-Za-z0-9_]{0,8}", "[ -~]{0,20}").prop_filter("derived tag", |(n, _)| !derived(n)),
            0..4,
        ),
        result in result(),
        termination in termination(),
    ) -> Game {
        let mut game = random_game(size, blocks, &choices, o_first);
        let n = game.moves().len();
        let plies: Vec<(Option<u64>, Option<String>)> =
            times.into_iter().zip(comments).take(n).collect();
        let mut annotated = Game::new(game.start());
        for (ply, (time, comment)) in game.moves().iter().zip(plies) {
            let added = annotated.push(ply.mv()).unwrap();
            added.movetime_ms = time;
            added.comment = comment.map(|c| c.replace('}', ")"));
        }
        annotated.set_tag("Black", players.0);
        annotated.set_tag("White", players.1);
        for (name, value) in tags {
            annotated.set_tag(name, value);
        }
        annotated.set_result(result);
        annotated.set_termination(termination);
        game = annotated;
        game
    }
}

/// Keeps about one bit in eight, so most random block layouts leave room to play.
fn any_bits_sparse(b: u64) -> u64 {
    b.rotate_left(17) & b.rotate_left(41)
}

/// Tags the PGN writer derives from the game (and `Date`, which the reader may rewrite), which
/// a random tag must not be named.
fn derived(name: &str) -> bool {
    [
        "Result",
        "FEN",
        "SetUp",
        "FinalFEN",
        "PlyCount",
        "Termination",
        "Adjudicated",
        "Date",
        "Black",
        "White",
    ]
    .iter()
    .any(|d| d.eq_ignore_ascii_case(name))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pgn_write_then_read_gives_the_same_games(a in any_game(), b in any_game()) {
        let text = format!("{a}{b}");
        let games = pgn::parse_games(&text).unwrap();
        prop_assert_eq!(games, vec![a, b]);
    }

    #[test]
    fn record_write_then_read_gives_the_same_moves(game in any_game()) {
        let resigned = game.termination() == Some(Termination::Resignation)
            && game.result().winner() == Some(!game.final_position().turn());
        // A record holds at least one numbered pair.
        prop_assume!(!game.moves().is_empty() || resigned);
        let text = game.to_record(Some(DiagramStyle::labels('O', 'X')));
        let back = record::parse_record(&text).unwrap();
        prop_assert_eq!(back.moves().iter().map(|m| m.mv()).collect::<Vec<_>>(),
            game.moves().iter().map(|m| m.mv()).collect::<Vec<_>>());
        prop_assert_eq!(back.start(), game.start());
        let name = |tag| game.tag(tag).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
        prop_assert_eq!(back.tag("Black").unwrap(), name("Black"));
        prop_assert_eq!(back.tag("White").unwrap(), name("White"));
        prop_assert_eq!(back.termination() == Some(Termination::Resignation), resigned);
        if !resigned {
            prop_assert_eq!(back.result(), GameResult::from(game.outcome()));
        }
    }

    #[test]
    fn pgn_reader_never_panics(text in "\\PC{0,300}") {
        let _ = pgn::parse_games(&text);
    }

    #[test]
    fn pgn_reader_never_panics_on_pgn_like_text(text in "([\\[\\]{}();$%\"\\\\. \n*/-]|[a-hxo0-9]{1,4}|1-0|0-1|Event|FEN|Result|PlyCount|FinalFEN){0,80}") {
        let _ = pgn::parse_games(&text);
    }

    #[test]
    fn pgn_reader_never_panics_on_damaged_games(cut in 0usize..2000, len in 0usize..40, patch in "\\PC{0,6}") {
        let at = floor_char_boundary(PGN, cut);
        let end = floor_char_boundary(PGN, at + len);
        let text = format!("{}{patch}{}", &PGN[..at], &PGN[end..]);
        let _ = pgn::parse_games(&text);
    }

    #[test]
    fn record_reader_never_panics(text in "\\PC{0,300}") {
        let _ = record::parse_record(&text);
    }

    #[test]
    fn record_reader_never_panics_on_damaged_records(cut in 0usize..1000, len in 0usize..40, patch in "\\PC{0,6}") {
        let at = floor_char_boundary(RECORD, cut);
        let end = floor_char_boundary(RECORD, at + len);
        let text = format!("{}{patch}{}", &RECORD[..at], &RECORD[end..]);
        let _ = record::parse_record(&text);
    }
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}
