//! `ataxx match`: UAI engines play each other; PGN, live score, Elo, SPRT, JSON and a chart.
//! With `--variant`, two named levels of Hexxagon, four-player Ataxx or Ankor play each other
//! in process ([`arena::variant`]).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use arena::pgn::{game_record, today, PgnHeader};
use arena::stats::{Hypothesis, Sprt};
use arena::tournament::{PairingStats, SprtState};
use arena::variant::{run_variant_match, VariantMatchSettings, VariantMatchState};
use arena::{
    book, plot, run_match, EngineSpec, Format, GameSettings, MatchSettings, MatchState, TimeControl,
};
use ataxx_players::generic::GenericLevel;
use clap::Args as ClapArgs;
use games::GameKind;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

#[derive(ClapArgs)]
pub struct Args {
    /// An engine's command line; give one per engine, at least two (`-e "ataxx uai"`).
    #[arg(
        short,
        long = "engine",
        value_name = "COMMAND",
        required_unless_present = "variant"
    )]
    engines: Vec<String>,
    /// Play this variant (hexxagon, ataxx4, ankor) between two named levels instead of engines:
    /// two seats exchange colours game by game, four seats rotate between the levels.
    #[arg(
        long,
        value_name = "GAME",
        requires = "levels",
        conflicts_with = "engines"
    )]
    variant: Option<GameKind>,
    /// With --variant: the two levels, the first one's score reported (`ataxx levels --variant V`).
    #[arg(long = "level", value_name = "LEVEL", requires = "variant")]
    levels: Vec<String>,
    /// With --variant: random plies that open each pair of games.
    #[arg(long, value_name = "PLIES", default_value_t = 4, requires = "variant")]
    opening_plies: u32,
    /// Engine names, in --engine order (default: each engine's `id name`).
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// A UAI option `NAME=VALUE` for every engine, or `N:NAME=VALUE` for engine N (from 1).
    #[arg(long = "option", value_name = "[N:]NAME=VALUE")]
    options: Vec<String>,
    /// head-to-head, gauntlet (first engine against each other) or round-robin
    /// [default: head-to-head for two engines, else round-robin].
    #[arg(long)]
    format: Option<Format>,
    /// Games per pairing, rounded up to an even number (each opening is played with both colours).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Opening book: one FEN per line, `#` comments [default: the start position].
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Seed for the order of the book's openings [default: from the clock, printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Time control: `SECONDS+INCREMENT` (8+0.08), `movetime=MS`, `depth=N` or `nodes=N`.
    #[arg(long, default_value = "8+0.08")]
    tc: TimeControl,
    /// Milliseconds an engine may overrun its clock or move time before it forfeits.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    margin: u64,
    /// Seconds to wait for `uaiok`/`readyok`, and for `bestmove` under depth or node limits,
    /// before the engine is declared hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    hang_timeout: f64,
    /// Games played at once [default: the number of cores].
    #[arg(long)]
    concurrency: Option<usize>,
    /// Adjudicate a win once one side leads by this many pieces.
    #[arg(long, value_name = "PIECES")]
    adjudicate_material: Option<u32>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, value_name = "PLIES")]
    max_plies: Option<u32>,
    /// Stop early on an SPRT decision: `elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=normalized|logistic]`.
    #[arg(long, value_name = "TEST")]
    sprt: Option<Sprt>,
    /// Write every game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "ataxx match")]
    event: String,
    /// Write the final summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the LLR (with --sprt) or the Elo and its 95% band against games played, as SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

impl Args {
    /// `--seed`, or one from the clock.
    fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        })
    }

    /// `--concurrency`, by default the number of cores.
    fn concurrency(&self) -> anyhow::Result<usize> {
        let concurrency = self
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if concurrency == 0 {
            bail!("--concurrency must be at least 1");
        }
        Ok(concurrency)
    }
}

/// A match's progress: a bar on a terminal; where stderr is not one, a line at every
/// twentieth of the games.
struct Progress {
    bar: ProgressBar,
    plain: bool,
}

