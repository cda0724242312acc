//! Hex on a small board, written out in full as a worked example of the `rave-mcts` traits: the
//! board, [`Game`] (what the search needs to know about the rules) and [`Playout`] (a fast way
//! to finish a game at random, which is where a search spends most of its time).
//!
//! Hex: two players take turns putting a stone of their colour on an empty cell of a rhombus
//! of hexagons. Player 0 (`X`) wins by joining the top and bottom rows with a chain of its
//! stones, player 1 (`O`) by joining the left and right columns. A full board always holds
//! exactly one such chain, so every game has a winner and none ends in a draw.

use std::fmt;

use rand::{Rng, RngExt};
use rave_mcts::{Game, Player, Playout, PlayoutResult, Rewards, Trace};

/// Largest board side supported: a cell index, plus the four edge cells, fits in a `u8`.
pub const HEX_MAX: usize = 11;
/// Cells in the array of a board of the largest side; smaller boards use a prefix.
const HEX_CELLS: usize = HEX_MAX * HEX_MAX;

/// Hex on an `n x n` board (`n <= HEX_MAX`). Player 0 connects the top and bottom rows,
/// player 1 the left and right columns. Cell `r * n + c` is row `r`, column `c`; its neighbours
/// are (r-1,c) (r-1,c+1) (r,c-1) (r,c+1) (r+1,c-1) (r+1,c).
///
/// The search clones the root position once per simulation, so the state is a plain `Copy`
/// value with no heap buffer: cloning is one `memcpy`. A union-find over the cells, with four
/// virtual cells for the four edges, tells after each move whether a player has connected, so
/// [`Game::result`] is a field read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex {
    /// Side length.
    pub n: u8,
    /// 0 empty, 1 player 0, 2 player 1.
    pub cells: [u8; HEX_CELLS],
    /// Union-find parents: the cells, then the top, bottom, left and right edges.
    parent: [u8; HEX_CELLS + 4],
    /// Player to move.
    pub player: u8,
    /// Winner + 1, or 0.
    winner: u8,
    /// Stones played.
    pub ply: u8,
}

impl Hex {
    /// An empty board of side `n` (2..=11).
    pub fn new(n: usize) -> Self {
        assert!((2..=HEX_MAX).contains(&n));
        let mut parent = [0u8; HEX_CELLS + 4];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        Hex {
            n: n as u8,
            cells: [0; HEX_CELLS],
            parent,
            player: 0,
            winner: 0,
            ply: 0,
        }
    }

    /// Number of cells.
    pub fn size(&self) -> usize {
        usize::from(self.n) * usize::from(self.n)
    }

    /// The representative of the group of `x`, halving the path on the way.
    fn find(&mut self, mut x: usize) -> usize {
        while usize::from(self.parent[x]) != x {
            let p = usize::from(self.parent[x]);
            self.parent[x] = self.parent[p];
            x = usize::from(self.parent[x]);
        }
        x
    }

    /// Joins the groups of `a` and `b`.
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb as u8;
        }
    }

    /// Whether the cell is empty.
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == 0
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Player> {
        (self.winner != 0).then(|| usize::from(self.winner) - 1)
    }

    /// The name of a cell: its column as a letter and its row from 1, e.g. `c4`.
    pub fn cell_name(&self, cell: u8) -> String {
        let n = self.n;
        format!("{}{}", char::from(b'a' + cell % n), cell / n + 1)
    }
}

/// The rules as the search sees them. The search never looks inside `Hex`: it asks whose turn
/// it is, which moves exist, plays them and asks for the result.
impl Game for Hex {
    /// A move is a cell index. Every tree node stores one, so a one-byte move keeps nodes small.
    type Move = u8;

    /// The player to move, 0 or 1. The search uses it to credit each simulation's reward to
    /// the player who made each move.
    fn to_move(&self) -> Player {
        usize::from(self.player)
    }

