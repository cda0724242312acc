//! The referee: plays games between two CodeCup-protocol programs, in pairs on the same random
//! blocked cells with colours swapped, enforcing legality and the thinking time.

use std::fmt;
use std::ops::Range;
use std::time::{Duration, Instant};

use game_harness::matches::{PlayerId, Tally, first_player};
use game_harness::process::{ErrorOutput, Launch, Process, ProcessError};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::{CELLS, Cell};
use crate::rules::{BLOCKED, GAME_MOVES, Move, Position, RED};

/// How long a program may take to exit after `Quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// One program of a game, with the thinking time it has used.
struct Program {
    process: Process,
    used: Duration,
}

impl Program {
    /// Starts `cmd` with `sh -c`, its standard error shown or discarded; a program that runs
    /// out of time is left running until [`Program::finish`].
    fn spawn(cmd: &str, show_stderr: bool) -> Result<Program, String> {
        let stderr = if show_stderr {
            ErrorOutput::Inherit
        } else {
            ErrorOutput::Discard
        };
        let launch = Launch::shell(cmd).stderr(stderr).kill_on_timeout(false);
        match launch.start() {
            Ok(process) => Ok(Program {
                process,
                used: Duration::ZERO,
            }),
            Err(ProcessError::Start { source, .. }) => Err(format!("cannot run `{cmd}`: {source}")),
            Err(e) => Err(format!("cannot run `{cmd}`: {e}")),
        }
    }

    /// Sends one line; `false` if the program's input is closed.
    fn send(&mut self, line: &str) -> bool {
        self.process.send_line(line).is_ok()
    }

    /// The next non-empty line within `timeout`: `Err` with the reason otherwise.
    fn receive(&mut self, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.process.read_line(Some(deadline)) {
                Ok(l) if l.trim().is_empty() => continue,
                Ok(l) => return Ok(l.trim().to_string()),
                Err(ProcessError::TimedOut { .. }) => return Err("ran out of time".into()),
                Err(_) => return Err("ended its output (crash?)".into()),
            }
        }
    }

    /// Sends `Quit`, closes the program's input and kills it if it has not exited in
    /// [`QUIT_GRACE`].
    fn finish(mut self) {
        self.process.finish("Quit", QUIT_GRACE);
    }
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Red's score (0 if Red forfeited, 150 if Blue did).
    pub red_score: i16,
    /// Who forfeited (Red 0, Blue 1) and why.
    pub forfeit: Option<(usize, String)>,
    /// Thinking time of Red and Blue.
    pub thinking: [Duration; 2],
    /// The moves played.
    pub moves: Vec<Move>,
}

/// Plays one game: `cmds[0]` is Red, `cmds[1]` Blue; each has `limit` of thinking time.
pub fn play_game(
    blocked: &[Cell],
    cmds: [&str; 2],
    limit: Duration,
    show_stderr: bool,
) -> Result<GameResult, String> {
    let mut pos = Position::new(blocked).map_err(|e| e.to_string())?;
    let mut progs = Vec::with_capacity(2);
    for cmd in cmds {
        progs.push(Program::spawn(cmd, show_stderr)?);
    }
    let mut forfeit: Option<(usize, String)> = None;
    let mut moves = Vec::new();
    // Send errors are ignored: a program that died is caught when it must answer.
    for prog in &mut progs {
        for c in blocked {
            prog.send(&c.to_string());
        }
    }
    progs[RED].send("Start");
    while forfeit.is_none() && pos.moves_played() < usize::from(GAME_MOVES) {
        let m = pos.mover();
        let prog = &mut progs[m];
        let left = limit.saturating_sub(prog.used);
        let t0 = Instant::now();
        let answer = prog.receive(left);
        prog.used += t0.elapsed();
        let line = match answer {
            Ok(l) => l,
            Err(why) => {
                forfeit = Some((m, why));
                break;
            }
        };
        if prog.used > limit {
            forfeit = Some((m, format!("ran out of time ({:?})", prog.used)));
            break;
        }
        let mv = match line
            .parse::<Move>()
            .and_then(|mv| pos.try_play(mv).map(|()| mv))
        {
            Ok(mv) => mv,
            Err(e) => {
                forfeit = Some((m, format!("illegal move `{line}`: {e}")));
                break;
            }
        };
        moves.push(mv);
        // Forward the move (the last one too); a program that has quit is caught when it
        // must answer.
        let _ = progs[1 - m].send(&mv.to_string());
    }
    let thinking = [progs[0].used, progs[1].used];
    for prog in progs {
        prog.finish();
    }
    let red_score = match &forfeit {
        Some((loser, _)) => {
            if *loser == RED {
                0
            } else {
                150
            }
        }
        None => pos.red_score().ok_or("the game did not end")?,
    };
    Ok(GameResult {
        red_score,
        forfeit,
        thinking,
        moves,
    })
}

