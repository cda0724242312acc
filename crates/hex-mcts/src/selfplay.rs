//! `hex selfplay`: the harness's match program ([`game_harness::program::selfplay`]) with
//! Hex's rules and players: the search configurations `uct`, `rave` and `grave`
//! (`NAME[:bridge=0|1]`), or `gtp:COMMAND`.

use clap::Args;
use game_harness::cli::MatchArgs;
use game_harness::match_file::Description;
use game_harness::program::{BoxedAgent, MatchProgram, PlayerRequest, ProgramError};

use crate::engine::{Settings, engine, knowledge};
use crate::harness::Hex;

/// The options of `hex selfplay`: the harness's match options and Hex's own.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub(crate) matches: MatchArgs,
    /// The swap rule (swap-pieces): true or false.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    pub(crate) swap: bool,
    /// Bridge-save replies in the search players' playouts, true or false (a player's
    /// `bridge=0|1` wins).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    bridge_save: bool,
    /// The threats at expansion for the search players (a player's `threats=0|1` wins).
    #[arg(long)]
    threats: bool,
}

impl MatchProgram for SelfplayArgs {
    type Game = Hex;

    const NAME: &'static str = "hex";
    const SIZE: usize = 9;
    const PLAYERS: [&'static str; 2] = ["rave", "uct"];

    fn rules(&self) -> Vec<(&'static str, String)> {
        vec![("swap", u8::from(self.swap).to_string())]
    }

    fn new_game(&self, size: usize, description: &Description) -> Result<Hex, String> {
        let swap = description
            .number::<u8>("swap")
            .map_err(|e| e.to_string())?;
        Hex::new(size, swap == 1).map_err(|e| format!("--size {size}: {e}"))
    }

    fn player(&self, request: &PlayerRequest<'_, Hex>) -> Result<BoxedAgent<Hex>, String> {
        let PlayerRequest { spec, args, .. } = *request;
        let defaults = knowledge(self.bridge_save, self.threats);
        let settings = Settings::of_player(spec, args, defaults, Default::default())?;
        let engine = engine(settings, 0).map_err(|e| e.to_string())?;
        Ok(Box::new(engine))
    }

    fn random_opening(&self, start: &Hex, plies: usize, seed: u64) -> Result<Hex, String> {
        start.random_opening(plies, seed).map_err(|e| e.to_string())
    }
}

/// Plays the match (or merges its parts).
///
/// # Errors
/// The harness's [`ProgramError`] naming the bad option or the file.
pub fn run(args: &SelfplayArgs) -> Result<(), ProgramError> {
    game_harness::program::selfplay(args, &args.matches)
}
