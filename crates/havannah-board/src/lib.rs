//! Hexagonal board geometry for Havannah: cells, coordinates, neighbours, corners and sides, notation, symmetries.
//!
//! Work in progress: see the workspace issues.

/// The smallest supported board size (cells per side).
pub const MIN_SIZE: u8 = 2;
/// The largest supported board size (cells per side): 13 fits the letters a..y.
pub const MAX_SIZE: u8 = 13;
