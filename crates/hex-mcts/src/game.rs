//! The Hex position: stones, their groups with the edges each touches (connection-kit's
//! union-find) for win detection, the swap rule, and the `rave_mcts::Game` implementation.

use connection_kit::{Connection, Groups};
use rave_mcts::{Game, Player, Rewards};

use crate::board::{
    BLACK, BOTTOM, Colour, EMPTY, Geometry, HexError, HexMove, LEFT, OFF, RIGHT, TOP, WHITE,
    edge_of, geometry,
};

/// A Hex position.
///
/// A stone is joined to its same-coloured neighbours, and its group carries the edges of its
/// colour that it touches (one bit each: top, bottom, left, right); Black has won when a group
/// touches top and bottom, White when one touches left and right.
pub struct HexGame {
    geo: &'static Geometry,
    /// Stones by cell (`EMPTY`, `BLACK`, `WHITE`).
    stones: Vec<u8>,
    /// The groups of stones and the edges each touches.
    groups: Groups<Vec<u16>, Vec<u32>>,
    to_move: Colour,
    winner: Option<Colour>,
    /// Moves played (a swap counts as a move).
    plies: u16,
    /// The last cell played (`u16::MAX` before the first move); the playout's bridge rule
    /// looks at it.
    last: u16,
    swap_rule: bool,
}

impl Clone for HexGame {
    fn clone(&self) -> Self {
        HexGame {
            geo: self.geo,
            stones: self.stones.clone(),
            groups: self.groups.clone(),
            to_move: self.to_move,
            winner: self.winner,
            plies: self.plies,
            last: self.last,
            swap_rule: self.swap_rule,
        }
    }

    /// Reuses the buffers: the search clones the root into its scratch game on every
    /// simulation.
    fn clone_from(&mut self, source: &Self) {
        self.geo = source.geo;
        self.stones.clone_from(&source.stones);
        self.groups.clone_from(&source.groups);
        self.to_move = source.to_move;
        self.winner = source.winner;
        self.plies = source.plies;
        self.last = source.last;
        self.swap_rule = source.swap_rule;
    }
}

impl HexGame {
    /// An empty board of `size` (1 to 19), Black to move, with or without the swap rule.
    pub fn new(size: usize, swap_rule: bool) -> Result<HexGame, HexError> {
        let geo = geometry(size)?;
        let cells = geo.cells();
        Ok(HexGame {
            geo,
            stones: vec![EMPTY; cells],
            groups: Groups::new(vec![0; cells], vec![0; cells]),
            to_move: Colour::Black,
            winner: None,
            plies: 0,
            last: u16::MAX,
            swap_rule,
        })
    }

    /// The board tables.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The moves played (a swap counts as one).
    pub fn plies(&self) -> usize {
        usize::from(self.plies)
    }

    /// The side length.
    pub fn size(&self) -> usize {
        self.geo.size()
    }

    /// Whether the swap rule is on.
    pub fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    /// The stones by cell index (`EMPTY`, `BLACK`, `WHITE`).
    #[inline]
    pub fn stones(&self) -> &[u8] {
        &self.stones
    }

    /// The colour to move.
    pub fn colour_to_move(&self) -> Colour {
        self.to_move
    }

    /// The winner, if the game is over.
    pub fn winner(&self) -> Option<Colour> {
        self.winner
    }

    /// The last cell played, if any (after a swap: the swapped stone).
    #[inline]
    pub fn last_cell(&self) -> Option<usize> {
        (self.last != u16::MAX).then_some(usize::from(self.last))
    }

    /// Whether `swap-pieces` is legal now: the rule is on, exactly one move was played, it put
    /// a Black stone on the board, and White is to move.
    pub fn swap_allowed(&self) -> bool {
        self.swap_rule
            && self.winner.is_none()
            && self.plies == 1
            && self.to_move == Colour::White
            && self.last != u16::MAX
            && self.stones[usize::from(self.last)] == BLACK
            && self.stones.iter().filter(|&&s| s != EMPTY).count() == 1
    }

    /// Why a move is not legal for the side to move, if it is not.
    pub fn check(&self, mv: HexMove) -> Result<(), HexError> {
        if let Some(w) = self.winner {
            return Err(HexError::GameOver(w));
        }
        if mv.is_swap() {
            if !self.swap_rule {
                return Err(HexError::SwapNotAllowed("the swap rule is off"));
            }
            if !self.swap_allowed() {
                return Err(HexError::SwapNotAllowed(
                    "only as White's reply to Black's first stone",
                ));
            }
            return Ok(());
        }
        let cell = self.geo.index(mv)?;
        if self.stones[cell] != EMPTY {
            return Err(HexError::Occupied(mv.to_string()));
        }
        Ok(())
    }

