//! The host runner's side of each `HOST` call: the C library (`malloc`, `rand`, `exit`), the
//! CUDA runtime (`cudaMalloc`, `cudaMemcpy`, errors, synchronisation) and launches, on the
//! program's host memory (the host machine's) and device memory (held here between launches).
//! Device `printf` lines wait for a point where CUDA flushes them (a synchronisation, a
//! blocking copy, the next launch), as on a GPU.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::device::DeviceKernel;
use super::libc::Rand;
use super::run::{note, HostLaunch, ProgramEnd, ProgramRun};
use crate::diag::Diagnostic;
use crate::isa::{Reg, CALL_SLOTS};
use crate::kernel::LaunchDecl;
use crate::launch::LaunchOptions;
use crate::machine::{ElemType, Machine, Memory, Space, HOST_BASE};
use crate::program::Program;
use crate::sim::{StopReason, WarpState};

/// The most words host memory, and device memory, may hold (64 MiB each).
pub const MAX_WORDS: u64 = 1 << 24;

/// CUDA's error codes, as `cudaError_t` numbers them.
const INVALID_VALUE: u32 = 1;
const MEMORY_ALLOCATION: u32 = 2;
const INVALID_CONFIGURATION: u32 = 9;
const ILLEGAL_ADDRESS: u32 = 700;
const LAUNCH_FAILURE: u32 = 719;

/// What the host runner keeps between calls.
pub struct Host<'a> {
    src: &'a str,
    opts: &'a LaunchOptions,
    device: Memory,
    rand: Rand,
    kernels: BTreeMap<String, DeviceKernel>,
    stdout: String,
    stderr: String,
    /// Device lines printed and not yet flushed.
    pending: Vec<String>,
    /// Host `printf` records already taken.
    printed: usize,
    /// The next host line goes to stderr (`fprintf(stderr, ...)`).
    to_stderr: bool,
    /// `cudaGetLastError`'s error, and an error that stays (a faulted kernel's).
    last_error: u32,
    sticky: u32,
    launches: Vec<HostLaunch>,
    notes: Vec<Diagnostic>,
    failed: Option<ProgramEnd>,
    mallocs: u32,
}

