//! On random games at every size 2..=10, after every move: the on-line result (union-find
//! bridges/forks and the incremental ring finder), the off-line ring finder, the
//! no-play prediction `winning_kinds` and the slow `reference` all agree.
//!
//! Games are played to a full board (wins do not stop them), so positions with several
//! figures are covered too: what a move reports is then compared with what that move
//! *changed* according to the reference.

use havannah_rules::{
    Board, Cell, Colour, Kinds, NEVER, Position, RingDetection, RingFinder, reference,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;

fn enclosed_set(board: &Board, stones: &[Option<Colour>], colour: Colour) -> Vec<bool> {
    board
        .cells()
        .map(|c| reference::is_enclosed(board, stones, colour, c))
        .collect()
}

/// The bridges and forks of the chain holding `cell`, by the reference.
fn chain_kinds(board: &Board, stones: &[Option<Colour>], mover: Colour, cell: Cell) -> Kinds {
    let chain = reference::chains(board, stones, mover)
        .into_iter()
        .find(|ch| ch.contains(&cell))
        .expect("the new stone is in a chain");
    let mut single = vec![None; board.num_cells()];
    for &c in &chain {
        single[c.index()] = Some(mover);
    }
    let mut kinds = Kinds::NONE;
    if reference::has_bridge(board, &single, mover) {
        kinds |= Kinds::BRIDGE;
    }
    if reference::has_fork(board, &single, mover) {
        kinds |= Kinds::FORK;
    }
    kinds
}

/// The bridges and forks of `k`, without its ring.
fn bridges_and_forks(k: Kinds) -> Kinds {
    Kinds::from_bits(k.bits() & !Kinds::RING.bits())
}

/// What the positions reported for one move.
struct Reported {
    /// The on-line position's result of the move.
    online: Kinds,
    /// `winning_kinds` for the move, asked before it.
    predicted: Kinds,
    /// The off-line position's result of the move.
    offline: Kinds,
}

/// One random game, checked move by move against the reference.
struct GameCheck {
    size: u8,
    seed: u64,
    board: &'static Board,
    online: Position,
    offline: Position,
    finder: RingFinder,
    stones: Vec<Option<Colour>>,
    /// The cells each colour encloses, by the reference, before the current move.
    enclosed: [Vec<bool>; 2],
    first_win: Option<(Colour, Kinds, usize)>,
    /// The move at which each colour first enclosed a cell, by the reference.
    first_ring: [Option<usize>; 2],
}

impl GameCheck {
    fn new(board: &'static Board, size: u8, seed: u64) -> Self {
        GameCheck {
            size,
            seed,
            board,
            online: Position::new(board, RingDetection::Online),
            offline: Position::new(board, RingDetection::Offline),
            finder: RingFinder::new(),
            stones: vec![None; board.num_cells()],
            enclosed: [
                vec![false; board.num_cells()],
                vec![false; board.num_cells()],
            ],
            first_win: None,
            first_ring: [None, None],
        }
    }

    /// Plays `cell` as move `ply` on both positions and checks every finder against the
    /// reference.
    fn play(&mut self, ply: usize, cell: Cell) {
        let (size, seed) = (self.size, self.seed);
        let mover = self.online.to_move();
        let reported = Reported {
            predicted: self.online.winning_kinds(cell, mover),
            online: self.online.place(cell),
            offline: self.offline.place(cell),
        };
        self.stones[cell.index()] = Some(mover);

        // Bridge and fork: the chain of the new stone, by the reference.
        let mut want = chain_kinds(self.board, &self.stones, mover, cell);
        // Ring: the move enclosed a cell that was not enclosed before.
        let now = enclosed_set(self.board, &self.stones, mover);
        let before = &self.enclosed[mover.index()];
        let new_cells: Vec<usize> = (0..now.len()).filter(|&i| now[i] && !before[i]).collect();
        assert!(
            (0..now.len()).all(|i| now[i] || !before[i]),
            "size {size} seed {seed}: enclosure is monotone"
        );
        if !new_cells.is_empty() {
            want |= Kinds::RING;
        }
        let had_ring = before.iter().any(|&e| e);
        self.check_reported(ply, cell, had_ring, &reported, want);
        self.check_surround_times(mover, ply, &now, &new_cells);
        if self.first_ring[mover.index()].is_none() && !new_cells.is_empty() {
            self.first_ring[mover.index()] = Some(ply);
        }
        self.enclosed[mover.index()] = now;
        self.check_earliest_rings(ply);
        self.check_first_win(mover, ply, want);
    }

    /// The on-line result and `winning_kinds` are `want`, the off-line result its bridges and
    /// forks.
    fn check_reported(
        &self,
        ply: usize,
        cell: Cell,
        had_ring: bool,
        reported: &Reported,
        want: Kinds,
    ) {
        let (size, seed) = (self.size, self.seed);
        let bf = bridges_and_forks;
        // The incremental finder answers "did this move give the mover its first ring?"
        // exactly; once the mover has a ring (the game would have ended), it still reports
        // every new loop but may miss own stones newly cut off behind an old ring, so after
        // that only bridges and forks are compared.
        if had_ring {
            assert_eq!(
                bf(reported.online),
                bf(want),
                "size {size} seed {seed} move {ply}: on-line b/f"
            );
            assert_eq!(
                bf(reported.predicted),
                bf(want),
                "size {size} seed {seed} move {ply}: winning_kinds"
            );
        } else {
            assert_eq!(
                reported.online, want,
                "size {size} seed {seed} move {ply} ({cell:?}): on-line"
            );
            assert_eq!(
                reported.predicted, want,
                "size {size} seed {seed} move {ply}: winning_kinds"
            );
        }
        assert_eq!(
            reported.offline,
            bf(want),
            "size {size} seed {seed} move {ply}: b/f only"
        );
    }

    /// The off-line finder: surround times equal this ply exactly for the new cells.
    fn check_surround_times(&mut self, mover: Colour, ply: usize, now: &[bool], new: &[usize]) {
        let (size, seed) = (self.size, self.seed);
        let times = self.finder.surround_times(&self.offline, mover).to_vec();
        for i in 0..now.len() {
            if new.contains(&i) {
                assert_eq!(
                    times[i] as usize, ply,
                    "size {size} seed {seed}: new cell {i}"
                );
            } else if now[i] {
                assert!(
                    (times[i] as usize) < ply,
                    "size {size} seed {seed}: old cell {i}"
                );
            } else {
                assert_eq!(times[i], NEVER, "size {size} seed {seed}: open cell {i}");
            }
        }
    }

    /// The two-colour off-line pass: each colour's earliest ring as the reference has it,
    /// and the same ring (ply and cell) as the one-colour search.
    fn check_earliest_rings(&mut self, ply: usize) {
        let (size, seed) = (self.size, self.seed);
        let both = self.finder.earliest_rings(&self.offline);
        for colour in [Colour::White, Colour::Black] {
            let ring = both[colour.index()];
            assert_eq!(
                ring.map(|r| usize::from(r.ply)),
                self.first_ring[colour.index()],
                "size {size} seed {seed} move {ply}: earliest {colour:?} ring"
            );
            assert_eq!(ring, self.finder.earliest_ring(&self.offline, colour));
        }
    }

    /// Records the first win and checks the on-line position reports it, with no figure on
    /// the board before it.
    fn check_first_win(&mut self, mover: Colour, ply: usize, want: Kinds) {
        let (size, seed, board, stones) = (self.size, self.seed, self.board, &self.stones);
        if self.first_win.is_none() && !want.is_empty() {
            self.first_win = Some((mover, want, ply));
            // Before the first win nobody has a figure; now only the mover does, and the
            // reference sees exactly the figures the move reported.
            assert_eq!(reference::figures(board, stones, mover), want);
            assert_eq!(
                reference::figures(board, stones, mover.other()),
                Kinds::NONE
            );
        }
        if self.first_win.is_none() {
            for colour in [Colour::White, Colour::Black] {
                assert_eq!(reference::figures(board, stones, colour), Kinds::NONE);
            }
        }
        let w = self
            .online
            .win()
            .map(|w| (w.winner, w.kinds, w.ply as usize));
        assert_eq!(
            w, self.first_win,
            "size {size} seed {seed} move {ply}: first win"
        );
    }
}

fn check_game(size: u8, seed: u64) {
    let board = Board::new(size).expect("valid size");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut order: Vec<Cell> = board.cells().collect();
    order.shuffle(&mut rng);

    let mut game = GameCheck::new(board, size, seed);
    for (k, &cell) in order.iter().enumerate() {
        game.play(k + 1, cell);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(0x4a76_616e),
        failure_persistence: None,
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    })]

    #[test]
    fn all_finders_agree_small(size in 2u8..=6, seed in any::<u64>()) {
        check_game(size, seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 16,
        rng_seed: RngSeed::Fixed(0x4a76_616f),
        failure_persistence: None,
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    })]

    #[test]
    fn all_finders_agree_large(size in 7u8..=10, seed in any::<u64>()) {
        check_game(size, seed);
    }
}

