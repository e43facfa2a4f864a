//! The committed TypeScript types (`www/src/generated/engine.ts`) are the ones the Rust types
//! generate; `UPDATE_TYPES=1` rewrites the file.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

#[test]
fn the_generated_typescript_types_are_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../www/src/generated/engine.ts");
    let fresh = warpscope_web::types::typescript();
    if std::env::var_os("UPDATE_TYPES").is_some() {
        std::fs::write(&path, &fresh).expect("write the generated types");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == fresh, "{} is stale: run `UPDATE_TYPES=1 cargo test -p warpscope-web --test types`", path.display());
}
