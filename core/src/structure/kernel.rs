//! STRUCT on a kernel: the transform's program replaces the one read, and what the front ends
//! show beside it (the generated listing, each instruction's CUDA line) follows it.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::structure;
use crate::compile::Target;
use crate::diag::{Diagnostic, Span};
use crate::input::{CompiledSource, InputKind};
use crate::kernel::Kernel;

/// Restructures `k`'s program in place, or says at which line it cannot.
pub fn restructure(k: &mut Kernel, diags: &mut Vec<Diagnostic>) {
    if k.program.is_empty() {
        return;
    }
    let s = match structure(&k.program) {
        Ok(s) => s,
        Err(e) => return diags.push(Diagnostic::error(Span::new(e.line.max(1), 1, 1), e.message)),
    };
    match &mut k.compiled {
        Some(c) => {
            let lines = core::mem::take(&mut c.cuda_lines);
            if !lines.is_empty() {
                c.cuda_lines = s.origin.iter().map(|o| o.and_then(|pc| lines.get(pc.index()).copied()).unwrap_or(0)).collect();
            }
            c.listing = s.listing.clone();
            c.listing_lines = s.listing_lines.clone();
        }
        None => {
            k.compiled = Some(CompiledSource {
                target: Target::Plain,
                if_convert: false,
                listing: s.listing.clone(),
                listing_lines: s.listing_lines.clone(),
                kernels: Vec::new(),
                vars: Vec::new(),
                input: InputKind::Listing,
                cuda_lines: Vec::new(),
                cuda_file: None,
                entry: None,
            })
        }
    }
    k.program = s.program.clone();
    k.structured = Some(Arc::new(s));
}
