//! PTX, as `nvcc -ptx` writes it and Compiler Explorer shows it, run under every model.
//!
//! `syntax` reads the module; `flow` cuts each function into blocks and gives its virtual
//! registers machine registers; `lower` turns each instruction into the machine's; then, as for
//! C, `compile::reconverge` places what the chosen model's hardware needs and PTX does not say
//! (SSY/SYNC for the token stack, BSSY/BSYNC for Volta's barriers, none for `bra.uni`), and
//! `compile::emit` writes the listing, which the assembler reads. The listing marks what was
//! inserted. Program lines are PTX lines; `.loc` gives each instruction's CUDA line too.
//!
//! Parameters are bound by position (`arg0`, `arg1`, ...) or by PTX's own names; a pointer's
//! element type comes from the kernel's mangled name (`_Z7vec_addPKfS0_Pfi`: `const float*`).
//! Each parameter lives in registers from R0 up, each memory variable (`.shared`, `.global`,
//! `.const`, the `.local` depot) in a register holding its address; then each function gets a
//! range of its own (no call stack, so calls need no saving).

mod beside;
mod demangle;
mod flow;
mod lower;
mod syntax;
mod types;
mod vprintf;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{CompiledSource, InputKind, Language, SourceOptions};
use crate::compile::ast::{Scalar, Ty};
use crate::compile::{emit, reconverge, Target, VarInfo};
use crate::diag::{has_errors, Diagnostic, Span};
use crate::isa::Reg;
use crate::kernel::expr::parse_expr;
use crate::kernel::{BufferDecl, BufferInit, InitTarget, Kernel, LocatedExpr, RegInit};
use crate::machine::{Elem, ElemType, Sizing};
use lower::Slot;
use syntax::{Function, Instr, Module, Operand as P, Stmt, VarDecl};
use types::{Class, T};

pub use beside::{beside, Beside, BesideProblem, BesideProblemKind};
pub use demangle::{demangle, Demangled};

/// PTX, told apart by its `.version`, `.target` or `.entry` directive.
pub struct Ptx;

impl Language for Ptx {
    fn kind(&self) -> InputKind {
        InputKind::Ptx
    }
    fn detects(&self, text: &str) -> bool {
        syntax::looks_like_ptx(text)
    }
    fn read(&self, text: &str, k: &mut Kernel, opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
        read(text, k, opts, diags);
    }
}

/// The registers the parameters and memory variables are pinned to.
struct Layout<'a> {
    /// Per function: its `.param` names (scope 0) and its call sites' (by scope).
    params: BTreeMap<&'a str, BTreeMap<(u32, &'a str), Slot>>,
    syms: BTreeMap<&'a str, u8>,
    /// The first register left for the functions' own.
    next: u32,
}

