//! The two-column numbered record of the 1995 "Attaxx" article (seed 001, spec section 5).
//!
//! ```text
//!    White    Black
//!    Cobbs    Keller
//!
//!  1 b7       b2
//!  4 e1       d2(1)
//! 31 a6(2)    Resigns
//!
//! Position
//!
//! 7 - - X X X O -
//! ...
//! ```
//!
//! A header names the colours, then the players, of the first (x) and second (o) columns; each
//! line holds a move number and x's and o's moves; `(k)` after a move states how many pieces it
//! flipped (none stated: none flipped); `Resigns` stands for the move of a side that resigned;
//! an optional `Position` diagram closes the record. The format has no start position: the
//! standard one is meant, and this project writes a `FEN <fen>` first line for any other.
//!
//! ```
//! use ataxx::record;
//! let game = record::parse_record("White Black Cobbs Keller 1 b7 b2 2 f1 c3 3 g2 f6 4 e1 d2(1)").unwrap();
//! assert_eq!(game.moves().len(), 8);
//! assert_eq!(game.tag("Black"), Some("Cobbs")); // the x player, as project PGN names it
//!
//! let err = record::parse_record("White Black\nCobbs Keller\n1 b7 b2\n2 f1 c3\n3 g2 f6\n4 e1 d2\n").unwrap_err();
//! assert_eq!(err.to_string(), "line 6: move 4... \"d2\" states 0 flips, but the move flips 1");
//! ```

use thiserror::Error;

use crate::{
    Color, DiagramStyle, FenError, Game, GameResult, MoveError, Position, Square, Termination,
};

/// The colour names the writer gives its columns: the first player (x) is "Black", as in project
/// PGN and libataxx (spec section 1.6; the 1995 article called its first player "White", and the
/// reader ignores these names).
const COLUMN_LABELS: [&str; 2] = ["Black", "White"];

/// A record that could not be read: the line (from 1) and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    pub line: usize,
    pub kind: RecordErrorKind,
}

/// What was wrong with a record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    #[error("no numbered moves: expected a line such as `1 b7 b2`")]
    NoMoves,
    #[error("FEN {fen:?}: {source}")]
    Fen { fen: String, source: FenError },
    #[error("header {found:?}: expected two colour names, then two player names (`White Black` then `Cobbs Keller`)")]
    Header { found: String },
    #[error("expected move number {expected}, found {found:?}")]
    MoveNumber { expected: usize, found: String },
    #[error("move {number}{dots} {token:?}: {source}", dots = dots(*color))]
    Move {
        number: usize,
        color: Color,
        token: String,
        source: MoveError,
    },
    #[error("move {number}{dots}: expected a move or Resigns", dots = dots(*color))]
    MissingMove { number: usize, color: Color },
    #[error("move {number}{dots} {token:?}: a flip count is a number in parentheses, as in d2(1)", dots = dots(*color))]
    FlipText {
        number: usize,
        color: Color,
        token: String,
    },
    #[error("move {number}{dots} {token:?} states {stated} flips, but the move flips {computed}", dots = dots(*color))]
    FlipCount {
        number: usize,
        color: Color,
        token: String,
        stated: u32,
        computed: u32,
    },
    #[error("{found:?} after the resignation: only the final diagram may follow")]
    AfterResignation { found: String },
    #[error("the final diagram does not show the position the moves reach:\n{expected}")]
    Diagram { expected: String },
}

const fn dots(color: Color) -> &'static str {
    match color {
        Color::X => ".",
        Color::O => "...",
    }
}

/// A word of the text and its line.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    line: usize,
}

/// Reads a record in its multi-line layout or run together on one line (as the seed's copy of
/// the article has it); text before the header and after the diagram is skipped. Every stated flip count is checked against the replayed moves, and the
/// closing diagram, if any, against the final position (in any one symbol per kind of cell:
/// `O`/`X`/`-`/`#` as in the article, or FEN letters).
///
/// The players become the tags `Black` (first column, x) and `White` (second column, o), as
/// project PGN names them; the colour names of the header are not used. `Resigns` makes the
/// other side the winner; otherwise the result is the rules' result of the final position, or
/// `*` if the game could go on.
pub fn parse_record(text: &str) -> Result<Game, RecordError> {
    let words: Vec<Word> = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| {
            line.split_whitespace()
                .map(move |text| Word { text, line: i + 1 })
        })
        .collect();
    let mut rest = words.as_slice();
    let mut start = Position::startpos();
    if let [first, after @ ..] = rest {
        if first.text == "FEN" {
            let fields = &after[..after.len().min(4)];
            let fen = fields.iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
            start = fen.parse().map_err(|source| RecordError {
                line: first.line,
                kind: RecordErrorKind::Fen { fen, source },
            })?;
            rest = &after[fields.len()..];
        }
    }
    let moves_end = rest
        .iter()
        .position(|w| w.text == "Position")
        .unwrap_or(rest.len());
    let Some(first_pair) = rest[..moves_end]
        .iter()
        .position(|w| move_number(w.text) == Some(1))
    else {
        return Err(RecordError {
            line: words.last().map_or(1, |w| w.line),
            kind: RecordErrorKind::NoMoves,
        });
    };
    let mut game = Game::new(start);
    if let Some([x_player, o_player]) = players(text, &rest[..first_pair], rest[first_pair])? {
        game.set_tag("Black", x_player);
        game.set_tag("White", o_player);
    }
    let rest = read_moves(&mut game, &rest[first_pair..])?;
    if let Some((word, diagram)) = rest.split_first() {
        if word.text != "Position" {
            return Err(RecordError {
                line: word.line,
                kind: RecordErrorKind::AfterResignation {
                    found: word.text.to_string(),
                },
            });
        }
        check_diagram(&game.final_position(), diagram).map_err(|kind| RecordError {
            line: word.line,
            kind,
        })?;
    }
    if game.termination().is_none() {
        game.set_result(game.outcome().into());
    }
    Ok(game)
}

