//! Real SASS: what `cuobjdump -sass`, `nvdisasm` and Compiler Explorer's SASS pane print for
//! sm_75 to sm_120. The dump is read (`syntax`), the constant bank placed for its architecture
//! (`bank`), and each instruction turned into the machine's (`lower`): most are the machine's
//! own with their operands placed, a few become short sequences. The program keeps the dump's
//! reconvergence instructions (`BSSY`/`BSYNC`/`BREAK`, `WARPSYNC`), and nothing is inserted: the
//! constant bank's words are registers set before the first instruction.

mod bank;
mod bank3;
mod device;
mod lower;
mod syntax;
mod vprintf;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ptx::{demangle, Demangled};
use super::{CompiledSource, InputKind, Language, SourceOptions};
use crate::asm::{Builder, Operand};
use crate::compile::ast::{Scalar, Ty};
use crate::compile::Target;
use crate::diag::{has_errors, Diagnostic, Span};
use crate::isa::{Guard, Reg};
use crate::kernel::{InitTarget, Kernel, RegInit};
use crate::machine::{ElemType, Sizing};
use lower::{Emitted, Lower, Places};
use syntax::{Dump, Function};

pub use device::{device_kernel, DeviceSass};
pub use syntax::looks_like_sass;

/// Real SASS, told apart by what only a disassembler prints (see `looks_like_sass`).
pub struct Sass;

impl Language for Sass {
    fn kind(&self) -> InputKind {
        InputKind::Sass
    }
    fn detects(&self, text: &str) -> bool {
        looks_like_sass(text)
    }
    fn read(&self, text: &str, k: &mut Kernel, _opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
        read(text, k, diags);
    }
}

fn read(text: &str, k: &mut Kernel, diags: &mut Vec<Diagnostic>) {
    let dump = syntax::parse(text, diags);
    if has_errors(diags) {
        return;
    }
    let names: Vec<String> = dump.functions.iter().map(|f| display_name(f.name)).collect();
    let Some(kernel) = pick(&dump, &names, k, diags) else { return };
    let Some(whole) = with_callees(&dump, kernel, diags) else { return };
    let f = &whole;
    let Some((bank, arch)) = architecture(&dump, f, diags) else { return };
    // Every architecture read here reconverges with convergence barriers (BSSY/BSYNC).
    k.arch_model = Some((crate::model::ModelKind::Volta, arch.clone(), f.span));
    let Some(t) = translate(&dump, f, (bank, &arch), Some(k), diags) else { return };
    let Translated { program, listing, places, params, .. } = t;
    bind_params(k, &params, &places, f.span, diags);
    // The launch's words of the constant bank, set before the first instruction as the driver
    // sets them (no instruction runs for them, so counts match the hardware's).
    let launch = k.launch.map(|l| [l.grid, l.block]);
    let frame = lower::local_frame(f);
    if let Some(bytes) = frame.filter(|b| *b > lower::MAX_LOCAL_FRAME) {
        diags.push(Diagnostic::error(
            f.span,
            format!("the kernel takes {bytes} bytes of local memory a lane; warpscope holds up to {} KiB", lower::MAX_LOCAL_FRAME / 1024),
        ));
        return;
    }
    if let Some(bytes) = frame {
        local_memory(k, bytes, f.span, diags);
    }
    for (reg, text) in places.launch_words(launch, frame) {
        match crate::kernel::expr::parse_expr(&text) {
            Ok(expr) => k.regs.push(RegInit {
                target: InitTarget::Reg(Reg(reg)),
                value: crate::kernel::LocatedExpr { expr, span: f.span, text },
                binds: false,
            }),
            Err(e) => diags.push(Diagnostic::error(f.span, format!("internal error: `{text}`: {}", e.message))),
        }
    }
    // Each `__constant__` variable's base, in the register bank-3 reads load through.
    for v in &places.bank3 {
        match crate::kernel::expr::parse_expr(&v.name) {
            Ok(expr) => k.regs.push(RegInit {
                target: InitTarget::Reg(Reg(v.reg)),
                value: crate::kernel::LocatedExpr { expr, span: f.span, text: v.name.clone() },
                binds: false,
            }),
            Err(e) => diags.push(Diagnostic::error(f.span, format!("internal error: `{}`: {}", v.name, e.message))),
        }
    }
    if f.instrs.iter().any(|i| matches!(i.opcode(), "LDS" | "STS" | "ATOMS")) {
        let declared = dump.shared.iter().find(|(name, _)| *name == kernel.name).map(|&(_, bytes)| bytes.saturating_sub(bank.shared));
        shared_memory(k, declared, f.span, diags);
    }
    let has_cuda = listing.cuda.iter().any(|&l| l > 0);
    k.program = program;
    k.compiled = Some(CompiledSource {
        target: Target::Volta,
        if_convert: false,
        listing: listing.text,
        listing_lines: listing.lines,
        kernels: names,
        vars: Vec::new(),
        input: InputKind::Sass,
        cuda_lines: if has_cuda { listing.cuda } else { Vec::new() },
        cuda_file: if has_cuda { f.cuda_file.map(|p| p.rsplit('/').next().unwrap_or(p).to_string()) } else { None },
        entry: Some(f.name.to_string()),
        running: Some(display_name(f.name)),
    });
}

