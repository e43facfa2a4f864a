//! The host runner's side of each `HOST` call: the C library (`malloc`, `rand`, `exit`) here,
//! the CUDA runtime (`cuda`), launches (`launch`), printing and strings (`text`) and
//! `std::vector` (`vectors`), on the program's host memory (the host machine's) and device
//! memory (held here between launches).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::device::DeviceKernel;
use super::libc::Rand;
use super::run::{note, HostLaunch, ProgramEnd};
use crate::compile::MemoryArray;
use crate::diag::Diagnostic;
use crate::isa::{Reg, CALL_SLOTS};
use crate::launch::LaunchOptions;
use crate::machine::{ElemType, Machine, Memory, Space};

/// The most words host memory, and device memory, may hold (64 MiB each).
pub const MAX_WORDS: u64 = 1 << 24;

/// CUDA's error codes, as `cudaError_t` numbers them.
pub(super) const INVALID_VALUE: u32 = 1;
pub(super) const MEMORY_ALLOCATION: u32 = 2;
pub(super) const INVALID_CONFIGURATION: u32 = 9;
pub(super) const INVALID_RESOURCE_HANDLE: u32 = 400;
pub(super) const ILLEGAL_ADDRESS: u32 = 700;
pub(super) const LAUNCH_FAILURE: u32 = 719;
pub(super) const MISALIGNED_ADDRESS: u32 = 716;

/// What the host runner keeps between calls.
pub struct Host<'a> {
    pub(super) code: super::device::Code<'a>,
    pub(super) opts: &'a LaunchOptions,
    /// The program's `__device__`, `__constant__` and host-code arrays (the host compile's).
    pub(super) arrays: &'a [MemoryArray],
    pub(super) device: Memory,
    pub(super) rand: Rand,
    pub(super) kernels: BTreeMap<String, DeviceKernel>,
    pub(super) stdout: String,
    pub(super) stderr: String,
    /// Device lines printed and not yet flushed.
    pub(super) pending: Vec<String>,
    /// `cudaGetLastError`'s error, and an error that stays (a faulted kernel's).
    pub(super) last_error: u32,
    pub(super) sticky: u32,
    pub(super) launches: Vec<HostLaunch>,
    pub(super) notes: Vec<Diagnostic>,
    pub(super) failed: Option<ProgramEnd>,
    pub(super) mallocs: u32,
    /// Each string's copy in host memory, by text.
    pub(super) strings: BTreeMap<String, u32>,
    /// Each host-code array's address, by name.
    pub(super) placed: BTreeMap<String, u32>,
    /// Each vector's length in elements, by the address of its elements.
    pub(super) vectors: BTreeMap<u32, u32>,
    /// The simulated device clock (ms) and each event's time on it, by handle - 1.
    pub(super) clock_ms: f64,
    pub(super) events: Vec<Option<f64>>,
    /// The `cudaMallocManaged` allocations (at one address in host and device memory).
    pub(super) managed: Vec<u32>,
    /// Words of device memory the launches' kept inputs hold.
    pub(super) kept_words: u64,
    /// Notes given once (keyed by what they are about).
    pub(super) told: Vec<&'static str>,
}

