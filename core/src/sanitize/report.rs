//! What the checks found, grouped as compute-sanitizer groups it (once per pair of source lines,
//! with the number of hazards), each with an example of both sides: where (block, thread, step,
//! line), what (read or write) and which element.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::race::{Access, Hazard};
use crate::diag::Severity;
use crate::isa::{AccessKind, Pc};
use crate::machine::{Launch, Memory};

/// compute-sanitizer's tool a finding belongs to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Tool {
    Memcheck,
    Racecheck,
    Initcheck,
    Synccheck,
}

impl Tool {
    pub const ALL: [Tool; 4] = [Tool::Memcheck, Tool::Racecheck, Tool::Initcheck, Tool::Synccheck];
    pub fn name(self) -> &'static str {
        match self {
            Tool::Memcheck => "memcheck",
            Tool::Racecheck => "racecheck",
            Tool::Initcheck => "initcheck",
            Tool::Synccheck => "synccheck",
        }
    }
}

/// One side of a finding: a thread's access or arrival.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Side {
    pub block: [u32; 3],
    /// The warp's number in its block.
    pub warp: u32,
    /// threadIdx, when one thread is meant.
    pub thread: Option<[u32; 3]>,
    /// Its block's step (1 for the block's first instruction, as the page's scrubber counts the
    /// block it shows); 0 when not one step.
    pub step: u64,
    #[cfg_attr(feature = "serde", serde(skip))]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub pc: Option<Pc>,
    pub line: u32,
    /// What the access did (none for a barrier or a fault).
    pub kind: Option<AccessKind>,
    pub addr: Option<u32>,
    /// The element at `addr`: `s[128]`.
    pub element: Option<String>,
}

/// One finding: a hazard group, a divergent barrier, an uninitialised read, a fault. An error
/// breaks the program on any GPU; a warning only on some (racecheck's hazards between lanes of
/// one warp, which lockstep hardware ordered; a barrier exited past, which Volta allows).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Finding {
    pub tool: Tool,
    pub severity: Severity,
    /// What it is, in compute-sanitizer's words: `Race reported between Write access at line 8
    /// and Read access at line 14`.
    pub title: String,
    /// The example, in full.
    pub message: String,
    pub first: Side,
    pub second: Option<Side>,
    /// How many hazards (pairs of accesses) or reads it stands for.
    pub count: u64,
    /// The kernel of the launch.
    pub kernel: String,
    /// Which of a program's launches (from 0); none for a kernel run alone.
    pub launch: Option<u32>,
}

/// Findings being gathered over a launch: races and uninitialised reads by their lines.
#[derive(Default)]
pub struct Findings {
    races: BTreeMap<(u32, &'static str, u32, &'static str), Finding>,
    unwritten: BTreeMap<(u32, bool), Finding>,
    others: Vec<Finding>,
}

fn side(block: [u32; 3], launch: &Launch, a: &Access, memory: &Memory, addr: u32) -> Side {
    // `a.thread` counts from the block's first thread.
    let thread = Launch { first_thread: 0, ..*launch }.thread_idx(a.thread);
    Side {
        block,
        warp: a.warp,
        thread: Some(thread),
        step: a.step,
        pc: Some(a.pc),
        line: a.line,
        kind: Some(a.kind),
        addr: Some(addr),
        element: memory.element_name(addr),
    }
}

fn who(s: &Side) -> String {
    let [x, y, z] = s.thread.unwrap_or_default();
    let [bx, by, bz] = s.block;
    format!("thread ({x}, {y}, {z}) of block ({bx}, {by}, {bz})")
}

impl Findings {
    pub fn push(&mut self, f: Finding) {
        self.others.push(f);
    }

