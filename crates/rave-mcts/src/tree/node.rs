//! A tree node: the statistics of the move that leads to it (UCT and AMAF, its playout
//! horizon, proof and prior bias) in atomics, its move, the claim and publication of its
//! children, and [`NodeData`], a plain copy of its fields.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, Ordering};

use Ordering::{Acquire, Relaxed, Release};

use super::{EXPANDING, NONE, NOT_SORTED, NodeId, UNPROVEN};

/// One tree node: 32 bytes for moves of 1 to 4 bytes, alignment at most 4. A node has at most
/// [`MAX_CHILDREN`] children.
///
/// All zeroes is a valid node (an unexpanded node without statistics whose move is not
/// written yet): chunks are allocated zeroed.
///
/// [`MAX_CHILDREN`]: super::MAX_CHILDREN
pub(crate) struct Node<M> {
    /// Simulations through this node (plus prior visits, plus simulations in progress below
    /// it while several threads search: the virtual loss).
    visits: AtomicU32,
    /// Summed rewards of the mover (`f32` bits).
    wins: AtomicU32,
    /// AMAF samples (weighted) of the mover's move anywhere later, seen from the parent
    /// (`f32` bits).
    amaf_visits: AtomicU32,
    /// Summed AMAF rewards (weighted) of the mover (`f32` bits).
    amaf_wins: AtomicU32,
    /// First child (meaningful once `num_children` is published).
    pub(super) first_child: AtomicU32,
    /// Number of children (0 when not expanded, [`EXPANDING`] while being expanded).
    pub(super) num_children: AtomicU16,
    /// Playout horizon of playouts started here (0: none yet).
    horizon: AtomicU16,
    /// Proof state (`UNPROVEN`, `LOSS`, `DRAW`, `WIN`) for the mover.
    proof: AtomicU8,
    /// Whether some child has been proven: until then selection skips the proof tests (the
    /// flag fits in the node's padding).
    child_proven: AtomicBool,
    /// The prior's progressive bias in hundredths (see [`PriorValue::bias`]).
    ///
    /// [`PriorValue::bias`]: crate::PriorValue::bias
    bias: AtomicU8,
    /// The first child from which on the children are in order of their moves'
    /// [`Game::move_index`] (the AMAF update finds a move's children there by bisection);
    /// [`NOT_SORTED`] when that is too far in. Set when the node is expanded.
    ///
    /// [`Game::move_index`]: crate::Game::move_index
    sorted_from: AtomicU8,
    /// The move from the parent (the root holds a placeholder that is never read). Written
    /// once, by the thread that allocated the node, before the node is published.
    mv: UnsafeCell<MaybeUninit<M>>,
}

// SAFETY: every field but `mv` is an atomic. `mv` is written only by `Node::init`, on a node
// that its caller has just allocated and nobody else can reach (see `Node::init`), or through
// `&mut`; it is read only by `Node::mv` on nodes reached through a published parent, whose
// `Acquire` load of `num_children` synchronises with the `Release` store that followed the
// write. So no read races with a write, and sharing `&Node<M>` between threads is sound
// whenever `M` itself may be sent and shared.
unsafe impl<M: Send + Sync> Sync for Node<M> {}

/// A plain copy of a node's fields (for tests, tree reuse and the result).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NodeData<M> {
    pub visits: u32,
    pub wins: f32,
    pub amaf_visits: f32,
    pub amaf_wins: f32,
    pub first_child: NodeId,
    pub num_children: u16,
    pub horizon: u16,
    pub proof: u8,
    pub child_proven: bool,
    pub bias: u8,
    pub sorted_from: u8,
    pub mv: M,
}

#[cfg(test)]
impl<M: Copy> NodeData<M> {
    /// A fresh node's fields: no statistics, not expanded.
    pub(crate) fn new(mv: M, horizon: u16) -> Self {
        NodeData {
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
            sorted_from: NOT_SORTED,
            mv,
        }
    }
}

#[cfg(test)]
impl<M: Copy> Clone for Node<M> {
    fn clone(&self) -> Self {
        Node::from_data(&self.data())
    }
}

