//! Games: challenges, moves with the `#N` guard, automatic passes, resignation, draw and undo
//! proposals, live clocks, correspondence deadlines.
//!
//! Each change runs in one write transaction that is committed before the change is answered
//! or announced, so an acknowledged move survives a crash.

use std::sync::Arc;

use ataxx::{Color, Layout, Move, Outcome, Position};
use serde::Serialize;
use sqlx::AnyConnection;

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::events::{Event, EventKind, Hub};
use crate::ratings;
use crate::storage::{self, ChatRow, GameFilter, GameRow, MoveRow, Storage};

mod closing;
mod limits;
mod queued;
pub use closing::LeftBoards;

const DAY_MS: i64 = 24 * 3600 * 1000;
/// The longest chat message.
pub const MAX_CHAT: usize = 2000;

/// The options of a challenge (spec sections 8 and 10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// Board side, 3 to 8.
    pub size: u8,
    /// Blocked squares (7×7 only), as given (`0` = none).
    pub blocks: Option<Layout>,
    pub blocks_text: String,
    /// Live game: Fischer clock with this much time and increment per move.
    pub clock: Option<(i64, i64)>,
    pub nag_days: i64,
    pub forfeit_days: i64,
    pub total_days: Option<i64>,
}

impl Default for ChallengeOptions {
    fn default() -> Self {
        ChallengeOptions {
            size: 7,
            blocks: None,
            blocks_text: "0".to_string(),
            clock: None,
            nag_days: 7,
            forfeit_days: 21,
            total_days: None,
        }
    }
}

/// The options a challenge accepts, listed in refusals.
pub const OPTION_HELP: &str = "-size=3..8, -blocks=<Blocks-Config code or 0x mask>, \
     -variant=square, -clock=<minutes>+<seconds increment> (live game), --nagtime=<days>, \
     --forfeittime=<days>, --totaltime=<days>";

fn days(name: &str, value: &str) -> Result<i64> {
    match value.parse::<i64>() {
        Ok(n) if (1..=365).contains(&n) => Ok(n),
        _ => Err(Error::InvalidChallenge(format!(
            "{name}={value}: give a number of days from 1 to 365"
        ))),
    }
}

impl ChallengeOptions {
    /// Sets one option by name (without its dashes), as `-name=value` gives it.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<()> {
        let value_of = || {
            value.ok_or_else(|| {
                Error::InvalidChallenge(format!("-{name} needs a value (-{name}=...)"))
            })
        };
        match name {
            "size" => {
                let v = value_of()?;
                self.size = match v.parse::<u8>() {
                    Ok(n) if (3..=8).contains(&n) => n,
                    _ => {
                        return Err(Error::InvalidChallenge(format!(
                            "-size={v}: boards from 3 to 8 squares a side"
                        )))
                    }
                };
            }
            "blocks" => {
                let v = value_of()?;
                let layout = if v.starts_with("0x") || v.starts_with("0X") {
                    Layout::parse_mask(v)
                        .map_err(|e| Error::InvalidChallenge(format!("-blocks={v}: {e}")))?
                } else {
                    v.parse::<Layout>()
                        .map_err(|e| Error::InvalidChallenge(format!("-blocks={v}: {e}")))?
                };
                self.blocks = (layout.blocks() > 0).then_some(layout);
                self.blocks_text = v.to_string();
            }
            "variant" => match value_of()? {
                "square" => {}
                "hex" => {
                    return Err(Error::InvalidChallenge(
                        "-variant=hex: Hexxagon boards are not offered by this server yet".into(),
                    ))
                }
                v => {
                    return Err(Error::InvalidChallenge(format!(
                        "-variant={v}: variants are square and hex"
                    )))
                }
            },
            "clock" => {
                let v = value_of()?;
                let bad = || {
                    Error::InvalidChallenge(format!(
                        "-clock={v}: give minutes and increment seconds, e.g. -clock=5+3"
                    ))
                };
                let (minutes, increment) = v.split_once('+').ok_or_else(bad)?;
                let minutes: f64 = minutes.parse().map_err(|_| bad())?;
                let increment: i64 = increment.parse().map_err(|_| bad())?;
                if !(0.0..=1440.0).contains(&minutes) || !(0..=600).contains(&increment) {
                    return Err(bad());
                }
                let base = (minutes * 60_000.0) as i64;
                if base == 0 && increment == 0 {
                    return Err(bad());
                }
                self.clock = Some((base, increment * 1000));
            }
            "nagtime" => self.nag_days = days("--nagtime", value_of()?)?,
            "forfeittime" => self.forfeit_days = days("--forfeittime", value_of()?)?,
            "totaltime" => self.total_days = Some(days("--totaltime", value_of()?)?),
            _ => {
                return Err(Error::InvalidChallenge(format!(
                    "unknown option -{name}; options: {OPTION_HELP}"
                )))
            }
        }
        Ok(())
    }

    /// The start position these options give.
    fn start(&self) -> Result<Position> {
        let pos = match self.blocks {
            Some(_) if self.size != 7 => {
                return Err(Error::InvalidChallenge(format!(
                    "-blocks={} needs the 7x7 board (-size=7)",
                    self.blocks_text
                )))
            }
            Some(layout) => layout.start_position(),
            None => Position::start(self.size, ataxx::Bitboard::EMPTY).ok_or_else(|| {
                Error::InvalidChallenge(format!("-size={}: no such board", self.size))
            })?,
        };
        let mut after_x = pos;
        let x_stuck = pos.must_pass();
        after_x.play_unchecked(Move::Pass);
        if x_stuck || after_x.must_pass() || pos.is_game_over() {
            return Err(Error::InvalidChallenge(format!(
                "-blocks={}: a side has no legal move at the start",
                self.blocks_text
            )));
        }
        Ok(pos)
    }
}

