//! PGN (spec section 7): the project dialect is written (7.3); cuteataxx's and python-ataxx's
//! dialects are read (7.1, 7.2).
//!
//! ```
//! use ataxx::{pgn, Color, GameResult};
//! let text = r#"[Event "demo"]
//! [black "engine-a"]
//! [white "engine-b"]
//! [Result "0-1"]
//! [FEN "x5o/7/7/7/7/7/o5x x"]
//! [Adjudicated "Out of time"]
//!
//! 1. G2 { movetime 12 } a1-b2 (1... a2 2. f2) 2. pass? 0-1
//! "#;
//! let err = pgn::parse_games(text).unwrap_err();
//! assert_eq!((err.game, err.line), (1, 8)); // x may not pass while it can move
//!
//! let games = pgn::parse_games(&text.replace("pass?", "f2")).unwrap();
//! let game = &games[0];
//! assert_eq!(game.moves().len(), 3);
//! assert_eq!(game.moves()[0].movetime_ms, Some(12));
//! assert_eq!(game.result(), GameResult::Win(Color::O));
//! assert!(game.to_pgn().contains("[Black \"engine-a\"]\n[White \"engine-b\"]\n"));
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Color, FenError, Game, GameResult, MoveError, Position, Termination, ROSTER};

/// Tags the writer derives from the game itself.
const DERIVED: [&str; 5] = ["Result", "FEN", "SetUp", "FinalFEN", "PlyCount"];

impl Game {
    /// The game in the project's PGN dialect (spec 7.3), ending with a blank line so that games
    /// can be concatenated.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            let value = value
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace(['\n', '\r'], " ");
            out.push_str(&format!("[{name} \"{value}\"]\n"));
        };
        for (name, unknown) in ROSTER {
            tag(name, self.tag(name).unwrap_or(unknown));
        }
        tag("Result", self.result().as_str());
        tag("FEN", &self.start().to_string());
        if self.start() != Position::startpos() {
            tag("SetUp", "1");
        }
        tag("FinalFEN", &self.final_position().to_string());
        tag("PlyCount", &self.moves().len().to_string());
        let termination = self.termination().map(Termination::pgn_tag);
        if let Some((name, value)) = termination {
            tag(name, value);
        }
        let written = |name: &str| {
            ROSTER.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
                || DERIVED.iter().any(|n| n.eq_ignore_ascii_case(name))
                || termination.is_some_and(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        for (name, value) in self.tags() {
            if !written(name) && is_tag_name(name) {
                tag(name, value);
            }
        }
        out.push('\n');
        out.push_str(&self.movetext());
        out.push_str("\n\n");
        out
    }

    /// Numbered moves, comments and the result token, on one line as cuteataxx writes them:
    /// python-ataxx's reader takes every further line of movetext for a variation.
    fn movetext(&self) -> String {
        let mut words = Vec::new();
        for (index, ply) in self.moves().iter().enumerate() {
            // A move number stays on the line of its move.
            words.push(match self.move_number(index) {
                (number, Color::X) => format!("{number}. {}", ply.mv()),
                (number, Color::O) if index == 0 => format!("{number}... {}", ply.mv()),
                _ => ply.mv().to_string(),
            });
            if let Some(ms) = ply.movetime_ms {
                words.push(format!("{{ movetime {ms} }}"));
            }
            if let Some(comment) = &ply.comment {
                // A `}` would end the comment early.
                words.push(format!("{{ {} }}", comment.replace('}', ")")));
            }
        }
        words.push(self.result().to_string());
        words.join(" ")
    }
}

