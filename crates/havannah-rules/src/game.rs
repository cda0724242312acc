//! The checked game state users play on.

use havannah_board::{Board, Cell};

use crate::error::RulesError;
use crate::position::{Position, RingDetection};
use crate::types::{Colour, Kinds, Move, Outcome, Rules};

/// A game of Havannah: the position, the moves so far, the rule set and the outcome.
///
/// Every move is checked; a rejected move returns an error naming it and leaves the game as it
/// was. Rings are found on-line, so [`GameState::outcome`] is always exact.
///
/// ```
/// use havannah_rules::{Colour, GameState, Kinds, Rules};
///
/// let mut game = GameState::new(4, Rules::default())?;
/// game.play_str("d4")?;
/// game.play_str("swap")?; // the second player takes White's stone; Black moves next
/// assert_eq!(game.to_move(), Colour::Black);
/// assert!(game.play_str("d4").is_err()); // occupied: the game is unchanged
/// assert_eq!(game.moves().len(), 2);
/// # Ok::<(), havannah_rules::RulesError>(())
/// ```
#[derive(Debug, Clone)]
pub struct GameState {
    position: Position,
    rules: Rules,
    moves: Vec<Move>,
    outcome: Outcome,
}

impl GameState {
    /// A new game on a board of `size` cells per side.
    ///
    /// # Errors
    /// [`RulesError::Board`] when the size is not supported (2 to 13).
    pub fn new(size: u8, rules: Rules) -> Result<GameState, RulesError> {
        Ok(GameState::on_board(Board::new(size)?, rules))
    }

    /// A new game on a board geometry.
    #[must_use]
    pub fn on_board(board: &'static Board, rules: Rules) -> GameState {
        GameState {
            position: Position::new(board, RingDetection::Online),
            rules,
            moves: Vec::new(),
            outcome: Outcome::Ongoing,
        }
    }

    /// The board geometry.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.position.board()
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The fast position underneath (for search code).
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The colour of the next stone.
    #[must_use]
    pub fn to_move(&self) -> Colour {
        self.position.to_move()
    }

    /// The stone on a cell, if any.
    #[must_use]
    pub fn stone(&self, cell: Cell) -> Option<Colour> {
        self.position.stone(cell)
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether the second move was `swap`, so the side that opened the game plays Black.
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.moves().get(1) == Some(&Move::Swap)
    }

    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The outcome so far.
    #[must_use]
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// Whether `mv` may be played now; the error says why not.
    ///
    /// # Errors
    /// The error [`GameState::play`] would return.
    pub fn check(&self, mv: Move) -> Result<(), RulesError> {
        let board = self.board();
        if self.outcome.is_over() {
            return Err(RulesError::GameOver {
                mv: mv.to_notation(board),
            });
        }
        match mv {
            Move::Swap => {
                if !self.rules.pie {
                    return Err(RulesError::SwapDisabled);
                }
                if self.moves.len() != 1 {
                    return Err(RulesError::SwapNotSecond {
                        ply: self.moves.len() + 1,
                    });
                }
            }
            Move::Cell(cell) => {
                if cell.index() >= board.num_cells() {
                    return Err(RulesError::CellOffBoard {
                        index: cell.index(),
                        size: board.size(),
                    });
                }
                if !self.position.is_empty(cell) {
                    return Err(RulesError::Occupied {
                        cell: board.cell_name(cell).to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Plays a move and returns the figures it completed: empty unless the move won.
    ///
    /// # Errors
    /// [`RulesError::GameOver`], [`RulesError::Occupied`], [`RulesError::SwapDisabled`],
    /// [`RulesError::SwapNotSecond`], or [`RulesError::CellOffBoard`] for a cell of a larger board.
    /// The game is unchanged on error.
    pub fn play(&mut self, mv: Move) -> Result<Kinds, RulesError> {
        self.check(mv)?;
        self.moves.push(mv);
        let kinds = match mv {
            Move::Swap => {
                self.position.swap();
                Kinds::NONE
            }
            Move::Cell(cell) => self.position.place(cell),
        };
        if let (false, Move::Cell(cell)) = (kinds.is_empty(), mv) {
            let winner = self.position.stone(cell).unwrap_or(Colour::White);
            self.outcome = Outcome::Win {
                winner,
                kinds,
                chain: self.position.chain(cell),
            };
        } else if self.position.is_full() {
            self.outcome = Outcome::Draw;
        }
        Ok(kinds)
    }

    /// Parses a move (`h8`, `H8` or `swap`) and plays it.
    ///
    /// # Errors
    /// A parse error naming the text, or any error of [`GameState::play`].
    pub fn play_str(&mut self, text: &str) -> Result<Kinds, RulesError> {
        let mv = Move::parse(self.board(), text)?;
        self.play(mv)
    }

    /// Takes back the last move and returns it. The game is rebuilt from the remaining moves
    /// (a disjoint-set forest cannot be split), which costs one replay of the game.
    ///
    /// # Errors
    /// [`RulesError::NothingToUndo`] when no move has been played.
    pub fn undo(&mut self) -> Result<Move, RulesError> {
        let last = self.moves.pop().ok_or(RulesError::NothingToUndo)?;
        let moves = std::mem::take(&mut self.moves);
        let mut fresh = GameState::on_board(self.board(), self.rules);
        for &mv in &moves {
            // These moves were legal before, so replaying them cannot fail.
            fresh.play(mv)?;
        }
        *self = fresh;
        Ok(last)
    }

    /// The stones per cell (indexed by [`Cell::index`]), for the [`reference`](mod@crate::reference)
    /// functions and for display.
    #[must_use]
    pub fn stones(&self) -> Vec<Option<Colour>> {
        self.board().cells().map(|c| self.stone(c)).collect()
    }
}
