//! The playout of the searches: moves by a [`PlayoutPolicy`] until the game's result is known,
//! with the static bounds asked from the game's playout range, the opening cap where it holds
//! in the playouts, and a grouped game's place moves in the trace.

use rand::{Rng, RngExt};
use rave_mcts::{Playout, PlayoutResult, Rewards, Trace};

use super::AlphaGame;
use super::policies::{
    ansell_move, greedy_alpha_move, greedy_lottery_move, greedy_move, lottery_move, stone_for,
    uniform_move,
};
use crate::rules::Move;

/// How playouts choose their moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// Ansell's lottery ([`ansell_move`]): tickets from the α-dead cells, stones by value
    /// (it scores more than [`Lottery`](Self::Lottery) against wormhole).
    Ansell,
    /// This crate's own lottery ([`lottery_move`]): block and grow tickets.
    Lottery,
    /// Uniformly random legal moves ([`uniform_move`]), for comparison.
    Uniform,
    /// Greedy moves that spread early and fill late ([`greedy_move`]); the default: it scores
    /// more than [`Ansell`](Self::Ansell) against wormhole (`docs/blackhole.md`).
    #[default]
    Greedy,
    /// Each move a coin decides: a greedy move or one of Ansell's lottery.
    Mixed,
    /// Greedy cells with stones drawn by value ([`greedy_lottery_move`]).
    GreedyLottery,
    /// Greedy moves that see the α-dead cells ([`greedy_alpha_move`]).
    GreedyAlpha,
    /// The searching player's moves by [`greedy_alpha_move`], the opponent's by
    /// [`greedy_move`]: the opponent modelled as a greedy player that knows no target.
    SplitGreedyAlpha,
    /// The searching player's moves by Ansell's lottery ([`ansell_move`]), the opponent's by
    /// [`greedy_move`].
    SplitAnsell,
}

/// The playout of the searches: moves by its [`PlayoutPolicy`] until the game's result is
/// known.
#[derive(Clone, Debug, Default)]
pub struct LotteryPlayout {
    /// How moves are chosen.
    pub policy: PlayoutPolicy,
}

impl PlayoutPolicy {
    /// The playout move of this policy in `game` (which must not be over).
    pub fn choose<R: Rng + ?Sized>(self, game: &AlphaGame, rng: &mut R) -> Move {
        match self {
            PlayoutPolicy::Ansell => ansell_move(&game.pos, game.player, game.alpha, rng),
            PlayoutPolicy::Lottery => lottery_move(&game.pos, rng),
            PlayoutPolicy::Uniform => uniform_move(&game.pos, rng),
            PlayoutPolicy::Greedy => greedy_move(&game.pos, rng),
            PlayoutPolicy::GreedyLottery => greedy_lottery_move(&game.pos, rng),
            PlayoutPolicy::Mixed if rng.random_bool(0.5) => greedy_move(&game.pos, rng),
            PlayoutPolicy::Mixed => ansell_move(&game.pos, game.player, game.alpha, rng),
            PlayoutPolicy::GreedyAlpha => {
                greedy_alpha_move(&game.pos, game.player, game.alpha, rng)
            }
            PlayoutPolicy::SplitGreedyAlpha | PlayoutPolicy::SplitAnsell
                if game.pos.mover() != game.player =>
            {
                greedy_move(&game.pos, rng)
            }
            PlayoutPolicy::SplitGreedyAlpha => {
                greedy_alpha_move(&game.pos, game.player, game.alpha, rng)
            }
            PlayoutPolicy::SplitAnsell => ansell_move(&game.pos, game.player, game.alpha, rng),
        }
    }
}

