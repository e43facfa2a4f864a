//! The CUDA-C compiler: a kernel in a C subset to the ISA, for one of three targets.
//!
//! `lex` and `parse` build the syntax tree (`ast`); `lower` turns each function into blocks of
//! instructions with plain branches (`ir`); `ifconv` optionally predicates short sides;
//! `reconverge` places SSY/SYNC (`kepler`) or BSSY/BSYNC (`volta`) at immediate
//! post-dominators, or nothing (`plain`); `emit` writes a readable listing that the assembler
//! then reads like any other. Like the assembler, `compile` never fails: it returns what it
//! could build and every diagnostic, located in the source.

pub mod ast;
pub(crate) mod contract;
pub(crate) mod emit;
mod groups;
mod ifconv;
pub mod ins;
pub mod ir;
pub(crate) mod lex;
mod lower;
mod macro_body;
pub(crate) mod parse;
mod pre;
pub(crate) mod reconverge;
pub mod structs;
pub mod template;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::diag::{has_errors, Diagnostic, Span};
use crate::program::Program;
use ast::{ExprKind, Function, Ty};
pub use lower::VarInfo;
use lower::{FnSig, Lower, RegAlloc};

/// What code the compiler generates: which reconvergence instructions it places.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Target {
    /// Fermi to Pascal: SSY/SYNC at immediate post-dominators, PBK/BRK, PCNT/CONT, CAL/RET.
    Kepler,
    /// Volta and later: BSSY Bn/BSYNC Bn at immediate post-dominators, WARPSYNC.
    Volta,
    /// Branches only, for models that find reconvergence points themselves.
    Plain,
}

impl Target {
    pub const ALL: &'static [Target] = &[Target::Kepler, Target::Volta, Target::Plain];
    pub fn name(self) -> &'static str {
        match self {
            Target::Kepler => "kepler",
            Target::Volta => "volta",
            Target::Plain => "plain",
        }
    }
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.iter().copied().find(|t| t.name() == name)
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CompileOptions {
    pub target: Target,
    /// Predicate short branch sides instead of branching around them.
    pub if_convert: bool,
    /// Which `__global__` kernel of the file to compile (`//@ kernel NAME`); the first if `None`.
    pub kernel: Option<String>,
    /// Fuse a float multiply and the add that reads it into one FFMA, as nvcc does by default
    /// (`--fmad=true`; `//@ fmad off` is nvcc's `--fmad=false`).
    pub fmad: bool,
    /// Compile the file's host program (`main` and the functions it calls, with the runtime's
    /// calls and launches as `HOST` instructions) instead of a kernel.
    pub host: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { target: Target::Kepler, if_convert: false, kernel: None, fmad: true, host: false }
    }
}

/// A variable in memory of the compiled kernel (`__shared__`, `__constant__`, `__device__`):
/// the buffer that holds it and the register the code expects its address in.
#[derive(Clone, PartialEq, Debug)]
pub struct MemoryArray {
    /// The buffer's name: the variable's, or `function_name` when two functions use one name.
    pub name: String,
    pub space: ast::Space,
    pub elem: ast::Scalar,
    /// Components per element: 1, or a vector type's, or a struct's scalars.
    pub width: u8,
    /// The struct its elements are, if they are one.
    pub strukt: Option<ast::StructRef>,
    /// The initialiser's values (`__constant__ float m[3] = {1, 2, 3}`), each with where it is.
    pub init: Option<Vec<(f64, Span)>>,
    /// Each dimension (`None`: `extern __shared__ x[]`, sized by the launch).
    pub dims: Vec<Option<u32>>,
    pub reg: u8,
    pub span: Span,
    /// The function that declares it (`None`: file scope).
    pub func: Option<String>,
}

