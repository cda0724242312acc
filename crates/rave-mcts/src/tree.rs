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
//! The arena ([`Arena`]) is a fixed table of chunks of [`CHUNK`] nodes, each allocated
//! (zeroed, so untouched pages cost nothing) on first use and never moved during a search:
//! a reference to a node stays valid while other threads allocate. Between searches the
//! arena is changed through `&mut` only (tree reuse compacts it in place).
//!
//! The only `unsafe` code of the crate is in this module: the move of a node (a generic
//! `Copy` type, so not an atomic) sits in an `UnsafeCell`, and chunks are allocated zeroed.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicUsize, Ordering};

use Ordering::{Acquire, Relaxed, Release};

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

/// One tree node: 32 bytes for moves of 1 to 4 bytes, alignment at most 4. A node has at most
/// [`MAX_CHILDREN`] children.
///
/// All zeroes is a valid node (an unexpanded node without statistics whose move is not
/// written yet): chunks are allocated zeroed.
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
    first_child: AtomicU32,
    /// Number of children (0 when not expanded, [`EXPANDING`] while being expanded).
    num_children: AtomicU16,
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

/// What the fast selection reads of a node instead of its statistics: its RAVE value under
/// its parent's blend and the multiplier of the UCT bonus (`f32` bits; see
/// `search::select::Kept`). Stored beside the nodes, in chunks of their own, only in searches
/// that keep them ([`Arena::keep_scores`]): the node stays at 32 bytes, and the selection's
/// pass over a node's children reads 8 bytes a child. With several threads a kept score may
/// miss a racing update of its node's statistics until the next one, as the statistics
/// themselves may lose one (see the module's concurrency notes).
#[derive(Default)]
pub(crate) struct KeptScore {
    value: AtomicU32,
    explore: AtomicU32,
}

