//! Fuzz target: `warpscope_core::checks::sass` on arbitrary bytes (the real-SASS reader, its
//! translation, and a short run of what it reads).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = warpscope_core::checks::sass(data) {
        panic!("{why}");
    }
});
