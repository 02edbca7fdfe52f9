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
    /// Replay a game record (PGN or the 1995 two-column record), checking every flip count.
    Replay(commands::replay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(args),
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
