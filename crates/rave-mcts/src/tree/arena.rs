//! The node arena: a fixed table of chunks of [`CHUNK`] nodes (and, where the search keeps
//! them, of their kept scores), allocated zeroed on first use and never moved while threads
//! search; nodes are allocated in children groups that never straddle two chunks.
//!
//! The memory of the chunks (zeroed allocation, growth) is in [`chunk`], tree reuse (keeping
//! a subtree, compacted in place) in [`reuse`], pruning a full tree (compacted the same way)
//! in [`prune`].

mod chunk;
mod prune;
mod reuse;
#[cfg(test)]
mod test_trees;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use Ordering::Relaxed;

use super::{KeptScore, NONE, Node, NodeId};
use chunk::{allocated, grow_short, grown, unallocated, zeroed_chunk};

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

    /// The most nodes the tree may hold in this search.
    pub(crate) fn limit(&self) -> usize {
        self.limit
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
