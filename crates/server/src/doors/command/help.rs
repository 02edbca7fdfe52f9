//! The help texts: the commands, a first game, and each game's rules and options.

use games::GameKind;

use crate::doors::render::board;
use crate::error::{Error, Result};

/// `help [commands|tutorial|ataxx]`.
pub(super) fn topic(subject: Option<&str>) -> Result<String> {
    Ok(match subject {
        Some("ataxx") => GAME_HELP.to_string(),
        Some("tutorial") => TUTORIAL.to_string(),
        None | Some("commands") => COMMANDS_HELP.to_string(),
        Some(topic) => {
            return Err(Error::Command(format!(
                "unknown help topic {topic:?}; topics: commands, tutorial, ataxx"
            )))
        }
    })
}

/// `<game> help`: the rules of square Ataxx in words; for every game, its options, how moves
/// are written and its start position.
pub(super) fn game_help(game: GameKind) -> String {
    let mut text = String::new();
    if game == GameKind::Ataxx {
        text.push_str(GAME_HELP);
    }
    text.push_str(&format!(
        "\n{} challenge options: {}. The game refuses what it cannot honour and says why.\n",
        game,
        crate::domain::games::OPTION_HELP
    ));
    if let Ok(start) = game.start(&Default::default()) {
        let moves = start.legal_moves();
        text.push_str(&format!(
            "\nThe start ({} players; the first named moves first); first moves: {}\n\n{}",
            start.seats(),
            moves.iter().take(8).cloned().collect::<Vec<_>>().join(" "),
            board::diagram(&*start, None)
        ));
    }
    text
}

const COMMANDS_HELP: &str = "\
Commands (one per line; words separated by spaces):
  signup <userid> <password> [<address>...]   (with mail: the addresses are confirmed by a
        mail to them before any other mail goes there)
  change password <userid> <current> <new>   (a password has 8 to 128 characters, no
        spaces, quotes or colons)
  change address <userid> <password> [<address>...]   (with mail: confirmed by a mail to
        the new addresses; answer it, or send: confirm address <userid> <token>)
  change mail <userid> <password> <event>...|all|none   (events that mail you: challenge,
        move, chat, nag, end, message)
  message <userid> <password> <to>...   (mails the body to at most 10 users; broadcast
        <userid> <password>: to all)
  reset <userid>|<address>             (forgot the password: mails a reset token to the
        account's confirmed addresses)
  reset <token> <new password>         (sets it with the mailed token, within the hour; every
        session of the account ends)
  signoff <userid> <password>          (or delete)
  vacation <userid> <password> <days>|off   (away: the clocks of your correspondence games
        pause on your turn, 30 days a calendar year; off: back early, unbegun days returned)
  admin ban|unban|close|cheater|uncheater|reset <userid> <password> <user> [<reason>...]
        (reset: mails the user a password reset token)
  admin abort <userid> <password> <board> [<reason>...]
  admin log <userid> <password>        (the server's admins only: see docs/admin.md)
  help [commands|tutorial|ataxx]
  list
  ataxx help
  ataxx challenge [-password=PW] [-size=N] [-blocks=CODE|0xMASK] [-clock=MIN+SEC] <userid1>
        <userid2> [--nagtime=DAYS] [--forfeittime=DAYS] [--totaltime=DAYS]   (userid1 moves
        first, as x; -password= is the first person's, needed where the server mails)
  hexxagon|ataxx4|ankor challenge ...   (the other games; ankor: [-size=3..8]
        [-win_height=0|1|-1], userid1 opens as o; moves d3, d3-f4', swap on move 2)
  ataxx accept|decline|withdraw <board> <userid> <password>
  ataxx accept|reject <userid> <password>    (take or refuse challenges)
  ataxx limit <userid> <password> <n>        (at most n games at once)
  ataxx seek <userid> <password> <n>         (n games with anyone: open seeks taken or posted;
                                              0 withdraws yours; -clock=M+S -color=x|o -unrated)
  ataxx move <board> <userid> <password> <move>[#N]   (also: board, mvoe)
        move words: resign, propose (a draw), undo, accept, reject
  ataxx queue <board> <userid> <password> <move>[#N]   (played when it is your turn;
        also qmove, qboard, moveq, boardq)
  ataxx resign <board> <userid> <password>
  ataxx chat <board> <userid> <password> <message>
  ataxx subscribe|unsubscribe <board> <userid> <password>   (follow a board's events)
  ataxx show <board>[#N]...  |  ataxx show <userid>... [all|active|inactive|next]
  ataxx games [<userid>...] [all|active|inactive|next|open|recent]
  ataxx history  |  ataxx standings  |  ataxx preview <board> <move>...
  ataxx pgn <board>  |  ataxx record <board>   (the game as PGN / as a two-column record)
  tournament list  |  tournament show <id>
  tournament create arena|swiss|league <name> <userid> <password> [game=G] [rounds=N]
        [minutes=M] [clock=M+S | days=D] [rated=yes|no]   (any account; leagues are for
        bot accounts to play in)
  tournament join|withdraw|start <id> <userid> <password>   (start: its creator)
  ataxx analysis <board> [<userid> <password>]   (the computer's analysis of a finished game:
        asked for if not there; a player's password for an unrated game)
Add --json anywhere for a JSON reply.
";

const TUTORIAL: &str = "\
A first game:
  signup alice secret-1
  signup bob secret-2
  ataxx challenge alice bob          -> board 101, alice (x) moves first
  ataxx accept 101 alice secret-1
  ataxx accept 101 bob secret-2
  ataxx move 101 alice secret-1 f6#1  -> #1: this is move 1 (guards against resent moves)
  ataxx move 101 bob secret-2 b6#2
  ataxx show 101
Challenge a computer player: ataxx challenge alice bot-easy (bots accept at once).
";

const GAME_HELP: &str = "\
Ataxx: two players, x and o, on a 7x7 board; x starts on a7 and g1, o on g7 and a1; x moves first.
A move either fills an empty square next to one of your pieces (a single: d4) or jumps a piece
exactly two squares away, leaving its square empty (c3b5). Enemy pieces next to the square moved
to become yours. A player who cannot move is skipped: the server passes for them (--(Auto)).
The game ends when a side has no pieces, when no empty square can be reached, or after 100 plies
without a single; the side with more pieces wins.
Moves are read tolerantly: c3b5, C3-B5, b2b3 (a single written from-to) are all accepted.
Options of ataxx challenge: -size=3..8, -blocks=<Blocks-Config code like h or 36, or a 0x wall
mask>, -clock=<minutes>+<seconds> for a live game with a Fischer clock, --nagtime, --forfeittime,
--totaltime in days for correspondence games (defaults 7, 21, none).
";
