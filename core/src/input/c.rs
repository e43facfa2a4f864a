//! Kernel files in CUDA C: the header lines give the inputs as for assembly, the compiler
//! gives the program, and each kernel parameter binds by name to a `//@ buffer` (pointers) or
//! a `//@ param` (integers), which becomes the initial value of the parameter's register.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{CompiledSource, InputKind, Language, SourceOptions};
use crate::compile::ast::{Scalar, Ty};
use crate::compile::{compile, CompileOptions, Target};
use crate::diag::Diagnostic;
use crate::isa::Reg;
use crate::kernel::expr::parse_expr;
use crate::kernel::{InitTarget, Kernel, LocatedExpr, RegInit};
use crate::machine::ElemType;

/// CUDA C, told apart by a `__global__` function.
pub struct C;

impl Language for C {
    fn kind(&self) -> InputKind {
        InputKind::C
    }
    fn detects(&self, text: &str) -> bool {
        crate::compile::is_cuda_source(text)
    }
    fn read(&self, text: &str, k: &mut Kernel, opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
        compile_into(k, text, opts, diags);
    }
}

fn compile_into(k: &mut Kernel, text: &str, opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
    let target = opts.target.or(k.model.map(|m| m.compile_target())).unwrap_or(Target::Kepler);
    let if_convert = opts.if_convert.or(k.if_convert).unwrap_or(false);
    for r in &k.regs {
        diags.push(Diagnostic::error(
            r.value.span,
            "`//@ reg` sets registers of assembly kernels; a C kernel takes its inputs as parameters",
        ));
    }
    let (out, mut d) = compile(text, CompileOptions { target, if_convert });
    diags.append(&mut d);
    let Some(c) = out else { return };
    for p in &c.params {
        match bind(k, &p.name, p.ty) {
            Ok(()) => {
                let value = LocatedExpr { expr: parse_expr(&p.name).expect("an identifier parses"), span: p.span, text: p.name.clone() };
                k.regs.push(RegInit { target: InitTarget::Reg(Reg(p.reg)), value });
            }
            Err(msg) => diags.push(Diagnostic::error(p.span, msg)),
        }
    }
    k.program = c.program;
    k.compiled = Some(CompiledSource { target, if_convert, listing: c.listing, listing_lines: c.listing_lines });
}

/// Checks that a kernel parameter has a header line of the right kind to take its value from.
fn bind(k: &Kernel, name: &str, ty: Ty) -> Result<(), String> {
    match ty {
        Ty::Ptr(elem) => {
            let Some(b) = k.buffers.iter().find(|b| b.name == name) else {
                return Err(format!(
                    "kernel parameter `{name}` ({}) needs a `//@ buffer {name}: {}[length]` line",
                    ty.name(),
                    elem_name(elem)
                ));
            };
            let ok = matches!(
                (elem, b.elem),
                (Scalar::Int, ElemType::I32)
                    | (Scalar::Unsigned, ElemType::U32)
                    | (Scalar::Float, ElemType::F32)
                    | (Scalar::Bool, ElemType::I32 | ElemType::U32)
            );
            if !ok {
                let held = match b.elem {
                    ElemType::I32 => "i32",
                    ElemType::U32 => "u32",
                    ElemType::F32 => "f32",
                };
                return Err(format!("kernel parameter `{name}` is `{}` but `//@ buffer {name}` holds {held} elements", ty.name()));
            }
            Ok(())
        }
        Ty::Scalar(Scalar::Float) => Err(format!("float parameter `{name}`: header params are integers; pass floats in a buffer")),
        Ty::Scalar(_) => {
            if k.params.iter().any(|p| p.name == name) {
                Ok(())
            } else {
                Err(format!("kernel parameter `{name}` needs a `//@ param {name} = value` line"))
            }
        }
        Ty::Void => Err("a parameter cannot be void".to_string()),
    }
}

fn elem_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Float => "f32",
        Scalar::Unsigned => "u32",
        _ => "i32",
    }
}
