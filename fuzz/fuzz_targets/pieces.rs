//! Fuzz target `pieces`: see `menagerie_robustness::checks::pieces`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::pieces(data);
});
