//! The Hex playout policy: fill the board at random, decide the winner once at the end.
//!
//! A full Hex board has exactly one winner (the Hex theorem: one colour connects its edges, never
//! both, never neither), and adding stones never undoes a connection. So a playout need not
//! look for a win after each move: it fills every empty cell, alternating colours, and runs one
//! flood fill at the end. The winner of the full board is the player who connected first in the
//! game the playout stands for. Per move that costs a random index and a swap-remove from the
//! array of empty cells, nothing more. The trace holds every move (for AMAF), also those after
//! the moment the game was decided, as in the classic Hex programs; the swap move is never
//! played in a playout.
//!
//! Bridge-save replies (optional, connection-kit's rule): when the opponent's last stone took
//! one of the two carrier cells of a bridge of the player to move (two own stones, or a stone
//! and its own edge, that share two empty neighbours), the player takes the other carrier.
//! Among several such bridges one is chosen at random.

use connection_kit::bridge::nth_direction;
use rand::{Rng, RngExt};
use rave_mcts::{Playout, PlayoutResult, Rewards, Trace};

use crate::board::{BLACK, Colour, EMPTY, Geometry, OFF, connects, ring_of};
use crate::game::HexGame;

/// The Hex playout: uniform random fill, optionally with bridge-save replies.
#[derive(Clone, Debug, Default)]
pub struct HexPlayout {
    bridge_save: bool,
    stones: Vec<u8>,
    empties: Vec<u16>,
    /// Position of each empty cell in `empties`.
    slot: Vec<u16>,
    stack: Vec<u16>,
}

impl HexPlayout {
    /// A playout policy; `bridge_save` switches the bridge-save replies on.
    pub fn new(bridge_save: bool) -> HexPlayout {
        HexPlayout {
            bridge_save,
            ..HexPlayout::default()
        }
    }

    /// The empty carrier of a bridge of `stone` that the opponent's stone on `last` intrudes
    /// into, by connection-kit's rule ([`Ring::saves`]; the edges beyond the board on the
    /// player's own sides count as its stones). A random one when several. Bit `k` of the
    /// ring stands for the neighbour `k + 1` in the table's circular order.
    #[inline]
    fn bridge_reply<R: Rng + ?Sized>(
        &self,
        geo: &Geometry,
        last: usize,
        stone: u8,
        rng: &mut R,
    ) -> Option<usize> {
        let table = geo.neighbours(last);
        let saves = ring_of(&self.stones, table, stone).saves();
        // Counted from direction 1: bit k stands for the neighbour k + 1.
        let saves = ((saves >> 1) | (saves << 5)) & 63;
        let k = match saves.count_ones() {
            0 => return None,
            1 => 0,
            count => rng.random_range(0..count as usize),
        };
        nth_direction(saves, k).map(|k| usize::from(table[(k + 1) % 6]))
    }

    /// Whether Black connects top and bottom in `self.stones` (a flood fill that marks visited
    /// Black stones; the buffer is spent afterwards).
    fn black_connects(&mut self, geo: &Geometry) -> bool {
        const SEEN: u8 = 3;
        let n = geo.size();
        self.stack.clear();
        for c in 0..n {
            if self.stones[c] == BLACK {
                self.stones[c] = SEEN;
                self.stack.push(c as u16);
            }
        }
        while let Some(c) = self.stack.pop() {
            let c = usize::from(c);
            if c >= n * (n - 1) {
                return true;
            }
            for &nb in geo.neighbours(c) {
                if nb < OFF && self.stones[usize::from(nb)] == BLACK {
                    self.stones[usize::from(nb)] = SEEN;
                    self.stack.push(nb);
                }
            }
        }
        false
    }

    /// The winner on `self.stones` when the fill stopped before the board was full: a colour
    /// that already connects, if any (two flood fills, only used under a playout horizon).
    fn partial_winner(&self, geo: &Geometry) -> Option<Colour> {
        [Colour::Black, Colour::White]
            .into_iter()
            .find(|&c| connects(&self.stones, geo, c))
    }
}

