//! Games: challenges, moves with the `#N` guard, automatic passes, resignation, draw and undo
//! proposals, live clocks, correspondence deadlines.
//!
//! A board stores its game's name and positions as FEN; every rule (whose turn, legal moves,
//! passes, eliminations, the outcome, seat swaps) comes from the game's
//! [`games::AnyPosition`], so this module never asks which game it runs.
//!
//! Each change runs in one write transaction that is committed before the change is answered
//! or announced, so an acknowledged move survives a crash.

use std::sync::Arc;

use games::{AnyPosition, GameKind, Outcome, Seat, StartOptions};

use crate::domain::clock::Clock;
use crate::domain::publish;
use crate::domain::ratings;
use crate::error::{Error, Result};
use crate::events::Publisher;
use crate::model::Status;
pub use crate::model::{
    Accepted, Correspondence, GameSummary, GameView, LiveClock, Proposal, SeatSummary,
};
use crate::model::{ChatRow, GameFilter, GameRow, MoveRow, SeatRow};
use crate::model::{Event, EventKind};
use crate::store::{self, Storage, WriteTx};

mod closing;
mod limits;
mod proposals;
mod queued;
pub use closing::LeftBoards;
use proposals::Decision;

const DAY_MS: i64 = 24 * 3600 * 1000;
/// The longest chat message.
pub const MAX_CHAT: usize = 2000;
/// The text of a pass in every game's notation.
const PASS: &str = "0000";

/// The options of a challenge (spec sections 8 and 10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// The game: named by the command's first word, or by `-variant=hex` / `-players=4`.
    pub game: GameKind,
    /// What the game itself reads: size and blocked cells. The game refuses what it cannot
    /// honour when the board is set up.
    pub start: StartOptions,
    /// Blocked cells as given (`0` = none).
    pub blocks_text: String,
    /// Live game: Fischer clock with this much time and increment per move.
    pub clock: Option<(i64, i64)>,
    pub nag_days: i64,
    pub forfeit_days: i64,
    pub total_days: Option<i64>,
}

impl Default for ChallengeOptions {
    fn default() -> Self {
        ChallengeOptions::new(GameKind::Ataxx)
    }
}

/// The options every challenge accepts besides its game's own, listed in refusals.
pub const OPTION_HELP: &str = "-size=<n>, -blocks=<layout>, -variant=square|hex, -players=2|4, \
     -win_height=0|1|-1 (ankor), -clock=<minutes>+<seconds increment> (live game), \
     --nagtime=<days>, --forfeittime=<days>, --totaltime=<days>";

fn days(name: &str, value: &str) -> Result<i64> {
    match value.parse::<i64>() {
        Ok(n) if (1..=365).contains(&n) => Ok(n),
        _ => Err(Error::InvalidChallenge(format!(
            "{name}={value}: give a number of days from 1 to 365"
        ))),
    }
}

/// The game another name selects (`-variant=hex` is Hexxagon, `-players=4` four-player
/// Ataxx), refused with `what` when this build has no such game.
fn game_named(name: &str, what: &str) -> Result<GameKind> {
    name.parse::<GameKind>().map_err(|_| {
        Error::InvalidChallenge(format!(
            "{what}: {name} is not offered by this server yet (games: {})",
            GameKind::names()
        ))
    })
}