    /// Plays a move for the side to move after checking it.
    pub fn try_play(&mut self, mv: HexMove) -> Result<(), HexError> {
        self.check(mv)?;
        self.play(mv);
        Ok(())
    }

    /// Plays a move for `colour`, who need not be the side to move (GTP allows `play b a1`
    /// twice); the other colour moves next. `swap-pieces` must be White's legal swap.
    pub fn try_play_as(&mut self, colour: Colour, mv: HexMove) -> Result<(), HexError> {
        if mv.is_swap() && colour != Colour::White {
            return Err(HexError::SwapNotAllowed("only White swaps"));
        }
        let saved = self.to_move;
        self.to_move = colour;
        if let Err(e) = self.check(mv) {
            self.to_move = saved;
            return Err(e);
        }
        self.play(mv);
        Ok(())
    }

    /// Sets the side to move (GTP `genmove` for the colour not to move).
    pub fn set_to_move(&mut self, colour: Colour) {
        self.to_move = colour;
    }

    /// Whether `other` is the same position: stones, side to move, moves played, last cell
    /// and rules (the forests may differ in shape, not in what they connect).
    pub fn same_position(&self, other: &HexGame) -> bool {
        self.stones == other.stones
            && self.to_move == other.to_move
            && self.plies == other.plies
            && self.last == other.last
            && self.swap_rule == other.swap_rule
    }

    /// Puts a stone of `colour` on an empty `cell` and updates the forest and the winner.
    fn place(&mut self, cell: usize, colour: Colour) {
        let stone = colour.stone();
        self.stones[cell] = stone;
        self.groups.place(cell, 0);
        for &nb in self.geo.neighbours(cell) {
            if nb < OFF {
                if self.stones[usize::from(nb)] == stone {
                    self.groups.union(cell, usize::from(nb));
                }
            } else if edge_of(nb, stone) {
                self.groups.add_edges(cell, 1 << (nb - OFF));
            }
        }
        let both = match colour {
            Colour::Black => (1 << TOP) | (1 << BOTTOM),
            Colour::White => (1 << LEFT) | (1 << RIGHT),
        };
        if self.groups.edges(cell) & both == both {
            self.winner = Some(colour);
        }
        self.last = cell as u16;
    }

    /// The swap: Black's only stone leaves, a White stone appears on its mirror image across
    /// the long diagonal, and Black moves next.
    fn swap(&mut self) {
        let first = usize::from(self.last);
        let mirrored = self.geo.index_unchecked(self.geo.move_of(first).mirrored());
        self.stones[first] = EMPTY;
        self.groups.reset();
        self.place(mirrored, Colour::White);
    }

    /// The board drawn as a rhombus, rows shifted right, column letters on top (`.` empty,
    /// `X` Black, `O` White).
    pub fn render(&self) -> String {
        let n = self.size();
        let letters: String = (0..n)
            .map(|c| format!(" {}", char::from(b'a' + c as u8)))
            .collect();
        let mut out = format!("   {letters}\n");
        for r in 0..n {
            out.push_str(&format!("{}{:>3}", " ".repeat(r), r + 1));
            for &stone in &self.stones[r * n..(r + 1) * n] {
                out.push_str(match stone {
                    BLACK => " X",
                    WHITE => " O",
                    _ => " .",
                });
            }
            out.push_str(&format!(" {}\n", r + 1));
        }
        let state = match self.winner {
            Some(w) => format!("{w} has won"),
            None => format!("{} to move", self.to_move),
        };
        out.push_str(&format!("{}{letters}\n", " ".repeat(n + 2)));
        out + &state + " (X = black, top-bottom; O = white, left-right)"
    }
}

/// Hex for connection-kit's threat test: player 0 is Black (top and bottom), 1 White (left
/// and right); a group's mask holds the edges of its colour that it touches.
impl Connection for HexGame {
    fn empty_cells(&self, f: &mut dyn FnMut(usize)) {
        for (cell, &s) in self.stones.iter().enumerate() {
            if s == EMPTY {
                f(cell);
            }
        }
    }

    fn stone(&self, cell: usize) -> Option<usize> {
        match self.stones[cell] {
            BLACK => Some(0),
            WHITE => Some(1),
            _ => None,
        }
    }

