//! The project's engine as a [`Player`], searching a fixed time per move with its built-in
//! evaluation (the embedded net on 7×7 boards, the hand-crafted one elsewhere).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ataxx::{Move, Position};
use engine::net_eval::NetEval;
use engine::search::Engine;
use engine::time::Limits;
use engine::uai::{Thinker, DEFAULT_HASH_MIB};

use crate::player::{ClassicPlayer, Player};

/// The engine with a time budget per move.
pub struct EnginePlayer {
    engine: Engine<NetEval>,
    movetime: Duration,
}

impl EnginePlayer {
    pub fn new(movetime: Duration) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(NetEval::builtin(), DEFAULT_HASH_MIB),
            movetime,
        }
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        if pos.is_game_over() {
            return None;
        }
        let limits = Limits {
            movetime: Some(self.movetime),
            ..Limits::default()
        };
        Some(
            self.engine
                .search(pos, &limits, &AtomicBool::new(false), |_| {})
                .best_move(),
        )
    }
}

/// Classic players speak UAI too (`ataxx uai --player NAME`): they answer at once, whatever the
/// limits.
impl Thinker for ClassicPlayer {
    fn name(&self) -> String {
        format!("ataxx {}", ClassicPlayer::name(self))
    }

    fn new_game(&mut self) {
        Player::new_game(self);
    }

    fn think(
        &mut self,
        pos: &Position,
        _: &Limits,
        _: &AtomicBool,
        _: &mut dyn FnMut(&engine::search::Report),
    ) -> Move {
        self.choose(pos).unwrap_or(Move::Pass)
    }
}
