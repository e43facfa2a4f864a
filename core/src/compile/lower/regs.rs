//! Register assignment. There is no call stack, so every function owns a disjoint range of
//! registers: calls need no saving, and recursion is rejected before lowering. Inside a
//! function, variables and temporaries are allocated like a stack: a statement's temporaries
//! are released when it ends, a block's variables when it closes.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::ast::Ty;
use crate::diag::{Diagnostic, Span};

/// The highest general register the compiler hands out (R254 is the last; RZ is 255).
const LAST_REG: u32 = 254;

/// What a caller needs to know about a function: where its arguments and result live.
#[derive(Clone, PartialEq, Debug)]
pub struct FnSig {
    pub name: String,
    pub kernel: bool,
    pub label: String,
    pub ret: Ty,
    /// Each parameter's type and register.
    pub params: Vec<(Ty, u8)>,
    /// Which parameters are references: the register's value at the return goes back to the
    /// caller's variable (copy in, copy back: no two names of one variable meet in a call).
    pub by_ref: Vec<bool>,
    /// Each parameter's default argument, if it has one.
    pub defaults: Vec<Option<crate::compile::ast::Expr>>,
    pub ret_reg: Option<u8>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RegAlloc {
    next: u32,
    /// The highest register used so far plus one: where the next function's range starts.
    pub high: u32,
    /// Free predicates P0-P6, as a bit set.
    preds: u8,
}

impl RegAlloc {
    pub fn starting_at(first: u32) -> RegAlloc {
        RegAlloc { next: first, high: first, preds: 0x7f }
    }

    pub fn var(&mut self, span: Span, diags: &mut Vec<Diagnostic>) -> Option<u8> {
        if self.next > LAST_REG {
            if !diags.iter().any(|d| d.message.starts_with("out of registers")) {
                diags.push(Diagnostic::error(
                    span,
                    format!("out of registers: the kernel needs more than {} live values (R0-R254)", LAST_REG + 1),
                ));
            }
            return None;
        }
        let r = self.next as u8;
        self.next += 1;
        self.high = self.high.max(self.next);
        Some(r)
    }

    pub fn mark(&self) -> u32 {
        self.next
    }
    pub fn release(&mut self, mark: u32) {
        self.next = self.next.min(mark);
    }

    /// A free predicate register; P0 when none is free (with an error).
    pub fn pred(&mut self, span: Span, diags: &mut Vec<Diagnostic>) -> u8 {
        if self.preds == 0 {
            diags.push(Diagnostic::error(span, "this condition needs more than 7 predicate registers at once"));
            return 0;
        }
        let p = self.preds.trailing_zeros() as u8;
        self.preds &= !(1 << p);
        p
    }
    pub fn free_pred(&mut self, p: u8) {
        self.preds |= 1 << p;
    }
}