impl fmt::Display for Game {
    /// The project PGN of [`Game::to_pgn`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pgn())
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// PGN that could not be read: which game (from 1), which line (from 1), and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game}, line {line}: {kind}")]
pub struct PgnError {
    pub game: usize,
    pub line: usize,
    pub kind: PgnErrorKind,
}

/// What was wrong with a PGN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    #[error("malformed tag pair starting {text:?}: expected [Name \"value\"]")]
    Tag { text: String },
    #[error("comment opened with {{ is never closed")]
    UnclosedComment,
    #[error("variation opened with ( is never closed")]
    UnclosedVariation,
    #[error(") closes no variation")]
    UnopenedVariation,
    #[error("FEN tag {fen:?}: {source}")]
    Fen { fen: String, source: FenError },
    #[error("{tag} tag {value:?}: expected a whole number")]
    Number { tag: &'static str, value: String },
    #[error("Result tag {value:?}: expected 1-0, 0-1, 1/2-1/2 or *")]
    ResultTag { value: String },
    #[error("move {number}{dots} {token:?}: {source}", dots = if *color == Color::X { "." } else { "..." })]
    Move {
        number: usize,
        color: Color,
        token: String,
        source: MoveError,
    },
    #[error("expected exactly one game, found {found}")]
    GameCount { found: usize },
    #[error("Result tag says {tag} but the movetext ends {token}")]
    ResultMismatch { tag: GameResult, token: GameResult },
    #[error("PlyCount tag says {stated} but the movetext has {counted} plies")]
    PlyCount { stated: usize, counted: usize },
    #[error("FinalFEN tag {stated:?} is not the position the moves reach, {replayed}")]
    FinalFen { stated: String, replayed: String },
}

/// Every game in `text`, in order. A game is its tags then its movetext; a tag after movetext,
/// an `Event` tag after other tags, or movetext after a result token starts the next game.
///
/// Read leniently (both dialects of spec 7.1 and 7.2): `{ }` and `;` comments (`{ movetime N }`
/// sets [`crate::GameMove::movetime_ms`], other comments after a move become its comment),
/// `( )` variations and `$N` glyphs skipped, `N.`/`N...` move numbers not checked, tolerant
/// move text (any case, `pass`, `c3-b5`, trailing `!`/`?`), a `FEN` tag of 1 to 4 fields, dates
/// `YYYY.MM.DD` or cuteataxx's `YYYY-MM-DD HH:MM:SS` (stored as `Date` `YYYY.MM.DD` plus `Time`).
/// Colours come from the FEN side field, never from tag names. `Result`, `PlyCount` and
/// `FinalFEN` tags are checked against the moves.
pub fn parse_games(text: &str) -> Result<Vec<Game>, PgnError> {
    let mut reader = Reader {
        lexer: Lexer {
            rest: text,
            line: 1,
        },
        games: Vec::new(),
        current: None,
    };
    reader.run()?;
    Ok(reader.games)
}

impl FromStr for Game {
    type Err = PgnError;

