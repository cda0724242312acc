//! Havannah as a [`rave_mcts::Game`].

use havannah_board::{Board, Cell};
use havannah_rules::{Colour, GameState, Move, Position, RingDetection};
use rave_mcts::{Player, Rewards};

/// The engine's move: the `Move` of [`HavannahGame`] for the generic [`rave_mcts::Game`]
/// trait, a cell index, or `swap` as the index one past the last cell (convert from and to the
/// rules' [`Move`] with [`HMove::from_move`] and [`HMove::to_move`]).
///
/// Two bytes, so tree nodes stay at 32 bytes. [`rave_mcts::Game::move_index`] is the raw
/// value, dense over `0..=num_cells`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HMove(pub u16);

impl HMove {
    /// The move placing a stone on `cell`.
    #[inline]
    #[must_use]
    pub fn cell(cell: Cell) -> HMove {
        HMove(cell.index() as u16)
    }

    /// The `swap` move on `board`.
    #[inline]
    #[must_use]
    pub fn swap(board: &Board) -> HMove {
        HMove(board.num_cells() as u16)
    }

    /// The rules' move for this one on `board`.
    #[must_use]
    pub fn to_move(self, board: &Board) -> Move {
        if usize::from(self.0) >= board.num_cells() {
            Move::Swap
        } else {
            Move::Cell(Cell::from_index(usize::from(self.0)))
        }
    }

    /// This crate's move for a rules' move on `board`.
    #[must_use]
    pub fn from_move(mv: Move, board: &Board) -> HMove {
        match mv {
            Move::Cell(c) => HMove::cell(c),
            Move::Swap => HMove::swap(board),
        }
    }
}

/// Havannah for the generic search: a [`Position`] with rings found on-line (so terminal
/// states are exact in the tree), the pie rule, and the mapping from colours to players.
///
/// Player 0 is the player who moved first. White's stones belong to player 0 unless the
/// second player answered with `swap`, after which they belong to player 1.
#[derive(Debug)]
pub struct HavannahGame {
    pos: Position,
    pie: bool,
    swapped: bool,
    /// The cells of the last two stones (last first), `u16::MAX` where none.
    last: [u16; 2],
}

impl Clone for HavannahGame {
    fn clone(&self) -> HavannahGame {
        HavannahGame {
            pos: self.pos.clone(),
            pie: self.pie,
            swapped: self.swapped,
            last: self.last,
        }
    }

    fn clone_from(&mut self, source: &HavannahGame) {
        self.pos.clone_from(&source.pos);
        self.pie = source.pie;
        self.swapped = source.swapped;
        self.last = source.last;
    }
}

impl HavannahGame {
    /// The empty board.
    #[must_use]
    pub fn new(board: &'static Board, pie: bool) -> HavannahGame {
        HavannahGame {
            pos: Position::new(board, RingDetection::Online),
            pie,
            swapped: false,
            last: [u16::MAX; 2],
        }
    }

    /// The state of a checked game (its moves replayed).
    #[must_use]
    pub fn from_game(game: &GameState) -> HavannahGame {
        let mut g = HavannahGame::new(game.board(), game.rules().pie);
        for &mv in game.moves() {
            rave_mcts::Game::play(&mut g, HMove::from_move(mv, game.board()));
        }
        g
    }

    /// The position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position, mutably (playouts play on it).
    #[inline]
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// The board.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.pos.board()
    }

    /// Whether `swap` was played.
    #[inline]
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The cells of the last stone and of the one before (`u16::MAX` where there is none).
    #[inline]
    #[must_use]
    pub fn last_cells(&self) -> (u16, u16) {
        (self.last[0], self.last[1])
    }

    /// Whether the pie rule is on.
    #[inline]
    #[must_use]
    pub fn pie(&self) -> bool {
        self.pie
    }

    /// The player who owns the stones of `colour`.
    #[inline]
    #[must_use]
    pub fn player_of(&self, colour: Colour) -> Player {
        colour.index() ^ usize::from(self.swapped)
    }
}

impl rave_mcts::Game for HavannahGame {
    type Move = HMove;

    #[inline]
    fn to_move(&self) -> Player {
        self.pos.plies() & 1
    }

    fn legal_moves(&self, moves: &mut Vec<HMove>) {
        if self.pos.win().is_some() {
            return;
        }
        let board = self.pos.board();
        moves.extend(
            board
                .cells()
                .filter(|&c| self.pos.is_empty(c))
                .map(HMove::cell),
        );
        if self.pie && self.pos.plies() == 1 {
            moves.push(HMove::swap(board));
        }
    }

    #[inline]
    fn play(&mut self, mv: HMove) {
        if usize::from(mv.0) >= self.pos.board().num_cells() {
            self.pos.swap();
            self.swapped = true;
        } else {
            self.pos.place(Cell::from_index(usize::from(mv.0)));
            self.last = [mv.0, self.last[0]];
        }
    }

    #[inline]
    fn result(&self) -> Option<Rewards> {
        if let Some(win) = self.pos.win() {
            Some(Rewards::win(self.player_of(win.winner)))
        } else if self.pos.is_full() {
            Some(Rewards::DRAW)
        } else {
            None
        }
    }

    #[inline]
    fn move_index(&self, mv: HMove) -> usize {
        usize::from(mv.0)
    }

    #[inline]
    fn move_bound(&self) -> usize {
        self.pos.board().num_cells() + 1
    }
}
