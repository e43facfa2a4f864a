//! The PTX reader end to end: text in, a program that runs, under every target.

use alloc::string::String;
use alloc::vec::Vec;

use crate::compile::Target;
use crate::diag::Diagnostic;
use crate::input::{read, InputKind, SourceOptions};
use crate::kernel::Kernel;

pub(super) const VEC_ADD: &str = include_str!("../../../../examples/corpus/ptx/vector_add.ptx");

fn translate(text: &str, target: Target) -> (Kernel, Vec<Diagnostic>) {
    let mut k = Kernel::default();
    let mut d = Vec::new();
    read(text, &mut k, &SourceOptions { input: Some(InputKind::Ptx), target: Some(target), ..SourceOptions::default() }, &mut d);
    (k, d)
}

#[test]
fn nvcc_output_translates_for_every_target() {
    for &t in Target::ALL {
        let (k, d) = translate(VEC_ADD, t);
        let errors: Vec<&Diagnostic> = d.iter().filter(|x| x.is_error()).collect();
        assert!(errors.is_empty(), "{t:?}: {errors:?}\n{}", k.compiled.as_ref().map_or(String::new(), |c| c.listing.clone()));
        assert!(!k.program.is_empty());
    }
}