/// Five distinct random cells.
pub fn random_blocked<R: Rng + ?Sized>(rng: &mut R) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Cell::all().collect();
    for i in 0..BLOCKED {
        let j = i + (rng.next_u64() as usize) % (CELLS - i);
        cells.swap(i, j);
    }
    cells.truncate(BLOCKED);
    cells
}

/// Summary of a match from A's side.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// A's score in each game.
    pub scores: Vec<i16>,
    /// A's wins (score above 75), losses and draws, by who moved first (Red).
    pub tally: Tally,
    /// Forfeits by A and by B.
    pub forfeits: [usize; 2],
    /// Thinking time per game of A and B: total and maximum.
    pub think_total: [Duration; 2],
    /// Longest thinking time in one game of A and B.
    pub think_max: [Duration; 2],
}

impl MatchSummary {
    /// Mean score of A and its standard error.
    pub fn mean_and_error(&self) -> (f64, f64) {
        let n = self.scores.len() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let mean = self.scores.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
        if n < 2.0 {
            return (mean, 0.0);
        }
        let var = self
            .scores
            .iter()
            .map(|&s| (f64::from(s) - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        (mean, (var / n).sqrt())
    }

    fn add(&mut self, a_score: i16, result: &GameResult, a_is_red: bool) {
        self.scores.push(a_score);
        let first = if a_is_red { PlayerId::A } else { PlayerId::B };
        let winner = match a_score.cmp(&75) {
            std::cmp::Ordering::Greater => Some(PlayerId::A),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Less => Some(PlayerId::B),
        };
        self.tally.add(first, winner);
        let (a, b) = if a_is_red { (0, 1) } else { (1, 0) };
        if let Some((loser, _)) = result.forfeit {
            self.forfeits[usize::from(loser != a)] += 1;
        }
        for (k, side) in [a, b].into_iter().enumerate() {
            self.think_total[k] += result.thinking[side];
            self.think_max[k] = self.think_max[k].max(result.thinking[side]);
        }
    }
}

impl fmt::Display for MatchSummary {
    /// The referee's report: games, A's mean score with its standard error, A's wins, draws
    /// and losses with the Wilson interval and Elo of the harness, forfeits, thinking times.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mean, se) = self.mean_and_error();
        let n = u32::try_from(self.scores.len().max(1)).unwrap_or(u32::MAX);
        writeln!(f, "games: {}", self.scores.len())?;
        writeln!(f, "A mean score: {mean:.2} +- {se:.2} (standard error)")?;
        let score = self.tally.score(PlayerId::A);
        writeln!(
            f,
            "A wins/draws/losses: {}/{}/{}",
            score.wins, score.draws, score.losses
        )?;
        writeln!(f, "{}", self.tally.summary())?;
        write!(
            f,
            "forfeits: A {}, B {}",
            self.forfeits[0], self.forfeits[1]
        )?;
        for (k, name) in ["A", "B"].into_iter().enumerate() {
            write!(
                f,
                "\nthinking time {name}: mean {:.3} s per game, max {:.3} s",
                (self.think_total[k] / n).as_secs_f64(),
                self.think_max[k].as_secs_f64()
            )?;
        }
        Ok(())
    }
}

/// The blocked cells of game `game` (counted from 0) of a match with this seed: games `2k` and
/// `2k + 1` share the cells of the `k`-th draw, so a match resumed at any game plays the cells it
/// would have played unbroken.
pub fn match_blocked(seed: u64, game: usize) -> Vec<Cell> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut blocked = random_blocked(&mut rng);
    for _ in 0..game / 2 {
        blocked = random_blocked(&mut rng);
    }
    blocked
}