impl<'a> Host<'a> {
    pub fn new(src: &'a str, opts: &'a LaunchOptions) -> Host<'a> {
        Host {
            src,
            opts,
            device: Memory::default(),
            rand: Rand::default(),
            kernels: BTreeMap::new(),
            stdout: String::new(),
            stderr: String::new(),
            pending: Vec::new(),
            printed: 0,
            to_stderr: false,
            last_error: 0,
            sticky: 0,
            launches: Vec::new(),
            notes: Vec::new(),
            failed: None,
            mallocs: 0,
        }
    }

    /// The host's `printf` lines since the last call.
    pub fn take_output(&mut self, program: &Program, st: &WarpState) {
        for r in st.machine.output.records().skip(self.printed) {
            let text = crate::printf::line(&program.formats, r).text;
            if core::mem::take(&mut self.to_stderr) {
                self.stderr.push_str(&text);
            } else {
                self.stdout.push_str(&text);
            }
            self.printed += 1;
        }
    }

    /// Does call `name` from line `line`, its registers from `base`; how the program ends, if
    /// the call ends it.
    pub fn serve(&mut self, name: &str, line: u32, base: Reg, words: u8, m: &mut Machine) -> Option<ProgramEnd> {
        let slot = |m: &Machine, k: u8| m.reg(0, Reg(base.0 + k));
        let mut parts = name.split(' ');
        let call = parts.next().unwrap_or("");
        let result = match call {
            "launch" => self.launch(parts.next().unwrap_or(""), line, base, words, m),
            "malloc" | "calloc" => {
                let bytes = if call == "calloc" { slot(m, 1).saturating_mul(slot(m, 2)) } else { slot(m, 1) };
                self.mallocs += 1;
                let name = format!("malloc {} (line {line})", self.mallocs);
                allocate(&mut m.memory, &name, ElemType::U8, bytes).unwrap_or_else(|why| {
                    self.notes.push(note(line, why));
                    0
                })
            }
            "free" => {
                let p = slot(m, 1);
                if let Some(k) = m.memory.buffers.iter().position(|b| b.base == p).filter(|_| p != 0) {
                    m.memory.remove(k);
                } else if p != 0 {
                    return Some(ProgramEnd::Failed {
                        line,
                        message: format!("`free({p:#x})`: not a pointer `malloc` returned (glibc aborts: \"free(): invalid pointer\")"),
                    });
                }
                0
            }
            "rand" => self.rand.rand(),
            "srand" => {
                self.rand = Rand::seeded(slot(m, 1));
                0
            }
            "exit" => {
                self.lose_pending(line, "`exit`");
                return Some(ProgramEnd::Exited(slot(m, 1) as i32));
            }
            "stderr" => {
                self.to_stderr = true;
                0
            }
            "cudaMalloc" => self.cuda_malloc(parts.next(), parts.next(), line, base, m),
            "cudaFree" => {
                let p = slot(m, 1);
                match self.device.buffers.iter().position(|b| b.base == p && b.space == Space::Global) {
                    Some(k) => {
                        self.device.remove(k);
                        self.error(0)
                    }
                    None if p == 0 => self.error(0),
                    None => self.fail(INVALID_VALUE, line, format!("`cudaFree({p:#x})`: not a pointer `cudaMalloc` returned")),
                }
            }
            "cudaMemcpy" => {
                self.flush();
                if self.sticky != 0 {
                    self.sticky
                } else {
                    self.copy([slot(m, 1), slot(m, 2)], slot(m, 3), slot(m, 4), line, base, m)
                }
            }
            "cudaMemset" => {
                let (p, value, n) = (slot(m, 1), slot(m, 2) as u8, slot(m, 3));
                let bytes = alloc::vec![value; n as usize];
                match self.device.write_bytes(p, &bytes) {
                    Some(()) => self.error(0),
                    None => self.fail(
                        INVALID_VALUE,
                        line,
                        format!("`cudaMemset` of {n} bytes at {p:#x}: not inside one `cudaMalloc` allocation"),
                    ),
                }
            }
            "cudaDeviceSynchronize" | "cudaThreadSynchronize" | "cudaDeviceReset" => {
                self.flush();
                if call == "cudaDeviceReset" {
                    self.device = Memory::default();
                }
                self.sticky
            }
            "cudaGetLastError" => {
                let e = self.pending_error();
                self.last_error = 0;
                e
            }
            "cudaPeekAtLastError" => self.pending_error(),
            other => {
                return Some(ProgramEnd::Failed { line, message: format!("internal error: the host runner has no call `{other}`") });
            }
        };
        m.set_reg(0, base, result);
        self.failed.take()
    }

    /// What `cudaGetLastError` returns: a faulted kernel's error, which stays, else the last.
    fn pending_error(&self) -> u32 {
        if self.sticky != 0 {
            self.sticky
        } else {
            self.last_error
        }
    }

    /// A call's error code: kept for `cudaGetLastError` when not 0.
    fn error(&mut self, code: u32) -> u32 {
        if code != 0 {
            self.last_error = code;
        }
        code
    }

    /// A failed call: its error code, and a note saying why at its line.
    fn fail(&mut self, code: u32, line: u32, why: String) -> u32 {
        self.notes.push(note(line, why));
        self.error(code)
    }

    fn cuda_malloc(&mut self, var: Option<&str>, elem: Option<&str>, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let (at, bytes) = (m.reg(0, Reg(base.0 + 1)), m.reg(0, Reg(base.0 + 2)));
        let elem = elem.and_then(ElemType::from_name).unwrap_or(ElemType::U8);
        let name = String::from(var.unwrap_or("cudaMalloc"));
        let p = match allocate(&mut self.device, &name, elem, bytes) {
            Ok(p) => p,
            Err(why) => return self.fail(MEMORY_ALLOCATION, line, why),
        };
        match write_word(at, p, base, m) {
            Some(()) => self.error(0),
            None => {
                self.fail(INVALID_VALUE, line, format!("`cudaMalloc`'s first argument, {at:#x}, is not where a pointer can be written"))
            }
        }
    }

    /// `cudaMemcpy(dst, src, n, kind)`, each side where `kind` says.
    fn copy(&mut self, [dst, src]: [u32; 2], n: u32, kind: u32, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let on_host = |p: u32| p >= HOST_BASE;
        let (dst_host, src_host) = match kind {
            0 => (true, true),
            1 => (false, true),
            2 => (true, false),
            3 => (false, false),
            _ => (on_host(dst), on_host(src)),
        };
        let names = ["cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"];
        let kind_name = names.get(kind as usize).copied().unwrap_or("cudaMemcpyDefault");
        let side = |host: bool| if host { "host" } else { "device" };
        for (p, host, what) in [(dst, dst_host, "destination"), (src, src_host, "source")] {
            if on_host(p) != host {
                return self.fail(
                    INVALID_VALUE,
                    line,
                    format!("`cudaMemcpy(..., {kind_name})`: its {what} ({p:#x}) is {} memory, not {} memory: are the pointers or the kind swapped?", side(on_host(p)), side(host)),
                );
            }
        }
        let bytes = if src_host { read_host(src, n, base, m) } else { self.device.read_bytes(src, n) };
        let Some(bytes) = bytes else {
            return self.fail(
                INVALID_VALUE,
                line,
                format!("`cudaMemcpy` of {n} bytes from {src:#x}: the source is not that long (past the end of its allocation)"),
            );
        };
        let written = if dst_host { write_host(dst, &bytes, base, m) } else { self.device.write_bytes(dst, &bytes) };
        match written {
            Some(()) => self.error(0),
            None => self.fail(
                INVALID_VALUE,
                line,
                format!("`cudaMemcpy` of {n} bytes to {dst:#x}: the destination is not that long (past the end of its allocation)"),
            ),
        }
    }

    /// `kernel<<<grid, block, shared>>>(args)`: the whole launch, now.
    fn launch(&mut self, kernel: &str, line: u32, base: Reg, words: u8, m: &mut Machine) -> u32 {
        self.flush();
        let w: Vec<u32> = (1..words).map(|k| m.reg(0, Reg(base.0 + k))).collect();
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
            match DeviceKernel::compile(self.src, kernel, self.opts) {
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
        let device = core::mem::take(&mut self.device);
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
        self.pending.extend(run.output.iter().map(|l| l.text.clone()));
        if run.end.reason != StopReason::Exited {
            self.notes.push(note(line, format!("`{kernel}`'s launch failed: {}", run.end.message)));
            self.sticky = if matches!(run.end.reason, StopReason::Fault { .. }) { ILLEGAL_ADDRESS } else { LAUNCH_FAILURE };
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
        });
        0
    }

    /// Device lines printed so far reach stdout (a synchronisation or a blocking copy).
    fn flush(&mut self) {
        for l in self.pending.drain(..) {
            self.stdout.push_str(&l);
        }
    }

    /// Device lines still waiting when the program ends are lost, as on a GPU.
    fn lose_pending(&mut self, line: u32, how: &str) {
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

/// A new allocation of `bytes` in `memory`, zeroed; its address, or why not.
fn allocate(memory: &mut Memory, name: &str, elem: ElemType, bytes: u32) -> Result<u32, String> {
    let words = (bytes as u64).div_ceil(4);
    let held: u64 = memory.buffers.iter().map(|b| b.len as u64).sum();
    if held + words > MAX_WORDS {
        return Err(format!(
            "allocating {bytes} bytes for `{name}` brings memory past warpscope's {} MiB: make the problem smaller",
            (MAX_WORDS * 4) >> 20
        ));
    }
    let count = bytes / elem.bytes();
    Ok(memory.add_elements(Space::Global, name, elem, count, alloc::vec![0; words as usize]))
}

/// The `n` bytes at host address `p` (in the call's own registers from `CALL_SLOTS`).
fn read_host(p: u32, n: u32, base: Reg, m: &Machine) -> Option<Vec<u8>> {
    if p >= CALL_SLOTS {
        let first = (p - CALL_SLOTS) / 4;
        let bytes: Vec<u8> = (0..n.div_ceil(4)).flat_map(|k| m.reg(0, Reg(base.0 + (first + k) as u8)).to_le_bytes()).collect();
        return Some(bytes[..n as usize].to_vec());
    }
    m.memory.read_bytes(p, n)
}

fn write_host(p: u32, bytes: &[u8], base: Reg, m: &mut Machine) -> Option<()> {
    if p >= CALL_SLOTS {
        let first = (p - CALL_SLOTS) / 4;
        for (k, chunk) in bytes.chunks(4).enumerate() {
            let r = Reg(base.0 + (first + k as u32) as u8);
            let mut word = m.reg(0, r).to_le_bytes();
            word[..chunk.len()].copy_from_slice(chunk);
            m.set_reg(0, r, u32::from_le_bytes(word));
        }
        return Some(());
    }
    m.memory.write_bytes(p, bytes)
}

fn write_word(p: u32, value: u32, base: Reg, m: &mut Machine) -> Option<()> {
    write_host(p, &value.to_le_bytes(), base, m)
}