#[test]
fn all_finders_agree_every_size_fixed_seeds() {
    for size in 2..=10 {
        for seed in 0..3 {
            check_game(size, 1000 * u64::from(size) + seed);
        }
    }
}

/// `win_next_to` (the decisive-move test with its one-run shortcut) gives the first empty
/// neighbour that `winning_kinds` says wins, around every stone of random games.
fn check_win_next_to(size: u8, seed: u64) -> usize {
    let board = Board::new(size).expect("valid size");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut order: Vec<Cell> = board.cells().collect();
    order.shuffle(&mut rng);
    let mut pos = Position::new(board, RingDetection::Online);
    let mut found = 0;
    for &cell in &order {
        pos.place(cell);
        for around in board.cells() {
            let want = pos.stone(around).and_then(|colour| {
                board
                    .neighbours(around)
                    .iter()
                    .copied()
                    .find(|&nb| pos.is_empty(nb) && !pos.winning_kinds(nb, colour).is_empty())
            });
            assert_eq!(
                pos.win_next_to(around),
                want,
                "size {size} seed {seed}, around {around:?} after {} stones",
                pos.num_stones()
            );
            found += usize::from(want.is_some());
        }
    }
    found
}

#[test]
fn win_next_to_agrees_with_winning_kinds() {
    let mut found = 0;
    for size in [3u8, 4, 5, 6, 8] {
        for seed in 0..4 {
            found += check_win_next_to(size, seed);
        }
    }
    // The games run to a full board, so winning cells next to stones are common.
    assert!(found > 100, "only {found} winning cells seen");
}

