//! The listing: SASS-style assembly as the papers print it, read by `asm`.

use alloc::vec::Vec;

use super::{InputKind, Language, SourceOptions};
use crate::asm::assemble;
use crate::diag::Diagnostic;
use crate::kernel::Kernel;

pub struct Listing;

impl Language for Listing {
    fn kind(&self) -> InputKind {
        InputKind::Listing
    }
    fn detects(&self, _text: &str) -> bool {
        true
    }
    fn read(&self, text: &str, k: &mut Kernel, _opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
        let (program, asm_diags) = assemble(text);
        k.program = program;
        diags.extend(asm_diags);
    }
}
