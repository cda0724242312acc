//! The shared tree: compact nodes in an arena that all search threads read and write at once.
//!
//! A node holds the statistics of the move that leads to it, seen from the player who made
//! that move (its *mover*): visits and summed rewards (UCT), and the AMAF samples and summed
//! AMAF rewards of "the mover played this move somewhere later in the simulation" (RAVE). So a
//! node's AMAF table is simply the AMAF fields of its children: no per-node table.
//! Children are stored contiguously (`first_child .. first_child + num_children`) and addressed
//! by `u32`.
//!
//! # Concurrency (tree parallelism)
//!
//! Every statistic is an atomic read and written with `Relaxed` loads and stores, not a
//! read-modify-write instruction (except the visits in progress of several threads, see
//! [`Node::take_back_visit`]): on x86 these are the plain moves a single-threaded tree
//! would use, so one thread runs as fast as with plain fields. Two threads updating the same
//! node at the same instant may lose one of the two updates; lock-free MCTS accepts that
//! (the statistics are estimates, and the window is a few nanoseconds in a simulation of
//! microseconds).
//!
//! Children are *published*: the thread that expands a node first claims it (a
//! compare-exchange of `num_children` from 0 to [`EXPANDING`], once per expansion, not in
//! the hot path), writes the children in nodes it alone has allocated, then stores
//! `first_child` and, with `Release`, `num_children`. A reader loads `num_children` with
//! `Acquire` ([`Node::children`]), so everything written before the publication, the
//! children's moves included, is visible to it. A thread that finds a node [`EXPANDING`]
//! treats it as a leaf. (The workers also sum the statistics of well-visited nodes' children
//! apart for a few simulations, to spare the other threads cache misses: see `Deferred` in
//! `search::worker::backprop`.)
//!
//! The arena ([`Arena`]) is a fixed table of chunks of [`CHUNK`](arena::CHUNK) nodes, each
//! allocated (zeroed, so untouched pages cost nothing) on first use and never moved during a
//! search: a reference to a node stays valid while other threads allocate. Between searches
//! the arena is changed through `&mut` only (tree reuse compacts it in place).
//!
//! The only `unsafe` code of the crate is in this module: the move of a node (a generic
//! `Copy` type, so not an atomic) sits in an `UnsafeCell`, and chunks are allocated zeroed.
//!
//! The node and its statistics are in [`node`], the scores kept beside the nodes in
//! [`kept`], the arena in [`arena`] (the memory of its chunks in `arena::chunk`, tree reuse in
//! `arena::reuse`); the node's constants and proof states are here.

mod arena;
mod kept;
mod node;

pub(crate) use arena::Arena;
pub(crate) use kept::KeptScore;
pub(crate) use node::Node;
#[cfg(test)]
pub(crate) use node::NodeData;

/// Index of a node in the arena.
pub(crate) type NodeId = u32;

/// The root is always node 0.
pub(crate) const ROOT: NodeId = 0;
/// No node.
pub(crate) const NONE: NodeId = u32::MAX;

/// `sorted_from` of a node whose children are not known to be in order of move index (from
/// any child within the first 255).
pub(crate) const NOT_SORTED: u8 = u8::MAX;

/// `num_children` of a node whose children one thread is creating (claimed, not published).
pub(crate) const EXPANDING: u16 = u16::MAX;

/// The most children a node can have: a state with more legal moves is never expanded (its
/// simulations go on with playouts). One less than `u16::MAX`, which marks [`EXPANDING`].
pub(crate) const MAX_CHILDREN: usize = u16::MAX as usize - 1;

/// Proof states, from the point of view of the node's mover.
pub(crate) const UNPROVEN: u8 = 0;
/// The mover loses (value 0).
pub(crate) const LOSS: u8 = 1;
/// A draw (value 1/2).
pub(crate) const DRAW: u8 = 2;
/// The mover wins (value 1).
pub(crate) const WIN: u8 = 3;

/// A node's proof from `result`, the proven result (`WIN`, `LOSS` or `DRAW`) of the player
/// to move there: the same where that player also moved into the node (a game in which a
/// player moves twice in a row), else the opponent's view of it.
#[inline]
pub(crate) fn mover_proof(result: u8, moves_again: bool) -> u8 {
    if moves_again || result == DRAW {
        result
    } else {
        WIN + LOSS - result
    }
}

/// Value of a proof state for the mover.
pub(crate) fn proof_value(proof: u8) -> f32 {
    match proof {
        WIN => 1.0,
        DRAW => 0.5,
        _ => 0.0,
    }
}

/// The proof state a terminal reward gives the mover (if it is a clean win, loss or draw).
pub(crate) fn proof_of_reward(mover: f32, other: f32) -> u8 {
    match (mover, other) {
        (1.0, 0.0) => WIN,
        (0.0, 1.0) => LOSS,
        (0.5, 0.5) => DRAW,
        _ => UNPROVEN,
    }
}

/// Bytes taken by one tree node for moves of type `M`: 32 for moves of 1 to 4 bytes (e.g. a
/// `u16` cell index). [`bytes_per_node`](crate::bytes_per_node) adds what a configuration keeps
/// beside each node.
pub(crate) fn node_bytes<M>() -> usize {
    size_of::<Node<M>>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_at_most_32_bytes_for_small_moves() {
        // 28 bytes of fields besides the move, 4-byte alignment: a move of up to 4 bytes fits.
        assert_eq!(node_bytes::<u8>(), 32);
        assert_eq!(node_bytes::<u16>(), 32);
        assert_eq!(node_bytes::<(u8, u8)>(), 32);
        assert_eq!(node_bytes::<u32>(), 32);
        assert_eq!(node_bytes::<char>(), 32);
        assert_eq!(node_bytes::<(u16, u16)>(), 32);
    }

    #[test]
    fn proof_of_reward_is_exact() {
        assert_eq!(proof_of_reward(1.0, 0.0), WIN);
        assert_eq!(proof_of_reward(0.0, 1.0), LOSS);
        assert_eq!(proof_of_reward(0.5, 0.5), DRAW);
        assert_eq!(proof_of_reward(0.7, 0.3), UNPROVEN);
        assert_eq!(proof_value(WIN), 1.0);
        assert_eq!(proof_value(LOSS), 0.0);
    }

    #[test]
    fn a_proof_turns_over_unless_the_player_moves_again() {
        // The opponent of the player to move made the move into the node.
        assert_eq!(mover_proof(WIN, false), LOSS);
        assert_eq!(mover_proof(LOSS, false), WIN);
        assert_eq!(mover_proof(DRAW, false), DRAW);
        // The player to move made it too.
        assert_eq!(mover_proof(WIN, true), WIN);
        assert_eq!(mover_proof(LOSS, true), LOSS);
        assert_eq!(mover_proof(DRAW, true), DRAW);
    }
}