/// Along a random game to a full board: `place_and_scan` returns what `place` and then
/// `win_next_to` on the new stone return, that scan finds the first empty neighbour that
/// `winning_kinds` says wins, and `neighbour_set` (read from the neighbour table that
/// `place` keeps, on which every scan relies) matches the stones on the board, for every
/// cell and the sentinel.
fn check_scans(size: u8, seed: u64) -> usize {
    let board = Board::new(size).expect("valid size");
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut order: Vec<Cell> = board.cells().collect();
    order.shuffle(&mut rng);
    let mut pos = Position::new(board, RingDetection::Online);
    let mut plain = pos.clone();
    let n = board.num_cells();
    let mut found = 0;
    for &cell in &order {
        let colour = pos.to_move();
        let (kinds, win) = pos.place_and_scan(cell);
        assert_eq!(kinds, plain.place(cell), "size {size} seed {seed}: kinds");
        assert_eq!(win, plain.win_next_to(cell), "size {size} seed {seed}");
        let want = board
            .neighbours(cell)
            .iter()
            .copied()
            .find(|&nb| pos.is_empty(nb) && !pos.winning_kinds(nb, colour).is_empty());
        assert_eq!(win, want, "size {size} seed {seed}, {cell:?}");
        found += usize::from(win.is_some());
        for x in board.cells().chain([board.sentinel()]) {
            for wanted in [Some(Colour::White), Some(Colour::Black), None] {
                let mut brute = 0u8;
                for (d, &nb) in board.neighbours6(x).iter().enumerate() {
                    let on_board = nb.index() < n && x.index() < n;
                    let matches = match wanted {
                        Some(c) => pos.stone(nb) == Some(c),
                        None => pos.is_empty(nb),
                    };
                    brute |= u8::from(on_board && matches) << d;
                }
                assert_eq!(
                    pos.neighbour_set(x, wanted),
                    brute,
                    "size {size} seed {seed}: {x:?} {wanted:?}"
                );
            }
        }
    }
    found
}

#[test]
fn place_and_scan_agrees_with_place_and_win_next_to() {
    let mut found = 0;
    for size in [2u8, 3, 4, 6, 8] {
        for seed in 0..3 {
            found += check_scans(size, 100 + seed);
        }
    }
    assert!(found > 50, "only {found} winning cells seen");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        rng_seed: RngSeed::Fixed(0x4a76_6170),
        failure_persistence: None,
        max_shrink_iters: 32,
        ..ProptestConfig::default()
    })]

    /// `win_next_to` (around every stone) and `place_and_scan` against `winning_kinds` on
    /// every empty neighbour, on random games of every size.
    #[test]
    fn scans_agree_with_winning_kinds_any_size(size in 2u8..=10, seed in any::<u64>()) {
        check_win_next_to(size, seed);
        check_scans(size, seed);
    }
}
