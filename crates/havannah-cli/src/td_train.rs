//! Trains a Havannah value network by self-play TD(lambda) and writes its learning curve.
//!
//! ```text
//! havannah td-train --size 3 --games 40000
//! ```
//!
//! Every `--eval-interval` games the net (greedy) plays `--eval-games` games against a
//! uniform-random player and a 1-ply "win if you can" player and `--mcts-games` games
//! against a plain UCT search with `--mcts-sims` simulations per move (half as White, half as
//! Black). The output folder gets `weights.json` (load it with `ValueNet::load_for`),
//! `curve.csv`, `curve.svg` and `run.json` (settings, counts, speed).

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use game_harness::output::exit_status;
use havannah::board::Board;
use havannah::rules::{Position, RingDetection};
use havannah_td::{
    Augmentation, LearningCurve, Opponent, TdError, TrainConfig, Trainer, ValueNet,
    greedy_wins_against_every_reply, play_match,
};
use indicatif::{ProgressBar, ProgressStyle};

/// Self-play TD(lambda) training of a Havannah value network.
#[derive(Parser, Debug)]
#[command(name = "td_train", version)]
pub struct Opts {
    /// Board size (cells per side), 2 to 13.
    #[arg(long, default_value_t = 3)]
    pub size: u8,
    /// Self-play games to train.
    #[arg(long, default_value_t = 40_000)]
    pub games: u64,
    /// Hidden units.
    #[arg(long, default_value_t = 150)]
    pub hidden: usize,
    /// Learning rate.
    #[arg(long, default_value_t = 0.01)]
    pub learning_rate: f32,
    /// TD(lambda) trace decay.
    #[arg(long, default_value_t = 0.8)]
    pub lambda: f32,
    /// Discount per move.
    #[arg(long, default_value_t = 0.99)]
    pub gamma: f32,
    /// Gibbs exploration temperature (0: greedy).
    #[arg(long, default_value_t = 0.1)]
    pub temperature: f32,
    /// Do not use the 12 symmetries of the hexagon.
    #[arg(long)]
    pub no_symmetries: bool,
    /// Do not use the colour swap.
    #[arg(long)]
    pub no_colour_swap: bool,
    /// Games per weight update (results do not depend on --threads).
    #[arg(long, default_value_t = 8)]
    pub batch: usize,
    /// Evaluate every this many games (0: only at the end).
    #[arg(long, default_value_t = 1000)]
    pub eval_interval: u64,
    /// Evaluation games against the random and the win-if-you-can players.
    #[arg(long, default_value_t = 200)]
    pub eval_games: u64,
    /// Evaluation games against the MCTS player (0: none).
    #[arg(long, default_value_t = 40)]
    pub mcts_games: u64,
    /// Simulations per move of the MCTS player.
    #[arg(long, default_value_t = 1000)]
    pub mcts_sims: u64,
    /// Seed of the weights, the self-play and the evaluation games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start from these weights instead of random ones.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Output folder.
    #[arg(long, default_value = "td-out")]
    pub out: PathBuf,
}

/// Trains, evaluates and writes the outputs; on an error, prints it and fails.
pub fn run(args: &Opts) -> ExitCode {
    match train(args) {
        Ok(()) => exit_status(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The whole run: the net, the training with its evaluations, the summary and the files.
fn train(args: &Opts) -> Result<(), Box<dyn std::error::Error>> {
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(1)
    });
    let board = Board::new(args.size)?;
    let mut trainer = match &args.init {
        Some(path) => Trainer::with_net(
            train_config(args, threads),
            ValueNet::load_for(path, args.size)?,
        )?,
        None => Trainer::new(train_config(args, threads))?,
    };
    fs::create_dir_all(&args.out)?;
    game_harness::outln!(
        "size {} ({} cells), {} hidden, {} parameters, {} threads, {} images per position",
        args.size,
        board.num_cells(),
        trainer.net().hidden(),
        trainer.net().num_parameters(),
        threads,
        trainer.config().augmentation.images()
    );
    let mut evaluator = Evaluator::new(args, threads);
    let pb = progress_bar(args.games)?;
    evaluator.evaluate(&trainer, &pb)?;
    let train_time = train_and_evaluate(args, &mut trainer, &mut evaluator, &pb)?;
    pb.finish();
    print_summary(args, board, &trainer, train_time);
    write_outputs(args, &trainer, &evaluator.curve, train_time)
}

/// The training settings the arguments ask for.
fn train_config(args: &Opts, threads: usize) -> TrainConfig {
    let mut config = TrainConfig::new(args.size);
    config.hidden = args.hidden;
    config.learning_rate = args.learning_rate;
    config.lambda = args.lambda;
    config.gamma = args.gamma;
    config.temperature = args.temperature;
    config.augmentation = Augmentation {
        symmetries: !args.no_symmetries,
        colour_swap: !args.no_colour_swap,
    };
    config.batch = args.batch;
    config.threads = threads;
    config.seed = args.seed;
    config
}

fn progress_bar(games: u64) -> Result<ProgressBar, Box<dyn std::error::Error>> {
    let pb = ProgressBar::new(games);
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta}) {msg}",
        )?
        .progress_chars("=> "),
    );
    Ok(pb)
}

