//! The Havannah side of a match: the board size, the pie rule and the random opening, the
//! description that names them in a shard file, and the opening of each game.

use game_harness::match_file::Description;
use game_harness::runner::opening_seed;
use havannah::agent::random_cell;
use havannah_rules::{GameState, Rules, RulesError};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// What makes the games of a Havannah match: the board, the rules and the random opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// Cells per side.
    pub size: u8,
    /// Whether the pie rule (`swap`) is allowed.
    pub pie: bool,
    /// Random opening moves played before the players take over.
    pub opening_plies: usize,
}

impl Setup {
    /// The setup of a match on a board of `size`, with or without the pie rule, with
    /// `opening_plies` random opening moves.
    ///
    /// # Errors
    /// [`RulesError::Board`] when the board size is not supported.
    pub fn new(size: u8, pie: bool, opening_plies: usize) -> Result<Setup, RulesError> {
        GameState::new(size, Rules { pie })?;
        Ok(Setup {
            size,
            pie,
            opening_plies,
        })
    }

    /// The description of the match's game in its shard file:
    /// `havannah size=8 pie=1 opening=2`.
    #[must_use]
    pub fn description(&self) -> Description {
        Description::new("havannah")
            .with("size", self.size)
            .with("pie", u8::from(self.pie))
            .with("opening", self.opening_plies)
    }

    /// The setup a [`Setup::description`] names.
    ///
    /// # Errors
    /// A description of another game, with other settings, or with a size, pie rule or
    /// opening that is not one; the message names the description.
    pub fn of(description: &Description) -> Result<Setup, String> {
        let text = description.to_string();
        let bad = |why: &str| format!("{text:?} is not `havannah size=N pie=0|1 opening=N`: {why}");
        if description.game() != "havannah" {
            return Err(bad("not a Havannah match"));
        }
        if let Some((key, _)) =
            (description.settings()).find(|(key, _)| !["size", "pie", "opening"].contains(key))
        {
            return Err(bad(key));
        }
        let number = |key: &str| {
            description
                .number::<usize>(key)
                .map_err(|e| bad(&e.to_string()))
        };
        let (size, pie, opening) = (number("size")?, number("pie")?, number("opening")?);
        if pie > 1 {
            return Err(bad("pie is 0 or 1"));
        }
        let size = u8::try_from(size).map_err(|_| bad("the size"))?;
        Setup::new(size, pie == 1, opening).map_err(|e| bad(&e.to_string()))
    }

    /// The setup the text of a description names ([`Setup::of`]).
    ///
    /// # Errors
    /// Text that is not a description, and those of [`Setup::of`].
    pub fn from_description(text: &str) -> Result<Setup, String> {
        let description: Description = text
            .parse()
            .map_err(|e| format!("{text:?} is not `havannah size=N pie=0|1 opening=N`: {e}"))?;
        Setup::of(&description)
    }

    /// A new game: the empty board under the match's rules.
    ///
    /// # Errors
    /// [`RulesError::Board`] when the board size is not supported.
    pub fn empty_game(&self) -> Result<GameState, RulesError> {
        GameState::new(self.size, Rules { pie: self.pie })
    }

    /// Game `index`'s starting position in a match with seed `seed`: the empty board and
    /// [`Setup::opening_plies`] random cells drawn from
    /// [`opening_seed`]`(seed, index)`, the same opening for games `2k` and `2k + 1`.
    ///
    /// # Errors
    /// [`RulesError::Board`] when the board size is not supported.
    pub fn opening(&self, seed: u64, index: usize) -> Result<GameState, RulesError> {
        random_opening(
            self.empty_game()?,
            self.opening_plies,
            opening_seed(seed, index),
        )
    }
}

/// `game` with `plies` random cells drawn from `seed` (fewer if the game ends first).
///
/// # Errors
/// The rules' refusal of a move (never for a cell drawn among the empty ones).
pub fn random_opening(
    mut game: GameState,
    plies: usize,
    seed: u64,
) -> Result<GameState, RulesError> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for _ in 0..plies {
        if game.outcome().is_over() {
            break;
        }
        let Some(mv) = random_cell(&game, &mut rng) else {
            break;
        };
        game.play(mv)?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_round_trip_and_bad_ones_are_named() {
        let setup = Setup::new(8, true, 2).unwrap();
        assert_eq!(
            setup.description().to_string(),
            "havannah size=8 pie=1 opening=2"
        );
        assert_eq!(Setup::of(&setup.description()), Ok(setup));
        for bad in [
            "",
            "hex size=8 pie=1 opening=2",
            "havannah size=8 pie=1",
            "havannah size=8 pie=2 opening=2",
            "havannah size=8 size=8 pie=1 opening=2",
            "havannah size=8 pie=1 opening=2 komi=1",
            "havannah size=x pie=1 opening=2",
            "havannah size=14 pie=1 opening=2",
            "havannah size=300 pie=1 opening=2",
        ] {
            let err = Setup::from_description(bad).unwrap_err();
            assert!(err.starts_with(&format!("{bad:?} is not ")), "{err}");
        }
        assert!(Setup::new(14, false, 0).is_err());
    }

    #[test]
    fn pairs_of_games_share_their_opening() {
        let setup = Setup::new(5, false, 3).unwrap();
        let game = |index| setup.opening(77, index).unwrap();
        assert_eq!(game(0).moves(), game(1).moves());
        assert_eq!(game(0).moves().len(), 3);
        assert_ne!(game(1).moves(), game(2).moves());
        assert!(
            Setup::new(5, false, 0)
                .unwrap()
                .opening(1, 0)
                .unwrap()
                .moves()
                .is_empty()
        );
    }
}
