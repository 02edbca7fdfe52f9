//! From a game known at run time to one known at compile time: [`on_concrete`] runs generic
//! work on a position as its game's own type, for the entry points of `any.rs` and `lines.rs`.

use games::{AnyPosition, GameKind};
use thiserror::Error;

use super::eval::Evaluate;

/// Why [`choose_any`](super::choose_any) and the other run-time entry points gave no move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChooseError {
    #[error("unknown level {level:?} for {game}; levels: {names}")]
    UnknownLevel {
        level: String,
        game: GameKind,
        names: String,
    },
    #[error("the game is over: no move to choose")]
    GameOver,
    #[error("position could not be read back: {0}")]
    Position(String),
}

/// Work to do on a position whose game is known statically, run by [`on_concrete`].
pub(super) trait OnGame {
    type Output;
    fn run<R: Evaluate>(self, pos: &R) -> Result<Self::Output, ChooseError>;
}

/// Runs `work` on `pos` as its game's own position type: the one place that turns a run-time
/// game into a compile-time one. The position itself is used, not its text, so what the text
/// leaves out (Ankor's repetition history) reaches the search.
pub(super) fn on_concrete<W: OnGame>(
    pos: &dyn AnyPosition,
    work: W,
) -> Result<W::Output, ChooseError> {
    fn cast<R: Evaluate>(pos: &dyn AnyPosition) -> Result<&R, ChooseError> {
        pos.as_any().downcast_ref::<R>().ok_or_else(|| {
            ChooseError::Position(format!("a {} position of an unexpected type", pos.kind()))
        })
    }
    match pos.kind() {
        GameKind::Ataxx => work.run(cast::<ataxx::Position>(pos)?),
        GameKind::Hexxagon => work.run(cast::<games::hexxagon::Position>(pos)?),
        GameKind::Ataxx4 => work.run(cast::<games::ataxx4::Position>(pos)?),
        GameKind::Ankor => work.run(cast::<games::ankor::Position>(pos)?),
    }
}
