//! The off-line ring finder of Könnecke & Waldmann, section 8: Dijkstra's algorithm in the
//! (max,min) semiring over move numbers, with a bucket queue.

use havannah_board::{Board, Cell};

use crate::position::{Position, code};
use crate::types::Colour;

/// "Never": the surround time of a cell that is not enclosed.
pub const NEVER: u16 = u16::MAX;

/// The earliest ring of a colour, as found by [`RingFinder::earliest_ring`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RingInfo {
    /// The 1-based move number that completed the ring.
    pub ply: u16,
    /// A cell the ring encloses at that move.
    pub enclosed: Cell,
}

/// Finds rings after the fact, from the move numbers of one colour's stones.
///
/// For a colour C, give every cell the time `t(c)`: the move number of its stone if it holds
/// a C stone, "never" otherwise. A cell x is enclosed at move t when every path from x to the
/// outside of the board (x itself excluded) crosses a C stone placed at move t or earlier, so
/// the move at which x is first enclosed is
///
/// ```text
/// T(x) = max over paths P from x to the outside of min over cells c of P, c != x, of t(c)
/// ```
///
/// a widest-path problem: Dijkstra's algorithm in the (max, min) semiring, started from the
/// outside. Keys are move numbers, so a bucket queue replaces the heap, and since keys only
/// decrease along the search, every cell enters the queue once: O(cells + moves). The
/// earliest ring of C is completed at `min over x of T(x)` (a cell enclosed by C stones is
/// enclosed by a ring of C, and the cells a ring encloses are enclosed).
///
/// The finder keeps its buffers between calls, so it allocates only when it meets a larger
/// board than before.
///
/// ```
/// use havannah_board::Board;
/// use havannah_rules::{Colour, GameState, RingFinder, Rules};
///
/// // White builds the six-stone ring around d4 on a size-4 board; Black plays far away.
/// let mut game = GameState::new(4, Rules { pie: false })?;
/// for mv in "c3 a1 d3 b1 e4 c1 e5 a2 d5 a3 c4".split(' ') {
///     game.play_str(mv)?;
/// }
/// let mut finder = RingFinder::new();
/// let ring = finder.earliest_ring(game.position(), Colour::White).unwrap();
/// assert_eq!(ring.ply, 11);
/// assert_eq!(game.board().cell_name(ring.enclosed).to_string(), "d4");
/// assert_eq!(finder.earliest_ring(game.position(), Colour::Black), None);
/// # Ok::<(), havannah_rules::RulesError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct RingFinder {
    /// Widest-path value per cell: V(c) = max over paths from c to the outside of the
    /// minimum time on the path, c included.
    value: Vec<u16>,
    /// Surround time per cell.
    surround: Vec<u16>,
    /// Bucket heads per key (`u16::MAX` = empty), key `moves + 1` standing for "never".
    head: Vec<u16>,
    /// The next cell in the same bucket.
    next: Vec<u16>,
    /// [`RingFinder::earliest_rings`]' widest-path values, two per cell (entry `2 * cell +
    /// colour`), with the sentinel's set so that it is never queued.
    value2: Vec<u16>,
    /// The next entry in the same bucket, for the two-colour search.
    next2: Vec<u16>,
}

const NONE: u16 = u16::MAX;

impl RingFinder {
    /// A finder with empty buffers.
    #[must_use]
    pub fn new() -> RingFinder {
        RingFinder::default()
    }

    /// For every cell, the move number at which `colour` first enclosed it, or [`NEVER`].
    /// Indexed by [`Cell::index`].
    pub fn surround_times(&mut self, position: &Position, colour: Colour) -> &[u16] {
        self.run(position, colour);
        &self.surround
    }

    /// The earliest ring of `colour` in the position, if it has one.
    pub fn earliest_ring(&mut self, position: &Position, colour: Colour) -> Option<RingInfo> {
        self.run(position, colour);
        let mut best: Option<RingInfo> = None;
        for (i, &t) in self.surround.iter().enumerate() {
            if t != NEVER && best.is_none_or(|b| t < b.ply) {
                best = Some(RingInfo {
                    ply: t,
                    enclosed: Cell::from_index(i),
                });
            }
        }
        best
    }

    /// The earliest ring of each colour (indexed by [`Colour::index`]), as
    /// [`earliest_ring`](Self::earliest_ring) finds them, in one search for both: a single
    /// bucket queue over move numbers holds (cell, colour) entries, so the board is set up
    /// and swept once. The ring cell reported for a ply is the lowest-indexed one, as there.
    ///
    /// ```
    /// use havannah_rules::{Colour, GameState, RingFinder, Rules};
    ///
    /// let mut game = GameState::new(4, Rules { pie: false })?;
    /// for mv in "c3 a1 d3 b1 e4 c1 e5 a2 d5 a3 c4".split(' ') {
    ///     game.play_str(mv)?;
    /// }
    /// let [white, black] = RingFinder::new().earliest_rings(game.position());
    /// assert_eq!(white.map(|r| r.ply), Some(11));
    /// assert_eq!(black, None);
    /// # Ok::<(), havannah_rules::RulesError>(())
    /// ```
    pub fn earliest_rings(&mut self, position: &Position) -> [Option<RingInfo>; 2] {
        let infinity_key = position.plies() + 1;
        self.queue_edges_of_both(position, infinity_key);
        self.sweep_both(position, infinity_key);
        self.earliest_surrounds(position.board())
    }