/// The architecture of `f`'s dump (said by its `code for` line, else guessed) and its bank
/// layout; `None` (an error said) for one warpscope does not read.
fn architecture(dump: &Dump, f: &Function, diags: &mut Vec<Diagnostic>) -> Option<(bank::Bank, String)> {
    let arch = dump.arch.map(String::from).unwrap_or_else(|| {
        let guessed = guess_arch(f);
        diags.push(Diagnostic::info(f.span, format!("no `code for sm_XY` line: read as {guessed} from its constant-bank offsets")));
        guessed.to_string()
    });
    match bank::bank(&arch) {
        Some(b) => Some((b, arch)),
        None => {
            diags.push(Diagnostic::error(f.span, format!("`{arch}`: warpscope reads SASS of sm_75 to sm_120")));
            None
        }
    }
}

/// A function of a dump as the machine runs it: its program, the listing beside it, and where
/// each constant-bank word it reads is held.
struct Translated {
    program: crate::program::Program,
    listing: Listing,
    places: Places,
    params: Vec<Param>,
}

/// `f` (with its callees) translated for `bank`'s layout; `headers`, the kernel file whose
/// buffers hold its `__constant__` variables (none: a function that reads them is an error).
fn translate(
    dump: &Dump,
    f: &Function,
    (bank, arch): (bank::Bank, &str),
    headers: Option<&Kernel>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Translated> {
    let used_preds = match lower::check_own_registers(f) {
        Ok(used) => used,
        Err((at, msg)) => {
            let span = f.instrs.get(at).map_or(f.span, |i| i.span);
            diags.push(Diagnostic::error(span, msg));
            return None;
        }
    };
    let demangled = demangle(f.name);
    let params = match param_layout(demangled.as_ref()) {
        Ok(params) => params,
        Err(msg) => {
            diags.push(Diagnostic::error(f.span, msg));
            return None;
        }
    };
    let param_bytes = params.last().map_or(0, |p| p.offset + p.bytes);
    let places = match Places::new(f, bank, param_bytes, used_preds) {
        Ok(mut p) => {
            p.bank2 = dump.bank2.iter().find(|(name, _)| *name == f.name).map(|(_, b)| b.clone()).unwrap_or_default();
            if reads_bank3(f) {
                let Some(k) = headers else {
                    let msg = "the kernel reads `__constant__` variables (constant bank 3): a program's kernels from SASS do not run them yet; drop `--sass` to run warpscope's compile of the C";
                    diags.push(Diagnostic::error(f.span, msg));
                    return None;
                };
                p.bank3 = bank3::layout(k, lower::CONST_BASE + p.consts.len() as u8);
                if p.consts.len() + p.bank3.len() > lower::CONST_COUNT {
                    let msg = format!(
                        "the kernel reads {} words of its parameter bank and {} `__constant__` variables; warpscope holds {} together",
                        p.consts.len(),
                        p.bank3.len(),
                        lower::CONST_COUNT
                    );
                    diags.push(Diagnostic::error(f.span, msg));
                    return None;
                }
            }
            p
        }
        Err((span, msg)) => {
            diags.push(Diagnostic::error(span, msg));
            return None;
        }
    };
    // First every instruction's machine form (collecting the addresses branched to by number),
    // then the program, with labels where they stand.
    let jump_tables = f.instrs.iter().any(|i| matches!(i.opcode(), "BRX" | "JMX"));
    let printf_formats = vprintf::formats(f, dump);
    let mut lower = Lower { places: &places, addr_targets: Vec::new(), jump_tables, printf_formats };
    let mut forms: Vec<Vec<Emitted>> = Vec::with_capacity(f.instrs.len());
    for i in &f.instrs {
        match lower.instr(i) {
            Ok(v) => forms.push(v),
            Err(msg) => {
                diags.push(Diagnostic::error(i.span, msg));
                forms.push(Vec::new());
            }
        }
    }
    // Every code target names a label of this function or an instruction's address.
    let addrs: Vec<u32> = f.instrs.iter().map(|i| i.addr).collect();
    for (i, form) in f.instrs.iter().zip(&forms) {
        for op in form.iter().flat_map(|(_, ops)| ops) {
            let Operand::Label(l) = op else { continue };
            let label_at = f.labels.iter().find(|(name, _)| name == l).map(|&(_, at)| at);
            let known = label_at.is_some_and(|at| at < f.instrs.len())
                || lower.addr_targets.iter().any(|&a| lower::addr_label(a) == *l && addrs.contains(&a));
            if !known {
                let to = l.strip_prefix('@').filter(|_| lower.addr_targets.iter().any(|&a| lower::addr_label(a) == *l));
                let msg = match (to, label_at) {
                    (Some(addr), _) => format!("`{}` goes to {addr}, where no instruction of this function stands", original(i)),
                    (None, Some(_)) => format!("`{}` goes to `{l}`, past the function's last instruction", original(i)),
                    (None, None) => format!("`{}` goes to `{l}`, which is no label of this function", original(i)),
                };
                diags.push(Diagnostic::error(i.span, msg));
            }
        }
    }
    if has_errors(diags) {
        return None;
    }
    let mut b = Builder::default();
    let mut listing = Listing::default();
    listing.comment(&format!("{arch} code for `{}`, as warpscope runs it", display_name(f.name)));
    for (k_i, (i, form)) in f.instrs.iter().zip(&forms).enumerate() {
        for (l, _) in f.labels.iter().filter(|(_, at)| *at == k_i) {
            listing.label(&mut b, l);
        }
        if lower.addr_targets.contains(&i.addr) {
            listing.label(&mut b, &lower::addr_label(i.addr));
        }
        listing.comment(&format!("/*{:04x}*/ {}", i.addr, original(i)));
        let guard = match i.guard {
            Some((p, negated)) => match lower::guard_pred(p) {
                Some(pred) => Some(Guard { pred, negated }),
                None => {
                    diags.push(Diagnostic::error(i.span, format!("`@{p}` is not a predicate")));
                    continue;
                }
            },
            None => None,
        };
        // Each machine instruction at the SASS instruction's address, a sequence's spread
        // within its 16 bytes, so the graph and the trace show the dump's addresses.
        let step = if form.len() <= 4 { 4 } else { 1 };
        for (k, (mnemonic, ops)) in form.iter().enumerate() {
            b.at(i.addr + step * k as u32);
            if k > 0 {
                b.continues();
            } else if form.len() > 1 {
                b.sequence_of(guard);
            }
            // A mnemonic with its own guard (`@P5 BRA`; `@PT`: none) in place of the SASS's.
            let (guard, mnemonic) = match mnemonic.strip_prefix('@').and_then(|m| m.split_once(' ')) {
                Some((g, rest)) => {
                    let (name, negated) = g.strip_prefix('!').map_or((g, false), |n| (n, true));
                    (lower::guard_pred(name).filter(|p| !p.is_true()).map(|pred| Guard { pred, negated }), rest)
                }
                None => (guard, mnemonic.as_str()),
            };
            let as_written = (form.len() == 1).then(|| original(i));
            listing.instr(&mut b, guard, mnemonic, ops, i.span.line, i.cuda_line, as_written);
        }
        // A form the machine does not take: said where the SASS stands.
        for e in b.take_errors() {
            diags.push(Diagnostic::error(i.span, format!("`{}` is not run yet: its translation {e}", original(i))));
        }
    }
    // Labels past the last instruction (a function's end) name nothing that runs.
    let program = match b.finish() {
        Ok(p) => p,
        Err(errors) => {
            diags.extend(errors.into_iter().map(|e| Diagnostic::error(f.span, format!("internal error: the translation {e}"))));
            return None;
        }
    };
    if has_errors(diags) {
        return None;
    }
    Some(Translated { program, listing, places, params })
}

/// The instruction as the dump writes it.
fn original(i: &syntax::Instr) -> String {
    let guard = i.guard.map_or(String::new(), |(p, n)| format!("@{}{p} ", if n { "!" } else { "" }));
    format!("{guard}{} {}", i.mnemonic, i.operands.join(", ")).trim_end().to_string()
}

/// The program's text for people, built beside it: each SASS line as a comment, then the
/// machine's instructions it became.
#[derive(Default)]
struct Listing {
    text: String,
    /// Per instruction: its line in `text`, and its CUDA line (0: none).
    lines: Vec<u32>,
    cuda: Vec<u32>,
    count: u32,
}

impl Listing {
    fn comment(&mut self, s: &str) {
        self.text.push_str("// ");
        self.text.push_str(s);
        self.text.push('\n');
        self.count += 1;
    }
    fn label(&mut self, b: &mut Builder, l: &str) {
        self.text.push_str(l);
        self.text.push_str(":\n");
        self.count += 1;
        b.label(l);
    }
    /// One machine instruction; the program shows `as_written` (the dump's own text, for an
    /// instruction that is one machine instruction) or else its machine form.
    #[allow(clippy::too_many_arguments)]
    fn instr(
        &mut self,
        b: &mut Builder,
        guard: Option<Guard>,
        mnemonic: &str,
        ops: &[Operand],
        line: u32,
        cuda: u32,
        as_written: Option<String>,
    ) {
        let shown = shown(guard, mnemonic, ops);
        self.text.push_str("        ");
        self.text.push_str(&shown);
        self.text.push_str(";\n");
        self.count += 1;
        self.lines.push(self.count);
        self.cuda.push(cuda);
        b.instr(guard, mnemonic, ops, as_written.unwrap_or(shown), line);
    }
}

/// An instruction in the listing dialect: what the machine runs, written so the assembler reads
/// it back the same.
fn shown(guard: Option<Guard>, mnemonic: &str, ops: &[Operand]) -> String {
    use core::fmt::Write;
    let mut s = String::with_capacity(48);
    if let Some(g) = guard {
        let _ = write!(s, "@{}{} ", if g.negated { "!" } else { "" }, g.pred);
    }
    s.push_str(mnemonic);
    for (k, o) in ops.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { ", " });
        write_operand(&mut s, o);
    }
    s
}

