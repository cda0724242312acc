//! A minimal Havannah adapter for `rave-mcts`, used only as a fixed-simulation evaluation
//! opponent for the value net. The engine brings its own, faster `Game`.

use havannah_board::Cell;
use havannah_rules::{Colour, Position};
use rand::Rng;
use rave_mcts::{Budget, Config, Game, Mcts, Player, Rewards};

use havannah::td::TdError;

/// A [`Position`] seen as a [`rave_mcts::Game`]: moves are empty cells, no pie rule.
#[derive(Debug)]
struct TdMctsGame {
    pos: Position,
}

impl Clone for TdMctsGame {
    fn clone(&self) -> Self {
        TdMctsGame {
            pos: self.pos.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.pos.clone_from(&source.pos);
    }
}

fn player(colour: Colour) -> Player {
    match colour {
        Colour::White => 0,
        Colour::Black => 1,
    }
}

impl Game for TdMctsGame {
    type Move = Cell;

    fn to_move(&self) -> Player {
        player(self.pos.to_move())
    }

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        if self.pos.win().is_none() {
            moves.extend(self.pos.board().cells().filter(|&c| self.pos.is_empty(c)));
        }
    }

    fn play(&mut self, mv: Cell) {
        self.pos.place(mv);
    }

    fn result(&self) -> Option<Rewards> {
        if let Some(win) = self.pos.win() {
            Some(Rewards::win(player(win.winner)))
        } else if self.pos.is_full() {
            Some(Rewards::DRAW)
        } else {
            None
        }
    }

    fn move_index(&self, mv: Cell) -> usize {
        mv.index()
    }

    fn move_bound(&self) -> usize {
        self.pos.board().num_cells()
    }
}

/// The move of a plain UCT search (default `rave-mcts` settings, MCTS-solver on, uniform
/// random playouts) with `simulations` simulations from `pos`, which must not be over.
pub(crate) fn mcts_move<R: Rng + ?Sized>(
    pos: &Position,
    simulations: u64,
    rng: &mut R,
) -> Result<Cell, TdError> {
    let game = TdMctsGame { pos: pos.clone() };
    let mut search = Mcts::new(game, Config::default());
    let result = search.search(&Budget::simulations(simulations), rng)?;
    Ok(result.best_move)
}