/// The player names of the header, which ends where the first pair starts: the last four
/// words before it on its line (the one-line form), or else the last two lines before it.
/// Text before the header (such as the article around the record) is skipped; `None` when
/// nothing comes before the first pair.
fn players(
    text: &str,
    before: &[Word],
    first_pair: Word,
) -> Result<Option<[String; 2]>, RecordError> {
    let same_line: Vec<&str> = before
        .iter()
        .filter(|w| w.line == first_pair.line)
        .map(|w| w.text)
        .collect();
    let error = |found: String| RecordError {
        line: first_pair.line,
        kind: RecordErrorKind::Header { found },
    };
    if same_line.len() >= 4 {
        let names = &same_line[same_line.len() - 2..];
        return Ok(Some([names[0].to_string(), names[1].to_string()]));
    }
    if !same_line.is_empty() {
        return Err(error(same_line.join(" ")));
    }
    let lines: Vec<&str> = text
        .lines()
        .take(first_pair.line - 1)
        .filter(|l| !l.trim().is_empty())
        .collect();
    match lines.as_slice() {
        [] => Ok(None),
        [.., labels, names] if columns(labels).len() == 2 => match columns(names).as_slice() {
            [x, o] => Ok(Some([x.to_string(), o.to_string()])),
            _ => Err(error(format!("{labels} / {names}"))),
        },
        [.., last] => Err(error(last.trim().to_string())),
    }
}

/// A header line's two columns: split at runs of two or more blanks when it has any (names may
/// hold single spaces), else at every blank.
fn columns(line: &str) -> Vec<&str> {
    let line = line.trim();
    if line.contains("  ") || line.contains('\t') {
        line.split("  ")
            .flat_map(|part| part.split('\t'))
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .collect()
    } else {
        line.split_whitespace().collect()
    }
}

/// `12` or `12.`.
fn move_number(text: &str) -> Option<usize> {
    let digits = text.strip_suffix('.').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Plays the numbered pairs into `game` and returns the words after them: nothing, the
/// `Position` diagram, or what follows a resignation.
fn read_moves<'a, 'w>(
    game: &mut Game,
    words: &'a [Word<'w>],
) -> Result<&'a [Word<'w>], RecordError> {
    let mut rest = words;
    loop {
        match rest.first() {
            None => return Ok(rest),
            Some(word) if word.text == "Position" => return Ok(rest),
            Some(_) => {}
        }
        let index = game.moves().len();
        let (number, color) = game.move_number(index);
        if color == Color::X || index == 0 {
            // A pair starts: its number, then `...` in x's column if o moves first.
            let word = rest[0];
            let placeholder = if color == Color::O { 2 } else { 1 };
            let numbered = move_number(word.text) == Some(number)
                && (color == Color::X || rest.get(1).is_some_and(|w| w.text == "..."));
            if !numbered {
                return Err(RecordError {
                    line: word.line,
                    kind: RecordErrorKind::MoveNumber {
                        expected: number,
                        found: word.text.to_string(),
                    },
                });
            }
            rest = &rest[placeholder..];
        }
        let Some((word, after)) = rest.split_first().filter(|(w, _)| w.text != "Position") else {
            // Reached only after reading the move number or the previous move.
            let previous = words[words.len() - rest.len() - 1];
            return Err(RecordError {
                line: previous.line,
                kind: RecordErrorKind::MissingMove { number, color },
            });
        };
        rest = after;
        if word.text == "Resigns" {
            game.set_result(GameResult::Win(!color));
            game.set_termination(Some(Termination::Resignation));
            return Ok(rest);
        }
        play(game, *word, number, color)?;
    }
}

