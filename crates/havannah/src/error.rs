//! The error type of the engine's and the GTP session's settings.

/// A setting of [`EngineConfig`](crate::EngineConfig) or [`GtpSession`](crate::GtpSession)
/// that is out of range. Every message names the setting and the value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A parameter value out of its range.
    #[error("parameter {name}: {value} is not {expected}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value given.
        value: f64,
        /// What the value must be, such as `a weight >= 0`.
        expected: &'static str,
    },
    /// A board size outside the supported range.
    #[error(
        "unacceptable size {0}: sizes {min} to {max} are supported",
        min = havannah_board::MIN_SIZE,
        max = havannah_board::MAX_SIZE
    )]
    BoardSize(u8),
}
