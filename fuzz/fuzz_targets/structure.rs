//! Fuzz target: STRUCT's transform on the model fuzzer's random control flow
//! (`warpscope_core::checks::structure`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = warpscope_core::checks::structure(data) {
        panic!("{why}");
    }
});
