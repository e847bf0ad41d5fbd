//! Fuzz target `server`: see `menagerie_robustness::checks::server`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::server(data);
});
