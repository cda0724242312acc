//! A match runner: two [`Agent`]s play a series of games on the authoritative [`GameState`].
//!
//! Player A moves first (plays White) in games 0, 2, 4, ... and player B in games 1, 3, 5, ...
//! Every chosen move is checked: a player that returns an illegal move, or no move while the
//! game goes on, forfeits the game (its opponent wins; the record says why). The clock in the
//! [`MatchConfig`] is passed to every `choose` as advice; time is measured and reported, never
//! enforced.
//!
//! The pie rule is **off by default**: colours alternate between games, which already balances
//! White's first-move advantage, and a self-play match then measures strength rather than the
//! players' swap policies. Turn it on with [`MatchConfig::pie`] to test swap decisions. With the
//! pie rule a `swap` makes the second player the owner of the White stones; records keep that
//! straight ([`GameRecord::winner_player`]).
//!
//! Deterministic players give the same game every time. `opening_plies` random moves (drawn
//! from the match seed, the same opening for the two games of each pair, so both players get
//! both sides of it) make games differ.
//!
//! ```
//! use havannah::RandomAgent;
//! use havannah::selfplay::{MatchConfig, PlayerId, run_match};
//!
//! let mut a = RandomAgent::new(1);
//! let mut b = RandomAgent::new(2);
//! let config = MatchConfig::new(4, 6);
//! let result = run_match(&mut a, &mut b, &config, |_record| {})?;
//! assert_eq!(result.games.len(), 6);
//! assert_eq!(result.games[1].first_player, PlayerId::B);
//! println!("{result}");
//! # Ok::<(), havannah_rules::RulesError>(())
//! ```

use std::fmt;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use game_harness::Clock;
use havannah_rules::{Colour, GameState, Kinds, Move, Outcome, Record, Rules, RulesError};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::agent::{Agent, random_cell};
use crate::stats::{Score, format_duration, mean_duration, percent};
use crate::svg::{SvgOptions, position_svg};
/// One of the two players of a match (from the generic [`game_harness::matches`]).
pub use game_harness::matches::PlayerId;
use game_harness::matches::{Shard, Tally, first_player, game_seed, play_shard};

/// The settings of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MatchConfig {
    /// Cells per side (2 to 13).
    pub size: u8,
    /// The number of games.
    pub games: usize,
    /// Whether the pie rule (`swap`) is allowed. Default: off (see the module docs).
    pub pie: bool,
    /// The clock given to each `choose` (advice; not enforced).
    pub clock: Clock,
    /// Random opening moves played before the players take over (0 by default).
    pub opening_plies: usize,
    /// The seed of the random openings and of the players' generators (reseeded before
    /// every game, see [`Agent::reseed`]).
    pub seed: u64,
    /// The part of the match to play (all of it by default): see [`Shard`].
    pub shard: Shard,
}

impl MatchConfig {
    /// `games` games on a board of `size`, pie rule off, unlimited clock, no random opening,
    /// seed 0.
    #[must_use]
    pub fn new(size: u8, games: usize) -> MatchConfig {
        MatchConfig {
            size,
            games,
            pie: false,
            clock: Clock::unlimited(),
            opening_plies: 0,
            seed: 0,
            shard: Shard::ALL,
        }
    }

    /// With the pie rule on or off.
    #[must_use]
    pub fn pie(mut self, pie: bool) -> MatchConfig {
        self.pie = pie;
        self
    }

    /// With this clock for every move.
    #[must_use]
    pub fn clock(mut self, clock: Clock) -> MatchConfig {
        self.clock = clock;
        self
    }

    /// With `plies` random opening moves, drawn from `seed`.
    #[must_use]
    pub fn opening(mut self, plies: usize, seed: u64) -> MatchConfig {
        self.opening_plies = plies;
        self.seed = seed;
        self
    }

    /// Plays only the games of `shard` (see [`Shard`]); [`merge_results`](crate::shard::merge_results) joins the parts.
    #[must_use]
    pub fn shard(mut self, shard: Shard) -> MatchConfig {
        self.shard = shard;
        self
    }
}

/// A game lost by a rule breach rather than on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Forfeit {
    /// The player who forfeited.
    pub player: PlayerId,
    /// The move it chose, in notation, or `None` if it chose none.
    pub chosen: Option<String>,
    /// Why the move was rejected.
    pub reason: String,
}