impl KeptScore {
    /// The RAVE value.
    #[inline]
    pub(crate) fn value(&self) -> f32 {
        f32::from_bits(self.value.load(Relaxed))
    }
    /// The multiplier of the UCT bonus: `1 / sqrt(n)` for `n` visits (at least 1), 0
    /// without statistics.
    #[inline]
    pub(crate) fn explore(&self) -> f32 {
        f32::from_bits(self.explore.load(Relaxed))
    }
    #[inline]
    pub(crate) fn set(&self, value: f32, explore: f32) {
        self.value.store(value.to_bits(), Relaxed);
        self.explore.store(explore.to_bits(), Relaxed);
    }
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
    fn set_data(&mut self, d: &NodeData<M>) {
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

/// Bits of the index within a chunk. Under Miri the chunks are small, so that the tests that
/// fill chunks to their ends run in minutes (they are written in multiples of [`CHUNK`]).
const CHUNK_BITS: u32 = if cfg!(miri) { 11 } else { 16 };
/// Nodes in a chunk (2 MiB of 32-byte nodes). A children group never straddles two chunks,
/// so a node's children are one slice.
pub(crate) const CHUNK: usize = 1 << CHUNK_BITS;

/// The node arena shared by the search threads: chunks of [`CHUNK`] nodes allocated on first
/// use, which never move while a search runs.
pub(crate) struct Arena<M> {
    /// The chunks (the last one may be shorter, cut at the node limit). Sized between
    /// searches to cover the node limit; never resized while threads search.
    chunks: Vec<OnceLock<Box<[Node<M>]>>>,
    /// The nodes' [`KeptScore`]s, chunk for chunk, where the search keeps them.
    scores: Vec<OnceLock<Box<[KeptScore]>>>,
    /// Whether [`Arena::alloc`] allocates the scores' chunks with the nodes'.
    keeps_scores: bool,
    /// The next free node (nodes below it are in use or skipped at a chunk's end).
    len: AtomicUsize,
    /// Nodes skipped at chunks' ends (a children group does not fit in what is left).
    skipped: AtomicUsize,
    /// The most nodes the tree may hold in this search.
    limit: usize,
}

impl<M: Copy> Arena<M> {
    pub(crate) fn new() -> Self {
        Arena {
            chunks: Vec::new(),
            scores: Vec::new(),
            keeps_scores: false,
            len: AtomicUsize::new(0),
            skipped: AtomicUsize::new(0),
            limit: 0,
        }
    }

    /// Nodes in use.
    pub(crate) fn nodes(&self) -> usize {
        self.len.load(Relaxed) - self.skipped.load(Relaxed)
    }

    /// The end of the nodes in use (nodes skipped at chunks' ends included).
    #[cfg(test)]
    pub(crate) fn end(&self) -> usize {
        self.len.load(Relaxed)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len.load(Relaxed) == 0
    }

    /// Nodes allocated in chunks (the memory held, in nodes).
    pub(crate) fn capacity(&self) -> usize {
        allocated(&self.chunks)
    }

    /// The bytes held by the chunks (nodes and kept scores).
    pub(crate) fn bytes(&self) -> usize {
        self.capacity() * size_of::<Node<M>>() + allocated(&self.scores) * size_of::<KeptScore>()
    }

    /// Whether the nodes keep a [`KeptScore`] (between searches). Turned on, every chunk of
    /// nodes gets its chunk of scores (zeroes, which the search works out before it reads
    /// them); turned off, the scores are no longer kept up to date, but their memory is.
    pub(crate) fn keep_scores(&mut self, on: bool) {
        self.keeps_scores = on;
        if on {
            self.scores.resize_with(self.chunks.len(), OnceLock::new);
            for (nodes, scores) in self.chunks.iter().zip(&mut self.scores) {
                if let Some(nodes) = nodes.get()
                    && scores.get().is_none_or(|s| s.len() < nodes.len())
                {
                    *scores = OnceLock::from(grown(scores.take(), nodes.len()));
                }
            }
        }
    }

    /// Forgets every node (keeping the chunks).
    pub(crate) fn clear(&mut self) {
        *self.len.get_mut() = 0;
        *self.skipped.get_mut() = 0;
    }

    /// Sets the node limit of the next search (at most [`NONE`] nodes): the chunk table
    /// covers it, and chunks cut short at a smaller limit before are grown to their length
    /// under this one.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        let limit = limit.min(NONE as usize);
        self.limit = limit;
        let count = limit.div_ceil(CHUNK);
        if self.chunks.len() < count {
            self.chunks.resize_with(count, OnceLock::new);
            self.scores.resize_with(count, OnceLock::new);
        }
        for (c, (nodes, scores)) in self.chunks.iter_mut().zip(&mut self.scores).enumerate() {
            let wanted = Self::chunk_len(c, limit);
            grow_short(nodes, wanted);
            grow_short(scores, wanted);
        }
    }

    /// The length of chunk `c` under `limit`.
    fn chunk_len(c: usize, limit: usize) -> usize {
        limit.saturating_sub(c * CHUNK).min(CHUNK)
    }

    /// The node at `id` (allocated before).
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> &Node<M> {
        let id = id as usize;
        &self.chunk(id >> CHUNK_BITS)[id & (CHUNK - 1)]
    }

    #[inline]
    fn chunk(&self, c: usize) -> &[Node<M>] {
        match self.chunks[c].get() {
            Some(chunk) => chunk,
            None => unallocated(),
        }
    }

    /// The nodes `range` (within one chunk: a children group).
    #[inline]
    pub(crate) fn slice(&self, range: std::ops::Range<usize>) -> &[Node<M>] {
        if range.is_empty() {
            return &[];
        }
        let chunk = self.chunk(range.start >> CHUNK_BITS);
        let offset = range.start & !(CHUNK - 1);
        &chunk[range.start - offset..range.end - offset]
    }

    /// The children of `node`, as a slice.
    #[inline]
    pub(crate) fn children(&self, node: &Node<M>) -> &[Node<M>] {
        self.slice(node.children())
    }

    /// The kept scores of the nodes `range` (within one chunk; the arena keeps scores).
    #[inline]
    pub(crate) fn scores(&self, range: std::ops::Range<usize>) -> &[KeptScore] {
        if range.is_empty() {
            return &[];
        }
        let offset = range.start & !(CHUNK - 1);
        match self.scores[range.start >> CHUNK_BITS].get() {
            Some(chunk) => &chunk[range.start - offset..range.end - offset],
            None => unallocated(),
        }
    }

    /// The kept score of node `id` (the arena keeps scores).
    #[inline]
    pub(crate) fn score(&self, id: NodeId) -> &KeptScore {
        let id = id as usize;
        &self.scores(id..id + 1)[0]
    }

    /// Allocates `count` contiguous nodes (within one chunk) for one thread, which must
    /// [`Node::init`] them before publishing them; `None` when the tree is full.
    pub(crate) fn alloc(&self, count: usize) -> Option<NodeId> {
        debug_assert!(count > 0 && count <= CHUNK);
        let mut cur = self.len.load(Relaxed);
        let start = loop {
            let mut start = cur;
            if (start & (CHUNK - 1)) + count > CHUNK {
                start = (start | (CHUNK - 1)) + 1;
            }
            if start + count > self.limit {
                return None;
            }
            match self
                .len
                .compare_exchange_weak(cur, start + count, Relaxed, Relaxed)
            {
                Ok(_) => break start,
                Err(now) => cur = now,
            }
        };
        if start > cur {
            self.skipped.fetch_add(start - cur, Relaxed);
        }
        let c = start >> CHUNK_BITS;
        let len = Self::chunk_len(c, self.limit);
        self.chunks[c].get_or_init(|| zeroed_chunk(len));
        if self.keeps_scores {
            self.scores[c].get_or_init(|| zeroed_chunk(len));
        }
        Some(start as NodeId)
    }

    /// Creates the root (the arena must be empty) with a placeholder move.
    pub(crate) fn push_root(&mut self, placeholder: M) -> bool {
        debug_assert!(self.is_empty());
        match self.alloc(1) {
            Some(id) => {
                self.node(id).init(placeholder, 0);
                true
            }
            None => false,
        }
    }

    /// Keeps only the subtree below `child` (a child of the root), which becomes the root,
    /// compacted in place to the start of the arena; the chunks are kept.
    pub(crate) fn keep_subtree(&mut self, child: NodeId) {
        let mut groups = self.subtree_groups(child);
        // Groups never overlap and all lie at index 1 or above (0 is the old root), so the
        // groups before one in address order fill at most the space below it (a group that
        // would straddle a chunk's end moves to the next chunk's start, which is at most its
        // old place, since the old group did not straddle it): each group moves down or
        // stays, and the new root takes index 0.
        groups.sort_unstable_by_key(|g| g.0);
        let root = self.node(child).data();
        self.node_mut(ROOT).set_data(&root);
        let mut next = 1usize;
        let mut skipped = 0;
        for g in &mut groups {
            let (old, len) = (g.0 as usize, g.2 as usize);
            if (next & (CHUNK - 1)) + len > CHUNK {
                let start = (next | (CHUNK - 1)) + 1;
                skipped += start - next;
                next = start;
            }
            debug_assert!(next <= old);
            if next != old {
                self.move_nodes(old, next, len);
            }
            g.1 = next as NodeId;
            next += len;
        }
        *self.len.get_mut() = next;
        *self.skipped.get_mut() = skipped;
        // Re-point every kept expanded node (the root and the moved groups) at its children
        // group's new place.
        let ranges =
            std::iter::once((0, 1)).chain(groups.iter().map(|g| (g.1 as usize, g.2 as usize)));
        let ranges: Vec<(usize, usize)> = ranges.collect();
        for (start, len) in ranges {
            for i in start..start + len {
                let n = self.node_mut(i as NodeId);
                if *n.num_children.get_mut() > 0 {
                    let fc = *n.first_child.get_mut();
                    let at = groups.partition_point(|gr| gr.0 < fc);
                    debug_assert_eq!(groups[at].0, fc, "a kept group");
                    *n.first_child.get_mut() = groups[at].1;
                }
            }
        }
    }

    /// Moves the nodes `from .. from + len` (within one chunk) to `to .. to + len` (within
    /// one chunk, at or below `from`), with their kept scores where the arena keeps them.
    fn move_nodes(&mut self, from: usize, to: usize, len: usize) {
        move_within(&mut self.chunks, from, to, len);
        if self.keeps_scores {
            move_within(&mut self.scores, from, to, len);
        }
    }

    fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        let id = id as usize;
        let chunk = self.chunks[id >> CHUNK_BITS]
            .get_mut()
            .unwrap_or_else(|| unallocated());
        &mut chunk[id & (CHUNK - 1)]
    }

