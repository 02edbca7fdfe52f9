//! `ataxx backup` (a consistent copy of a SQLite database while the server runs) and `ataxx
//! restore` (check a backup, and put it in place of a stopped server's database). PostgreSQL is
//! backed up with pg_dump; `backup` says so for a postgres:// URL (docs/deploy.md).

use std::path::PathBuf;

use anyhow::Context;
use ataxx_server::offline;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct BackupArgs {
    /// The server's database: a SQLite file path or URL (the server may be running).
    #[arg(long, default_value = "ataxx.db")]
    db: String,
    /// The new file to write the backup to.
    #[arg(long)]
    output: PathBuf,
}

#[derive(ClapArgs)]
pub struct RestoreArgs {
    /// The backup to check and restore.
    #[arg(long)]
    input: PathBuf,
    /// The database to replace (stop the server first): a SQLite file path or URL.
    #[arg(long, default_value = "ataxx.db", required_unless_present = "check")]
    db: String,
    /// Only check the backup; change nothing.
    #[arg(long)]
    check: bool,
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

pub fn run_backup(args: BackupArgs) -> anyhow::Result<()> {
    runtime()?.block_on(async {
        let summary = offline::backup(&args.db, &args.output).await?;
        println!(
            "backed up to {}: {} users, {} games, {} moves (checked)",
            args.output.display(),
            summary.users,
            summary.games,
            summary.moves
        );
        anyhow::Ok(())
    })
}

pub fn run_restore(args: RestoreArgs) -> anyhow::Result<()> {
    runtime()?.block_on(async {
        let summary = match args.check {
            true => offline::check_backup(&args.input).await?,
            false => offline::restore(&args.input, &args.db).await?,
        };
        let done = match args.check {
            true => "checked".to_string(),
            false => format!("restored into {}", args.db),
        };
        println!(
            "{}: {done}: {} migrations, {} users, {} games, {} moves",
            args.input.display(),
            summary.migrations,
            summary.users,
            summary.games,
            summary.moves
        );
        anyhow::Ok(())
    })
}
