//! A part of a match ([`Shard`]): the game pairs it plays, so that a long match can run on
//! several machines; [`crate::match_file`] writes and merges the parts.

use std::fmt;

/// One of `count` parts of a match, so that a long match can run on several machines and be
/// merged afterwards: shard `index` plays the game pairs `p` with `p % count == index` (a pair
/// is games `2p` and `2p + 1`, which share an opening). The shards of a match together play
/// every game exactly once, and each game is the same as in one big run as long as the
/// players are seeded per game (see [`game_seed`](crate::matches::game_seed)).
///
/// ```
/// use game_harness::Shard;
///
/// let shard: Shard = "1/3".parse()?;
/// assert_eq!(shard.games(10).collect::<Vec<_>>(), [2, 3, 8, 9]);
/// assert_eq!(Shard::ALL.games(3).count(), 3);
/// assert_eq!(
///     "3/3".parse::<Shard>().unwrap_err().to_string(),
///     r#"shard "3/3": expected K/N with 0 <= K < N, as 0/4"#
/// );
/// # Ok::<(), game_harness::shard::ParseShardError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shard {
    /// This shard's number, from 0.
    pub index: usize,
    /// The number of shards.
    pub count: usize,
}

impl Shard {
    /// The whole match in one shard.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` (numbered from 0) belongs to this shard.
    #[must_use]
    pub fn contains(&self, game: usize) -> bool {
        (game / 2) % self.count.max(1) == self.index
    }

    /// The numbers of this shard's games among `games` games, in order.
    pub fn games(self, games: usize) -> impl Iterator<Item = usize> {
        (0..games).filter(move |&g| self.contains(g))
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::ALL
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why text is not a [`Shard`]: it is not `K/N` with `0 <= K < N`. The message names the
/// text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("shard {text:?}: expected K/N with 0 <= K < N, as 0/4")]
pub struct ParseShardError {
    /// The text received.
    pub text: String,
}

impl std::str::FromStr for Shard {
    type Err = ParseShardError;

    /// `K/N` with `0 <= K < N`.
    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let bad = || ParseShardError {
            text: text.to_string(),
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_play_every_game_once_and_keep_pairs_together() {
        for count in 1..6 {
            let mut seen = vec![0; 23];
            for index in 0..count {
                let shard = Shard { index, count };
                let games: Vec<usize> = shard.games(23).collect();
                for g in games {
                    seen[g] += 1;
                    assert!(shard.contains(g ^ 1), "game {g} and its pair in one shard");
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{count} shards: {seen:?}");
        }
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["", "1", "a/2", "2/2", "0/0", "-1/3", "1/2/3"] {
            let text = bad.to_string();
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ParseShardError { text }),
                "{bad:?}"
            );
        }
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
    }
}