    /// The children groups (first child, new place (filled in later), count) below `top`,
    /// in no particular order.
    fn subtree_groups(&self, top: NodeId) -> Vec<(NodeId, NodeId, NodeId)> {
        let mut groups = Vec::new();
        let mut stack = vec![top];
        while let Some(i) = stack.pop() {
            let n = self.node(i);
            if n.is_expanded() {
                groups.push((n.first_child(), 0, NodeId::from(n.num_children())));
                // Only the expanded children: most are leaves, and the stack stays small.
                let range = n.children();
                let first = range.start;
                for (k, c) in self.slice(range).iter().enumerate() {
                    if c.is_expanded() {
                        stack.push((first + k) as NodeId);
                    }
                }
            }
        }
        groups
    }
}

/// Moves the items `from .. from + len` (within one chunk) of `chunks` to `to .. to + len`
/// (within one chunk, at or below `from`), as `memmove` does: tree reuse moves a large part
/// of the tree, and copying field by field took twice as long. The items are nodes or kept
/// scores, whose bitwise copies are valid values of them.
fn move_within<T>(chunks: &mut [OnceLock<Box<[T]>>], from: usize, to: usize, len: usize) {
    let (fc, tc) = (from >> CHUNK_BITS, to >> CHUNK_BITS);
    let (fo, to_offset) = (from & (CHUNK - 1), to & (CHUNK - 1));
    let src_len = chunks[fc].get().map_or(0, |c| c.len());
    let dst_len = chunks[tc].get().map_or(0, |c| c.len());
    assert!(
        fo + len <= src_len && to_offset + len <= dst_len,
        "nodes out of their chunks"
    );
    let dst = chunks[tc]
        .get_mut()
        .unwrap_or_else(|| unallocated())
        .as_mut_ptr();
    let src = if fc == tc {
        dst.cast_const()
    } else {
        chunks[fc].get().unwrap_or_else(|| unallocated()).as_ptr()
    };
    // SAFETY: both ranges lie within allocated chunks (checked above); the chunks are held
    // through `&mut`, so no other thread reads or writes any of them now; `ptr::copy` allows
    // the ranges to overlap (within one chunk both pointers come from the one mutable
    // borrow). A bitwise copy of a node is a valid node (atomics, plain integers, and a
    // `MaybeUninit<M>` of a `Copy` move), and of a kept score a valid score (two atomics).
    unsafe { std::ptr::copy(src.add(fo), dst.add(to_offset), len) };
}