fn write_operand(s: &mut String, o: &Operand) {
    use core::fmt::Write;
    let _ = match o {
        Operand::Reg { reg, negated, inverted } => {
            write!(s, "{}{}{reg}", if *negated { "-" } else { "" }, if *inverted { "~" } else { "" })
        }
        Operand::Pred { pred, negated } => write!(s, "{}{pred}", if *negated { "!" } else { "" }),
        Operand::Int { value, hex: false } => write!(s, "{value}"),
        Operand::Int { value, .. } if *value < 0 => write!(s, "-{:#x}", -value),
        Operand::Int { value, .. } => write!(s, "{value:#x}"),
        Operand::Float(f) if f.is_infinite() => write!(s, "{}", if *f > 0.0 { "+INF" } else { "-INF" }),
        Operand::Float(f) => write!(s, "{f:?}"),
        Operand::Special(r) => write!(s, "{}", special_name(*r)),
        Operand::Barrier(b) => write!(s, "B{b}"),
        Operand::Mem { base, offset } if *offset == 0 => write!(s, "[{base}]"),
        Operand::Mem { base, offset } if *offset < 0 => write!(s, "[{base}-{:#x}]", -offset),
        Operand::Mem { base, offset } => write!(s, "[{base}+{offset:#x}]"),
        Operand::Label(l) => write!(s, "`({l})"),
        Operand::Str(t) => write!(s, "{}", crate::printf::quote(t)),
    };
}