/// A board as every door shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    pub board: i64,
    /// The first player (x, moves first).
    pub x: String,
    pub o: String,
    /// `challenge`, `active`, `finished`, `declined` or `withdrawn`.
    pub status: String,
    /// Whose move it is, while the game is in play.
    pub to_move: Option<String>,
    /// Moves recorded so far, automatic passes included. The next move is `#ply+1`.
    pub ply: i64,
    /// Bumped by every change of the board.
    pub version: i64,
    pub fen: String,
    pub start_fen: String,
    pub blocks: String,
    pub x_pieces: u32,
    pub o_pieces: u32,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while unfinished.
    pub result: String,
    /// How a finished game ended: `rules`, `resignation`, `time forfeit`, `agreement`, or empty.
    pub termination: String,
    pub winner: Option<String>,
    pub rated: bool,
    /// Who accepted the challenge so far.
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

#[derive(Clone, Debug, Serialize)]
pub struct Accepted {
    pub x: bool,
    pub o: bool,
}

/// A pending draw or undo proposal.
#[derive(Clone, Debug, Serialize)]
pub struct Proposal {
    /// `draw` or `undo`.
    pub kind: String,
    pub by: String,
}

/// A live game's Fischer clock, as of `as_of_ms`.
#[derive(Clone, Debug, Serialize)]
pub struct LiveClock {
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub x_ms: i64,
    pub o_ms: i64,
    /// The side whose clock runs (`x` or `o`), while the game is in play.
    pub running: Option<String>,
    pub as_of_ms: i64,
}

#[derive(Clone, Debug, Serialize)]
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

/// What a player does on a board with the `move` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move text, read by the tolerant reader against the position.
    Play(String),
    Resign,
    /// Offer a draw.
    Propose,
    /// Ask to take the last move back.
    Undo,
    Accept,
    Reject,
}

impl Action {
    /// Reads a move word: the special words of spec section 5, else move text.
    pub fn parse(word: &str) -> Action {
        match word.to_ascii_lowercase().as_str() {
            "resign" => Action::Resign,
            "propose" | "draw" => Action::Propose,
            "undo" => Action::Undo,
            "accept" => Action::Accept,
            "reject" => Action::Reject,
            _ => Action::Play(word.to_string()),
        }
    }
}

/// An answer to a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
    /// The challenger takes the challenge back.
    Withdraw,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::X => "x",
        Color::O => "o",
    }
}

impl GameRow {
    pub fn position(&self) -> Position {
        self.fen.parse().expect("stored positions are valid FEN")
    }

    pub fn start_position(&self) -> Position {
        self.start_fen
            .parse()
            .expect("stored positions are valid FEN")
    }

    pub fn name_of(&self, color: Color) -> &str {
        match color {
            Color::X => &self.x_name,
            Color::O => &self.o_name,
        }
    }

    /// The colour `user` plays.
    pub fn color_of(&self, user: &str) -> Option<Color> {
        if self.x_name == user {
            Some(Color::X)
        } else if self.o_name == user {
            Some(Color::O)
        } else {
            None
        }
    }

    pub fn to_move(&self) -> Option<&str> {
        (self.status == "active").then(|| self.name_of(self.position().turn()))
    }

