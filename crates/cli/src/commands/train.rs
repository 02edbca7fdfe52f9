//! `ataxx train`: trains the learned evaluation from `ataxx datagen` files (engine::train).
//!
//! After every epoch it prints the losses, writes the checkpoint (training state) and the net
//! file (quantised, for `setoption name EvalFile`); at the end it draws the run's losses as a
//! chart. Run the same command again to resume from the checkpoint; `--epochs` may be raised
//! to train further.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::data;
use engine::nnue::{Activation, Shape};
use engine::train::{self, Checkpoint, Config, Dataset, EpochReport};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(ClapArgs)]
pub struct Args {
    /// Data files written by `ataxx datagen`, or directories: every data file under them
    /// (`data/` is the whole corpus).
    #[arg(required = true, value_name = "DATA")]
    data: Vec<PathBuf>,
    /// The net file written after each epoch.
    #[arg(long, short)]
    output: PathBuf,
    /// Training state, written after each epoch and resumed from when it exists
    /// (default: the output's name with `.ckpt` added).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Hidden units per side: a multiple of 16 from 16 to 256.
    #[arg(long, default_value_t = Shape::NET1.hidden)]
    hidden: usize,
    /// The hidden units' activation: `crelu` (clipped ReLU) or `screlu` (its square).
    #[arg(long, default_value = Shape::NET1.activation.name())]
    activation: Activation,
    #[arg(long, default_value_t = Config::default().epochs)]
    epochs: u32,
    #[arg(long, default_value_t = Config::default().batch_size)]
    batch_size: usize,
    /// Adam step size of the first epoch.
    #[arg(long, default_value_t = Config::default().learning_rate)]
    learning_rate: f32,
    /// Step-size factor per epoch.
    #[arg(long, default_value_t = Config::default().lr_decay)]
    lr_decay: f32,
    /// Weight of the search score in the target; the rest is the game's result.
    #[arg(long, default_value_t = Config::default().score_weight)]
    score_weight: f32,
    /// Share of games held out for the validation loss.
    #[arg(long, default_value_t = Config::default().validation)]
    validation: f32,
    #[arg(long, default_value_t = Config::default().seed)]
    seed: u64,
    /// Threads computing each batch's gradient.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// `path` if it is a file, or every data file under it (sorted, so that runs are repeatable).
fn corpus_files(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries = std::fs::read_dir(path)
        .with_context(|| format!("reading {}", path.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("reading {}", path.display()))?;
    entries.sort();
    for entry in entries {
        let is_data = entry.to_string_lossy().ends_with(data::EXTENSION);
        if entry.is_dir() || is_data {
            corpus_files(&entry, out)?;
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file, so that an interrupted write never
/// leaves a torn file behind.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.score_weight) {
        bail!("--score-weight must lie in [0, 1]");
    }
    let config = Config {
        shape: Shape::new(args.hidden, args.activation)?,
        epochs: args.epochs,
        batch_size: args.batch_size,
        learning_rate: args.learning_rate,
        lr_decay: args.lr_decay,
        score_weight: args.score_weight,
        validation: args.validation,
        seed: args.seed,
        threads: args.threads,
    };
    let records = read_corpus(&args.data)?;
    let dataset = Dataset::split(&records, config.validation)?;
    eprintln!(
        "{} positions: {} for training, {} for validation ({} of other board sizes skipped)",
        records.len(),
        dataset.train_len(),
        dataset.validation_len(),
        records.len() - dataset.train_len() - dataset.validation_len()
    );
    let checkpoint_path = args.checkpoint.clone().unwrap_or_else(|| {
        let mut name = args.output.clone().into_os_string();
        name.push(".ckpt");
        PathBuf::from(name)
    });
    let mut run = start_or_resume(&checkpoint_path, config, &records)?;
    eprintln!(
        "epoch 0: validation loss {:.6}",
        dataset.validation_loss(&run.net, run.config.score_weight)
    );
    let reports = train_epochs(&mut run, &dataset, &checkpoint_path, &args.output)?;
    eprint!("{}", loss_chart(&reports));
    eprintln!(
        "{} epochs done; net written to {}",
        run.epochs_done,
        args.output.display()
    );
    Ok(())
}

/// Every record of the data files at or under `paths`, after a line on what they hold.
fn read_corpus(paths: &[PathBuf]) -> anyhow::Result<Vec<data::Record>> {
    let mut files = Vec::new();
    for path in paths {
        corpus_files(path, &mut files)?;
    }
    let (mut records, mut games) = (Vec::new(), 0);
    for path in &files {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let chunk = data::Chunk::from_bytes(&bytes)
            .and_then(|chunk| chunk.records())
            .with_context(|| format!("reading {}", path.display()))?;
        games += data::count_games(&chunk);
        records.extend(chunk);
    }
    let distinct = data::distinct_positions(&records);
    let starts: Vec<data::Record> = records
        .iter()
        .filter(|r| r.first_of_game)
        .copied()
        .collect();
    let blocked = records.iter().filter(|r| r.blocked != 0).count();
    eprintln!(
        "{} files, {games} games, {} positions, {distinct} distinct ({:.2} % duplicates); \
         {} distinct starts; {blocked} positions on blocked boards ({:.1} %)",
        files.len(),
        records.len(),
        100.0 * (1.0 - distinct as f64 / records.len().max(1) as f64),
        data::distinct_positions(&starts),
        100.0 * blocked as f64 / records.len().max(1) as f64
    );
    Ok(records)
}

/// The training state: the checkpoint at `path` when there is one (its settings checked
/// against `config`, which then replaces them), else a fresh net whose score scale is fitted
/// to `records`.
fn start_or_resume(
    path: &Path,
    config: Config,
    records: &[data::Record],
) -> anyhow::Result<Checkpoint> {
    if !path.exists() {
        let scale = train::fit_scale(records);
        eprintln!("score scale: sigmoid(score / {scale:.1}) fits the results best");
        return Ok(Checkpoint::new(config, scale));
    }
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut saved =
        Checkpoint::from_bytes(&bytes).with_context(|| format!("reading {}", path.display()))?;
    saved.check_resumable(&config)?;
    eprintln!(
        "resuming {} after epoch {}",
        path.display(),
        saved.epochs_done
    );
    saved.config = config;
    Ok(saved)
}

/// Trains `run`'s remaining epochs on `dataset` under a progress bar; after each, prints its
/// losses and writes the checkpoint and the net file. The epochs' reports.
fn train_epochs(
    run: &mut Checkpoint,
    dataset: &Dataset,
    checkpoint_path: &Path,
    net_path: &Path,
) -> anyhow::Result<Vec<EpochReport>> {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "epoch {msg} {bar:40} {pos}/{len} batches  {per_sec}  {elapsed_precise}, ETA {eta_precise}",
        )
        .expect("valid template"),
    );
    let mut epoch_start = Instant::now();
    bar.set_message(format!("{}", run.epochs_done + 1));
    let reports = train::train(
        run,
        dataset,
        |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
        |report, state| {
            // Printed beside the bar, and also when the bar is hidden (no terminal).
            bar.suspend(|| {
                eprintln!(
                    "epoch {}: train loss {:.6}, validation loss {:.6} ({:.1} s)",
                    report.epoch,
                    report.train_loss,
                    report.validation_loss,
                    epoch_start.elapsed().as_secs_f64()
                )
            });
            write_atomically(checkpoint_path, &state.to_bytes())
                .map_err(|e| std::io::Error::other(format!("{e:#}")))?;
            write_atomically(net_path, &state.net.quantise().to_bytes())
                .map_err(|e| std::io::Error::other(format!("{e:#}")))?;
            epoch_start = Instant::now();
            bar.reset();
            bar.set_message(format!("{}", report.epoch + 1));
            Ok(())
        },
    )?;
    bar.finish_and_clear();
    Ok(reports)
}

/// Width of the longest bar of [`loss_chart`], in characters.
const CHART_WIDTH: usize = 40;

/// The epochs of this run as a text chart: one row per epoch, its bar the validation loss
/// scaled between the run's lowest and highest (so that the flattening of a converging run
/// shows), the train loss beside it. Empty when no epoch ran.
fn loss_chart(reports: &[EpochReport]) -> String {
    if reports.is_empty() {
        return String::new();
    }
    let (low, high) = reports.iter().fold((f64::MAX, f64::MIN), |(lo, hi), r| {
        (lo.min(r.validation_loss), hi.max(r.validation_loss))
    });
    let mut chart = format!(
        "validation loss by epoch (bars from {low:.6} to {high:.6}; train loss in brackets)\n"
    );
    for r in reports {
        let share = if high > low {
            (r.validation_loss - low) / (high - low)
        } else {
            0.0
        };
        let bar = "#".repeat(1 + (share * (CHART_WIDTH - 1) as f64).round() as usize);
        chart += &format!(
            "epoch {:>3}  {:.6}  {bar:<width$}  ({:.6})\n",
            r.epoch,
            r.validation_loss,
            r.train_loss,
            width = CHART_WIDTH
        );
    }
    chart
}

#[cfg(test)]
mod tests {
    use super::{loss_chart, EpochReport, CHART_WIDTH};

