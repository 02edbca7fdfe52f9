//! Draw and undo proposals among any number of players (spec section 5: "when every player has
//! accepted, it is carried out; one reject cancels it").
//!
//! With more than two seats, "every player" means every seat still in the game: a seat
//! eliminated (no pieces left) has lost whatever the others agree, so it has no say, and
//! waiting for it would let a proposal hang forever. In two-player games both seats always
//! decide (a player of Ankor has no cube on the board at first).
//!
//! The board's `proposal_by` column holds the proposer followed by each player who accepted
//! since, separated by spaces (userids contain none).

use games::{AnyPosition, Outcome, Seat};

use crate::domain::accounts::BOT_PREFIX;
use crate::error::{Error, Result};
use crate::model::GameRow;

/// What an answer to a proposal leads to.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    /// Every deciding seat has accepted: carry it out.
    Agreed,
    /// Accepted, others still to answer.
    Waiting,
}

impl GameRow {
    /// The players who agree with the pending proposal so far, the proposer first.
    pub fn proposal_agreed(&self) -> Vec<&str> {
        self.proposal_by.split_whitespace().collect()
    }

    /// The seats whose answer a proposal needs.
    fn deciders(&self, pos: &dyn AnyPosition) -> Vec<Seat> {
        let pieces = pos.piece_counts();
        (0..self.seats.len())
            .filter(|&i| self.seats.len() == 2 || pieces.get(i).is_some_and(|&n| n > 0))
            .map(|i| Seat(i as u8))
            .collect()
    }

    /// A draw agreed by the seats still in the game: they share the first rank, and the seats
    /// eliminated before it rank below them (for two players, a plain draw).
    pub fn agreed_draw(&self, pos: &dyn AnyPosition) -> Outcome {
        let deciders = self.deciders(pos);
        let scores: Vec<u32> = (0..self.seats.len())
            .map(|i| u32::from(deciders.contains(&Seat(i as u8))))
            .collect();
        Outcome::from_scores(&scores)
    }

    /// The players who still have to answer the pending proposal.
    pub fn proposal_waiting(&self, pos: &dyn AnyPosition) -> Vec<String> {
        let agreed = self.proposal_agreed();
        self.deciders(pos)
            .into_iter()
            .map(|seat| self.name_of(seat))
            .filter(|name| !agreed.contains(name))
            .map(str::to_string)
            .collect()
    }

    /// Refuses a player eliminated from the game.
    fn check_decides(&self, pos: &dyn AnyPosition, seat: Seat) -> Result<()> {
        match self.deciders(pos).contains(&seat) {
            true => Ok(()),
            false => Err(Error::Proposal(
                "you are out of this game: proposals are for the players still in it",
            )),
        }
    }

    /// `user` (in `seat`) proposes: they count as having accepted.
    pub fn propose(&mut self, pos: &dyn AnyPosition, seat: Seat, kind: &str) -> Result<()> {
        self.check_decides(pos, seat)?;
        self.check_no_computer_decides(pos, kind)?;
        if !self.proposal.is_empty() {
            return Err(Error::Proposal(
                "a proposal is pending: accept or reject it first",
            ));
        }
        self.proposal = kind.into();
        self.proposal_by = self.name_of(seat).to_string();
        Ok(())
    }

    /// `seat` accepts the pending proposal; returns whether everyone needed has now.
    pub fn accept_proposal(&mut self, pos: &dyn AnyPosition, seat: Seat) -> Result<Decision> {
        self.check_pending(pos, seat)?;
        let name = self.name_of(seat).to_string();
        self.check_not_proposer(seat)?;
        if self.proposal_agreed().contains(&name.as_str()) {
            return Err(Error::Proposal(
                "you have accepted this proposal already: the others answer it",
            ));
        }
        self.proposal_by = format!("{} {name}", self.proposal_by);
        Ok(match self.proposal_waiting(pos).is_empty() {
            true => Decision::Agreed,
            false => Decision::Waiting,
        })
    }

    /// `seat` rejects the pending proposal, which ends it.
    pub fn reject_proposal(&mut self, pos: &dyn AnyPosition, seat: Seat) -> Result<()> {
        self.check_pending(pos, seat)?;
        self.check_not_proposer(seat)?;
        self.clear_proposal();
        Ok(())
    }

    /// Refuses a proposal that a computer player would have to answer. The built-in levels
    /// decline every draw offer and takeback (docs/bots.md); the proposer is told so at once,
    /// with the reason, instead of by a bare rejection that comes later.
    fn check_no_computer_decides(&self, pos: &dyn AnyPosition, kind: &str) -> Result<()> {
        let computer = self
            .deciders(pos)
            .into_iter()
            .map(|seat| self.name_of(seat))
            .find(|name| name.starts_with(BOT_PREFIX));
        match computer {
            None => Ok(()),
            Some(bot) => Err(Error::BotDeclines {
                bot: bot.to_string(),
                what: match kind {
                    "draw" => "draw offers",
                    _ => "takebacks",
                },
            }),
        }
    }

    /// Refuses the proposer's own answer.
    fn check_not_proposer(&self, seat: Seat) -> Result<()> {
        if self.proposal_agreed().first() != Some(&self.name_of(seat)) {
            return Ok(());
        }
        Err(Error::Proposal(match self.seats.len() {
            2 => "you made this proposal: your opponent answers it",
            _ => "you made this proposal: the other players answer it",
        }))
    }

    fn check_pending(&self, pos: &dyn AnyPosition, seat: Seat) -> Result<()> {
        if self.proposal.is_empty() {
            return Err(Error::Proposal("there is no proposal to answer"));
        }
        self.check_decides(pos, seat)
    }

    pub fn clear_proposal(&mut self) {
        self.proposal.clear();
        self.proposal_by.clear();
    }
}
