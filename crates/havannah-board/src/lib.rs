#![doc = include_str!("../README.md")]
//!
//! # Coordinates and notation
//!
//! Cells sit on columns `x` and rows `y`, `0 <= x, y <= 2s-2`, with `|x - y| <= s-1`. A cell
//! is written as the letter `'a' + x` followed by the number `y + 1` (LittleGolem, HavannahGui,
//! Castro and OpenSpiel notation): size 8 has corners a1, h1, o8, o15, h15, a8 and centre h8.
//! The neighbours of `(x, y)` are `(x±1, y)`, `(x, y±1)`, `(x-1, y-1)` and `(x+1, y+1)`.
//! Axial coordinates are `q = x - y`, `r = y - (s-1)` (the centre is `(0, 0)`), cube
//! coordinates `(q, r, -q-r)`.
//!
//! A [`Cell`] is a dense `u16` index, row by row, so per-cell data lives in plain arrays.
//!
//! # Corners, sides and the edge mask
//!
//! `Corner(0)` = (0, 0) = a1, `Corner(1)` = (s-1, 0), `Corner(2)` = (2s-2, s-1),
//! `Corner(3)` = (2s-2, 2s-2), `Corner(4)` = (s-1, 2s-2), `Corner(5)` = (0, s-1).
//! `Side(i)` holds the cells between `Corner(i)` and `Corner((i+1) % 6)`, corners excluded
//! (`s - 2` cells each). [`Board::edge_mask`] gives 12 bits: bit `i` for `Corner(i)`, bit
//! `6 + i` for `Side(i)`, nothing for inner cells; OR-ed over a group it decides bridges
//! (two corner bits) and forks (three side bits).
//!
//! # The sentinel layout of the neighbour table
//!
//! [`Board::neighbours`] returns exactly the on-board neighbours (3, 4 or 6). The hot path
//! uses [`Board::neighbours6`] instead: always six slots, in the fixed cyclic order of
//! [`DIRECTIONS`], with every missing neighbour replaced by the *sentinel*
//! [`Board::sentinel`] = `Cell::from_index(num_cells)`. A caller keeps its per-cell arrays
//! (stones, group ids, ...) at length `num_cells + 1`, stores a neutral value in the last
//! entry ("off board", never a stone of either colour), and loops over the six slots with no
//! branch for the edge and no out-of-range index. The sentinel's own row in `neighbours6` is
//! six sentinels and its edge mask is 0, so it can even be looked up safely. This was chosen
//! over a bordered `(2s+1)^2` grid because it keeps cell indices dense (AMAF tables, move
//! lists and bitsets stay `3s(s-1)+1` long) at the cost of one shared extra array slot.
//!
//! # Symmetries
//!
//! [`Board::symmetries`] lists the 12 symmetries of the hexagon (6 rotations, each with or
//! without the reflection `(x, y) -> (y, x)`) as cell permutations; index 0 is the identity.
//!
//! # Errors
//!
//! Every function that reads outside input returns `Result<_, `[`BoardError`]`>` whose message
//! names the bad value; nothing here panics on bad input. Methods that take a [`Cell`] expect
//! a cell of the same board and panic, like slice indexing, on an index beyond it.

mod board;
mod cell;
mod cellset;
mod error;
mod notation;
mod render;
mod symmetry;

pub use board::{Board, DIRECTIONS};
pub use cell::{Cell, CellKind, CellName};
pub use cellset::{CellSet, Iter as CellSetIter};
pub use error::BoardError;
pub use symmetry::Symmetry;

/// The smallest supported board size (cells per side).
pub const MIN_SIZE: u8 = 2;
/// The largest supported board size (cells per side): 13 fits the letters a..y.
pub const MAX_SIZE: u8 = 13;
