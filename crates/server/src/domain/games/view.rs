//! Reading a stored board: its game and position, its players, the result text, the
//! replayed moves, and the summary every door shows.

use games::{AnyPosition, GameKind, Outcome, Seat};

use super::FIRST_MOVE_MS;
use crate::domain::accounts::BOT_PREFIX;

use crate::model::{
    Accepted, Correspondence, GameRow, GameSummary, LiveClock, MoveRow, Proposal, SeatRow,
    SeatSummary, Status,
};

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
pub(super) fn forfeit_outcome(pos: &dyn AnyPosition, loser: Seat) -> Outcome {
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
pub fn seat_outcome(rank: Option<i64>, seats: &[SeatRow]) -> Option<&'static str> {
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

    pub(super) fn seat_mut(&mut self, seat: Seat) -> &mut SeatRow {
        &mut self.seats[seat.index()]
    }

    /// Whether this is a live game whose player to move has not made a first move yet: that
    /// player's clock does not run, a first-move deadline does ([`FIRST_MOVE_MS`]).
    pub(crate) fn awaits_first_move(&self) -> bool {
        self.status == Status::Active
            && self.clock_base_ms.is_some()
            && self.plies < self.seats.len() as i64
    }

    /// The summary at time `now_ms`.
    pub fn summary(&self, now_ms: i64) -> GameSummary {
        let pos = self.position();
        let active = self.status == Status::Active;
        let ticking = active && !self.awaits_first_move();
        let turn = pos.turn();
        let pieces = pos.piece_counts();
        let clock_ms = |seat: usize| {
            self.clock_base_ms.map(|initial| {
                let mut ms = self.seats[seat].remaining_ms.unwrap_or(initial);
                if ticking && turn.index() == seat {
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
                declines_proposals: seat.name.starts_with(BOT_PREFIX),
            })
            .collect();
        let clock = self.clock_base_ms.map(|initial_ms| LiveClock {
            initial_ms,
            increment_ms: self.clock_increment_ms.unwrap_or(0),
            x_ms: clock_ms(0).unwrap_or(initial_ms),
            o_ms: clock_ms(1).unwrap_or(initial_ms),
            running: ticking.then(|| pos.seat_letter(turn).to_string()),
            first_move_by_ms: self
                .awaits_first_move()
                .then(|| self.last_move_ms.or(self.started_ms).unwrap_or(now_ms) + FIRST_MOVE_MS),
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