impl MemoryArray {
    /// The pointer its name is: to its elements (a vector type's, for a `float3` array).
    pub fn pointer(&self) -> ast::Ty {
        if let Some(r) = self.strukt {
            ast::Ty::StructPtr(r)
        } else if self.width > 1 {
            ast::Ty::VecPtr(self.elem, self.width)
        } else {
            ast::Ty::Ptr(self.elem)
        }
    }
    /// Elements, with an open first dimension counted as `open`.
    pub fn len(&self, open: u32) -> u32 {
        self.dims.iter().map(|d| d.unwrap_or(open)).product()
    }
    /// Its dimensions after the first, for naming an element as the source does (`tile[0][1]`);
    /// none when an element is several scalars (a vector or struct), which the buffer counts apart.
    pub fn shape(&self) -> Vec<u32> {
        if self.width != 1 {
            return Vec::new();
        }
        self.dims.iter().skip(1).map(|d| d.unwrap_or(1)).collect()
    }
}

/// A kernel parameter and the register the compiled code expects it in.
#[derive(Clone, PartialEq, Debug)]
pub struct KernelParam {
    pub name: String,
    pub ty: Ty,
    pub reg: u8,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Compiled {
    pub options: CompileOptions,
    pub kernel: String,
    /// Every `__global__` kernel of the file, in order (a front end offers the choice).
    pub kernels: Vec<String>,
    pub params: Vec<KernelParam>,
    /// Every `__shared__`, `__constant__` and `__device__` variable the code uses.
    pub arrays: Vec<MemoryArray>,
    /// Every C variable with its register and the source lines where it lives.
    pub vars: Vec<VarInfo>,
    /// The generated assembly listing.
    pub listing: String,
    /// The assembled program; its `lines` are lines of the C source.
    pub program: Program,
    /// For each instruction, its line in `listing`.
    pub listing_lines: Vec<u32>,
    /// The file's structs, for the parameters of struct types.
    pub structs: structs::Structs,
    /// A host program's: the register `main`'s `return` leaves its value in.
    pub exit_reg: Option<u8>,
}

/// True when a kernel file holds CUDA C rather than assembly: it defines a `__global__` function.
pub fn is_cuda_source(text: &str) -> bool {
    text.lines().any(|l| {
        let code = l.split("//").next().unwrap_or("");
        code.contains("__global__")
    })
}

/// True when a CUDA C file is a whole program: it defines `main` (outside comments and
/// `#if`-dropped lines), so its host code runs (`crate::host`) unless only a kernel is asked for.
pub fn defines_main(src: &str) -> bool {
    if !is_cuda_source(src) {
        return false;
    }
    let (toks, _) = pre::preprocess(lex::lex(src).0);
    toks.windows(3).any(|w| {
        matches!(&w[0].tok, lex::Tok::Ident(t) if t == "int" || t == "void")
            && matches!(&w[1].tok, lex::Tok::Ident(m) if m == "main")
            && w[2].tok == lex::Tok::Punct("(")
    })
}

pub fn compile(src: &str, opts: CompileOptions) -> (Option<Compiled>, Vec<Diagnostic>) {
    let (toks, mut diags) = lex::lex(src);
    let (toks, mut d) = pre::preprocess(toks);
    diags.append(&mut d);
    let (toks, mut d) = groups::rewrite(toks);
    diags.append(&mut d);
    let toks = if opts.host { parse::without_std(&toks) } else { toks };
    let mut parser = parse::Parser::cuda(&toks, src);
    parser.host = opts.host;
    let mut unit = parser.unit();
    diags.append(&mut parser.diags);
    // Every kernel, templates among them, in source order: the first runs unless one is named.
    let mut entries: Vec<(Span, String, bool)> = unit.funcs.iter().filter(|f| f.kernel).map(|f| (f.span, f.name.clone(), false)).collect();
    entries.extend(unit.templates.iter().filter(|t| t.kernel).map(|t| (t.span, t.name.clone(), true)));
    entries.sort_by_key(|e| (e.0.line, e.0.col));
    let names: Vec<String> = entries.iter().map(|e| e.1.clone()).collect();
    let base = |w: &str| w.split('<').next().unwrap_or(w).trim().to_string();
    let main = unit.funcs.iter().find(|f| f.host && f.name == "main").map(|f| (f.span, f.name.clone(), false));
    let entry = match (&opts.kernel, entries.first()) {
        _ if opts.host => match main {
            Some(m) => m,
            None => {
                diags.push(Diagnostic::error(Span::new(1, 1, 1), "no `main` in this file: there is no host program to run"));
                return finish(None, diags);
            }
        },
        (Some(want), _) => match entries.iter().find(|e| e.1 == *want || (e.2 && e.1 == base(want))) {
            Some(e) => e.clone(),
            None => {
                let known = if names.is_empty() { String::from("none") } else { names.join(", ") };
                diags.push(Diagnostic::error(
                    Span::new(1, 1, 1),
                    format!("no `__global__` kernel named `{want}` in this file (kernels: {known})"),
                ));
                return finish(None, diags);
            }
        },
        (None, Some(e)) => e.clone(),
        (None, None) => {
            if !has_errors(&diags) {
                diags.push(Diagnostic::error(Span::new(1, 1, 1), "no `__global__` kernel in this file"));
            }
            return finish(None, diags);
        }
    };
    // Each template's defaults, read once; lowering also deduces calls' arguments from them.
    let deductions: Vec<template::Deduction> = unit.templates.iter().map(|t| deduction(&parser, t)).collect();
    let mut wanted = core::mem::take(&mut parser.wanted);
    let chosen = match &entry {
        (span, name, true) => {
            let given = kernel_template_args(&toks, name, opts.kernel.as_deref(), &mut diags);
            let def = unit.templates.iter().zip(&deductions).find(|(t, _)| t.name == *name);
            let Some((args, given)) =
                given.zip(def).and_then(|(a, def)| Some((complete_args(def, a.clone(), *span, &mut diags)?, a.len())))
            else {
                return finish(None, diags);
            };
            let instance = template::instance_name(name, &args, &parser.structs);
            if given < args.len() {
                diags.push(Diagnostic::info(
                    *span,
                    format!("`{name}` is a template: running `{instance}`, with its defaults (the host code names no arguments warpscope can read; name others with `//@ kernel {name}<...>`)"),
                ));
            }
            wanted.push(template::Wanted { name: name.clone(), args, span: *span });
            instance
        }
        (_, name, false) => name.clone(),
    };
    let mut funcs = unit.funcs;
    instantiate(&mut parser, &unit.templates, &deductions, wanted, &mut funcs, &mut diags);
    let Some(kernel) = funcs.iter().find(|f| f.name == chosen) else { return finish(None, diags) };
    // Two kernels of one name are an error below; a note needs another name to offer.
    if let Some(other) = names.iter().find(|n| **n != entry.1).filter(|_| !opts.host) {
        diags.push(Diagnostic::info(
            kernel.span,
            format!("this file has {} kernels: running `{}` (choose another with `//@ kernel {other}`)", names.len(), kernel.name),
        ));
    }
    for h in unit.host.iter().filter(|_| !opts.host) {
        let what = h.name.as_ref().map_or(String::new(), |n| format!(" (`{n}`)"));
        let lines =
            if h.last_line > h.span.line { format!("lines {}-{}", h.span.line, h.last_line) } else { format!("line {}", h.span.line) };
        diags.push(Diagnostic::info(
            Span::new(h.span.line, h.span.col, 1),
            format!("host code skipped{what}, {lines}: warpscope runs the kernel"),
        ));
    }
    let mut seen = BTreeSet::new();
    for f in &funcs {
        if !seen.insert(f.name.as_str()) {
            diags.push(Diagnostic::error(f.span, format!("function `{}` is defined twice", f.name)));
        }
    }
    // Lowered again while calls name template instances not made yet (`twice(x)`).
    let mut roots = BTreeSet::new();
    let (pass, kernel) = loop {
        check_recursion(&funcs, &mut diags);
        if has_errors(&diags) {
            return finish(None, diags);
        }
        let Some(kernel) = funcs.iter().find(|f| f.name == chosen) else { return finish(None, diags) };
        // Template instances may have made struct instances (`SharedMemory<int>`).
        unit.structs = parser.structs.clone();
        let file = FileContext { memory: &unit.memory, structs: &unit.structs, deductions: &deductions, src, opts: &opts };
        let pass = lower_all(&funcs, kernel, &roots, &file);
        if pass.deduced.is_empty() && pass.needed.is_empty() {
            break (pass, kernel);
        }
        let (before, roots_before) = (funcs.len(), roots.len());
        roots.extend(pass.deduced.iter().map(|w| template::instance_name(&w.name, &w.args, &parser.structs)));
        // Member functions a call needs (a constructor, an operator) join the next pass.
        roots.extend(pass.needed.iter().cloned());
        instantiate(&mut parser, &unit.templates, &deductions, pass.deduced, &mut funcs, &mut diags);
        if funcs.len() == before && roots.len() == roots_before {
            diags.extend(pass.diags);
            if let (false, Some(name)) = (has_errors(&diags), pass.needed.first()) {
                diags.push(Diagnostic::error(
                    Span::new(1, 1, 1),
                    format!("internal compiler error: `{name}` is called but was not compiled"),
                ));
            }
            return finish(None, diags);
        }
    };
    let LoweredAll { listing, vars, sigs, arrays, diags: mut d, .. } = pass;
    diags.append(&mut d);
    if has_errors(&diags) {
        return finish(None, diags);
    }
    let emit::Assembled { program, listing_lines, text } = match listing.finish() {
        Ok(a) => a,
        Err(errors) => {
            diags.extend(errors.into_iter().map(|e| Diagnostic::error(kernel.span, format!("internal compiler error: generated {e}"))));
            return finish(None, diags);
        }
    };
    let params = kernel
        .params
        .iter()
        .zip(&sigs[&kernel.name].params)
        .map(|(p, (ty, reg))| KernelParam { name: p.name.clone(), ty: *ty, reg: *reg, span: p.span })
        .collect();
    let out = Compiled {
        options: opts.clone(),
        kernel: kernel.name.clone(),
        kernels: names,
        params,
        arrays,
        vars,
        listing: text,
        program,
        listing_lines,
        structs: unit.structs.clone(),
        exit_reg: sigs[&kernel.name].ret_reg.filter(|_| opts.host),
    };
    finish(Some(out), diags)
}

/// The template kernel's arguments: `//@ kernel name<...>`'s, else the host's launch's, else
/// none (the defaults fill them in).
fn kernel_template_args(
    toks: &[lex::Token],
    name: &str,
    named: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<template::TemplateArg>> {
    if let Some(args) = named.and_then(|w| w.split_once('<')).map(|(_, a)| a.trim_end().trim_end_matches('>')) {
        let parsed = template::literal_args(args);
        if parsed.is_none() {
            diags.push(Diagnostic::error(
                Span::new(1, 1, 1),
                format!("`//@ kernel {name}<{args}>`: each template argument is a number or a type"),
            ));
        }
        return parsed;
    }
    Some(template::host_launch_args(toks, name).unwrap_or_default())
}

/// One lowering of the kernel and every function it calls (and the deduced instances
/// `roots`): the listing, and the instances its calls need that are not made yet.
struct LoweredAll {
    listing: emit::Listing,
    vars: Vec<VarInfo>,
    sigs: BTreeMap<String, FnSig>,
    arrays: Vec<MemoryArray>,
    diags: Vec<Diagnostic>,
    deduced: Vec<template::Wanted>,
    needed: Vec<String>,
}

/// What every function of a file is lowered with.
struct FileContext<'a> {
    memory: &'a [ast::MemoryDecl],
    structs: &'a structs::Structs,
    deductions: &'a [template::Deduction],
    src: &'a str,
    opts: &'a CompileOptions,
}

fn lower_all(funcs: &[Function], kernel: &Function, roots: &BTreeSet<String>, file: &FileContext) -> LoweredAll {
    let FileContext { memory, structs, deductions, src, opts } = *file;
    let mut diags = Vec::new();
    // The kernel first (it starts at pc 0), then the device functions it calls, in source order.
    let mut called = reachable(funcs, &kernel.name);
    for f in funcs.iter().filter(|f| roots.contains(&f.name)) {
        called.insert(f.name.as_str());
        called.extend(reachable(funcs, &f.name));
    }
    let ordered: Vec<&Function> =
        core::iter::once(kernel).chain(funcs.iter().filter(|f| !f.kernel && called.contains(f.name.as_str()))).collect();
    let (mut sigs, mut first_local) = signatures(&ordered, &mut diags);
    if opts.host {
        // What a launch passes each kernel: its parameters' types (the kernels are not lowered).
        let kernels: Vec<&Function> = funcs.iter().filter(|f| f.kernel).collect();
        sigs.extend(signatures(&kernels, &mut diags).0);
    }
    let arrays = memory_arrays(memory, &ordered, &mut first_local, &mut diags);
    let source: Vec<&str> = src.lines().collect();
    let mut listing = emit::Listing::default();
    listing.comment(&format!(
        "{} code for `{}`, compiled by warpscope{}",
        opts.target.name(),
        kernel.name,
        if opts.if_convert { " with if-conversion" } else { "" }
    ));
    let mut base = first_local;
    let mut vars = Vec::new();
    let mut deduced = Vec::new();
    let mut needed = Vec::new();
    for f in &ordered {
        let sig = &sigs[&f.name];
        let lower = Lower::new(opts.target, &sigs, sig, &arrays, RegAlloc::starting_at(base)).for_host(opts.host);
        let mut l = lower.with_templates(deductions).with_structs(structs).function(f);
        if opts.fmad {
            let named: Vec<(u8, u32, u32)> = l.vars.iter().map(|v| (v.reg, v.first_line, v.last_line)).collect();
            contract::contract(&mut l.func, &named);
        }
        vars.append(&mut l.vars);
        base = l.regs.high;
        diags.append(&mut l.diags);
        deduced.append(&mut l.deduced);
        needed.append(&mut l.needed);
        if opts.if_convert {
            ifconv::if_convert(&mut l.func);
        }
        if let Err(msg) = reconverge::place(&mut l.func, opts.target) {
            diags.push(Diagnostic::error(f.span, msg));
        }
        emit::emit_func(&l.func, opts.target, &source, &mut listing);
    }
    LoweredAll { listing, vars, sigs, arrays, diags, deduced, needed }
}

/// What lowering needs to deduce a template's arguments at a call: its parameters' defaults,
/// and which function parameter gives which type parameter.
fn deduction(parser: &parse::Parser, t: &template::TemplateDef) -> template::Deduction {
    let params = t
        .params
        .iter()
        .map(|p| {
            let mut toks = p.default.clone();
            toks.push(lex::Token { tok: lex::Tok::Eof, span: t.span });
            let default = if p.default.is_empty() { None } else { parser.for_instance(&toks).template_arg(p.is_type) };
            (p.name.clone(), default)
        })
        .collect();
    template::Deduction { name: t.name.clone(), params, from_args: t.deduced_from() }
}

/// A template's arguments with the defaults after those given, each of the kind its parameter
/// takes (`None`, with the error, when one is missing or of the wrong kind).
fn complete_args(
    (def, deduction): (&template::TemplateDef, &template::Deduction),
    mut args: Vec<template::TemplateArg>,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<template::TemplateArg>> {
    let name = &def.name;
    for (p, (_, default)) in def.params.iter().zip(&deduction.params).skip(args.len()) {
        match default {
            Some(a) => args.push(*a),
            None => {
                let how = if def.kernel { format!("name it with `//@ kernel {name}<...>`") } else { format!("call `{name}<...>(...)`") };
                diags.push(Diagnostic::error(
                    span,
                    format!("`{name}` needs its template argument `{}`, which has no default: {how}", p.name),
                ));
                return None;
            }
        }
    }
    let kinds_match = args.len() == def.params.len()
        && args.iter().zip(&def.params).all(|(a, p)| matches!(a, template::TemplateArg::Type(_)) == p.is_type);
    if !kinds_match {
        let want: Vec<&str> = def.params.iter().map(|p| if p.is_type { "a type" } else { "a constant" }).collect();
        diags.push(Diagnostic::error(span, format!("`{name}` takes {} template argument(s): {}", def.params.len(), want.join(", "))));
        return None;
    }
    Some(args)
}

/// Parses every instance the calls name (and the instances those name, up to
/// `template::MAX_INSTANCES`), each a function of `funcs`. Missing arguments take the template's
/// defaults.
fn instantiate(
    parser: &mut parse::Parser,
    templates: &[template::TemplateDef],
    deductions: &[template::Deduction],
    mut wanted: Vec<template::Wanted>,
    funcs: &mut Vec<Function>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut made = 0;
    while let Some(w) = wanted.pop() {
        let Some((def, deduction)) = templates.iter().zip(deductions).find(|(t, _)| t.name == w.name) else { continue };
        let Some(args) = complete_args((def, deduction), w.args, w.span, diags) else { return };
        let name = template::instance_name(&w.name, &args, &parser.structs);
        if funcs.iter().any(|f| f.name == name) {
            continue;
        }
        made += 1;
        if made > template::MAX_INSTANCES {
            diags.push(Diagnostic::error(
                w.span,
                format!(
                    "more than {} template instances: does a template instantiate itself with ever new arguments?",
                    template::MAX_INSTANCES
                ),
            ));
            return;
        }
        let mut toks = template::substitute(def, &args, &parser.structs);
        toks.push(lex::Token { tok: lex::Tok::Eof, span: def.span });
        let mut p = parser.for_instance(&toks);
        match p.instance_function() {
            Ok(f) => funcs.push(f),
            Err(d) => diags.push(d),
        }
        // The struct instances it made, and their member functions.
        parser.structs = p.structs.clone();
        funcs.append(&mut p.made_funcs);
        diags.append(&mut p.diags);
        wanted.append(&mut p.wanted);
    }
}

/// The device functions `kernel` calls, directly or through others.
fn reachable<'f>(funcs: &'f [Function], kernel: &str) -> BTreeSet<&'f str> {
    let mut seen = BTreeSet::new();
    let mut todo = alloc::vec![kernel];
    while let Some(name) = todo.pop() {
        let Some(f) = funcs.iter().find(|f| f.name == name) else { continue };
        for s in &f.body {
            lower::walk_stmt_exprs(s, &mut |e| {
                lower::walk_expr(e, &mut |x| {
                    if let ExprKind::Call { name, .. } = &x.kind {
                        if let Some(g) = funcs.iter().find(|g| &g.name == name) {
                            if seen.insert(g.name.as_str()) {
                                todo.push(g.name.as_str());
                            }
                        }
                    }
                })
            });
        }
    }
    seen
}