/// The record of one finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The game's number in the match, from 0.
    pub index: usize,
    /// The player who made the first move (and held White unless the second player swapped).
    pub first_player: PlayerId,
    /// The final game (moves, position and outcome). A forfeited game stops before the
    /// rejected move.
    pub game: GameState,
    /// The winning colour: on the board, or the forfeiting player's opponent's colour.
    pub winner: Option<Colour>,
    /// The winning player, `None` for a draw.
    pub winner_player: Option<PlayerId>,
    /// The figures of the winning move (empty for a draw or a forfeit).
    pub kinds: Kinds,
    /// Set when the game was lost by an illegal move or no move.
    pub forfeit: Option<Forfeit>,
    /// Thinking time of A and B in this game.
    pub time: [Duration; 2],
    /// Moves chosen by A and B in this game (random opening moves are nobody's).
    pub moves_chosen: [u32; 2],
    /// The longest thinking time of one move of A and of B in this game.
    pub longest_move: [Duration; 2],
}

impl GameRecord {
    /// The number of moves played.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// Whether the second player swapped (so the first player ended up with Black).
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.game.moves().get(1) == Some(&Move::Swap)
    }

    /// The player who owns the stones of `colour` at the end of the game.
    #[must_use]
    pub fn player_of(&self, colour: Colour) -> PlayerId {
        let white = if self.swapped() {
            self.first_player.other()
        } else {
            self.first_player
        };
        if colour == Colour::White {
            white
        } else {
            white.other()
        }
    }

    /// The result as SGF's `RE` writes it: `W+`, `B+`, `W+F`/`B+F` for a forfeit, `0` for a
    /// draw.
    #[must_use]
    pub fn sgf_result(&self) -> String {
        match self.winner {
            None => "0".to_string(),
            Some(c) => {
                let letter = if c == Colour::White { 'W' } else { 'B' };
                let f = if self.forfeit.is_some() { "F" } else { "" };
                format!("{letter}+{f}")
            }
        }
    }
}

/// The outcome of a match: the players' names, the configuration and every game.
#[derive(Debug, Clone)]
pub struct MatchResult {
    /// The names of A and B.
    pub names: [String; 2],
    /// The configuration the match ran with.
    pub config: MatchConfig,
    /// The games in the order they were played.
    pub games: Vec<GameRecord>,
}

impl MatchResult {
    /// Wins, losses and draws of `player`.
    #[must_use]
    pub fn score(&self, player: PlayerId) -> Score {
        self.tally().score(player)
    }

    /// A's results by who moved first (the harness's [`Tally`]).
    #[must_use]
    pub fn tally(&self) -> Tally {
        Tally::of_games(self.games.iter().map(|g| (g.first_player, g.winner_player)))
    }

    /// Games won by each colour (White, Black) and draws.
    #[must_use]
    pub fn wins_by_colour(&self) -> (u32, u32, u32) {
        let (mut w, mut b, mut d) = (0, 0, 0);
        for g in &self.games {
            match g.winner {
                Some(Colour::White) => w += 1,
                Some(Colour::Black) => b += 1,
                None => d += 1,
            }
        }
        (w, b, d)
    }

    /// The score of `player` in the games where it made the first move (`first = true`) or
    /// the second.
    #[must_use]
    pub fn score_moving(&self, player: PlayerId, first: bool) -> Score {
        self.tally().score_moving(player, first)
    }

    /// How many won games completed each figure: bridge, fork, ring (a move completing two
    /// figures counts for both).
    #[must_use]
    pub fn kind_counts(&self) -> [u32; 3] {
        let mut counts = [0; 3];
        for g in &self.games {
            for (k, kind) in [Kinds::BRIDGE, Kinds::FORK, Kinds::RING]
                .into_iter()
                .enumerate()
            {
                if g.kinds.contains(kind) {
                    counts[k] += 1;
                }
            }
        }
        counts
    }

    /// The number of forfeited games.
    #[must_use]
    pub fn forfeits(&self) -> usize {
        self.games.iter().filter(|g| g.forfeit.is_some()).count()
    }

    /// The mean game length in plies (0 with no games).
    #[must_use]
    pub fn mean_plies(&self) -> f64 {
        if self.games.is_empty() {
            0.0
        } else {
            self.games.iter().map(GameRecord::plies).sum::<usize>() as f64 / self.games.len() as f64
        }
    }

