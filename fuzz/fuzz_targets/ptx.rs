//! Fuzz target: `warpscope_core::checks::ptx` on arbitrary bytes (the PTX reader, its register
//! assignment and its translation, for a target the first byte picks).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = warpscope_core::checks::ptx(data) {
        panic!("{why}");
    }
});