    /// Appends the empty cells, in increasing order: the order must be the same every time the
    /// same position is seen, since it fixes the order of a node's children and so the
    /// search's tie-breaking (a seeded search is then reproducible). A finished game has no
    /// moves.
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.winner != 0 {
            return;
        }
        moves.extend((0..self.size() as u8).filter(|&c| self.cells[usize::from(c)] == 0));
    }

    /// Puts a stone of the player to move on `mv`, joins it to its neighbours of the same
    /// colour and to the edges it touches, records a win when the player's two edges fall in
    /// one group, and passes the turn. The search calls it only with a legal move; it runs
    /// on every move of every simulation, so it does a constant amount of work.
    fn play(&mut self, mv: u8) {
        let n = usize::from(self.n);
        let cell = usize::from(mv);
        let stone = self.player + 1;
        self.cells[cell] = stone;
        let (r, c) = ((cell / n) as isize, (cell % n) as isize);
        for (dr, dc) in [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] {
            let (rr, cc) = (r + dr, c + dc);
            if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < n {
                let other = rr as usize * n + cc as usize;
                if self.cells[other] == stone {
                    self.union(cell, other);
                }
            }
        }
        let e = HEX_CELLS;
        if self.player == 0 {
            if r == 0 {
                self.union(cell, e);
            }
            if r as usize == n - 1 {
                self.union(cell, e + 1);
            }
            if self.find(e) == self.find(e + 1) {
                self.winner = 1;
            }
        } else {
            if c == 0 {
                self.union(cell, e + 2);
            }
            if c as usize == n - 1 {
                self.union(cell, e + 3);
            }
            if self.find(e + 2) == self.find(e + 3) {
                self.winner = 2;
            }
        }
        self.player = 1 - self.player;
        self.ply += 1;
    }

    /// `None` while the game goes on, else a win for the player who connected. The search
    /// asks at every node it reaches; a state that is not over must have a legal move, which
    /// holds here because a full board always has a winner.
    fn result(&self) -> Option<Rewards> {
        (self.winner != 0).then(|| Rewards::win(usize::from(self.winner) - 1))
    }

    /// A dense index for the move, the same in every position: RAVE and GRAVE keep their
    /// all-moves-as-first statistics per move index ("playing this cell at any time later in
    /// the simulation"), so a cell must have one index wherever it is played. The cell index
    /// itself will do.
    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    /// One more than the largest move index, fixed for the whole game: the size of the
    /// per-move AMAF tables.
    fn move_bound(&self) -> usize {
        self.size()
    }
}

/// A fast Hex playout: draws uniformly among the empty cells (kept in a list, so a move costs
/// O(1)) until someone connects.
///
/// `Mcts::new` would use `UniformPlayout`, which asks [`Game::legal_moves`] again after every
/// move; a playout written for the game is the main speed-up a user can give the search. The
/// list is kept in `self` so it is allocated once per search thread, not once per playout.
#[derive(Clone, Debug, Default)]
pub struct HexPlayout {
    empty: Vec<u8>,
}

impl Playout<Hex> for HexPlayout {
    /// Plays random stones until someone connects, pushing every move with its player onto
    /// `trace` (RAVE and GRAVE learn from the moves of the playout as well as from those of
    /// the tree), and reports the winner and the number of moves played. If the search sets a
    /// horizon (`max_moves`) and it is reached first, the playout stops with a draw as its
    /// estimate.
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut Hex,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<u8>,
    ) -> PlayoutResult {
        self.empty.clear();
        self.empty
            .extend((0..game.size() as u8).filter(|&c| game.is_empty(usize::from(c))));
        let mut length = 0;
        while game.winner == 0 {
            if length >= max_moves || self.empty.is_empty() {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            let i = rng.random_range(0..self.empty.len());
            let mv = self.empty.swap_remove(i);
            trace.push(game.to_move(), mv);
            game.play(mv);
            length += 1;
        }
        PlayoutResult::finished(Rewards::win(usize::from(game.winner) - 1), length)
    }
}

/// The board as a rhombus: each row is shifted half a cell to the right of the one above, so
/// a cell's six neighbours are the ones drawn around it. `X` is player 0 (top to bottom), `O`
/// player 1 (left to right), `.` an empty cell.
///
/// ```text
///    a b c
///  1 . X .
///   2 O X .
///    3 . X .
/// ```
impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = usize::from(self.n);
        let letters: Vec<String> = (0..n)
            .map(|c| char::from(b'a' + c as u8).to_string())
            .collect();
        writeln!(f, "   {}", letters.join(" "))?;
        for r in 0..n {
            let row: Vec<&str> = (0..n)
                .map(|c| match self.cells[r * n + c] {
                    1 => "X",
                    2 => "O",
                    _ => ".",
                })
                .collect();
            writeln!(
                f,
                "{:indent$}{:>2} {}",
                "",
                r + 1,
                row.join(" "),
                indent = r
            )?;
        }
        Ok(())
    }
}