impl Progress {
    fn new() -> Progress {
        let bar = ProgressBar::new(0).with_style(
            ProgressStyle::with_template("{bar:30.cyan/blue} {pos}/{len} {elapsed_precise} {msg}")
                .expect("a valid template"),
        );
        Progress {
            bar,
            plain: !std::io::stderr().is_terminal(),
        }
    }

    /// `played` of `scheduled` games are done, and the score stands at `line`.
    fn update(&self, played: u64, scheduled: u64, line: String) {
        self.bar.set_length(scheduled);
        self.bar.set_position(played);
        let step = (scheduled / 20).max(1);
        if self.plain && played.is_multiple_of(step) {
            eprintln!("[{played}/{scheduled}] {line}");
        }
        self.bar.set_message(line);
    }
}

/// The summary file: what was asked and what came out.
#[derive(Serialize)]
struct Summary<'a> {
    time_control: String,
    games_per_pairing: u32,
    book: Option<String>,
    openings: usize,
    seed: u64,
    concurrency: usize,
    #[serde(flatten)]
    state: &'a MatchState,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(kind) = args.variant {
        return run_variant(kind, &args);
    }
    let engines = engine_specs(&args)?;
    let format = args.format.unwrap_or(if engines.len() == 2 {
        Format::HeadToHead
    } else {
        Format::RoundRobin
    });
    let seed = args.seed();
    let mut openings = match &args.book {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read book {}", path.display()))?;
            book::parse(&text).with_context(|| format!("book {}", path.display()))?
        }
        None => Vec::new(),
    };
    book::shuffle(&mut openings, seed);
    if !(args.hang_timeout.is_finite() && args.hang_timeout > 0.0) {
        bail!("--hang-timeout must be a positive number of seconds");
    }
    let concurrency = args.concurrency()?;
    let settings = MatchSettings {
        engines,
        format,
        games: args.games,
        openings,
        game: GameSettings {
            time_control: args.tc,
            margin: Duration::from_millis(args.margin),
            hang_timeout: Duration::from_secs_f64(args.hang_timeout),
            material_margin: args.adjudicate_material,
            max_plies: args.max_plies,
        },
        concurrency,
        sprt: args.sprt,
    };

    let mut pgn = match &args.pgn {
        Some(path) => {
            Some(BufWriter::new(File::create(path).with_context(|| {
                format!("cannot create {}", path.display())
            })?))
        }
        None => None,
    };
    let date = today();
    let header = PgnHeader {
        event: &args.event,
        site: "ataxx match",
        date: &date,
    };
    let progress = Progress::new();
    let mut pgn_error = None;
    let state = run_match(&settings, |game, state| {
        if let Some(out) = &mut pgn {
            let written = out
                .write_all(game_record(game, &state.names, &header).to_pgn().as_bytes())
                .and_then(|()| out.flush());
            if let Err(err) = written {
                pgn_error.get_or_insert(err);
            }
        }
        let line = score_line(&state.pairings[game.pairing], &state.names, state.sprt);
        progress.update(state.games_played, state.games_scheduled, line);
    })?;
    progress.bar.finish_and_clear();
    if let Some(err) = pgn_error {
        return Err(err).context("cannot write the PGN file");
    }

    print_summary(&state, &settings, &args, seed);
    if let Some(path) = &args.json {
        let summary = Summary {
            time_control: settings.game.time_control.to_string(),
            games_per_pairing: settings.games,
            book: args.book.as_ref().map(|p| p.display().to_string()),
            openings: settings.openings.len(),
            seed,
            concurrency,
            state: &state,
        };
        let text = serde_json::to_string_pretty(&summary)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        let pairing = &state.pairings[0];
        let title = format!(
            "{} vs {}",
            state.names[pairing.first], state.names[pairing.second]
        );
        let svg = plot::svg(&pairing.history, state.sprt.as_ref(), &title);
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Specs from --engine, --name and --option.
fn engine_specs(args: &Args) -> anyhow::Result<Vec<EngineSpec>> {
    if args.names.len() > args.engines.len() {
        bail!(
            "{} names for {} engines",
            args.names.len(),
            args.engines.len()
        );
    }
    let mut specs = args
        .engines
        .iter()
        .map(|line| EngineSpec::from_command_line(line).context("--engine"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    for (spec, name) in specs.iter_mut().zip(&args.names) {
        spec.name = name.clone();
    }
    for option in &args.options {
        let (target, setting) = match option.split_once(':') {
            Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                (Some(n.parse::<usize>()?), rest)
            }
            _ => (None, option.as_str()),
        };
        let Some((name, value)) = setting.split_once('=') else {
            bail!("--option {option:?} is not [N:]NAME=VALUE");
        };
        let pair = (name.trim().to_string(), value.trim().to_string());
        match target {
            Some(n) if n >= 1 && n <= specs.len() => specs[n - 1].options.push(pair),
            Some(n) => bail!(
                "--option {option:?} names engine {n}, but there are {}",
                specs.len()
            ),
            None => specs.iter_mut().for_each(|s| s.options.push(pair.clone())),
        }
    }
    Ok(specs)
}

/// `A vs B: +W =D -L (score%) Elo e ± err [LLR l (lo, hi)]`.
fn score_line(stats: &PairingStats, names: &[String], sprt: Option<SprtState>) -> String {
    let wdl = stats.wdl;
    let est = stats.estimate;
    let mut line = format!(
        "{} vs {}: +{} ={} -{} ({:.1}%) Elo {} ± {}",
        names[stats.first],
        names[stats.second],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * est.score,
        signed(est.elo),
        unsigned(est.error)
    );
    if let Some(sprt) = sprt {
        line += &format!(
            " LLR {:.2} ({:.2}, {:.2})",
            sprt.llr, sprt.lower, sprt.upper
        );
    }
    line
}

fn signed(v: f64) -> String {
    if v.is_finite() {
        format!("{v:+.1}")
    } else if v > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn unsigned(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else {
        "inf".to_string()
    }
}

fn print_summary(state: &MatchState, settings: &MatchSettings, args: &Args, seed: u64) {
    let openings = match &args.book {
        Some(path) => format!(
            "{} ({} openings, seed {seed})",
            path.display(),
            settings.openings.len()
        ),
        None => "start position".to_string(),
    };
    println!(
        "{} match, {} games played of {} scheduled, tc {}, openings {openings}",
        state.format, state.games_played, state.games_scheduled, settings.game.time_control
    );
    for stats in &state.pairings {
        let est = stats.estimate;
        let p = stats.pentanomial.0;
        println!("{}", score_line(stats, &state.names, None));
        println!(
            "  games {}, pairs {} [LL {} LD {} DD/WL {} WD {} WW {}]",
            stats.wdl.games(),
            stats.pentanomial.pairs(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
        println!(
            "  Elo {} ± {} (95%), nElo {} ± {}, LOS {:.1}%",
            signed(est.elo),
            unsigned(est.error),
            signed(est.nelo),
            unsigned(est.nelo_error),
            100.0 * est.los
        );
    }
    if let Some(sprt) = state.sprt {
        let verdict = match sprt.decision {
            Some(Hypothesis::H0) => "H0 accepted",
            Some(Hypothesis::H1) => "H1 accepted",
            None => "no decision",
        };
        println!(
            "SPRT {}: LLR {:.2} ({:.2}, {:.2}) {verdict}",
            sprt.test, sprt.llr, sprt.lower, sprt.upper
        );
    }
    if state.pairings.len() > 1 {
        let mut order: Vec<usize> = (0..state.names.len()).collect();
        order.sort_by(|&a, &b| state.points[b].total_cmp(&state.points[a]));
        println!("Standings:");
        for (rank, &engine) in order.iter().enumerate() {
            println!(
                "  {}. {} {}",
                rank + 1,
                state.names[engine],
                state.points[engine]
            );
        }
    }
    let endings: Vec<String> = state
        .endings
        .iter()
        .map(|(kind, n)| format!("{kind} {n}"))
        .collect();
    println!("Endings: {}", endings.join(", "));
}

/// `--variant`: two named levels in process, with the same progress line and summary.
fn run_variant(kind: GameKind, args: &Args) -> anyhow::Result<()> {
    let settings = variant_settings(kind, args)?;
    let names = settings.levels.map(|l| l.name);
    let progress = Progress::new();
    let started = std::time::Instant::now();
    let state = run_variant_match(&settings, |_, state| {
        let line = variant_score_line(state, names);
        progress.update(
            u64::from(state.games_played),
            u64::from(state.games_scheduled),
            line,
        );
    })?;
    progress.bar.finish_and_clear();
    print_variant_summary(&state, &settings, started.elapsed());
    if let Some(path) = &args.json {
        let est = state.estimate();
        let summary = serde_json::json!({
            "variant": kind.to_string(),
            "levels": names,
            "specs": settings.levels.map(|l| l.spec()),
            "games": state.games_played,
            "wins": state.wdl.wins,
            "draws": state.wdl.draws,
            "losses": state.wdl.losses,
            "points": state.points,
            "score": est.score,
            "elo": est.elo,
            "seed": settings.seed,
            "opening_plies": settings.opening_plies,
        });
        std::fs::write(path, serde_json::to_string_pretty(&summary)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The settings of a `--variant` match, refusing the options that only engine matches take.
fn variant_settings(kind: GameKind, args: &Args) -> anyhow::Result<VariantMatchSettings> {
    if kind == GameKind::Ataxx {
        bail!(
            "--variant ataxx: square Ataxx matches are between engines, e.g. \
             -e \"ataxx uai --level hard\" -e \"ataxx uai --level medium\""
        );
    }
    let unused = [
        ("--book", args.book.is_some()),
        ("--pgn", args.pgn.is_some()),
        ("--sprt", args.sprt.is_some()),
        ("--plot", args.plot.is_some()),
        ("--adjudicate-material", args.adjudicate_material.is_some()),
        ("--name", !args.names.is_empty()),
        ("--option", !args.options.is_empty()),
    ];
    if let Some((flag, _)) = unused.iter().find(|(_, given)| *given) {
        bail!("{flag} applies to engine matches, not to --variant {kind}");
    }
    let [first, second] = args.levels.as_slice() else {
        bail!(
            "--variant {kind} needs two --level options, got {}",
            args.levels.len()
        );
    };
    let level = |name: &str| {
        GenericLevel::find(kind, name).with_context(|| {
            let names: Vec<&str> = ataxx_players::generic::variant_levels(kind)
                .iter()
                .map(|l| l.name)
                .collect();
            format!(
                "--level {name:?}: no such {kind} level; levels: {}",
                names.join(", ")
            )
        })
    };
    let concurrency = args.concurrency()?;
    Ok(VariantMatchSettings {
        kind,
        options: Default::default(),
        levels: [level(first)?, level(second)?],
        games: args.games,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies.unwrap_or(1000),
        seed: args.seed(),
        concurrency,
    })
}

/// What a `--variant` match that took `elapsed` found: the levels, the score, Elo and LOS.
fn print_variant_summary(
    state: &VariantMatchState,
    settings: &VariantMatchSettings,
    elapsed: Duration,
) {
    let names = settings.levels.map(|l| l.name);
    let est = state.estimate();
    println!(
        "{} match, {} games played of {} scheduled, openings of {} random plies, seed {}, {:.0} s",
        settings.kind,
        state.games_played,
        state.games_scheduled,
        settings.opening_plies,
        settings.seed,
        elapsed.as_secs_f64()
    );
    for (name, level) in names.iter().zip(settings.levels) {
        println!("  {name}: {}", level.spec());
    }
    println!("{}", variant_score_line(state, names));
    println!(
        "  points {:.2} of {}, Elo {} ± {} (95%), LOS {:.1}%",
        state.points,
        state.games_played,
        signed(est.elo),
        unsigned(est.error),
        100.0 * est.los
    );
    println!(
        "  plies per game {:.1}, adjudicated draws (--max-plies {}) {}",
        state.plies as f64 / f64::from(state.games_played.max(1)),
        settings.max_plies,
        state.adjudicated
    );
}

/// `A vs B: +W =D -L (score%)`, games by the first level's share of the points.
fn variant_score_line(state: &VariantMatchState, names: [&str; 2]) -> String {
    let wdl = state.wdl;
    format!(
        "{} vs {}: +{} ={} -{} ({:.1}%)",
        names[0],
        names[1],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * state.points / f64::from(state.games_played.max(1))
    )
}
