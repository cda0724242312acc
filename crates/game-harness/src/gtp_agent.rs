//! An external program that speaks GTP, as an [`Agent`] of any [`GtpGame`]: matches pit an
//! engine of this workspace against it, and the match runner treats it like any other player.

use std::fmt;
use std::time::Duration;

use crate::agent::{Agent, AgentFailure};
use crate::gtp::{GtpColour, GtpGame};
use crate::gtp_client::{GtpClient, GtpError};
use crate::process::Launch;
use crate::time::Clock;

/// How long a [`GtpAgent`] waits for one answer unless told otherwise
/// ([`GtpAgent::with_timeout`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// An external GTP program driven over pipes, playing a game `G`.
///
/// [`Agent::reset`] sends `boardsize`, `clear_board`, the setup commands and the moves
/// already played (each with the colour that was to move); [`Agent::observe`] sends the
/// opponent's moves with `play`; [`Agent::choose`] sends `genmove` for the colour to move and
/// reads the answer in the game's notation ([`MatchGame::parse_move`](crate::MatchGame)). The
/// program keeps its own time: give it its time control in the setup commands.
///
/// A program that dies, stops answering (for [`GtpAgent::with_timeout`]), answers an error,
/// resigns or names something that is not a move makes [`Agent::choose`] return `None`, which
/// a match counts as a forfeit; [`GtpAgent::error`] and [`Agent::failure`] keep the reason. A
/// program that died or timed out is started again at the next [`Agent::reset`]. A program
/// that refuses `play` of a move the game calls optional ([`GtpGame::optional_move`]) is
/// simply not told about it. The child is killed when the agent is dropped.
///
/// ```no_run
/// use game_harness::GtpError;
/// use game_harness::gtp::GtpGame;
/// use game_harness::gtp_agent::GtpAgent;
///
/// /// An external engine for any game, told its time control after every new game.
/// fn opponent<G: GtpGame>(command: &str) -> Result<GtpAgent<G>, GtpError> {
///     let setup = ["time_settings 60 0 0".to_string()];
///     GtpAgent::spawn(command, &setup)
/// }
/// ```
pub struct GtpAgent<G: GtpGame> {
    setup: Vec<String>,
    client: GtpClient,
    /// The move this program chose last, which [`Agent::observe`] must not send back.
    own_move: Option<G::Move>,
    /// The colour to move in the game as last seen, which makes the next observed move.
    to_move: GtpColour,
    /// Whether the program calls each colour by the other's name.
    swapped: bool,
    error: Option<AgentFailure>,
}

impl<G: GtpGame> fmt::Debug for GtpAgent<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtpAgent")
            .field("client", &self.client)
            .field("setup", &self.setup)
            .field("own_move", &self.own_move)
            .field("to_move", &self.to_move)
            .field("swapped", &self.swapped)
            .field("error", &self.error)
            .finish()
    }
}

impl<G: GtpGame> GtpAgent<G> {
    /// Starts the program as `launch` says; `setup` are GTP commands sent after every new
    /// game. Answers are awaited [`DEFAULT_TIMEOUT`] at most.
    ///
    /// # Errors
    /// [`GtpError::Start`] when the program cannot be started, naming its command line.
    pub fn start(launch: Launch, setup: &[String]) -> Result<GtpAgent<G>, GtpError> {
        let client = GtpClient::start(launch)?.with_timeout(Some(DEFAULT_TIMEOUT));
        Ok(GtpAgent {
            setup: setup.to_vec(),
            client,
            own_move: None,
            to_move: GtpColour::White,
            swapped: false,
            error: None,
        })
    }

    /// Starts `command` (split on whitespace: the program and its arguments), its standard
    /// error discarded; `setup` as for [`GtpAgent::start`].
    ///
    /// # Errors
    /// [`GtpError::Start`] for an empty command or a program that cannot be started.
    pub fn spawn(command: &str, setup: &[String]) -> Result<GtpAgent<G>, GtpError> {
        GtpAgent::start(Launch::words(command), setup)
    }

