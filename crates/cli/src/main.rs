//! `ataxx`: the project's one command.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;

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
    /// Play UAI engines against each other: head-to-head, gauntlet or round-robin.
    Match(Box<commands::r#match::Args>),
    /// Generate a book of random, near-balanced openings.
    Openings(commands::openings::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(args),
        Command::Match(args) => commands::r#match::run(*args),
        Command::Openings(args) => commands::openings::run(args),
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