    /// Exactly one game of PGN (see [`parse_games`]); none is an error, and so is a second.
    fn from_str(text: &str) -> Result<Game, PgnError> {
        let mut games = parse_games(text)?;
        match games.len() {
            1 => Ok(games.remove(0)),
            found => Err(PgnError {
                game: found.min(2),
                line: text.lines().count().max(1),
                kind: PgnErrorKind::GameCount { found },
            }),
        }
    }
}

enum Token<'a> {
    Tag { name: &'a str, value: String },
    Comment(&'a str),
    Open,
    Close,
    Symbol(&'a str),
}

struct Lexer<'a> {
    rest: &'a str,
    line: usize,
}

impl<'a> Lexer<'a> {
    /// The next token and the line it starts on.
    fn next(&mut self) -> Result<Option<(Token<'a>, usize)>, (usize, PgnErrorKind)> {
        loop {
            let trimmed = self.rest.trim_start_matches(|c: char| c.is_whitespace());
            self.advance(self.rest.len() - trimmed.len());
            let line = self.line;
            let Some(c) = self.rest.chars().next() else {
                return Ok(None);
            };
            let token = match c {
                // `;` comments and `%` escape lines run to the end of the line.
                ';' | '%' => {
                    let end = self.rest.find('\n').unwrap_or(self.rest.len());
                    self.advance(end);
                    continue;
                }
                '$' => {
                    let end = self.rest[1..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(self.rest.len(), |i| i + 1);
                    self.advance(end);
                    continue;
                }
                '{' => {
                    let end = self
                        .rest
                        .find('}')
                        .ok_or((line, PgnErrorKind::UnclosedComment))?;
                    let body = &self.rest[1..end];
                    self.advance(end + 1);
                    Token::Comment(body.trim())
                }
                '(' => {
                    self.advance(1);
                    Token::Open
                }
                ')' => {
                    self.advance(1);
                    Token::Close
                }
                '[' => self.tag()?,
                _ => {
                    let end = self
                        .rest
                        .find(|c: char| c.is_whitespace() || "[]{}();".contains(c))
                        .unwrap_or(self.rest.len())
                        .max(c.len_utf8());
                    let symbol = &self.rest[..end];
                    self.advance(end);
                    Token::Symbol(symbol)
                }
            };
            return Ok(Some((token, line)));
        }
    }

    /// `[Name "value"]`, with `\"` and `\\` escapes in the value.
    fn tag(&mut self) -> Result<Token<'a>, (usize, PgnErrorKind)> {
        let (line, start) = (self.line, self.rest);
        let bad = || {
            let text: String = start.chars().take_while(|&c| c != '\n').take(40).collect();
            (line, PgnErrorKind::Tag { text })
        };
        let body = start[1..].trim_start();
        let name_len = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let (name, after) = body.split_at(name_len);
        let after = after.trim_start();
        if name.is_empty() || !after.starts_with('"') {
            return Err(bad());
        }
        let mut value = String::new();
        let mut chars = after[1..].char_indices();
        let close = loop {
            match chars.next() {
                None => return Err(bad()),
                Some((i, '"')) => break i,
                Some((_, '\\')) => match chars.next() {
                    Some((_, c)) => value.push(c),
                    None => return Err(bad()),
                },
                Some((_, c)) => value.push(c),
            }
        };
        let tail = &after[1 + close + 1..];
        let tail_trimmed = tail.trim_start();
        if !tail_trimmed.starts_with(']') {
            return Err(bad());
        }
        let consumed = start.len() - tail_trimmed.len() + 1;
        self.advance(consumed);
        Ok(Token::Tag { name, value })
    }

    fn advance(&mut self, bytes: usize) {
        self.line += self.rest[..bytes].matches('\n').count();
        self.rest = &self.rest[bytes..];
    }
}

/// A game being read: its tags until the movetext starts, then the game itself.
struct Partial {
    number: usize,
    tags: Vec<(String, String, usize)>,
    started: Option<(Game, Checks)>,
    /// The result token that ended the movetext, and its line.
    result_token: Option<(GameResult, usize)>,
}

/// Tags checked once the moves are in, with their lines.
#[derive(Default)]
struct Checks {
    result: Option<GameResult>,
    ply_count: Option<(usize, usize)>,
    final_fen: Option<(String, usize)>,
}

impl Partial {
    fn error(&self, line: usize, kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: self.number,
            line,
            kind,
        }
    }

    /// The game, set up from the tags when the movetext starts.
    fn game(&mut self) -> Result<&mut Game, PgnError> {
        if self.started.is_none() {
            let started = start_game(std::mem::take(&mut self.tags))
                .map_err(|(line, kind)| self.error(line, kind))?;
            self.started = Some(started);
        }
        Ok(&mut self.started.as_mut().expect("started above").0)
    }

    /// The finished game, checked against its Result, PlyCount and FinalFEN tags.
    fn finish(mut self) -> Result<Game, PgnError> {
        self.game()?;
        let (mut game, checks) = self.started.take().expect("started above");
        let result = match (checks.result, self.result_token) {
            (Some(tag), Some((token, line))) if tag != token => {
                return Err(self.error(line, PgnErrorKind::ResultMismatch { tag, token }))
            }
            (_, Some((result, _))) | (Some(result), None) => result,
            (None, None) => GameResult::Unfinished,
        };
        game.set_result(result);
        let counted = game.moves().len();
        if let Some((stated, line)) = checks.ply_count {
            if stated != counted {
                return Err(self.error(line, PgnErrorKind::PlyCount { stated, counted }));
            }
        }
        if let Some((stated, line)) = checks.final_fen {
            // Board and side to move: writers differ in the counters of short FENs.
            let end = game.final_position();
            let same = stated
                .parse::<Position>()
                .is_ok_and(|p| p.board_fen() == end.board_fen() && p.turn() == end.turn());
            if !same {
                let replayed = end.to_string();
                return Err(self.error(line, PgnErrorKind::FinalFen { stated, replayed }));
            }
        }
        Ok(game)
    }
}

struct Reader<'a> {
    lexer: Lexer<'a>,
    games: Vec<Game>,
    current: Option<Partial>,
}