fn read(text: &str, k: &mut Kernel, opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
    let target = opts.target.or(k.model.map(|m| m.compile_target())).unwrap_or(Target::Kepler);
    // Only the models that find reconvergence themselves (plain code) read the layout so.
    let frontiers = target == Target::Plain && opts.frontiers.or(k.model.map(|m| m.uses_frontiers())).unwrap_or(false);
    let (mut m, d) = syntax::parse(text);
    let parse_failed = has_errors(&d);
    diags.extend(d);
    if parse_failed {
        return;
    }
    let missing = undeclared_shared(&m, diags);
    m.globals.extend(missing);
    for r in &k.regs {
        diags.push(Diagnostic::error(
            r.value.span,
            "`//@ reg` sets registers of assembly kernels; a PTX kernel takes its inputs as parameters",
        ));
    }
    let names = entry_names(&m);
    let Some(entry) = pick_entry(&m, &names, k, diags) else { return };
    let funcs = reachable(&m, entry, diags);
    if has_errors(diags) {
        return;
    }
    let layout = match layout(&m, &funcs, diags) {
        Some(l) => l,
        None => return,
    };
    let labels: BTreeMap<&str, String> =
        funcs.iter().map(|f| (f.name, if f.entry { format!(".L_{}", f.name) } else { format!(".L_fn_{}", f.name) })).collect();
    let source: Vec<&str> = text.lines().collect();
    let mut listing = emit::Listing::default();
    listing.mark_inserted = true;
    listing.comment(&format!("{} code for `{}`, translated from PTX by warpscope", target.name(), display_name(entry.name)));
    // Callees are given registers before their callers, so a caller knows which predicates a
    // call may change; general registers are each function's own range.
    let blocks: Vec<Vec<flow::Block<'_>>> = funcs.iter().map(|f| flow::blocks(f, diags)).collect();
    let decls: Vec<types::Decls> = funcs.iter().map(|f| reg_decls(f, diags)).collect();
    let mut assigned: Vec<Option<flow::Assigned>> = funcs.iter().map(|_| None).collect();
    let mut clobbers: BTreeMap<&str, u8> = BTreeMap::new();
    let mut base = layout.next;
    for k in callees_first(&funcs) {
        let a = flow::assign(funcs[k], &blocks[k], &decls[k], base, &clobbers, diags);
        base = a.high.max(base);
        clobbers.insert(funcs[k].name, a.clobbers);
        assigned[k] = Some(a);
    }
    let mut vars = Vec::new();
    let mut used_labels = BTreeSet::new();
    let empty = BTreeMap::new();
    for (k, f) in funcs.iter().enumerate() {
        let Some(assigned) = &assigned[k] else { continue };
        let printf = vprintf::formats(&m, f);
        let env = lower::Env {
            regs: &assigned.regs,
            syms: &layout.syms,
            params: layout.params.get(&f.name).unwrap_or(&empty),
            labels: &labels,
            entry: f.entry,
            printf: &printf.by_line,
        };
        let mut func = flow::build(f, &blocks[k], &labels[f.name], &env, target == Target::Volta, diags);
        func.strings = printf.strings;
        // ptxas fuses the multiplies and adds the PTX leaves apart (with no rounding named), as
        // nvcc's own compile of C does: its SASS is what the GPU runs.
        crate::compile::contract::contract(&mut func, &[]);
        // PTX labels are the function's own; the listing's are shared by every function.
        for b in &mut func.blocks {
            if !used_labels.insert(b.label.clone()) {
                b.label = format!("{}_{}", b.label, f.name);
                used_labels.insert(b.label.clone());
            }
        }
        if let Err(msg) = reconverge::place(&mut func, target) {
            diags.push(Diagnostic::error(f.span, msg));
        }
        if frontiers {
            flow::lay_out_in_reverse_post_order(&mut func);
        }
        emit::emit_func(&func, target, &source, &mut listing);
        let shown = display_name(f.name);
        for (name, &(class, reg)) in &assigned.regs {
            if class != Class::Pred {
                let ty = reg_ty(decls[k].ty(name).unwrap_or(T::B32));
                vars.push(VarInfo {
                    name: name.to_string(),
                    ty,
                    type_name: ty.name().to_string(),
                    reg,
                    func: shown.clone(),
                    first_line: f.span.line,
                    last_line: f.end_line,
                });
            }
        }
    }
    if has_errors(diags) {
        return;
    }
    let emit::Assembled { program, listing_lines, text: listing } = match listing.finish() {
        Ok(a) => a,
        Err(errors) => {
            diags.extend(errors.into_iter().map(|e| Diagnostic::error(entry.span, format!("internal error: the translation {e}"))));
            return;
        }
    };
    bind_inputs(k, &m, entry, &funcs, &layout, diags);
    k.program = program;
    let kernels = names;
    let (cuda_lines, cuda_file) = cuda_lines(&m, &funcs, &k.program);
    k.compiled = Some(CompiledSource {
        target,
        if_convert: false,
        listing,
        listing_lines,
        kernels,
        vars,
        input: InputKind::Ptx,
        cuda_lines,
        cuda_file,
        entry: Some(entry.name.to_string()),
        running: Some(display_name(entry.name)),
    });
}

/// Each instruction's CUDA line, through the `.loc` in force at its PTX line (an inserted
/// instruction takes its branch's), and the CUDA file's name; empty without `.loc`.
fn cuda_lines(m: &Module, funcs: &[&Function], program: &crate::program::Program) -> (Vec<u32>, Option<String>) {
    let located: Vec<&Instr> = funcs.iter().flat_map(|f| instrs(f)).filter(|i| i.cuda_line > 0).collect();
    let Some(file) = located.first().map(|i| kernel_file(i)) else { return (Vec::new(), None) };
    let by_ptx_line: BTreeMap<u32, u32> = located.iter().map(|i| (i.span.line, line_in(i, file))).collect();
    let lines = program.lines.iter().map(|l| by_ptx_line.get(l).copied().unwrap_or(0)).collect();
    let name = m.files.iter().find(|(n, _)| *n == file).map(|(_, name)| name.to_string());
    (lines, name)
}

/// The `.file` of the kernel's own source, from its first `.loc` (the outer one, if that line's
/// code was inlined from a header).
fn kernel_file(i: &Instr) -> u32 {
    if i.cuda_outer.0 > 0 {
        i.cuda_outer.0
    } else {
        i.cuda_file
    }
}

/// An instruction's CUDA line in `.file` `file`: its own, or where it was inlined; 0 if neither.
fn line_in(i: &Instr, file: u32) -> u32 {
    if i.cuda_file == file {
        i.cuda_line
    } else if i.cuda_outer.0 == file {
        i.cuda_outer.1
    } else {
        0
    }
}