    /// The total thinking time and moves chosen of `player`.
    #[must_use]
    pub fn time_used(&self, player: PlayerId) -> (Duration, u64) {
        let i = player.index();
        self.games.iter().fold((Duration::ZERO, 0), |(t, n), g| {
            (t + g.time[i], n + u64::from(g.moves_chosen[i]))
        })
    }

    /// The mean thinking time per move of `player`.
    #[must_use]
    pub fn mean_time_per_move(&self, player: PlayerId) -> Duration {
        let (total, n) = self.time_used(player);
        mean_duration(total, n)
    }

    /// The longest thinking time of one move of `player` in the match.
    #[must_use]
    pub fn longest_move(&self, player: PlayerId) -> Duration {
        let i = player.index();
        self.games
            .iter()
            .map(|g| g.longest_move[i])
            .max()
            .unwrap_or_default()
    }
}

impl fmt::Display for MatchResult {
    /// The results table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        let n = self.games.len();
        writeln!(
            f,
            "Match: A = {a}, B = {b}; size {}, {n} games, pie rule {}",
            self.config.size,
            if self.config.pie { "on" } else { "off" }
        )?;
        let tally = self.tally();
        f.write_str(&tally.table())?;
        let (w, bl, d) = self.wins_by_colour();
        let of = |k: u32| {
            if n == 0 {
                "-".to_string()
            } else {
                percent(f64::from(k) / n as f64)
            }
        };
        writeln!(
            f,
            "By colour: White {w} ({}), Black {bl} ({}), draws {d}",
            of(w),
            of(bl)
        )?;
        let [br, fo, ri] = self.kind_counts();
        writeln!(
            f,
            "Win kinds: bridge {br}, fork {fo}, ring {ri}; forfeits {}",
            self.forfeits()
        )?;
        writeln!(f, "Mean game length: {:.1} plies", self.mean_plies())?;
        writeln!(f, "{}", tally.summary())?;
        write!(
            f,
            "Mean time per move: A {}, B {}; longest move: A {}, B {}",
            format_duration(self.mean_time_per_move(PlayerId::A)),
            format_duration(self.mean_time_per_move(PlayerId::B)),
            format_duration(self.longest_move(PlayerId::A)),
            format_duration(self.longest_move(PlayerId::B))
        )
    }
}

/// Plays one game: `first` moves first. The players are given as A and B.
fn play_game(
    index: usize,
    players: &mut [&mut dyn Agent; 2],
    config: &MatchConfig,
) -> Result<GameRecord, RulesError> {
    let first = first_player(index);
    let mut game = opening(index, config)?;
    for p in players.iter_mut() {
        p.reset(&game);
    }
    let mut times = MoveTimes::default();
    let forfeit = play_out(&mut game, players, first, config, &mut times);
    let mut record = GameRecord {
        index,
        first_player: first,
        game,
        winner: None,
        winner_player: None,
        kinds: Kinds::NONE,
        forfeit: None,
        time: times.time,
        moves_chosen: times.moves_chosen,
        longest_move: times.longest_move,
    };
    record.settle(forfeit);
    Ok(record)
}