/// Plays one move of the record, checking the flip count it states.
fn play(game: &mut Game, word: Word, number: usize, color: Color) -> Result<(), RecordError> {
    let fail = |kind| RecordError {
        line: word.line,
        kind,
    };
    let token = || word.text.to_string();
    let (text, stated) = match word.text.split_once('(') {
        None => (word.text, 0),
        Some((text, count)) => {
            let stated = count
                .strip_suffix(')')
                .filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| {
                    fail(RecordErrorKind::FlipText {
                        number,
                        color,
                        token: token(),
                    })
                })?;
            (text, stated)
        }
    };
    let move_error = |source| {
        fail(RecordErrorKind::Move {
            number,
            color,
            token: token(),
            source,
        })
    };
    let pos = game.final_position();
    let mv = pos.parse_move(text).map_err(move_error)?;
    let computed = pos.flips(mv).count();
    if stated != computed {
        return Err(fail(RecordErrorKind::FlipCount {
            number,
            color,
            token: token(),
            stated,
            computed,
        }));
    }
    game.push(mv).map_err(|e| move_error(e.into()))?;
    Ok(())
}

/// Checks that the diagram words draw `pos` with one symbol per kind of cell.
fn check_diagram(pos: &Position, words: &[Word]) -> Result<(), RecordErrorKind> {
    let size = usize::from(pos.size());
    // Each rank: its number and its cells; then the file letters.
    let cell = |sq: Square| {
        let row = usize::from(pos.size() - 1 - sq.rank());
        let word = words.get(row * (size + 1) + 1 + usize::from(sq.file()))?;
        let mut chars = word.text.chars();
        chars.next().filter(|_| chars.next().is_none())
    };
    // The symbol of each kind of cell, read at its first cell; a kind the position lacks gets
    // a character no diagram uses.
    let symbol = |set: crate::Bitboard| set.first().map_or(Some('\0'), cell);
    let drawn = (|| {
        Some(DiagramStyle {
            x: symbol(pos.pieces(Color::X))?,
            o: symbol(pos.pieces(Color::O))?,
            empty: symbol(pos.empty() & pos.cells())?,
            blocked: symbol(pos.blocked())?,
        })
    })();
    let matches = drawn.is_some_and(|style| {
        let symbols = [style.x, style.o, style.empty, style.blocked];
        let distinct =
            (0..4).all(|i| (0..i).all(|j| symbols[i] != symbols[j] || symbols[i] == '\0'));
        let expected = pos.diagram(style);
        let expected: Vec<&str> = expected.split_whitespace().collect();
        distinct
            && words.len() >= expected.len()
            && words.iter().zip(&expected).all(|(w, e)| w.text == *e)
    });
    if matches {
        Ok(())
    } else {
        Err(RecordErrorKind::Diagram {
            expected: pos.diagram(DiagramStyle::labels('O', 'X')),
        })
    }
}

impl Game {
    /// The game as a two-column record: an optional `FEN` line (non-standard start), the header
    /// (colours `Black White`, x first as in project PGN, then the `Black` and `White` tags, the
    /// x and o players), one numbered pair per line with flip counts, `Resigns`
    /// for a side that resigned when it was to move, and the final diagram if a style is given.
    pub fn to_record(&self, diagram: Option<DiagramStyle>) -> String {
        let mut out = String::new();
        if self.start() != Position::startpos() {
            out.push_str(&format!("FEN {}\n", self.start()));
        }
        let name = |tag| {
            let words: Vec<&str> = self.tag(tag).unwrap_or("").split_whitespace().collect();
            match words.is_empty() {
                true => "?".to_string(),
                false => words.join(" "),
            }
        };
        let header = [
            [COLUMN_LABELS[0].to_string(), COLUMN_LABELS[1].to_string()],
            [name("Black"), name("White")],
        ];
        let mut pairs: Vec<(usize, [String; 2])> = Vec::new();
        for (index, ply) in self.moves().iter().enumerate() {
            let (number, color) = self.move_number(index);
            let mut text = ply.mv().to_string();
            if ply.flip_count() > 0 {
                text.push_str(&format!("({})", ply.flip_count()));
            }
            if color == Color::X || index == 0 {
                pairs.push((number, [String::from("..."), String::new()]));
            }
            pairs.last_mut().expect("a pair per number").1[color.index()] = text;
        }
        let end = self.final_position();
        let resigned = self.termination() == Some(Termination::Resignation)
            && self.result().winner() == Some(!end.turn());
        if resigned {
            let (number, color) = self.move_number(self.moves().len());
            if color == Color::X || pairs.is_empty() {
                pairs.push((number, [String::from("..."), String::new()]));
            }
            pairs.last_mut().expect("a pair per number").1[color.index()] = "Resigns".into();
        }
        let number_width = pairs.last().map_or(0, |(n, _)| n.to_string().len()).max(2);
        let column_width = pairs
            .iter()
            .map(|(_, [x, _])| x.len())
            .chain(header.iter().map(|[x, _]| x.len()))
            .max()
            .unwrap_or(0);
        let line = |number: &str, [x, o]: &[String; 2]| {
            let text = format!("{number:>number_width$} {x:<column_width$}  {o}");
            format!("{}\n", text.trim_end())
        };
        for names in &header {
            out.push_str(&line("", names));
        }
        out.push('\n');
        for (number, pair) in &pairs {
            out.push_str(&line(&number.to_string(), pair));
        }
        if let Some(style) = diagram {
            out.push_str("\nPosition\n\n");
            out.push_str(&end.diagram(style));
        }
        out
    }
}
