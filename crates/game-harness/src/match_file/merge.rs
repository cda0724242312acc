//! Parts of a match joined into the whole ([`merge`]), and runs with different seeds pooled
//! into one table ([`pool`]).

use std::fmt;
use std::path::Path;

use super::{Description, SHARD_FILE, ShardError, ShardFile, read};
use crate::agent::MatchGame;
use crate::matches::MatchSettings;
use crate::shard::Shard;

/// Reads the shard file ([`SHARD_FILE`]) in each of `dirs` (the `--out` folders of a match's
/// parts) and joins them into the whole match ([`merge`]); `new_game` is [`read`]'s.
///
/// # Errors
/// The first error of [`read`] (naming the file) or of [`merge`].
pub fn merge_dirs<G: MatchGame, E: fmt::Display, D: AsRef<Path>>(
    dirs: &[D],
    new_game: impl Fn(&Description) -> Result<G, E>,
) -> Result<ShardFile<G>, ShardError> {
    merge(read_dirs(dirs, new_game)?)
}

/// The shard file of each of `dirs`, read with [`read`].
fn read_dirs<G: MatchGame, E: fmt::Display, D: AsRef<Path>>(
    dirs: &[D],
    new_game: impl Fn(&Description) -> Result<G, E>,
) -> Result<Vec<ShardFile<G>>, ShardError> {
    dirs.iter()
        .map(|dir| read(&dir.as_ref().join(SHARD_FILE), &new_game))
        .collect()
}

/// Joins the parts of one match into the whole match, games in order (the result's shard is
/// [`Shard::ALL`]).
///
/// # Errors
/// No parts, parts of different matches (descriptions, players or settings differ), or a game
/// that two parts both played.
pub fn merge<G>(parts: Vec<ShardFile<G>>) -> Result<ShardFile<G>, ShardError> {
    let mut parts = parts.into_iter();
    let mut merged = parts.next().ok_or(ShardError::NoShards)?;
    let whole = |s: &MatchSettings| s.shard(Shard::ALL);
    for part in parts {
        same_match(&merged, &part, whole)?;
        merged.result.games.extend(part.result.games);
    }
    let games = &mut merged.result.games;
    games.sort_by_key(|g| g.index);
    if let Some(w) = games.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(ShardError::Duplicate(w[0].index + 1));
    }
    merged.result.settings = whole(&merged.result.settings);
    Ok(merged)
}

/// Whether `other` is a part of the same match as `first`: the same description, players,
/// and settings once `settings` has set aside what may differ.
fn same_match<G>(
    first: &ShardFile<G>,
    other: &ShardFile<G>,
    settings: impl Fn(&MatchSettings) -> MatchSettings,
) -> Result<(), ShardError> {
    let mismatch = |what, first: String, other: String| ShardError::Mismatch { what, first, other };
    if other.description != first.description {
        return Err(mismatch(
            "descriptions",
            format!("{:?}", first.description),
            format!("{:?}", other.description),
        ));
    }
    let (m, p) = (&first.result, &other.result);
    if p.names != m.names {
        return Err(mismatch(
            "players",
            format!("{:?}", m.names),
            format!("{:?}", p.names),
        ));
    }
    if settings(&p.settings) != settings(&m.settings) {
        return Err(mismatch(
            "settings",
            format!("{:?}", settings(&m.settings)),
            format!("{:?}", settings(&p.settings)),
        ));
    }
    Ok(())
}

/// Runs of one match with different seeds, pooled into one result ([`pool`]).
#[derive(Debug, Clone)]
pub struct Pool<G> {
    /// The pooled games: each seed's games numbered after the previous seed's, the
    /// settings' `games` their sum and its `seed` the first seed's (a pool of several seeds
    /// is not one match: written as a shard file it would replay with one seed).
    pub file: ShardFile<G>,
    /// The seeds of the runs, in increasing order.
    pub seeds: Vec<u64>,
}

/// Joins the parts of runs of one match that differ only in their seed: each seed's parts
/// into its whole run ([`merge`]), then the runs one after the other (in increasing order of
/// seed, each one's game `k` numbered `k` plus the games of the runs before it), so that
/// two runs with disjoint seeds give one row of results. Parts of one seed only give what
/// [`merge`] gives.
///
/// ```
/// use game_harness::match_file::{self, ShardError};
/// # use game_harness::{MatchResult, MatchSettings};
/// # let run = |seed: u64| match_file::ShardFile::<u8> {
/// #     description: match_file::Description::new("a-game"),
/// #     result: MatchResult { names: ["A".into(), "B".into()],
/// #         settings: MatchSettings::new(0).seed(seed), games: vec![] },
/// # };
/// let pooled = match_file::pool(vec![run(6), run(5)])?;
/// assert_eq!(pooled.seeds, [5, 6]);
/// # Ok::<(), ShardError>(())
/// ```
///
/// # Errors
/// No parts, parts that differ in more than their seed (descriptions, players or the other
/// settings), or a game that two parts of one seed both played.
pub fn pool<G>(parts: Vec<ShardFile<G>>) -> Result<Pool<G>, ShardError> {
    let mut seeds: Vec<u64> = parts.iter().map(|p| p.result.settings.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    let mut by_seed: Vec<Vec<ShardFile<G>>> = seeds.iter().map(|_| Vec::new()).collect();
    for part in parts {
        let at = seeds.partition_point(|&s| s < part.result.settings.seed);
        by_seed[at].push(part);
    }
    let mut runs = by_seed.into_iter().map(merge);
    let mut pooled = runs.next().ok_or(ShardError::NoShards)??;
    let unseeded = |s: &MatchSettings| s.seed(0);
    let mut offset = pooled.result.settings.games;
    for run in runs {
        let run = run?;
        same_match(&pooled, &run, unseeded)?;
        let games = run.result.settings.games;
        pooled
            .result
            .games
            .extend(run.result.games.into_iter().map(|mut g| {
                g.index += offset;
                g
            }));
        offset += games;
    }
    pooled.result.settings.games = offset;
    Ok(Pool {
        file: pooled,
        seeds,
    })
}

/// [`merge_dirs`], pooling runs with different seeds ([`pool`]).
///
/// # Errors
/// The first error of [`read`] (naming the file) or of [`pool`].
pub fn pool_dirs<G: MatchGame, E: fmt::Display, D: AsRef<Path>>(
    dirs: &[D],
    new_game: impl Fn(&Description) -> Result<G, E>,
) -> Result<Pool<G>, ShardError> {
    pool(read_dirs(dirs, new_game)?)
}

/// The line a program prints under the table of a pool of runs with these `seeds` (see
/// [`Pool::seeds`]); `None` for one seed (one match).
///
/// ```
/// assert_eq!(
///     game_harness::match_file::pooled_line(&[5, 6]).as_deref(),
///     Some("Pooled runs with seeds 5, 6 (each seed's games numbered after the previous seed's)")
/// );
/// assert_eq!(game_harness::match_file::pooled_line(&[5]), None);
/// ```
#[must_use]
pub fn pooled_line(seeds: &[u64]) -> Option<String> {
    (seeds.len() > 1).then(|| {
        let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
        format!(
            "Pooled runs with seeds {} (each seed's games numbered after the previous seed's)",
            list.join(", ")
        )
    })
}
