//! The CUDA runtime's calls: memory (`cudaMalloc`, `cudaMemcpy` of every kind, `cudaMemset`,
//! the symbol copies), synchronisation, errors and their strings, and events, whose times are
//! the cost model's (simulated, and said so).

use alloc::format;
use alloc::string::String;

use super::calls::*;
use crate::isa::Reg;
use crate::machine::{ElemType, Machine, Memory, Space, HOST_BASE};

/// The H100's warp schedulers (132 SMs of 4) and its boost clock: a launch's simulated time is
/// its cost-model cycles spread over the schedulers its warps fill.
const SCHEDULERS: f64 = 528.0;
const CLOCK_GHZ: f64 = 1.98;

/// Each error code's `cudaGetErrorName` and `cudaGetErrorString`.
const ERRORS: &[(u32, &str, &str)] = &[
    (0, "cudaSuccess", "no error"),
    (INVALID_VALUE, "cudaErrorInvalidValue", "invalid argument"),
    (MEMORY_ALLOCATION, "cudaErrorMemoryAllocation", "out of memory"),
    (INVALID_CONFIGURATION, "cudaErrorInvalidConfiguration", "invalid configuration argument"),
    (INVALID_RESOURCE_HANDLE, "cudaErrorInvalidResourceHandle", "invalid resource handle"),
    (ILLEGAL_ADDRESS, "cudaErrorIllegalAddress", "an illegal memory access was encountered"),
    (MISALIGNED_ADDRESS, "cudaErrorMisalignedAddress", "misaligned address"),
    (LAUNCH_FAILURE, "cudaErrorLaunchFailure", "unspecified launch failure"),
];

