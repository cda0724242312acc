//! The CodeCup protocol reader, as the `blackhole_protocol` fuzz target drives it, checked on
//! stable with proptest: arbitrary bytes, arbitrary lines and mutated transcripts of real
//! games. The reader never panics; it plays a game in which every line we send is a legal
//! move, or it stops with a protocol (or, for bytes that are not text, an i/o) error.

use std::time::Duration;

use blackhole::board::Cell;
use blackhole::engine::RandomBot;
use blackhole::error::BlackholeError;
use blackhole::protocol::play;
use blackhole::referee::BlackholeGame;
use blackhole::rules::{BLOCKED, Move, Position};
use game_harness::{Agent, Clock, MatchGame};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Every legal move of `pos` (empty cells in index order, values ascending), from the public
/// accessors.
fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    if pos.is_over() {
        return out;
    }
    let stones = pos.stones_left_mask(pos.mover());
    for cell in Cell::all().filter(|c| pos.empty() & (1 << c.index()) != 0) {
        for value in 1..=15u8 {
            if stones & (1 << value) != 0 {
                out.push(Move::new(cell, value));
            }
        }
    }
    out
}

/// A deterministic player: the first legal move.
struct First;

impl Agent<BlackholeGame> for First {
    fn name(&self) -> String {
        "first".into()
    }
    fn reset(&mut self, _game: &BlackholeGame) {}
    fn observe(&mut self, _game: &BlackholeGame, _mv: Move) {}
    fn choose(&mut self, game: &BlackholeGame, _clock: &Clock) -> Option<Move> {
        (game.verdict().is_none()).then(|| legal_moves(game.position())[0])
    }
}

/// The arbiter's side of a whole game against [`First`]: blocked cells from `blocked_picks`,
/// `Start` when we are Red, the opponent's moves from `picks`, `Quit` at the end.
fn transcript(blocked_picks: &[usize], we_start: bool, picks: &[u16]) -> String {
    let mut cells: Vec<Cell> = Cell::all().collect();
    let mut blocked = Vec::new();
    for &p in blocked_picks.iter().take(BLOCKED) {
        blocked.push(cells.remove(p % cells.len()));
    }
    let mut lines: Vec<String> = blocked.iter().map(ToString::to_string).collect();
    let mut pos = Position::new(&blocked).expect("five distinct cells");
    let mut ours = we_start;
    if we_start {
        lines.push("Start".into());
    }
    let mut k = 0;
    while !pos.is_over() {
        let moves = legal_moves(&pos);
        let mv = if ours {
            moves[0]
        } else {
            let pick = picks.get(k).copied().unwrap_or(0);
            k += 1;
            let mv = moves[usize::from(pick) % moves.len()];
            lines.push(mv.to_string());
            mv
        };
        pos.play(mv);
        ours = !ours;
    }
    lines.push("Quit".into());
    lines.join("\n") + "\n"
}

/// Runs the reader on `input` and checks the outcome as documented.
fn check(input: &[u8], bot: &mut dyn Agent<BlackholeGame>) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    match play(input, &mut out, bot, Duration::from_secs(5)) {
        Ok(log) => {
            let text = String::from_utf8(out).expect("we write text");
            let sent: Vec<&str> = text.lines().collect();
            prop_assert!(sent.len() <= log.moves.len());
            for line in sent {
                let mv: Move = line.parse().expect("we send moves");
                prop_assert!(log.moves.contains(&mv), "{} not in the game", line);
            }
        }
        Err(BlackholeError::Protocol { .. } | BlackholeError::Io(_)) => {}
        Err(e) => return Err(TestCaseError::fail(format!("undocumented error {e:?}"))),
    }
    Ok(())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x6268_6f6c),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

#[test]
fn a_whole_game_is_played() {
    for we_start in [true, false] {
        let input = transcript(&[0, 3, 9, 20, 30], we_start, &[5, 17, 2, 40, 11, 8, 3]);
        let mut out = Vec::new();
        let log = play(
            input.as_bytes(),
            &mut out,
            &mut First,
            Duration::from_secs(5),
        )
        .expect("a clean transcript plays");
        assert_eq!(log.moves.len(), 30, "{input}");
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 15);
        assert!(log.position.expect("a position").is_over());
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&input, &mut RandomBot::new(1))?;
    }

    #[test]
    fn arbitrary_lines(lines in prop::collection::vec(
        "[A-I][0-9]{1,2}(=[0-9]{1,2})?|Start|Quit|\\PC{0,6}| *", 0..40)) {
        check((lines.join("\n") + "\n").as_bytes(), &mut RandomBot::new(2))?;
    }

    #[test]
    fn mutated_transcripts(
        blocked in prop::collection::vec(any::<usize>(), BLOCKED),
        we_start in any::<bool>(),
        picks in prop::collection::vec(any::<u16>(), 15),
        line in any::<prop::sample::Index>(),
        op in 0u8..4,
        junk in "[A-I][0-9]=[0-9]{1,2}|Start|Quit|[A-Z][0-9]|\\PC{0,4}",
    ) {
        let text = transcript(&blocked, we_start, &picks);
        check(text.as_bytes(), &mut First)?;
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let k = line.index(lines.len());
        match op {
            0 => { lines.remove(k); }
            1 => lines[k] = junk,
            2 => lines.insert(k, junk),
            _ => { let l = lines[k].clone(); lines.insert(k, l); }
        }
        check((lines.join("\n") + "\n").as_bytes(), &mut First)?;
    }
}