/// Memory variables the code names but nothing declares (Compiler Explorer's directive filter
/// drops their `.shared` lines). One a shared-memory access names, or a function-local static
/// (`_ZZ...`, which device code allows only in shared memory), is taken as shared memory of
/// one element per thread of the block, with a note; others are left to be reported where used.
fn undeclared_shared<'a>(m: &Module<'a>, diags: &mut Vec<Diagnostic>) -> Vec<VarDecl<'a>> {
    let declared: BTreeSet<&str> =
        m.globals.iter().chain(m.functions.iter().flat_map(|f| f.vars.iter().chain(&f.params).chain(&f.rets))).map(|v| v.name).collect();
    let mut out: Vec<VarDecl<'a>> = Vec::new();
    for f in &m.functions {
        for i in instrs(f) {
            let named = i.operands.iter().filter_map(|o| match *o {
                P::Addr { base, .. } => Some(base),
                P::Name(n) if matches!(i.opcode(), "mov" | "cvta") => Some(n),
                _ => None,
            });
            for n in named {
                if n.is_empty() || n.starts_with('%') || n == "WARP_SZ" || declared.contains(n) || i.has("param") {
                    continue;
                }
                let shared = n.starts_with("_ZZ") || (i.has("shared") && matches!(i.opcode(), "ld" | "st" | "atom" | "red"));
                if !shared || out.iter().any(|v| v.name == n) {
                    continue;
                }
                diags.push(Diagnostic::info(
                    i.span,
                    format!("`{n}` is not declared (Compiler Explorer's directive filter removes `.shared` lines): taken as shared memory of one element per thread of the block; paste its `.shared` line to set its size"),
                ));
                out.push(VarDecl {
                    space: "shared",
                    ty: "b32",
                    name: n,
                    count: None,
                    array: Some(None),
                    align: None,
                    extern_: false,
                    init: Vec::new(),
                    span: i.span,
                    scope: 0,
                });
            }
        }
    }
    out
}

/// The name a user knows a function by: demangled, without its parameter list.
fn display_name(mangled: &str) -> String {
    demangle(mangled).map_or_else(|| mangled.to_string(), |d| d.name)
}

/// The functions' indices with every function after the ones it calls (there is no recursion).
fn callees_first(funcs: &[&Function]) -> Vec<usize> {
    fn visit(k: usize, funcs: &[&Function], seen: &mut Vec<bool>, out: &mut Vec<usize>) {
        if seen[k] {
            return;
        }
        seen[k] = true;
        for i in instrs(funcs[k]).filter(|i| i.opcode() == "call") {
            if let Some(j) = call_target(i).and_then(|n| funcs.iter().position(|g| g.name == n)) {
                visit(j, funcs, seen, out);
            }
        }
        out.push(k);
    }
    let mut seen = alloc::vec![false; funcs.len()];
    let mut out = Vec::with_capacity(funcs.len());
    for k in 0..funcs.len() {
        visit(k, funcs, &mut seen, &mut out);
    }
    out
}

/// Every defined entry, by the name `//@ kernel` takes: demangled where that is unambiguous.
fn entry_names(m: &Module) -> Vec<String> {
    let entries: Vec<(&Function, String)> =
        m.functions.iter().filter(|f| f.entry && f.defined).map(|f| (f, display_name(f.name))).collect();
    entries
        .iter()
        .map(|(f, short)| if entries.iter().filter(|(_, s)| s == short).count() == 1 { short.clone() } else { f.name.to_string() })
        .collect()
}

/// The entry `//@ kernel NAME` names (mangled, demangled, or with its signature), or the first.
fn pick_entry<'m, 'a>(m: &'m Module<'a>, names: &[String], k: &Kernel, diags: &mut Vec<Diagnostic>) -> Option<&'m Function<'a>> {
    let entries: Vec<&Function<'a>> = m.functions.iter().filter(|f| f.entry && f.defined).collect();
    let chosen = match &k.kernel_name {
        Some((want, at)) => {
            let found =
                entries.iter().find(|f| f.name == *want || demangle(f.name).is_some_and(|d| d.name == *want || d.signature() == *want));
            match found {
                Some(f) => *f,
                None => {
                    let known = if names.is_empty() { String::from("none") } else { names.join(", ") };
                    diags.push(Diagnostic::error(*at, format!("no `.entry` named `{want}` in this PTX (entries: {known})")));
                    return None;
                }
            }
        }
        None => match entries.first() {
            Some(f) => *f,
            None => {
                diags.push(Diagnostic::error(Span::new(1, 1, 1), "no `.entry` in this PTX: nothing to run"));
                return None;
            }
        },
    };
    let chosen_name = display_name(chosen.name);
    if let Some(other) = names.iter().find(|n| **n != chosen_name && **n != chosen.name) {
        diags.push(Diagnostic::info(
            chosen.span,
            format!(
                "this PTX has {} entries: running `{}` (choose another with `//@ kernel {other}`)",
                names.len(),
                display_name(chosen.name)
            ),
        ));
    }
    Some(chosen)
}

/// The functions the CUDA runtime provides, which a module declares `.extern` and calls: `printf`'s
/// and a failed `assert`'s.
const BUILT_IN_CALLS: [&str; 2] = ["vprintf", "__assertfail"];

