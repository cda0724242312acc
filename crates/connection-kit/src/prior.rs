//! The tree knowledge of a connection game, as a `rave_mcts::Prior`: the threat test narrows
//! each new node, and two progressive biases steer the first visits of its children.

use rave_mcts::{Narrowing, Prior, PriorValue};

use crate::playout::Placement;
use crate::threats::{Connection, threats};

/// What the search knows when it expands a node of a connection game, each part switched on
/// or weighed by the game:
///
/// - `threats`: a cell that wins at once proves the node; one cell where the opponent would
///   win is the only child; two prove the loss ([`threats`]).
/// - `reach`: a child's bias grows by this weight for each edge (side, corner) the group it
///   would join touches, counting the cell's own: moves that carry a group to new edges are
///   tried first.
/// - `bridge_reply`: the bias of the cell that saves a two-bridge the opponent's last stone
///   intruded into ([`Ring::saves`](crate::bridge::Ring::saves)).
///
/// ```
/// use connection_kit::ConnectionPrior;
///
/// let prior = ConnectionPrior { threats: true, reach: 0.05, bridge_reply: 0.3 };
/// assert!(prior.has_bias());
/// assert!(!ConnectionPrior::default().has_bias());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ConnectionPrior {
    /// Narrow new nodes by the threat test.
    pub threats: bool,
    /// The bias for each edge the joined group would touch (`>= 0`).
    pub reach: f32,
    /// The bias of the reply that saves an intruded bridge (`>= 0`).
    pub bridge_reply: f32,
}

impl ConnectionPrior {
    /// Whether either bias is on.
    #[must_use]
    pub fn has_bias(&self) -> bool {
        self.reach > 0.0 || self.bridge_reply > 0.0
    }
}

/// The edges a stone of `player` on `cell` would touch with the groups it joins.
fn reach<G: Placement + Connection>(game: &G, cell: usize, player: usize) -> u32 {
    let mut mask = game.edge_mask(cell, player);
    for nb in (0..6).filter_map(|d| game.neighbour(cell, d)) {
        if game.stone(nb) == Some(player) {
            mask |= game.group_mask(nb);
        }
    }
    mask
}

impl<G: Placement + Connection> Prior<G> for ConnectionPrior {
    fn priors(&self, game: &G, moves: &[G::Move], out: &mut [PriorValue]) {
        let me = game.to_move();
        let (saves, last) = match game.last_cell() {
            Some(last) if self.bridge_reply > 0.0 => (game.ring(last).saves(), last),
            _ => (0, 0),
        };
        let replies = (0..6)
            .filter(|d| saves & (1 << d) != 0)
            .filter_map(|d| game.neighbour(last, d));
        let mut saving = [usize::MAX; 6];
        for (slot, cell) in saving.iter_mut().zip(replies) {
            *slot = cell;
        }
        for (&mv, value) in moves.iter().zip(out.iter_mut()) {
            let Some(cell) = game.cell_of(mv) else {
                continue;
            };
            let mut bias = 0.0;
            if self.reach > 0.0 {
                bias += self.reach * reach(game, cell, me).count_ones() as f32;
            }
            if saving.contains(&cell) {
                bias += self.bridge_reply;
            }
            value.bias += bias;
        }
    }

    fn narrow(&self, game: &G, moves: &mut Vec<G::Move>) -> Narrowing {
        if !self.threats {
            return Narrowing::Open;
        }
        threats(game, game.to_move()).narrow(moves, |cell| game.move_onto(cell))
    }

    fn is_active(&self) -> bool {
        self.has_bias()
    }
}

/// What a connection game's player knows, switched on and weighed by name: the bridge-saving
/// playout ([`BridgePlayout`](crate::BridgePlayout)) and the [`ConnectionPrior`].
///
/// ```
/// use connection_kit::Knowledge;
///
/// let params = [("bridge", "0"), ("reach", "0.2")];
/// let lookup = |key: &str| params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
/// let knowledge = Knowledge::default().with_params(lookup)?;
/// assert!(!knowledge.bridge_save);
/// assert_eq!(knowledge.prior.reach, 0.2);
/// assert_eq!(knowledge.suffix(), "+reach");
/// # Ok::<(), connection_kit::KnowledgeError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Knowledge {
    /// Playouts save intruded two-bridges.
    pub bridge_save: bool,
    /// The tree knowledge.
    pub prior: ConnectionPrior,
}

