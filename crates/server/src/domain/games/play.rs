//! Playing: a player's action on a board (a move with its `#N` guard, resignation, proposals
//! and their answers), the automatic passes after a move, and queued moves.

use games::{AnyPosition, Seat};

use super::proposals::Decision;
use super::view::{forfeit_outcome, replay};
use super::{require_status, seat_of, Action, Change, Games, PASS};
use crate::error::{Error, Result};
use crate::model::{EventKind, GameRow, GameSummary, MoveRow, Status};
use crate::store::{self, WriteTx};

impl Games {
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
        let started = std::time::Instant::now();
        let summary = store::retry_conflicts("a player's action", || {
            self.act_once(board, user, action, guard)
        })
        .await?;
        if matches!(action, Action::Play(_)) {
            crate::metrics::metrics()
                .move_seconds
                .with_label_values(&[summary.game.as_str()])
                .observe(crate::metrics::seconds_since(started));
        }
        Ok(summary)
    }

    async fn act_once(
        &self,
        board: i64,
        user: &str,
        action: &Action,
        guard: Option<i64>,
    ) -> Result<GameSummary> {
        let now = self.now_ms();
        let (mut tx, mut game) = self.write_board(board).await?;
        let seat = seat_of(&game, board, user)?;
        require_status(&game, Status::Active)?;
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
        // A vacation only ever lifts a deadline, so only one that has passed asks whether its
        // player is away: the move path reads nothing more.
        let due = match game.due(now, false, |_| false) {
            Some(_) => {
                let to_move = game.name_of(game.position().turn()).to_string();
                let paused = store::vacation(&mut tx, &to_move).await?.is_some();
                game.due(now, false, |_| paused)
            }
            None => None,
        };
        if let Some(due) = due {
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
                // With no queued move to follow, nothing reads this move's rows before the
                // commit, so they may go with it.
                let last_play = game.queued_moves == Some(0);
                let moves =
                    Self::play_with_passes(&mut tx, &mut game, text, now, last_play).await?;
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
                let accept = *action == Action::Accept;
                let answered =
                    Self::answer_proposal(&mut tx, &mut game, &*pos, seat, user, accept, now);
                if let Some(kind) = answered.await? {
                    changes.push(Change {
                        kind,
                        game: game.clone(),
                    });
                }
            }
        }
        if game.status == Status::Finished {
            changes.push(Change {
                kind: EventKind::Ended,
                game: game.clone(),
            });
        }
        store::update_game_at_commit(&mut tx, &mut game).await?;
        self.commit(tx, changes).await
    }

    /// Accepts (`accept`) or rejects the pending draw or undo proposal as `user` in `seat`: when
    /// every deciding seat agreed it is carried out, else the players hear of the answer.
    /// Returns the event to announce (none for an agreed draw: the game's end says it).
    async fn answer_proposal(
        tx: &mut store::Conn,
        game: &mut GameRow,
        pos: &dyn AnyPosition,
        seat: Seat,
        user: &str,
        accept: bool,
        now: i64,
    ) -> Result<Option<EventKind>> {
        // Taken first: a rejection clears it, and the offerer is told what was rejected.
        let proposal = game.proposal.clone();
        let decision = if accept {
            game.accept_proposal(pos, seat)?
        } else {
            game.reject_proposal(pos, seat)?;
            Decision::Waiting
        };
        if decision == Decision::Agreed {
            game.clear_proposal();
        }
        game.version += 1;
        Ok(match (decision, proposal.as_str()) {
            (Decision::Agreed, "draw") => {
                let outcome = game.agreed_draw(pos);
                Self::finish(tx, game, &outcome, "agreement", now).await?;
                None
            }
            (Decision::Agreed, _) => {
                Self::undo_last(tx, game).await?;
                Some(EventKind::Undone)
            }
            (Decision::Waiting, _) if !accept => Some(EventKind::Rejected {
                proposal,
                by: user.to_string(),
            }),
            (Decision::Waiting, _) => Some(EventKind::Proposal),
        })
    }

    /// Plays a legal move given as text, then the forced passes after it (a seat whose only
    /// legal move is the pass), and ends the game if it is over. Charges the mover's clock. A
    /// move that exchanges the seats (Ankor's `swap`) exchanges the players' seat rows.
    /// `last_play`: nothing in `tx` reads the board's moves after this play, so on SQLite the
    /// new rows may go with the COMMIT ([`store::insert_move_at_commit`]) unless the game ends
    /// here (finishing it reads them).
    async fn play_with_passes(
        tx: &mut WriteTx,
        game: &mut GameRow,
        text: &str,
        now: i64,
        last_play: bool,
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
                &mut store::moves(tx, game.board).await?,
            ),
            false => game.position(),
        };
        if pos.legal_moves().iter().all(|mv| mv != PASS) {
            let mut probe = pos.clone();
            let read_as_pass = match probe.play(text) {
                Ok(played) => played.text == PASS,
                Err(games::GameError::Illegal { text, .. }) => text == PASS,
                Err(_) => false,
            };
            if read_as_pass {
                return Err(refused_pass(text));
            }
        }
        // A player's clock starts with their first move: the time before it is not theirs.
        let clock_ran = !game.awaits_first_move();
        let mut played = pos.play(text)?;
        let mover = played.seat;
        let elapsed = match clock_ran {
            true => (now - game.last_move_ms.unwrap_or(now)).max(0),
            false => 0,
        };
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
        let outcome = pos.outcome();
        let at_commit = last_play && outcome.is_none();
        for row in &recorded {
            match at_commit {
                true => store::insert_move_at_commit(tx, game.board, row).await?,
                false => store::insert_move(tx, game.board, row).await?,
            }
        }
        game.fen = pos.fen();
        game.last_move_ms = Some(now);
        game.clear_proposal();
        game.version += 1;
        if let Some(outcome) = outcome {
            Self::finish(tx, game, &outcome, "rules", now).await?;
        }
        Ok(recorded)
    }

    /// Plays the queued move of the player now to move, and so on while there is one. A queued
    /// move that is illegal here, or whose guard does not match, is dropped.
    async fn play_queued(
        tx: &mut WriteTx,
        game: &mut GameRow,
        now: i64,
        changes: &mut Vec<Change>,
    ) -> Result<()> {
        // The count read with the board spares a move the look for a queued answer.
        while game.status == Status::Active && game.queued_moves != Some(0) {
            let pos = game.position();
            let player = game.name_of(pos.turn()).to_string();
            let Some(queued) = store::take_queued_move(tx, game.board, &player).await? else {
                return Ok(());
            };
            game.queued_moves = game.queued_moves.map(|n| n - 1);
            let legal = pos.clone().play(&queued.mv).is_ok();
            if !legal || queued.guard.is_some_and(|n| n != game.plies + 1) {
                tracing::info!(board = game.board, %player, mv = %queued.mv, "queued move dropped");
                return Ok(());
            }
            let moves = Self::play_with_passes(tx, game, &queued.mv, now, false).await?;
            changes.push(Change {
                kind: EventKind::Moves { moves },
                game: game.clone(),
            });
        }
        Ok(())
    }

    /// Stores a move to be played when it becomes `user`'s turn; on their turn it is played at
    /// once (spec section 3, `queue`).
    pub async fn queue(
        &self,
        board: i64,
        user: &str,
        text: &str,
        guard: Option<i64>,
    ) -> Result<Queued> {
        let game = self.row(board).await?;
        if game.seat_of(user).is_some() && game.to_move() == Some(user) {
            let game = self
                .act(board, user, &Action::Play(text.to_string()), guard)
                .await?;
            return Ok(Queued::Played(game));
        }
        let (mut tx, game) = self.write_board(board).await?;
        seat_of(&game, board, user)?;
        require_status(&game, Status::Active)?;
        // Checked again when it is played; here only that it reads as a move and is no pass.
        let mv = text.trim();
        if mv.is_empty() || mv == PASS || mv == "--" || mv.eq_ignore_ascii_case("pass") {
            return Err(Error::PassRefused);
        }
        let queued = crate::model::QueuedMove {
            mv: mv.to_string(),
            guard,
        };
        let replaced = store::queued_move_of(&mut tx, board, user).await?;
        store::queue_move(&mut tx, board, user, &queued).await?;
        tx.commit().await?;
        Ok(Queued::Stored {
            game: game.summary(self.now_ms()),
            replaced,
        })
    }
}

/// What `queue` did with a move.
pub enum Queued {
    /// It was the player's turn: the move was played.
    Played(GameSummary),
    /// Stored for the player's turn, in place of the move queued before, if any.
    Stored {
        game: GameSummary,
        replaced: Option<String>,
    },
}

/// Why a move that reads as a pass is refused: a pass spelled out is never the player's to
/// choose; a same-cell pair (`a1a1`) was meant as a move and is told as one that goes nowhere.
fn refused_pass(text: &str) -> Error {
    let text = text.trim();
    let spelled = ["pass", "null", "--", PASS]
        .iter()
        .any(|word| text.eq_ignore_ascii_case(word));
    if spelled {
        Error::PassRefused
    } else {
        Error::MoveGoesNowhere(text.to_string())
    }
}