impl Host<'_> {
    /// A `cuda*` call (`rest`: what the call's name carries after it).
    pub(super) fn cuda(&mut self, call: &str, rest: &str, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let slot = |m: &Machine, k: u8| arg(m, base, k);
        match call {
            "cudaMalloc" | "cudaMallocManaged" => {
                let mut parts = rest.split(' ');
                let managed = call == "cudaMallocManaged";
                self.cuda_malloc(parts.next().filter(|p| !p.is_empty()), parts.next(), managed, line, base, m)
            }
            "cudaFree" => {
                let p = slot(m, 1);
                if let Some(k) = self.managed.iter().position(|&q| q == p) {
                    self.managed.remove(k);
                    if let Some(j) = m.memory.buffers.iter().position(|b| b.base == p) {
                        m.memory.remove(j);
                    }
                }
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
            "cudaMemcpyToSymbol" | "cudaMemcpyFromSymbol" => self.symbol_copy(call == "cudaMemcpyToSymbol", rest, line, base, m),
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
            "cudaGetErrorString" | "cudaGetErrorName" => {
                let code = slot(m, 1);
                let known = ERRORS.iter().find(|e| e.0 == code);
                let text = match (known, call == "cudaGetErrorName") {
                    (Some(e), true) => String::from(e.1),
                    (Some(e), false) => String::from(e.2),
                    (None, true) => String::from("cudaErrorUnknown"),
                    (None, false) => String::from("unrecognized error code"),
                };
                self.string(&text, m)
            }
            _ => self.event(call, line, base, m),
        }
    }

    /// `cudaEventCreate`, `Record`, `Synchronize`, `ElapsedTime` and `Destroy`: times on the
    /// simulated clock that launches advance.
    fn event(&mut self, call: &str, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let slot = |m: &Machine, k: u8| arg(m, base, k);
        let handle = |h: u32| h.checked_sub(1).map(|k| k as usize);
        match call {
            "cudaEventCreate" => {
                self.events.push(None);
                match write_word(slot(m, 1), self.events.len() as u32, base, m) {
                    Some(()) => self.error(0),
                    None => {
                        self.fail(INVALID_VALUE, line, String::from("`cudaEventCreate`'s argument is not where an event can be written"))
                    }
                }
            }
            "cudaEventRecord" => match handle(slot(m, 1)).and_then(|k| self.events.get_mut(k)) {
                Some(e) => {
                    *e = Some(self.clock_ms);
                    self.error(0)
                }
                None => {
                    self.fail(INVALID_RESOURCE_HANDLE, line, String::from("`cudaEventRecord` of an event `cudaEventCreate` did not make"))
                }
            },
            "cudaEventSynchronize" | "cudaEventDestroy" => {
                if call == "cudaEventSynchronize" {
                    self.flush();
                }
                self.error(0)
            }
            "cudaEventElapsedTime" => {
                let times = [slot(m, 2), slot(m, 3)].map(|h| handle(h).and_then(|k| self.events.get(k).copied().flatten()));
                let [Some(start), Some(stop)] = times else {
                    return self.fail(
                        INVALID_RESOURCE_HANDLE,
                        line,
                        String::from("`cudaEventElapsedTime` of an event never recorded (`cudaEventRecord` it first)"),
                    );
                };
                self.tell_once(
                    "events",
                    line,
                    "`cudaEventElapsedTime` gives simulated time: the launches' cost-model cycles spread over an H100's 528 warp schedulers at 1.98 GHz, not a measurement",
                );
                let ms = (stop - start) as f32;
                match write_word(slot(m, 1), ms.to_bits(), base, m) {
                    Some(()) => self.error(0),
                    None => self.fail(
                        INVALID_VALUE,
                        line,
                        String::from("`cudaEventElapsedTime`'s first argument is not where a float can be written"),
                    ),
                }
            }
            other => {
                self.failed = Some(super::run::ProgramEnd::Failed {
                    line,
                    message: format!("internal error: the host runner has no call `{other}`"),
                });
                0
            }
        }
    }

    /// Managed memory's host side copied to the device (`to_device`, before a launch) or back.
    pub(super) fn sync_managed(&mut self, to_device: bool, m: &mut Machine) {
        for &p in &self.managed {
            let (from, to) = if to_device { (&m.memory, &mut self.device) } else { (&self.device, &mut m.memory) };
            let Some(size) = from.buffers.iter().find(|b| b.base == p).map(|b| b.size()) else { continue };
            if let Some(bytes) = from.read_bytes(p, size) {
                to.write_bytes(p, &bytes);
            }
        }
    }

    /// Advances the simulated clock by a launch of `warps` warps that took `cycles` cycles
    /// summed over its warps.
    pub(super) fn advance_clock(&mut self, cycles: u64, warps: u64) {
        let lanes = (warps as f64).clamp(1.0, SCHEDULERS);
        self.clock_ms += cycles as f64 / lanes / (CLOCK_GHZ * 1e6);
    }

    /// `cudaMemcpyToSymbol(symbol, src, n, offset)` (`to`) or `cudaMemcpyFromSymbol(dst, symbol,
    /// n, offset)`: `name` is the symbol, placed in device memory as a launch places it.
    fn symbol_copy(&mut self, to: bool, name: &str, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let (host, n, offset) = (arg(m, base, 1), arg(m, base, 2), arg(m, base, 3));
        if !to {
            self.flush();
        }
        let Some(a) = self.arrays.iter().find(|a| a.name == name) else {
            return self.fail(INVALID_VALUE, line, format!("no symbol `{name}`"));
        };
        let at = super::device::global_array(a, &mut self.device).wrapping_add(offset);
        let call = if to { "cudaMemcpyToSymbol" } else { "cudaMemcpyFromSymbol" };
        let moved = if to {
            read_host(host, n, base, m).and_then(|bytes| self.device.write_bytes(at, &bytes))
        } else {
            self.device.read_bytes(at, n).and_then(|bytes| write_host(host, &bytes, base, m))
        };
        match moved {
            Some(()) => self.error(0),
            None => self.fail(
                INVALID_VALUE,
                line,
                format!("`{call}` of {n} bytes at offset {offset} of `{name}`: past the end of the variable, or of the host memory"),
            ),
        }
    }

    /// `cudaMalloc`, or `cudaMallocManaged` (`managed`): device memory that host code reads and
    /// writes too, held in both memories at one address and copied across around each launch.
    fn cuda_malloc(&mut self, var: Option<&str>, elem: Option<&str>, managed: bool, line: u32, base: Reg, m: &mut Machine) -> u32 {
        let (at, bytes) = (arg(m, base, 1), arg(m, base, 2));
        let elem = elem.and_then(ElemType::from_name).unwrap_or(ElemType::U8);
        let name = String::from(var.unwrap_or("cudaMalloc"));
        let p = match allocate(&mut self.device, &name, elem, bytes) {
            Ok(p) => p,
            Err(why) => return self.fail(MEMORY_ALLOCATION, line, why),
        };
        if !managed {
            // Device memory starts undefined: initcheck counts its bytes written once a host
            // copy, a memset or a launch writes them (managed memory is the host's, written).
            self.device.track_writes(self.device.buffers.len() - 1);
        } else {
            let held = &self.device.buffers[self.device.buffers.len() - 1];
            let (count, words) = (held.count, held.len);
            m.memory.add_at(p, Space::Global, &name, elem, count, alloc::vec![0; words as usize]);
            self.managed.push(p);
        }
        match write_word(at, p, base, m) {
            Some(()) => self.error(0),
            None => {
                self.fail(INVALID_VALUE, line, format!("`cudaMalloc`'s first argument, {at:#x}, is not where a pointer can be written"))
            }
        }
    }

    /// `cudaMemcpy(dst, src, n, kind)`, each side where `kind` says.
    fn copy(&mut self, [dst, src]: [u32; 2], n: u32, kind: u32, line: u32, base: Reg, m: &mut Machine) -> u32 {
        // Managed memory is either side's; between launches its host copy is the one that holds.
        let managed_at =
            |p: u32| self.managed.iter().any(|&q| m.memory.buffers.iter().any(|b| b.base == q && (q..q + b.size()).contains(&p)));
        let (managed_dst, managed_src) = (managed_at(dst), managed_at(src));
        let managed = |p: u32| if p == dst { managed_dst } else { managed_src };
        let on_host = |p: u32| p >= HOST_BASE || managed(p);
        let (dst_host, src_host) = match kind {
            0 => (true, true),
            1 => (false, true),
            2 => (true, false),
            3 => (false, false),
            _ => (on_host(dst), on_host(src)),
        };
        let (dst_host, src_host) = (dst_host || managed(dst), src_host || managed(src));
        let names = ["cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"];
        let kind_name = names.get(kind as usize).copied().unwrap_or("cudaMemcpyDefault");
        let side = |host: bool| if host { "host" } else { "device" };
        for (p, host, what) in [(dst, dst_host, "destination"), (src, src_host, "source")] {
            if on_host(p) != host && !managed(p) {
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
}
