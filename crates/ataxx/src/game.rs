//! A played game: tags, start position, moves, result and how it ended (spec section 7). PGN
//! ([`crate::pgn`]) and the 1995 two-column record ([`crate::record`]) both read and write it.

use std::fmt;

use crate::{Bitboard, Color, IllegalMoveError, Move, Outcome, Position};

/// A game's result as PGN writes it: `1-0` when x won, `0-1` when o won, `1/2-1/2`, `*`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum GameResult {
    Win(Color),
    Draw,
    /// Not finished, or the result is unknown (`*`).
    #[default]
    Unfinished,
}

impl GameResult {
    /// The PGN token.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Win(Color::X) => "1-0",
            GameResult::Win(Color::O) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result a PGN token names, if it is one of the four.
    pub fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" => Some(GameResult::Win(Color::X)),
            "0-1" => Some(GameResult::Win(Color::O)),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }

    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::Win(color) => Some(color),
            _ => None,
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Win(color) => GameResult::Win(color),
            Outcome::Draw => GameResult::Draw,
        }
    }
}

impl From<Option<Outcome>> for GameResult {
    fn from(outcome: Option<Outcome>) -> GameResult {
        outcome.map_or(GameResult::Unfinished, GameResult::from)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a match runner stopped a game that the rules had not ended: cuteataxx's values of the
/// PGN `Adjudicated` tag.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Adjudication {
    OutOfTime,
    MaterialImbalance,
    EasyFill,
    MaxGameLength,
    IllegalMove,
    /// An engine crashed or stopped answering (cuteataxx writes `*`).
    Crash,
}

impl Adjudication {
    pub const ALL: [Adjudication; 6] = [
        Adjudication::OutOfTime,
        Adjudication::MaterialImbalance,
        Adjudication::EasyFill,
        Adjudication::MaxGameLength,
        Adjudication::IllegalMove,
        Adjudication::Crash,
    ];

    /// The `Adjudicated` tag value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Adjudication::OutOfTime => "Out of time",
            Adjudication::MaterialImbalance => "Material imbalance",
            Adjudication::EasyFill => "Easy fill",
            Adjudication::MaxGameLength => "Max game length reached",
            Adjudication::IllegalMove => "Illegal move",
            Adjudication::Crash => "*",
        }
    }

    /// The adjudication an `Adjudicated` tag value names (any case).
    pub fn from_tag_value(value: &str) -> Option<Adjudication> {
        Adjudication::ALL
            .into_iter()
            .find(|a| a.as_str().eq_ignore_ascii_case(value.trim()))
    }
}

/// How a game ended when the rules did not end it. The loser is the side the result says lost.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// The loser resigned (PGN `[Termination "resignation"]`, the record's `Resigns`).
    Resignation,
    /// The loser ran out of time (PGN `[Termination "time forfeit"]`).
    TimeForfeit,
    /// A match runner stopped the game (PGN `[Adjudicated "..."]`).
    Adjudicated(Adjudication),
}

impl Termination {
    /// The PGN tag that records it, as (name, value).
    pub const fn pgn_tag(self) -> (&'static str, &'static str) {
        match self {
            Termination::Resignation => ("Termination", "resignation"),
            Termination::TimeForfeit => ("Termination", "time forfeit"),
            Termination::Adjudicated(a) => ("Adjudicated", a.as_str()),
        }
    }

    /// The termination a PGN tag records, if the tag is `Termination` or `Adjudicated` (any case)
    /// with a value this library knows.
    pub fn from_pgn_tag(name: &str, value: &str) -> Option<Termination> {
        if name.eq_ignore_ascii_case("Adjudicated") {
            return Adjudication::from_tag_value(value).map(Termination::Adjudicated);
        }
        if !name.eq_ignore_ascii_case("Termination") {
            return None;
        }
        match value.trim().to_ascii_lowercase().as_str() {
            "resignation" => Some(Termination::Resignation),
            "time forfeit" => Some(Termination::TimeForfeit),
            _ => None,
        }
    }
}

/// One ply of a game: the move, the enemy pieces it flipped, and what a record says about it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameMove {
    mv: Move,
    flipped: Bitboard,
    /// Thinking time in milliseconds (PGN `{ movetime N }`).
    pub movetime_ms: Option<u64>,
    /// Any other comment (PGN `{ ... }` after the move).
    pub comment: Option<String>,
}