    fn neighbours(&self, cell: usize, f: &mut dyn FnMut(usize)) {
        for &nb in self.geo.neighbours(cell) {
            if nb < OFF {
                f(usize::from(nb));
            }
        }
    }

    fn edge_mask(&self, cell: usize, player: usize) -> u32 {
        let stone = if player == 0 { BLACK } else { WHITE };
        let mut mask = 0;
        for &nb in self.geo.neighbours(cell) {
            if nb >= OFF && edge_of(nb, stone) {
                mask |= 1 << (nb - OFF);
            }
        }
        mask
    }

    fn group_mask(&self, cell: usize) -> u32 {
        self.groups.root_edges(cell)
    }

    fn wins(&self, mask: u32, player: usize) -> bool {
        let both = if player == 0 {
            (1 << TOP) | (1 << BOTTOM)
        } else {
            (1 << LEFT) | (1 << RIGHT)
        };
        mask & both == both
    }
}

impl Game for HexGame {
    type Move = HexMove;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move.index()
    }

    fn legal_moves(&self, moves: &mut Vec<HexMove>) {
        if self.winner.is_some() {
            return;
        }
        moves.extend(
            self.stones
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s == EMPTY)
                .map(|(c, _)| self.geo.move_of(c)),
        );
        if self.swap_allowed() {
            moves.push(HexMove::SWAP);
        }
    }

    #[inline]
    fn play(&mut self, mv: HexMove) {
        if mv.is_swap() {
            self.swap();
        } else {
            let cell = self.geo.index_unchecked(mv);
            self.place(cell, self.to_move);
        }
        self.to_move = self.to_move.other();
        self.plies = self.plies.saturating_add(1);
    }

    #[inline]
    fn result(&self) -> Option<Rewards> {
        self.winner.map(|w| Rewards::win(w.index()))
    }

    #[inline]
    fn move_index(&self, mv: HexMove) -> usize {
        if mv.is_swap() {
            self.geo.cells()
        } else {
            self.geo.index_unchecked(mv)
        }
    }

    fn move_bound(&self) -> usize {
        self.geo.cells() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::connects;
    use proptest::prelude::*;

    fn game_from(size: usize, moves: &str) -> HexGame {
        let mut g = HexGame::new(size, true).unwrap();
        for m in moves.split_whitespace() {
            g.try_play(HexMove::parse(m).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn one_by_one_is_won_by_the_first_stone() {
        let g = game_from(1, "a1");
        assert_eq!(g.winner(), Some(Colour::Black));
        assert_eq!(g.result(), Some(Rewards::win(0)));
    }

    #[test]
    fn black_column_wins_white_row_wins() {
        // Black a1 a2 a3 down column a on 3x3: a top-to-bottom chain.
        let g = game_from(3, "a1 b1 a2 b2 a3");
        assert_eq!(g.winner(), Some(Colour::Black));
        // White a2 b2 c2 across row 2.
        let g = game_from(3, "a1 a2 b1 b2 a3 c2");
        assert_eq!(g.winner(), Some(Colour::White));
    }

    #[test]
    fn chains_along_the_wrong_axis_or_broken_do_not_win() {
        // Black fills row 1 (its own edge, left to right): no win for anyone.
        let g = game_from(3, "a1 a3 b1 b3 c1");
        assert_eq!(g.winner(), None);
        // White fills column c (top to bottom: Black's direction) on 4x4.
        let g = game_from(4, "a1 d1 a2 d2 b1 d3 b2 d4");
        assert_eq!(g.winner(), None);
        // Black c1 b2 a3: the short diagonal, every step a neighbour (c1-b2 via (-1,+1)).
        let g = game_from(3, "c1 a1 b2 a2 a3");
        assert_eq!(g.winner(), Some(Colour::Black));
        // Black a1 b2 c3: the long diagonal is not connected (a1-b2 are not neighbours).
        let g = game_from(3, "a1 c1 b2 a3 c3");
        assert_eq!(g.winner(), None);
    }

    #[test]
    fn swap_mirrors_the_first_stone_and_black_moves_next() {
        let mut g = game_from(5, "c1");
        assert!(g.swap_allowed());
        g.try_play(HexMove::SWAP).unwrap();
        assert_eq!(g.colour_to_move(), Colour::Black);
        let a3 = g.geometry().index(HexMove::parse("a3").unwrap()).unwrap();
        let c1 = g.geometry().index(HexMove::parse("c1").unwrap()).unwrap();
        assert_eq!(g.stones()[a3], WHITE);
        assert_eq!(g.stones()[c1], EMPTY);
        assert_eq!(g.stones().iter().filter(|&&s| s != EMPTY).count(), 1);
        // No second swap, and none without the rule or later in the game.
        assert!(matches!(
            g.try_play(HexMove::SWAP),
            Err(HexError::SwapNotAllowed(_))
        ));
        let mut g = HexGame::new(5, false).unwrap();
        g.try_play(HexMove::parse("c1").unwrap()).unwrap();
        assert!(!g.swap_allowed());
        assert!(g.try_play(HexMove::SWAP).is_err());
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(!v.contains(&HexMove::SWAP));
        let g = game_from(5, "c1");
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert_eq!(v.len(), 25);
        assert_eq!(v.last(), Some(&HexMove::SWAP));
        assert_eq!(g.move_index(HexMove::SWAP), 25);
        assert_eq!(g.move_bound(), 26);
    }

    #[test]
    fn the_swapped_white_stone_connects_for_white() {
        // Black b1 on 2x2, White swaps: White now owns a2 (mirror of b1) on its left edge;
        // White b1 then joins a2 (neighbours) to the right edge.
        let mut g = game_from(2, "b1 swap-pieces a1");
        assert_eq!(g.winner(), None);
        g.try_play(HexMove::parse("b1").unwrap()).unwrap();
        assert_eq!(g.winner(), Some(Colour::White));
    }

    #[test]
    fn bad_moves_are_errors_not_panics() {
        let mut g = game_from(3, "b2");
        assert!(matches!(
            g.try_play(HexMove::parse("b2").unwrap()),
            Err(HexError::Occupied(_))
        ));
        assert!(matches!(
            g.try_play(HexMove::parse("d1").unwrap()),
            Err(HexError::OffBoard { .. })
        ));
        let mut g = game_from(1, "a1");
        assert!(matches!(
            g.try_play(HexMove::parse("a1").unwrap()),
            Err(HexError::GameOver(Colour::Black))
        ));
        let mut g = HexGame::new(3, true).unwrap();
        assert!(g.try_play_as(Colour::Black, HexMove::SWAP).is_err());
        g.try_play_as(Colour::White, HexMove::parse("a1").unwrap())
            .unwrap();
        assert_eq!(g.colour_to_move(), Colour::Black);
        assert!(HexGame::new(0, true).is_err());
        assert!(HexGame::new(20, false).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any full board, balanced or not, has exactly one colour connecting its edges.
        #[test]
        fn full_boards_have_exactly_one_winner(
            size in 1usize..=11,
            bits in proptest::collection::vec(any::<bool>(), 121),
        ) {
            let geo = geometry(size).unwrap();
            let stones: Vec<u8> = (0..geo.cells())
                .map(|c| if bits[c] { BLACK } else { WHITE })
                .collect();
            let black = connects(&stones, geo, Colour::Black);
            let white = connects(&stones, geo, Colour::White);
            prop_assert!(black != white);
        }

        /// Alternate play in a random order always ends with a winner before or when the board
        /// is full; the forest agrees with a flood fill after every move, and the winner of the
        /// full board is the first player to connect.
        #[test]
        fn random_games_end_with_the_flood_fill_winner(
            size in 1usize..=9,
            keys in proptest::collection::vec(any::<u32>(), 81),
        ) {
            let mut g = HexGame::new(size, false).unwrap();
            let geo = g.geometry();
            let mut order: Vec<usize> = (0..geo.cells()).collect();
            order.sort_by_key(|&c| (keys[c], c));
            let mut full = vec![EMPTY; geo.cells()];
            let mut colour = Colour::Black;
            for &c in &order {
                full[c] = colour.stone();
                colour = colour.other();
            }
            for &c in &order {
                if g.winner().is_some() {
                    break;
                }
                g.try_play(geo.move_of(c)).unwrap();
                let b = connects(g.stones(), geo, Colour::Black);
                let w = connects(g.stones(), geo, Colour::White);
                prop_assert!(!(b && w));
                let expected = if b { Some(Colour::Black) } else if w { Some(Colour::White) } else { None };
                prop_assert_eq!(g.winner(), expected);
            }
            let winner = g.winner();
            prop_assert!(winner.is_some());
            let full_black = connects(&full, geo, Colour::Black);
            prop_assert_eq!(winner == Some(Colour::Black), full_black);
        }
    }
}