impl Playout<HexGame> for HexPlayout {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut HexGame,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<<HexGame as rave_mcts::Game>::Move>,
    ) -> PlayoutResult {
        let geo = game.geometry();
        self.stones.clear();
        self.stones.extend_from_slice(game.stones());
        self.empties.clear();
        self.slot.resize(geo.cells(), 0);
        for (c, &s) in self.stones.iter().enumerate() {
            if s == EMPTY {
                self.slot[c] = self.empties.len() as u16;
                self.empties.push(c as u16);
            }
        }
        let total = self.empties.len();
        let moves = total.min(max_moves);
        let mut colour = game.colour_to_move();
        let mut last = game.last_cell();
        for _ in 0..moves {
            let stone = colour.stone();
            let reply = match last {
                Some(l) if self.bridge_save => self.bridge_reply(geo, l, stone, rng),
                _ => None,
            };
            let k = match reply {
                Some(cell) => usize::from(self.slot[cell]),
                None => rng.random_range(0..self.empties.len()),
            };
            let cell = usize::from(self.empties.swap_remove(k));
            if let Some(&moved) = self.empties.get(k) {
                self.slot[usize::from(moved)] = k as u16;
            }
            self.stones[cell] = stone;
            trace.push(colour.index(), geo.move_of(cell));
            last = Some(cell);
            colour = colour.other();
        }
        if moves < total {
            return match self.partial_winner(geo) {
                Some(w) => PlayoutResult::finished(Rewards::win(w.index()), moves),
                None => PlayoutResult::stopped(Rewards::DRAW, moves),
            };
        }
        let winner = if self.black_connects(geo) {
            Colour::Black
        } else {
            Colour::White
        };
        PlayoutResult::finished(Rewards::win(winner.index()), moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{HexMove, WHITE};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;
    use rave_mcts::Game;

    fn game_from(size: usize, moves: &str) -> HexGame {
        let mut g = HexGame::new(size, false).unwrap();
        for m in moves.split_whitespace() {
            g.try_play(HexMove::parse(m).unwrap()).unwrap();
        }
        g
    }

    /// The playout's end-of-game verdict equals the winner found by replaying its trace move
    /// by move through the game's union-find (which stops at the first connection).
    #[test]
    fn fill_winner_matches_move_by_move_replay() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for bridge in [false, true] {
            let mut policy = HexPlayout::new(bridge);
            for size in [1, 2, 3, 5, 8, 11] {
                for _ in 0..60 {
                    let start = HexGame::new(size, false).unwrap();
                    let mut scratch = start.clone();
                    let mut trace = Trace::new();
                    let r = policy.playout(&mut scratch, &mut rng, usize::MAX, &mut trace);
                    assert_eq!(r.length, size * size);
                    assert_eq!(trace.len(), size * size);
                    assert!(!r.stopped_early);
                    let mut replay = start.clone();
                    for (player, mv) in trace.iter() {
                        if replay.result().is_some() {
                            break;
                        }
                        assert_eq!(player, replay.to_move());
                        replay.try_play(mv).unwrap();
                    }
                    assert_eq!(replay.result(), Some(r.outcome), "size {size}");
                }
            }
        }
    }

    #[test]
    fn playout_from_a_position_keeps_its_stones_and_alternates() {
        let start = game_from(4, "b2 c3 a4");
        let mut policy = HexPlayout::new(false);
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut trace = Trace::new();
        let mut scratch = start.clone();
        let r = policy.playout(&mut scratch, &mut rng, usize::MAX, &mut trace);
        assert_eq!(r.length, 13);
        let first = trace.get(0).unwrap();
        assert_eq!(first.0, 1); // White moves after Black's a4
        for i in 1..trace.len() {
            assert_ne!(trace.get(i).unwrap().0, trace.get(i - 1).unwrap().0);
        }
        let mut cells: Vec<HexMove> = trace.iter().map(|(_, m)| m).collect();
        cells.sort_by_key(|m| m.coords());
        cells.dedup();
        assert_eq!(cells.len(), 13);
        for taken in ["b2", "c3", "a4"] {
            assert!(!cells.contains(&HexMove::parse(taken).unwrap()));
        }
    }

    #[test]
    fn horizon_stops_early_with_a_draw_estimate() {
        let start = HexGame::new(5, false).unwrap();
        let mut policy = HexPlayout::new(false);
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut trace = Trace::new();
        let r = policy.playout(&mut start.clone(), &mut rng, 4, &mut trace);
        assert!(r.stopped_early);
        assert_eq!(r.length, 4);
        assert_eq!(r.outcome, Rewards::DRAW);
    }

    #[test]
    fn bridge_intrusions_get_answered() {
        // Black b2 and c3 on 4x4 form a bridge with carriers c2 and b3. White intrudes at c2:
        // with bridge-save on, Black's first playout move is always b3.
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let start = game_from(4, "b2 a1 c3 c2");
        for _ in 0..30 {
            let mut policy = HexPlayout::new(true);
            let mut trace = Trace::new();
            policy.playout(&mut start.clone(), &mut rng, usize::MAX, &mut trace);
            assert_eq!(trace.get(0), Some((0, HexMove::parse("b3").unwrap())));
        }
        // Without bridge-save the reply is random: some other cell comes first sometimes.
        let mut policy = HexPlayout::new(false);
        let firsts: Vec<_> = (0..30)
            .map(|_| {
                let mut trace = Trace::new();
                policy.playout(&mut start.clone(), &mut rng, usize::MAX, &mut trace);
                trace.get(0).unwrap().1
            })
            .collect();
        assert!(firsts.iter().any(|&m| m != HexMove::parse("b3").unwrap()));
    }

    #[test]
    fn edge_bridges_are_saved_too() {
        // Black b2 on 4x4 reaches the top edge through b1 or c1. White plays b1: Black c1.
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let start = game_from(4, "b2 b1");
        for _ in 0..20 {
            let mut policy = HexPlayout::new(true);
            let mut trace = Trace::new();
            policy.playout(&mut start.clone(), &mut rng, usize::MAX, &mut trace);
            assert_eq!(trace.get(0), Some((0, HexMove::parse("c1").unwrap())));
        }
        // White's own bridge to the left edge: White b2, Black a2 intrudes; White answers a3.
        let mut g = HexGame::new(4, false).unwrap();
        g.try_play_as(Colour::White, HexMove::parse("b2").unwrap())
            .unwrap();
        g.try_play_as(Colour::Black, HexMove::parse("a2").unwrap())
            .unwrap();
        assert_eq!(g.stones()[5], WHITE);
        let mut policy = HexPlayout::new(true);
        let mut trace = Trace::new();
        policy.playout(&mut g.clone(), &mut rng, usize::MAX, &mut trace);
        assert_eq!(trace.get(0), Some((1, HexMove::parse("a3").unwrap())));
    }
}
