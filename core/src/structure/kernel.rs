//! STRUCT on a kernel: the transform's program replaces the one read, and what the front ends
//! show beside it (the generated listing, each instruction's CUDA line) follows it.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::structure_keeping;
use crate::compile::Target;
use crate::diag::{Diagnostic, Span};
use crate::input::{CompiledSource, InputKind};
use crate::isa::Reg;
use crate::kernel::Kernel;
use crate::kernel::{InitTarget, NoteTarget};

/// Restructures `k`'s program in place, or says at which line it cannot.
pub fn restructure(k: &mut Kernel, diags: &mut Vec<Diagnostic>) {
    if k.program.is_empty() {
        return;
    }
    let inputs: Vec<Reg> = k
        .regs
        .iter()
        .filter_map(|r| match r.target {
            InitTarget::Reg(reg) | InitTarget::Wide { reg, .. } => Some(reg),
            _ => None,
        })
        .collect();
    let s = match structure_keeping(&k.program, &inputs) {
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
                running: None,
            })
        }
    }
    for note in &mut k.notes {
        if let NoteTarget::Instr(pc) = &mut note.target {
            if let Some(at) = s.moved(*pc) {
                *pc = at;
            }
        }
    }
    k.program = s.program.clone();
    k.structured = Some(Arc::new(s));
}
