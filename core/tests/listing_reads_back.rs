//! C and PTX programs are built straight from the compiler's instructions, not by reading
//! their listing back; the listing must still say exactly that program. Every C and PTX example
//! under every target: the assembler, given the listing's text, makes the same program.

use std::path::{Path, PathBuf};

use warpscope_core::asm::assemble;
use warpscope_core::compile::Target;
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};

fn sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v = Vec::new();
    for dir in ["", "corpus", "ptx", "corpus/ptx"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cu" || x == "ptx") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn the_listing_assembles_to_the_program_built() {
    let mut checked = 0;
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        for &target in Target::ALL {
            for if_convert in [false, true] {
                let opts = SourceOptions { target: Some(target), if_convert: Some(if_convert), ..SourceOptions::default() };
                let (k, d) = parse_kernel_with(&text, &opts);
                let what = format!("{} for {target:?}{}", path.display(), if if_convert { " with if-conversion" } else { "" });
                let Some(c) = k.compiled else { panic!("{what}: not compiled: {d:?}") };
                if d.iter().any(|x| x.is_error()) {
                    // Kernels the compiler refuses for a target (none built) are not this test's.
                    continue;
                }
                let (mut read, asm_diags) = assemble(&c.listing);
                assert!(asm_diags.iter().all(|x| !x.is_error()), "{what}: the listing does not assemble: {asm_diags:?}");
                assert_eq!(read.lines, c.listing_lines, "{what}: the listing lines");
                read.lines = k.program.lines.clone();
                for (pc, (a, b)) in read.instrs.iter().zip(&k.program.instrs).enumerate() {
                    assert_eq!(a, b, "{what}: instruction {pc}");
                }
                assert_eq!(read, k.program, "{what}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} programs checked");
}
