//! `ataxx uai`: the engine, a named level or a classic player speaking UAI on stdin/stdout.

use anyhow::bail;
use ataxx_players::{Level, PlayerSpec, Strength};
use clap::Args as ClapArgs;
use engine::{net_eval::NetEval, search::Engine, uai};

#[derive(ClapArgs)]
pub struct Args {
    /// Play as this level (see `ataxx levels`); `master` is the full engine.
    #[arg(long, conflicts_with = "player")]
    level: Option<String>,
    /// Play as this classic player, e.g. `greedy` or `alphabeta:depth=3,moves=reduced`.
    #[arg(long)]
    player: Option<String>,
    /// Seed for a level's or player's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (input, output) = (std::io::stdin().lock(), std::io::stdout());
    let classic = match (&args.level, &args.player) {
        (Some(_), Some(_)) => bail!("give either --level or --player, not both"),
        (None, Some(spec)) => Some(spec.parse::<PlayerSpec>()?.build(args.seed)),
        (Some(name), None) => {
            let level: &Level = name.parse()?;
            match level.strength {
                Strength::Classic(_) => Some(
                    level
                        .classic()
                        .expect("classic level")
                        .build(args.seed)
                        .named(level.name),
                ),
                // The level's time budget is for opponents without a clock; under UAI the GUI's
                // limits apply.
                Strength::Engine { .. } => None,
            }
        }
        (None, None) => None,
    };
    // The variants (UAI_Variant) are answered by the players crate's front end; square Ataxx
    // goes to this loop unchanged.
    let level = args.level.clone();
    ataxx_players::generic::uai::run_with_variants(
        input,
        output,
        level,
        args.seed,
        move |r, w| match classic {
            Some(player) => uai::run(player, r, w),
            None => uai::run(Engine::new(NetEval::default(), uai::DEFAULT_HASH_MIB), r, w),
        },
    )?;
    Ok(())
}