/// The entry, then every function it calls (directly or not), in module order. A call cycle
/// is an error: there is no call stack.
fn reachable<'m, 'a>(m: &'m Module<'a>, entry: &'m Function<'a>, diags: &mut Vec<Diagnostic>) -> Vec<&'m Function<'a>> {
    let calls_of = |f: &Function<'a>| -> Vec<(&'a str, Span)> {
        instrs(f).filter(|i| i.opcode() == "call").filter_map(|i| call_target(i).map(|n| (n, i.span))).collect()
    };
    let mut seen = BTreeSet::from([entry.name]);
    let mut todo = alloc::vec![entry];
    while let Some(f) = todo.pop() {
        for (name, span) in calls_of(f) {
            if BUILT_IN_CALLS.contains(&name) {
                continue;
            }
            match m.functions.iter().find(|g| g.name == name && g.defined) {
                Some(g) => {
                    if seen.insert(name) {
                        todo.push(g);
                    }
                }
                None => diags.push(Diagnostic::error(span, format!("`{name}` is called but not defined in this PTX"))),
            }
        }
    }
    let funcs: Vec<&Function<'a>> =
        core::iter::once(entry).chain(m.functions.iter().filter(|f| !f.entry && f.defined && seen.contains(f.name))).collect();
    // A cycle: some function reaches itself.
    for f in &funcs {
        let mut stack: Vec<(&str, Span)> = calls_of(f);
        let mut visited = BTreeSet::new();
        while let Some((name, span)) = stack.pop() {
            if name == f.name {
                diags.push(Diagnostic::error(
                    span,
                    format!(
                        "`{}` calls itself (directly or through others): recursion needs a call stack, which warpscope does not model",
                        display_name(f.name)
                    ),
                ));
                break;
            }
            if visited.insert(name) {
                if let Some(g) = m.functions.iter().find(|g| g.name == name && g.defined) {
                    stack.extend(calls_of(g).into_iter().map(|(n, _)| (n, span)));
                }
            }
        }
    }
    funcs
}

fn instrs<'f, 'a>(f: &'f Function<'a>) -> impl Iterator<Item = &'f Instr<'a>> {
    f.body.iter().filter_map(|s| if let Stmt::Instr(i) = s { Some(i) } else { None })
}

fn call_target<'a>(i: &Instr<'a>) -> Option<&'a str> {
    i.operands.iter().find_map(|o| if let P::Name(n) = o { Some(*n) } else { None })
}

/// Words a `.param` takes.
fn param_words(p: &VarDecl) -> u32 {
    match p.array {
        Some(Some(n)) => {
            let elem = T::from_name(p.ty).map_or(1, |t| t.bits().div_ceil(8));
            (n * elem).div_ceil(4)
        }
        _ => T::from_name(p.ty).map_or(1, |t| Class::of(t).words()),
    }
}

/// Pins each function's parameters, then every memory variable, to registers from R0.
fn layout<'a>(m: &Module<'a>, funcs: &[&Function<'a>], diags: &mut Vec<Diagnostic>) -> Option<Layout<'a>> {
    let mut next = 0u32;
    let mut params: BTreeMap<&'a str, BTreeMap<(u32, &'a str), Slot>> = BTreeMap::new();
    let mut slots_of: BTreeMap<&'a str, (Vec<Slot>, Vec<Slot>)> = BTreeMap::new();
    for f in funcs {
        let mut own = BTreeMap::new();
        let list = |decls: &[VarDecl<'a>], next: &mut u32, own: &mut BTreeMap<(u32, &'a str), Slot>| -> Vec<Slot> {
            decls
                .iter()
                .map(|p| {
                    let s = Slot { reg: (*next).min(255) as u8, words: param_words(p) };
                    *next += s.words;
                    own.insert((0, p.name), s);
                    s
                })
                .collect()
        };
        let formals = list(&f.params, &mut next, &mut own);
        let rets = list(&f.rets, &mut next, &mut own);
        slots_of.insert(f.name, (formals, rets));
        params.insert(f.name, own);
    }
    // `vprintf`'s `.param`s (the format's and the buffer's addresses, the result): registers of
    // their own, shared by every call.
    // `__assertfail`'s (message, file, line, function, char size) the same way.
    for (callee, words, formals) in [("vprintf", &[2u32, 2, 1][..], 2), ("__assertfail", &[2, 2, 1, 2, 2][..], 5)] {
        if !funcs.iter().any(|f| instrs(f).any(|i| i.opcode() == "call" && call_target(i) == Some(callee))) {
            continue;
        }
        let slots: Vec<Slot> = words
            .iter()
            .map(|&w| {
                let s = Slot { reg: next.min(255) as u8, words: w };
                next += w;
                s
            })
            .collect();
        slots_of.insert(callee, (slots[..formals].to_vec(), slots[formals..].to_vec()));
    }
    // Call sites: a call's argument and result `.param`s are the callee's.
    for f in funcs {
        for i in instrs(f).filter(|i| i.opcode() == "call") {
            let Some(callee) = call_target(i) else { continue };
            let Some((formals, rets)) = slots_of.get(callee) else { continue };
            let lists: Vec<&Vec<&'a str>> = i.operands.iter().filter_map(|o| if let P::List(v) = o { Some(v) } else { None }).collect();
            // `call (ret), f, (args)` or `call f, (args)`.
            let (ret_names, arg_names) = match (lists.len(), i.operands.first()) {
                (2, _) => (Some(lists[0]), Some(lists[1])),
                (1, Some(P::List(_))) if i.operands.len() == 2 => (Some(lists[0]), None),
                (1, _) => (None, Some(lists[0])),
                _ => (None, None),
            };
            let own = params.entry(f.name).or_default();
            for (names, slots, what) in [(arg_names, formals, "arguments"), (ret_names, rets, "results")] {
                let Some(names) = names else { continue };
                if names.len() != slots.len() {
                    diags.push(Diagnostic::error(
                        i.span,
                        format!("`{callee}` takes {} {what}, this call passes {}", slots.len(), names.len()),
                    ));
                    continue;
                }
                for (n, s) in names.iter().zip(slots) {
                    own.insert((i.scope, *n), *s);
                }
            }
        }
    }
    let mut syms = BTreeMap::new();
    let vars = m
        .globals
        .iter()
        .chain(funcs.iter().flat_map(|f| f.vars.iter()))
        .filter(|v| matches!(v.space, "shared" | "global" | "const" | "local"));
    for v in vars {
        if syms.insert(v.name, next.min(255) as u8).is_some() {
            diags.push(Diagnostic::error(v.span, format!("`{}` is declared twice", v.name)));
        }
        next += 1;
    }
    if next >= lower::SCRATCH {
        diags.push(Diagnostic::error(funcs[0].span, "the parameters and variables need more registers than the machine has"));
        return None;
    }
    Some(Layout { params, syms, next })
}

