//! The protocol loops of `menagerie` (UCI and XBoard) as a library: the binary runs them on
//! standard input and output; tests and fuzz targets run a session over a byte slice, with
//! its output to a sink and every search bounded ([`session::Bounds`]).

#![warn(missing_docs)]

pub mod session;
pub mod uci_server;
pub mod xboard;
mod xboard_moves;

use menagerie_core::RuleOptions;
use menagerie_variants::{find, VariantError};

/// The rule options of `--rule`, where a bare name is refused with the values it takes
/// unless `on` is one of them.
pub fn rule_options(variant: &str, rules: &[String]) -> Result<RuleOptions, VariantError> {
    let v = find(variant)?;
    for item in rules {
        if item.contains('=') {
            continue;
        }
        if let Some(o) = v.options.iter().find(|o| o.name == item.trim()) {
            if !o.values.contains(&"on") {
                return Err(VariantError::Other(format!(
                    "rule option '{}' needs a value: write --rule {}={}",
                    o.name,
                    o.name,
                    o.values.join("|")
                )));
            }
        }
    }
    Ok(RuleOptions::parse(rules)?)
}
