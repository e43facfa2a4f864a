//! The kernel files a test can read: every example, every corpus kernel and the gallery's real
//! compiler output (nvcc's PTX and SASS of the examples).

use std::path::PathBuf;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every kernel file, by path from the repository root, sorted.
pub fn kernels() -> Vec<String> {
    let mut names = Vec::new();
    for dir in ["examples", "examples/corpus", "examples/ptx", "examples/sass"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let n = e.unwrap().file_name().to_string_lossy().to_string();
            if n.ends_with(".cu") || n.ends_with(".sass") || n.ends_with(".ptx") {
                names.push(format!("{dir}/{n}"));
            }
        }
    }
    names.sort();
    names
}