/// A function's `.reg` declarations, each register by name (`%r<4>` is `%r0`..`%r3`). A
/// register used but not declared (Compiler Explorer's directive filter drops `.reg` lines) is
/// typed by nvcc's naming, with a note saying so.
fn reg_decls(f: &Function, diags: &mut Vec<Diagnostic>) -> types::Decls {
    let mut out = types::Decls::default();
    for v in f.vars.iter().filter(|v| v.space == "reg") {
        if let Some(t) = T::from_name(v.ty) {
            out.declare(v.name, v.count, t);
        }
    }
    let mut inferred = false;
    for i in instrs(f) {
        let names = i.operands.iter().flat_map(|o| match o {
            P::Reg(n) | P::NotReg(n) => alloc::vec![*n],
            P::Pair(a, b) => alloc::vec![*a, *b],
            P::Vector(v) => v.clone(),
            P::Addr { base, .. } => alloc::vec![*base],
            _ => Vec::new(),
        });
        for n in names.chain(i.guard.map(|g| g.0)) {
            if n.starts_with('%') && out.ty(n).is_none() && lower::special(n).is_none() {
                if let Some(t) = by_nvcc_name(n) {
                    out.declare(n, None, t);
                    inferred = true;
                }
            }
        }
    }
    if inferred {
        diags.push(Diagnostic::info(
            f.span,
            "registers used without `.reg` lines (Compiler Explorer's directive filter removes them) are typed by nvcc's names: %r 32-bit, %rd 64-bit, %rs 16-bit, %f float, %fd double, %p predicate",
        ));
    }
    out
}

/// The type nvcc gives registers of this name (`%rd12` is a `.b64`).
fn by_nvcc_name(n: &str) -> Option<T> {
    let prefix = n.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match prefix {
        "%rd" | "%rl" | "%SP" | "%SPL" => T::B64,
        "%rs" => T::B16,
        "%r" => T::B32,
        "%fd" => T::F64,
        "%f" => T::F32,
        "%p" => T::Pred,
        _ => return None,
    })
}

fn reg_ty(t: T) -> Ty {
    Ty::Scalar(match t {
        T::F32 => Scalar::Float,
        T::F64 => Scalar::Double,
        T::S64 => Scalar::Long,
        T::U64 | T::B64 => Scalar::ULong,
        t if t.signed() => Scalar::Int,
        _ => Scalar::Unsigned,
    })
}

/// A header expression made by warpscope, placed at `span` (one that does not parse is
/// warpscope's error, said so, never a panic).
fn located(text: &str, span: Span, diags: &mut Vec<Diagnostic>) -> LocatedExpr {
    let expr = parse_expr(text).unwrap_or_else(|e| {
        diags.push(Diagnostic::error(span, format!("internal error: the input `{text}` made from this line does not read: {}", e.message)));
        parse_expr("0").expect("`0` parses")
    });
    LocatedExpr { expr, span, text: text.to_string() }
}

/// CUDA's vector types (`float4`, `int2`, `uchar4`...) in a demangled type: the scalar and the
/// width.
pub(crate) fn vector_type(text: &str) -> Option<(Scalar, u32)> {
    let name = text.trim_end_matches(['*', ' ', '&']).trim_start_matches("const ").trim_start_matches("volatile ");
    crate::compile::ast::vector_parts(name).map(|(s, n)| (s, n as u32))
}

/// The C scalar a demangled builtin type names.
pub(crate) fn scalar_of(base: &str) -> Scalar {
    match base {
        "float" => Scalar::Float,
        "double" => Scalar::Double,
        "long long" | "long" => Scalar::Long,
        "unsigned long long" | "unsigned long" => Scalar::ULong,
        "unsigned int" => Scalar::Unsigned,
        "unsigned short" => Scalar::UShort,
        "unsigned char" => Scalar::UChar,
        "short" => Scalar::Short,
        "char" | "signed char" => Scalar::Char,
        "bool" => Scalar::Bool,
        _ => Scalar::Int,
    }
}

