//! A program's host code: the CUDA runtime's and the C library's calls, and kernel launches,
//! each one `HOST "name", Ra, n` (the host runner, `crate::host`, does the call). Register
//! `Ra` gets the result; the arguments follow it, one register each (a 64-bit kernel argument
//! two); a host local passed by address (`cudaMalloc(&d_a, n)`) is copied into registers after
//! the arguments, passed as their address in the call's window (`isa::CALL_SLOTS`), and copied
//! back after the call.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::value::{mov, Value};
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Ins, Opcode, Operand};
use crate::compile::parse::{CERR, COUT, VECTOR_LIST, VECTOR_NEW};
use crate::diag::Span;
use crate::isa::CALL_SLOTS;

/// What a runtime function takes, each argument converted to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arg {
    Int,
    Size,
    /// Any pointer, or a host local's address.
    Ptr,
    /// An `int` that may be left out (0 then): `cudaEventRecord`'s stream.
    OptInt,
}

/// The host functions a program may call: name, arguments, result.
const RUNTIME: &[(&str, &[Arg], Ty)] = &[
    ("malloc", &[Arg::Size], Ty::Ptr(Scalar::UChar)),
    ("calloc", &[Arg::Size, Arg::Size], Ty::Ptr(Scalar::UChar)),
    ("free", &[Arg::Ptr], Ty::Void),
    ("rand", &[], Ty::INT),
    ("srand", &[Arg::Size], Ty::Void),
    ("exit", &[Arg::Int], Ty::Void),
    ("cudaMalloc", &[Arg::Ptr, Arg::Size], Ty::INT),
    ("cudaMallocManaged", &[Arg::Ptr, Arg::Size, Arg::OptInt], Ty::INT),
    ("cudaFree", &[Arg::Ptr], Ty::INT),
    ("cudaMemcpy", &[Arg::Ptr, Arg::Ptr, Arg::Size, Arg::Int], Ty::INT),
    ("cudaMemset", &[Arg::Ptr, Arg::Int, Arg::Size], Ty::INT),
    ("cudaDeviceSynchronize", &[], Ty::INT),
    ("cudaThreadSynchronize", &[], Ty::INT),
    ("cudaDeviceReset", &[], Ty::INT),
    ("cudaGetLastError", &[], Ty::INT),
    ("cudaPeekAtLastError", &[], Ty::INT),
    ("cudaGetErrorString", &[Arg::Int], Ty::Ptr(Scalar::Char)),
    ("cudaGetErrorName", &[Arg::Int], Ty::Ptr(Scalar::Char)),
    ("cudaEventCreate", &[Arg::Ptr], Ty::INT),
    ("cudaEventRecord", &[Arg::Int, Arg::OptInt], Ty::INT),
    ("cudaEventSynchronize", &[Arg::Int], Ty::INT),
    ("cudaEventElapsedTime", &[Arg::Ptr, Arg::Int, Arg::Int], Ty::INT),
    ("cudaEventDestroy", &[Arg::Int], Ty::INT),
    ("time", &[Arg::Ptr], Ty::LONG),
];

/// The names a program's host code gives numbers to (`cudaMemcpyHostToDevice`,
/// `cudaSuccess`, `RAND_MAX`), as the CUDA and C headers define them.
pub const HOST_CONSTANTS: &[(&str, u32)] = &[
    ("cudaSuccess", 0),
    ("cudaMemcpyHostToHost", 0),
    ("cudaMemcpyHostToDevice", 1),
    ("cudaMemcpyDeviceToHost", 2),
    ("cudaMemcpyDeviceToDevice", 3),
    ("cudaMemcpyDefault", 4),
    ("RAND_MAX", 0x7fff_ffff),
    ("EXIT_SUCCESS", 0),
    ("EXIT_FAILURE", 1),
];

/// One argument placed in the call's registers.
pub(super) enum Passed {
    Value(Value),
    /// A host local's registers, by address: the variable's name and type.
    Local {
        reg: u8,
        words: u8,
        name: String,
        ty: Ty,
    },
}