impl<M: Copy> Node<M> {
    /// Writes a fresh node (no statistics, not expanded) with this move and horizon.
    ///
    /// The caller must own the node: it has just allocated it ([`Arena::alloc`]) and not
    /// published it yet, or it holds the arena through `&mut`.
    ///
    /// [`Arena::alloc`]: super::Arena::alloc
    #[inline]
    pub(crate) fn init(&self, mv: M, horizon: u16) {
        self.visits.store(0, Relaxed);
        self.wins.store(0, Relaxed);
        self.amaf_visits.store(0, Relaxed);
        self.amaf_wins.store(0, Relaxed);
        self.first_child.store(NONE, Relaxed);
        self.num_children.store(0, Relaxed);
        self.horizon.store(horizon, Relaxed);
        self.proof.store(UNPROVEN, Relaxed);
        self.child_proven.store(false, Relaxed);
        self.bias.store(0, Relaxed);
        self.sorted_from.store(NOT_SORTED, Relaxed);
        // SAFETY: the caller owns the node (just allocated by it, unpublished, or the arena
        // is held through `&mut`): no other thread reads or writes `mv` now, and the readers
        // that come later reach the node through the parent's `Release` publication, which
        // orders this write before their reads.
        unsafe { (*self.mv.get()).write(mv) };
    }

    /// The move from the parent. Only for the root (after [`Arena::push_root`]) and nodes
    /// reached through [`Node::children`] of a published parent.
    ///
    /// [`Arena::push_root`]: super::Arena::push_root
    #[inline]
    pub(crate) fn mv(&self) -> M {
        // SAFETY: the move was written by `init` before the node was published (or through
        // `&mut`), and the reader reached the node through an `Acquire` load of its parent's
        // `num_children` that saw the publication (or of the root, written before the
        // search's threads were started): the write happens before this read, and no write
        // follows it while threads search (`init` is only called on fresh nodes).
        unsafe { (*self.mv.get()).assume_init() }
    }