/// A parameter's C type: from the mangled name when there is one, else from its PTX type (a
/// `.u64` is taken for a pointer, as it nearly always is).
fn param_ty(p: &VarDecl, demangled: Option<&demangle::ParamType>) -> Ty {
    if let Some(d) = demangled {
        let s = d.base.map(scalar_of).or_else(|| vector_type(&d.text).map(|v| v.0)).unwrap_or(Scalar::Int);
        return if d.pointers > 0 { Ty::Ptr(s) } else { Ty::Scalar(s) };
    }
    match T::from_name(p.ty) {
        Some(T::U64 | T::B64 | T::S64) => Ty::Ptr(Scalar::Int),
        Some(T::F32) => Ty::Scalar(Scalar::Float),
        Some(T::F64) => Ty::Scalar(Scalar::Double),
        Some(t) if t.signed() => Ty::Scalar(Scalar::Int),
        _ => Ty::Scalar(Scalar::Unsigned),
    }
}

/// Binds each entry parameter to a `//@ buffer` or `//@ param` (named `argK` or by PTX's own
/// name; made when missing), and each memory variable to a buffer.
fn bind_inputs(k: &mut Kernel, m: &Module, entry: &Function, funcs: &[&Function], layout: &Layout, diags: &mut Vec<Diagnostic>) {
    let threads = k.launch().threads();
    let demangled = demangle(entry.name);
    let own = &layout.params[&entry.name];
    for (n, p) in entry.params.iter().enumerate() {
        let slot = own[&(0, p.name)];
        // The parameter's C type from the mangled name, and the vector type it is or points to.
        let mangled = demangled.as_ref().and_then(|d| d.params.get(n));
        let vector = mangled.and_then(|d| vector_type(&d.text));
        let by_value = vector.filter(|v| mangled.is_some_and(|d| !d.text.contains('*')) && v.0.bytes() <= 4);
        if let (Some(_), Some((s, width))) = (p.array, by_value) {
            bind_vector(k, p, n, (s, width), slot.reg, threads, diags);
            continue;
        }
        if p.array.is_some() {
            // A struct by value: its bytes in one `.param` array, read a field at a time.
            let what = mangled.map_or(String::from("a struct"), |d| format!("a `{}`", d.text));
            diags.push(Diagnostic::error(
                p.span,
                format!(
                    "`{}` is {what} passed by value, as bytes: outside what warpscope binds in PTX. Pass a pointer to it, or run warpscope's own compile of the C (without --nvcc), which takes a struct or vector by value as one param or buffer per field (`A_width`, `A_elements`)",
                    p.name
                ),
            ));
            continue;
        }
        let ty = param_ty(p, mangled);
        let declared = |name: &str| k.buffers.iter().any(|b| b.name == name) || k.params.iter().any(|q| q.name == name);
        let name = if declared(p.name) { p.name.to_string() } else { format!("arg{n}") };
        let wide = T::from_name(p.ty).is_some_and(T::wide);
        let target = match ty {
            Ty::Ptr(_) if wide => InitTarget::Wide { reg: Reg(slot.reg), elem: ElemType::U64 },
            Ty::Scalar(s) if wide => InitTarget::Wide { reg: Reg(slot.reg), elem: super::c::elem_type(s) },
            _ => InitTarget::Reg(Reg(slot.reg)),
        };
        // A pointer to a struct (`Particle*`), or any pointer of an entry whose name is not
        // mangled: no element type is said.
        let to_struct = mangled.is_some_and(|d| d.pointers > 0 && d.base.is_none() && vector.is_none());
        let untyped = to_struct || (mangled.is_none() && ty.is_pointer());
        let bound =
            if untyped { super::c::bind_untyped_pointer(k, &name, p.span, threads) } else { super::c::bind(k, &name, ty, p.span, threads) };
        match bound {
            Ok(value) => k.regs.push(RegInit { target, value, binds: true }),
            Err(msg) => diags.push(Diagnostic::error(p.span, msg)),
        }
        // A pointer to CUDA's vector types (`float4*`) reads `width` elements per thread.
        let width = vector.map_or(1, |v| v.1);
        if let Some(b) = k.buffers.iter_mut().find(|b| b.name == name && b.auto && width > 1) {
            b.len = located(&format!("{}", threads * width as u64), p.span, diags);
        }
    }
    let block = k.launch().block_threads();
    let lanes = k.warp_width;
    let decls = m.globals.iter().chain(funcs.iter().flat_map(|f| f.vars.iter()));
    for v in decls.filter(|v| layout.syms.contains_key(&v.name)) {
        let reg = layout.syms[&v.name];
        let elem = elem_of(v, &m.functions);
        let bytes_per = elem.bytes();
        let bytes = match v.array {
            Some(Some(n)) => n * T::from_name(v.ty).map_or(1, |t| t.bits().div_ceil(8)),
            // An `extern` array's size is the launch's: its dynamic shared bytes (`shared=`), else
            // room for a thread's element of its alignment (nvcc aligns `extern __shared__
            // double s[]` to 16 and addresses it through a register, so the element type may be
            // unknown here).
            Some(None) => k.launch().shared.unwrap_or(block * bytes_per.max(v.align.unwrap_or(1))),
            None => T::from_name(v.ty).map_or(4, |t| t.bits().div_ceil(8)),
        };
        let len = bytes.div_ceil(bytes_per).max(1);
        // A `//@ buffer` line of its name (Kernel inputs writes one for a `.const`'s values or an
        // `extern .shared` array's size) takes its place; a lane's `.local` frame is its own.
        let space = declared_space(v.space);
        if v.space != "local" {
            let what = format!("{space} .{}", v.ty);
            let want = fixed_elem(v, &m.functions);
            let header =
                [Some(v.name), local_static_name(v.name)].into_iter().flatten().find(|n| k.buffers.iter().any(|b| !b.auto && b.name == *n));
            let header = header.unwrap_or(v.name);
            if let Some(taken) = super::c::header_takes_place(k, header, space, v.space == "shared", &what, want, v.span) {
                if let Err(d) = taken {
                    diags.push(d);
                }
                k.regs.push(RegInit { target: InitTarget::Reg(Reg(reg)), value: located(header, v.span, diags), binds: false });
                continue;
            }
        }
        let name = buffer_name(v.name, k);
        let (len, value) = if v.space == "local" {
            // Each lane's own copy, side by side: lane t's starts `t * size` bytes in.
            (len.saturating_mul(lanes), format!("{name} + t * {}", len as u64 * bytes_per as u64))
        } else {
            (len, name.clone())
        };
        let init = global_init(v, elem, diags);
        k.buffers.push(BufferDecl {
            name,
            elem,
            len: located(&format!("{len}"), v.span, diags),
            init,
            auto: true,
            shared: v.space == "shared",
            declared: Some(space),
            sizing: if v.array == Some(None) { Sizing::Launch } else { Sizing::Declared },
            shape: Vec::new(),
        });
        k.regs.push(RegInit { target: InitTarget::Reg(Reg(reg)), value: located(&value, v.span, diags), binds: false });
    }
}