fn special_name(s: crate::isa::SpecialReg) -> String {
    use crate::isa::SpecialReg::*;
    match s {
        Tid(a) => format!("SR_TID.{}", a.name()),
        Ntid(a) => format!("SR_NTID.{}", a.name()),
        Ctaid(a) => format!("SR_CTAID.{}", a.name()),
        Nctaid(a) => format!("SR_NCTAID.{}", a.name()),
        LaneId => String::from("SR_LANEID"),
        LaneMaskLt => String::from("SR_LTMASK"),
        LaneMaskLe => String::from("SR_LEMASK"),
        LaneMaskGt => String::from("SR_GTMASK"),
        LaneMaskGe => String::from("SR_GEMASK"),
        LaneMaskEq => String::from("SR_EQMASK"),
        WarpId => String::from("SR_WARPID"),
        ClockLo => String::from("SR_CLOCKLO"),
        ClockHi => String::from("SR_CLOCKHI"),
        Srz => String::from("SRZ"),
    }
}

/// The block's shared memory, one buffer `shared` at the start of the machine's shared window:
/// the kernel's static shared memory (`declared`, when the dump says it) and the launch's dynamic
/// shared memory after it, as the hardware lays them out. A `//@ buffer shared: i32[N]` line
/// sizes it instead; a dump that does not say (`cuobjdump -sass` alone) takes 4 KiB.
fn shared_memory(k: &mut Kernel, declared: Option<u32>, span: Span, diags: &mut Vec<Diagnostic>) {
    if let Some(b) = k.buffers.iter_mut().find(|b| b.name == "shared") {
        b.shared = true;
        return;
    }
    let dynamic = k.launch.and_then(|l| l.shared).unwrap_or(0);
    let bytes = declared.unwrap_or(4096).saturating_add(dynamic);
    let words = bytes.div_ceil(4).max(1).to_string();
    let Ok(len) = crate::kernel::expr::parse_expr(&words) else { return };
    let len = crate::kernel::LocatedExpr { expr: len, span, text: words };
    k.buffers.push(crate::kernel::BufferDecl {
        name: String::from("shared"),
        elem: ElemType::I32,
        len,
        init: None,
        auto: true,
        shared: true,
        declared: None,
        sizing: if declared.is_some() { Sizing::Declared } else { Sizing::Assumed },
        shape: Vec::new(),
    });
    let launched =
        if dynamic > 0 { format!(", and the launch's {dynamic} bytes of dynamic shared memory after them") } else { String::new() };
    let message = match declared {
        Some(n) => format!("the kernel declares {n} bytes of shared memory (the dump's resource usage){launched}: the buffer `shared`"),
        None => format!(
            "the dump does not say how much shared memory the kernel declares: taken as 4096 bytes{launched}, the buffer `shared`. \
             Paste `cuobjdump -sass -res-usage` or nvdisasm's whole output (without `-c`), which say it, or write `//@ buffer shared: i32[N]`"
        ),
    };
    diags.push(Diagnostic::info(span, message));
}