impl<'a> Host<'a> {
    pub fn new(code: super::device::Code<'a>, arrays: &'a [MemoryArray], opts: &'a LaunchOptions) -> Host<'a> {
        Host {
            code,
            opts,
            arrays,
            device: Memory::default(),
            rand: Rand::default(),
            kernels: BTreeMap::new(),
            stdout: String::new(),
            stderr: String::new(),
            pending: Vec::new(),
            last_error: 0,
            sticky: 0,
            launches: Vec::new(),
            notes: Vec::new(),
            failed: None,
            mallocs: 0,
            strings: BTreeMap::new(),
            placed: BTreeMap::new(),
            vectors: BTreeMap::new(),
            clock_ms: 0.0,
            events: Vec::new(),
            managed: Vec::new(),
            kept_words: 0,
            told: Vec::new(),
        }
    }

    /// Does call `name` from line `line`, its registers from `base`; how the program ends, if
    /// the call ends it.
    pub fn serve(&mut self, name: &str, line: u32, base: Reg, words: u8, m: &mut Machine) -> Option<ProgramEnd> {
        let (call, rest) = name.split_once(' ').unwrap_or((name, ""));
        let slot = |m: &Machine, k: u8| arg(m, base, k);
        let result = match call {
            "launch" => self.launch(rest, line, base, words, m),
            "printf" | "eprintf" => self.print(rest, call == "eprintf", line, base, words, m),
            "string" => self.string(rest, m),
            "array" => self.host_array(rest, line, m),
            c if c.starts_with("vector_") => self.vector(c, rest, line, base, m),
            c if c.starts_with("cuda") => self.cuda(c, rest, line, base, m),
            "malloc" | "calloc" => {
                let bytes = if call == "calloc" { slot(m, 1).saturating_mul(slot(m, 2)) } else { slot(m, 1) };
                self.mallocs += 1;
                let name = format!("malloc {} (line {line})", self.mallocs);
                self.allocate_host(&name, ElemType::U8, bytes, line, m)
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
            "time" => {
                self.tell_once("time", line, "`time()` returns 0 here, so a program seeded with it prints the same every run");
                m.set_reg(0, Reg(base.0 + 1), 0);
                0
            }
            "exit" => {
                self.lose_pending(line, "`exit`");
                return Some(ProgramEnd::Exited(slot(m, 1) as i32));
            }
            other => {
                return Some(ProgramEnd::Failed { line, message: format!("internal error: the host runner has no call `{other}`") });
            }
        };
        m.set_reg(0, base, result);
        self.failed.take()
    }

    /// A note at `line`, the first time `key` comes up.
    pub(super) fn tell_once(&mut self, key: &'static str, line: u32, why: &str) {
        if !self.told.contains(&key) {
            self.told.push(key);
            self.notes.push(note(line, String::from(why)));
        }
    }

    /// A new zeroed allocation in host memory: its address, or 0 and a note why not (as
    /// `malloc` returns NULL).
    pub(super) fn allocate_host(&mut self, name: &str, elem: ElemType, bytes: u32, line: u32, m: &mut Machine) -> u32 {
        allocate(&mut m.memory, name, elem, bytes).unwrap_or_else(|why| {
            self.notes.push(note(line, why));
            0
        })
    }

    /// An array of host code at its declaration: placed the first time, its initial values
    /// written every time.
    fn host_array(&mut self, name: &str, line: u32, m: &mut Machine) -> u32 {
        let Some(a) = self.arrays.iter().find(|a| a.name == name) else { return 0 };
        let elem = crate::input::c::elem_type(a.elem);
        let count = a.len(1) * a.width as u32;
        let base = match self.placed.get(name) {
            Some(&b) => b,
            None => {
                let b = self.allocate_host(name, elem, count * elem.bytes(), line, m);
                self.placed.insert(String::from(name), b);
                b
            }
        };
        if a.init.is_some() {
            let words = super::device::initial_words(a, elem, count);
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take((count * elem.bytes()) as usize).collect();
            m.memory.write_bytes(base, &bytes);
        }
        base
    }

    /// What `cudaGetLastError` returns: a faulted kernel's error, which stays, else the last.
    pub(super) fn pending_error(&self) -> u32 {
        if self.sticky != 0 {
            self.sticky
        } else {
            self.last_error
        }
    }

    /// A call's error code: kept for `cudaGetLastError` when not 0.
    pub(super) fn error(&mut self, code: u32) -> u32 {
        if code != 0 {
            self.last_error = code;
        }
        code
    }

    /// A failed call: its error code, and a note saying why at its line.
    pub(super) fn fail(&mut self, code: u32, line: u32, why: String) -> u32 {
        self.notes.push(note(line, why));
        self.error(code)
    }
}

/// A call's argument register `k` (after its result register `base`).
pub(super) fn arg(m: &Machine, base: Reg, k: u8) -> u32 {
    m.reg(0, Reg(base.0 + k))
}

/// A new allocation of `bytes` in `memory`, zeroed; its address, or why not.
pub(super) fn allocate(memory: &mut Memory, name: &str, elem: ElemType, bytes: u32) -> Result<u32, String> {
    let words = (bytes as u64).div_ceil(4);
    let held: u64 = memory.buffers.iter().map(|b| b.len as u64).sum();
    if held + words > MAX_WORDS {
        return Err(format!(
            "allocating {bytes} bytes for `{name}` brings memory past warpscope's {} MiB: make the problem smaller",
            (MAX_WORDS * 4) >> 20
        ));
    }
    let count = bytes / elem.bytes();
    let base = memory.add_elements(Space::Global, name, elem, count, alloc::vec![0; words as usize]);
    if let Some(b) = memory.buffers.last_mut() {
        b.sizing = crate::machine::Sizing::Allocated;
    }
    Ok(base)
}

/// The `n` bytes at host address `p` (in the call's own registers from `CALL_SLOTS`).
pub(super) fn read_host(p: u32, n: u32, base: Reg, m: &Machine) -> Option<Vec<u8>> {
    if p >= CALL_SLOTS {
        let first = (p - CALL_SLOTS) / 4;
        let bytes: Vec<u8> = (0..n.div_ceil(4)).flat_map(|k| m.reg(0, Reg(base.0 + (first + k) as u8)).to_le_bytes()).collect();
        return Some(bytes[..n as usize].to_vec());
    }
    m.memory.read_bytes(p, n)
}

pub(super) fn write_host(p: u32, bytes: &[u8], base: Reg, m: &mut Machine) -> Option<()> {
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

pub(super) fn write_word(p: u32, value: u32, base: Reg, m: &mut Machine) -> Option<()> {
    write_host(p, &value.to_le_bytes(), base, m)
}
