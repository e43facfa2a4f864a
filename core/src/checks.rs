//! What the fuzz targets assert, one function per target on arbitrary bytes, shared with the
//! regression test that replays every saved crash (`core/tests/fuzz_regressions.rs`). Each
//! returns what went wrong instead of panicking, so a finding reads as a sentence; a panic
//! inside the code under test is a finding too.

use alloc::format;
use alloc::string::{String, ToString};

use crate::asm::assemble;
use crate::compile::{compile, CompileOptions, Target};
use crate::diag::Diagnostic;
use crate::kernel::{instantiate, parse_kernel};
use crate::model::ModelKind;
use crate::sim::audit::lanes_conserved;
use crate::sim::{RunLimits, StopReason};
use crate::{launch, LaunchOptions};

pub type Check = Result<(), String>;

/// The control instructions of the model fuzzer's random listings (`control_listing`).
const LINES: &[&str] = &[
    "IADD R1, R1, 0x1;",
    "ISETP.LT.AND P0, PT, R0, R1, PT;",
    "ISETP.EQ.AND P1, PT, R1, 0x3, PT;",
    "@P0 BRA `(L{});",
    "@!P1 BRA `(L{});",
    "BRA `(L{});",
    "SSY `(L{});",
    "SYNC;",
    "NOP.S;",
    "PBK `(L{});",
    "@P0 BRK;",
    "PCNT `(L{});",
    "@P1 CONT;",
    "CAL `(L{});",
    "RET;",
    "@P1 EXIT;",
    "BSSY B{}, `(L{});",
    "BSYNC B{};",
    "@P0 BREAK B{};",
    "WARPSYNC 0xffffffff;",
    "YIELD;",
    "BAR.SYNC 0x0;",
    "ST [R9], R1;",
    "LD R2, [R9];",
    "SHFL.BFLY PT, R1, R1, 0x1, 0x1f, 0xffffffff;",
    "@P0 VOTE.ANY R1, P1, PT, 0xff;",
    "WARPSYNC 0xff;",
];

/// A random listing of control flow, each pick one line (`LINES`) and the label it names: the
/// model fuzzer's programs (`core/tests/models_fuzz.rs`), also the structural transform's.
pub fn control_listing(picks: &[(u8, u8)]) -> String {
    let n = picks.len();
    let mut text = String::from("//@ warp 8\n//@ buffer out: i32[8]\n//@ reg R9 = out + 4 * t\nS2R R0, SR_TID.X;\n");
    for (i, &(line, arg)) in picks.iter().enumerate() {
        let template = LINES[line as usize % LINES.len()];
        let target = arg as usize % n;
        let filled = template.replace("B{}", &format!("B{}", arg % 3)).replace("{}", &target.to_string());
        text += &format!("L{i}: {filled}\n");
    }
    text + "EXIT;\n"
}

/// The steps `load_and_run` runs at most: enough for loops, deadlocks and the repeat watch.
pub const RUN_STEP_LIMIT: u64 = 3_000;

fn located(diags: &[Diagnostic], text: &str) -> Check {
    let lines = text.lines().count() as u32 + 1;
    match diags.iter().find(|d| d.span.line < 1 || d.span.line > lines) {
        Some(d) => Err(format!("diagnostic outside the text ({lines} lines): {d}")),
        None => Ok(()),
    }
}

/// Every line a header, so the search stays in the header grammar.
pub fn kernel_header(data: &[u8]) -> Check {
    let Ok(body) = core::str::from_utf8(data) else { return Ok(()) };
    let text: String = body.lines().map(|l| format!("//@ {l}\n")).collect::<String>() + "EXIT;\n";
    let (kernel, diags) = parse_kernel(&text);
    located(&diags, &text)?;
    if diags.iter().all(|d| !d.is_error()) {
        let _ = instantiate(&kernel, &[]);
    }
    Ok(())
}

pub fn assembler(data: &[u8]) -> Check {
    let Ok(text) = core::str::from_utf8(data) else { return Ok(()) };
    let (program, diags) = assemble(text);
    located(&diags, text)?;
    if diags.iter().all(|d| !d.is_error()) && program.len() > text.lines().count() + 1 {
        return Err(format!("{} instructions from {} lines", program.len(), text.lines().count()));
    }
    Ok(())
}

/// The first byte picks the target and if-conversion.
pub fn compiler(data: &[u8]) -> Check {
    let Some((&pick, rest)) = data.split_first() else { return Ok(()) };
    let Ok(text) = core::str::from_utf8(rest) else { return Ok(()) };
    let target = Target::ALL[pick as usize % Target::ALL.len()];
    let (out, diags) =
        compile(text, CompileOptions { target, if_convert: pick & 0x80 != 0, kernel: None, fmad: pick & 0x40 != 0, host: false });
    located(&diags, text)?;
    if out.is_none() && !diags.iter().any(|d| d.is_error()) {
        return Err("no program and no error".into());
    }
    Ok(())
}

