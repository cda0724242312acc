//! Generic Monte-Carlo tree search with UCT, RAVE, GRAVE, weighted AMAF, playout horizons, MCTS-solver, tree reuse and threads.
//!
//! Work in progress: see the workspace issues.
