//! A full random game with all win checks, at sizes 4, 6, 8 and 10, with on-line and with
//! off-line ring checking.
//!
//! `cargo bench -p havannah-rules --bench random_games`

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use havannah_board::{Board, Cell};
use havannah_rules::{Colour, Position, RingDetection, RingFinder};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;

/// Plays the cells of `order` until a win or a full board; returns the winner.
fn game_online(start: &Position, pos: &mut Position, order: &[Cell]) -> Option<Colour> {
    pos.clone_from(start);
    for &cell in order {
        if !pos.place(cell).is_empty() {
            break;
        }
    }
    pos.win().map(|w| w.winner)
}

/// Bridges and forks on-line until a win or a full board, then rings off-line.
fn game_offline(
    start: &Position,
    pos: &mut Position,
    finder: &mut RingFinder,
    order: &[Cell],
) -> Option<Colour> {
    pos.clone_from(start);
    for &cell in order {
        if !pos.place(cell).is_empty() {
            break;
        }
    }
    let bf = pos.win().map(|w| (w.ply, w.winner));
    let mut best = bf;
    for colour in [Colour::White, Colour::Black] {
        if let Some(ring) = finder.earliest_ring(pos, colour)
            && best.is_none_or(|(ply, _)| ring.ply < ply)
        {
            best = Some((ring.ply, colour));
        }
    }
    best.map(|(_, c)| c)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    for size in [4u8, 6, 8, 10] {
        let board = Board::new(size).expect("valid size");
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let orders: Vec<Vec<Cell>> = (0..64)
            .map(|_| {
                let mut cells: Vec<Cell> = board.cells().collect();
                cells.shuffle(&mut rng);
                cells
            })
            .collect();
        let online = Position::new(board, RingDetection::Online);
        let offline = Position::new(board, RingDetection::Offline);
        let mut pos = online.clone();
        let mut k = 0usize;
        group.bench_with_input(BenchmarkId::new("online_rings", size), &size, |b, _| {
            b.iter(|| {
                k = (k + 1) % orders.len();
                game_online(&online, &mut pos, &orders[k])
            });
        });
        let mut finder = RingFinder::new();
        group.bench_with_input(BenchmarkId::new("offline_rings", size), &size, |b, _| {
            b.iter(|| {
                k = (k + 1) % orders.len();
                game_offline(&offline, &mut pos, &mut finder, &orders[k])
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
