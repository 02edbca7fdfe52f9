//! A board as the doors show it: its summary (who plays, whose move, clocks, proposals, the
//! result) and the full view with its moves and chat.

use serde::{Deserialize, Serialize};

use super::{ChatRow, MoveRow, Status};

/// A board as every door shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameSummary {
    pub board: i64,
    /// The game's name (`ataxx`, `hexxagon`, `ataxx4`, ...): how `fen`, `start_fen` and the
    /// moves read.
    pub game: String,
    /// The players in seat order; seat 0 moves first.
    pub seats: Vec<SeatSummary>,
    /// Seat 0's player (kept for two-player clients).
    pub x: String,
    /// Seat 1's player.
    pub o: String,
    /// `challenge`, `active`, `finished`, `declined` or `withdrawn`.
    pub status: Status,
    /// Whose move it is, while the game is in play.
    pub to_move: Option<String>,
    /// The letter of the seat to move (`x`, `o`; `r`, `b`, `g`, `y`), while the game is in play.
    pub turn: Option<String>,
    /// Moves recorded so far, automatic passes included. The next move is `#ply+1`.
    pub ply: i64,
    /// Bumped by every change of the board.
    pub version: i64,
    pub fen: String,
    pub start_fen: String,
    pub blocks: String,
    /// The legal moves of the position in the game's notation, while the game is in play
    /// (empty otherwise).
    pub legal_moves: Vec<String>,
    /// The cells that decided a finished game, for boards to highlight (Ankor's winning path);
    /// empty otherwise.
    pub winning_path: Vec<String>,
    /// Seat 0's pieces.
    pub x_pieces: u32,
    /// Seat 1's pieces.
    pub o_pieces: u32,
    /// `1-0`, `0-1`, `1/2-1/2` for two players; for more, each seat's rank in seat order
    /// (`2-1-3-3`); `*` while unfinished.
    pub result: String,
    /// How a finished game ended: `rules`, `resignation`, `time forfeit`, `agreement`, or empty.
    pub termination: String,
    pub winner: Option<String>,
    pub rated: bool,
    /// Why a game begun rated did not count for ratings (`bob never moved: unrated`); absent
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrated_reason: Option<String>,
    /// Who accepted the challenge so far (seats 0 and 1; `seats` has every seat).
    pub accepted: Accepted,
    pub proposal: Option<Proposal>,
    pub clock: Option<LiveClock>,
    pub correspondence: Correspondence,
    /// The player to move was reminded at the nag time (correspondence games).
    pub reminded: bool,
    pub x_used_ms: i64,
    pub o_used_ms: i64,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub last_move_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    pub x_rating_change: Option<f64>,
    pub o_rating_change: Option<f64>,
}

/// One player of a board.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatSummary {
    pub seat: u8,
    pub name: String,
    /// The letter of the seat's pieces.
    pub letter: String,
    pub accepted: bool,
    pub pieces: u32,
    pub used_ms: i64,
    /// A live game's clock, as of the summary's time.
    pub clock_ms: Option<i64>,
    /// Once finished: 1 for the best, equal ranks shared.
    pub rank: Option<i64>,
    /// Once finished, the result from this seat's side: `win`, `loss` or `draw` (a page
    /// writes "You win" from its reader's seat).
    pub outcome: Option<String>,
    pub rating_change: Option<f64>,
    /// A built-in computer level, which declines every draw and undo proposal: pages do not
    /// offer them against it.
    #[serde(default)]
    pub declines_proposals: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Accepted {
    pub x: bool,
    pub o: bool,
}

/// A pending draw or undo proposal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Proposal {
    /// `draw` or `undo`.
    pub kind: String,
    /// Who proposed it.
    pub by: String,
    /// Who agrees so far, the proposer first.
    pub agreed: Vec<String>,
    /// Who still has to answer: every other player still in the game (eliminated seats of a
    /// four-player game have no say).
    pub waiting: Vec<String>,
}

/// A live game's Fischer clock, as of `as_of_ms`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LiveClock {
    pub initial_ms: i64,
    pub increment_ms: i64,
    /// Seat 0's time (`seats[i].clock_ms` has every seat's).
    pub x_ms: i64,
    pub o_ms: i64,
    /// The letter of the seat whose clock runs, while the game is in play and that seat has
    /// made its first move.
    pub running: Option<String>,
    /// Before the player to move has made a first move: when the game is aborted without it.
    pub first_move_by_ms: Option<i64>,
    pub as_of_ms: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Correspondence {
    pub nag_days: i64,
    pub forfeit_days: i64,
    pub total_days: Option<i64>,
}

/// A board with its moves and chat.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    #[serde(flatten)]
    pub summary: GameSummary,
    pub moves: Vec<MoveRow>,
    pub chat: Vec<ChatRow>,
    /// Users following the board without playing on it.
    pub subscribers: Vec<String>,
}