    fn remaining_mut(&mut self, color: Color) -> &mut Option<i64> {
        match color {
            Color::X => &mut self.x_remaining_ms,
            Color::O => &mut self.o_remaining_ms,
        }
    }

    fn used_mut(&mut self, color: Color) -> &mut i64 {
        match color {
            Color::X => &mut self.x_used_ms,
            Color::O => &mut self.o_used_ms,
        }
    }

    /// The summary at time `now_ms`.
    pub fn summary(&self, now_ms: i64) -> GameSummary {
        let pos = self.position();
        let active = self.status == "active";
        let clock = self.clock_base_ms.map(|initial_ms| {
            let mut x_ms = self.x_remaining_ms.unwrap_or(initial_ms);
            let mut o_ms = self.o_remaining_ms.unwrap_or(initial_ms);
            if active {
                let elapsed = now_ms - self.last_move_ms.unwrap_or(now_ms);
                match pos.turn() {
                    Color::X => x_ms -= elapsed,
                    Color::O => o_ms -= elapsed,
                }
            }
            LiveClock {
                initial_ms,
                increment_ms: self.clock_increment_ms.unwrap_or(0),
                x_ms: x_ms.max(0),
                o_ms: o_ms.max(0),
                running: active.then(|| color_name(pos.turn()).to_string()),
                as_of_ms: now_ms,
            }
        });
        let winner = match self.result.as_str() {
            "1-0" => Some(self.x_name.clone()),
            "0-1" => Some(self.o_name.clone()),
            _ => None,
        };
        GameSummary {
            board: self.board,
            x: self.x_name.clone(),
            o: self.o_name.clone(),
            status: self.status.clone(),
            to_move: self.to_move().map(str::to_string),
            ply: self.plies,
            version: self.version,
            fen: self.fen.clone(),
            start_fen: self.start_fen.clone(),
            blocks: self.layout.clone(),
            x_pieces: pos.pieces(Color::X).count(),
            o_pieces: pos.pieces(Color::O).count(),
            result: self.result.clone(),
            termination: self.termination.clone(),
            winner,
            rated: self.rated,
            accepted: Accepted {
                x: self.x_accepted,
                o: self.o_accepted,
            },
            proposal: (!self.proposal.is_empty()).then(|| Proposal {
                kind: self.proposal.clone(),
                by: self.proposal_by.clone(),
            }),
            clock,
            correspondence: Correspondence {
                nag_days: self.nag_days,
                forfeit_days: self.forfeit_days,
                total_days: self.total_days,
            },
            reminded: active && self.nagged_ply == self.plies,
            x_used_ms: self.x_used_ms,
            o_used_ms: self.o_used_ms,
            created_ms: self.created_ms,
            started_ms: self.started_ms,
            last_move_ms: self.last_move_ms,
            finished_ms: self.finished_ms,
            x_rating_change: self.x_rating_change,
            o_rating_change: self.o_rating_change,
        }
    }
}

/// A deadline that has passed on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Due {
    /// The player to move loses on time; or the game is drawn when a draw offer was still
    /// unanswered at the correspondence forfeit time (spec section 8).
    Forfeit { draw: bool },
    /// The player to move gets a reminder.
    Nag,
}

impl GameRow {
    /// The deadline that has passed at `now`, if any: a live flag, the total time, the
    /// correspondence forfeit time, or (when `remind`) the nag time.
    fn due(&self, now: i64, remind: bool) -> Option<Due> {
        if self.status != "active" {
            return None;
        }
        let turn = self.position().turn();
        let idle = now - self.last_move_ms.or(self.started_ms).unwrap_or(now);
        let (remaining, used) = match turn {
            Color::X => (self.x_remaining_ms, self.x_used_ms),
            Color::O => (self.o_remaining_ms, self.o_used_ms),
        };
        let flag_fell = remaining.is_some_and(|remaining| remaining - idle <= 0);
        let total_spent = self
            .total_days
            .is_some_and(|days| used + idle > days * DAY_MS);
        let correspondence = self.clock_base_ms.is_none();
        let forfeit = correspondence && idle >= self.forfeit_days * DAY_MS;
        if flag_fell || total_spent || forfeit {
            return Some(Due::Forfeit {
                draw: forfeit && self.proposal == "draw",
            });
        }
        let nag = correspondence && idle >= self.nag_days * DAY_MS && self.nagged_ply != self.plies;
        (remind && nag).then_some(Due::Nag)
    }
}

/// The game service.
#[derive(Clone)]
pub struct Games {
    storage: Storage,
    clock: Arc<Clock>,
    hub: Hub,
}

/// A change made in a transaction, announced once it is committed.
struct Change {
    kind: EventKind,
    game: GameRow,
}

