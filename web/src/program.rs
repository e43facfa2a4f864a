//! A whole program's run as the page shows it: what `main()` printed, how it ended, and its
//! launches for the launch picker (the one the views show marked). Formatting only.

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::host::ProgramEnd;
use warpscope_core::machine::Memory;
use warpscope_core::session::program::ProgramShown;

use crate::inputs::FIRST_VALUES;

#[derive(Serialize, TS)]
pub struct ProgramView {
    /// What the program printed (host and device `printf`, in a GPU run's order) and its stderr.
    pub stdout: String,
    pub stderr: String,
    /// `main`'s `return` or `exit(n)`; null when the host code failed.
    pub exit: Option<i32>,
    /// Where and why the host code failed (a fault, the step limit).
    pub failed_line: Option<u32>,
    pub failed: Option<String>,
    /// Notes on the run (device output never flushed, a failed launch, simulated times), by line.
    pub notes: Vec<ProgramNote>,
    pub launches: Vec<ProgramLaunch>,
    /// The launch the views show (an index into `launches`).
    pub shown: Option<u32>,
}

#[derive(Serialize, TS)]
pub struct ProgramNote {
    pub line: u32,
    pub message: String,
}

/// One launch `main` made, as the picker lists it.
#[derive(Serialize, TS)]
pub struct ProgramLaunch {
    pub kernel: String,
    /// The host line that launched it.
    pub line: u32,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    /// How it ended (`exited`, `fault`...).
    pub end: &'static str,
    pub warp_instructions: u64,
    /// Whether the views can show it (its inputs were kept).
    pub viewable: bool,
}

/// A device buffer as a launch found it, for the inputs panel of a program's launch.
#[derive(Serialize, TS)]
pub struct DeviceBufferRow {
    pub name: String,
    pub elem: String,
    pub elements: u32,
    pub first: Vec<String>,
    /// Its address, which a pointer argument holds, and its size in bytes.
    pub base: u32,
    pub bytes: u32,
}

impl ProgramView {
    pub fn new(p: &ProgramShown) -> ProgramView {
        let r = &p.run;
        let (exit, failed_line, failed) = match &r.end {
            ProgramEnd::Exited(code) => (Some(*code), None, None),
            ProgramEnd::Failed { line, message } => (None, Some(*line), Some(message.clone())),
        };
        ProgramView {
            stdout: r.stdout.clone(),
            stderr: r.stderr.clone(),
            exit,
            failed_line,
            failed,
            notes: r.notes.iter().map(|n| ProgramNote { line: n.span.line, message: n.message.clone() }).collect(),
            launches: r
                .launches
                .iter()
                .map(|l| ProgramLaunch {
                    kernel: l.kernel.clone(),
                    line: l.line,
                    grid: l.grid,
                    block: l.block,
                    shared: l.shared,
                    end: l.end.reason.name(),
                    warp_instructions: l.totals.warp_instructions,
                    viewable: l.inputs.is_some(),
                })
                .collect(),
            shown: p.shown.map(|k| k as u32),
        }
    }
}

/// The device buffers of a launch's memory (its `__shared__` ones left out), as it began.
pub fn device_buffers(memory: &Memory) -> Vec<DeviceBufferRow> {
    memory
        .buffers
        .iter()
        .zip(&memory.words)
        .filter(|(b, _)| b.space == warpscope_core::machine::Space::Global)
        .map(|(b, words)| DeviceBufferRow {
            name: b.name.clone(),
            elem: b.elem.name().into(),
            elements: b.elements(),
            first: b.values(words).take(FIRST_VALUES).map(|e| b.elem.shown(e)).collect(),
            base: b.base,
            bytes: b.size(),
        })
        .collect()
}