/// The evaluation matches and the learning curve they draw.
struct Evaluator {
    opponents: Vec<Opponent>,
    eval_games: u64,
    mcts_games: u64,
    seed: u64,
    threads: usize,
    curve: LearningCurve,
}

impl Evaluator {
    fn new(args: &Opts, threads: usize) -> Self {
        let mut opponents = vec![Opponent::Random, Opponent::WinIfYouCan];
        if args.mcts_games > 0 {
            opponents.push(Opponent::Mcts {
                simulations: args.mcts_sims,
            });
        }
        Evaluator {
            opponents,
            eval_games: args.eval_games,
            mcts_games: args.mcts_games,
            seed: args.seed,
            threads,
            curve: LearningCurve::new(),
        }
    }

    /// Plays the net against every opponent, adds the points to the curve and prints a line.
    fn evaluate(&mut self, trainer: &Trainer, pb: &ProgressBar) -> Result<(), TdError> {
        let games_done = trainer.stats().games;
        let mut line = format!("{games_done:>8} games:");
        for (k, opp) in self.opponents.iter().enumerate() {
            let n = match opp {
                Opponent::Mcts { .. } => self.mcts_games,
                _ => self.eval_games,
            };
            // Evaluation games use their own seeds, the same at every point of the curve.
            let seed = self.seed ^ (0xE7A1 + k as u64);
            let r = play_match(trainer.net(), *opp, n, seed, self.threads)?;
            self.curve
                .push(games_done, &opp.name(), r.win_rate(), r.games);
            line += &format!(
                "  {} {:5.1}% (W {}/{}, B {}/{})",
                opp.name(),
                100.0 * r.win_rate(),
                r.wins_as_white,
                r.games_as_white,
                r.wins - r.wins_as_white,
                r.games - r.games_as_white
            );
        }
        game_harness::matches::print_above(pb, &line);
        Ok(())
    }
}

/// Trains `args.games` games, evaluating every `--eval-interval` games; the time spent
/// training (evaluations not counted).
fn train_and_evaluate(
    args: &Opts,
    trainer: &mut Trainer,
    evaluator: &mut Evaluator,
    pb: &ProgressBar,
) -> Result<Duration, TdError> {
    let mut train_time = Duration::ZERO;
    let interval = if args.eval_interval == 0 {
        args.games
    } else {
        args.eval_interval
    };
    let mut done = 0;
    while done < args.games {
        let chunk = interval.min(args.games - done);
        let start = Instant::now();
        let base = trainer.stats().games;
        trainer.train(chunk, |g| pb.set_position(done + g - base));
        train_time += start.elapsed();
        done += chunk;
        pb.set_message(format!(
            "{:.0} games/s training",
            done as f64 / train_time.as_secs_f64()
        ));
        evaluator.evaluate(trainer, pb)?;
    }
    Ok(train_time)
}

/// The training's speed and self-play results, and what the net thinks of the empty board.
fn print_summary(args: &Opts, board: &'static Board, trainer: &Trainer, train_time: Duration) {
    let stats = trainer.stats();
    game_harness::outln!(
        "trained {} games in {:.1} s: {:.1} games/s, {:.0} moves/game, {:.0} samples/s; \
         self-play results White {} Black {} draws {}",
        stats.games,
        train_time.as_secs_f64(),
        stats.games as f64 / train_time.as_secs_f64(),
        stats.moves as f64 / stats.games.max(1) as f64,
        stats.samples as f64 / train_time.as_secs_f64(),
        stats.white_wins,
        stats.black_wins,
        stats.draws
    );
    let empty = Position::new(board, RingDetection::Online);
    game_harness::outln!(
        "value of the empty board for White: {:+.3}",
        trainer.net().evaluate(&empty)
    );
    if args.size == 2 {
        game_harness::outln!(
            "size 2: the net's first move wins against every reply: {}",
            greedy_wins_against_every_reply(trainer.net(), &empty)
        );
    }
}

/// Writes `weights.json`, `curve.csv`, `curve.svg` and `run.json` into the output folder.
fn write_outputs(
    args: &Opts,
    trainer: &Trainer,
    curve: &LearningCurve,
    train_time: Duration,
) -> Result<(), Box<dyn std::error::Error>> {
    let weights = args.out.join("weights.json");
    trainer.net().save(&weights)?;
    fs::write(args.out.join("curve.csv"), curve.to_csv())?;
    let title = format!(
        "TD({}) value net, size {}, {} hidden, {}",
        args.lambda,
        args.size,
        trainer.net().hidden(),
        if args.no_symmetries {
            "no symmetries"
        } else {
            "12 symmetries"
        }
    );
    fs::write(args.out.join("curve.svg"), curve.to_svg(&title))?;
    let stats = trainer.stats();
    let run = serde_json::json!({
        "config": trainer.config(),
        "stats": stats,
        "train_seconds": train_time.as_secs_f64(),
        "games_per_second": stats.games as f64 / train_time.as_secs_f64(),
        "curve": curve,
    });
    fs::write(
        args.out.join("run.json"),
        serde_json::to_string_pretty(&run)?,
    )?;
    game_harness::outln!(
        "wrote {}, curve.csv, curve.svg, run.json",
        weights.display()
    );
    Ok(())
}
