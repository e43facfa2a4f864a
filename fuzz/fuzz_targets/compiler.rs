//! Fuzz target: `warpscope_core::checks::compiler` on arbitrary bytes (the checks live in core, so the
//! regression test replays saved crashes through the same code).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = warpscope_core::checks::compiler(data) {
        panic!("{why}");
    }
});
