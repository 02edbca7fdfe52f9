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
    Serve(commands::serve::Args),
    /// Send one command to a game server and print the reply.
    Client(commands::client::Args),
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
    /// Replay a game record (PGN or the 1995 two-column record), checking every flip count.
    Replay(commands::replay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Levels(args) => commands::levels::run(args),
        Command::Stats(args) => commands::stats::run(args),
        Command::Blocks(args) => commands::blocks::run(args),
        Command::Encode(args) => commands::encode::run(args),
        Command::Decode(args) => commands::decode::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Client(args) => commands::client::run(args),
        Command::Loadtest(args) => commands::loadtest::run(args),
        Command::Match(args) => commands::r#match::run(*args),
        Command::Openings(args) => commands::openings::run(args),
        Command::Uai(args) => commands::uai::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Replay(args) => commands::replay::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // Every failure here comes from what the user gave us: exit 2, like clap's usage errors.
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