/// The kernel with every function it calls by name (`CALL.ABS.NOINC `(_Z3fooi)``, separate
/// compilation's `.func`s) placed after its code, each under a label of its own name, at
/// addresses past the kernel's (a dump starts each function at 0).
fn with_callees<'a>(dump: &Dump<'a>, kernel: &Function<'a>, diags: &mut Vec<Diagnostic>) -> Option<Function<'a>> {
    let mut whole = kernel.clone();
    let mut placed: Vec<&str> = Vec::from([kernel.name]);
    let mut k = 0;
    while k < whole.instrs.len() {
        let i = whole.instrs[k].clone();
        k += 1;
        if i.opcode() != "CALL" || !i.mnemonic.contains(".ABS") {
            continue;
        }
        let target = i.operands.first().copied().unwrap_or("");
        if target.starts_with('R') {
            // Through a register: `vprintf` (see `vprintf`).
            continue;
        }
        let Some(name) = target.strip_prefix("`(").and_then(|t| t.strip_suffix(')')) else {
            let msg = format!(
                "`{}`: the callee's address is filled in when the program is linked, and cuobjdump prints it as {target}: paste `nvdisasm -c` output of the cubin, which names the callee",
                original(&i)
            );
            diags.push(Diagnostic::error(i.span, msg));
            return None;
        };
        if placed.contains(&name) {
            continue;
        }
        let Some(callee) = dump.functions.iter().find(|f| f.name == name) else {
            diags.push(Diagnostic::error(i.span, format!("`{}` calls `{name}`, which is not in this dump", original(&i))));
            return None;
        };
        if callee.instrs.is_empty() {
            diags.push(Diagnostic::error(i.span, format!("`{}` calls `{name}`, which has no instructions in this dump", original(&i))));
            return None;
        }
        placed.push(callee.name);
        let base = whole.instrs.last().map_or(Some(0), |l| l.addr.checked_add(16).and_then(|a| a.checked_next_multiple_of(0x100)));
        let last = callee.instrs.last().map_or(0, |c| c.addr);
        let Some(base) = base.filter(|b| b.checked_add(last).is_some_and(|end| end < u32::MAX - 64)) else {
            diags.push(Diagnostic::error(callee.span, format!("`{name}` does not fit after the kernel's addresses")));
            return None;
        };
        let at = whole.instrs.len();
        whole.labels.push((callee.name, at));
        whole.labels.extend(callee.labels.iter().map(|&(l, n)| (l, at + n)));
        whole.instrs.extend(callee.instrs.iter().map(|c| syntax::Instr { addr: base + c.addr, ..c.clone() }));
    }
    Some(whole)
}