impl Games {
    pub fn new(storage: Storage, clock: Arc<Clock>, hub: Hub) -> Games {
        Games {
            storage,
            clock,
            hub,
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    fn announce(&self, changes: Vec<Change>) -> GameSummary {
        let now = self.now_ms();
        let mut last = None;
        for change in changes {
            let summary = change.game.summary(now);
            self.hub.publish(Event::new(change.kind, summary.clone()));
            last = Some(summary);
        }
        last.expect("every change announces at least one event")
    }

    /// Starts a challenge between `x` (moves first) and `o`. `by`, when the request is
    /// authenticated as one of them, counts as that player's acceptance.
    pub async fn challenge(
        &self,
        x: &str,
        o: &str,
        options: &ChallengeOptions,
        by: Option<&str>,
    ) -> Result<GameSummary> {
        let x = crate::accounts::normalize_userid(x)?;
        let o = crate::accounts::normalize_userid(o)?;
        if x == o {
            return Err(Error::InvalidChallenge(format!("{x} cannot play themself")));
        }
        let start = options.start()?;
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let mut accepted = [false; 2];
        for (seat, name) in [&x, &o].into_iter().enumerate() {
            let user = storage::user(&mut tx.tx, name)
                .await?
                .ok_or_else(|| Error::InvalidChallenge(format!("no user {name:?}")))?;
            if crate::accounts::is_closed(&user) {
                return Err(Error::InvalidChallenge(format!(
                    "{name}'s account is closed"
                )));
            }
            if user.refuses_challenges {
                return Err(Error::InvalidChallenge(format!(
                    "{name} refuses challenges"
                )));
            }
            limits::check(&mut tx.tx, &user).await?;
            accepted[seat] = by == Some(name.as_str());
        }
        let fen = start.to_string();
        let game = GameRow {
            board: storage::next_board(&mut tx.tx).await?,
            x_name: x,
            o_name: o,
            x_accepted: accepted[0],
            o_accepted: accepted[1],
            status: "challenge".into(),
            layout: options.blocks_text.clone(),
            start_fen: fen.clone(),
            fen,
            plies: 0,
            version: 1,
            result: "*".into(),
            termination: String::new(),
            rated: true,
            nag_days: options.nag_days,
            forfeit_days: options.forfeit_days,
            total_days: options.total_days,
            clock_base_ms: options.clock.map(|c| c.0),
            clock_increment_ms: options.clock.map(|c| c.1),
            x_remaining_ms: options.clock.map(|c| c.0),
            o_remaining_ms: options.clock.map(|c| c.0),
            x_used_ms: 0,
            o_used_ms: 0,
            proposal: String::new(),
            proposal_by: String::new(),
            nagged_ply: -1,
            created_ms: now,
            started_ms: None,
            last_move_ms: None,
            finished_ms: None,
            x_rating_change: None,
            o_rating_change: None,
        };
        storage::insert_game(&mut tx.tx, &game).await?;
        tx.commit().await?;
        tracing::info!(board = game.board, x = %game.x_name, o = %game.o_name, "challenge");
        Ok(self.announce(vec![Change {
            kind: EventKind::Challenge,
            game,
        }]))
    }

    async fn load(conn: &mut AnyConnection, board: i64) -> Result<GameRow> {
        storage::game(conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))
    }

    /// Accepts, declines or withdraws a challenge.
    pub async fn answer(&self, board: i64, user: &str, answer: Answer) -> Result<GameSummary> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let mut game = Self::load(&mut tx.tx, board).await?;
        let color = seat_of(&game, board, user)?;
        if game.status != "challenge" {
            return Err(Error::NotAChallenge {
                board,
                status: game.status,
            });
        }
        let kind = match answer {
            Answer::Accept => {
                if let (false, Some(row)) = (
                    if color == Color::X {
                        game.x_accepted
                    } else {
                        game.o_accepted
                    },
                    storage::user(&mut tx.tx, user).await?,
                ) {
                    limits::check(&mut tx.tx, &row).await?;
                }
                match color {
                    Color::X => game.x_accepted = true,
                    Color::O => game.o_accepted = true,
                }
                if game.x_accepted && game.o_accepted {
                    game.status = "active".into();
                    game.started_ms = Some(now);
                    game.last_move_ms = Some(now);
                    EventKind::Started
                } else {
                    EventKind::Challenge
                }
            }
            Answer::Decline => {
                game.status = "declined".into();
                game.finished_ms = Some(now);
                EventKind::Cancelled
            }
            Answer::Withdraw => {
                let accepted = match color {
                    Color::X => game.x_accepted,
                    Color::O => game.o_accepted,
                };
                if !accepted {
                    return Err(Error::Command(format!(
                        "{user} has not accepted board {board}: decline it instead"
                    )));
                }
                game.status = "withdrawn".into();
                game.finished_ms = Some(now);
                EventKind::Cancelled
            }
        };
        game.version += 1;
        storage::update_game(&mut tx.tx, &game).await?;
        tx.commit().await?;
        Ok(self.announce(vec![Change { kind, game }]))
    }