/// A vector passed by value (`uchar4 c`, a `.param .align 4 .b8 k_param_1[4]`): its words,
/// from one param per component (`c_x`..., or `argK_x`), in the parameter's registers.
fn bind_vector(k: &mut Kernel, p: &VarDecl, n: usize, vector: (Scalar, u32), reg: u8, threads: u64, diags: &mut Vec<Diagnostic>) {
    let stem = if k.params.iter().any(|q| q.name.starts_with(&format!("{}_", p.name))) { p.name.to_string() } else { format!("arg{n}") };
    match super::c::vector_words(k, &stem, vector, p.span, threads) {
        Ok(words) => {
            for (w, value) in words.into_iter().enumerate() {
                k.regs.push(RegInit { target: InitTarget::Reg(Reg(reg + w as u8)), value, binds: true });
            }
        }
        Err(msg) => diags.push(Diagnostic::error(p.span, msg)),
    }
}

/// A variable declared in bytes (`.b8`, `.u8`, `.s8`).
fn is_bytes(v: &VarDecl) -> bool {
    T::from_name(v.ty).is_some_and(|t| t.bits() == 8)
}

/// The qualifier of a memory variable's state space, as PTX writes it.
fn declared_space(space: &str) -> &'static str {
    match space {
        "shared" => ".shared",
        "const" => ".const",
        "local" => ".local",
        _ => ".global",
    }
}

/// The buffer a memory variable becomes: its own name where the header's expressions can
/// name it so and nothing else has it (`$str`, `t` or a header buffer's name get `_` in place
/// of what is not a letter, digit or `_`, and a number after).
fn buffer_name(ptx: &str, k: &Kernel) -> String {
    let taken =
        |n: &str| !crate::kernel::is_buffer_name(n) || k.buffers.iter().any(|b| b.name == n) || k.params.iter().any(|p| p.name == n);
    if let Some(local) = local_static_name(ptx).filter(|n| !taken(n)) {
        return local.to_string();
    }
    if !taken(ptx) {
        return ptx.to_string();
    }
    let base: String = ptx.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let base = if base.starts_with(|c: char| c.is_ascii_digit()) { format!("_{base}") } else { base };
    if !taken(&base) {
        return base;
    }
    (2..).map(|n| format!("{base}_{n}")).find(|n| !taken(n)).unwrap_or(base)
}

/// The name C gave a function's static variable, which nvcc mangles with its function's
/// (`_ZZ14MatrixMulTiledPfS_S_iE2Bs` is `MatrixMulTiled`'s `__shared__` array `Bs`; a second
/// of one name ends `_0`).
pub(crate) fn local_static_name(mangled: &str) -> Option<&str> {
    let rest = mangled.strip_prefix("_ZZ")?;
    let (_, tail) = rest.rsplit_once('E')?;
    let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = tail[..digits].parse().ok()?;
    let name = tail.get(digits..digits + len)?;
    let after = &tail[digits + len..];
    let discriminator = after.is_empty() || after.strip_prefix('_').is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()));
    (discriminator && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')).then_some(name)
}

/// A memory variable's element type: what the module's code loads and stores it as (first
/// use, in any function: a module-scope variable another kernel reads is shown as it reads it),
/// or its declared type (`.b8` arrays aligned to words: words).
fn elem_of(v: &VarDecl, funcs: &[Function]) -> ElemType {
    elem_named(access_type(v, funcs).or_else(|| T::from_name(v.ty)), v)
}

/// The element type the module's code or the declaration fixes: none for an array of bytes
/// (`.b8`, how nvcc declares every array) that no instruction names in its access.
fn fixed_elem(v: &VarDecl, funcs: &[Function]) -> Option<ElemType> {
    let t = access_type(v, funcs).or_else(|| T::from_name(v.ty).filter(|_| !is_bytes(v)))?;
    Some(elem_named(Some(t), v))
}