impl GameMove {
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// The enemy pieces the move turned over.
    pub fn flipped(&self) -> Bitboard {
        self.flipped
    }

    pub fn flip_count(&self) -> u32 {
        self.flipped.count()
    }
}

/// The tags every game has, in PGN's order but with x's player (`Black`) first, and PGN's
/// "unknown" values.
pub const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("Black", "?"),
    ("White", "?"),
];

/// A game from a start position: only legal moves can be added, so every game replays.
///
/// Tags are name/value pairs in order, looked up by name in any case; a new game has the
/// [`ROSTER`] with unknown values. The PGN writer derives
/// `Result`, `FEN`, `SetUp`, `FinalFEN` and `PlyCount` from the game, and `Termination` or
/// `Adjudicated` from [`Game::termination`] when it is set; tags of those names are not written
/// from the tag list then.
///
/// ```
/// use ataxx::{Game, GameResult, Position, Termination};
/// let mut game = Game::new(Position::startpos());
/// game.set_tag("Black", "Cobbs");
/// for text in ["b7", "b2", "f1", "c3", "g2", "f6", "e1", "d2"] {
///     game.push(text.parse().unwrap()).unwrap().movetime_ms = Some(12);
/// }
/// assert_eq!(game.moves()[7].flip_count(), 1);
/// assert!(game.push("a1a3".parse().unwrap()).is_err()); // o's piece: x is to move
/// game.set_result(GameResult::Win(ataxx::Color::X));
/// game.set_termination(Some(Termination::Resignation));
///
/// let again: Game = game.to_pgn().parse().unwrap();
/// assert_eq!(again, game);
/// assert_eq!(again.tag("black"), Some("Cobbs"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    tags: Vec<(String, String)>,
    start: Position,
    end: Position,
    moves: Vec<GameMove>,
    result: GameResult,
    termination: Option<Termination>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game without moves, result `*`, the [`ROSTER`] tags unknown.
    pub fn new(start: Position) -> Game {
        Game {
            tags: ROSTER
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            start,
            end: start,
            moves: Vec::new(),
            result: GameResult::Unfinished,
            termination: None,
        }
    }

    pub fn start(&self) -> Position {
        self.start
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        self.end
    }

    pub fn moves(&self) -> &[GameMove] {
        &self.moves
    }

    /// Plays `mv` if it is legal in the final position and returns the new ply, so a caller can
    /// attach a movetime or comment.
    pub fn push(&mut self, mv: Move) -> Result<&mut GameMove, IllegalMoveError> {
        let flipped = self.end.flips(mv);
        self.end.play(mv)?;
        self.moves.push(GameMove {
            mv,
            flipped,
            movetime_ms: None,
            comment: None,
        });
        Ok(self.moves.last_mut().expect("just pushed"))
    }

    pub(crate) fn last_move_mut(&mut self) -> Option<&mut GameMove> {
        self.moves.last_mut()
    }

    /// What the rules say about the final position: `None` while the game can go on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end.outcome()
    }

    /// The recorded result (set by whoever ran or wrote the game; adjudications and resignations
    /// can differ from [`Game::outcome`]).
    pub fn result(&self) -> GameResult {
        self.result
    }

    pub fn set_result(&mut self, result: GameResult) {
        self.result = result;
    }

    pub fn termination(&self) -> Option<Termination> {
        self.termination
    }

    pub fn set_termination(&mut self, termination: Option<Termination>) {
        self.termination = termination;
    }

    /// Every tag in order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of the first tag called `name`, in any case.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag: replaces the value of a tag of that name (any case), else appends it.
    pub fn set_tag(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(&name))
        {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name, value)),
        }
    }

    /// The number of the move (PGN numbering, from 1 whatever the FEN says) and the side that
    /// plays ply `index` (from 0).
    pub fn move_number(&self, index: usize) -> (usize, Color) {
        let offset = usize::from(self.start.turn() == Color::O);
        let color = Color::ALL[(index + offset) % 2];
        ((index + offset) / 2 + 1, color)
    }
}
