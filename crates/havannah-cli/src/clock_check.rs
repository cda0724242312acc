//! Checks that a GTP engine keeps its clock: plays full games against itself under main time
//! plus byo-yomi, sending `time_settings` once a game and `time_left` before every `genmove`
//! as a tournament controller does, and prints how far each move went over its share.
//!
//! ```sh
//! cargo build --release --example gtp
//! havannah clock-check --engine "target/release/examples/gtp --quiet" \
//!     --sizes 8,10 --games 100 --main-time 2 --byo-yomi 0.1 --byo-yomi-stones 1
//! ```
//!
//! (`--engine "havannah gtp --quiet"` checks the installed program.) A move's share is the
//! time the engine's own rule gives it ([`havannah::gtp::estimate_moves_to_go`] moves in what is left of the main time, or the
//! current byo-yomi period shared by its stones, less the 50 ms safety margin of
//! [`havannah::HavannahSession`]); the overshoot is the controller's wall time for the `genmove`
//! round trip less that share. A move that takes longer than all the time the player has left
//! (main time and the current period) loses the game on time.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use game_harness::GtpAgent;
use game_harness::cli::seconds_or_zero;
use game_harness::gtp::DEFAULT_SAFETY_MARGIN;
use game_harness::output::exit_status;
use game_harness::time::{TimeControl, TimeSettings};
use havannah::gtp::estimate_moves_to_go;
use havannah_board::Board;
use havannah_rules::{Colour, GameState, Move, Rules};
use indicatif::{ProgressBar, ProgressStyle};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Plays an engine against itself under main time and byo-yomi and prints how well it keeps
/// its clock.
#[derive(Debug, Parser)]
#[command(
    name = "clock_check",
    version,
    about = "Checks that a GTP Havannah engine keeps its clock under main time and byo-yomi"
)]
pub struct Opts {
    /// The engine's command line (program and arguments, split on whitespace).
    #[arg(long, default_value = "target/release/examples/gtp --quiet")]
    pub engine: String,
    /// Board sizes, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "8")]
    pub sizes: Vec<u8>,
    /// Games per size.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Main time per player in seconds.
    #[arg(long, default_value = "2", value_parser = seconds_or_zero)]
    pub main_time: Duration,
    /// The length of a byo-yomi period in seconds (0: sudden death).
    #[arg(long, default_value = "0.1", value_parser = seconds_or_zero)]
    pub byo_yomi: Duration,
    /// Moves to make in one byo-yomi period.
    #[arg(long, default_value_t = 1)]
    pub byo_yomi_stones: u32,
    /// Random opening moves before the engine takes over.
    #[arg(long, default_value_t = 2)]
    pub opening: usize,
    /// The random seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One `genmove` as the controller saw it.
struct MoveTiming {
    overshoot_ms: f64,
    in_byo_yomi: bool,
}

/// What one size's games showed.
#[derive(Default)]
struct Tally {
    moves: Vec<MoveTiming>,
    games: usize,
    time_losses: usize,
    errors: Vec<String>,
}

fn settings(opts: &Opts) -> Result<TimeSettings, String> {
    Ok(TimeSettings {
        main_time: opts.main_time,
        byo_yomi_time: opts.byo_yomi,
        byo_yomi_stones: opts.byo_yomi_stones,
    })
}

/// The GTP `time_left` arguments for a player's clock: main time with 0 stones, or the
/// current period with its stones.
fn time_left_args(time: &TimeControl, player: usize) -> (f64, u32) {
    let clock = time.player_clock(player);
    if clock.stones_left > 0 {
        (clock.period_left.as_secs_f64(), clock.stones_left)
    } else {
        (clock.main_left.as_secs_f64(), 0)
    }
}

/// All the time a player has for its next move before it loses on time.
fn time_to_lose(time: &TimeControl, settings: &TimeSettings, player: usize) -> Duration {
    let clock = time.player_clock(player);
    if clock.stones_left > 0 {
        clock.period_left
    } else {
        clock.main_left + settings.byo_yomi_time
    }
}

fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "w",
        Colour::Black => "b",
    }
}

/// Sends one command to the engine and returns the text of its successful answer.
fn send(engine: &mut GtpAgent<GameState>, command: &str) -> Result<String, String> {
    engine.send(command).map_err(|e| e.to_string())
}

