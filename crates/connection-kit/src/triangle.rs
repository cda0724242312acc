//! The triangle of hexagons that Y is played on: cells, neighbours in circular order, the
//! sides a cell lies on, names and a text picture.

/// The six neighbours of a cell as (dx, dy), in circular order.
pub const DIRECTIONS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// A triangle of side `size`: cells (x, y) with x + y < size, cell (x, y) at index
/// `y * STRIDE + x`, named with a column letter from x and a row number from y (`a1` is
/// (0, 0), morat-y's notation). Side bits: 1 for x = 0, 2 for y = 0, 4 for x + y = size - 1.
///
/// ```
/// use connection_kit::triangle::Triangle;
///
/// let t = Triangle::<16>::new(3).unwrap();
/// assert_eq!(t.cells().count(), 6);
/// let c1 = t.parse("c1").unwrap();
/// assert_eq!(t.sides(c1), 0b110); // on y = 0 and on x + y = 2
/// assert_eq!(Triangle::<16>::name(c1), "c1");
/// assert_eq!(t.neighbour(c1, 5), t.parse("b1")); // direction 5 is (-1, 0)
/// assert_eq!(t.neighbour(c1, 2), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Triangle<const STRIDE: usize> {
    size: u8,
}

impl<const STRIDE: usize> Triangle<STRIDE> {
    /// The triangle of side `size`; `None` unless `1 <= size <= STRIDE` and `STRIDE <= 26`
    /// (a letter a column).
    #[must_use]
    pub fn new(size: usize) -> Option<Triangle<STRIDE>> {
        (size >= 1 && size <= STRIDE && STRIDE <= 26).then_some(Triangle { size: size as u8 })
    }

    /// The side length.
    #[must_use]
    pub fn size(self) -> usize {
        usize::from(self.size)
    }

    /// The index of cell (x, y), if it is on the board.
    #[inline]
    #[must_use]
    pub fn index(self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && ((x + y) as usize) < self.size())
            .then(|| y as usize * STRIDE + x as usize)
    }

    /// Every cell, row by row.
    pub fn cells(self) -> impl Iterator<Item = usize> {
        let n = self.size();
        (0..n).flat_map(move |y| (0..n - y).map(move |x| y * STRIDE + x))
    }

    /// The neighbour of `cell` in direction `d` (0 to 5, [`DIRECTIONS`]), if on the board.
    #[inline]
    #[must_use]
    pub fn neighbour(self, cell: usize, d: usize) -> Option<usize> {
        let (dx, dy) = DIRECTIONS[d];
        self.index((cell % STRIDE) as i32 + dx, (cell / STRIDE) as i32 + dy)
    }

    /// The sides `cell` lies on (a corner lies on two).
    #[inline]
    #[must_use]
    pub fn sides(self, cell: usize) -> u32 {
        let (x, y) = (cell % STRIDE, cell / STRIDE);
        u32::from(x == 0) | (u32::from(y == 0) << 1) | (u32::from(x + y + 1 == self.size()) << 2)
    }

    /// The name of a cell: column letter, row number (the same on every size).
    #[must_use]
    pub fn name(cell: usize) -> String {
        format!(
            "{}{}",
            char::from(b'a' + (cell % STRIDE) as u8),
            cell / STRIDE + 1
        )
    }

    /// The cell a name stands for (any case, spaces around allowed), if it is on the board.
    #[must_use]
    pub fn parse(self, text: &str) -> Option<usize> {
        let text = text.trim().to_ascii_lowercase();
        let mut chars = text.chars();
        let x = i32::from(u8::try_from(chars.next()?).ok()?.checked_sub(b'a')?);
        let y = chars.as_str().parse::<i32>().ok()?.checked_sub(1)?;
        self.index(x, y)
    }

    /// The board as text, the last row on top and each row shifted as in a triangle, a row
    /// number before it and `mark(cell)` for each cell.
    #[must_use]
    pub fn render(self, mark: impl Fn(usize) -> char) -> String {
        let n = self.size();
        let mut out = String::new();
        for y in (0..n).rev() {
            out.push_str(&format!("{:>2} {}", y + 1, " ".repeat(y)));
            for x in 0..n - y {
                out.push(mark(y * STRIDE + x));
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbourhood is symmetric, every cell has 2 to 6 neighbours, and the sides are where
    /// neighbours are missing.
    #[test]
    fn neighbours_are_mutual_and_missing_only_on_the_sides() {
        for size in 1..=16 {
            let t = Triangle::<16>::new(size).unwrap();
            assert_eq!(t.cells().count(), size * (size + 1) / 2);
            for cell in t.cells() {
                let nbs: Vec<usize> = (0..6).filter_map(|d| t.neighbour(cell, d)).collect();
                for &nb in &nbs {
                    assert!((0..6).any(|d| t.neighbour(nb, d) == Some(cell)));
                }
                assert_eq!(nbs.len() == 6, t.sides(cell) == 0, "size {size}, {cell}");
                assert_eq!(t.parse(&Triangle::<16>::name(cell)), Some(cell));
            }
        }
        assert!(Triangle::<16>::new(0).is_none() && Triangle::<16>::new(17).is_none());
        let t = Triangle::<16>::new(3).unwrap();
        assert_eq!(t.parse("a4"), None);
        assert_eq!(t.parse("d1"), None);
        assert_eq!(t.parse(" B2 "), t.index(1, 1));
        assert_eq!(t.render(|_| '.'), " 3   . \n 2  . . \n 1 . . . \n");
    }
}