impl ChallengeOptions {
    /// The defaults for a game.
    pub fn new(game: GameKind) -> ChallengeOptions {
        ChallengeOptions {
            game,
            start: StartOptions::default(),
            blocks_text: "0".to_string(),
            clock: None,
            nag_days: 7,
            forfeit_days: 21,
            total_days: None,
        }
    }

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
                self.start.size = Some(v.parse::<u8>().map_err(|_| {
                    Error::InvalidChallenge(format!("-size={v}: give the board size as a number"))
                })?);
            }
            "blocks" => {
                let v = value_of()?;
                self.start.blocks = Some(v.to_string());
                self.blocks_text = v.to_string();
            }
            // Ankor's height up to which a path touches a side (pbmserv.md 10.5).
            "win_height" => {
                let v = value_of()?;
                self.start.win_height = Some(v.parse::<i8>().map_err(|_| {
                    Error::InvalidChallenge(format!("-win_height={v}: give 0, 1 or -1"))
                })?);
            }
            // The spec's aliases (pbmserv.md 10.3, 10.3a): the square game's other boards, which
            // only `ataxx challenge` names that way.
            "variant" | "players" if self.game != GameKind::Ataxx => {
                return Err(Error::InvalidChallenge(format!(
                    "-{name} is an option of ataxx challenge, not of {}",
                    self.game
                )))
            }
            "variant" => match value_of()? {
                "square" => {}
                "hex" => self.game = game_named("hexxagon", "-variant=hex")?,
                v => {
                    return Err(Error::InvalidChallenge(format!(
                        "-variant={v}: variants are square and hex"
                    )))
                }
            },
            "players" => match value_of()? {
                "2" => {}
                "4" => self.game = game_named("ataxx4", "-players=4")?,
                v => {
                    return Err(Error::InvalidChallenge(format!(
                        "-players={v}: games are for 2 or 4 players"
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

    /// The start position these options give, as the game sets it up.
    pub fn start(&self) -> Result<Box<dyn AnyPosition>> {
        self.game.start(&self.start).map_err(|err| {
            Error::InvalidChallenge(match err {
                games::GameError::Option { reason, .. } => reason,
                other => other.to_string(),
            })
        })
    }
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

/// The result text of an outcome: `1-0`, `0-1`, `1/2-1/2` for two seats; the ranks in seat
/// order for more.
pub fn result_text(outcome: &Outcome) -> String {
    if outcome.seats() == 2 {
        return match outcome.winner() {
            Some(Seat(0)) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
        .to_string();
    }
    (0..outcome.seats())
        .map(|i| outcome.rank(Seat(i as u8)).to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// The outcome when `loser` resigns or loses on time: they rank last alone; the others rank by
/// their pieces (with two players, the other simply wins).
fn forfeit_outcome(pos: &dyn AnyPosition, loser: Seat) -> Outcome {
    let scores: Vec<u32> = pos
        .piece_counts()
        .iter()
        .enumerate()
        .map(|(i, pieces)| if i == loser.index() { 0 } else { pieces + 1 })
        .collect();
    Outcome::from_scores(&scores)
}

/// A seat's result from its own side: the best rank alone wins, a best rank shared by every
/// seat is a draw, anything else a loss (a shared first place among some of four seats counts
/// as a win for each of them).
fn seat_outcome(rank: Option<i64>, seats: &[SeatRow]) -> Option<&'static str> {
    let rank = rank?;
    let everyone_first = seats.iter().all(|s| s.rank == Some(1));
    Some(match rank {
        1 if everyone_first => "draw",
        1 => "win",
        _ => "loss",
    })
}

/// The positions of a board from its start: replays the recorded moves, filling in each row's
/// seat and the position after it. Returns the position after the last.
pub fn replay(kind: GameKind, start_fen: &str, moves: &mut [MoveRow]) -> Box<dyn AnyPosition> {
    let mut pos = kind
        .parse_position(start_fen)
        .expect("stored positions are valid FEN");
    for row in moves {
        let played = pos.play(&row.mv).expect("stored moves replay");
        row.seat = played.seat.0;
        row.fen = pos.fen();
    }
    pos
}

impl GameRow {
    /// The board's game.
    pub fn kind(&self) -> GameKind {
        self.game.parse().expect("stored boards name a known game")
    }

    pub fn position(&self) -> Box<dyn AnyPosition> {
        self.kind()
            .parse_position(&self.fen)
            .expect("stored positions are valid FEN")
    }

    pub fn name_of(&self, seat: Seat) -> &str {
        &self.seats[seat.index()].name
    }

    /// The seat `user` plays.
    pub fn seat_of(&self, user: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.name == user)
            .map(|i| Seat(i as u8))
    }

    pub fn to_move(&self) -> Option<&str> {
        (self.status == Status::Active).then(|| self.name_of(self.position().turn()))
    }

    fn seat_mut(&mut self, seat: Seat) -> &mut SeatRow {
        &mut self.seats[seat.index()]
    }

    /// The summary at time `now_ms`.
    pub fn summary(&self, now_ms: i64) -> GameSummary {
        let pos = self.position();
        let active = self.status == Status::Active;
        let turn = pos.turn();
        let pieces = pos.piece_counts();
        let clock_ms = |seat: usize| {
            self.clock_base_ms.map(|initial| {
                let mut ms = self.seats[seat].remaining_ms.unwrap_or(initial);
                if active && turn.index() == seat {
                    ms -= now_ms - self.last_move_ms.unwrap_or(now_ms);
                }
                ms
            })
        };
        let seats: Vec<SeatSummary> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| SeatSummary {
                seat: i as u8,
                name: seat.name.clone(),
                letter: pos.seat_letter(Seat(i as u8)).to_string(),
                accepted: seat.accepted,
                pieces: pieces.get(i).copied().unwrap_or(0),
                used_ms: seat.used_ms,
                clock_ms: clock_ms(i),
                rank: seat.rank,
                outcome: seat_outcome(seat.rank, &self.seats).map(str::to_string),
                rating_change: seat.rating_change,
            })
            .collect();
        let clock = self.clock_base_ms.map(|initial_ms| LiveClock {
            initial_ms,
            increment_ms: self.clock_increment_ms.unwrap_or(0),
            x_ms: clock_ms(0).unwrap_or(initial_ms),
            o_ms: clock_ms(1).unwrap_or(initial_ms),
            running: active.then(|| pos.seat_letter(turn).to_string()),
            as_of_ms: now_ms,
        });
        let firsts: Vec<&SeatRow> = self.seats.iter().filter(|s| s.rank == Some(1)).collect();
        let winner = match firsts[..] {
            [only] if self.status == Status::Finished => Some(only.name.clone()),
            _ => None,
        };
        let seat = |i: usize| &self.seats[i];
        GameSummary {
            board: self.board,
            game: self.game.clone(),
            x: seat(0).name.clone(),
            o: seat(1).name.clone(),
            status: self.status,
            to_move: self.to_move().map(str::to_string),
            turn: active.then(|| pos.seat_letter(turn).to_string()),
            ply: self.plies,
            version: self.version,
            fen: self.fen.clone(),
            start_fen: self.start_fen.clone(),
            blocks: self.layout.clone(),
            legal_moves: if active { pos.legal_moves() } else { vec![] },
            winning_path: pos.winning_cells(),
            x_pieces: seats[0].pieces,
            o_pieces: seats[1].pieces,
            result: self.result.clone(),
            termination: self.termination.clone(),
            winner,
            rated: self.rated,
            unrated_reason: (!self.unrated_reason.is_empty()).then(|| self.unrated_reason.clone()),
            accepted: Accepted {
                x: seat(0).accepted,
                o: seat(1).accepted,
            },
            proposal: (!self.proposal.is_empty()).then(|| Proposal {
                kind: self.proposal.clone(),
                by: self.proposal_agreed()[0].to_string(),
                agreed: self
                    .proposal_agreed()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                waiting: self.proposal_waiting(&*pos),
            }),
            clock,
            correspondence: Correspondence {
                nag_days: self.nag_days,
                forfeit_days: self.forfeit_days,
                total_days: self.total_days,
            },
            reminded: active && self.nagged_ply == self.plies,
            x_used_ms: seat(0).used_ms,
            o_used_ms: seat(1).used_ms,
            created_ms: self.created_ms,
            started_ms: self.started_ms,
            last_move_ms: self.last_move_ms,
            finished_ms: self.finished_ms,
            x_rating_change: seat(0).rating_change,
            o_rating_change: seat(1).rating_change,
            seats,
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
        if self.status != Status::Active {
            return None;
        }
        let turn = self.position().turn();
        let idle = now - self.last_move_ms.or(self.started_ms).unwrap_or(now);
        let seat = &self.seats[turn.index()];
        let (remaining, used) = (seat.remaining_ms, seat.used_ms);
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
    publisher: Publisher,
}

/// A change made in a transaction, announced once it is committed.
struct Change {
    kind: EventKind,
    game: GameRow,
}

impl Games {
    pub fn new(storage: Storage, clock: Arc<Clock>, publisher: Publisher) -> Games {
        Games {
            storage,
            clock,
            publisher,
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Commits a transaction and announces its changes; returns the last change's summary. On a
    /// database several nodes share, a board's row lock orders its commits, so its events
    /// reach every node in version order ([`crate::events::Publisher::Notices`]).
    async fn commit(&self, tx: WriteTx, changes: Vec<Change>) -> Result<GameSummary> {
        let now = self.now_ms();
        let events: Vec<Event> = changes
            .into_iter()
            .map(|change| Event::new(change.kind, change.game.summary(now)))
            .collect();
        let last = events
            .last()
            .map(|event| GameSummary::clone(&event.game))
            .expect("every change announces at least one event");
        publish::commit_events(&self.publisher, tx, events, now).await?;
        Ok(last)
    }

    /// Starts a challenge between `players`, in seat order (the first moves first). `by`, when
    /// the request is authenticated as one of them, counts as that player's acceptance.
    pub async fn challenge(
        &self,
        players: &[String],
        options: &ChallengeOptions,
        by: Option<&str>,
    ) -> Result<GameSummary> {
        let now = self.now_ms();
        let accepted: Vec<&str> = by.into_iter().collect();
        let mut tx = self.storage.write().await?;
        let game = open_board(&mut tx, players, options, &accepted, true, now).await?;
        self.commit_new(tx, game).await
    }

    /// Commits the transaction in which [`open_board`] wrote a board, and announces the board.
    pub(crate) async fn commit_new(&self, tx: WriteTx, game: GameRow) -> Result<GameSummary> {
        let kind = match game.status {
            Status::Active => EventKind::Started,
            _ => EventKind::Challenge,
        };
        self.commit(tx, vec![Change { kind, game }]).await
    }

    async fn load(conn: &mut store::Conn, board: i64) -> Result<GameRow> {
        store::game(conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))
    }

    /// Loads a board to change it in `conn`'s transaction, which holds its row until it ends.
    async fn lock(conn: &mut store::Conn, board: i64) -> Result<GameRow> {
        store::game_for_update(conn, board)
            .await?
            .ok_or(Error::UnknownBoard(board))
    }

    /// Accepts, declines or withdraws a challenge.
    pub async fn answer(&self, board: i64, user: &str, answer: Answer) -> Result<GameSummary> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let mut game = Self::lock(&mut tx, board).await?;
        let seat = seat_of(&game, board, user)?;
        if game.status != Status::Challenge {
            return Err(Error::NotAChallenge {
                board,
                status: game.status.to_string(),
            });
        }
        let kind = match answer {
            Answer::Accept => {
                if let (false, Some(row)) = (
                    game.seat_mut(seat).accepted,
                    store::user(&mut tx, user).await?,
                ) {
                    limits::check(&mut tx, &row).await?;
                }
                game.seat_mut(seat).accepted = true;
                if game.seats.iter().all(|s| s.accepted) {
                    game.status = Status::Active;
                    game.started_ms = Some(now);
                    game.last_move_ms = Some(now);
                    EventKind::Started
                } else {
                    EventKind::Challenge
                }
            }
            Answer::Decline => {
                game.status = Status::Declined;
                game.finished_ms = Some(now);
                EventKind::Cancelled
            }
            Answer::Withdraw => {
                if !game.seat_mut(seat).accepted {
                    return Err(Error::Command(format!(
                        "{user} has not accepted board {board}: decline it instead"
                    )));
                }
                game.status = Status::Withdrawn;
                game.finished_ms = Some(now);
                EventKind::Cancelled
            }
        };
        game.version += 1;
        store::update_game(&mut tx, &mut game).await?;
        self.commit(tx, vec![Change { kind, game }]).await
    }

    /// A player's action on a board: a move, resign, or a draw/undo proposal or answer.
    /// `guard` is the `#N` of the command: the number this move would get. Run again when
    /// PostgreSQL aborts it in a deadlock (a finishing game locks ratings, see `leave_all`).
    pub async fn act(
        &self,
        board: i64,
        user: &str,
        action: &Action,
        guard: Option<i64>,
    ) -> Result<GameSummary> {
        store::retry_conflicts("a player's action", || {
            self.act_once(board, user, action, guard)
        })
        .await
    }

    async fn act_once(
        &self,
        board: i64,
        user: &str,
        action: &Action,
        guard: Option<i64>,
    ) -> Result<GameSummary> {
        let now = self.now_ms();
        let mut tx = self.storage.write().await?;
        let mut game = Self::lock(&mut tx, board).await?;
        let seat = seat_of(&game, board, user)?;
        if game.status != Status::Active {
            return Err(Error::NotInPlay {
                board,
                status: game.status.to_string(),
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
            let change = Self::apply_deadline(&mut tx, &mut game, due, now).await?;
            self.commit(tx, vec![change]).await?;
            return Err(Error::NotInPlay {
                board,
                status: format!("finished ({})", game.termination),
            });
        }
        let pos = game.position();
        let mut changes = Vec::new();
        match action {
            Action::Play(text) => {
                if pos.turn() != seat {
                    return Err(Error::NotYourTurn {
                        board,
                        user: user.to_string(),
                        to_move: game.name_of(pos.turn()).to_string(),
                    });
                }
                let moves = Self::play_with_passes(&mut tx, &mut game, text, now).await?;
                changes.push(Change {
                    kind: EventKind::Moves { moves },
                    game: game.clone(),
                });
                Self::play_queued(&mut tx, &mut game, now, &mut changes).await?;
            }
            Action::Resign => {
                let outcome = forfeit_outcome(&*pos, seat);
                Self::finish(&mut tx, &mut game, &outcome, "resignation", now).await?;
            }
            Action::Propose | Action::Undo => {
                let kind = if *action == Action::Propose {
                    "draw"
                } else {
                    "undo"
                };
                if kind == "undo" && store::moves(&mut tx, board).await?.iter().all(|m| m.auto) {
                    return Err(Error::Proposal("there is no move to take back"));
                }
                game.propose(&*pos, seat, kind)?;
                game.version += 1;
                changes.push(Change {
                    kind: EventKind::Proposal,
                    game: game.clone(),
                });
            }
            Action::Accept | Action::Reject => {
                // Taken first: a rejection clears it, and the offerer is told what was rejected.
                let proposal = game.proposal.clone();
                let decision = match action {
                    Action::Accept => game.accept_proposal(&*pos, seat)?,
                    _ => {
                        game.reject_proposal(&*pos, seat)?;
                        Decision::Waiting
                    }
                };
                if decision == Decision::Agreed {
                    game.clear_proposal();
                }
                game.version += 1;
                match (decision, proposal.as_str()) {
                    (Decision::Agreed, "draw") => {
                        let outcome = game.agreed_draw(&*pos);
                        Self::finish(&mut tx, &mut game, &outcome, "agreement", now).await?;
                    }
                    (Decision::Agreed, _) => {
                        Self::undo_last(&mut tx, &mut game).await?;
                        changes.push(Change {
                            kind: EventKind::Undone,
                            game: game.clone(),
                        });
                    }
                    (Decision::Waiting, _) if matches!(action, Action::Reject) => {
                        changes.push(Change {
                            kind: EventKind::Rejected {
                                proposal: proposal.clone(),
                                by: user.to_string(),
                            },
                            game: game.clone(),
                        })
                    }
                    (Decision::Waiting, _) => changes.push(Change {
                        kind: EventKind::Proposal,
                        game: game.clone(),
                    }),
                }
            }
        }
        if game.status == Status::Finished {
            changes.push(Change {
                kind: EventKind::Ended,
                game: game.clone(),
            });
        }
        store::update_game(&mut tx, &mut game).await?;
        self.commit(tx, changes).await
    }

    /// Plays a legal move given as text, then the forced passes after it (a seat whose only
    /// legal move is the pass), and ends the game if it is over. Charges the mover's clock. A
    /// move that exchanges the seats (Ankor's `swap`) exchanges the players' seat rows.
    async fn play_with_passes(
        conn: &mut store::Conn,
        game: &mut GameRow,
        text: &str,
        now: i64,
    ) -> Result<Vec<MoveRow>> {
        // A game whose FEN forgets history its rules use (Ankor's repetition draw counts
        // earlier positions) is replayed from the start, so that it ends here exactly when a
        // replay of its moves says it ends; the others go on from the stored FEN, without
        // reading every move of the game for each new one.
        let kind = game.kind();
        let mut pos = match kind.fen_forgets_history() {
            true => replay(
                kind,
                &game.start_fen,
                &mut store::moves(conn, game.board).await?,
            ),
            false => game.position(),
        };
        if pos.legal_moves().iter().all(|mv| mv != PASS) {
            let mut probe = pos.clone();
            match probe.play(text) {
                Ok(played) if played.text == PASS => return Err(Error::PassRefused),
                Err(games::GameError::Illegal { text, .. }) if text == PASS => {
                    return Err(Error::PassRefused)
                }
                _ => {}
            }
        }
        let mut played = pos.play(text)?;
        let mover = played.seat;
        let elapsed = (now - game.last_move_ms.unwrap_or(now)).max(0);
        let increment = game.clock_increment_ms.unwrap_or(0);
        let seat = game.seat_mut(mover);
        seat.used_ms += elapsed;
        if let Some(remaining) = &mut seat.remaining_ms {
            *remaining += increment - elapsed;
        }
        let mut recorded = Vec::new();
        let mut auto = false;
        loop {
            let row = MoveRow {
                ply: game.plies + 1,
                mv: played.text.clone(),
                auto,
                flips: i64::from(played.flips),
                at_ms: now,
                seat: played.seat.0,
                fen: pos.fen(),
            };
            store::insert_move(conn, game.board, &row).await?;
            game.plies += 1;
            recorded.push(row);
            if played.swaps_seats {
                game.seats.swap(0, 1);
            }
            if pos.outcome().is_some() || pos.legal_moves() != [PASS] {
                break;
            }
            played = pos.play(PASS)?;
            auto = true;
        }
        game.fen = pos.fen();
        game.last_move_ms = Some(now);
        game.clear_proposal();
        game.version += 1;
        if let Some(outcome) = pos.outcome() {
            Self::finish(conn, game, &outcome, "rules", now).await?;
        }
        Ok(recorded)
    }

    /// Plays the queued move of the player now to move, and so on while there is one. A queued
    /// move that is illegal here, or whose guard does not match, is dropped.
    async fn play_queued(
        conn: &mut store::Conn,
        game: &mut GameRow,
        now: i64,
        changes: &mut Vec<Change>,
    ) -> Result<()> {
        while game.status == Status::Active {
            let pos = game.position();
            let player = game.name_of(pos.turn()).to_string();
            let Some(queued) = store::take_queued_move(conn, game.board, &player).await? else {
                return Ok(());
            };
            let legal = pos.clone().play(&queued.mv).is_ok();
            if !legal || queued.guard.is_some_and(|n| n != game.plies + 1) {
                tracing::info!(board = game.board, %player, mv = %queued.mv, "queued move dropped");
                return Ok(());
            }
            let moves = Self::play_with_passes(conn, game, &queued.mv, now).await?;
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
        let game = self.row(board).await?;
        if game.seat_of(user).is_some() && game.to_move() == Some(user) {
            let game = self
                .act(board, user, &Action::Play(text.to_string()), guard)
                .await?;
            return Ok((game, false));
        }
        let mut tx = self.storage.write().await?;
        let game = Self::lock(&mut tx, board).await?;
        if game.seat_of(user).is_none() {
            return Err(Error::NotAPlayer {
                board,
                user: user.to_string(),
            });
        }
        if game.status != Status::Active {
            return Err(Error::NotInPlay {
                board,
                status: game.status.to_string(),
            });
        }
        // Checked again when it is played; here only that it reads as a move and is no pass.
        let mv = text.trim();
        if mv.is_empty() || mv == PASS || mv == "--" || mv.eq_ignore_ascii_case("pass") {
            return Err(Error::PassRefused);
        }
        let queued = crate::model::QueuedMove {
            mv: mv.to_string(),
            guard,
        };
        store::queue_move(&mut tx, board, user, &queued).await?;
        tx.commit().await?;
        Ok((game.summary(self.now_ms()), true))
    }

    /// Ends a game and rates it.
    async fn finish(
        conn: &mut store::Conn,
        game: &mut GameRow,
        outcome: &Outcome,
        termination: &str,
        now: i64,
    ) -> Result<()> {
        // The clock that ran until now keeps the time actually left.
        if game.status == Status::Active {
            let elapsed = (now - game.last_move_ms.unwrap_or(now)).max(0);
            let seat = game.seat_mut(game.position().turn());
            seat.used_ms += elapsed;
            if let Some(remaining) = &mut seat.remaining_ms {
                *remaining = (*remaining - elapsed).max(0);
            }
            game.last_move_ms = Some(now);
        }
        game.status = Status::Finished;
        game.result = result_text(outcome);
        game.termination = termination.into();
        game.finished_ms = Some(now);
        game.clear_proposal();
        game.version += 1;
        // As on lichess, a game one side never moved in does not count for ratings.
        if game.rated && termination != "rules" {
            if let Some(idle) = Self::seat_that_never_moved(conn, game).await? {
                game.rated = false;
                game.unrated_reason =
                    format!("{idle} never moved: the game does not count for ratings");
            }
        }
        ratings::record_result(conn, game, outcome, now).await?;
        tracing::info!(board = game.board, result = %game.result, termination, "game over");
        Ok(())
    }

    /// The first player who has made no move of their own on a board, if any.
    async fn seat_that_never_moved(
        conn: &mut store::Conn,
        game: &GameRow,
    ) -> Result<Option<String>> {
        let mut moves = store::moves(conn, game.board).await?;
        replay(game.kind(), &game.start_fen, &mut moves);
        let idle = (0..game.seats.len())
            .find(|&seat| !moves.iter().any(|m| !m.auto && usize::from(m.seat) == seat));
        Ok(idle.map(|seat| game.seats[seat].name.clone()))
    }

    /// Takes back the last move a player made and the automatic passes after it.
    async fn undo_last(conn: &mut store::Conn, game: &mut GameRow) -> Result<()> {
        let moves = store::moves(conn, game.board).await?;
        let Some(last) = moves.iter().rposition(|m| !m.auto) else {
            return Err(Error::Proposal("there is no move to take back"));
        };
        let mut kept = moves[..last].to_vec();
        let pos = replay(game.kind(), &game.start_fen, &mut kept);
        // Seat swaps among the moves taken back are undone with them.
        let mut undone = moves[last..].to_vec();
        let mut after = pos.clone();
        for row in &mut undone {
            if after
                .play(&row.mv)
                .expect("stored moves replay")
                .swaps_seats
            {
                game.seats.swap(0, 1);
            }
        }
        store::delete_moves_from(conn, game.board, moves[last].ply).await?;
        store::clear_queued_moves(conn, game.board).await?;
        game.plies = moves[last].ply - 1;
        game.fen = pos.fen();
        game.nagged_ply = -1;
        Ok(())
    }

    /// Ends a game whose player to move ran out of time (live clock, total time, or the
    /// correspondence forfeit time), or reminds them at the nag time. Returns the change made.
    async fn apply_deadline(
        conn: &mut store::Conn,
        game: &mut GameRow,
        due: Due,
        now: i64,
    ) -> Result<Change> {
        let pos = game.position();
        let turn = pos.turn();
        let kind = match due {
            Due::Forfeit { draw } => {
                let (outcome, termination) = match draw {
                    true => (game.agreed_draw(&*pos), "agreement"),
                    false => (forfeit_outcome(&*pos, turn), "time forfeit"),
                };
                Self::finish(conn, game, &outcome, termination, now).await?;
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
        store::update_game(conn, game).await?;
        Ok(Change {
            kind,
            game: game.clone(),
        })
    }

    /// Applies every deadline that has passed (the background sweeper calls this).
    pub async fn sweep(&self) -> Result<usize> {
        let boards = {
            let mut conn = self.storage.read().await?;
            store::open_boards(&mut conn).await?
        };
        let mut changed = 0;
        let now = self.now_ms();
        // Only boards found due take the write lock, and are checked again under it.
        for candidate in boards.iter().filter(|g| g.due(now, true).is_some()) {
            let now = self.now_ms();
            let mut tx = self.storage.write().await?;
            let mut game = Self::lock(&mut tx, candidate.board).await?;
            if let Some(due) = game.due(now, true) {
                let change = Self::apply_deadline(&mut tx, &mut game, due, now).await?;
                self.commit(tx, vec![change]).await?;
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
        let mut game = Self::lock(&mut tx, board).await?;
        if game.seat_of(user).is_none() {
            return Err(Error::NotAPlayer {
                board,
                user: user.to_string(),
            });
        }
        let chat = store::insert_chat(&mut tx, board, user, now, body).await?;
        game.version += 1;
        store::update_game(&mut tx, &mut game).await?;
        let change = Change {
            kind: EventKind::Chat { chat: chat.clone() },
            game,
        };
        self.commit(tx, vec![change]).await?;
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
        let mut moves = store::moves(&mut conn, board).await?;
        replay(game.kind(), &game.start_fen, &mut moves);
        let chat = store::chat(&mut conn, board).await?;
        // From the store, not the hub: on a cluster the hub learns of a change by a notice that
        // may still be on its way when its author asks to see the board.
        let subscribers = store::subscribers(&mut conn, board).await?;
        Ok(GameView {
            summary: game.summary(self.now_ms()),
            moves,
            chat,
            subscribers,
        })
    }

    /// Loads the subscriptions into the event hub, replacing what it held (at start, and on a
    /// cluster node after notices may have been lost).
    pub async fn load_subscriptions(&self) -> Result<()> {
        let mut conn = self.storage.read().await?;
        self.publisher
            .hub()
            .replace_subscriptions(store::subscriptions(&mut conn).await?);
        Ok(())
    }

    /// Starts or stops `user` following a board's events (spec section 3, `subscribe`).
    pub async fn subscribe(&self, board: i64, user: &str, on: bool) -> Result<GameSummary> {
        let mut tx = self.storage.write().await?;
        let game = Self::lock(&mut tx, board).await?;
        store::set_subscription(&mut tx, board, user, on).await?;
        publish::commit_subscription(&self.publisher, tx, board, user, on).await?;
        Ok(game.summary(self.now_ms()))
    }

    pub async fn list(&self, filter: &GameFilter) -> Result<Vec<GameSummary>> {
        let mut conn = self.storage.read().await?;
        let now = self.now_ms();
        Ok(store::games(&mut conn, filter)
            .await?
            .iter()
            .map(|g| g.summary(now))
            .collect())
    }
}

/// Checks the players and writes a new board between them, in seat order. `accepted` names
/// who has accepted already: when that is everyone (a taken seek), the game starts at once and
/// nobody's refusal of challenges stands in the way. `rated` says whether the result counts.
pub(crate) async fn open_board(
    conn: &mut store::Conn,
    players: &[String],
    options: &ChallengeOptions,
    accepted: &[&str],
    rated: bool,
    now: i64,
) -> Result<GameRow> {
    let start = options.start()?;
    if players.len() != start.seats() {
        return Err(Error::InvalidChallenge(format!(
            "{} is played by {} players, not {}",
            options.game,
            start.seats(),
            players.len()
        )));
    }
    let mut names: Vec<String> = Vec::with_capacity(players.len());
    for player in players {
        let name = crate::domain::accounts::normalize_userid(player)?;
        if names.contains(&name) {
            return Err(Error::InvalidChallenge(format!(
                "{name} cannot play themself"
            )));
        }
        names.push(name);
    }
    let everyone_accepted = names.iter().all(|n| accepted.contains(&n.as_str()));
    let mut seats = Vec::with_capacity(names.len());
    for name in names {
        let user = store::user(conn, &name)
            .await?
            .ok_or_else(|| Error::InvalidChallenge(format!("no user {name:?}")))?;
        if crate::domain::accounts::is_closed(&user) {
            return Err(Error::InvalidChallenge(format!(
                "{name}'s account is closed"
            )));
        }
        refuse_a_level_that_does_not_play(&user, options.game)?;
        if user.refuses_challenges && !everyone_accepted {
            return Err(Error::InvalidChallenge(format!(
                "{name} refuses challenges"
            )));
        }
        limits::check(conn, &user).await?;
        seats.push(SeatRow {
            accepted: accepted.contains(&name.as_str()),
            name,
            remaining_ms: options.clock.map(|c| c.0),
            used_ms: 0,
            rank: None,
            rating_change: None,
        });
    }
    let fen = start.fen();
    let mut game = GameRow {
        board: store::next_board(conn).await?,
        game: options.game.name().to_string(),
        seats,
        stored_seats: vec![],
        status: if everyone_accepted {
            Status::Active
        } else {
            Status::Challenge
        },
        layout: options.blocks_text.clone(),
        start_fen: fen.clone(),
        fen,
        plies: 0,
        version: 1,
        result: "*".into(),
        termination: String::new(),
        rated,
        nag_days: options.nag_days,
        forfeit_days: options.forfeit_days,
        total_days: options.total_days,
        clock_base_ms: options.clock.map(|c| c.0),
        clock_increment_ms: options.clock.map(|c| c.1),
        proposal: String::new(),
        proposal_by: String::new(),
        nagged_ply: -1,
        created_ms: now,
        started_ms: everyone_accepted.then_some(now),
        last_move_ms: everyone_accepted.then_some(now),
        finished_ms: None,
        unrated_reason: String::new(),
    };
    store::insert_game(conn, &mut game).await?;
    let names: Vec<&str> = game.seats.iter().map(|s| s.name.as_str()).collect();
    tracing::info!(board = game.board, game = %game.game, players = %names.join(" "), status = %game.status, "new board");
    Ok(game)
}

/// A built-in level's bot would decline a game its level table lacks (`bot-master` in
/// Hexxagon, `bot-medium` in four-player Ataxx): the challenge is refused at once, naming the
/// levels that play the game. Engines played through `ataxx bot` answer for themselves.
fn refuse_a_level_that_does_not_play(user: &crate::model::UserRow, game: GameKind) -> Result<()> {
    let Some(level) = user.bot_level.as_deref() else {
        return Ok(());
    };
    if level == crate::domain::bot_accounts::ENGINE_BOT || ataxx_players::plays(level, game) {
        return Ok(());
    }
    let bots: Vec<String> = ataxx_players::LEVELS
        .iter()
        .filter(|l| ataxx_players::plays(l.name, game))
        .map(crate::domain::bots::account_name)
        .collect();
    Err(Error::InvalidChallenge(format!(
        "{} does not play {game}; the levels that do: {}",
        user.name,
        bots.join(", ")
    )))
}

/// The seat `user` plays on `board`, or the refusal for someone who is not one of its players.
fn seat_of(game: &GameRow, board: i64, user: &str) -> Result<Seat> {
    game.seat_of(user).ok_or_else(|| Error::NotAPlayer {
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
        assert_eq!(h.start().unwrap().fen(), "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
        let mask = options(&[("blocks", "0x7888")]).unwrap();
        assert_eq!(
            mask.start().unwrap().fen(),
            "x2-2o/3-3/3-3/---1---/3-3/3-3/o2-2x x 0 1"
        );
        let live = options(&[("clock", "5+3"), ("nagtime", "2")]).unwrap();
        assert_eq!((live.clock, live.nag_days), (Some((300_000, 3_000)), 2));
        assert_eq!(
            options(&[("size", "5")]).unwrap().start().unwrap().fen(),
            "x3o/5/5/5/o3x x 0 1"
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
        refused(&[("variant", "octagon")], "variants are square and hex");
        refused(&[("players", "3")], "2 or 4 players");
        refused(&[("clock", "5")], "-clock=5");
        refused(&[("forfeittime", "0")], "--forfeittime=0");
        refused(&[("colour", "red")], "unknown option -colour");
    }
}
