//! Fuzz target `xboard`: see `menagerie_robustness::checks::xboard`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::xboard(data);
});