/// A new game with game `index`'s random opening of `config.opening_plies` plies (the same
/// opening for games 2k and 2k+1).
fn opening(index: usize, config: &MatchConfig) -> Result<GameState, RulesError> {
    let mut game = GameState::new(config.size, Rules { pie: config.pie })?;
    let mut rng = Pcg64Mcg::seed_from_u64(
        config.seed ^ (index as u64 / 2).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    for _ in 0..config.opening_plies {
        if game.outcome().is_over() {
            break;
        }
        let Some(mv) = random_cell(&game, &mut rng) else {
            break;
        };
        game.play(mv)?;
    }
    Ok(game)
}

/// Each player's thinking time, moves chosen and longest move.
#[derive(Default)]
struct MoveTimes {
    time: [Duration; 2],
    moves_chosen: [u32; 2],
    longest_move: [Duration; 2],
}

/// Plays `game` to its end, `first` moving at even plies (swap or not), timing each choice:
/// the forfeit, if a player chose no move or an illegal one.
fn play_out(
    game: &mut GameState,
    players: &mut [&mut dyn Agent; 2],
    first: PlayerId,
    config: &MatchConfig,
    times: &mut MoveTimes,
) -> Option<Forfeit> {
    while !game.outcome().is_over() {
        let mover = if game.moves().len().is_multiple_of(2) {
            first
        } else {
            first.other()
        };
        let i = mover.index();
        let start = Instant::now();
        let chosen = players[i].choose(game, &config.clock);
        let spent = start.elapsed();
        times.time[i] += spent;
        times.longest_move[i] = times.longest_move[i].max(spent);
        times.moves_chosen[i] += 1;
        let Some(mv) = chosen else {
            let reason = match players[i].failure() {
                Some(why) => format!("chose no move: {why}"),
                None => "chose no move while the game goes on".to_string(),
            };
            return Some(Forfeit {
                player: mover,
                chosen: None,
                reason,
            });
        };
        if let Err(e) = game.play(mv) {
            return Some(Forfeit {
                player: mover,
                chosen: Some(illegal_move_name(game, mv)),
                reason: e.to_string(),
            });
        }
        for p in players.iter_mut() {
            p.observe(game, mv);
        }
    }
    None
}

/// How a forfeit names an illegal move: its notation, or the cell's index for a cell off the
/// board (which has no name).
fn illegal_move_name(game: &GameState, mv: Move) -> String {
    if let Move::Cell(c) = mv
        && !game.board().contains(c)
    {
        format!("cell #{}", c.index())
    } else {
        mv.to_notation(game.board())
    }
}

impl GameRecord {
    /// Sets the winner: the opponent of the player who forfeited, else the game's winner.
    fn settle(&mut self, forfeit: Option<Forfeit>) {
        if let Some(f) = forfeit {
            let winner_player = f.player.other();
            self.winner_player = Some(winner_player);
            self.winner = Some(if self.player_of(Colour::White) == winner_player {
                Colour::White
            } else {
                Colour::Black
            });
            self.forfeit = Some(f);
        } else if let Outcome::Win { winner, kinds, .. } = self.game.outcome() {
            self.winner = Some(*winner);
            self.kinds = *kinds;
            self.winner_player = Some(self.player_of(*winner));
        }
    }
}

/// Plays a match of `config.games` games between `a` and `b`, calling `on_game` after each
/// finished game (for a progress bar).
///
/// # Errors
/// [`RulesError::Board`] when the board size is not supported.
pub fn run_match(
    a: &mut dyn Agent,
    b: &mut dyn Agent,
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameRecord),
) -> Result<MatchResult, RulesError> {
    // Check the size before any game starts.
    GameState::new(config.size, Rules { pie: config.pie })?;
    let names = [a.name(), b.name()];
    let mut players: [&mut dyn Agent; 2] = [a, b];
    let games = play_shard(
        config.games,
        config.shard,
        |index| {
            for (i, p) in players.iter_mut().enumerate() {
                p.reseed(game_seed(config.seed, index, i));
            }
            play_game(index, &mut players, config)
        },
        |_, record| on_game(record),
    )?;
    Ok(MatchResult {
        names,
        config: *config,
        games,
    })
}

/// The files [`write_outputs`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFiles {
    /// One record per line: `<size> <white|black|draw> <kinds> <moves...>`.
    pub games_txt: PathBuf,
    /// One SGF game tree per line, with player names and results.
    pub games_sgf: PathBuf,
    /// The last game's final position, if there was a game.
    pub last_game_svg: Option<PathBuf>,
    /// The results table.
    pub results_txt: PathBuf,
}

