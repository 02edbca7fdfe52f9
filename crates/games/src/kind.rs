//! Which game: the names the server, the CLI and UAI use, and the options a new game takes.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::any::AnyPosition;
use crate::rules::{GameError, Rules};

/// A game the system plays.
///
/// ```
/// use games::GameKind;
/// assert_eq!("Ataxx".parse::<GameKind>().unwrap(), GameKind::Ataxx);
/// assert_eq!(GameKind::Ataxx.to_string(), "ataxx");
/// assert_eq!("ataxx4".parse::<GameKind>().unwrap(), GameKind::Ataxx4);
/// assert!("chess".parse::<GameKind>().is_err());
/// assert_eq!("hexxagon".parse::<GameKind>().unwrap(), GameKind::Hexxagon);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    /// Square Ataxx for two, 3×3 to 8×8, with blocked cells.
    Ataxx,
    /// Hexxagon: Ataxx on a hexagon of 3 to 5 cells a side, with optional classic blocks.
    Hexxagon,
    /// Four-player Ataxx (red, blue, green, yellow), 5×5 to 8×8, with blocked cells.
    Ataxx4,
    /// Ankor: cubes stacked in a triangular pyramid, 3 to 8 holes per side.
    Ankor,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Ataxx,
        GameKind::Hexxagon,
        GameKind::Ataxx4,
        GameKind::Ankor,
    ];

    /// The name used in commands, FEN headers, UAI's `UAI_Variant` and PGN's `Variant` tag.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Ataxx => "ataxx",
            GameKind::Hexxagon => "hexxagon",
            GameKind::Ataxx4 => "ataxx4",
            GameKind::Ankor => "ankor",
        }
    }

    /// The game's name as people read it (menus, page titles).
    ///
    /// ```
    /// use games::GameKind;
    /// assert_eq!(GameKind::Ataxx4.title(), "Four-player Ataxx");
    /// ```
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Ataxx => "Ataxx",
            GameKind::Hexxagon => "Hexxagon",
            GameKind::Ataxx4 => "Four-player Ataxx",
            GameKind::Ankor => "Ankor",
        }
    }

    /// Every game's name, comma-separated, for messages.
    pub fn names() -> String {
        GameKind::ALL.map(GameKind::name).join(", ")
    }

    /// Whether a position's FEN leaves out history that the game's rules use, so that a game
    /// in progress must be replayed from its start to go on: Ankor's third-repetition draw
    /// counts earlier positions. Square Ataxx has no repetition rule (its 100-ply clock is in
    /// the FEN), and neither have Hexxagon and four-player Ataxx.
    ///
    /// ```
    /// use games::GameKind;
    /// assert!(GameKind::Ankor.fen_forgets_history());
    /// assert!(!GameKind::Ataxx.fen_forgets_history());
    /// ```
    pub const fn fen_forgets_history(self) -> bool {
        matches!(self, GameKind::Ankor)
    }

    /// Reads a position of this game from its FEN.
    pub fn parse_position(self, fen: &str) -> Result<Box<dyn AnyPosition>, GameError> {
        match self {
            GameKind::Ataxx => boxed::<ataxx::Position>(fen),
            GameKind::Hexxagon => boxed::<crate::hexxagon::Position>(fen),
            GameKind::Ataxx4 => boxed::<crate::ataxx4::Position>(fen),
            GameKind::Ankor => boxed::<crate::ankor::Position>(fen),
        }
    }

    /// The start position with the given options (size, blocked cells).
    pub fn start(self, options: &StartOptions) -> Result<Box<dyn AnyPosition>, GameError> {
        match self {
            GameKind::Ataxx => started::<ataxx::Position>(options),
            GameKind::Hexxagon => started::<crate::hexxagon::Position>(options),
            GameKind::Ataxx4 => started::<crate::ataxx4::Position>(options),
            GameKind::Ankor => started::<crate::ankor::Position>(options),
        }
    }
}

fn boxed<R: Rules>(fen: &str) -> Result<Box<dyn AnyPosition>, GameError> {
    Ok(Box::new(R::from_fen(fen)?))
}

fn started<R: Rules>(options: &StartOptions) -> Result<Box<dyn AnyPosition>, GameError> {
    Ok(Box::new(R::start(options)?))
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`GameKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game {0:?}: expected one of {names}", names = GameKind::names())]
pub struct ParseGameKindError(pub String);

impl FromStr for GameKind {
    type Err = ParseGameKindError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseGameKindError(s.to_string()))
    }
}

/// What a new game may choose besides the game itself. Each game reads what it understands
/// and refuses what it cannot honour, naming the option.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartOptions {
    /// Board size: the side of a square board, or the cells per side of a hexagon; `None` for
    /// the game's default.
    pub size: Option<u8>,
    /// Blocked cells as the game spells them: a Blocks-Config code or `0x` mask (square
    /// boards), `classic` (Hexxagon); `None` or `0` for none.
    pub blocks: Option<String>,
    /// Ankor's `-win_height`: how high a path may touch a side and still count, 1 (a tip of
    /// each side, the default), 0 (the board's edges only) or −1 (any level); `None` for the
    /// default. Games without the option ignore it.
    pub win_height: Option<i8>,
}

impl StartOptions {
    /// The blocked layout of a square board (a Blocks-Config code or `0x` mask, which need the
    /// 7×7 board), `None` for none; `size` is the board's side.
    pub(crate) fn square_layout(
        &self,
        game: GameKind,
        size: u8,
    ) -> Result<Option<ataxx::Layout>, GameError> {
        let refuse = |reason: String| GameError::Option { game, reason };
        let text = match self.blocks.as_deref() {
            None | Some("0") => return Ok(None),
            Some(text) => text,
        };
        let layout = match text.strip_prefix("0x").or(text.strip_prefix("0X")) {
            Some(_) => ataxx::Layout::parse_mask(text).map_err(|e| e.to_string()),
            None => text.parse::<ataxx::Layout>().map_err(|e| e.to_string()),
        }
        .map_err(|e| refuse(format!("-blocks={text}: {e}")))?;
        if size != 7 {
            return Err(refuse(format!(
                "-blocks={text} needs the 7x7 board (-size=7)"
            )));
        }
        Ok(Some(layout))
    }

    /// The blocks option as given, `0` where there is none, for messages.
    pub(crate) fn blocks_text(&self) -> &str {
        self.blocks.as_deref().unwrap_or("0")
    }
}
