//! `y selfplay`: the harness's match program ([`game_harness::program::selfplay`]) with Y's
//! players: the search with RAVE (`rave`) or plain UCT (`uct`), with `threats=1` for the
//! threats at expansion, or `gtp:COMMAND`.

use game_harness::MatchGame;
use game_harness::match_file::Description;
use game_harness::program::{BoxedAgent, MatchProgram, PlayerRequest};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::Y;
use crate::agent::search_player;

/// Simulations a move of a search player when neither a time nor a count is given.
pub const DEFAULT_SIMULATIONS: u64 = 2_000;

/// Y's part of the match program: no rules beyond the size; `rave` and `uct` players.
#[derive(Debug, Clone, Copy, Default)]
pub struct YMatch;

impl MatchProgram for YMatch {
    type Game = Y;

    const NAME: &'static str = "y";
    const SIZE: usize = 10;
    const PLAYERS: [&'static str; 2] = ["rave", "uct"];

    fn rules(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn new_game(&self, size: usize, _description: &Description) -> Result<Y, String> {
        Y::new(size).map_err(|e| format!("--size {size}: {e}"))
    }

    fn player(&self, request: &PlayerRequest<'_, Y>) -> Result<BoxedAgent<Y>, String> {
        let PlayerRequest { spec, args, .. } = *request;
        let simulations = args.simulations.map_or(DEFAULT_SIMULATIONS, u64::from);
        Ok(Box::new(search_player(spec, simulations)?))
    }

    fn random_opening(&self, start: &Y, plies: usize, seed: u64) -> Result<Y, String> {
        let mut game = *start;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..plies {
            let empty: Vec<u8> = game.cells().filter(|&c| game.stone(c).is_none()).collect();
            if empty.is_empty() || game.verdict().is_some() {
                break;
            }
            let cell = empty[rng.random_range(0..empty.len())];
            game.try_play(cell).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }
}