/// Grows the chunk in `slot` to `wanted` items if it is allocated and shorter.
fn grow_short<T: Zeroed>(slot: &mut OnceLock<Box<[T]>>, wanted: usize) {
    if slot.get().is_some_and(|c| c.len() < wanted)
        && let Some(old) = slot.take()
    {
        *slot = OnceLock::from(grown(Some(old), wanted));
    }
}

/// A zeroed chunk of `len` items holding the items of `old` (if any) at its start.
fn grown<T: Zeroed>(old: Option<Box<[T]>>, len: usize) -> Box<[T]> {
    let mut new = zeroed_chunk::<T>(len);
    if let Some(mut old) = old {
        for (d, s) in new.iter_mut().zip(old.iter_mut()) {
            std::mem::swap(d, s);
        }
    }
    new
}

/// The items of the arena's chunks: types for which all zeroes is a valid value.
///
/// # Safety
/// All zeroes must be a valid value of the type.
unsafe trait Zeroed {}

// SAFETY: all zeroes is a valid `Node<M>`: its atomics hold 0 (and `false`), and the move is
// a `MaybeUninit`, valid with any bytes (it is written by `init` before it is read).
unsafe impl<M> Zeroed for Node<M> {}
// SAFETY: a kept score is two atomic integers, valid at 0.
unsafe impl Zeroed for KeptScore {}

/// The items held by the allocated chunks of `chunks`.
fn allocated<T>(chunks: &[OnceLock<Box<[T]>>]) -> usize {
    chunks.iter().filter_map(|c| c.get()).map(|c| c.len()).sum()
}

#[cold]
#[inline(never)]
fn unallocated() -> ! {
    panic!("a node in a chunk that was never allocated")
}