/// Every `__shared__` variable the compiled functions see, each given a register for its
/// address (after the parameters'). Two functions' variables of one name get distinct buffers.
fn memory_arrays(file: &[ast::MemoryDecl], funcs: &[&Function], next: &mut u32, diags: &mut Vec<Diagnostic>) -> Vec<MemoryArray> {
    let mut decls: Vec<(Option<String>, ast::MemoryDecl)> = file.iter().map(|d| (None, d.clone())).collect();
    for f in funcs {
        for s in &f.body {
            lower::walk_stmts(s, &mut |st| {
                if let ast::StmtKind::Shared(ds) = &st.kind {
                    decls.extend(ds.iter().map(|d| (Some(f.name.clone()), d.clone())));
                }
            });
        }
    }
    let mut out: Vec<MemoryArray> = Vec::new();
    for (func, d) in decls {
        if *next > 254 {
            diags.push(Diagnostic::error(d.span, "out of registers for variables in memory"));
            break;
        }
        let taken = out.iter().any(|a| a.name == d.name);
        let name = match (&func, taken) {
            (Some(f), true) => format!("{f}_{}", d.name),
            _ => d.name.clone(),
        };
        if out.iter().any(|a| a.name == name) {
            diags.push(Diagnostic::error(d.span, format!("variable `{}` is declared twice", d.name)));
            continue;
        }
        // A bad initialiser is reported; the variable stays declared, so its uses raise no more.
        let init = initial_values(&d, diags).unwrap_or(None);
        out.push(MemoryArray {
            name,
            space: d.space,
            elem: d.elem,
            width: d.width,
            strukt: d.strukt,
            init,
            dims: d.dims,
            reg: *next as u8,
            span: d.span,
            func,
        });
        *next += 1;
    }
    out
}

