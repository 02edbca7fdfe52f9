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
    /// Run the engine over the UAI protocol on stdin/stdout.
    Uai(commands::uai::Args),
    /// Search the fixed benchmark positions: node signature and nodes/s.
    Bench(commands::bench::Args),
    /// Search one position and print the best line and score.
    Analyze(commands::analyze::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run(args),
        Command::Uai(args) => commands::uai::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
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
