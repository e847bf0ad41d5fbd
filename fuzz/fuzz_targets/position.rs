//! Fuzz target `position`: see `menagerie_robustness::checks::position`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::position(data);
});