impl Lower<'_> {
    /// A host call or launch, when `name` is one (`None`: not a host function).
    pub(super) fn host_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Value>> {
        if let Some(kernel) = name.strip_prefix("<<<").and_then(|n| n.strip_suffix(">>>")) {
            return Some(self.launch(kernel, args, span));
        }
        match name {
            "fprintf" => return Some(self.fprintf(args, span)),
            "puts" => return Some(self.puts(args, span)),
            COUT | CERR => return Some(self.stream_out(args, name == CERR, span)),
            VECTOR_NEW | VECTOR_LIST => return Some(self.vector_new(name == VECTOR_LIST, args, span)),
            "cudaMemcpyToSymbol" | "cudaMemcpyFromSymbol" => return Some(self.symbol_copy(name, args, span)),
            _ => {}
        }
        if matches!(name, "fflush" | "cudaSetDevice" | "cudaFuncSetCacheConfig") {
            // Output is written as it is printed; one device: nothing to do.
            for a in args {
                if !matches!(&a.kind, ExprKind::Var(v) if v == "stdout" || v == "stderr") {
                    self.expr(a)?;
                }
            }
            return Some(Some(Value::imm(0, Ty::INT)));
        }
        let (_, kinds, ret) = RUNTIME.iter().find(|r| r.0 == name)?;
        let least = kinds.iter().filter(|k| **k != Arg::OptInt).count();
        if args.len() < least || args.len() > kinds.len() {
            let n = if least == kinds.len() { format!("{least}") } else { format!("{least} to {}", kinds.len()) };
            self.error(span, format!("`{name}` takes {n} argument(s), found {}", args.len()));
            return Some(None);
        }
        let mut passed = Vec::new();
        for (k, kind) in kinds.iter().enumerate() {
            let p = match (kind, args.get(k)) {
                (Arg::OptInt, None) => Passed::Value(Value::imm(0, Ty::INT)),
                (_, None) => return Some(None),
                (Arg::Int | Arg::OptInt, Some(a)) => Passed::Value(self.expr_as(a, Ty::INT)?),
                (Arg::Size, Some(a)) => Passed::Value(self.size_arg(a)?),
                (Arg::Ptr, Some(a)) => self.pointer_arg(name, a)?,
            };
            passed.push(p);
        }
        // `cudaMalloc(&d_a, n)`: the allocation is named and typed after `d_a`.
        let call = match (name, passed.first()) {
            ("cudaMalloc" | "cudaMallocManaged", Some(Passed::Local { name: var, ty: Ty::Ptr(s), .. })) => {
                format!("{name} {var} {}", crate::input::c::elem_type(*s).name())
            }
            _ => String::from(name),
        };
        Some(self.emit_host(&call, &passed, *ret, span))
    }

    /// A size: an unsigned 32-bit value (warpscope's memory is addressed in 32 bits; a
    /// `size_t` gives its low word).
    pub(super) fn size_arg(&mut self, a: &Expr) -> Option<Value> {
        self.expr_as(a, Ty::UNSIGNED)
    }

    /// A pointer argument: a pointer's value, or a host local's address (`&d_a`).
    pub(super) fn pointer_arg(&mut self, name: &str, a: &Expr) -> Option<Passed> {
        if let ExprKind::AddrOf(inner) = &a.kind {
            if let ExprKind::Var(v) = &inner.kind {
                if let Some(var) = self.lookup(v).filter(|var| var.memory.is_none()) {
                    return Some(Passed::Local { reg: var.reg, words: var.ty.registers(), name: v.clone(), ty: var.ty });
                }
            }
        }
        let v = self.expr(a)?;
        if !v.ty.is_pointer() && v.repr != super::value::Repr::Imm(0) {
            self.error(a.span, format!("`{name}` takes a pointer here, not a `{}`", self.ty_name(v.ty)));
            return None;
        }
        Some(Passed::Value(v))
    }

    /// `HOST "name", Ra, n` with `passed` in the registers after `Ra`, and a host local passed
    /// by address copied back after it; the call's result, of type `ret`.
    pub(super) fn emit_host(&mut self, name: &str, passed: &[Passed], ret: Ty, span: Span) -> Option<Value> {
        let words: usize = 1 + passed
            .iter()
            .map(|p| match p {
                Passed::Value(v) => v.ty.registers().max(1) as usize,
                Passed::Local { words, .. } => 1 + *words as usize,
            })
            .sum::<usize>();
        let mut slots = Vec::with_capacity(words);
        for _ in 0..words {
            slots.push(self.temp(span)?);
        }
        if slots.windows(2).any(|w| w[1] != w[0] + 1) {
            self.error(span, "internal compiler error: a host call's registers are not consecutive");
            return None;
        }
        let base = slots[0];
        let mut next = base + 1;
        let mut locals = Vec::new();
        // The locals passed by address sit after the arguments.
        let mut spill = next + passed.iter().map(|p| if let Passed::Value(v) = p { v.ty.registers().max(1) } else { 1 }).sum::<u8>();
        for p in passed {
            match p {
                Passed::Value(v) => {
                    self.move_into(next, *v, span)?;
                    next += v.ty.registers().max(1);
                }
                Passed::Local { reg, words, .. } => {
                    self.emit(mov(next, Operand::Mask(CALL_SLOTS + 4 * (spill - base) as u32)));
                    for k in 0..*words {
                        self.emit(mov(spill + k, Operand::r(reg + k)));
                    }
                    locals.push((*reg, spill, *words));
                    spill += words;
                    next += 1;
                }
            }
        }
        let call = self.string(name);
        self.emit(Ins::new(Opcode::Host).src(Operand::Str(call)).src(Operand::r(base)).src(Operand::Int(words as u32)));
        for (reg, at, words) in locals {
            for k in 0..words {
                self.emit(mov(reg + k, Operand::r(at + k)));
            }
        }
        if ret == Ty::Void {
            return Some(Value::imm(0, Ty::Void));
        }
        let r = self.temp(span)?;
        self.emit(mov(r, Operand::r(base)));
        Some(Value::reg(r, ret))
    }

    /// `kernel<<<grid, block, shared>>>(args)`: the sizes as three `dim3`s' words and the
    /// shared bytes, then each argument as the kernel's parameter takes it.
    fn launch(&mut self, kernel: &str, args: &[Expr], span: Span) -> Option<Value> {
        let base = kernel.split('<').next().unwrap_or(kernel);
        let Some(sig) = self.sigs.get(kernel).or_else(|| self.sigs.get(base)).filter(|s| s.kernel) else {
            self.error(span, format!("`{base}` is launched here but is not a `__global__` kernel of this file"));
            return None;
        };
        let params: Vec<Ty> = sig.params.iter().map(|p| p.0).collect();
        if args.len() != 3 + params.len() {
            self.error(span, format!("`{base}` takes {} argument(s), found {}", params.len(), args.len().saturating_sub(3)));
            return None;
        }
        let mut passed = Vec::new();
        for size in &args[..2] {
            // A number is the `dim3` (n, 1, 1), made as `dim3 g(n)` makes it.
            let v = if self.is_dim3(size) {
                self.expr(size)?
            } else {
                let one = Expr { kind: ExprKind::Int { value: 1, unsigned: true }, span: size.span };
                let made = ExprKind::Call { name: String::from("make_uint3"), args: alloc::vec![size.clone(), one.clone(), one] };
                self.expr(&Expr { kind: made, span: size.span })?
            };
            passed.push(Passed::Value(v));
        }
        passed.push(Passed::Value(self.size_arg(&args[2])?));
        for (a, ty) in args[3..].iter().zip(params) {
            let v = self.expr(a)?;
            let v = if v.ty.is_pointer() && ty.is_pointer() && v.ty != ty {
                self.pointer_cast(v, ty, a.span)?
            } else {
                self.convert(v, ty, a.span)?
            };
            passed.push(Passed::Value(v));
        }
        self.emit_host(&format!("launch {kernel}"), &passed, Ty::Void, span)
    }

    /// Whether a launch's size is a `dim3` already: a `dim3` variable, or `dim3(...)`.
    fn is_dim3(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.lookup(v).is_some_and(|var| matches!(var.ty, Ty::Vector(_, 3))),
            ExprKind::Call { name, .. } => name == "make_uint3",
            _ => false,
        }
    }

    /// `fprintf(stderr, ...)` prints to the error stream, `fprintf(stdout, ...)` as `printf`.
    fn fprintf(&mut self, args: &[Expr], span: Span) -> Option<Value> {
        let stream = match args.first().map(|a| &a.kind) {
            Some(ExprKind::Var(s)) if s == "stderr" || s == "stdout" => s.clone(),
            _ => {
                self.error(span, "`fprintf` writes to `stdout` or `stderr` here: files are not supported");
                return None;
            }
        };
        self.host_printf(&args[1..], stream == "stderr", span)
    }

    /// An array of host code, where its declaration runs: the runner places it in host memory
    /// (once; its initial values written each time, as C initialises it each time).
    pub(super) fn host_array(&mut self, k: usize, span: Span) {
        let (name, reg) = (self.arrays[k].name.clone(), self.arrays[k].reg);
        if let Some(v) = self.emit_host(&format!("array {name}"), &[], Ty::Ptr(Scalar::UChar), span) {
            self.emit(mov(reg, v.operand()));
        }
    }

    /// `cudaMemcpyToSymbol(symbol, src, bytes[, offset[, kind]])` and
    /// `cudaMemcpyFromSymbol(dst, symbol, bytes[, offset[, kind]])`: the call names the
    /// `__device__` or `__constant__` variable; the host pointer, the bytes and the offset follow.
    fn symbol_copy(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        if !(3..=5).contains(&args.len()) {
            self.error(span, format!("`{name}` takes 3 to 5 arguments, found {}", args.len()));
            return None;
        }
        let to = name == "cudaMemcpyToSymbol";
        let (symbol, pointer) = if to { (&args[0], &args[1]) } else { (&args[1], &args[0]) };
        let found = match &symbol.kind {
            ExprKind::Var(v) => self.lookup(v).and_then(|var| var.memory).map(|k| &self.arrays[k]),
            _ => None,
        };
        let Some(array) = found.filter(|a| matches!(a.space, Space::Global | Space::Constant)) else {
            self.error(
                symbol.span,
                format!("`{name}`'s symbol is a `__device__` or `__constant__` variable of this file, named as it is declared"),
            );
            return None;
        };
        let call = format!("{name} {}", array.name);
        let mut passed = alloc::vec![self.pointer_arg(name, pointer)?, Passed::Value(self.size_arg(&args[2])?)];
        let offset = match args.get(3) {
            Some(o) => self.size_arg(o)?,
            None => Value::imm(0, Ty::UNSIGNED),
        };
        passed.push(Passed::Value(offset));
        if let Some(kind) = args.get(4) {
            self.expr(kind)?;
        }
        self.emit_host(&call, &passed, Ty::INT, span)
    }
}

/// The number a host constant's name stands for.
pub fn host_constant(name: &str) -> Option<u32> {
    HOST_CONSTANTS.iter().find(|c| c.0 == name).map(|c| c.1)
}

/// Why `name` cannot be called from device code, when it is a host function.
pub fn host_only(name: &str) -> Option<String> {
    (RUNTIME.iter().any(|r| r.0 == name) || matches!(name, "cudaMemcpyToSymbol" | "cudaMemcpyFromSymbol"))
        .then(|| format!("`{name}` is a host function: a kernel or `__device__` function cannot call it (call it from `main`)"))
}
