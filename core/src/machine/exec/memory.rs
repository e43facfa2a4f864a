//! Loads, stores and atomics: each lane's address, the faults of a bad one, the transactions a
//! global access counts, and byte and halfword accesses on the word they lie in (memory is
//! words; such a store reads the word, changes its bytes and writes it back).

use alloc::format;

use super::{arith, gather, BadAccess, ExecError};
use crate::isa::{AccessKind, Address, AtomOp, Reg, Space, Src, Width};
use crate::machine::{LaneAccess, LaneMask, Machine, Miss, MAX_WARP};

/// The byte address `word` of an access at `a` reads in `lane` (`machine::touches` shares it).
pub(in crate::machine) fn address(m: &Machine, lane: u32, a: Address, word: u32) -> u32 {
    m.reg(lane, a.base).wrapping_add(a.offset as u32).wrapping_add(word * 4)
}

/// Logs `lane`'s access for the checks, when they watch.
fn log(m: &mut Machine, lane: u32, addr: u32, bytes: u32, kind: AccessKind, unwritten: bool) {
    if let Some(log) = m.accesses.as_mut() {
        log.push(LaneAccess { lane, addr, bytes, kind, unwritten });
    }
}

/// Whether a check watches the run and the `bytes` at `addr` were never written (read before
/// an atomic writes them).
fn unwritten_before(m: &Machine, addr: u32, bytes: u32) -> bool {
    m.accesses.is_some() && !m.memory.bytes_written(addr, bytes)
}

/// Bytes per memory transaction (a cache line / coalescing segment).
pub const SEGMENT_BYTES: u32 = 128;

/// Counts one memory instruction and the distinct segments its lanes touch.
fn count_transactions(m: &mut Machine, lanes: LaneMask, addr: Address, words: u32) {
    let mut segs = [0u32; 2 * MAX_WARP as usize];
    let mut n = 0;
    for l in lanes.iter() {
        for w in [0, words.saturating_sub(1)] {
            let s = address(m, l, addr, w) / SEGMENT_BYTES;
            if !segs[..n].contains(&s) {
                segs[n] = s;
                n += 1;
            }
        }
    }
    m.mem_instructions += 1;
    m.mem_transactions += n as u64;
}

/// One memory instruction (`kind`: load, store or atomic) of `lanes` at `addr` in `space`: what
/// its faults say.
struct Access {
    kind: &'static str,
    lanes: LaneMask,
    addr: Address,
    space: Space,
}

impl Access {
    /// The fault of `lane`'s access of `bytes` at byte address `at`. Past a buffer, it names the
    /// buffer the instruction's other lanes reach: a lane past an array's end is told about that
    /// array, not the neighbour its address happens to be nearest.
    fn fault(&self, m: &Machine, lane: u32, at: u32, bytes: u32, miss: Miss) -> ExecError {
        let kind = self.kind;
        let bad = BadAccess { lane, addr: at, misaligned: !at.is_multiple_of(bytes.min(4)) };
        let message = match miss {
            Miss::Outside => {
                let (space, addr) = (self.space, self.addr);
                let aimed = self.lanes.iter().find_map(|l| m.memory.find_bytes(space, address(m, l, addr, 0), bytes).ok().map(|(k, _)| k));
                format!("{kind} by lane {lane} at address {at:#x}: {}", m.memory.miss_detail(at, bytes, aimed))
            }
            Miss::OtherSpace(there) => {
                let fits =
                    if there == Space::Shared { "LDS/STS/ATOMS and generic LD/ST/ATOM" } else { "LDG/STG/ATOMG and generic LD/ST/ATOM" };
                format!(
                    "{kind} by lane {lane} at address {at:#x}: the address is in {} memory, but the instruction accesses {} memory ({fits} access {} memory)",
                    there.name(),
                    self.space.name(),
                    there.name()
                )
            }
        };
        ExecError::Access(bad, message)
    }
}