    /// A player's action on a board: a move, resign, or a draw/undo proposal or answer.
    /// `guard` is the `#N` of the command: the number this move would get.
    pub async fn act(
        &self,
        board: i64,
        user: &str,
        action: &Action,
        guard: Option<i64>,
    ) -> Result<GameSummary> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let mut game = Self::load(&mut tx.tx, board).await?;
        let color = seat_of(&game, board, user)?;
        if game.status != "active" {
            return Err(Error::NotInPlay {
                board,
                status: game.status,
            });
        }
        if let Some(given) = guard {
            if given != game.plies + 1 {
                return Err(Error::Guard {
                    board,
                    given,
                    expected: game.plies + 1,
                });
            }
        }
        // A flag that fell before this command ends the game first.
        if let Some(due) = game.due(now, false) {
            let change = Self::apply_deadline(&mut tx.tx, &mut game, due, now).await?;
            tx.commit().await?;
            self.announce(vec![change]);
            return Err(Error::NotInPlay {
                board,
                status: format!("finished ({})", game.termination),
            });
        }
        let pos = game.position();
        let mut changes = Vec::new();
        match action {
            Action::Play(text) => {
                if pos.turn() != color {
                    return Err(Error::NotYourTurn {
                        board,
                        user: user.to_string(),
                        to_move: game.name_of(pos.turn()).to_string(),
                    });
                }
                if Move::parse_tolerant(text) == Ok(Move::Pass) {
                    return Err(Error::PassRefused);
                }
                let mv = pos.parse_move(text)?;
                let moves = Self::play_with_passes(&mut tx.tx, &mut game, mv, now).await?;
                changes.push(Change {
                    kind: EventKind::Moves { moves },
                    game: game.clone(),
                });
                Self::play_queued(&mut tx.tx, &mut game, now, &mut changes).await?;
            }
            Action::Resign => {
                Self::finish(&mut tx.tx, &mut game, Some(!color), "resignation", now).await?;
            }
            Action::Propose | Action::Undo => {
                let kind = if *action == Action::Propose {
                    "draw"
                } else {
                    "undo"
                };
                if !game.proposal.is_empty() {
                    return Err(Error::Proposal(
                        "a proposal is pending: accept or reject it first",
                    ));
                }
                if kind == "undo"
                    && storage::moves(&mut tx.tx, board)
                        .await?
                        .iter()
                        .all(|m| m.auto)
                {
                    return Err(Error::Proposal("there is no move to take back"));
                }
                game.proposal = kind.into();
                game.proposal_by = user.to_string();
                game.version += 1;
                changes.push(Change {
                    kind: EventKind::Proposal,
                    game: game.clone(),
                });
            }
            Action::Accept | Action::Reject => {
                if game.proposal.is_empty() {
                    return Err(Error::Proposal("there is no proposal to answer"));
                }
                if game.proposal_by == user {
                    return Err(Error::Proposal(
                        "you made this proposal: your opponent answers it",
                    ));
                }
                let proposal = std::mem::take(&mut game.proposal);
                game.proposal_by.clear();
                game.version += 1;
                match (action, proposal.as_str()) {
                    (Action::Accept, "draw") => {
                        Self::finish(&mut tx.tx, &mut game, None, "agreement", now).await?;
                    }
                    (Action::Accept, _) => {
                        Self::undo_last(&mut tx.tx, &mut game).await?;
                        changes.push(Change {
                            kind: EventKind::Undone,
                            game: game.clone(),
                        });
                    }
                    _ => changes.push(Change {
                        kind: EventKind::Proposal,
                        game: game.clone(),
                    }),
                }
            }
        }
        if game.status == "finished" {
            changes.push(Change {
                kind: EventKind::Ended,
                game: game.clone(),
            });
        }
        storage::update_game(&mut tx.tx, &game).await?;
        tx.commit().await?;
        Ok(self.announce(changes))
    }

    /// Plays a legal move, then the forced passes after it, and ends the game if it is over.
    /// Charges the mover's clock.
    async fn play_with_passes(
        conn: &mut AnyConnection,
        game: &mut GameRow,
        mv: Move,
        now: i64,
    ) -> Result<Vec<MoveRow>> {
        let mut pos = game.position();
        let mover = pos.turn();
        let elapsed = (now - game.last_move_ms.unwrap_or(now)).max(0);
        *game.used_mut(mover) += elapsed;
        let increment = game.clock_increment_ms.unwrap_or(0);
        if let Some(remaining) = game.remaining_mut(mover) {
            *remaining += increment - elapsed;
        }
        let mut recorded = Vec::new();
        let mut next = (mv, false);
        loop {
            let (mv, auto) = next;
            let row = MoveRow {
                ply: game.plies + 1,
                mv: mv.to_string(),
                auto,
                flips: pos.flips(mv).count() as i64,
                at_ms: now,
            };
            pos.play_unchecked(mv);
            storage::insert_move(conn, game.board, &row).await?;
            game.plies += 1;
            recorded.push(row);
            if pos.is_game_over() || !pos.must_pass() {
                break;
            }
            next = (Move::Pass, true);
        }
        game.fen = pos.to_string();
        game.last_move_ms = Some(now);
        game.proposal.clear();
        game.proposal_by.clear();
        game.version += 1;
        if let Some(outcome) = pos.outcome() {
            let winner = match outcome {
                Outcome::Win(color) => Some(color),
                Outcome::Draw => None,
            };
            Self::finish(conn, game, winner, "rules", now).await?;
        }
        Ok(recorded)
    }

    /// Plays the queued move of the player now to move, and so on while there is one. A queued
    /// move that is illegal here, or whose guard does not match, is dropped.
    async fn play_queued(
        conn: &mut AnyConnection,
        game: &mut GameRow,
        now: i64,
        changes: &mut Vec<Change>,
    ) -> Result<()> {
        while game.status == "active" {
            let pos = game.position();
            let player = game.name_of(pos.turn()).to_string();
            let Some(queued) = storage::take_queued_move(conn, game.board, &player).await? else {
                return Ok(());
            };
            let mv = match pos.parse_move(&queued.mv) {
                Ok(mv) if queued.guard.is_none_or(|n| n == game.plies + 1) => mv,
                _ => {
                    tracing::info!(board = game.board, %player, mv = %queued.mv, "queued move dropped");
                    return Ok(());
                }
            };
            let moves = Self::play_with_passes(conn, game, mv, now).await?;
            changes.push(Change {
                kind: EventKind::Moves { moves },
                game: game.clone(),
            });
        }
        Ok(())
    }

    /// Stores a move to be played when it becomes `user`'s turn; on their turn it is played at
    /// once (spec section 3, `queue`). Returns the board and whether the move was stored.
    pub async fn queue(
        &self,
        board: i64,
        user: &str,
        text: &str,
        guard: Option<i64>,
    ) -> Result<(GameSummary, bool)> {
        let mv = Move::parse_tolerant(text).map_err(ataxx::MoveError::from)?;
        if mv == Move::Pass {
            return Err(Error::PassRefused);
        }
        let game = self.row(board).await?;
        if game.color_of(user).is_some() && game.to_move() == Some(user) {
            let game = self
                .act(board, user, &Action::Play(text.to_string()), guard)
                .await?;
            return Ok((game, false));
        }
        let mut tx = self.storage.write().await?;
        let game = Self::load(&mut tx.tx, board).await?;
        if game.color_of(user).is_none() {
            return Err(Error::NotAPlayer {
                board,
                user: user.to_string(),
            });
        }
        if game.status != "active" {
            return Err(Error::NotInPlay {
                board,
                status: game.status,
            });
        }
        let queued = storage::QueuedMove {
            mv: mv.to_string(),
            guard,
        };
        storage::queue_move(&mut tx.tx, board, user, &queued).await?;
        tx.commit().await?;
        Ok((game.summary(self.now_ms()), true))
    }

    /// Ends a game and rates it.
    async fn finish(
        conn: &mut AnyConnection,
        game: &mut GameRow,
        winner: Option<Color>,
        termination: &str,
        now: i64,
    ) -> Result<()> {
        game.status = "finished".into();
        game.result = match winner {
            Some(Color::X) => "1-0",
            Some(Color::O) => "0-1",
            None => "1/2-1/2",
        }
        .into();
        game.termination = termination.into();
        game.finished_ms = Some(now);
        game.proposal.clear();
        game.proposal_by.clear();
        game.version += 1;
        ratings::record_result(conn, game, winner, now).await?;
        tracing::info!(board = game.board, result = %game.result, termination, "game over");
        Ok(())
    }

    /// Takes back the last move a player made and the automatic passes after it.
    async fn undo_last(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
        let moves = storage::moves(conn, game.board).await?;
        let Some(last) = moves.iter().rposition(|m| !m.auto) else {
            return Err(Error::Proposal("there is no move to take back"));
        };
        let mut pos = game.start_position();
        for row in &moves[..last] {
            let mv: Move = row.mv.parse().expect("stored moves are strict move text");
            pos.play_unchecked(mv);
        }
        storage::delete_moves_from(conn, game.board, moves[last].ply).await?;
        storage::clear_queued_moves(conn, game.board).await?;
        game.plies = moves[last].ply - 1;
        game.fen = pos.to_string();
        game.nagged_ply = -1;
        Ok(())
    }

    /// Ends a game whose player to move ran out of time (live clock, total time, or the
    /// correspondence forfeit time), or reminds them at the nag time. Returns the change made.
    async fn apply_deadline(
        conn: &mut AnyConnection,
        game: &mut GameRow,
        due: Due,
        now: i64,
    ) -> Result<Change> {
        let turn = game.position().turn();
        let kind = match due {
            Due::Forfeit { draw } => {
                let (winner, termination) = match draw {
                    true => (None, "agreement"),
                    false => (Some(!turn), "time forfeit"),
                };
                Self::finish(conn, game, winner, termination, now).await?;
                EventKind::Ended
            }
            Due::Nag => {
                game.nagged_ply = game.plies;
                game.version += 1;
                let user = game.name_of(turn).to_string();
                tracing::info!(board = game.board, %user, "nag");
                EventKind::Nag { user }
            }
        };
        storage::update_game(conn, game).await?;
        Ok(Change {
            kind,
            game: game.clone(),
        })
    }

    /// Applies every deadline that has passed (the background sweeper calls this).
    pub async fn sweep(&self) -> Result<usize> {
        let boards = {
            let mut conn = self.storage.read().await?;
            storage::open_boards(&mut conn).await?
        };
        let mut changed = 0;
        let now = self.now_ms();
        // Only boards found due take the write lock, and are checked again under it.
        for candidate in boards.iter().filter(|g| g.due(now, true).is_some()) {
            let now = self.now_ms();
            let mut tx = self.storage.write().await?;
            let mut game = Self::load(&mut tx.tx, candidate.board).await?;
            if let Some(due) = game.due(now, true) {
                let change = Self::apply_deadline(&mut tx.tx, &mut game, due, now).await?;
                tx.commit().await?;
                self.announce(vec![change]);
                changed += 1;
            }
        }
        Ok(changed)
    }

    /// Adds a chat line to a board (players only).
    pub async fn chat(&self, board: i64, user: &str, body: &str) -> Result<ChatRow> {
        let body = body.trim();
        if body.is_empty() {
            return Err(Error::Command("chat needs a message".into()));
        }
        if body.len() > MAX_CHAT {
            return Err(Error::TooLong {
                what: "a chat message",
                max: MAX_CHAT,
            });
        }
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let mut game = Self::load(&mut tx.tx, board).await?;
        if game.color_of(user).is_none() {
            return Err(Error::NotAPlayer {
                board,
                user: user.to_string(),
            });
        }
        let chat = storage::insert_chat(&mut tx.tx, board, user, now, body).await?;
        game.version += 1;
        storage::update_game(&mut tx.tx, &game).await?;
        tx.commit().await?;
        self.announce(vec![Change {
            kind: EventKind::Chat { chat: chat.clone() },
            game,
        }]);
        Ok(chat)
    }

    pub async fn row(&self, board: i64) -> Result<GameRow> {
        let mut conn = self.storage.read().await?;
        Self::load(&mut conn, board).await
    }

    pub async fn summary(&self, board: i64) -> Result<GameSummary> {
        Ok(self.row(board).await?.summary(self.now_ms()))
    }

    /// A board with its moves and chat.
    pub async fn view(&self, board: i64) -> Result<GameView> {
        let mut conn = self.storage.read().await?;
        let game = Self::load(&mut conn, board).await?;
        let moves = storage::moves(&mut conn, board).await?;
        let chat = storage::chat(&mut conn, board).await?;
        Ok(GameView {
            summary: game.summary(self.now_ms()),
            moves,
            chat,
            subscribers: self.hub.subscribers(board),
        })
    }

    /// Loads the subscriptions into the event hub (at start).
    pub async fn load_subscriptions(&self) -> Result<()> {
        let mut conn = self.storage.read().await?;
        for (board, name) in storage::subscriptions(&mut conn).await? {
            self.hub.set_subscription(board, &name, true);
        }
        Ok(())
    }

    /// Starts or stops `user` following a board's events (spec section 3, `subscribe`).
    pub async fn subscribe(&self, board: i64, user: &str, on: bool) -> Result<GameSummary> {
        let mut tx = self.storage.write().await?;
        let game = Self::load(&mut tx.tx, board).await?;
        storage::set_subscription(&mut tx.tx, board, user, on).await?;
        tx.commit().await?;
        self.hub.set_subscription(board, user, on);
        Ok(game.summary(self.now_ms()))
    }

    /// The board as a game record, for PGN (the project dialect) and the 1995 two-column record:
    /// x's player is `Black`, o's `White`, as project PGN names them.
    pub async fn record(&self, board: i64) -> Result<ataxx::Game> {
        let view = self.view(board).await?;
        let game = &view.summary;
        let mut record = ataxx::Game::new(
            game.start_fen
                .parse()
                .expect("stored positions are valid FEN"),
        );
        record.set_tag("Event", format!("ataxx server board {board}"));
        record.set_tag("Site", "ataxx server");
        if let Some(started) = game.started_ms {
            record.set_tag(
                "Date",
                crate::board::timestamp(started)[..10].replace('-', "."),
            );
        }
        record.set_tag("Black", &game.x);
        record.set_tag("White", &game.o);
        for row in &view.moves {
            let mv: Move = row.mv.parse().expect("stored moves are strict move text");
            record.push(mv).expect("stored moves replay");
        }
        record.set_result(match game.result.as_str() {
            "1-0" => ataxx::GameResult::Win(Color::X),
            "0-1" => ataxx::GameResult::Win(Color::O),
            "1/2-1/2" => ataxx::GameResult::Draw,
            _ => ataxx::GameResult::Unfinished,
        });
        record.set_termination(match game.termination.as_str() {
            "resignation" => Some(ataxx::Termination::Resignation),
            "time forfeit" => Some(ataxx::Termination::TimeForfeit),
            _ => None,
        });
        Ok(record)
    }

    pub async fn list(&self, filter: &GameFilter) -> Result<Vec<GameSummary>> {
        let mut conn = self.storage.read().await?;
        let now = self.now_ms();
        Ok(storage::games(&mut conn, filter)
            .await?
            .iter()
            .map(|g| g.summary(now))
            .collect())
    }
}