/// Plays random opening moves on both the judge's game and the engine.
fn play_opening(
    engine: &mut GtpAgent<GameState>,
    game: &mut GameState,
    plies: usize,
    rng: &mut Pcg64Mcg,
) -> Result<(), String> {
    for _ in 0..plies {
        let board = game.board();
        let empty: Vec<_> = board.cells().filter(|&c| game.stone(c).is_none()).collect();
        let cell = empty[rng.random_range(0..empty.len())];
        let colour = colour_name(game.to_move());
        send(engine, &format!("play {colour} {}", board.cell_name(cell)))?;
        game.play(Move::Cell(cell)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Plays one game of the engine against itself; records every move's timing in `tally`.
fn play_game(
    engine: &mut GtpAgent<GameState>,
    size: u8,
    settings: &TimeSettings,
    opts: &Opts,
    rng: &mut Pcg64Mcg,
    tally: &mut Tally,
) -> Result<(), String> {
    let mut game = GameState::new(size, Rules { pie: false }).map_err(|e| e.to_string())?;
    send(engine, &format!("boardsize {size}"))?;
    send(engine, "clear_board")?;
    send(
        engine,
        &format!(
            "time_settings {} {} {}",
            settings.main_time.as_secs_f64(),
            settings.byo_yomi_time.as_secs_f64(),
            settings.byo_yomi_stones
        ),
    )?;
    let mut time = TimeControl::default();
    time.set_settings(*settings);
    play_opening(engine, &mut game, opts.opening, rng)?;
    while !game.outcome().is_over() {
        let colour = game.to_move();
        let player = colour.index();
        let (left, stones) = time_left_args(&time, player);
        send(
            engine,
            &format!("time_left {} {left:.3} {stones}", colour_name(colour)),
        )?;
        let share = time
            .clock_for(
                player,
                None,
                DEFAULT_SAFETY_MARGIN,
                estimate_moves_to_go(&game),
            )
            .allowance()
            .unwrap_or_default();
        let in_byo_yomi = time.player_clock(player).stones_left > 0;
        let limit = time_to_lose(&time, settings, player);
        let start = Instant::now();
        let answer = send(engine, &format!("genmove {}", colour_name(colour)))?;
        let spent = start.elapsed();
        tally.moves.push(MoveTiming {
            overshoot_ms: (spent.as_secs_f64() - share.as_secs_f64()) * 1e3,
            in_byo_yomi,
        });
        if spent > limit {
            tally.time_losses += 1;
            return Ok(());
        }
        time.charge(player, spent);
        let mv = Move::parse(game.board(), answer.trim()).map_err(|e| e.to_string())?;
        game.play(mv)
            .map_err(|e| format!("illegal move {answer:?}: {e}"))?;
    }
    Ok(())
}

/// The `q`-quantile of sorted values (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn print_distribution(label: &str, moves: &[&MoveTiming]) {
    let mut ms: Vec<f64> = moves.iter().map(|m| m.overshoot_ms).collect();
    ms.sort_by(f64::total_cmp);
    let over = ms.iter().filter(|&&x| x > 20.0).count();
    game_harness::outln!(
        "  {label:<10} {:>6} moves  overshoot ms: median {:>7.1}  p90 {:>7.1}  p99 {:>7.1}  max {:>7.1}  over 20 ms: {over}",
        ms.len(),
        quantile(&ms, 0.5),
        quantile(&ms, 0.9),
        quantile(&ms, 0.99),
        ms.last().copied().unwrap_or(f64::NAN),
    );
}

fn report(size: u8, tally: &Tally) {
    game_harness::outln!(
        "size {size}: {} games, {} lost on time, {} errors",
        tally.games,
        tally.time_losses,
        tally.errors.len()
    );
    for e in tally.errors.iter().take(5) {
        game_harness::outln!("  error: {e}");
    }
    let all: Vec<&MoveTiming> = tally.moves.iter().collect();
    let (byo, main): (Vec<&MoveTiming>, Vec<&MoveTiming>) = all.iter().partition(|m| m.in_byo_yomi);
    print_distribution("all", &all);
    print_distribution("main time", &main);
    print_distribution("byo-yomi", &byo);
}

/// Plays the games of every size and prints the overshoot distributions.
fn check(opts: &Opts) -> Result<(), String> {
    let settings = settings(opts)?;
    for &size in &opts.sizes {
        Board::new(size).map_err(|e| format!("--sizes {size}: {e}"))?;
    }
    let mut engine = GtpAgent::spawn(&opts.engine, &[]).map_err(|e| e.to_string())?;
    game_harness::outln!(
        "engine {:?}; main time {} s, byo-yomi {} s for {} stone(s), {} random opening plies",
        opts.engine,
        opts.main_time.as_secs_f64(),
        opts.byo_yomi.as_secs_f64(),
        opts.byo_yomi_stones,
        opts.opening
    );
    let mut rng = Pcg64Mcg::seed_from_u64(opts.seed);
    for &size in &opts.sizes {
        let bar = ProgressBar::new(opts.games as u64);
        if let Ok(style) =
            ProgressStyle::with_template("size {msg} {bar:40} {pos}/{len} games [{eta}]")
        {
            bar.set_style(style);
        }
        bar.set_message(size.to_string());
        let mut tally = Tally::default();
        for _ in 0..opts.games {
            if let Err(e) = play_game(&mut engine, size, &settings, opts, &mut rng, &mut tally) {
                tally.errors.push(e);
            }
            tally.games += 1;
            bar.inc(1);
        }
        bar.finish_and_clear();
        report(size, &tally);
    }
    Ok(())
}

/// Runs the check; the exit status is 2 for bad options or an engine that cannot be started.
pub fn run(opts: &Opts) -> ExitCode {
    match check(opts) {
        Ok(()) => exit_status(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("clock_check: {e}");
            ExitCode::from(2)
        }
    }
}
