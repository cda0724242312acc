//! The position of Y: a triangle of hexagons, stones, and a union-find that tracks which of
//! the three sides each group touches, so a win is known the moment it happens.

use connection_kit::bridge::Ring;
use connection_kit::triangle::Triangle;
use connection_kit::{Connection, Groups, Placement};
use game_harness::{MatchGame, Side, Verdict};
use rave_mcts::{Game, Player, Rewards};

/// The largest side length: every cell's index in a `MAX_SIZE`-wide square fits a `u8`.
pub const MAX_SIZE: usize = 16;
/// The smallest side length (as morat-y).
pub const MIN_SIZE: usize = 3;
const AREA: usize = MAX_SIZE * MAX_SIZE;
/// The board's shape: a triangle in a `MAX_SIZE`-wide square of cells.
type Shape = Triangle<MAX_SIZE>;
/// Every side touched: x = 0, y = 0 and x + y = size - 1.
const ALL_SIDES: u32 = 0b111;

/// Why a move or a size was refused; each names the bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YError {
    /// A side length outside `MIN_SIZE..=MAX_SIZE`.
    #[error("board size {0} is out of range {MIN_SIZE}..={MAX_SIZE}")]
    Size(usize),
    /// A name that is no cell of this board.
    #[error("{0:?} is not a cell of this board")]
    NotACell(String),
    /// A stone is there already.
    #[error("{0} is occupied")]
    Occupied(String),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
}

/// A game of Y on a triangle of side `size`. Cell (x, y) with x + y < size has index
/// `y * MAX_SIZE + x` and is named `a1` for (0, 0): column letter from x, row number from y
/// (the notation of morat-y). The first side (White) moves first; a player wins by joining all
/// three sides with one group (a corner cell touches two). A full board always has a winner.
///
/// A plain `Copy` value (the search clones it once per simulation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Y {
    shape: Shape,
    /// 0 empty, 1 the first side's stone, 2 the second side's.
    stones: [u8; AREA],
    /// The groups of stones with the sides each touches (connection-kit's union-find).
    groups: Groups<[u8; AREA], [u32; AREA]>,
    /// The cells played, in order; the first `plies` are valid.
    order: [u8; AREA],
    plies: u8,
    /// Winner's stone (1 or 2), 0 while the game goes on.
    winner: u8,
}

impl Y {
    /// An empty board of side `size`.
    ///
    /// # Errors
    /// [`YError::Size`] outside `MIN_SIZE..=MAX_SIZE`.
    pub fn new(size: usize) -> Result<Y, YError> {
        let shape = Shape::new(size)
            .filter(|_| size >= MIN_SIZE)
            .ok_or(YError::Size(size))?;
        Ok(Y {
            shape,
            stones: [0; AREA],
            groups: Groups::new([0; AREA], [0; AREA]),
            order: [0; AREA],
            plies: 0,
            winner: 0,
        })
    }

    /// The side length.
    #[must_use]
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// Every cell of the board, row by row.
    pub fn cells(&self) -> impl Iterator<Item = u8> + '_ {
        self.shape.cells().map(|c| c as u8)
    }

    /// The stone on `cell`: `None` when empty, else the side that owns it.
    #[must_use]
    pub fn stone(&self, cell: u8) -> Option<Side> {
        match self.stones[usize::from(cell)] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// The board as text, row `size` on top as in a triangle, `.` empty, `W`/`B` stones.
    #[must_use]
    pub fn render(&self) -> String {
        self.shape
            .render(|c| [b'.', b'W', b'B'][usize::from(self.stones[c])].into())
    }

    /// Places a stone of the side to move on an empty cell (unchecked) and joins it.
    fn place(&mut self, cell: u8) {
        let i = usize::from(cell);
        let stone = 1 + (self.plies & 1);
        self.stones[i] = stone;
        self.groups.place(i, self.shape.sides(i));
        for d in 0..6 {
            if let Some(j) = self.shape.neighbour(i, d)
                && self.stones[j] == stone
            {
                self.groups.union(i, j);
            }
        }
        if self.groups.edges(i) == ALL_SIDES {
            self.winner = stone;
        }
        self.order[usize::from(self.plies)] = cell;
        self.plies += 1;
    }

    /// The name of a cell: column letter, row number (`a1`).
    #[must_use]
    pub fn cell_name(cell: u8) -> String {
        Shape::name(cell.into())
    }
}

