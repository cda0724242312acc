//! `havannah selfplay`: the harness's match program ([`selfplay`] over [`MatchArgs`]) with
//! Havannah's pie rule, [`crate::players`], [`crate::match_setup`] and [`crate::match_files`]
//! (the table with colours and figures, records, SGF, a picture; in `selfplay-out` by default).

use std::io;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use game_harness::cli::MatchArgs;
use game_harness::match_file::Description;
use game_harness::program::{BoxedAgent, MatchProgram, PlayerRequest, exit_code, selfplay};
use game_harness::{GtpAgent, GtpError, MatchResult};
use havannah_rules::GameState;

use crate::match_files;
use crate::match_setup::{Setup, random_opening};
use crate::players::{ValueNetArgs, match_player, player_help, tell_pie_rule};

/// The game a match plays.
type G = GameState;
/// A match's games.
type Games = MatchResult<G>;

/// Command-line options: the harness's match options and Havannah's own.
#[derive(Debug, Parser)]
#[command(name = "selfplay", version, about = "Plays a Havannah match", after_help = player_help())]
pub struct Opts {
    /// The match options every game's selfplay takes.
    #[command(flatten)]
    pub matches: MatchArgs,
    /// Allow the pie rule (`swap`).
    #[arg(long)]
    pub pie: bool,
    /// The value network of configurations ending in `+td`.
    #[command(flatten)]
    pub value_net: ValueNetArgs,
}

impl MatchProgram for Opts {
    type Game = GameState;

    const NAME: &'static str = "havannah";
    const SIZE: usize = 6;
    const PLAYERS: [&'static str; 2] = ["best", "uct"];
    const TIME: Option<Duration> = Some(Duration::from_millis(50));
    const OUT: Option<&'static str> = Some("selfplay-out");

    fn rules(&self) -> Vec<(&'static str, String)> {
        vec![("pie", u8::from(self.pie).to_string())]
    }
    fn new_game(&self, _size: usize, description: &Description) -> Result<G, String> {
        Setup::of(description)?
            .empty_game()
            .map_err(|e| e.to_string())
    }
    fn player(&self, request: &PlayerRequest<'_, G>) -> Result<BoxedAgent<G>, String> {
        match_player(request, &self.value_net)
    }
    fn random_opening(&self, game: &G, plies: usize, seed: u64) -> Result<G, String> {
        random_opening(game.clone(), plies, seed).map_err(|e| e.to_string())
    }
    fn prepare_program(&self, program: &mut GtpAgent<G>) -> Result<(), GtpError> {
        tell_pie_rule(program, self.pie, &self.matches.gtp_setup)
    }
    fn table(&self, games: &Games, description: &Description) -> String {
        match_files::table(games, description)
    }
    fn write_files(&self, games: &Games, d: &Description, dir: &Path) -> io::Result<Vec<String>> {
        match_files::write_named(games, d, dir)
    }
}

/// Plays the match (or merges its parts) and writes its files; the exit status is 0, 1 when
/// the files cannot be written and 2 for bad options or a failed match.
pub fn run(opts: &Opts) -> ExitCode {
    exit_code("selfplay", selfplay(opts, &opts.matches))
}
