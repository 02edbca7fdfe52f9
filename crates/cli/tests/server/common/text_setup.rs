//! Players and boards set up over the text door, as most server tests begin.

use super::served::TextDoor;

/// Test players with their passwords.
pub const ALICE: (&str, &str) = ("alice", "secret-1");
pub const BOB: (&str, &str) = ("bob", "secret-2");
pub const CAROL: (&str, &str) = ("carol", "secret-3");
pub const DAVE: (&str, &str) = ("dave", "secret-4");

impl TextDoor {
    /// Signs up each (userid, password).
    pub fn signup(&mut self, users: &[(&str, &str)]) {
        for (user, password) in users {
            self.ok(&format!("signup {user} {password}"));
        }
    }

    /// Sends `challenge` (a whole command, `<game> challenge ...`) and has each of `players`
    /// accept the board it makes, `board`; returns the last acceptance's reply.
    pub fn start(&mut self, challenge: &str, board: i64, players: &[(&str, &str)]) -> String {
        self.ok(challenge);
        let game = challenge.split_whitespace().next().unwrap_or("ataxx");
        self.accept_as(game, board, players)
    }

    /// Has each of `players` accept the square Ataxx board `board`; returns the last reply.
    pub fn accept(&mut self, board: i64, players: &[(&str, &str)]) -> String {
        self.accept_as("ataxx", board, players)
    }

    fn accept_as(&mut self, game: &str, board: i64, players: &[(&str, &str)]) -> String {
        let mut reply = String::new();
        for (user, password) in players {
            reply = self.ok(&format!("{game} accept {board} {user} {password}"));
        }
        reply
    }
}
