//! What `GET /api/games/{id}` answers: everything the page draws, as JSON.

use havannah_rules::{Colour, Outcome, Record};
use serde::Serialize;

use super::search::Snapshot;
use super::session::Play;

/// One cell: its name, its column and row (the page places cell `(x, y)` at
/// `((x - y/2)·√3·r, 1.5·y·r)`, as [`havannah_rules::svg`] does) and its stone.
#[derive(Debug, Serialize)]
struct CellView {
    name: String,
    x: u8,
    y: u8,
    stone: Option<&'static str>,
}

/// How the game ended in the shown position, if it did.
#[derive(Debug, Serialize)]
struct ResultView {
    /// `white`, `black` or `draw`.
    winner: Option<&'static str>,
    /// `bridge`, `fork`, `ring` joined by `+`; `resignation`; or `-` for a draw.
    kinds: String,
    /// The cells of the winning chain.
    chain: Vec<String>,
    /// A sentence for the banner.
    text: String,
}

/// The whole state of a game for the page.
#[derive(Debug, Serialize)]
pub(crate) struct GameView {
    id: String,
    size: u8,
    pie: bool,
    time_ms: u64,
    /// The colour the human plays now (`null` when the human plays both sides).
    human: Option<&'static str>,
    /// The colour the engine plays now (`null` when it plays neither).
    engine: Option<&'static str>,
    /// `idle`, `thinking` (the engine's move) or `analysing`.
    status: &'static str,
    /// The moves of the shown position.
    moves: Vec<String>,
    /// The whole line of the game (longer than `moves` when stepping back).
    line: Vec<String>,
    ply: usize,
    to_move: &'static str,
    /// Whether the page may play a move for the human now.
    human_to_move: bool,
    /// Whether that move may be `swap` (the pie rule, at the second move).
    can_swap: bool,
    last: Option<String>,
    result: Option<ResultView>,
    cells: Vec<CellView>,
    analysis: Option<Snapshot>,
    engine_error: Option<String>,
    /// The line as a one-line record and as SGF, for saving.
    record: String,
    sgf: String,
}

impl GameView {
    /// The view of `play`, whose id is `id`.
    pub(crate) fn new(id: &str, play: &Play) -> GameView {
        let game = &play.game;
        let board = game.board();
        let name = |m: &havannah_rules::Move| m.to_notation(board);
        let record = Record {
            size: board.size(),
            moves: play.line.clone(),
            result: None,
        };
        let human_seat = play.engine_seat.map(|seat| 1 - seat);
        GameView {
            id: id.to_string(),
            size: board.size(),
            pie: game.rules().pie,
            time_ms: u64::try_from(play.time.as_millis()).unwrap_or(u64::MAX),
            human: human_seat.map(|s| play.colour_of(s).name()),
            engine: play.engine_seat.map(|s| play.colour_of(s).name()),
            status: if play.thinking() {
                "thinking"
            } else if play.analysing() {
                "analysing"
            } else {
                "idle"
            },
            moves: game.moves().iter().map(name).collect(),
            line: play.line.iter().map(name).collect(),
            ply: game.moves().len(),
            to_move: game.to_move().name(),
            human_to_move: play.human_to_move(),
            can_swap: play.human_to_move() && game.check(havannah_rules::Move::Swap).is_ok(),
            last: game.last_move().map(|m| name(&m)),
            result: result_view(play),
            cells: board
                .cells()
                .map(|c| {
                    let (x, y) = board.xy(c);
                    CellView {
                        name: board.cell_name(c).to_string(),
                        x,
                        y,
                        stone: game.stone(c).map(Colour::name),
                    }
                })
                .collect(),
            analysis: play.snapshot.clone(),
            engine_error: play.engine_error.clone(),
            record: record.to_line(),
            sgf: record.to_sgf(),
        }
    }
}

fn capitalised(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

fn result_view(play: &Play) -> Option<ResultView> {
    let board = play.game.board();
    if let Some(seat) = play.resigned_here() {
        let loser = play.colour_of(seat);
        return Some(ResultView {
            winner: Some(loser.other().name()),
            kinds: "resignation".to_string(),
            chain: Vec::new(),
            text: format!(
                "{} wins: {} resigned",
                capitalised(loser.other()),
                capitalised(loser)
            ),
        });
    }
    match play.game.outcome() {
        Outcome::Ongoing => None,
        Outcome::Draw => Some(ResultView {
            winner: None,
            kinds: "-".to_string(),
            chain: Vec::new(),
            text: "Draw: the board is full".to_string(),
        }),
        Outcome::Win {
            winner,
            kinds,
            chain,
        } => Some(ResultView {
            winner: Some(winner.name()),
            kinds: kinds.to_string(),
            chain: chain
                .iter()
                .map(|c| board.cell_name(c).to_string())
                .collect(),
            text: format!(
                "{} wins with a {}",
                capitalised(*winner),
                kinds.to_string().replace('+', " and a ")
            ),
        }),
    }
}