/// Escapes an SGF property value.
fn sgf_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The SGF of one game: [`Record::to_sgf`] with `PW`/`PB` (the players holding White and Black
/// at the start), `RE` and, for a forfeit, a comment `GC` naming the rejected move.
#[must_use]
pub fn game_sgf(record: &GameRecord, names: &[String; 2]) -> String {
    let sgf = Record::of_game(&record.game).to_sgf();
    let white = &names[record.first_player.index()];
    let black = &names[record.first_player.other().index()];
    let mut props = format!(
        "PW[{}]PB[{}]RE[{}]",
        sgf_escape(white),
        sgf_escape(black),
        record.sgf_result()
    );
    if let Some(f) = &record.forfeit {
        let _ = write!(
            props,
            "GC[{}]",
            sgf_escape(&format!(
                "{} forfeits: {} {}",
                names[f.player.index()],
                f.chosen.as_deref().unwrap_or("no move"),
                f.reason
            ))
        );
    }
    // The root node ends where the first move node starts (or at the closing parenthesis).
    let split = sgf[2..].find(';').map_or(sgf.len() - 1, |k| k + 2);
    format!("{}{props}{}", &sgf[..split], &sgf[split..])
}

/// Writes `games.txt`, `games.sgf`, `last_game.svg` and `results.txt` into `dir` (created if
/// needed).
///
/// `games.txt` has one line per game as the fixtures write records
/// ([`Record::to_fixture_line`]). A forfeited game did not end on the board, so its line is the
/// plain record `<size> <moves...>`; `results.txt` and the SGF name the forfeit.
///
/// # Errors
/// Any error creating the folder or writing a file.
pub fn write_outputs(result: &MatchResult, dir: &Path) -> io::Result<OutputFiles> {
    fs::create_dir_all(dir)?;
    let mut txt = String::new();
    let mut sgf = String::new();
    for g in &result.games {
        txt.push_str(&Record::to_fixture_line(&g.game));
        txt.push('\n');
        sgf.push_str(&game_sgf(g, &result.names));
        sgf.push('\n');
    }
    let files = OutputFiles {
        games_txt: dir.join("games.txt"),
        games_sgf: dir.join("games.sgf"),
        last_game_svg: result.games.last().map(|_| dir.join("last_game.svg")),
        results_txt: dir.join("results.txt"),
    };
    fs::write(&files.games_txt, txt)?;
    fs::write(&files.games_sgf, sgf)?;
    if let (Some(path), Some(last)) = (&files.last_game_svg, result.games.last()) {
        let names = &result.names;
        let white = &names[last.player_of(Colour::White).index()];
        let black = &names[last.player_of(Colour::Black).index()];
        let title = format!(
            "Game {}: {white} (White) - {black} (Black): {}",
            last.index + 1,
            result_words(last)
        );
        let options = SvgOptions::with_title(title).move_numbers(true);
        fs::write(path, position_svg(&last.game, &options))?;
    }
    let mut table = result.to_string();
    table.push('\n');
    for g in result.games.iter().filter(|g| g.forfeit.is_some()) {
        if let Some(f) = &g.forfeit {
            let _ = writeln!(
                table,
                "Game {}: {} ({}) forfeits: {} ({})",
                g.index + 1,
                result.names[f.player.index()],
                f.player,
                f.chosen.as_deref().unwrap_or("no move"),
                f.reason
            );
        }
    }
    fs::write(&files.results_txt, table)?;
    Ok(files)
}

fn result_words(g: &GameRecord) -> String {
    match (g.winner, &g.forfeit) {
        (None, _) => "draw".to_string(),
        (Some(c), Some(_)) => format!("{c} wins by forfeit"),
        (Some(c), None) => format!("{c} wins ({})", g.kinds),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_properties_go_into_the_root() {
        let mut game = GameState::new(3, Rules::default()).unwrap();
        game.play_str("c3").unwrap();
        let record = GameRecord {
            index: 0,
            first_player: PlayerId::B,
            game,
            winner: None,
            winner_player: None,
            kinds: Kinds::NONE,
            forfeit: Some(Forfeit {
                player: PlayerId::A,
                chosen: Some("c3".into()),
                reason: "bad]".into(),
            }),
            time: [Duration::ZERO; 2],
            moves_chosen: [0; 2],
            longest_move: [Duration::ZERO; 2],
        };
        let names = ["x".to_string(), "y\\z".to_string()];
        let sgf = game_sgf(&record, &names);
        assert_eq!(
            sgf,
            "(;FF[4]GM[havannah]SZ[3]PW[y\\\\z]PB[x]RE[0]GC[x forfeits: c3 bad\\]];W[c3])"
        );
        let parsed = Record::parse_sgf(&sgf).unwrap();
        assert_eq!(parsed.moves, record.game.moves());
    }

    #[test]
    fn owner_of_colours_after_swap() {
        let mut game = GameState::new(3, Rules::default()).unwrap();
        game.play_str("c3").unwrap();
        game.play_str("swap").unwrap();
        let record = GameRecord {
            index: 0,
            first_player: PlayerId::A,
            game,
            winner: None,
            winner_player: None,
            kinds: Kinds::NONE,
            forfeit: None,
            time: [Duration::ZERO; 2],
            moves_chosen: [0; 2],
            longest_move: [Duration::ZERO; 2],
        };
        assert!(record.swapped());
        assert_eq!(record.player_of(Colour::White), PlayerId::B);
        assert_eq!(record.player_of(Colour::Black), PlayerId::A);
    }
}