/// A declaration's initialiser as numbers: each a constant, no more of them than elements.
fn initial_values(d: &ast::MemoryDecl, diags: &mut Vec<Diagnostic>) -> Option<Option<Vec<(f64, Span)>>> {
    let Some(values) = &d.init else { return Some(None) };
    let len: u32 = d.dims.iter().map(|n| n.unwrap_or(1)).product();
    if values.len() > len as usize {
        let extra = &values[len as usize];
        diags
            .push(Diagnostic::error(extra.span, format!("`{}` holds {len} element(s) but the initialiser gives {}", d.name, values.len())));
        return None;
    }
    let mut out = Vec::new();
    for v in values {
        let Some(x) = parse::const_number(v) else {
            diags.push(Diagnostic::error(v.span, format!("`{}`'s initial values are constants (numbers or `#define`s)", d.name)));
            return None;
        };
        out.push((x, v.span));
    }
    Some(Some(out))
}

fn finish(out: Option<Compiled>, mut diags: Vec<Diagnostic>) -> (Option<Compiled>, Vec<Diagnostic>) {
    diags.sort_by_key(|d| (d.span.line, d.span.col));
    diags.dedup();
    (out, diags)
}

/// Every function's parameter and result registers, numbered from R0: the kernel's parameters
/// first, so the header binds them to the lowest registers. Returns where locals may start.
fn signatures(funcs: &[&Function], diags: &mut Vec<Diagnostic>) -> (BTreeMap<String, FnSig>, u32) {
    let mut sigs = BTreeMap::new();
    let mut next = 0u32;
    for f in funcs {
        let mut params = Vec::new();
        for p in &f.params {
            if next + p.ty.registers() as u32 > 254 {
                diags.push(Diagnostic::error(p.span, "out of registers for parameters"));
                break;
            }
            // A 64-bit parameter takes a register pair, a vector one per component.
            params.push((p.ty, next as u8));
            next += p.ty.registers() as u32;
        }
        let ret_reg = if f.ret != Ty::Void && next + f.ret.registers() as u32 <= 254 {
            next += f.ret.registers() as u32;
            Some((next - f.ret.registers() as u32) as u8)
        } else {
            None
        };
        let name = template::label_safe(&f.name);
        let label = if f.kernel { format!(".L_{name}") } else { format!(".L_fn_{name}") };
        let by_ref = f.params.iter().map(|p| p.by_ref).collect();
        let defaults = f.params.iter().map(|p| p.default.clone()).collect();
        sigs.insert(
            f.name.clone(),
            // A program's `main` is its entry, as a kernel is a kernel's.
            FnSig {
                name: f.name.clone(),
                kernel: f.kernel || (f.host && f.name == "main"),
                label,
                ret: f.ret,
                params,
                by_ref,
                defaults,
                ret_reg,
                span: f.span,
            },
        );
    }
    (sigs, next)
}

