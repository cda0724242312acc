//! `hex selfplay`: the harness's match program ([`game_harness::program::selfplay`]) with
//! Hex's rules and players: the search configurations `uct`, `rave` and `grave`
//! (`NAME[:bridge=0|1]`), or `gtp:COMMAND`.

use clap::{Args, ValueEnum};
use game_harness::cli::{MatchArgs, PlayerSpec};
use game_harness::program::{MatchProgram, ProgramError};
use game_harness::shard::Description;
use game_harness::{Agent, MatchGame};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::EMPTY;
use crate::engine::{Algorithm, Settings, engine};
use crate::harness::Hex;

/// The options of `hex selfplay`: the harness's match options and Hex's own.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub(crate) matches: MatchArgs,
    /// The swap rule (swap-pieces): true or false.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    pub(crate) swap: bool,
    /// Bridge-save replies in the search players' playouts (a player's `bridge=0|1` wins).
    #[arg(long)]
    bridge_save: bool,
}

impl MatchProgram for SelfplayArgs {
    type Game = Hex;

    fn name(&self) -> &'static str {
        "hex"
    }
    fn default_size(&self) -> usize {
        9
    }
    fn default_players(&self) -> [&'static str; 2] {
        ["rave", "uct"]
    }
    fn rules(&self) -> Vec<(&'static str, String)> {
        vec![("swap", u8::from(self.swap).to_string())]
    }

    fn new_game(&self, size: usize, description: &Description) -> Result<Hex, String> {
        let swap = description
            .number::<u8>("swap")
            .map_err(|e| e.to_string())?;
        Hex::new(size, swap == 1).map_err(|e| format!("--size {size}: {e}"))
    }

    fn player(
        &self,
        spec: &PlayerSpec,
        args: &MatchArgs,
        _start: &Hex,
        _seed: u64,
    ) -> Result<Box<dyn Agent<Hex>>, String> {
        let unknown = || format!("unknown player {spec}: uct, rave, grave or gtp:COMMAND");
        let algorithm =
            Algorithm::from_str(spec.name().ok_or_else(unknown)?, true).map_err(|_| unknown())?;
        let bridge_save = match spec.param("bridge") {
            None => self.bridge_save,
            Some("0") => false,
            Some("1") => true,
            Some(other) => return Err(format!("player {spec}: bridge={other} is not 0 or 1")),
        };
        let settings = Settings {
            algorithm,
            simulations: args.simulations.map(u64::from),
            time: args.time_per_move.map(Into::into),
            threads: args.threads.map_or(1, usize::from),
            bridge_save,
        };
        let engine = engine(settings, 0).map_err(|e| e.to_string())?;
        Ok(Box::new(engine))
    }

    fn random_opening(&self, start: &Hex, plies: usize, seed: u64) -> Result<Hex, String> {
        let mut game = start.clone();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..plies {
            let position = game.position();
            let empty: Vec<usize> = (0..position.stones().len())
                .filter(|&c| position.stones()[c] == EMPTY)
                .collect();
            if empty.is_empty() || game.verdict().is_some() {
                break;
            }
            let mv = position
                .geometry()
                .move_of(empty[rng.random_range(0..empty.len())]);
            game.try_play(mv).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }
}

/// Plays the match (or merges its parts).
///
/// # Errors
/// The harness's [`ProgramError`] naming the bad option or the file.
pub fn run(args: &SelfplayArgs) -> Result<(), ProgramError> {
    game_harness::program::selfplay(args, &args.matches)
}
