//! The text trace: one line per step with pc, instruction, the lanes that ran it (W binary
//! digits, lane W-1 first so they read like the hex masks of the papers) and the stack after
//! the step. Used by `warpscope trace` and by the golden tests, so both print the same thing.

use alloc::format;
use alloc::string::String;

use crate::model::{Issued, Reconvergence, StackEntry};
use crate::program::Program;
use crate::sim::Sim;

/// `SYNC 0xFFFFFFFF 0x0128 | DIV 0x80000000 0x0120`, bottom first; `*` marks spilled entries.
pub fn stack_text(prog: &Program, entries: &[StackEntry], width: u32) -> String {
    if entries.is_empty() {
        return "-".into();
    }
    let mut s = String::new();
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            s += " | ";
        }
        s += &format!("{} {} {:#06x}{}", e.kind.name(), e.mask.hex(width), prog.addr(e.pc), if e.on_chip { "" } else { "*" });
    }
    s
}

/// The two header lines and the line for step 0 (the state before anything runs).
pub fn header(sim: &Sim) -> String {
    let w = sim.state().machine.width;
    let wm = w as usize;
    let stack = stack_text(sim.program(), &sim.state().model.stack(), w);
    let mask = sim.state().model.active().bits(w);
    format!(
        "# mask: lane {} ... lane 0; stack: bottom | ... | top, after the step; * = spilled to memory\n{:>7}  {:<6}  {:<40}  {:<wm$}  stack\n{:>7}  {:<6}  {:<40}  {mask}  {stack}",
        w - 1,
        "step",
        "pc",
        "instruction",
        "mask",
        0,
        "",
        "(start)"
    )
}

/// The line for the step just taken.
pub fn step_line(sim: &Sim, issued: &Issued) -> String {
    let prog = sim.program();
    let w = sim.state().machine.width;
    let text = prog.get(issued.pc).map_or("", |i| i.text.as_str());
    let stack = stack_text(prog, &sim.state().model.stack(), w);
    let timing = sim.state().timing.as_ref().and_then(|t| t.last).filter(|_| !prog.continues(issued.pc));
    let timing = timing.map_or(String::new(), |t| format!("  [{}]", crate::sim::timing::describe(&t, prog)));
    format!("{:>7}  {:#06x}  {:<40}  {}  {stack}{timing}", sim.steps(), prog.addr(issued.pc), text, issued.mask.bits(w))
}

/// The header of a whole launch's trace, for warps of `width` lanes.
pub fn launch_header(width: u32) -> String {
    let wm = width as usize;
    format!(
        "# every warp instruction of the launch in the order the warps issued them; mask: lane {} ... lane 0; stack: the warp's, bottom | ... | top, after the step\n{:>8}  {:<15}  {:>4}  {:<6}  {:<40}  {:<wm$}  stack",
        width - 1,
        "step",
        "block",
        "warp",
        "pc",
        "instruction",
        "mask",
    )
}

/// The line of a whole launch's trace for one step.
pub fn launch_step_line(s: &crate::grid::LaunchStep) -> String {
    let prog = s.program;
    let w = s.state.machine.width;
    let text = prog.get(s.issued.pc).map_or("", |i| i.text.as_str());
    let stack = stack_text(prog, &s.state.model.stack(), w);
    let b = s.block_idx;
    format!(
        "{:>8}  {:<15}  {:>4}  {:#06x}  {:<40}  {}  {stack}",
        s.step,
        format!("({}, {}, {})", b[0], b[1], b[2]),
        s.warp,
        prog.addr(s.issued.pc),
        text,
        s.issued.mask.bits(w)
    )
}

/// The whole recorded run as CSV: one row per step with the lanes that ran (as binary digits,
/// lane W-1 first), the active count, the stack depth and contents after the step, and events.
pub fn csv(sim: &Sim) -> String {
    let mut out = format!("step,{CSV_COLUMNS}\n");
    sim.replay(0, sim.timeline().len() as u64, |issued, _, st| {
        out += &format!("{},{}\n", st.metrics.steps, csv_row(sim.program(), issued, st));
    });
    out
}

/// A recorded launch's block on screen as CSV, its steps replayed from the start: `csv`'s
/// columns for the warp that issued each step, after its number. The recording is left at its
/// last step.
pub fn block_csv(rec: &mut crate::grid::RecordedLaunch) -> String {
    let mut out = format!("step,warp,{CSV_COLUMNS}\n");
    rec.seek(0);
    while let Some((w, issued)) = rec.step() {
        out += &format!("{},{w},{}\n", rec.steps(), csv_row(rec.program(), &issued, rec.warp(w)));
    }
    out
}

/// The columns of a step's CSV row after its step (and warp).
const CSV_COLUMNS: &str = "pc,line,instruction,mask,active_lanes,depth,events,stack";

/// A step's `CSV_COLUMNS`: what issued, and the warp `st` after it.
fn csv_row(prog: &Program, issued: &Issued, st: &crate::sim::WarpState) -> String {
    let w = st.machine.width;
    let text = prog.get(issued.pc).map_or("", |i| i.text.as_str());
    format!(
        "{:#06x},{},\"{}\",{},{},{},{},{}",
        prog.addr(issued.pc),
        prog.line(issued.pc).unwrap_or(0),
        text.replace('"', "\"\""),
        issued.mask.bits(w),
        issued.mask.count(),
        st.model.depth(),
        event_names(crate::sim::StepRecord::new(issued, 0).events),
        stack_text(prog, &st.model.stack(), w)
    )
}

/// Event bits as `diverge+push`, or `-` for none.
pub fn event_names(bits: u16) -> String {
    use crate::sim::event::*;
    let names =
        [(DIVERGE, "diverge"), (RECONVERGE, "reconverge"), (PUSH, "push"), (POP, "pop"), (SPILL, "spill"), (FILL, "fill"), (EXIT, "exit")];
    let on: alloc::vec::Vec<&str> = names.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| *n).collect();
    if on.is_empty() {
        "-".into()
    } else {
        on.join("+")
    }
}
