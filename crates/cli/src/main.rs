//! `ataxx`: the project's one command.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod opponent;

#[derive(Parser)]
#[command(name = "ataxx", version, about = "Ataxx rules, tools and engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (bulk counting at the last ply).
    Perft(commands::perft::Args),
    /// Play against the computer in the terminal.
    Play(commands::play::Args),
    /// Print the named difficulty levels.
    Levels(commands::levels::Args),
    /// Reproduce seed 003's measurements of the game by self-play.
    Stats(commands::stats::Args),
    /// Blocks-Config codes and wall masks of mirror-symmetric blocked layouts.
    Blocks(commands::blocks::Args),
    /// Pack a 7x7 position into the 14-byte board (or 19-byte message), or a four-player one
    /// into its 19-byte board, as hex.
    Encode(commands::encode::Args),
    /// Unpack a 14-byte board, 19-byte message or (--variant ataxx4) 19-byte four-player board
    /// from hex: diagram and FEN.
    Decode(commands::decode::Args),
    /// Run the game server (embedded SQLite database, HTTP and text doors).
    Serve(Box<commands::serve::Args>),
    /// Copy a SQLite database consistently while the server runs (PostgreSQL: pg_dump).
    Backup(commands::backup::BackupArgs),
    /// Check a backup and put it in place of a stopped server's database.
    Restore(commands::backup::RestoreArgs),
    /// Hand one mail (RFC 5322 on stdin) to the server's mail door, as an MTA's pipe delivery.
    MailIn(commands::mail::MailInArgs),
    /// Show the outbound mail queue.
    Mailq(commands::mail::MailqArgs),
    /// Send one command to a game server and print the reply.
    Client(commands::client::Args),
    /// Put a UAI engine on a game server as a bot account: `ataxx bot --server URL --token TOKEN
    /// -- ENGINE ARGS...` (a `bot:play` API token, or ATAXX_TOKEN).
    Bot(commands::bot::Args),
    /// Load-test a game server on loopback: concurrent games over WebSocket and the text port.
    Loadtest(commands::loadtest::Args),
    /// Play UAI engines against each other: head-to-head, gauntlet or round-robin.
    Match(Box<commands::r#match::Args>),
    /// Generate a book of random, near-balanced openings.
    Openings(commands::openings::Args),
    /// Run the engine over the UAI protocol on stdin/stdout.
    Uai(commands::uai::Args),
    /// Search the fixed benchmark positions: node signature and nodes/s.
    Bench(commands::bench::Args),
    /// Search one position and print the best line and score.
    Analyze(commands::analyze::Args),
    /// Fit the evaluation weights to game results from PGN files (Texel tuning).
    Tune(commands::tune::Args),
    /// Self-play training data: games with a search score per move, added to a corpus directory.
    Datagen(commands::datagen::Args),
    /// Train the learned evaluation from datagen files (a net file for EvalFile).
    Train(commands::train::Args),
    /// Replay a game record (PGN or the 1995 two-column record), checking every flip count.
    Replay(commands::replay::Args),
    /// Draw a position of any game as text (or SVG): `--variant ankor --fen TEXT [--last CELL]`.
    Diagram(commands::diagram::Args),
}

/// Installs the one place where a closed output ends the program: `ataxx blocks list | head -1`
/// exits quietly (status 0) once `head` has what it wants, whichever command was writing and
/// however (`println!` panics on a broken pipe; `write!` returns the error). SIGPIPE stays
/// ignored, as Rust sets it, so that a dead engine's pipe is an error `ataxx match` can report
/// rather than a signal that kills it.
fn quiet_on_closed_output() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_output_panic(message) {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// The panic of `print!`/`println!` (`eprint!`) when the reader has gone.
fn is_closed_output_panic(message: &str) -> bool {
    message.starts_with("failed printing to std") && message.contains("Broken pipe")
}

/// Whether an error comes from writing to an output whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    quiet_on_closed_output();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Levels(args) => commands::levels::run(args),
        Command::Stats(args) => commands::stats::run(args),
        Command::Blocks(args) => commands::blocks::run(args),
        Command::Encode(args) => commands::encode::run(args),
        Command::Decode(args) => commands::decode::run(args),
        Command::Serve(args) => commands::serve::run(*args),
        Command::Backup(args) => commands::backup::run_backup(args),
        Command::Restore(args) => commands::backup::run_restore(args),
        Command::MailIn(args) => commands::mail::mail_in(args),
        Command::Mailq(args) => commands::mail::mailq(args),
        Command::Client(args) => commands::client::run(args),
        Command::Bot(args) => commands::bot::run(args),
        Command::Loadtest(args) => commands::loadtest::run(args),
        Command::Match(args) => commands::r#match::run(*args),
        Command::Openings(args) => commands::openings::run(args),
        Command::Uai(args) => commands::uai::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Datagen(args) => commands::datagen::run(args),
        Command::Train(args) => commands::train::run(args),
        Command::Replay(args) => commands::replay::run(args),
        Command::Diagram(args) => commands::diagram::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Every failure here comes from what the user gave us: exit 2, like clap's usage errors.
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_output_is_recognised_in_panics_and_errors() {
        assert!(is_closed_output_panic(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!is_closed_output_panic("index out of bounds"));
        let err = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            .context("writing the list");
        assert!(is_broken_pipe(&err));
        assert!(!is_broken_pipe(&anyhow::anyhow!("bad FEN")));
    }
}
