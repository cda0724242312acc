//! The players the programs name: `random`, an engine configuration ([`crate::config_spec`])
//! with the threads, simulations and value network the options add, and external GTP
//! programs told the match's pie rule.

use std::path::{Path, PathBuf};

use clap::Args;

use game_harness::program::{BoxedAgent, PlayerRequest};
use game_harness::{GtpAgent, GtpError, Launch};
use havannah::{Engine, EngineConfig, RandomAgent};
use havannah_rules::GameState;

/// A value network (a weights file from `td-train`) and its weight in the prior.
#[derive(Debug, Clone, Args)]
pub struct ValueNetArgs {
    /// A value network (weights file from `td-train`) for the board size played.
    #[arg(long)]
    pub value_net: Option<PathBuf>,
    /// The weight of the value network in the prior, in [0, 1].
    #[arg(long, default_value_t = 0.5)]
    pub value_weight: f32,
}

impl ValueNetArgs {
    /// The weights file and its weight, if a file is given.
    #[must_use]
    pub fn net(&self) -> Option<(&Path, f32)> {
        self.value_net.as_deref().map(|p| (p, self.value_weight))
    }
}

/// What the options add to an engine configuration.
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineOptions<'a> {
    /// Search threads (the configuration's own without it).
    pub threads: Option<usize>,
    /// Simulations a move (the configuration's own without it).
    pub simulations: Option<u64>,
    /// A value network's weights file and its weight in the prior, for a board of `size`.
    pub value_net: Option<(&'a Path, f32)>,
}

/// The engine configuration `spec` names (`best`, `best:expand=4`), with `options`, for a
/// board of `size`.
///
/// # Errors
/// A message naming the unknown configuration, the bad parameter or the weights file.
pub fn engine_config(
    spec: &str,
    options: &EngineOptions<'_>,
    size: u8,
) -> Result<EngineConfig, String> {
    let mut config = crate::config_spec::engine_config(spec).map_err(|e| e.to_string())?;
    if let Some(threads) = options.threads {
        config = config.with_threads(threads).map_err(|e| e.to_string())?;
    }
    if let Some(n) = options.simulations {
        config = config.with_simulations(n).map_err(|e| e.to_string())?;
    }
    if let Some((path, weight)) = options.value_net {
        config = config
            .with_value_net_file(path, size, weight)
            .map_err(|e| e.to_string())?;
    }
    Ok(config)
}

/// A player of `havannah selfplay`: `random`, or an engine configuration, with the value
/// network of `value_net` for a configuration ending in `+td`.
///
/// # Errors
/// A message naming the unknown configuration, the bad parameter, the weights file, or a
/// `+td` without a value network.
pub fn match_player(
    request: &PlayerRequest<'_, GameState>,
    value_net: &ValueNetArgs,
) -> Result<BoxedAgent<GameState>, String> {
    let PlayerRequest {
        spec,
        args,
        start,
        seed,
        ..
    } = *request;
    if spec.name() == Some("random") {
        return Ok(Box::new(RandomAgent::new(seed)));
    }
    let spec = spec.to_string();
    let (name, net) = match spec.strip_suffix("+td") {
        Some(name) => (name, Some(value_net.net().ok_or("+td needs --value-net")?)),
        None => (spec.as_str(), None),
    };
    let options = EngineOptions {
        threads: args.threads.map(usize::from),
        simulations: args.simulations.map(u64::from),
        value_net: net,
    };
    let mut config = engine_config(name, &options, start.board().size())?;
    if net.is_some() {
        config.name = spec.clone();
    }
    Ok(Box::new(Engine::new(config, seed)))
}

/// The players `--player-a` and `--player-b` may name, for `--help`.
#[must_use]
pub fn player_help() -> String {
    format!(
        "Players (--player-a, --player-b; best and uct by default): random, `gtp:COMMAND` (an \
         external GTP program, see --gtp-setup), or an engine configuration ({}), optionally \
         with parameters ({}), with `+td` to mix in the value network of --value-net",
        crate::config_spec::preset_names(),
        crate::config_spec::PARAMETER_HELP
    )
}

/// Tells an external program the match's pie rule (`havannah-pie on|off`, sent before
/// `setup` after every new game) where it knows that command: this program's own engines,
/// which would otherwise play with the pie rule on and could forfeit a game with `swap`.
///
/// # Errors
/// The program dies or hangs at `known_command` (a program that refuses the command, as
/// morat-havannah does, keeps its setup).
pub fn tell_pie_rule(
    program: &mut GtpAgent<GameState>,
    pie: bool,
    setup: &[String],
) -> Result<(), GtpError> {
    if program.knows("havannah-pie")? {
        let rule = format!("havannah-pie {}", if pie { "on" } else { "off" });
        program.set_setup(std::iter::once(rule).chain(setup.iter().cloned()).collect());
    }
    Ok(())
}

/// Starts an external GTP program as a player, `setup` sent after every new game, and
/// [`tell_pie_rule`].
///
/// # Errors
/// The program cannot be started, or it dies or hangs at `known_command`.
pub fn external_player(
    launch: Launch,
    pie: bool,
    setup: &[String],
) -> Result<GtpAgent<GameState>, GtpError> {
    let mut program = GtpAgent::<GameState>::start(launch, setup)?;
    tell_pie_rule(&mut program, pie, setup)?;
    Ok(program)
}