/// Device functions share no stack, so a call cycle cannot run: reject it, naming the call.
fn check_recursion(funcs: &[Function], diags: &mut Vec<Diagnostic>) {
    let mut calls: BTreeMap<&str, Vec<(String, Span)>> = BTreeMap::new();
    for f in funcs {
        let list = calls.entry(f.name.as_str()).or_default();
        for s in &f.body {
            lower::walk_stmt_exprs(s, &mut |e| {
                lower::walk_expr(e, &mut |x| {
                    if let ExprKind::Call { name, .. } = &x.kind {
                        list.push((name.clone(), x.span));
                    }
                })
            });
        }
    }
    for f in funcs {
        // Depth-first search from f's callees back to f.
        let mut stack: Vec<(&str, Span)> = calls[f.name.as_str()].iter().map(|(n, s)| (n.as_str(), *s)).collect();
        let mut seen = BTreeSet::new();
        while let Some((name, span)) = stack.pop() {
            if name == f.name {
                diags.push(Diagnostic::error(span, format!("`{}` calls itself (directly or through other functions): recursion needs a call stack, which this machine does not model", f.name)));
                break;
            }
            if seen.insert(name) {
                if let Some(next) = calls.get(name) {
                    stack.extend(next.iter().map(|(n, _)| (n.as_str(), span)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
