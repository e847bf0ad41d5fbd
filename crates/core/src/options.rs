//! Named rule options (`--rule spy-adjacency=illegal`); each game says which it knows.

use crate::error::RuleError;
use std::collections::BTreeMap;

/// One rule option a game offers: its name, its values (the default first) and a line of help.
#[derive(Clone, Copy, Debug)]
pub struct RuleOption {
    /// The option's name.
    pub name: &'static str,
    /// The values it takes; the first is the rulebook's ruling.
    pub values: &'static [&'static str],
    /// One line saying what it changes.
    pub help: &'static str,
}

/// The options chosen for a game; anything not named takes its default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleOptions(BTreeMap<String, String>);

impl RuleOptions {
    /// No options: the rulebook's defaults.
    pub fn new() -> Self {
        Self::default()
    }
    /// Reads `name=value` settings; a bare `name` means `name=on`.
    pub fn parse<S: AsRef<str>>(items: &[S]) -> Result<Self, RuleError> {
        let mut map = BTreeMap::new();
        for item in items {
            let item = item.as_ref().trim();
            let (name, value) = item.split_once('=').unwrap_or((item, "on"));
            if name.is_empty() {
                return Err(RuleError {
                    option: item.to_string(),
                    message: "the option has no name (write name=value)".into(),
                });
            }
            if map.insert(name.to_string(), value.to_string()).is_some() {
                return Err(RuleError {
                    option: name.to_string(),
                    message: "the option is given twice".into(),
                });
            }
        }
        Ok(RuleOptions(map))
    }
    /// Checks every chosen option against what the game offers.
    pub fn validate(&self, known: &[RuleOption]) -> Result<(), RuleError> {
        for (name, value) in &self.0 {
            let Some(opt) = known.iter().find(|o| o.name == name) else {
                let names: Vec<_> = known.iter().map(|o| o.name).collect();
                return Err(RuleError {
                    option: name.clone(),
                    message: if names.is_empty() {
                        "this game has no rule options".into()
                    } else {
                        format!("unknown option; this game offers {}", names.join(", "))
                    },
                });
            };
            if !opt.values.contains(&value.as_str()) {
                return Err(RuleError {
                    option: name.clone(),
                    message: format!(
                        "'{value}' is not a value it takes; choose one of {}",
                        opt.values.join(", ")
                    ),
                });
            }
        }
        Ok(())
    }
    /// Checks the options against what the game offers (`known`) and returns a reader of
    /// the chosen values, each option's default (its first value) where none was chosen.
    /// This is how a game turns options into its settings:
    /// `let o = options.read(OPTIONS)?; let strict = o.is("self-flip", "illegal");`
    pub fn read<'a>(&'a self, known: &'a [RuleOption]) -> Result<ChosenOptions<'a>, RuleError> {
        self.validate(known)?;
        Ok(ChosenOptions {
            options: self,
            known,
        })
    }
    /// The value chosen for `name`, or `default`.
    pub fn get<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.0.get(name).map(String::as_str).unwrap_or(default)
    }
    /// Whether no option is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The settings as `name=value` strings.
    pub fn to_strings(&self) -> Vec<String> {
        self.0.iter().map(|(k, v)| format!("{k}={v}")).collect()
    }
}

/// Rule options checked against the options a game offers: every value is one it takes.
#[derive(Clone, Copy, Debug)]
pub struct ChosenOptions<'a> {
    options: &'a RuleOptions,
    known: &'a [RuleOption],
}

impl<'a> ChosenOptions<'a> {
    /// The value of option `name`: the one chosen, else the option's default (its first
    /// value); empty for a name the game does not offer.
    pub fn value(&self, name: &str) -> &'a str {
        let default = self
            .known
            .iter()
            .find(|o| o.name == name)
            .and_then(|o| o.values.first().copied())
            .unwrap_or("");
        self.options.get(name, default)
    }
    /// Whether option `name` has the value `value` (chosen, or by default).
    pub fn is(&self, name: &str, value: &str) -> bool {
        self.value(name) == value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[RuleOption] = &[RuleOption {
        name: "self-flip",
        values: &["loses", "illegal"],
        help: "what a turn that flips its own side does",
    }];

    #[test]
    fn options_are_checked() {
        let o = RuleOptions::parse(&["self-flip=illegal"]).unwrap();
        assert!(o.validate(KNOWN).is_ok());
        assert_eq!(o.get("self-flip", "loses"), "illegal");
        let bad = RuleOptions::parse(&["self-flip=maybe"]).unwrap();
        assert!(bad
            .validate(KNOWN)
            .unwrap_err()
            .to_string()
            .contains("choose one of"));
        let unknown = RuleOptions::parse(&["colour=blue"]).unwrap();
        assert!(unknown.validate(KNOWN).is_err());
        assert!(RuleOptions::parse(&["a=1", "a=2"]).is_err());
    }

    #[test]
    fn chosen_options_read_values_and_defaults() {
        let none = RuleOptions::new();
        let o = none.read(KNOWN).unwrap();
        assert_eq!(o.value("self-flip"), "loses");
        assert!(o.is("self-flip", "loses"));
        assert_eq!(o.value("colour"), "");
        let set = RuleOptions::parse(&["self-flip=illegal"]).unwrap();
        assert!(set.read(KNOWN).unwrap().is("self-flip", "illegal"));
        let bad = RuleOptions::parse(&["self-flip=maybe"]).unwrap();
        assert!(bad.read(KNOWN).is_err());
    }
}