impl Playout<AlphaGame> for LotteryPlayout {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut AlphaGame,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<Move>,
    ) -> PlayoutResult {
        let mut length = 0;
        let bounds_from = game.playout_bounds_from();
        loop {
            if let Some(outcome) = game.result_with_bounds_from(bounds_from) {
                return PlayoutResult::finished(outcome, length);
            }
            if length >= max_moves {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            let mover = game.pos.mover();
            let mv = match game.placed.take() {
                // The tree chose the cell (and its place is in the trace): the stone.
                Some(cell) => Move::new(cell, stone_for(&game.pos, cell)),
                None => {
                    let mut mv = self.policy.choose(game, rng);
                    if game.capped_playouts {
                        mv = game.capped(mv);
                    }
                    if game.grouped {
                        trace.push(mover, AlphaGame::place(mv.cell));
                    }
                    mv
                }
            };
            trace.push(mover, mv);
            game.pos.play(mv);
            length += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::start;
    use super::*;
    use crate::board::{Cell, cells_of};
    use crate::rules::{BLUE, Position, RED};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;
    use rave_mcts::Game;

    #[test]
    fn a_grouped_playout_plays_the_chosen_cell_first_and_traces_each_place() {
        let mut g = AlphaGame::new(start(), RED, 76).with_grouping(true);
        let mut places = Vec::new();
        g.legal_moves(&mut places);
        let cell = places[0].cell;
        g.play(places[0]);
        let mut trace = Trace::new();
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut playout = LotteryPlayout::default();
        let r = playout.playout(&mut g, &mut rng, usize::MAX, &mut trace);
        assert!(!r.stopped_early && g.result().is_some());
        assert_eq!(trace.len(), 2 * r.length - 1);
        let (first_player, first) = trace.get(0).unwrap();
        assert_eq!((first_player, first.cell), (RED, cell));
        assert_ne!(first.value, 0, "the chosen cell gets its stone at once");
        // Every later move is traced as its place, then the move itself.
        for k in (1..trace.len()).step_by(2) {
            let (p, place) = trace.get(k).unwrap();
            let (q, mv) = trace.get(k + 1).unwrap();
            assert_eq!((p, place), (q, AlphaGame::place(mv.cell)));
            assert_ne!(mv.value, 0);
        }
    }

    #[test]
    fn capped_playouts_keep_red_under_the_cap_in_the_opening_only() {
        let mut g = AlphaGame::new(start(), RED, 76)
            .with_opening_cap(4, 12)
            .with_capped_playouts(true);
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut trace = Trace::new();
        LotteryPlayout {
            policy: PlayoutPolicy::Greedy,
        }
        .playout(&mut g, &mut rng, 30, &mut trace);
        let stones: Vec<u8> = (0..5).map(|i| trace.get(i).unwrap().1.value).collect();
        // Red's first two stones are 12 and 11 (the greedy 15 and 14, capped); Blue is not
        // capped, and Red's third stone, after the opening, is its 15 again.
        assert_eq!(stones, [12, 15, 11, 14, 15]);
        // Holding no stone up to the cap, Red keeps the greedy stone.
        let mut low = AlphaGame::new(start(), RED, 76).with_opening_cap(4, 12);
        for v in 1..=12 {
            for _ in 0..2 {
                let cell = cells_of(low.pos.empty()).next().unwrap();
                low.pos.play(Move::new(cell, v));
            }
        }
        let big = Move::new(cells_of(low.pos.empty()).next().unwrap(), 15);
        low.opening_plies = 30;
        assert_eq!(low.capped(big), big);
    }

    #[test]
    fn every_playout_policy_plays_legal_moves_to_a_result() {
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let policies = [
            PlayoutPolicy::Ansell,
            PlayoutPolicy::Lottery,
            PlayoutPolicy::Uniform,
            PlayoutPolicy::Greedy,
            PlayoutPolicy::GreedyLottery,
            PlayoutPolicy::Mixed,
            PlayoutPolicy::GreedyAlpha,
            PlayoutPolicy::SplitGreedyAlpha,
            PlayoutPolicy::SplitAnsell,
        ];
        for policy in policies {
            let mut playout = LotteryPlayout { policy };
            for alpha in [70, 76, 82] {
                let mut game = AlphaGame::new(start(), BLUE, alpha);
                let mut trace = Trace::new();
                let r = playout.playout(&mut game, &mut rng, usize::MAX, &mut trace);
                assert!(!r.stopped_early, "{policy:?}");
                assert_eq!(Some(r.outcome), game.result(), "{policy:?}");
                assert_eq!(r.length, trace.len());
                let mut replay = start();
                for (player, mv) in trace.iter() {
                    assert_eq!(player, replay.mover());
                    replay.try_play(mv).unwrap();
                }
                assert_eq!(replay, game.pos, "{policy:?}");
            }
        }
    }

    #[test]
    fn lazy_playouts_play_the_same_moves_and_perhaps_more() {
        let mut rng = Pcg64Mcg::seed_from_u64(41);
        for round in 0..800 {
            // From the start or a few random moves in, for targets near and far from a draw.
            let mut pos = start();
            for _ in 0..round % 13 {
                pos.play(uniform_move(&pos, &mut rng));
            }
            let alpha = [60, 66, 72, 75, 76, 79, 86, 92][round % 8];
            let eager = AlphaGame::new(pos, round % 2, alpha).with_static_verdict(31);
            let (eager_outcome, eager_moves) = seeded_playout(eager, round as u64);
            let lazy = eager.with_lazy_playout_bounds(true);
            let (lazy_outcome, lazy_moves) = seeded_playout(lazy, round as u64);
            // The greedy draws do not depend on the bounds: the same moves, then perhaps
            // more, and where both stop at the same position, the same verdict there.
            assert!(lazy_moves.starts_with(&eager_moves), "round {round}");
            if lazy_moves.len() == eager_moves.len() {
                assert_eq!(lazy_outcome, eager_outcome, "round {round}");
            }
        }
    }

    #[test]
    fn a_lazy_playout_plays_on_where_the_bounds_decide_early() {
        // One of the rare positions found where the bounds decide above the lazy range: at 19
        // empty cells Red cannot reach 76 with best play (Blue reaches 75).
        let blocked = ["H1", "E2", "E1", "G2", "B1"].map(|c| Cell::parse(c).unwrap());
        let mut pos = Position::new(&blocked).unwrap();
        let moves = [
            ("B3", 15),
            ("C5", 15),
            ("B5", 14),
            ("C2", 14),
            ("D4", 13),
            ("B4", 13),
            ("C6", 12),
            ("D3", 12),
            ("A7", 11),
            ("F2", 11),
            ("A2", 10),
            ("E4", 10),
        ];
        for (cell, value) in moves {
            pos.try_play(Move::new(Cell::parse(cell).unwrap(), value))
                .unwrap();
        }
        let eager = AlphaGame::new(pos, BLUE, 75).with_static_verdict(31);
        let lazy = eager.with_lazy_playout_bounds(true);
        assert_eq!(pos.empty_count(), 19);
        assert_eq!(lazy.playout_bounds_from(), 18);
        let (eager_outcome, eager_moves) = seeded_playout(eager, 3);
        assert_eq!(eager_outcome, Rewards::win(BLUE));
        assert!(eager_moves.is_empty());
        // The lazy playout plays its own moves instead of taking the best-play verdict.
        let (_, lazy_moves) = seeded_playout(lazy, 3);
        assert!(!lazy_moves.is_empty());
        // The tree's node is still decided there.
        assert_eq!(lazy.result(), Some(Rewards::win(BLUE)));
    }

    /// A greedy playout of `game` from a seeded generator: its outcome and moves.
    fn seeded_playout(mut game: AlphaGame, seed: u64) -> (Rewards, Vec<(usize, Move)>) {
        let mut trace = Trace::new();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let r = LotteryPlayout::default().playout(&mut game, &mut rng, usize::MAX, &mut trace);
        (r.outcome, trace.iter().collect())
    }

    #[test]
    fn split_playouts_model_only_the_opponent_as_greedy() {
        let mut rng = Pcg64Mcg::seed_from_u64(29);
        for (policy, ours) in [
            (PlayoutPolicy::SplitGreedyAlpha, PlayoutPolicy::GreedyAlpha),
            (PlayoutPolicy::SplitAnsell, PlayoutPolicy::Ansell),
        ] {
            for player in [RED, BLUE] {
                let mut game = AlphaGame::new(start(), player, 76);
                while !game.pos.is_over() {
                    // The same random stream must give the move of the policy modelled.
                    let model = if game.pos.mover() == player {
                        ours
                    } else {
                        PlayoutPolicy::Greedy
                    };
                    let mut twin = rng.clone();
                    let mv = policy.choose(&game, &mut rng);
                    assert_eq!(mv, model.choose(&game, &mut twin), "{policy:?}");
                    game.pos.play(mv);
                }
            }
        }
    }
}
