//! The description of a match's game in its match file: the game's name and the settings
//! that make two matches different, as `havannah size=8 pie=1 opening=2`.

use std::fmt;
use std::str::FromStr;

/// A game's name and its settings as `key=value` words, in order: the line a match file
/// starts its games from, so that parts of different matches never merge.
///
/// ```
/// use game_harness::match_file::Description;
///
/// let description = Description::new("hex").with("size", 11).with("swap", 0);
/// assert_eq!(description.to_string(), "hex size=11 swap=0");
/// let read: Description = "hex size=11 swap=0".parse()?;
/// assert_eq!(read, description);
/// assert_eq!(read.number::<usize>("size")?, 11);
/// assert_eq!(read.get("opening"), None);
/// assert!(read.number::<usize>("opening").unwrap_err().to_string().contains("opening"));
/// assert!("hex size".parse::<Description>().is_err());
/// # Ok::<(), game_harness::match_file::DescriptionError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Description {
    game: String,
    settings: Vec<(String, String)>,
}

impl Description {
    /// The description of a match of `game` (one word) with no settings yet.
    #[must_use]
    pub fn new(game: impl Into<String>) -> Description {
        Description {
            game: game.into(),
            settings: Vec::new(),
        }
    }

    /// With the setting `key=value` (one word each) after the others.
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, value: impl fmt::Display) -> Description {
        self.settings.push((key.into(), value.to_string()));
        self
    }

    /// The game's name.
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The value of `key`, if set.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `key` as a number (or anything else parsed from text).
    ///
    /// # Errors
    /// [`DescriptionError::Setting`] when `key` is missing or its value does not parse.
    pub fn number<T: FromStr>(&self, key: &str) -> Result<T, DescriptionError> {
        let value = self.get(key);
        value
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| DescriptionError::Setting {
                description: self.to_string(),
                key: key.to_string(),
                value: value.map(str::to_string),
            })
    }

    /// The settings in order.
    pub fn settings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.settings.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

impl fmt::Display for Description {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.game)?;
        for (key, value) in &self.settings {
            write!(f, " {key}={value}")?;
        }
        Ok(())
    }
}

/// Why a description cannot be read or lacks a setting; the message names the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DescriptionError {
    /// Text that is not `GAME key=value ...` with each key once.
    #[error("{text:?} is not a match description `GAME key=value ...` with each key once")]
    Syntax {
        /// The text received.
        text: String,
    },
    /// A setting that is missing or does not parse.
    #[error("{description:?}: setting {key} is {}", value.as_ref().map_or_else(|| "missing".to_string(), |v| format!("{v:?}, not a valid value")))]
    Setting {
        /// The description.
        description: String,
        /// The setting's key.
        key: String,
        /// Its value, `None` when missing.
        value: Option<String>,
    },
}

impl FromStr for Description {
    type Err = DescriptionError;

    fn from_str(text: &str) -> Result<Description, DescriptionError> {
        let bad = || DescriptionError::Syntax {
            text: text.to_string(),
        };
        let mut words = text.split_whitespace();
        let game = words.next().filter(|g| !g.contains('=')).ok_or_else(bad)?;
        let mut description = Description::new(game);
        for word in words {
            let (key, value) = word.split_once('=').ok_or_else(bad)?;
            if key.is_empty() || description.get(key).is_some() {
                return Err(bad());
            }
            description = description.with(key, value);
        }
        Ok(description)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_round_trip_and_faults_are_named() {
        let text = "havannah size=8 pie=1 opening=2";
        let d: Description = text.parse().unwrap();
        assert_eq!(d.to_string(), text);
        assert_eq!(d.game(), "havannah");
        assert_eq!(d.number::<u8>("pie"), Ok(1));
        let settings: Vec<_> = d.settings().collect();
        assert_eq!(settings, [("size", "8"), ("pie", "1"), ("opening", "2")]);
        let err = d.number::<u8>("komi").unwrap_err().to_string();
        assert_eq!(err, format!("{text:?}: setting komi is missing"));
        let d: Description = "hex size=x".parse().unwrap();
        let err = d.number::<usize>("size").unwrap_err().to_string();
        assert!(
            err.ends_with("setting size is \"x\", not a valid value"),
            "{err}"
        );
        for bad in ["", "size=8", "hex size", "hex size=1 size=2", "hex =1"] {
            assert_eq!(
                bad.parse::<Description>(),
                Err(DescriptionError::Syntax {
                    text: bad.to_string()
                }),
                "{bad:?}"
            );
        }
    }
}