/// The bit where a byte or halfword at `at` starts in the word it lies in; a halfword must be
/// 2-byte aligned.
fn sub_word_shift(kind: &str, lane: u32, at: u32, width: Width) -> Result<u32, ExecError> {
    let bytes = width.bytes();
    if !at.is_multiple_of(bytes) {
        let bad = BadAccess { lane, addr: at, misaligned: true };
        return Err(ExecError::Access(bad, format!("{kind} by lane {lane} at address {at:#x}: not {bytes}-byte aligned")));
    }
    Ok(8 * (at & 3))
}

/// A byte or halfword of `word` from bit `shift`, zero- or sign-extended as `width` says.
fn extract(word: u32, shift: u32, width: Width) -> u32 {
    let v = word >> shift;
    match width {
        Width::U8 => v & 0xff,
        Width::S8 => v as u8 as i8 as i32 as u32,
        Width::U16 => v & 0xffff,
        Width::S16 => v as u16 as i16 as i32 as u32,
        _ => word,
    }
}

/// `LD`/`LDG`/`LDS`: each lane's words into consecutive registers from `dst`.
pub fn load(m: &mut Machine, lanes: LaneMask, dst: Reg, addr: Address, width: Width, space: Space) -> Result<(), ExecError> {
    let access = Access { kind: "load", lanes, addr, space };
    if space != Space::Shared {
        count_transactions(m, lanes, addr, width.words());
    }
    for l in lanes.iter() {
        if width.sub_word() {
            let at = address(m, l, addr, 0);
            let shift = sub_word_shift("load", l, at, width)?;
            let (k, i) = m.memory.find_bytes(space, at, width.bytes()).map_err(|e| access.fault(m, l, at, width.bytes(), e))?;
            let (v, written) = m.memory.word_noting(k, i, at & 3, width.bytes());
            note_unwritten(m, written, l, at);
            log(m, l, at, width.bytes(), AccessKind::Read, !written);
            m.set_reg(l, dst, extract(v, shift, width));
            continue;
        }
        // Every word is read before any is written: the destination may be the address's own
        // register (`LDG.E.64 R6, [R6]`, as ptxas writes it).
        let mut words = [0u32; 4];
        for w in 0..width.words() {
            let at = address(m, l, addr, w);
            let (v, written) = m.memory.load_noting(space, at).map_err(|e| access.fault(m, l, at, 4, e))?;
            note_unwritten(m, written, l, at);
            log(m, l, at, 4, AccessKind::Read, !written);
            words[w as usize] = v;
        }
        for w in 0..width.words() {
            if dst.0 as u32 + w < 255 {
                m.set_reg(l, Reg(dst.0 + w as u8), words[w as usize]);
            }
        }
    }
    Ok(())
}

/// Keeps the run's first read of a shared word its warp had not written (a global one is
/// initcheck's, which sees the whole launch).
fn note_unwritten(m: &mut Machine, written: bool, lane: u32, addr: u32) {
    if !written && crate::machine::window_of(addr) == Space::Shared && m.unwritten_read.is_none() {
        m.unwritten_read = Some(super::super::UnwrittenRead { lane, addr });
    }
}

/// `ST`/`STG`/`STS`: each lane's registers from `src` into its words; a byte or halfword store
/// writes the register's low bits into the word they land in.
pub fn store(m: &mut Machine, lanes: LaneMask, src: Reg, addr: Address, width: Width, space: Space) -> Result<(), ExecError> {
    let access = Access { kind: "store", lanes, addr, space };
    if space != Space::Shared {
        count_transactions(m, lanes, addr, width.words());
    }
    for l in lanes.iter() {
        if width.sub_word() {
            let at = address(m, l, addr, 0);
            let shift = sub_word_shift("store", l, at, width)?;
            let (k, i) = m.memory.find_bytes(space, at, width.bytes()).map_err(|e| access.fault(m, l, at, width.bytes(), e))?;
            let old = m.memory.words[k][i];
            let mask = if width.bytes() == 1 { 0xffu32 } else { 0xffff } << shift;
            m.memory.set_word(k, i, (old & !mask) | ((m.reg(l, src) << shift) & mask), at & 3, width.bytes());
            log(m, l, at, width.bytes(), AccessKind::Write, false);
            continue;
        }
        for w in 0..width.words() {
            let at = address(m, l, addr, w);
            let v = if src.is_zero() { 0 } else { m.reg(l, Reg(src.0.saturating_add(w as u8))) };
            m.memory.store_in(space, at, v).map_err(|e| access.fault(m, l, at, 4, e))?;
            log(m, l, at, 4, AccessKind::Write, false);
        }
    }
    Ok(())
}