/// The colour `user` plays on `board`, or the refusal for someone who is not one of its players.
fn seat_of(game: &GameRow, board: i64, user: &str) -> Result<Color> {
    game.color_of(user).ok_or_else(|| Error::NotAPlayer {
        board,
        user: user.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(pairs: &[(&str, &str)]) -> Result<ChallengeOptions> {
        let mut options = ChallengeOptions::default();
        for (name, value) in pairs {
            options.set(name, Some(value))?;
        }
        Ok(options)
    }

    #[test]
    fn challenge_options_give_the_spec_start_positions() {
        let h = options(&[("blocks", "h")]).unwrap();
        assert_eq!(
            h.start().unwrap().to_string(),
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"
        );
        let mask = options(&[("blocks", "0x7888")]).unwrap();
        assert_eq!(
            mask.start().unwrap().to_string(),
            "x2-2o/3-3/3-3/---1---/3-3/3-3/o2-2x x 0 1"
        );
        let live = options(&[("clock", "5+3"), ("nagtime", "2")]).unwrap();
        assert_eq!((live.clock, live.nag_days), (Some((300_000, 3_000)), 2));
        assert_eq!(
            options(&[("size", "5")]).unwrap().start().unwrap().size(),
            5
        );
    }

    #[test]
    fn challenge_options_refuse_what_the_spec_refuses() {
        let refused = |pairs: &[(&str, &str)], needle: &str| {
            let err = options(pairs)
                .and_then(|o| o.start())
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{pairs:?}: {err}");
        };
        refused(&[("size", "5"), ("blocks", "h")], "needs the 7x7 board");
        refused(&[("blocks", "0x0001")], "-blocks=0x0001");
        refused(&[("size", "9")], "-size=9");
        refused(
            &[("blocks", "abcdefgh")],
            "a side has no legal move at the start",
        );
        refused(&[("variant", "hex")], "Hexxagon");
        refused(&[("clock", "5")], "-clock=5");
        refused(&[("forfeittime", "0")], "--forfeittime=0");
        refused(&[("colour", "red")], "unknown option -colour");
    }
}
