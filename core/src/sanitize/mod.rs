//! The bugs a GPU hides, found on a simulated launch (issue 48), as NVIDIA's compute-sanitizer
//! names them: `racecheck` (accesses of one location by two threads of a block that no barrier
//! orders), `synccheck` (barriers the block's threads do not meet alike), `initcheck` (reads of
//! shared memory no thread of the block wrote, and of `cudaMalloc` memory that no host copy and
//! no thread wrote) and `memcheck` (an access outside every buffer, or misaligned).
//!
//! The launch runs again, watched (`grid::Launcher::run_whole` with a watch): every lane's
//! accesses of each step (`Machine::accesses`) and every barrier it passes go through
//! `race::Shadow` per block. Findings are grouped as compute-sanitizer groups them, once per
//! pair of source lines, with the number of hazards and one example of each side.

mod race;
mod report;
mod sync;

pub use report::{text, Finding, Side, Tool};

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::Severity;
use crate::grid::{LaunchRun, Launcher};
use crate::host::HostLaunch;
use crate::isa::AccessKind;
use crate::isa::{Op, Space};
use crate::launch::LaunchOptions;
use crate::model::ModelKind;
use crate::sim::StopReason;

use race::{writes, Access, Shadow};
use sync::{Barriers, WarpSyncs};

/// The memory an instruction names (generic for plain `LD`/`ST`).
fn space_of(op: Op) -> Option<Space> {
    match op {
        Op::Ld { space, .. } | Op::St { space, .. } | Op::Atom { space, .. } => Some(space),
        _ => None,
    }
}

/// Reads of unwritten shared bytes kept per block until it ends (a block reading far more
/// than that has its first ones reported).
const MAX_UNWRITTEN: usize = 65_536;

/// Whether lanes of one warp are ordered by the warp's own steps under `model`: the stacks and
/// thread frontiers run a warp's lanes in lockstep (pre-Volta hardware, warp-synchronous code
/// was safe); volta and mimd give each lane its own pc, so only `__syncwarp` (or a barrier)
/// orders two lanes' accesses, as compute-sanitizer's racecheck holds them on Volta and later.
pub fn lanes_in_lockstep(model: ModelKind) -> bool {
    !model.barrier_counts_threads()
}

/// Every check on a kernel's launch as its `//@` lines (or made-up inputs) give it.
pub fn check_kernel(kernel: &crate::kernel::Kernel, opts: &LaunchOptions) -> Result<Vec<Finding>, Vec<crate::Diagnostic>> {
    let name = kernel.kernel_name.as_ref().map_or("the kernel", |(n, _)| n.as_str());
    Ok(check_launch(Launcher::new(kernel, opts)?, name, None).0)
}

/// Every check on each launch of a program's run (`code` its code), each from the inputs
/// `main` gave it; and a note for each launch that could not be checked (its inputs were not
/// kept, or it does not compile again).
pub fn check_program(code: crate::host::Code, launches: &[HostLaunch], opts: &LaunchOptions) -> (Vec<Finding>, Vec<String>) {
    let mut findings = Vec::new();
    let mut unchecked = Vec::new();
    for (k, l) in launches.iter().enumerate() {
        match crate::host::relaunch(code, l, opts) {
            Ok(launcher) => {
                let name = format!("{} (launch {} of {}, line {})", l.kernel, k + 1, launches.len(), l.line);
                findings.extend(check_launch(launcher, &name, Some(k as u32)).0);
            }
            Err(why) => unchecked.push(format!("launch {} (`{}`) was not checked: {why}", k + 1, l.kernel)),
        }
    }
    (findings, unchecked)
}