impl Game for Y {
    type Move = u8;

    fn to_move(&self) -> Player {
        usize::from(self.plies & 1)
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.winner == 0 {
            moves.extend(self.cells().filter(|&c| self.stones[usize::from(c)] == 0));
        }
    }

    fn play(&mut self, mv: u8) {
        self.place(mv);
    }

    fn result(&self) -> Option<Rewards> {
        (self.winner != 0).then(|| Rewards::win(usize::from(self.winner) - 1))
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_bound(&self) -> usize {
        AREA
    }
}

/// Y for connection-kit's threat test: player 0 is the first side; a group's mask holds the
/// sides it touches, and all three win.
impl Connection for Y {
    fn empty_cells(&self, f: &mut dyn FnMut(usize)) {
        for cell in self.cells().filter(|&c| self.stones[usize::from(c)] == 0) {
            f(usize::from(cell));
        }
    }

    fn stone(&self, cell: usize) -> Option<usize> {
        usize::from(self.stones[cell]).checked_sub(1)
    }

    fn neighbours(&self, cell: usize, f: &mut dyn FnMut(usize)) {
        (0..6)
            .filter_map(|d| self.shape.neighbour(cell, d))
            .for_each(f);
    }

    fn edge_mask(&self, cell: usize, _player: usize) -> u32 {
        self.shape.sides(cell)
    }

    fn group_mask(&self, cell: usize) -> u32 {
        self.groups.root_edges(cell)
    }

    fn wins(&self, mask: u32, _player: usize) -> bool {
        mask == ALL_SIDES
    }
}

/// Y for connection-kit's playout and prior: every side counts as the player's (a group needs
/// all three).
impl Placement for Y {
    fn last_cell(&self) -> Option<usize> {
        let last = self.plies.checked_sub(1)?;
        Some(usize::from(self.order[usize::from(last)]))
    }

    fn ring(&self, cell: usize) -> Ring {
        let me = 1 + (self.plies & 1);
        let mut ring = Ring::default();
        for d in 0..6 {
            match self.shape.neighbour(cell, d).map(|j| self.stones[j]) {
                None => ring.edges |= 1 << d,
                Some(0) => ring.empty |= 1 << d,
                Some(s) if s == me => ring.mine |= 1 << d,
                Some(_) => {}
            }
        }
        ring
    }

    fn neighbour(&self, cell: usize, direction: usize) -> Option<usize> {
        self.shape.neighbour(cell, direction)
    }

    fn move_onto(&self, cell: usize) -> u8 {
        cell as u8
    }

    fn cell_of(&self, mv: u8) -> Option<usize> {
        Some(usize::from(mv))
    }
}

impl MatchGame for Y {
    type Move = u8;
    type Error = YError;

    fn moves(&self) -> &[u8] {
        &self.order[..usize::from(self.plies)]
    }

    fn try_play(&mut self, mv: u8) -> Result<(), YError> {
        if self.winner != 0 {
            return Err(YError::GameOver);
        }
        let i = usize::from(mv);
        if i % MAX_SIZE + i / MAX_SIZE >= self.size() {
            return Err(YError::NotACell(format!("cell #{i}")));
        }
        if self.stones[i] != 0 {
            return Err(YError::Occupied(Y::cell_name(mv)));
        }
        self.place(mv);
        Ok(())
    }

    fn verdict(&self) -> Option<Verdict> {
        match self.winner {
            1 => Some(Verdict::Win(Side::First)),
            2 => Some(Verdict::Win(Side::Second)),
            _ => None,
        }
    }

    fn move_name(&self, mv: u8) -> String {
        Y::cell_name(mv)
    }

    fn parse_move(&self, text: &str) -> Result<u8, YError> {
        (self.shape.parse(text).map(|c| c as u8)).ok_or_else(|| YError::NotACell(text.to_string()))
    }
}