/// Plays the games `games` (counted from 0) of a match between A and B: pairs on the same
/// blocked cells, colours swapped. A range that starts after 0 resumes a broken-off match.
/// `report` is called after every game with its number, A's colour, the blocked cells and the
/// result.
pub fn run_match(
    games: Range<usize>,
    seed: u64,
    cmd_a: &str,
    cmd_b: &str,
    limit: Duration,
    show_stderr: bool,
    mut report: impl FnMut(usize, bool, &[Cell], &GameResult),
) -> Result<MatchSummary, String> {
    let mut summary = MatchSummary::default();
    let mut blocked = Vec::new();
    for g in games.clone() {
        if g == games.start || g % 2 == 0 {
            blocked = match_blocked(seed, g);
        }
        let a_is_red = first_player(g) == PlayerId::A;
        let cmds = if a_is_red {
            [cmd_a, cmd_b]
        } else {
            [cmd_b, cmd_a]
        };
        let result = play_game(&blocked, cmds, limit, show_stderr)?;
        let a_score = if a_is_red {
            result.red_score
        } else {
            150 - result.red_score
        };
        summary.add(a_score, &result, a_is_red);
        report(g, a_is_red, &blocked, &result);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_statistics() {
        let mut s = MatchSummary::default();
        let r = GameResult {
            red_score: 80,
            forfeit: None,
            thinking: [Duration::from_millis(10), Duration::from_millis(20)],
            moves: Vec::new(),
        };
        s.add(80, &r, true);
        s.add(70, &r, false);
        s.add(75, &r, true);
        let (mean, se) = s.mean_and_error();
        assert!((mean - 75.0).abs() < 1e-9);
        // sd = 5, se = 5 / sqrt(3)
        assert!((se - 5.0 / 3f64.sqrt()).abs() < 1e-9);
        let a = s.tally.score(PlayerId::A);
        assert_eq!((a.wins, a.draws, a.losses), (1, 1, 1));
        // A was Red (moved first) in the win and the draw.
        assert_eq!((s.tally.a_first.wins, s.tally.a_first.draws), (1, 1));
        let report = s.to_string();
        assert!(
            report.starts_with("games: 3\nA mean score: 75.00 +- 2.89"),
            "{report}"
        );
        assert!(
            report.contains("A wins/draws/losses: 1/1/1\nScore of A: 50.0% ["),
            "{report}"
        );
        assert!(
            report.contains("thinking time B: mean 0.017 s per game, max 0.020 s"),
            "{report}"
        );
        assert_eq!(s.think_total[0], Duration::from_millis(10 + 20 + 10));
        assert_eq!(s.think_max[1], Duration::from_millis(20));
    }

    #[test]
    fn blocked_cells_are_distinct() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        for _ in 0..100 {
            let b = random_blocked(&mut rng);
            assert!(Position::new(&b).is_ok());
        }
    }

    #[test]
    fn a_resumed_match_plays_the_cells_of_the_unbroken_one() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for pair in 0..6 {
            let drawn = random_blocked(&mut rng);
            assert_eq!(match_blocked(7, 2 * pair), drawn);
            assert_eq!(match_blocked(7, 2 * pair + 1), drawn);
        }
        assert_ne!(match_blocked(7, 0), match_blocked(8, 0));
    }

    #[test]
    fn a_silent_program_forfeits_and_a_crash_too() {
        let blocked = random_blocked(&mut Pcg64Mcg::seed_from_u64(2));
        // `cat >/dev/null` never answers: Red runs out of time.
        let r = play_game(
            &blocked,
            ["cat >/dev/null", "cat >/dev/null"],
            Duration::from_millis(200),
            false,
        )
        .unwrap();
        assert_eq!(r.forfeit.as_ref().map(|f| f.0), Some(RED));
        assert_eq!(r.red_score, 0);
        // `true` exits at once: a crash.
        let r = play_game(
            &blocked,
            ["true", "true"],
            Duration::from_millis(500),
            false,
        )
        .unwrap();
        assert_eq!(r.forfeit.as_ref().map(|f| f.0), Some(RED));
        // An illegal answer from Red: a blocked cell.
        let cmd = format!("echo {}=1; cat >/dev/null", blocked[0]);
        let r = play_game(&blocked, [&cmd, "true"], Duration::from_millis(500), false).unwrap();
        let (who, why) = r.forfeit.unwrap();
        assert_eq!(who, RED);
        assert!(why.contains("illegal"), "{why}");
    }
}
