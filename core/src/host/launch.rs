//! A launch from host code, now, on the whole-launch engine; and device `printf`'s lines,
//! which wait for a point where CUDA flushes them (a synchronisation, a blocking copy, the next
//! launch), as on a GPU.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::calls::*;
use super::device::DeviceKernel;
use super::run::{note, HostLaunch, LaunchInputs, ProgramEnd, ProgramRun};
use crate::diag::{Diagnostic, Severity};
use crate::isa::Reg;
use crate::kernel::LaunchDecl;
use crate::machine::{Machine, Space};
use crate::sim::StopReason;

/// The most device-memory words the launches' kept inputs hold together (256 MiB).
const KEPT_WORDS: u64 = 1 << 26;

impl Host<'_> {
    /// `kernel<<<grid, block, shared>>>(args)`: the whole launch, now.
    pub(super) fn launch(&mut self, kernel: &str, line: u32, base: Reg, words: u8, m: &mut Machine) -> u32 {
        self.flush();
        let w: Vec<u32> = (1..words).map(|k| arg(m, base, k)).collect();
        if w.len() < 7 {
            self.failed = Some(ProgramEnd::Failed {
                line,
                message: format!(
                    "`HOST \"launch {kernel}\"` passes {} registers: a launch passes the grid, the block and the shared bytes first",
                    words
                ),
            });
            return 0;
        }
        let (grid, block, shared) = ([w[0], w[1], w[2]], [w[3], w[4], w[5]], w[6]);
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        if grid.contains(&0) || block.contains(&0) || threads > 1024 || block[2] > 64 || grid[1] > 65535 || grid[2] > 65535 {
            let why = format!(
                "`{kernel}<<<({}, {}, {}), ({}, {}, {})>>>` is not a valid launch (each size at least 1, at most 1024 threads a block, z at most 64): it did not run, and `cudaGetLastError` returns cudaErrorInvalidConfiguration",
                grid[0], grid[1], grid[2], block[0], block[1], block[2]
            );
            self.fail(INVALID_CONFIGURATION, line, why);
            return 0;
        }
        if self.sticky != 0 {
            return 0;
        }
        if !self.kernels.contains_key(kernel) {
            match DeviceKernel::compile(self.code, kernel, self.opts) {
                Ok(k) => {
                    self.kernels.insert(String::from(kernel), k);
                }
                Err(why) => {
                    self.failed = Some(ProgramEnd::Failed { line, message: format!("`{kernel}` could not be compiled: {why}") });
                    return 0;
                }
            }
        }
        let decl = LaunchDecl { grid, block, block_idx: [0; 3], warp_idx: 0, shared: Some(shared) };
        self.sync_managed(true, m);
        let device = core::mem::take(&mut self.device);
        // What the launch starts from, kept so that a front end can show it again (while the
        // copies stay within `KEPT_WORDS`).
        let words: u64 = device.buffers.iter().map(|b| b.len as u64).sum();
        let inputs = (self.kept_words + words <= KEPT_WORDS).then(|| {
            self.kept_words += words;
            LaunchInputs { decl, words: w[7..].to_vec(), memory: device.clone() }
        });
        let k = &self.kernels[kernel];
        let launcher = match k.launcher(decl, &w[7..], device, self.opts) {
            Ok(l) => l,
            Err(why) => {
                self.failed = Some(ProgramEnd::Failed { line, message: why });
                return 0;
            }
        };
        let run = crate::grid::run_launcher(launcher);
        let mut device = run.memory;
        for k in (0..device.buffers.len()).rev() {
            if device.buffers[k].space == Space::Shared {
                device.remove(k);
            }
        }
        self.device = device;
        self.sync_managed(false, m);
        self.pending.extend(super::printf_order::gpu_order(&run.output, grid, block));
        let blocks: u64 = grid.iter().map(|&g| g as u64).product();
        self.advance_clock(run.totals.cycles, blocks * threads.div_ceil(32));
        if run.end.reason != StopReason::Exited {
            let message = format!("`{kernel}`'s launch failed: {}", run.end.message);
            self.notes.push(Diagnostic { severity: Severity::Warning, ..note(line, message) });
            self.sticky = match run.end.reason {
                StopReason::Fault { access: Some(a), .. } if a.misaligned => MISALIGNED_ADDRESS,
                StopReason::Fault { .. } => ILLEGAL_ADDRESS,
                _ => LAUNCH_FAILURE,
            };
        }
        self.launches.push(HostLaunch {
            kernel: String::from(kernel),
            line,
            grid,
            block,
            shared,
            params: run.params,
            end: run.end,
            totals: run.totals,
            inputs,
        });
        0
    }

    /// Device lines printed so far reach stdout (a synchronisation or a blocking copy).
    pub(super) fn flush(&mut self) {
        for l in self.pending.drain(..) {
            self.stdout.push_str(&l);
        }
    }

    /// Device lines still waiting when the program ends are lost, as on a GPU.
    pub(super) fn lose_pending(&mut self, line: u32, how: &str) {
        if !self.pending.is_empty() {
            let n = self.pending.len();
            self.notes.push(note(line, format!(
                "{n} line(s) the kernel printed were never shown: the program ended ({how}) before a `cudaDeviceSynchronize()` or a blocking `cudaMemcpy`, which is when a GPU flushes device `printf`"
            )));
            self.pending.clear();
        }
    }

    pub fn finish(mut self, end: ProgramEnd, host_steps: u64) -> ProgramRun {
        if let ProgramEnd::Exited(_) = end {
            self.lose_pending(0, "`main` returned");
        }
        ProgramRun { stdout: self.stdout, stderr: self.stderr, end, launches: self.launches, host_steps, notes: self.notes }
    }
}