/// A knowledge setting whose value is not what its key takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnowledgeError {
    /// The key (`bridge`, `threats`, `reach`, `reply`).
    pub key: &'static str,
    /// The value given.
    pub value: String,
}

impl std::fmt::Display for KnowledgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let expected = match self.key {
            "bridge" | "threats" => "0 or 1",
            _ => "a weight in [0, 2.55]",
        };
        write!(f, "{}={} is not {expected}", self.key, self.value)
    }
}

impl std::error::Error for KnowledgeError {}

impl Knowledge {
    /// The keys [`Knowledge::with_params`] reads.
    pub const KEYS: [&'static str; 4] = ["bridge", "threats", "reach", "reply"];

    /// `self` with the settings `param` gives by key: `bridge=0|1`, `threats=0|1`, and the
    /// weights `reach=W`, `reply=W` (0 to 2.55, the range of a progressive bias).
    ///
    /// # Errors
    /// [`KnowledgeError`] naming the first key whose value is malformed or out of range.
    pub fn with_params<'a>(
        self,
        param: impl Fn(&str) -> Option<&'a str>,
    ) -> Result<Knowledge, KnowledgeError> {
        let bad = |key: &'static str, value: &str| KnowledgeError {
            key,
            value: value.to_string(),
        };
        let switch = |key: &'static str, default: bool| match param(key) {
            None => Ok(default),
            Some("0") => Ok(false),
            Some("1") => Ok(true),
            Some(other) => Err(bad(key, other)),
        };
        let weight = |key: &'static str, default: f32| match param(key) {
            None => Ok(default),
            Some(text) => match text.parse::<f32>() {
                Ok(w) if (0.0..=2.55).contains(&w) => Ok(w),
                _ => Err(bad(key, text)),
            },
        };
        Ok(Knowledge {
            bridge_save: switch("bridge", self.bridge_save)?,
            prior: ConnectionPrior {
                threats: switch("threats", self.prior.threats)?,
                reach: weight("reach", self.prior.reach)?,
                bridge_reply: weight("reply", self.prior.bridge_reply)?,
            },
        })
    }

    /// The parts on, for a player's name: `+bridge`, `+threats`, `+reach`, `+reply` in that
    /// order.
    #[must_use]
    pub fn suffix(&self) -> String {
        [
            (self.bridge_save, "+bridge"),
            (self.prior.threats, "+threats"),
            (self.prior.reach > 0.0, "+reach"),
            (self.prior.bridge_reply > 0.0, "+reply"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, part)| *part)
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(params: &[(&str, &str)]) -> Result<Knowledge, KnowledgeError> {
        let defaults = Knowledge {
            bridge_save: true,
            ..Knowledge::default()
        };
        defaults.with_params(|key| params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v))
    }

    #[test]
    fn settings_override_the_defaults_and_name_the_player() {
        let k = parse(&[]).unwrap();
        assert_eq!(k.suffix(), "+bridge");
        let k = parse(&[("threats", "1"), ("reply", "0.25"), ("bridge", "0")]).unwrap();
        assert!(!k.bridge_save && k.prior.threats);
        assert_eq!((k.prior.reach, k.prior.bridge_reply), (0.0, 0.25));
        assert_eq!(k.suffix(), "+threats+reply");
    }

    #[test]
    fn a_bad_value_is_named_with_its_key() {
        for (key, value, expected) in [
            ("bridge", "2", "bridge=2 is not 0 or 1"),
            ("reach", "3", "reach=3 is not a weight in [0, 2.55]"),
            ("reply", "x", "reply=x is not a weight in [0, 2.55]"),
        ] {
            let e = parse(&[(key, value)]).unwrap_err();
            assert_eq!(e.to_string(), expected);
        }
    }
}
