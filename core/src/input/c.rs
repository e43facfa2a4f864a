//! Kernel files in CUDA C: the header lines give the inputs as for assembly, the compiler
//! gives the program, and each kernel parameter binds by name to a `//@ buffer` (pointers) or
//! a `//@ param` (scalars), which becomes the initial value of the parameter's register. A
//! parameter without a header line gets inputs made for it, so a kernel runs as pasted; each
//! `__shared__` variable becomes a shared buffer whose address the code finds in a register.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{CompiledSource, InputKind, Language, SourceOptions};
use crate::compile::ast::{Scalar, Space, Ty};
use crate::compile::{compile, CompileOptions, MemoryArray, Target};
use crate::diag::{Diagnostic, Span};
use crate::isa::Reg;
use crate::kernel::expr::parse_expr;
use crate::kernel::{BufferDecl, BufferInit, InitTarget, Kernel, LocatedExpr, ParamDecl, RegInit};
use crate::machine::{ElemType, Sizing};

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
    let fmad = k.fmad.unwrap_or(true);
    for r in &k.regs {
        diags.push(Diagnostic::error(
            r.value.span,
            "`//@ reg` sets registers of assembly kernels; a C kernel takes its inputs as parameters",
        ));
    }
    let kernel = k.kernel_name.as_ref().map(|(n, _)| n.clone());
    let (out, mut d) = compile(text, CompileOptions { target, if_convert, kernel, fmad, host: false });
    if let Some((_, at)) = &k.kernel_name {
        // An unknown kernel name is the header's fault: put the error on it.
        for x in d.iter_mut().filter(|x| x.message.starts_with("no `__global__` kernel named")) {
            x.span = *at;
        }
    }
    diags.append(&mut d);
    let Some(c) = out else { return };
    if k.launch.is_none() {
        note_unread_launch(text, &c, k.warp_width, diags);
    }
    let threads = k.launch().threads();
    for p in &c.params {
        // A struct by value (`Matrix A`) is one param or buffer per field, `A_width`,
        // `A_elements`..., in its registers in a row.
        for (field, ty, offset) in c.structs.shown_fields(p.ty, &p.name) {
            let name = field.replace('.', "_");
            let at = ParamAt { reg: p.reg + offset, span: p.span, threads };
            if let Err(msg) = bind_param(k, &name, ty, &c.structs, at) {
                diags.push(Diagnostic::error(p.span, msg));
            }
        }
    }
    for a in &c.arrays {
        if let Err(d) = bind_array(k, a) {
            diags.push(d);
        }
        k.regs.push(RegInit { target: InitTarget::Reg(Reg(a.reg)), value: located(&a.name, a.span), binds: true });
    }
    k.program = c.program;
    k.compiled = Some(CompiledSource {
        target,
        if_convert,
        listing: c.listing,
        listing_lines: c.listing_lines,
        running: Some(c.kernel.clone()),
        kernels: c.kernels,
        vars: c.vars,
        input: InputKind::C,
        cuda_lines: Vec::new(),
        cuda_file: None,
        entry: None,
    });
}