/// Local memory: one buffer, each lane's `bytes` side by side, its stack top at the end of its
/// part (the stack grows down from there).
fn local_memory(k: &mut Kernel, bytes: u32, span: Span, diags: &mut Vec<Diagnostic>) {
    if k.buffers.iter().any(|b| b.name == lower::LOCAL_BUFFER) {
        diags.push(Diagnostic::error(
            span,
            format!("the kernel's local memory is the buffer `{}`: a header buffer has its name", lower::LOCAL_BUFFER),
        ));
        return;
    }
    let text = format!("W * {}", bytes / 4);
    let Ok(len) = crate::kernel::expr::parse_expr(&text) else { return };
    k.buffers.push(crate::kernel::BufferDecl {
        name: String::from(lower::LOCAL_BUFFER),
        elem: ElemType::I32,
        len: crate::kernel::LocatedExpr { expr: len, span, text },
        init: None,
        auto: true,
        shared: false,
        declared: Some(".local"),
        sizing: Sizing::Declared,
        shape: Vec::new(),
    });
}

/// The function `//@ kernel NAME` names (mangled, demangled or with its signature), or the first.
fn pick<'d, 'a>(dump: &'d Dump<'a>, names: &[String], k: &Kernel, diags: &mut Vec<Diagnostic>) -> Option<&'d Function<'a>> {
    let chosen = match &k.kernel_name {
        Some((want, at)) => {
            let found = dump
                .functions
                .iter()
                .find(|f| f.name == *want || demangle(f.name).is_some_and(|d| d.name == *want || d.signature() == *want));
            match found {
                Some(f) => f,
                None => {
                    let known = if names.is_empty() { String::from("none") } else { names.join(", ") };
                    diags.push(Diagnostic::error(*at, format!("no function named `{want}` in this SASS (functions: {known})")));
                    return None;
                }
            }
        }
        // A kernel ends in `EXIT`; a function without one is a callee (`-rdc`'s `.func`).
        None => match dump.functions.iter().find(|f| f.instrs.iter().any(|i| i.opcode() == "EXIT")).or(dump.functions.first()) {
            Some(f) => f,
            None => {
                diags.push(Diagnostic::error(Span::new(1, 1, 1), "no function in this SASS: nothing to run"));
                return None;
            }
        },
    };
    if chosen.instrs.is_empty() {
        diags.push(Diagnostic::error(chosen.span, "this function has no instructions"));
        return None;
    }
    if names.len() > 1 {
        let other = names.iter().find(|n| **n != display_name(chosen.name)).cloned().unwrap_or_default();
        diags.push(Diagnostic::info(
            chosen.span,
            format!(
                "this SASS has {} functions: running `{}` (choose another with `//@ kernel {other}`)",
                names.len(),
                display_name(chosen.name)
            ),
        ));
    }
    Some(chosen)
}

fn display_name(mangled: &str) -> String {
    demangle(mangled).map_or_else(|| mangled.to_string(), |d| d.name)
}

/// Whether any instruction of `f` reads constant bank 3 (a `__constant__` variable).
fn reads_bank3(f: &Function) -> bool {
    f.instrs.iter().flat_map(|i| i.operands.iter()).any(|o| bank3::operand(o).is_some())
}

/// A dump without its `code for` line: the architecture whose parameter area its constant reads
/// fall in.
fn guess_arch(f: &Function) -> &'static str {
    let offsets = f.instrs.iter().flat_map(|i| i.operands.iter()).filter_map(|o| {
        let rest = o.strip_prefix("c[0x0][0x")?;
        u32::from_str_radix(rest.trim_end_matches(']'), 16).ok()
    });
    let high = offsets.max().unwrap_or(0);
    if high >= 0x358 {
        "sm_100"
    } else if high >= 0x208 {
        "sm_90"
    } else {
        "sm_80"
    }
}

