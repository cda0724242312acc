//! Havannah as a [`rave_mcts::Game`], whose moves are the rules' [`Move`]s.

use havannah_board::{Board, Cell};
use havannah_rules::{Colour, GameState, Move, Position, RingDetection};
use rave_mcts::{Player, Rewards};

/// Havannah for the generic search: a [`Position`] with rings found on-line (so terminal
/// states are exact in the tree), the pie rule, and the mapping from colours to players.
///
/// Its moves are the rules' [`Move`] (four bytes, so a tree node stays at 32 bytes); the
/// dense [`rave_mcts::Game::move_index`] of a cell is the cell's index, and `swap`'s is one
/// past the last cell.
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
        HavannahGame::from_game_with_pie(game, game.rules().pie)
    }

    /// The state of a checked game (its moves replayed) with the pie rule on or off: off, a
    /// search at ply 1 does not consider `swap` (the engine declining it).
    #[must_use]
    pub fn from_game_with_pie(game: &GameState, pie: bool) -> HavannahGame {
        let mut g = HavannahGame::new(game.board(), pie);
        for &mv in game.moves() {
            rave_mcts::Game::play(&mut g, mv);
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

    /// The cell of the last stone, if a stone was placed.
    #[inline]
    #[must_use]
    pub fn last_cell(&self) -> Option<Cell> {
        let last = usize::from(self.last[0]);
        (last < self.pos.board().num_cells()).then(|| Cell::from_index(last))
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
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.pos.plies() & 1
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.pos.win().is_some() {
            return;
        }
        let board = self.pos.board();
        moves.extend(
            board
                .cells()
                .filter(|&c| self.pos.is_empty(c))
                .map(Move::Cell),
        );
        if self.pie && self.pos.plies() == 1 {
            moves.push(Move::Swap);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        match mv {
            Move::Cell(cell) => {
                self.pos.place(cell);
                self.last = [cell.raw(), self.last[0]];
            }
            Move::Swap => {
                self.pos.swap();
                self.swapped = true;
            }
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
    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Cell(cell) => cell.index(),
            Move::Swap => self.pos.board().num_cells(),
        }
    }

    #[inline]
    fn move_bound(&self) -> usize {
        self.pos.board().num_cells() + 1
    }
}

#[cfg(test)]
mod tests {
    use havannah_rules::{Cell, GameState, Rules};
    use rave_mcts::Game;

    use super::*;

    #[test]
    fn a_move_keeps_tree_nodes_at_32_bytes() {
        assert_eq!(size_of::<Move>(), 4);
        let search = crate::EngineConfig::best().search;
        assert_eq!(
            rave_mcts::bytes_per_node::<Move>(&search),
            rave_mcts::bytes_per_node::<u16>(&search)
        );
    }

    #[test]
    fn move_indices_are_dense_and_swap_is_last() {
        let mut rules = GameState::new(3, Rules { pie: true }).unwrap();
        rules.play_str("b2").unwrap();
        let game = HavannahGame::from_game(&rules);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let indices: Vec<usize> = moves.iter().map(|&m| game.move_index(m)).collect();
        let cells = game.board().num_cells();
        let b2 = game.board().parse_cell("b2").unwrap().index();
        let want: Vec<usize> = (0..=cells).filter(|&i| i != b2).collect();
        assert_eq!(indices, want);
        assert_eq!(moves.last(), Some(&Move::Swap));
        assert_eq!(game.move_bound(), cells + 1);
        assert_eq!(game.move_index(Move::Cell(Cell::from_index(b2))), b2);
        let mut swapped = game.clone();
        swapped.play(Move::Swap);
        assert!(swapped.swapped());
        assert_eq!(swapped.player_of(Colour::White), 1);
    }
}