impl<'a> Reader<'a> {
    fn run(&mut self) -> Result<(), PgnError> {
        // Nesting of the `( )` variation being skipped, and the line it opened on.
        let mut variation = (0usize, 0usize);
        while let Some((token, line)) = self.next_token()? {
            if variation.0 > 0 {
                match token {
                    Token::Open => variation.0 += 1,
                    Token::Close => variation.0 -= 1,
                    Token::Tag { .. } => {
                        return Err(self.error(variation.1, PgnErrorKind::UnclosedVariation))
                    }
                    Token::Comment(_) | Token::Symbol(_) => {}
                }
                continue;
            }
            match token {
                Token::Tag { name, value } => {
                    let new_game = name.eq_ignore_ascii_case("Event");
                    if self
                        .current
                        .as_ref()
                        .is_some_and(|p| p.started.is_some() || (new_game && !p.tags.is_empty()))
                    {
                        self.finish()?;
                    }
                    self.partial().tags.push((name.to_string(), value, line));
                }
                Token::Comment(body) => {
                    let ply = self
                        .current
                        .as_mut()
                        .and_then(|p| p.started.as_mut())
                        .and_then(|(game, _)| game.last_move_mut());
                    if let Some(ply) = ply {
                        attach_comment(ply, body);
                    }
                }
                Token::Open => variation = (1, line),
                Token::Close => return Err(self.error(line, PgnErrorKind::UnopenedVariation)),
                Token::Symbol(symbol) => self.symbol(symbol, line)?,
            }
        }
        if variation.0 > 0 {
            return Err(self.error(variation.1, PgnErrorKind::UnclosedVariation));
        }
        self.finish()
    }

    fn next_token(&mut self) -> Result<Option<(Token<'a>, usize)>, PgnError> {
        let number = self.games.len() + 1;
        self.lexer.next().map_err(|(line, kind)| PgnError {
            game: number,
            line,
            kind,
        })
    }

    fn error(&self, line: usize, kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: self.games.len() + 1,
            line,
            kind,
        }
    }

    fn partial(&mut self) -> &mut Partial {
        let number = self.games.len() + 1;
        self.current.get_or_insert_with(|| Partial {
            number,
            tags: Vec::new(),
            started: None,
            result_token: None,
        })
    }

    /// A result token, a move number or a move.
    fn symbol(&mut self, symbol: &str, line: usize) -> Result<(), PgnError> {
        if self
            .current
            .as_ref()
            .is_some_and(|p| p.result_token.is_some())
        {
            self.finish()?;
        }
        let partial = self.partial();
        let number = partial.number;
        let game = partial.game()?;
        if let Some(result) = GameResult::from_token(symbol) {
            partial.result_token = Some((result, line));
            return Ok(());
        }
        let text = strip_move_number(symbol).trim_end_matches(['!', '?']);
        if text.is_empty() {
            return Ok(());
        }
        let (move_number, color) = game.move_number(game.moves().len());
        let fail = |source| PgnError {
            game: number,
            line,
            kind: PgnErrorKind::Move {
                number: move_number,
                color,
                token: symbol.to_string(),
                source,
            },
        };
        let mv = game.final_position().parse_move(text).map_err(fail)?;
        game.push(mv).map_err(|e| fail(e.into()))?;
        Ok(())
    }

    /// Stores the game being read, if any.
    fn finish(&mut self) -> Result<(), PgnError> {
        if let Some(partial) = self.current.take() {
            self.games.push(partial.finish()?);
        }
        Ok(())
    }
}

