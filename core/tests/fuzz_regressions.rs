//! Every input a fuzzer ever crashed on (`fuzz/regressions/<target>/`), replayed through the
//! same check the target runs (`warpscope_core::checks`), so a fixed finding stays fixed without
//! nightly or cargo-fuzz.

use std::path::Path;

use warpscope_core::checks::{self, Check};

fn replay(target: &str, check: fn(&[u8]) -> Check) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return 0 };
    let mut n = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        if let Err(why) = check(&data) {
            panic!("{}: {why}", path.display());
        }
        n += 1;
    }
    n
}

#[test]
fn every_saved_crash_passes_its_check() {
    let n = replay("kernel_header", checks::kernel_header)
        + replay("assembler", checks::assembler)
        + replay("compiler", checks::compiler)
        + replay("load_and_run", checks::load_and_run)
        + replay("ptx", checks::ptx)
        + replay("sass", checks::sass)
        + replay("structure", checks::structure);
    #[cfg(feature = "link")]
    let n = n + replay("permalink", checks::permalink);
    assert!(n >= 1, "no saved crashes found under fuzz/regressions");
}
