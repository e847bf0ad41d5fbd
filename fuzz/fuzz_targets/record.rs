//! Fuzz target `record`: see `menagerie_robustness::checks::record`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::record(data);
});
