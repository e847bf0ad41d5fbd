//! Fuzz target `uci`: see `menagerie_robustness::checks::uci`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::uci(data);
});
