//! Learns the weights of local patterns from game records (see [`havannah::patterns`]).
//!
//! ```text
//! havannah pattern-train --out weights.txt games.txt [more.txt ...]
//! ```
//!
//! The records are `havannah selfplay`'s `games.txt` lines (or any format `havannah replay`
//! reads). Every tenth record is held out: the program prints how often the strongest move
//! under the weights is the one played, on the records fitted and on those held out, before
//! and after the fit. The weights file starts with a comment naming the command line and
//! these figures.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use havannah::patterns::{DISTANCE_CLASSES, PatternDataset, PatternWeights};

/// Command-line options.
#[derive(Debug, Parser)]
#[command(
    name = "pattern-train",
    version,
    about = "Learns the weights of local patterns from game records"
)]
pub struct Opts {
    /// Game record files (`havannah selfplay`'s games.txt).
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Rounds of minorization–maximization.
    #[arg(long, default_value_t = 30)]
    pub iterations: usize,
    /// Moves skipped at the start of every record (the opening).
    #[arg(long, default_value_t = 3)]
    pub skip: usize,
    /// Shapes seen as candidates fewer times than this are left out of the file (they count
    /// 1).
    #[arg(long, default_value_t = 20)]
    pub min_count: u32,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The records read: fitted and held out.
struct Data {
    fit: PatternDataset,
    held_out: PatternDataset,
    records: usize,
}

fn read(opts: &Opts) -> Result<Data, String> {
    let mut data = Data {
        fit: PatternDataset::new(opts.skip),
        held_out: PatternDataset::new(opts.skip),
        records: 0,
    };
    for path in &opts.records {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let set = if data.records % 10 == 9 {
                &mut data.held_out
            } else {
                &mut data.fit
            };
            set.add_record(line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            data.records += 1;
        }
    }
    if data.fit.is_empty() {
        return Err("no move to learn from in the records".to_string());
    }
    Ok(data)
}

fn train(opts: &Opts) -> Result<String, String> {
    let data = read(opts)?;
    let uniform = PatternWeights::new([1.0; DISTANCE_CLASSES], &[]);
    let bar = game_harness::matches::progress_bar_of(opts.iterations, "rounds", opts.quiet);
    let weights = data.fit.fit(opts.iterations, |p| {
        bar.set_position(p.iteration as u64);
        bar.set_message(format!("log-likelihood {:.4} a move", p.log_likelihood));
    });
    bar.finish_and_clear();
    let weights = data.fit.frequent(&weights, opts.min_count);
    let rates = |w: &PatternWeights| {
        format!(
            "{:.1}% fitted, {:.1}% held out",
            100.0 * data.fit.prediction_rate(w),
            100.0 * data.held_out.prediction_rate(w)
        )
    };
    let summary = format!(
        "{} records, {} moves fitted, {} held out; {} shape classes seen, {} kept (seen {}+ times)\n\
         strongest move played: {} (no weights: {})",
        data.records,
        data.fit.len(),
        data.held_out.len(),
        data.fit.shape_classes(),
        weights.shapes().len(),
        opts.min_count,
        rates(&weights),
        rates(&uniform)
    );
    let comment = format!("made by: {}\n{summary}", crate::command_line());
    weights
        .save(&opts.out, &comment)
        .map_err(|e| e.to_string())?;
    Ok(format!("{summary}\nWrote {}", opts.out.display()))
}

/// Trains and writes the weights; the exit status is 0, or 2 for a record or file error.
pub fn run(opts: &Opts) -> ExitCode {
    match train(opts) {
        Ok(message) => {
            game_harness::outln!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pattern-train: {e}");
            ExitCode::from(2)
        }
    }
}
