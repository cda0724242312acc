//! `ConfigBuilder::playout_pool`: before each playout the policy gets the moves with the best
//! AMAF values of the deepest node on the path with enough visits (PoolRAVE).

use std::sync::{Arc, Mutex};

use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::{
    Budget, Config, Game, Mcts, Player, PlayoutPool, PlayoutResult, RaveSchedule, Rewards,
    SearchResult, Trace,
};

/// A race: each player picks a number from 0 to 8 on each of its four turns, and whoever
/// picked more in total wins (player 1 on a tie). For the player to move, a larger number is
/// a better move, so AMAF ranks the moves 8, 7, ..., 0 at every node.
#[derive(Clone, Copy, Debug)]
struct Race {
    ply: u8,
    sums: [u8; 2],
}

impl Game for Race {
    type Move = u8;

    fn to_move(&self) -> Player {
        Player::from(self.ply % 2)
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.ply < 8 {
            moves.extend(0..9);
        }
    }

    fn play(&mut self, mv: u8) {
        self.sums[usize::from(self.ply % 2)] += mv;
        self.ply += 1;
    }

    fn result(&self) -> Option<Rewards> {
        (self.ply >= 8).then(|| Rewards::win(usize::from(self.sums[0] <= self.sums[1])))
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_bound(&self) -> usize {
        9
    }
}

/// Uniform moves; every pool it is given is recorded.
#[derive(Clone, Default)]
struct Recording {
    pools: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl rave_mcts::Playout<Race> for Recording {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut Race,
        rng: &mut R,
        _max_moves: usize,
        trace: &mut Trace<u8>,
    ) -> PlayoutResult {
        let mut length = 0;
        while game.result().is_none() {
            let mv = rng.random_range(0..9);
            trace.push(game.to_move(), mv);
            game.play(mv);
            length += 1;
        }
        PlayoutResult::finished(game.result().unwrap_or(Rewards::DRAW), length)
    }

    fn set_pool(&mut self, pool: &[u8]) {
        self.pools.lock().unwrap().push(pool.to_vec());
    }
}

/// The pools a search of `simulations` with `pool` gives its playout, and the search's result.
fn pools(pool: Option<PlayoutPool>, simulations: u64) -> (Vec<Vec<u8>>, SearchResult<u8>) {
    let config = Config::builder()
        .rave(RaveSchedule::default())
        .early_stop(false)
        .playout_pool(pool)
        .build()
        .unwrap();
    let playout = Recording::default();
    let start = Race {
        ply: 0,
        sums: [0, 0],
    };
    let mut mcts = Mcts::with_playout(start, config, playout.clone());
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let result = mcts
        .search(&Budget::simulations(simulations), &mut rng)
        .unwrap();
    let pools = playout.pools.lock().unwrap().clone();
    (pools, result)
}

#[test]
fn the_pool_holds_the_best_amaf_moves_of_the_deepest_well_visited_node() {
    // Only the root reaches 3,000 visits: the pools are empty until then, and the root's
    // two best moves by AMAF value after.
    let pool = PlayoutPool {
        size: 2,
        min_visits: 3000,
    };
    let (got, result) = pools(Some(pool), 3400);
    assert!(
        got.len() > 2000,
        "a pool before most playouts: {}",
        got.len()
    );
    let first = got
        .iter()
        .position(|p| !p.is_empty())
        .expect("the root qualifies");
    assert!(
        first > 1500,
        "no pool before the root's 3,000th visit: {first}"
    );
    assert!(got[first..].iter().all(|p| p.len() == 2));
    let mut by_amaf = result.children.clone();
    by_amaf.sort_by(|a, b| b.amaf_value.total_cmp(&a.amaf_value));
    // A few hundred simulations later the root's AMAF order is the same where it is clear.
    assert!(
        by_amaf[1].amaf_value - by_amaf[2].amaf_value > 0.005,
        "{by_amaf:?}"
    );
    let mut best: Vec<u8> = by_amaf[..2].iter().map(|c| c.mv).collect();
    best.sort_unstable();
    let mut last = got.last().unwrap().clone();
    last.sort_unstable();
    assert_eq!(last, best);
}

#[test]
fn without_a_pool_the_playout_is_given_none() {
    assert!(pools(None, 500).0.is_empty());
}

#[test]
fn a_pool_larger_than_the_moves_holds_every_move() {
    let pool = PlayoutPool {
        size: 10,
        min_visits: 1000,
    };
    let (got, _) = pools(Some(pool), 3000);
    let mut last = got.last().expect("pools were given").clone();
    last.sort_unstable();
    assert_eq!(last, (0..9).collect::<Vec<u8>>());
}
