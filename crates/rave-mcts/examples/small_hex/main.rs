//! One game of 7x7 Hex between a RAVE searcher and plain UCT, a few thousand simulations a
//! move each, with the board after every move.
//!
//! `cargo run --release -p rave-mcts --example small_hex -- [simulations] [seed]`
//! (defaults 3000 simulations per move, seed 1). UCT plays `X` and moves first, the
//! advantage in Hex; RAVE plays `O`. Each side keeps its tree from move to move with
//! `Mcts::advance`. The game, with what each `Game` and `Playout` method must do, is in
//! `game.rs`.

mod game;

use std::time::Instant;

use game::{Hex, HexPlayout};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Game, Mcts, Proof, RaveSchedule};

/// Board side.
const SIZE: usize = 7;

/// Name and stone of each side, by player.
const SIDES: [(&str, char); 2] = [("UCT", 'X'), ("RAVE", 'O')];

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: simulations seed"))
        .collect();
    let simulations = args.first().copied().unwrap_or(3000);
    let seed = args.get(1).copied().unwrap_or(1);
    println!("{SIZE}x{SIZE} Hex, {simulations} simulations per move, seed {seed}");
    println!("X: UCT, moves first, joins top and bottom; O: RAVE, joins left and right\n");
    let start = Instant::now();
    let (end, _) = play_game(SIZE, simulations, seed, true);
    let winner = end.winner().expect("a finished game of Hex has a winner");
    let (name, stone) = SIDES[winner];
    println!(
        "{name} ({stone}) wins after {} moves, in {:.1?}",
        end.ply,
        start.elapsed()
    );
}

/// The searchers' configurations, by player: plain UCT, and UCT-RAVE with the default
/// schedule. Both run one thread, so a game is the same for the same seed.
fn configs() -> [Config; 2] {
    [
        Config::default(),
        Config::builder()
            .rave(RaveSchedule::default())
            .build()
            .expect("a valid configuration"),
    ]
}

/// Plays one game of Hex of side `size`, each side searching `simulations` simulations a move
/// (fewer when its best move cannot be overtaken or its position is proven), and, if `show`,
/// prints every move and the board after it. Returns the final position and the moves played.
pub fn play_game(size: usize, simulations: u64, seed: u64, show: bool) -> (Hex, Vec<u8>) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    // Each side has its own search, with its own tree, rooted at the empty board.
    let mut searchers =
        configs().map(|config| Mcts::with_playout(Hex::new(size), config, HexPlayout::default()));
    let budget = Budget::simulations(simulations);
    let mut board = Hex::new(size);
    let mut moves = Vec::new();
    while board.result().is_none() {
        let player = board.to_move();
        let searcher = &mut searchers[player];
        // Simulations already below the root: what the tree kept from earlier searches.
        let kept = searcher.root_visits();
        let result = searcher
            .search(&budget, &mut rng)
            .expect("the game is not over");
        let mv = result.best_move;
        board.play(mv);
        moves.push(mv);
        // Both trees step down to the move played and keep the subtree below it, so the next
        // search of each side starts from what it has already learnt about that position.
        for s in &mut searchers {
            s.advance(mv).expect("the move is legal");
        }
        if show {
            let (name, stone) = SIDES[player];
            let verdict = match result.proven {
                Some(Proof::Win) => "proven win".to_string(),
                Some(Proof::Loss) => "proven loss".to_string(),
                _ => format!("win rate {:.0}%", 100.0 * result.value),
            };
            println!(
                "{}. {name} ({stone}) plays {}: {verdict}, {} simulations ({kept} kept), tree {} nodes",
                board.ply,
                board.cell_name(mv),
                result.simulations,
                result.tree_nodes,
            );
            println!("{board}");
        }
    }
    (board, moves)
}