/// Runs `launcher`'s launch with every check and gives its findings and results. `kernel` names
/// it in the findings, and `launch` is its place among a program's launches.
pub fn check_launch(mut launcher: Launcher, kernel: &str, launch: Option<u32>) -> (Vec<Finding>, LaunchRun) {
    launcher.code.maker.first.accesses = Some(Vec::new());
    let lockstep = lanes_in_lockstep(launcher.code.config.model);
    let program = launcher.code.program.clone();
    let width = launcher.code.maker.width;
    let blocks: Vec<[u32; 3]> = launcher.code.blocks().collect();
    let mut found = report::Findings::default();
    // Reads of global bytes that neither `main` nor the launch had written: uninitialised
    // unless a thread writes them later in the launch (a read that raced another block's write).
    let mut global_unwritten: Vec<(Access, [u32; 3], crate::machine::Launch)> = Vec::new();
    // Their words, and those of them a plain store wrote later (an atomic's own write does not
    // count: a histogram's bins never cleared stay uninitialised however often they are added to).
    let (mut pending, mut stored) = (BTreeSet::new(), BTreeSet::new());
    let mut warp_syncs = WarpSyncs::default();
    for block_idx in blocks {
        warp_syncs.restart();
        let mut shadow = Shadow::new(lockstep);
        let mut barriers = Barriers::default();
        // Reads of shared bytes not written yet: uninitialised unless a thread writes them
        // later in the block (then the read raced the write, which racecheck reports).
        let mut unwritten: Vec<(Access, crate::machine::Launch)> = Vec::new();
        // Steps are counted from the block's start, as the page's scrubber counts the block it shows.
        let first = launcher.run.totals.steps;
        let mut watch = |step: u64, warp: usize, issued: &crate::model::Issued, st: &crate::sim::WarpState| {
            let pc = issued.pc;
            let op = program.get(pc).map(|i| i.op);
            let line = program.line(pc).unwrap_or(0);
            let thread = |lane: u32| warp as u32 * width + lane;
            match op {
                Some(Op::BarSync { .. }) => {
                    for lane in issued.work.iter() {
                        barriers.arrive(thread(lane), pc, line);
                        shadow.barrier(thread(lane));
                    }
                }
                Some(Op::Warpsync { mask }) => {
                    issued.work.iter().for_each(|lane| shadow.warp_sync(thread(lane)));
                    let need = match mask {
                        crate::isa::Src::Imm(v) => v,
                        crate::isa::Src::Reg { reg, .. } => issued.work.iter().next().map_or(0, |l| st.machine.reg(l, reg)),
                    };
                    let live = st.machine.all_lanes().without(st.machine.exited);
                    let need = crate::machine::LaneMask(need as u64);
                    warp_syncs.arrive(block_idx, warp as u32, width, issued.work, live, pc, line, need);
                }
                _ => {}
            }
            let Some(log) = st.machine.accesses.as_ref() else { return };
            let memory = &st.machine.memory;
            for a in log {
                let at = Access {
                    thread: thread(a.lane),
                    warp: warp as u32,
                    step: step - first,
                    pc,
                    line,
                    kind: a.kind,
                    addr: a.addr,
                    bytes: a.bytes,
                };
                for hazard in shadow.access(at) {
                    found.race(block_idx, &st.machine.launch, hazard, memory);
                }
                let shared = crate::machine::window_of(a.addr) == Space::Shared;
                if a.kind == AccessKind::Write {
                    if !shared && pending.contains(&(a.addr & !3)) {
                        stored.insert(a.addr & !3);
                    }
                    continue;
                }
                if shared && !shadow.written(a.addr, a.bytes) && unwritten.len() < MAX_UNWRITTEN {
                    unwritten.push((at, st.machine.launch));
                }
                if !shared && a.unwritten && global_unwritten.len() < MAX_UNWRITTEN {
                    global_unwritten.push((at, block_idx, st.machine.launch));
                    pending.insert(a.addr & !3);
                }
            }
        };
        let goes_on = launcher.run_whole(block_idx, Some(&mut watch));
        for (at, launch) in unwritten.iter().filter(|(a, _)| !shadow.written(a.addr, a.bytes)) {
            found.uninitialised(block_idx, launch, *at, &launcher.memory);
        }
        let threads = launcher.code.decl.block.iter().product::<u32>();
        for f in barriers.findings(block_idx, threads, lockstep, goes_on) {
            found.push(f);
        }
        if !goes_on {
            break;
        }
    }
    for (at, block_idx, launch) in global_unwritten.iter().filter(|(a, ..)| !stored.contains(&(a.addr & !3))) {
        found.uninitialised(*block_idx, launch, *at, &launcher.memory);
    }
    warp_syncs.findings().for_each(|f| found.push(f));
    let block = launcher.code.decl.block;
    let run = launcher.finish();
    if let Some(f) = failure(&run, &program, block) {
        found.push(f);
    }
    (found.into_list(kernel, launch), run)
}

/// The launch's own failure as a finding: a fault of a memory access is memcheck's, a `_sync`
/// mask naming absent lanes and a deadlock at a barrier synccheck's.
fn failure(run: &LaunchRun, program: &crate::program::Program, block: [u32; 3]) -> Option<Finding> {
    let (pc, access, deadlock) = match &run.end.reason {
        StopReason::Fault { pc, access, .. } => (*pc, *access, false),
        StopReason::Deadlock { pc, .. } => (*pc, None, true),
        _ => return None,
    };
    let op = program.get(pc).map(|i| i.op);
    let tool = match op {
        _ if deadlock => Tool::Synccheck,
        Some(o) if o.member_mask().is_some() => Tool::Synccheck,
        _ => Tool::Memcheck,
    };
    let launch = crate::machine::Launch { grid: [0; 3], block, block_idx: run.end.block_idx, first_thread: run.end.warp * run.width };
    let side = Side {
        block: run.end.block_idx,
        warp: run.end.warp,
        thread: access.map(|a| launch.thread_idx(a.lane)),
        // A failure's step is the launch's run end, which the page shows already.
        step: 0,
        pc: Some(pc),
        line: program.line(pc).unwrap_or(0),
        kind: None,
        addr: access.map(|a| a.addr),
        element: None,
    };
    // A generic access names the memory its address is in.
    let space_at = |o: Op| match space_of(o)? {
        Space::Generic => access.map(|a| crate::machine::window_of(a.addr)),
        s => Some(s),
    };
    let title = match (deadlock, op.and_then(|o| Some((o.memory_use()?, space_at(o)?)))) {
        (true, _) => String::from("the launch cannot go on"),
        // compute-sanitizer's words for a warp-level sync whose lanes are not all there.
        _ if tool == Tool::Synccheck => String::from("Barrier error detected. Divergent thread(s) in warp"),
        // compute-sanitizer's words: "Invalid __global__ write of size 4 bytes".
        (false, Some((u, space))) => {
            format!("Invalid __{}__ {} of size {} bytes", space.name(), if writes(u.kind) { "write" } else { "read" }, u.bytes)
        }
        (false, None) => String::from("the launch failed"),
    };
    // compute-sanitizer's second line: "Address 0x... is misaligned" or "... is out of bounds".
    let why = match access {
        Some(a) if a.misaligned => format!("address {:#x} is misaligned; ", a.addr),
        Some(a) => format!("address {:#x} is out of bounds; ", a.addr),
        None => String::new(),
    };
    let message = match side.thread {
        Some([x, y, z]) => {
            let [bx, by, bz] = side.block;
            format!("by thread ({x}, {y}, {z}) in block ({bx}, {by}, {bz}): {why}{}", run.end.message)
        }
        None => run.end.message.clone(),
    };
    Some(Finding {
        tool,
        severity: Severity::Error,
        title,
        message,
        first: side,
        second: None,
        count: 1,
        kernel: String::new(),
        launch: None,
    })
}