/// A register pair's 64 bits in one lane (an immediate zero-extended; `-` negates).
fn pair(m: &Machine, lane: u32, s: Src) -> u64 {
    match s {
        Src::Imm(v) => v as u64,
        Src::Reg { reg, negated } => {
            let hi = if reg.is_zero() || reg.0 >= 254 { Reg::RZ } else { Reg(reg.0 + 1) };
            let v = (m.reg(lane, hi) as u64) << 32 | m.reg(lane, reg) as u64;
            if negated {
                v.wrapping_neg()
            } else {
                v
            }
        }
    }
}

/// `ATOM`/`ATOMG`/`ATOMS`: each lane in turn, in lane order, reads its word (two with `wide`),
/// stores the new value and gets the old one.
#[allow(clippy::too_many_arguments)]
pub fn atom<const N: usize>(
    m: &mut Machine,
    lanes: LaneMask,
    op: AtomOp,
    dst: Reg,
    addr: Address,
    b: Src,
    c: Src,
    space: Space,
    wide: bool,
) -> Result<(), ExecError> {
    let words = 1 + wide as u32;
    if space != Space::Shared {
        count_transactions(m, lanes, addr, words);
    }
    let access = Access { kind: "atomic", lanes, addr, space };
    let fail = |m: &Machine, l: u32, at: u32, e: Miss| access.fault(m, l, at, 4, e);
    if wide {
        for l in lanes.iter() {
            let (lo_at, hi_at) = (address(m, l, addr, 0), address(m, l, addr, 1));
            let lo = m.memory.load_in(space, lo_at).map_err(|e| fail(m, l, lo_at, e))?;
            let hi = m.memory.load_in(space, hi_at).map_err(|e| fail(m, l, hi_at, e))?;
            let old = (hi as u64) << 32 | lo as u64;
            let unwritten = unwritten_before(m, lo_at, 8);
            let new = arith::atom64(op, old, pair(m, l, b), pair(m, l, c));
            m.memory.store_in(space, lo_at, new as u32).map_err(|e| fail(m, l, lo_at, e))?;
            m.memory.store_in(space, hi_at, (new >> 32) as u32).map_err(|e| fail(m, l, hi_at, e))?;
            log(m, l, lo_at, 8, AccessKind::Update, unwritten);
            m.set_reg(l, dst, old as u32);
            if !dst.is_zero() && dst.0 < 254 {
                m.set_reg(l, Reg(dst.0 + 1), (old >> 32) as u32);
            }
        }
        return Ok(());
    }
    let bs = gather::<N>(m, b, op == AtomOp::AddF32);
    let cs = gather::<N>(m, c, false);
    for l in lanes.iter() {
        let at = address(m, l, addr, 0);
        let old = m.memory.load_in(space, at).map_err(|e| fail(m, l, at, e))?;
        let unwritten = unwritten_before(m, at, 4);
        let new = arith::atom(op, old, bs[l as usize], cs[l as usize]);
        m.memory.store_in(space, at, new).map_err(|e| fail(m, l, at, e))?;
        log(m, l, at, 4, AccessKind::Update, unwritten);
        m.set_reg(l, dst, old);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