/// The game its tags describe, and the tags to check once the moves are in.
fn start_game(tags: Vec<(String, String, usize)>) -> Result<(Game, Checks), (usize, PgnErrorKind)> {
    let mut start = Position::startpos();
    let mut checks = Checks::default();
    let mut termination = None;
    let mut kept = Vec::new();
    for (name, value, line) in tags {
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        if is("FEN") {
            start = value.parse().map_err(|source| {
                (
                    line,
                    PgnErrorKind::Fen {
                        fen: value.clone(),
                        source,
                    },
                )
            })?;
        } else if is("Result") {
            checks.result = Some(GameResult::from_token(value.trim()).ok_or_else(|| {
                (
                    line,
                    PgnErrorKind::ResultTag {
                        value: value.clone(),
                    },
                )
            })?);
        } else if is("PlyCount") {
            let count = value.trim().parse().map_err(|_| {
                (
                    line,
                    PgnErrorKind::Number {
                        tag: "PlyCount",
                        value: value.clone(),
                    },
                )
            })?;
            checks.ply_count = Some((count, line));
        } else if is("FinalFEN") {
            checks.final_fen = Some((value, line));
        } else if is("SetUp") {
            // Derived from the FEN when written.
        } else if let Some(t) =
            Termination::from_pgn_tag(&name, &value).filter(|_| termination.is_none())
        {
            termination = Some(t);
        } else if is("Date") {
            let (date, time) = normalise_date(&value);
            kept.push(("Date".to_string(), date));
            if let Some(time) = time {
                kept.push(("Time".to_string(), time));
            }
        } else {
            kept.push((name, value));
        }
    }
    let mut game = Game::new(start);
    let mut seen: Vec<String> = Vec::new();
    for (name, value) in kept {
        // The first of two tags of one name counts.
        if !seen.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
            seen.push(name.clone());
            game.set_tag(name, value);
        }
    }
    game.set_termination(termination);
    Ok((game, checks))
}

/// cuteataxx's `YYYY-MM-DD HH:MM:SS` as PGN's `YYYY.MM.DD` and a `Time`; other dates unchanged.
fn normalise_date(value: &str) -> (String, Option<String>) {
    let (date, time) = match value.trim().split_once(' ') {
        Some((date, time)) => (date, Some(time.trim().to_string())),
        None => (value.trim(), None),
    };
    let parts: Vec<&str> = date.split('-').collect();
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [y, m, d] if digits(y, 4) && digits(m, 2) && digits(d, 2) => (format!("{y}.{m}.{d}"), time),
        _ => (value.to_string(), None),
    }
}

/// The move text after a leading move number with its dots (`12.`, `12...`, `12.b7`).
fn strip_move_number(symbol: &str) -> &str {
    let digits = symbol.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &symbol[digits..];
    match rest.trim_start_matches('.') {
        after if digits > 0 && after.len() < rest.len() => after,
        _ => symbol,
    }
}

fn attach_comment(ply: &mut crate::GameMove, body: &str) {
    let movetime = body
        .strip_prefix("movetime")
        .and_then(|ms| ms.trim().parse().ok());
    match movetime {
        Some(ms) => ply.movetime_ms = Some(ms),
        None if body.is_empty() => {}
        None => {
            ply.comment = Some(match ply.comment.take() {
                Some(before) => format!("{before} {body}"),
                None => body.to_string(),
            })
        }
    }
}