    #[inline]
    pub(crate) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }
    /// Adds a visit in progress (the virtual loss) with an atomic add: see
    /// [`Node::take_back_visit`].
    #[inline]
    pub(crate) fn add_virtual_visit(&self) {
        self.visits.fetch_add(1, Relaxed);
    }
    /// Adds `n` visits summed apart by one thread, with an atomic add (see
    /// [`Node::take_back_visit`]).
    #[inline]
    pub(crate) fn add_visits(&self, n: u32) {
        self.visits.fetch_add(n, Relaxed);
    }
    /// Takes back a visit in progress (a discarded simulation).
    ///
    /// The visits of a multi-threaded search are counted with atomic read-modify-writes, the
    /// one exception to the plain loads and stores: a lost update of a virtual visit would be
    /// a visit that never happened or a virtual loss never taken back, and in a narrow tree
    /// where every thread passes through the same nodes, plain stores lost several percent
    /// of the visits (a test on a three-move game with four threads). One `lock xadd` per
    /// path node is small beside a playout, and one thread does not use it (its visits are
    /// counted in backpropagation with plain stores).
    #[inline]
    pub(crate) fn take_back_visit(&self) {
        self.visits.fetch_sub(1, Relaxed);
    }
    #[inline]
    pub(crate) fn set_visits(&self, v: u32) {
        self.visits.store(v, Relaxed);
    }
    #[inline]
    pub(crate) fn wins(&self) -> f32 {
        f32::from_bits(self.wins.load(Relaxed))
    }
    #[inline]
    pub(crate) fn set_wins(&self, v: f32) {
        self.wins.store(v.to_bits(), Relaxed);
    }
    #[inline]
    pub(crate) fn amaf_visits(&self) -> f32 {
        f32::from_bits(self.amaf_visits.load(Relaxed))
    }
    #[inline]
    pub(crate) fn set_amaf_visits(&self, v: f32) {
        self.amaf_visits.store(v.to_bits(), Relaxed);
    }
    #[inline]
    pub(crate) fn amaf_wins(&self) -> f32 {
        f32::from_bits(self.amaf_wins.load(Relaxed))
    }
    #[inline]
    pub(crate) fn set_amaf_wins(&self, v: f32) {
        self.amaf_wins.store(v.to_bits(), Relaxed);
    }
    #[inline]
    pub(crate) fn horizon(&self) -> u16 {
        self.horizon.load(Relaxed)
    }
    #[inline]
    pub(crate) fn set_horizon(&self, v: u16) {
        self.horizon.store(v, Relaxed);
    }
    #[inline]
    pub(crate) fn proof(&self) -> u8 {
        self.proof.load(Relaxed)
    }
    /// Proofs are exact game values and never change once set, so racing writers store the
    /// same value.
    #[inline]
    pub(crate) fn set_proof(&self, v: u8) {
        self.proof.store(v, Relaxed);
    }
    #[inline]
    pub(crate) fn child_proven(&self) -> bool {
        self.child_proven.load(Relaxed)
    }
    #[inline]
    pub(crate) fn set_child_proven(&self) {
        self.child_proven.store(true, Relaxed);
    }
    #[inline]
    pub(crate) fn bias(&self) -> u8 {
        self.bias.load(Relaxed)
    }
    #[inline]
    pub(crate) fn set_bias(&self, v: u8) {
        self.bias.store(v, Relaxed);
    }
    /// The first child from which on the children are in order of move index, if known.
    #[inline]
    pub(crate) fn sorted_from(&self) -> Option<usize> {
        match self.sorted_from.load(Relaxed) {
            NOT_SORTED => None,
            s => Some(usize::from(s)),
        }
    }
    /// Records where the children's sorted run starts (before they are published).
    #[inline]
    pub(crate) fn set_sorted_from(&self, first: usize) {
        let v = u8::try_from(first).unwrap_or(NOT_SORTED);
        self.sorted_from.store(v, Relaxed);
    }

    /// The published number of children (0: not expanded, or being expanded).
    #[inline]
    pub(crate) fn num_children(&self) -> u16 {
        match self.num_children.load(Acquire) {
            EXPANDING => 0,
            n => n,
        }
    }

    #[inline]
    pub(crate) fn is_expanded(&self) -> bool {
        self.num_children() > 0
    }

    /// The children's indices (empty when not expanded or being expanded).
    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        let n = self.num_children();
        if n == 0 {
            return 0..0;
        }
        // Stored before the `Release` store of `num_children` that the load above saw.
        let fc = self.first_child.load(Relaxed) as usize;
        fc..fc + n as usize
    }

    /// The first child (meaningful only when expanded).
    #[inline]
    pub(crate) fn first_child(&self) -> NodeId {
        self.first_child.load(Relaxed)
    }

    /// Claims the node's expansion: `Ok` if this thread is to expand it, else the current
    /// `num_children` (published children, or [`EXPANDING`] by another thread).
    #[inline]
    pub(crate) fn claim(&self) -> Result<(), u16> {
        self.num_children
            .compare_exchange(0, EXPANDING, Acquire, Acquire)
            .map(|_| ())
    }

    /// Whether one thread has claimed the expansion and not published it yet.
    #[cfg(test)]
    pub(crate) fn is_claimed(&self) -> bool {
        self.num_children.load(Relaxed) == EXPANDING
    }

    /// Gives up a claimed expansion (the node stays a leaf).
    #[inline]
    pub(crate) fn unclaim(&self) {
        self.num_children.store(0, Release);
    }

    /// Publishes the children `first .. first + count`, written before by this thread.
    #[inline]
    pub(crate) fn publish(&self, first: NodeId, count: u16) {
        self.first_child.store(first, Relaxed);
        self.num_children.store(count, Release);
    }

    /// A plain copy of the fields (the move only where [`Node::mv`] may read it).
    pub(crate) fn data(&self) -> NodeData<M> {
        NodeData {
            visits: self.visits(),
            wins: self.wins(),
            amaf_visits: self.amaf_visits(),
            amaf_wins: self.amaf_wins(),
            first_child: self.first_child(),
            num_children: self.num_children(),
            horizon: self.horizon(),
            proof: self.proof(),
            child_proven: self.child_proven(),
            bias: self.bias(),
            sorted_from: self.sorted_from.load(Relaxed),
            mv: self.mv(),
        }
    }

    /// A node holding these fields (outside the arena).
    #[cfg(test)]
    pub(crate) fn from_data(d: &NodeData<M>) -> Self {
        Node {
            visits: AtomicU32::new(d.visits),
            wins: AtomicU32::new(d.wins.to_bits()),
            amaf_visits: AtomicU32::new(d.amaf_visits.to_bits()),
            amaf_wins: AtomicU32::new(d.amaf_wins.to_bits()),
            first_child: AtomicU32::new(d.first_child),
            num_children: AtomicU16::new(d.num_children),
            horizon: AtomicU16::new(d.horizon),
            proof: AtomicU8::new(d.proof),
            child_proven: AtomicBool::new(d.child_proven),
            bias: AtomicU8::new(d.bias),
            sorted_from: AtomicU8::new(d.sorted_from),
            mv: UnsafeCell::new(MaybeUninit::new(d.mv)),
        }
    }

    /// Overwrites every field (through `&mut`: no other thread sees the node).
    pub(super) fn set_data(&mut self, d: &NodeData<M>) {
        *self.visits.get_mut() = d.visits;
        *self.wins.get_mut() = d.wins.to_bits();
        *self.amaf_visits.get_mut() = d.amaf_visits.to_bits();
        *self.amaf_wins.get_mut() = d.amaf_wins.to_bits();
        *self.first_child.get_mut() = d.first_child;
        *self.num_children.get_mut() = d.num_children;
        *self.horizon.get_mut() = d.horizon;
        *self.proof.get_mut() = d.proof;
        *self.child_proven.get_mut() = d.child_proven;
        *self.bias.get_mut() = d.bias;
        *self.sorted_from.get_mut() = d.sorted_from;
        self.mv.get_mut().write(d.mv);
    }
}
