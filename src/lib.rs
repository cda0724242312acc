//! # havannah
//!
//! The engine of the havannah workspace: it composes [`havannah_board`], `havannah-rules`,
//! `weighted-sampler` and `rave-mcts` into a Havannah player (playout policies, time
//! management, GTP, self-play). The engine is being built; for now this crate re-exports the
//! board geometry.
//!
//! ```
//! // The board crate is available through the engine crate.
//! let _ = havannah::board::MIN_SIZE;
//! ```

pub use havannah_board as board;