    /// A racing pair: counted in the group of its two lines, the first pair kept as the example.
    pub fn race(&mut self, block: [u32; 3], launch: &Launch, h: Hazard, memory: &Memory) {
        let key = (h.first.line, name(h.first.kind), h.second.line, name(h.second.kind));
        if let Some(f) = self.races.get_mut(&key) {
            f.count += 1;
            return;
        }
        let (a, b) = (side(block, launch, &h.first, memory, h.addr), side(block, launch, &h.second, memory, h.addr));
        let same_warp = h.first.warp == h.second.warp;
        let what = a.element.clone().unwrap_or_else(|| format!("address {:#x}", h.addr));
        let order = if same_warp {
            "no `__syncwarp()` between them (lanes of one warp are not in lockstep since Volta)"
        } else {
            "no `__syncthreads()` between them"
        };
        let shared = crate::machine::window_of(h.addr) == crate::isa::Space::Shared;
        // compute-sanitizer's racecheck watches shared memory only: say so of a global hazard.
        let global = if shared {
            ""
        } else {
            " (global memory, which compute-sanitizer's racecheck does not check: a race all the same, benign only if every thread writes the same value)"
        };
        let message = format!(
            "{} {} {what} at step {} (line {}), and {} {} it at step {} (line {}), with {order}: which comes first is up to the GPU's scheduling{global}",
            who(&a),
            h.first.kind.verb(),
            a.step,
            a.line,
            who(&b),
            h.second.kind.verb(),
            b.step,
            b.line,
        );
        let title = format!("Race reported between {} access at line {} and {} access at line {}", key.1, key.0, key.3, key.2);
        let severity = if same_warp { Severity::Warning } else { Severity::Error };
        self.races.insert(
            key,
            Finding {
                tool: super::Tool::Racecheck,
                severity,
                title,
                message,
                first: a,
                second: Some(b),
                count: 1,
                kernel: String::new(),
                launch: None,
            },
        );
    }

    /// A read of shared memory no thread of the block wrote, or of device memory nothing
    /// wrote: one finding per line and memory.
    pub fn uninitialised(&mut self, block: [u32; 3], launch: &Launch, a: Access, memory: &Memory) {
        let shared = crate::machine::window_of(a.addr) == crate::isa::Space::Shared;
        if let Some(f) = self.unwritten.get_mut(&(a.line, shared)) {
            f.count += 1;
            return;
        }
        let s = side(block, launch, &a, memory, a.addr);
        let what = s.element.clone().unwrap_or_else(|| format!("address {:#x}", a.addr));
        let verb = if a.kind == AccessKind::Update { "updated" } else { "read" };
        let message = if shared {
            format!(
                "{} {verb} shared {what} at step {}, which no thread of its block had written: shared memory starts undefined on a GPU (is an index off by one, or a halo element never loaded?)",
                who(&s),
                s.step
            )
        } else {
            format!(
                "{} {verb} {what} at step {}, which no host copy, memset or thread had written: `cudaMalloc` memory starts undefined on a GPU (is a `cudaMemcpy` or `cudaMemset` missing, or its byte count short?)",
                who(&s),
                s.step
            )
        };
        let space = if shared { "shared" } else { "global" };
        let title = format!("Uninitialized __{space}__ memory read of size {} bytes at line {}", a.bytes, a.line);
        self.unwritten.insert(
            (a.line, shared),
            Finding {
                tool: super::Tool::Initcheck,
                severity: Severity::Error,
                title,
                message,
                first: s,
                second: None,
                count: 1,
                kernel: String::new(),
                launch: None,
            },
        );
    }

    /// Every finding, by tool and line, each naming `kernel`.
    pub fn into_list(self, kernel: &str, launch: Option<u32>) -> Vec<Finding> {
        let mut all: Vec<Finding> = self.others.into_iter().chain(self.races.into_values()).chain(self.unwritten.into_values()).collect();
        all.sort_by_key(|f| (f.tool, f.first.line, f.second.as_ref().map_or(0, |s| s.line)));
        for f in &mut all {
            f.kernel = String::from(kernel);
            f.launch = launch;
        }
        all
    }
}

/// compute-sanitizer's word for an access.
fn name(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "Read",
        AccessKind::Write => "Write",
        AccessKind::Update => "Atomic",
    }
}

/// The findings as compute-sanitizer prints them, one block each, then a summary per tool.
pub fn text(findings: &[Finding], file: &str) -> String {
    let mut out = String::new();
    for f in findings {
        let level = if f.severity == Severity::Error { "Error" } else { "Warning" };
        let what = if f.tool == Tool::Racecheck { "hazards" } else { "times" };
        let count = if f.count > 1 { format!(" [{} {what}]", f.count) } else { String::new() };
        out.push_str(&format!("========= {} ({}): {}{count}\n", level, f.tool.name(), f.title));
        out.push_str(&format!("=========     in {}{}\n", f.kernel, at_line(file, f.first.line)));
        out.push_str(&format!("=========     {}\n", f.message));
        out.push_str("=========\n");
    }
    for tool in Tool::ALL {
        let of: Vec<&Finding> = findings.iter().filter(|f| f.tool == tool).collect();
        let errors = of.iter().filter(|f| f.severity == Severity::Error).count();
        out.push_str(&format!(
            "========= {} SUMMARY: {} finding(s) ({errors} error(s), {} warning(s))\n",
            tool.name().to_uppercase(),
            of.len(),
            of.len() - errors
        ));
    }
    out
}

fn at_line(file: &str, line: u32) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" at {file}:{line}")
    }
}
