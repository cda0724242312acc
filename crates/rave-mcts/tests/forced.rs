//! `ConfigBuilder::expand_forced`: a node's only child is expanded on its first visit, so a
//! forcing sequence is walked to its end in one simulation.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Game, Mcts, Player, Proof, RaveSchedule, Rewards, SearchResult};

/// A corridor: `forced` plies with one legal move each, then `open` plies with two moves
/// (0 and 1). After the last ply, player 0 wins if the moves of the open plies add up to an
/// even number, player 1 otherwise (`open` 0: player 0 wins at the corridor's end).
#[derive(Clone, Copy, Debug)]
struct Corridor {
    forced: u32,
    open: u32,
    ply: u32,
    sum: u32,
}

impl Corridor {
    fn new(forced: u32, open: u32) -> Self {
        Corridor {
            forced,
            open,
            ply: 0,
            sum: 0,
        }
    }
}

impl Game for Corridor {
    type Move = u8;

    fn to_move(&self) -> Player {
        (self.ply % 2) as Player
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.ply < self.forced {
            moves.push(0);
        } else if self.ply < self.forced + self.open {
            moves.extend([0, 1]);
        }
    }

    fn play(&mut self, mv: u8) {
        self.ply += 1;
        self.sum += u32::from(mv);
    }

    fn result(&self) -> Option<Rewards> {
        (self.ply == self.forced + self.open).then(|| Rewards::win((self.sum % 2) as Player))
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_bound(&self) -> usize {
        2
    }
}

fn search(game: Corridor, forced: bool, simulations: u64) -> SearchResult<u8> {
    let config = Config::builder()
        .rave(RaveSchedule::MinimumMse { bias: 0.05 })
        .expand_forced(forced)
        .early_stop(false)
        .build()
        .unwrap();
    let mut mcts = Mcts::new(game, config);
    mcts.search(
        &Budget::simulations(simulations),
        &mut Pcg64Mcg::seed_from_u64(3),
    )
    .unwrap()
}

#[test]
fn one_simulation_walks_the_forced_moves_to_the_first_choice() {
    let game = Corridor::new(10, 6);
    let on = search(game, true, 1);
    // The ten forced nodes expanded, then the first open node, then a playout from one of
    // its children.
    assert_eq!(on.max_depth, 11, "{on:?}");
    let off = search(game, false, 1);
    assert_eq!(off.max_depth, 1, "{off:?}");
    assert!(on.tree_nodes >= off.tree_nodes + 10, "{on:?} {off:?}");
}

#[test]
fn a_forced_line_to_the_end_is_proven_by_one_simulation() {
    // Eleven forced plies, the last of which ends the game: player 0 wins.
    let game = Corridor::new(11, 0);
    let on = search(game, true, 1);
    assert_eq!(on.proven, Some(Proof::Win), "{on:?}");
    let off = search(game, false, 1);
    assert_eq!(off.proven, None, "{off:?}");
}

#[test]
fn the_option_is_off_by_default_and_kept_by_the_builder() {
    assert!(!Config::default().expand_forced());
    let on = Config::builder().expand_forced(true).build().unwrap();
    assert!(on.expand_forced());
    assert!(on.to_builder().build().unwrap().expand_forced());
}
