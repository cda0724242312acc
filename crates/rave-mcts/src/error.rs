//! The error type of the crate.

/// Everything that can go wrong in `rave-mcts`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MctsError {
    /// A configuration parameter is out of range.
    #[error("invalid parameter `{name}` = {value}: {expected}")]
    InvalidParameter {
        /// The parameter's name (as in the builder).
        name: &'static str,
        /// The rejected value, printed.
        value: String,
        /// What the parameter must be.
        expected: &'static str,
    },
    /// A budget sets no limit at all.
    #[error("empty budget: set at least one of simulations, time or nodes")]
    EmptyBudget,
    /// A budget limit is zero.
    #[error("invalid budget: `{name}` = {value} must be positive")]
    ZeroBudget {
        /// Which limit.
        name: &'static str,
        /// The rejected value, printed.
        value: String,
    },
    /// A reward outside `[0, 1]`.
    #[error("invalid reward {0}: rewards must lie in [0, 1]")]
    InvalidReward(f32),
    /// The position to search is already over.
    #[error("the game is over: there is no move to search")]
    GameOver,
    /// A move given to [`Mcts::advance`](crate::Mcts::advance) is not legal in the current position.
    #[error("illegal move {0}")]
    IllegalMove(String),
}