    /// Puts the bucket queue of [`earliest_rings`](Self::earliest_rings) in its start state:
    /// every entry of an edge cell queued at its own time, nothing else reached.
    fn queue_edges_of_both(&mut self, position: &Position, infinity_key: usize) {
        let board: &Board = position.board();
        let n = board.num_cells();
        self.value2.clear();
        self.value2.resize(2 * (n + 1), 0);
        // The sentinel (index n) counts as reached: it is never queued.
        self.value2[2 * n] = NEVER;
        self.value2[2 * n + 1] = NEVER;
        self.next2.clear();
        self.next2.resize(2 * n, NONE);
        self.head.clear();
        self.head.resize(infinity_key + 1, NONE);
        // 0 in `value2` means "not reached yet": times are 1-based.
        for cell in board.cells().filter(|&c| board.edge_mask(c) != 0) {
            for e in [2 * cell.index(), 2 * cell.index() + 1] {
                let v = entry_time(position, e);
                self.value2[e] = v;
                self.push2(e, v, infinity_key);
            }
        }
    }

    /// Queues entry `e` in the bucket of time `t` (never: the last bucket).
    #[inline]
    fn push2(&mut self, e: usize, t: u16, infinity_key: usize) {
        let k = usize::from(t).min(infinity_key);
        self.next2[e] = self.head[k];
        self.head[k] = e as u16;
    }

    /// Takes the entries from the latest bucket down: each reaches its unreached neighbours
    /// of its colour with the minimum of its value and theirs.
    fn sweep_both(&mut self, position: &Position, infinity_key: usize) {
        let board: &Board = position.board();
        let mut key = infinity_key;
        loop {
            let e = self.head[key];
            if e == NONE {
                if key == 0 {
                    break;
                }
                key -= 1;
                continue;
            }
            let e = usize::from(e);
            self.head[key] = self.next2[e];
            let v = self.value2[e];
            let colour = e & 1;
            for nb in board.neighbours6(Cell::from_index(e >> 1)) {
                let f = 2 * nb.index() + colour;
                if self.value2[f] == 0 {
                    let w = v.min(entry_time(position, f));
                    self.value2[f] = w;
                    self.push2(f, w, infinity_key);
                }
            }
        }
    }

    /// A cell's surround time is the best value among its neighbours; a colour's earliest
    /// ring is the least surround time over the inner cells (the lowest cell on ties).
    fn earliest_surrounds(&self, board: &Board) -> [Option<RingInfo>; 2] {
        let mut best: [Option<RingInfo>; 2] = [None, None];
        for cell in board.cells().filter(|&c| board.edge_mask(c) == 0) {
            let nbs = board.neighbours6(cell);
            for (colour, best) in best.iter_mut().enumerate() {
                let t = nbs
                    .iter()
                    .map(|nb| self.value2[2 * nb.index() + colour])
                    .max()
                    .unwrap_or(NEVER);
                if t != NEVER && best.is_none_or(|b| t < b.ply) {
                    *best = Some(RingInfo {
                        ply: t,
                        enclosed: cell,
                    });
                }
            }
        }
        best
    }

    fn run(&mut self, position: &Position, colour: Colour) {
        let board: &Board = position.board();
        let n = board.num_cells();
        let c = code(colour);
        let stones = position.stone_codes();
        let placed = position.placements();
        let infinity_key = position.plies() + 1;
        let time = |i: usize| -> u16 { if stones[i] == c { placed[i] } else { NEVER } };
        let key_of = |t: u16| -> usize {
            if t == NEVER {
                infinity_key
            } else {
                usize::from(t)
            }
        };

        self.value.clear();
        self.value.resize(n, 0);
        self.surround.clear();
        self.surround.resize(n, NEVER);
        self.next.clear();
        self.next.resize(n, NONE);
        self.head.clear();
        self.head.resize(infinity_key + 1, NONE);

        // 0 in `value` means "not reached yet": times are 1-based, so a reached cell has a
        // value of at least 1.
        for cell in board.cells() {
            if board.edge_mask(cell) != 0 {
                let i = cell.index();
                let v = time(i);
                self.value[i] = v;
                let k = key_of(v);
                self.next[i] = self.head[k];
                self.head[k] = i as u16;
            }
        }
        let mut key = infinity_key;
        loop {
            let i = self.head[key];
            if i == NONE {
                if key == 0 {
                    break;
                }
                key -= 1;
                continue;
            }
            let i = usize::from(i);
            self.head[key] = self.next[i];
            let v = self.value[i];
            for &nb in board.neighbours(Cell::from_index(i)) {
                let j = nb.index();
                if self.value[j] == 0 {
                    let w = v.min(time(j));
                    self.value[j] = w;
                    let k = key_of(w);
                    self.next[j] = self.head[k];
                    self.head[k] = j as u16;
                }
            }
        }
        for cell in board.cells() {
            let i = cell.index();
            if board.edge_mask(cell) != 0 {
                continue;
            }
            let best = board
                .neighbours(cell)
                .iter()
                .map(|nb| self.value[nb.index()])
                .max()
                .unwrap_or(NEVER);
            self.surround[i] = best;
        }
    }
}

/// The time of entry `e = 2 * cell + colour index` in the two-colour search: the move number
/// of the cell's stone if it has that colour (stone codes 1, 2 = colour index + 1), else never.
#[inline]
fn entry_time(position: &Position, e: usize) -> u16 {
    let i = e >> 1;
    if usize::from(position.stone_codes()[i]) == (e & 1) + 1 {
        position.placements()[i]
    } else {
        NEVER
    }
}
