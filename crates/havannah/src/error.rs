//! The error type of the engine's settings.

/// A setting of [`EngineConfig`](crate::EngineConfig) that is out of range. Every message
/// names the setting and the value.
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
}