    fn epochs(validation: &[f64]) -> Vec<EpochReport> {
        validation
            .iter()
            .enumerate()
            .map(|(i, &v)| EpochReport {
                epoch: i as u32 + 1,
                train_loss: v + 0.001,
                validation_loss: v,
            })
            .collect()
    }

    fn bar_lengths(chart: &str) -> Vec<usize> {
        chart
            .lines()
            .skip(1)
            .map(|row| row.chars().filter(|&c| c == '#').count())
            .collect()
    }

    #[test]
    fn bars_span_the_run_from_its_highest_loss_to_its_lowest() {
        let chart = loss_chart(&epochs(&[0.0620, 0.0600, 0.0596, 0.0594]));
        assert!(chart.starts_with("validation loss by epoch (bars from 0.059400 to 0.062000"));
        assert_eq!(bar_lengths(&chart), [CHART_WIDTH, 10, 4, 1]);
        assert!(chart.contains("epoch   2  0.060000  "), "{chart}");
        assert!(chart.contains("(0.061000)"), "{chart}");
    }

    #[test]
    fn one_epoch_or_none_still_draws() {
        assert_eq!(bar_lengths(&loss_chart(&epochs(&[0.06]))), [1]);
        assert_eq!(loss_chart(&[]), "");
    }
}