    /// How long to wait for one answer before the program counts as hung (it is then killed
    /// and started again at the next game); `None` waits for ever.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> GtpAgent<G> {
        self.client.set_timeout(timeout);
        self
    }

    /// Calls each colour by the other's name in `play` and `genmove`: for a program whose
    /// first player has the other colour (morat-hex's White moves first, where Black does in
    /// HexGui's convention). The sides and their edges stay the game's.
    #[must_use]
    pub fn with_colours_swapped(mut self, swapped: bool) -> GtpAgent<G> {
        self.swapped = swapped;
        self
    }

    /// The program's name for `colour`.
    fn name_of(&self, colour: GtpColour) -> GtpColour {
        if self.swapped { colour.other() } else { colour }
    }

    /// The GTP commands sent after every new game (after `boardsize` and `clear_board`),
    /// from the next game on: to tell a program the rules of the match once [`GtpAgent::knows`]
    /// says it understands the command that sets them.
    pub fn set_setup(&mut self, setup: Vec<String>) {
        self.setup = setup;
    }

    /// Whether the program knows the GTP command `name` (`known_command`); a program that
    /// refuses `known_command` itself (morat-havannah does) knows nothing more.
    ///
    /// # Errors
    /// The errors of [`GtpClient::send`] other than a refusal: the program died or hung.
    pub fn knows(&mut self, name: &str) -> Result<bool, GtpError> {
        match self.send(&format!("known_command {name}")) {
            Ok(answer) => Ok(answer.trim() == "true"),
            Err(GtpError::Failure { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The program's command line.
    #[must_use]
    pub fn command(&self) -> &str {
        self.client.command()
    }

    /// Why the program last failed, if it did (cleared by [`Agent::reset`]).
    #[must_use]
    pub fn error(&self) -> Option<&AgentFailure> {
        self.error.as_ref()
    }

    /// Sends one command and returns the text of its successful answer.
    ///
    /// # Errors
    /// The errors of [`GtpClient::send`], each naming the command.
    pub fn send(&mut self, command: &str) -> Result<String, GtpError> {
        self.client.send(command)
    }

    /// Sends a command, keeping the first failure.
    fn send_kept(&mut self, command: &str) -> Option<String> {
        let result = self
            .send(command)
            .map_err(|e| AgentFailure::Program(e.to_string()));
        self.keep(result)
    }

    /// Sends `play` for `mv` by `colour` (named in `game`), keeping the first failure; the
    /// refusal of an optional move is none.
    fn play(&mut self, game: &G, colour: GtpColour, mv: G::Move) -> Option<()> {
        let colour = self.name_of(colour);
        let command = format!("play {colour} {}", game.move_name(mv));
        let result = match self.client.exchange(&command) {
            Ok(response) => match response.result {
                Err(_) if game.optional_move(mv) => Ok(()),
                Err(message) => Err(AgentFailure::Program(
                    GtpError::Failure {
                        command,
                        message: message.to_string(),
                    }
                    .to_string(),
                )),
                Ok(_) => Ok(()),
            },
            Err(e) => Err(AgentFailure::Program(e.to_string())),
        };
        self.keep(result)
    }

    /// The value of `result`, or `None` after keeping its error (the first one only).
    fn keep<T>(&mut self, result: Result<T, AgentFailure>) -> Option<T> {
        result.map_err(|e| self.error.get_or_insert(e).clone()).ok()
    }

    /// Starts the program again if it died or hung; `false` (with the error kept) if it
    /// cannot.
    fn revive(&mut self) -> bool {
        match self.client.restart_if_dead() {
            Ok(_) => true,
            Err(e) => {
                self.error = Some(AgentFailure::Program(e.to_string()));
                false
            }
        }
    }

    /// Sends the new game and the moves of `game`; stops at the first failure (kept).
    fn send_game(&mut self, game: &G) -> Option<()> {
        let mut commands = vec![format!("boardsize {}", game.size()), "clear_board".into()];
        commands.extend(self.setup.iter().cloned());
        for command in commands {
            self.send_kept(&command)?;
        }
        let replay =
            (game.with_size(game.size())).map_err(|e| AgentFailure::Program(e.to_string()));
        let mut replay = self.keep(replay)?;
        for &mv in game.moves() {
            self.play(&replay, replay.colour_to_move(), mv)?;
            let played = (replay.try_play(mv)).map_err(|e| AgentFailure::Program(e.to_string()));
            self.keep(played)?;
        }
        Some(())
    }

    /// The answer to `genmove` as a move of `game`, or why it is none.
    fn parse_answer(game: &G, answer: &str) -> Result<G::Move, AgentFailure> {
        let text = answer.trim();
        if text.eq_ignore_ascii_case("resign") {
            return Err(AgentFailure::Resigned);
        }
        game.parse_move(text)
            .map_err(|e| AgentFailure::BadAnswer(format!("genmove answer: {e}")))
    }
}

impl<G: GtpGame> Agent<G> for GtpAgent<G>
where
    G::Move: Send,
{
    fn name(&self) -> String {
        format!("gtp:{}", self.client.command())
    }

    fn reset(&mut self, game: &G) {
        self.own_move = None;
        self.error = None;
        self.to_move = game.colour_to_move();
        if self.revive() {
            self.send_game(game);
        }
    }

    fn observe(&mut self, game: &G, mv: G::Move) {
        // The colour that was to move made `mv`; after a swap it is not the colour that the
        // moving side owns now, so it is kept from the game seen before.
        let colour = std::mem::replace(&mut self.to_move, game.colour_to_move());
        if self.own_move.take() == Some(mv) || self.error.is_some() {
            return;
        }
        self.play(game, colour, mv);
    }

    fn choose(&mut self, game: &G, _clock: &Clock) -> Option<G::Move> {
        if game.verdict().is_some() || self.error.is_some() {
            return None;
        }
        let colour = self.name_of(game.colour_to_move());
        let answer = self.send_kept(&format!("genmove {colour}"))?;
        match GtpAgent::parse_answer(game, &answer) {
            Ok(mv) => {
                self.own_move = Some(mv);
                Some(mv)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    fn failure(&self) -> Option<AgentFailure> {
        self.error.clone()
    }
}
