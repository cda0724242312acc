//! The arena of compact nodes.
//!
//! A node holds the statistics of the move that leads to it, seen from the player who made
//! that move (its *mover*): visits and summed rewards (UCT), and the AMAF samples and summed
//! AMAF rewards of "the mover played this move somewhere later in the simulation" (RAVE). So a
//! node's AMAF table is simply the AMAF fields of its children: no per-node table.
//! Children are stored contiguously (`first_child .. first_child + num_children`) and addressed
//! by `u32`.

/// Index of a node in the arena.
pub(crate) type NodeId = u32;

/// The root is always node 0.
pub(crate) const ROOT: NodeId = 0;
/// No node.
pub(crate) const NONE: NodeId = u32::MAX;

/// The most children a node can have: a state with more legal moves is never expanded (its
/// simulations go on with playouts).
pub(crate) const MAX_CHILDREN: usize = u16::MAX as usize;

/// Proof states, from the point of view of the node's mover.
pub(crate) const UNPROVEN: u8 = 0;
/// The mover loses (value 0).
pub(crate) const LOSS: u8 = 1;
/// A draw (value 1/2).
pub(crate) const DRAW: u8 = 2;
/// The mover wins (value 1).
pub(crate) const WIN: u8 = 3;

/// One tree node: at most 32 bytes for moves of 1 to 4 bytes (28 for one-byte moves),
/// alignment at most 4. A node has at most [`MAX_CHILDREN`] children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<M> {
    /// Simulations through this node (plus prior visits).
    pub visits: u32,
    /// Summed rewards of the mover.
    pub wins: f32,
    /// AMAF samples (weighted) of the mover's move anywhere later, seen from the parent.
    pub amaf_visits: f32,
    /// Summed AMAF rewards (weighted) of the mover.
    pub amaf_wins: f32,
    /// First child, or [`NONE`] when not expanded.
    pub first_child: NodeId,
    /// Number of children (0 when not expanded).
    pub num_children: u16,
    /// Playout horizon of playouts started here (0: none yet).
    pub horizon: u16,
    /// Proof state (`UNPROVEN`, `LOSS`, `DRAW`, `WIN`) for the mover.
    pub proof: u8,
    /// Whether some child has been proven: until then selection skips the proof tests (the
    /// flag fits in the node's padding).
    pub child_proven: bool,
    /// The prior's progressive bias in hundredths (see [`PriorValue::bias`]).
    ///
    /// [`PriorValue::bias`]: crate::PriorValue::bias
    pub bias: u8,
    /// The move from the parent (the root holds a placeholder that is never read).
    pub mv: M,
}

impl<M: Copy> Node<M> {
    pub(crate) fn new(mv: M, horizon: u16) -> Self {
        Node {
            visits: 0,
            wins: 0.0,
            amaf_visits: 0.0,
            amaf_wins: 0.0,
            first_child: NONE,
            num_children: 0,
            horizon,
            proof: UNPROVEN,
            child_proven: false,
            bias: 0,
            mv,
        }
    }

    #[inline]
    pub(crate) fn is_expanded(&self) -> bool {
        self.num_children > 0
    }

    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        if self.num_children == 0 {
            return 0..0;
        }
        let fc = self.first_child as usize;
        fc..fc + self.num_children as usize
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

/// Bytes taken by one tree node for moves of type `M`: at most 32 for moves of 1 to 4 bytes
/// (e.g. a `u16` cell index; 28 for one-byte moves).
pub fn node_bytes<M>() -> usize {
    size_of::<Node<M>>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_at_most_32_bytes_for_small_moves() {
        // 27 bytes of fields besides the move, 4-byte alignment: a one-byte move fits in 28.
        assert_eq!(node_bytes::<u8>(), 28);
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
}