/// The type of the first access of the variable: naming it in its address (`ld.const.f32 %f1,
/// [coef]`), or through a register that holds its address plus an index (`mov.u32 %r5,
/// _ZZ1kPfE2Bs; add.s32 %r7, %r5, %r6; st.shared.f32 [%r7], %f1`, as nvcc indexes an array).
fn access_type(v: &VarDecl, funcs: &[Function]) -> Option<T> {
    funcs.iter().find_map(|f| {
        let derived = registers_holding(v.name, f);
        instrs(f).find_map(|i| {
            if !matches!(i.opcode(), "ld" | "st" | "atom" | "red") {
                return None;
            }
            let named = i.operands.iter().any(|o| matches!(o, P::Addr { base, .. } if *base == v.name));
            let through = i.operands.iter().any(|o| matches!(o, P::Addr { base, .. } if derived.contains(base)));
            let t = i.parts.iter().rev().find_map(|p| T::from_name(p));
            // nvcc loads an `int` as `.u32`: through a register, a word's type says no more than
            // the declaration's words do.
            match (named, through) {
                (true, _) => t,
                (false, true) => t.filter(|t| !matches!(t, T::U32 | T::B32 | T::S32)),
                _ => None,
            }
        })
    })
}

/// The registers of `f` whose value is the address of `name` moved or offset by integer
/// arithmetic (`mov`, `add`, `mad`, `cvta`...), to a fixed point: loops carry them around.
fn registers_holding<'a>(name: &str, f: &Function<'a>) -> BTreeSet<&'a str> {
    let mut held: BTreeSet<&'a str> = BTreeSet::new();
    loop {
        let before = held.len();
        for i in instrs(f).filter(|i| matches!(i.opcode(), "mov" | "add" | "sub" | "mad" | "cvta" | "cvt" | "shl" | "or")) {
            let [P::Reg(dst), sources @ ..] = i.operands.as_slice() else { continue };
            let from = sources.iter().any(|o| match o {
                P::Name(n) => *n == name,
                P::Reg(r) => held.contains(r),
                _ => false,
            });
            if from {
                held.insert(dst);
            }
        }
        if held.len() == before {
            return held;
        }
    }
}

fn elem_named(t: Option<T>, v: &VarDecl) -> ElemType {
    match t {
        Some(T::F32) => ElemType::F32,
        Some(T::F64) => ElemType::F64,
        Some(T::S64) => ElemType::I64,
        Some(T::U64 | T::B64) => ElemType::U64,
        Some(T::U32) => ElemType::U32,
        // nvcc declares every array as `.b8`, aligned as its elements are: a byte array only
        // when aligned to bytes (`char` data, `printf`'s strings).
        Some(T::B8) if v.align.unwrap_or(1) > 2 => ElemType::I32,
        Some(T::B8) if v.align == Some(2) => ElemType::I16,
        Some(T::U8 | T::B8) => ElemType::U8,
        Some(T::S8) => ElemType::I8,
        Some(T::U16 | T::B16) => ElemType::U16,
        Some(T::S16) => ElemType::I16,
        _ => ElemType::I32,
    }
}

/// `= {1, 2, 3}` on a `.global`/`.const` variable, as the buffer's first elements (bytes
/// packed into words when the variable is declared in bytes).
fn global_init(v: &VarDecl, elem: ElemType, diags: &mut Vec<Diagnostic>) -> Option<BufferInit> {
    if v.init.is_empty() {
        return None;
    }
    let values: Vec<String> = if is_bytes(v) {
        // Bytes gathered into the elements the code reads them as, little-endian.
        let b: Vec<u8> = v.init.iter().map(|o| if let P::Int(x) = o { *x as u8 } else { 0 }).collect();
        let per = elem.bytes() as usize;
        let bits = b.chunks(per).map(|c| c.iter().enumerate().fold(0u64, |w, (k, x)| w | (*x as u64) << (8 * k)));
        bits.map(|w| match elem.read_at(&elem.pack([w]), 0) {
            Elem::F32(f) => float_text(f as f64),
            Elem::F64(f) => float_text(f),
            Elem::I64(i64::MIN) => String::from("(-9223372036854775807 - 1)"),
            e => format!("{e}"),
        })
        .collect()
    } else {
        v.init
            .iter()
            .map(|o| match o {
                // The header's integers are 64-bit; its minimum has no literal.
                P::Int(i64::MIN) => String::from("(-9223372036854775807 - 1)"),
                P::Int(x) => format!("{x}"),
                P::Float(f) => float_text(*f),
                _ => String::from("0"),
            })
            .collect()
    };
    Some(BufferInit::List(values.iter().map(|s| located(s, v.span, diags)).collect()))
}

/// A float as a header expression: the header has no literal for NaN or the infinities.
fn float_text(f: f64) -> String {
    if f.is_nan() {
        String::from("0.0 / 0")
    } else if f.is_infinite() {
        String::from(if f > 0.0 { "1.0 / 0" } else { "-1.0 / 0" })
    } else {
        format!("{f:?}")
    }
}

#[cfg(test)]
mod tests;