/// A kernel parameter: where it lies in the parameter area, and its C type.
struct Param {
    offset: u32,
    bytes: u32,
    ty: Ty,
    /// A pointer to a struct (`Particle*`), whose elements the name does not type.
    to_struct: bool,
}

/// The parameters from the mangled name, each aligned to its size as the ABI places them.
fn param_layout(d: Option<&Demangled>) -> Result<Vec<Param>, String> {
    let mut out = Vec::new();
    let mut at = 0u32;
    for (n, p) in d.map_or(&[][..], |d| &d.params[..]).iter().enumerate() {
        // A vector by value (`uchar4`, `float2`): CUDA's vector types are as wide as their
        // components, aligned to that width when it is 2 or 4 of them, else to a component's.
        let vector = super::ptx::vector_type(&p.text).filter(|(s, _)| !s.wide() && p.pointers == 0);
        if let Some((s, n)) = vector {
            let bytes = s.bytes() * n;
            let align = if matches!(n, 2 | 4) { bytes } else { s.bytes() };
            if align >= 4 {
                at = at.next_multiple_of(align);
                out.push(Param { offset: at, bytes, ty: Ty::Vector(s, n as u8), to_struct: false });
                at += bytes;
                continue;
            }
        }
        // A struct by value (or a vector narrower than a word): its bytes, and where the
        // parameters after it lie, are not in the name.
        if p.pointers == 0 && p.base.is_none() {
            return Err(format!(
                "parameter {n} of `{}` is `{}` passed by value (a struct or vector): the dump does not say how its bytes lie, so warpscope cannot bind it or the parameters after it (it binds pointers and scalars: pass a pointer to it)",
                d.map_or("", |d| d.name.as_str()),
                p.text
            ));
        }
        let scalar = p.base.map_or(Scalar::Int, super::ptx::scalar_of);
        // A pointer to a vector type (`uchar4 const*`): its components, as many per thread.
        let ty = match (p.pointers, super::ptx::vector_type(&p.text)) {
            (1.., Some((s, n))) if p.base.is_none() && !s.wide() => Ty::VecPtr(s, n as u8),
            (1.., _) => Ty::Ptr(scalar),
            _ => Ty::Scalar(scalar),
        };
        let bytes = if p.pointers > 0 || scalar.wide() { 8 } else { 4 };
        at = at.next_multiple_of(bytes);
        let to_struct = p.pointers > 0 && p.base.is_none() && !matches!(ty, Ty::VecPtr(..));
        out.push(Param { offset: at, bytes, ty, to_struct });
        at += bytes;
    }
    Ok(out)
}

/// Binds each parameter to a `//@ buffer` or `//@ param` named `argK` (made when missing), in
/// the registers its constant words are held in.
fn bind_params(k: &mut Kernel, params: &[Param], places: &Places, span: Span, diags: &mut Vec<Diagnostic>) {
    let threads = k.launch().threads();
    for (n, p) in params.iter().enumerate() {
        let Some(&reg) = places.consts.get(&(places.bank.params + p.offset)) else { continue };
        let name = format!("arg{n}");
        // A vector by value (`uchar4 c`): its words, each in the register its bank word is in.
        if let Ty::Vector(s, width) = p.ty {
            match super::c::vector_words(k, &name, (s, width as u32), span, threads) {
                Ok(words) => {
                    for (w, value) in words.into_iter().enumerate() {
                        if let Some(&reg) = places.consts.get(&(places.bank.params + p.offset + 4 * w as u32)) {
                            k.regs.push(RegInit { target: InitTarget::Reg(Reg(reg)), value, binds: true });
                        }
                    }
                }
                Err(msg) => diags.push(Diagnostic::error(span, msg)),
            }
            continue;
        }
        let target = match p.ty {
            Ty::Ptr(_) | Ty::VecPtr(..) => InitTarget::Wide { reg: Reg(reg), elem: ElemType::U64 },
            Ty::Scalar(s) if s.wide() => InitTarget::Wide { reg: Reg(reg), elem: super::c::elem_type(s) },
            _ => InitTarget::Reg(Reg(reg)),
        };
        let bound = if p.to_struct {
            super::c::bind_untyped_pointer(k, &name, span, threads)
        } else {
            super::c::bind(k, &name, p.ty, span, threads)
        };
        match bound {
            Ok(value) => k.regs.push(RegInit { target, value, binds: true }),
            Err(msg) => diags.push(Diagnostic::error(span, msg)),
        }
    }
}

#[cfg(test)]
mod tests;
