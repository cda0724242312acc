//! The error type of the engine's settings.

/// A setting of [`EngineConfig`](crate::EngineConfig), [`PriorConfig`](crate::PriorConfig) or
/// [`PlayoutConfig`](crate::PlayoutConfig) that is unknown or out of range. Every message
/// names the key or the value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A parameter key that the setting does not know.
    #[error("unknown {kind} parameter {key:?}")]
    UnknownKey {
        /// Which settings were searched: `prior` or `playout`.
        kind: &'static str,
        /// The key given.
        key: String,
    },
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
}