/// A chunk of `len` zeroed items (the operating system hands out zeroed pages as they are
/// first touched, so a chunk costs only what is used of it).
fn zeroed_chunk<T: Zeroed>(len: usize) -> Box<[T]> {
    if len == 0 {
        return Box::default();
    }
    let layout = std::alloc::Layout::array::<T>(len).expect("a chunk's size fits");
    // SAFETY: the layout has a non-zero size (`len > 0`, and nodes and kept scores hold
    // atomics). All zeroes is a valid `T` (`Zeroed`). So the zeroed allocation is `len` valid
    // items, allocated by the global allocator with the layout of `[T; len]`, which is what
    // `Box<[T]>` frees it with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<T>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
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
/// `u16` cell index).
pub fn node_bytes<M>() -> usize {
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

    /// Gives `parent` a fresh group of `count` children (moves and visits numbered from
    /// `tag`); returns the first child.
    fn add_group(arena: &Arena<u32>, parent: NodeId, count: usize, tag: u32) -> NodeId {
        let first = arena.alloc(count).expect("room");
        for k in 0..count {
            let n = arena.node(first + k as NodeId);
            n.init(tag + k as u32, 0);
            n.set_visits(tag + k as u32);
        }
        arena.node(parent).publish(first, count as u16);
        first
    }

    /// A node and everything below it (moves, visits and the shape; no addresses).
    fn subtree(arena: &Arena<u32>, id: NodeId) -> Vec<(u32, u32, usize)> {
        let n = arena.node(id);
        let mut out = vec![(n.mv(), n.visits(), n.children().len())];
        for c in n.children() {
            out.extend(subtree(arena, c as NodeId));
        }
        out
    }

    #[test]
    fn tree_reuse_moves_groups_across_and_past_chunk_ends() {
        // (size of a dropped group, size of the kept child's group, size of the group below
        // it): the last group lies at the start of the second chunk; after compaction it does
        // not fit in the first chunk's end (it stays), or it does (it moves back into the
        // first chunk).
        for (dropped, big, last, moves_back) in [
            (0, CHUNK - 100, 1000, false),
            (500, CHUNK - 1000, 990, true),
        ] {
            let mut arena: Arena<u32> = Arena::new();
            arena.set_limit(3 * CHUNK);
            assert!(arena.push_root(0));
            let kids = add_group(&arena, ROOT, 3, 1);
            if dropped > 0 {
                add_group(&arena, kids + 1, dropped, 100_000);
            }
            let kept = kids;
            let g1 = add_group(&arena, kept, big, 200_000);
            let g2 = add_group(&arena, g1 + 7, last, 300_000) as usize;
            assert_eq!(g2, CHUNK, "the last group starts the second chunk");
            add_group(&arena, g2 as NodeId + 3, 2, 400_000);
            let expected = subtree(&arena, kept);
            arena.keep_subtree(kept);
            assert_eq!(subtree(&arena, ROOT), expected);
            assert_eq!(arena.nodes(), expected.len());
            let g2_now = arena.node(arena.node(ROOT).first_child() + 7).first_child() as usize;
            assert_eq!(g2_now < CHUNK, moves_back, "group at {g2_now}");
            // The arena goes on allocating after the kept nodes.
            assert!(arena.alloc(10).is_some());
        }
    }

    #[test]
    fn groups_never_straddle_a_chunk_and_stay_within_the_limit() {
        let mut arena: Arena<u16> = Arena::new();
        arena.set_limit(3 * CHUNK + 100);
        let mut taken = 0;
        while let Some(first) = arena.alloc(1000) {
            let first = first as usize;
            assert_eq!(first / CHUNK, (first + 999) / CHUNK, "at {first}");
            for k in 0..1000 {
                arena.node((first + k) as NodeId).init(k as u16, 0);
            }
            taken += 1000;
        }
        assert_eq!(arena.nodes(), taken);
        assert!(arena.nodes() <= 3 * CHUNK + 100);
        assert!(arena.capacity() <= 3 * CHUNK + 100, "{}", arena.capacity());
        // A bigger limit grows the short last chunk and keeps its nodes.
        let last = (taken - 1) as NodeId;
        let before = arena.node(last).mv();
        arena.set_limit(10 * CHUNK);
        assert_eq!(arena.node(last).mv(), before);
        assert!(arena.alloc(1000).is_some());
    }
}