/// The PTX reader: the first byte picks the target. Every diagnostic lies in the text, none is
/// an internal error (a translation the assembler refuses), and a text read without errors
/// gives a program; lined up beside SASS (`input::ptx::beside`), the text gives lines in it.
pub fn ptx(data: &[u8]) -> Check {
    let Some((&pick, rest)) = data.split_first() else { return Ok(()) };
    let Ok(text) = core::str::from_utf8(rest) else { return Ok(()) };
    let target = Target::ALL[pick as usize % Target::ALL.len()];
    let opts = crate::input::SourceOptions { input: Some(crate::input::InputKind::Ptx), target: Some(target), ..Default::default() };
    let (kernel, diags) = crate::kernel::parse_kernel_with(text, &opts);
    located(&diags, text)?;
    if let Some(d) = diags.iter().find(|d| d.message.starts_with("internal error:")) {
        return Err(format!("{d}"));
    }
    if diags.iter().all(|d| !d.is_error()) && kernel.compiled.is_none() {
        return Err("no program and no error".into());
    }
    // The same text as PTX pasted beside a SASS kernel of its entry: what lines up lies in it.
    let entry = kernel.compiled.as_ref().and_then(|c| c.entry.as_deref()).unwrap_or("_Z1kv");
    let b = crate::input::ptx::beside(text, entry, Some("k.cu"));
    let lines = text.split('\n').count() as u32;
    let outside = b.ptx_lines.iter().chain(b.problem.iter().filter_map(|p| p.line.as_ref())).find(|&&l| l == 0 || l > lines);
    if b.ptx_lines.len() != b.cuda_lines.len() || outside.is_some() {
        return Err(format!("the PTX lined up beside SASS names line {outside:?} of {lines}, or lines without CUDA lines"));
    }
    Ok(())
}

/// The SASS reader: every diagnostic lies in the text, none is an internal error (a translation
/// the machine refuses must be said where the SASS stands), and a text read without errors gives
/// a program that launches and runs a bounded number of steps without a panic.
pub fn sass(data: &[u8]) -> Check {
    let Ok(text) = core::str::from_utf8(data) else { return Ok(()) };
    let opts = crate::input::SourceOptions { input: Some(crate::input::InputKind::Sass), ..Default::default() };
    let (kernel, diags) = crate::kernel::parse_kernel_with(text, &opts);
    located(&diags, text)?;
    if let Some(d) = diags.iter().find(|d| d.message.starts_with("internal error")) {
        return Err(format!("{d}"));
    }
    if diags.iter().any(|d| d.is_error()) {
        return Ok(());
    }
    if kernel.compiled.is_none() {
        return Err("no program and no error".into());
    }
    let options = crate::LaunchOptions { step_limit: 2_000, ..Default::default() };
    if let Ok(mut sim) = crate::launch(&kernel, &options) {
        let _ = sim.run_to_end();
    }
    Ok(())
}

/// Whatever decodes encodes to a link that decodes to the same thing.
#[cfg(feature = "link")]
pub fn permalink(data: &[u8]) -> Check {
    use crate::link::{decode, encode, Decoded};
    let Ok(fragment) = core::str::from_utf8(data) else { return Ok(()) };
    if let Decoded::Ok(link) = decode(fragment) {
        let again = decode(&encode(&link));
        if again != Decoded::Ok(link) {
            return Err(format!("the link does not survive encode then decode: {again:?}"));
        }
    }
    Ok(())
}

/// A whole load: the first byte picks the model; the rest is a kernel file. One step per `run`
/// call (so the repeat watch and every stop reason run), the lanes audited after each, and a
/// seek back to step 37 compared with the state that step had.
pub fn load_and_run(data: &[u8]) -> Check {
    let Some((&pick, rest)) = data.split_first() else { return Ok(()) };
    let Ok(text) = core::str::from_utf8(rest) else { return Ok(()) };
    let (kernel, diags) = parse_kernel(text);
    if diags.iter().any(|d| d.is_error()) {
        return Ok(());
    }
    let model = ModelKind::ALL[pick as usize % ModelKind::ALL.len()];
    let opts = LaunchOptions { model: Some(model), step_limit: RUN_STEP_LIMIT, ..LaunchOptions::default() };
    let Ok(mut sim) = launch(&kernel, &opts) else { return Ok(()) };
    let mut exited = sim.state().machine.exited;
    let mut middle = None;
    let one = RunLimits { max_steps: Some(1), ..RunLimits::default() };
    while sim.run(&one) == StopReason::Budget {
        lanes_conserved(sim.program(), sim.state(), exited).map_err(|why| format!("{model:?} after step {}: {why}", sim.steps()))?;
        exited = sim.state().machine.exited;
        if sim.steps() == 37 {
            middle = Some(sim.state().clone());
        }
    }
    if let Some(state) = middle {
        sim.seek(37);
        if sim.state() != &state {
            return Err(format!("{model:?}: seek(37) differs from the state after 37 steps"));
        }
    }
    Ok(())
}

/// STRUCT on the model fuzzer's random programs (each byte pair one line): the transform never
/// panics and ends; its output is structured and at most `growth_limit` instructions, or it
/// refuses with an error on a line of the text.
pub fn structure(data: &[u8]) -> Check {
    use crate::structure::{growth_limit, is_structured, structure};
    let picks: alloc::vec::Vec<(u8, u8)> = data.chunks_exact(2).map(|c| (c[0], c[1])).take(64).collect();
    if picks.is_empty() {
        return Ok(());
    }
    let text = control_listing(&picks);
    let (kernel, diags) = parse_kernel(&text);
    if diags.iter().any(|d| d.is_error()) {
        return Ok(());
    }
    let lines = text.lines().count() as u32;
    match structure(&kernel.program) {
        Ok(s) if !is_structured(&s.program) => Err(format!("the output is not structured:\n{text}\n{}", s.listing)),
        Ok(s) if s.program.len() > growth_limit(kernel.program.len()) => {
            Err(format!("{} instructions from {}", s.program.len(), kernel.program.len()))
        }
        Ok(_) => Ok(()),
        Err(e) if e.line < 1 || e.line > lines => Err(format!("error outside the text ({lines} lines): {e:?}")),
        Err(_) => Ok(()),
    }
}