/// The host code's `kernel<<<grid, block>>>` is not read (its sizes are host variables and
/// expressions): where the file launches the kernel that runs, say what this run is instead.
fn note_unread_launch(text: &str, c: &crate::compile::Compiled, width: u32, diags: &mut Vec<Diagnostic>) {
    let name = &c.kernel;
    // The name as a whole word (not the end of `vecadd` for a kernel `add`), then `<<<`.
    let launches = |line: &str, at: usize| {
        let whole = !line[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        whole && line[at + name.len()..].trim_start().starts_with("<<<")
    };
    for (no, line) in text.lines().enumerate() {
        let Some(at) = line.match_indices(name.as_str()).map(|(k, _)| k).find(|&k| launches(line, k)) else { continue };
        let start = at + line[at..].find("<<<").unwrap_or(0);
        let end = line[start..].find(">>>").map_or(line.len(), |k| start + k + 3);
        let launch = &line[start..end];
        let col = line[..start].chars().count() as u32 + 1;
        diags.push(Diagnostic::info(
            crate::diag::Span::new(no as u32 + 1, col, launch.chars().count().max(1) as u32),
            format!(
                "this launch, `{launch}`, is not read: the run is one block of {width} threads. Give the sizes under Kernel inputs (Launch), or write `//@ launch grid=G block=B` (e.g. block=16x16)"
            ),
        ));
        return;
    }
}

/// A header expression made by warpscope, placed at `span` of the source.
fn located(text: &str, span: crate::diag::Span) -> LocatedExpr {
    LocatedExpr { expr: parse_expr(text).expect("made by warpscope: parses"), span, text: text.to_string() }
}

pub(crate) fn elem_type(s: Scalar) -> ElemType {
    match s {
        Scalar::Char => ElemType::I8,
        Scalar::UChar | Scalar::Bool => ElemType::U8,
        Scalar::Short => ElemType::I16,
        Scalar::UShort => ElemType::U16,
        Scalar::Float => ElemType::F32,
        Scalar::Unsigned => ElemType::U32,
        Scalar::Int => ElemType::I32,
        Scalar::Long => ElemType::I64,
        Scalar::ULong => ElemType::U64,
        Scalar::Double => ElemType::F64,
    }
}

/// The buffer of a `__shared__`, `__constant__` or `__device__` variable: its declaration's
/// length, and its initialiser's values. Without one, a `__device__` variable starts at zero
/// (static storage, as in C) and a `__constant__` one holds its index, as a parameter's buffer
/// does: the host would copy values in (`cudaMemcpyToSymbol`), and they can be edited. A
/// `//@ buffer` line of its name takes its place (for a `__shared__` one, its size: an `extern`
/// array's is the launch's).
fn bind_array(k: &mut Kernel, a: &MemoryArray) -> Result<(), Diagnostic> {
    let elem = elem_type(a.elem);
    let what = format!("{} {}", a.space.qualifier(), Ty::Scalar(a.elem).name());
    if let Some(taken) = header_takes_place(k, &a.name, a.space.qualifier(), a.space == Space::Shared, &what, Some(elem), a.span) {
        return taken;
    }
    let declared = Some(a.space.qualifier());
    if a.space == Space::Shared {
        // An `extern` array's open dimension: the launch's dynamic shared bytes (`shared=`), else
        // a thread's element per thread.
        let l = k.launch();
        let open = match l.shared {
            Some(bytes) => bytes / (elem.bytes() * a.width as u32 * a.dims.iter().flatten().product::<u32>()).max(1),
            None => l.block_threads(),
        };
        let len = located(&format!("{}", a.len(open) * a.width as u32), a.span);
        let sizing = if a.dims.contains(&None) { Sizing::Launch } else { Sizing::Declared };
        let shape = a.shape();
        k.buffers.push(BufferDecl { name: a.name.clone(), elem, len, init: None, auto: true, shared: true, declared, sizing, shape });
        return Ok(());
    }
    let init = match &a.init {
        Some(values) => Some(BufferInit::List(values.iter().map(|&(x, span)| located(&number_text(x, elem), span)).collect())),
        None if a.space == Space::Constant => Some(BufferInit::Expr(located("i", a.span))),
        None => None,
    };
    let len = located(&format!("{}", a.len(1) * a.width as u32), a.span);
    let (shape, sizing) = (a.shape(), Sizing::Declared);
    k.buffers.push(BufferDecl { name: a.name.clone(), elem, len, init, auto: true, shared: false, declared, sizing, shape });
    Ok(())
}

/// The param of component `j` of a vector passed by value (`c_x` of `uchar4 c`).
fn component_param(stem: &str, j: u8) -> String {
    format!("{stem}_{}", crate::compile::ast::component_name(j))
}

/// The words a vector passed by value (`uchar4 c`) takes, as nvcc lays it out: one param per
/// component (`STEM_x`, `STEM_y`...; made when missing), packed as its bytes lie in memory.
pub(super) fn vector_words(
    k: &mut Kernel,
    stem: &str,
    (s, width): (Scalar, u32),
    span: crate::diag::Span,
    threads: u64,
) -> Result<Vec<LocatedExpr>, String> {
    let bytes = s.bytes();
    let mut words: Vec<Vec<String>> = alloc::vec![Vec::new(); (width * bytes).div_ceil(4) as usize];
    for j in 0..width {
        let value = bind(k, &component_param(stem, j as u8), Ty::Scalar(s), span, threads)?.text;
        let at = j * bytes;
        let part = if bytes == 4 { value } else { format!("(({value}) & {}) << {}", (1u64 << (8 * bytes)) - 1, 8 * (at % 4)) };
        words[(at / 4) as usize].push(part);
    }
    Ok(words.iter().map(|parts| located(&parts.join(" | "), span)).collect())
}

/// An initial value as a header expression of the element type (`0.2`, not `0.200000003`).
fn number_text(x: f64, elem: ElemType) -> String {
    match elem {
        ElemType::F32 => format!("{}", x as f32),
        ElemType::F64 => format!("{x}"),
        _ => format!("{}", x as i64),
    }
}

/// Whether a `//@ buffer` of `held` elements can hold what the C calls `what`: the same type, or
/// integers of one width (signed and unsigned mix as in C).
/// A variable in memory (`what`: its declaration, as C or PTX writes it, at `at`; `want`: its
/// element type, if the declaration fixes one) that a `//@ buffer` line of its name gives: that
/// buffer becomes the variable's, in its memory. `None` without one.
pub(super) fn header_takes_place(
    k: &mut Kernel,
    name: &str,
    declared: &'static str,
    shared: bool,
    what: &str,
    want: Option<ElemType>,
    at: Span,
) -> Option<Result<(), Diagnostic>> {
    let b = k.buffers.iter_mut().find(|b| !b.auto && b.name == name)?;
    b.declared = Some(declared);
    b.shared = shared;
    if let (true, Some(init)) = (shared, &b.init) {
        let message = format!(
            "`{name}` is `{what}`: shared memory holds nothing until the block writes it, so `//@ buffer {name}` gives its size, not its values (drop the `= ...`)"
        );
        return Some(Err(Diagnostic::error(init.span().unwrap_or(at), message)));
    }
    let Some(want) = want else { return Some(Ok(())) };
    Some(same_elements(name, what, want, b.elem).map_err(|m| Diagnostic::error(at, m)))
}

fn same_elements(name: &str, what: &str, want: ElemType, held: ElemType) -> Result<(), String> {
    if want == held || (!want.is_float() && !held.is_float() && want.bytes() == held.bytes()) {
        return Ok(());
    }
    Err(format!(
        "`{name}` is `{what}` but `//@ buffer {name}` holds {} elements: make it `//@ buffer {name}: {}[...]`",
        held.name(),
        want.name()
    ))
}

/// Where a kernel parameter's value goes: its first register, its declaration, and the
/// launch's thread count (what made-up inputs are sized by).
#[derive(Clone, Copy)]
struct ParamAt {
    reg: u8,
    span: Span,
    threads: u64,
}

/// The initial values of a scalar, pointer or vector parameter's registers.
fn bind_param(k: &mut Kernel, name: &str, ty: Ty, structs: &crate::compile::structs::Structs, at: ParamAt) -> Result<(), String> {
    let ParamAt { reg, span, threads } = at;
    let (target, value) = match ty {
        // A vector by value (`uchar4 c`) is one param per component, `c_x`, `c_y`..., in its
        // registers in a row.
        Ty::Vector(s, n) => {
            for j in 0..n {
                let value = bind(k, &component_param(name, j), Ty::Scalar(s), span, threads)?;
                k.regs.push(RegInit { target: InitTarget::Reg(Reg(reg + j)), value, binds: true });
            }
            return Ok(());
        }
        // A struct's elements are shown as its fields' scalars when they share one (a `Node` of
        // two `int`s is 2 `int`s), else as words.
        Ty::StructPtr(r) => {
            let s = structs.buffer_scalar(r);
            let value = bind_buffer(k, name, &structs.name_of(ty), (s, r.bytes as u32 / s.bytes()), span, threads)?;
            (InitTarget::Reg(Reg(reg)), value)
        }
        // A 64-bit scalar fills a register pair, as the element type of its width stores it.
        Ty::Scalar(s) if s.wide() => (InitTarget::Wide { reg: Reg(reg), elem: elem_type(s) }, bind(k, name, ty, span, threads)?),
        _ => (InitTarget::Reg(Reg(reg)), bind(k, name, ty, span, threads)?),
    };
    k.regs.push(RegInit { target, value, binds: true });
    Ok(())
}

/// A buffer parameter's address: its `//@ buffer`, checked against the elements the code
/// reads (`elem`, `per` of them to an element of `what`), or one made with `per` a thread.
fn bind_buffer(
    k: &mut Kernel,
    name: &str,
    what: &str,
    (elem, per): (Scalar, u32),
    span: Span,
    threads: u64,
) -> Result<LocatedExpr, String> {
    let Some(b) = k.buffers.iter().find(|b| b.name == name) else {
        let len = located(&format!("{}", threads * per as u64), span);
        let init = Some(BufferInit::Expr(located("i", span)));
        k.buffers.push(BufferDecl {
            name: name.to_string(),
            elem: elem_type(elem),
            len,
            init,
            auto: true,
            shared: false,
            declared: None,
            sizing: Sizing::Given,
            shape: Vec::new(),
        });
        return Ok(located(name, span));
    };
    same_elements(name, what, elem_type(elem), b.elem).map_err(|e| format!("kernel parameter {e}"))?;
    Ok(located(name, span))
}

/// A pointer whose elements the code does not type (a struct's, whose fields nvcc's code reads
/// as words of their own types; an unmangled PTX entry's `.u64`): any `//@ buffer` binds (`f32`s
/// for a struct of floats); one made holds `int`s.
pub(super) fn bind_untyped_pointer(k: &mut Kernel, name: &str, span: Span, threads: u64) -> Result<LocatedExpr, String> {
    if k.buffers.iter().any(|b| b.name == name) {
        return Ok(located(name, span));
    }
    bind(k, name, Ty::Ptr(Scalar::Int), span, threads)
}

/// The initial value of a kernel parameter's register: its buffer's address or its param's
/// value. A parameter with no header line gets one made for it (marked `auto`): a buffer of one
/// element per thread of the launch holding its index, or a param equal to the thread count.
pub(super) fn bind(k: &mut Kernel, name: &str, ty: Ty, span: crate::diag::Span, threads: u64) -> Result<LocatedExpr, String> {
    match ty {
        Ty::Ptr(_) | Ty::VecPtr(..) => {
            // A vector type's pointer (`uchar4*`): its components, `n` per thread.
            let (elem, n) = ty.pointee().unwrap_or((Scalar::Int, 1));
            bind_buffer(k, name, ty.name(), (elem, n as u32), span, threads)
        }
        Ty::Scalar(s) => {
            if !k.params.iter().any(|p| p.name == name) {
                let default = located(&format!("{threads}"), span);
                k.params.push(ParamDecl { name: name.to_string(), default, auto: true, float: false });
            }
            if let Some(p) = k.params.iter_mut().find(|p| p.name == name) {
                p.float |= s.float();
            }
            // A float default of an integer parameter is truncated, and a byte or halfword holds
            // the value modulo 2^bits, as C converts them.
            let value = match s.narrow() {
                _ if s.float() => format!("float({name})"),
                Some((bits, false)) => format!("int({name}) & {}", (1u32 << bits) - 1),
                Some((bits, true)) => format!("((int({name}) + {half}) & {}) - {half}", (1u32 << bits) - 1, half = 1u32 << (bits - 1)),
                None => format!("int({name})"),
            };
            Ok(located(&value, span))
        }
        Ty::Void => Err("a parameter cannot be void".to_string()),
        Ty::Vector(..) | Ty::Struct(_) | Ty::StructPtr(_) => {
            Err(format!("kernel parameter `{name}` is a `{}`: here only scalars and pointers to them bind", ty.name()))
        }
    }
}
