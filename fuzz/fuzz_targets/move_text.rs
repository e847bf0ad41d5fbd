//! Fuzz target `move_text`: see `menagerie_robustness::checks::move_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    menagerie_robustness::checks::move_text(data);
});
