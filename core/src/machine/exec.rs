//! The data path: what a non-control instruction does to the lanes it runs on.
//! Shared by every reconvergence model, which only decide the pc and the lanes.

mod arith;
mod bits;
mod float;
mod memory;
#[cfg(not(target_arch = "wasm32"))]
mod rows;
mod warp;
mod wide;

use alloc::string::String;

use super::{LaneMask, Machine, MAX_WARP};
use crate::isa::*;
pub(super) use memory::address;
pub use memory::SEGMENT_BYTES;
#[cfg(not(target_arch = "wasm32"))]
use rows::in_place;
// Natively the vector loops read register rows in place (`rows`); the wasm build copies.
#[cfg(not(target_arch = "wasm32"))]
use rows::{map2, map3};
pub use warp::{check_members, member_lanes, shfl_source};
#[cfg(target_arch = "wasm32")]
use {map2_copied as map2, map3_copied as map3};

/// Why an instruction could not run.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ExecError {
    /// A fault other than a memory access's, described in full.
    Fault(String),
    /// A memory access outside every buffer (or in the other memory), or misaligned: which
    /// lane and address, and the fault described in full.
    Access(BadAccess, String),
    /// A `_sync` instruction's member mask names lanes that do not execute it; the caller, who
    /// knows where each lane is, says where they are.
    Members(MemberFault),
    /// These lanes executed `BPT.TRAP`, which aborts the kernel; the caller, who knows the
    /// instruction's line, says so.
    Trap(LaneMask),
}

impl From<String> for ExecError {
    fn from(s: String) -> ExecError {
        ExecError::Fault(s)
    }
}

/// The memory access that faulted: which lane, at which address, and whether for its
/// alignment (else it is in no buffer of the memory it accesses).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BadAccess {
    pub lane: u32,
    pub addr: u32,
    pub misaligned: bool,
}

/// A member mask naming lanes that are not executing the instruction with the others.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MemberFault {
    /// The mask as the first executing lane holds it (the lanes should all hold the same).
    pub mask: u32,
    /// The lanes the executing lanes' masks name.
    pub named: LaneMask,
    /// Named lanes that do not execute it.
    pub missing: LaneMask,
    /// Those of them that were issued with it but whose guard was false.
    pub guarded_off: LaneMask,
}

/// Reads a source for every slot of a register row (`N` = the machine's stride): rows are
/// contiguous (register-major), so this is a fixed-size copy, and the arithmetic below runs
/// over fixed-size arrays the compiler vectorises.
#[inline(always)]
fn gather<const N: usize>(m: &Machine, s: Src, float: bool) -> [u32; N] {
    match s {
        Src::Imm(v) => [v; N],
        Src::Reg { reg, negated } => {
            if reg.is_zero() || reg.0 as u32 >= m.nregs {
                return [if negated && float { 0x8000_0000 } else { 0 }; N];
            }
            let base = reg.0 as usize * N;
            let mut out = [0u32; N];
            out.copy_from_slice(&m.regs[base..base + N]);
            if negated {
                // Floats negate by flipping the sign bit, integers by two's complement.
                if float {
                    out.iter_mut().for_each(|x| *x ^= 0x8000_0000);
                } else {
                    out.iter_mut().for_each(|x| *x = x.wrapping_neg());
                }
            }
            out
        }
    }
}

/// Writes `vals` to `dst` in the lanes of `lanes` only.
#[inline(always)]
fn scatter<const N: usize>(m: &mut Machine, dst: Reg, lanes: LaneMask, vals: &[u32; N]) {
    if dst.is_zero() || dst.0 as u32 >= m.nregs {
        return;
    }
    let all = m.all_lanes();
    let row = &mut m.regs[dst.0 as usize * N..(dst.0 as usize + 1) * N];
    if lanes == all {
        // Padding slots past the width are never read as lanes, so the whole row may be written.
        row.copy_from_slice(vals);
        return;
    }
    // A branch-free blend (all-ones where the lane runs) vectorises; a per-lane `if` does not.
    for (i, r) in row.iter_mut().enumerate() {
        let sel = 0u32.wrapping_sub((lanes.0 >> i) as u32 & 1);
        *r = (*r & !sel) | (vals[i] & sel);
    }
}

/// One lane's value of `s`, as `gather` reads it.
#[inline(always)]
fn lane_value(m: &Machine, s: Src, float: bool, lane: u32) -> u32 {
    match s {
        Src::Imm(v) => v,
        Src::Reg { reg, negated } => {
            let v = m.reg(lane, reg);
            match (negated, float) {
                (false, _) => v,
                (true, true) => v ^ 0x8000_0000,
                (true, false) => v.wrapping_neg(),
            }
        }
    }
}

/// The lane of a single-lane mask (MIMD's steps): a row's worth of work for one value is wasted.
#[inline(always)]
fn single_lane(lanes: LaneMask) -> Option<u32> {
    (lanes.0 != 0 && lanes.0 & (lanes.0 - 1) == 0).then(|| lanes.0.trailing_zeros())
}

// Inlined natively; in wasm each use is a function of its own: V8's optimising compiler made
// slower code of `execute_rows` with every op's vector loop in its one body (the model sweeps ran
// 3-7 % faster in Chromium with them apart: docs/performance.md, "The wasm build against native").
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[allow(clippy::too_many_arguments)]
pub(super) fn map2_copied<const N: usize>(
    m: &mut Machine,
    lanes: LaneMask,
    dst: Reg,
    a: Src,
    b: Src,
    float: bool,
    f: impl Fn(u32, u32) -> u32,
) {
    if let Some(l) = single_lane(lanes) {
        let v = f(lane_value(m, a, float, l), lane_value(m, b, float, l));
        m.set_reg(l, dst, v);
        return;
    }
    let mut x = gather::<N>(m, a, float);
    if let Src::Imm(v) = b {
        // The same value in every lane, as a scalar: a shift by it is one vector shift (SSE2 and
        // wasm SIMD shift all lanes by one amount), where a row of amounts was 32 scalar shifts.
        for xi in x.iter_mut() {
            *xi = f(*xi, v);
        }
    } else {
        let y = gather::<N>(m, b, float);
        for i in 0..N {
            x[i] = f(x[i], y[i]);
        }
    }
    scatter(m, dst, lanes, &x);
}

#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[allow(clippy::too_many_arguments)]
pub(super) fn map3_copied<const N: usize>(
    m: &mut Machine,
    lanes: LaneMask,
    dst: Reg,
    a: Src,
    b: Src,
    c: Src,
    float: bool,
    f: impl Fn(u32, u32, u32) -> u32,
) {
    if let Some(l) = single_lane(lanes) {
        let v = f(lane_value(m, a, float, l), lane_value(m, b, float, l), lane_value(m, c, float, l));
        m.set_reg(l, dst, v);
        return;
    }
    let (mut x, y, z) = (gather::<N>(m, a, float), gather::<N>(m, b, float), gather::<N>(m, c, float));
    for i in 0..N {
        x[i] = f(x[i], y[i], z[i]);
    }
    scatter(m, dst, lanes, &x);
}

/// Sets `dst` to `result op c` and `dst_inv` to `!result op c` in the lanes of `lanes`.
fn set_preds(m: &mut Machine, lanes: LaneMask, result: LaneMask, op: BoolOp, dst: Pred, dst_inv: Pred, c: PredSrc) {
    let c_mask = m.guard_mask(Some(Guard { pred: c.pred, negated: c.negated }), lanes);
    let all = m.all_lanes();
    let combine_mask = |r: LaneMask| match op {
        BoolOp::And => r & c_mask,
        BoolOp::Or => r | c_mask,
        BoolOp::Xor => LaneMask(r.0 ^ c_mask.0),
    };
    for (p, r) in [(dst, result), (dst_inv, all.without(result))] {
        if !p.is_true() {
            let slot = &mut m.preds[p.0 as usize];
            *slot = slot.without(lanes) | (combine_mask(r) & lanes);
        }
    }
}

/// The lanes where `a cmp b` holds, comparing as `T` after `conv`. Register rows are read in
/// place (`rows::in_place`), an immediate as one value in every slot.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn compare_lanes<const N: usize, T: PartialOrd>(m: &Machine, a: Src, b: Src, float: bool, cmp: Cmp, conv: fn(u32) -> T) -> LaneMask {
    #[cfg(not(target_arch = "wasm32"))]
    let bits = {
        let rows = m.regs.as_chunks::<N>().0;
        match (in_place(a, m.nregs), b, in_place(b, m.nregs)) {
            (Some(ra), _, Some(rb)) => compare_rows(&rows[ra], &rows[rb], cmp, conv),
            (Some(ra), Src::Imm(v), _) => compare_rows(&rows[ra], &[v; N], cmp, conv),
            _ => compare_rows(&gather::<N>(m, a, float), &gather::<N>(m, b, float), cmp, conv),
        }
    };
    #[cfg(target_arch = "wasm32")]
    let bits = {
        let (x, y) = (gather::<N>(m, a, float), gather::<N>(m, b, float));
        compare_rows(&x, &y, cmp, conv)
    };
    LaneMask(bits) & m.all_lanes()
}

/// The slots where `x cmp y` holds, as bits (padding slots too: the caller masks them off).
#[inline(always)]
fn compare_rows<const N: usize, T: PartialOrd>(x: &[u32; N], y: &[u32; N], cmp: Cmp, conv: fn(u32) -> T) -> u64 {
    // One branch-free loop per comparison: it vectorises; padding slots are masked off below.
    match cmp {
        Cmp::Lt => pack(x, y, |a, b| conv(a) < conv(b)),
        Cmp::Le => pack(x, y, |a, b| conv(a) <= conv(b)),
        Cmp::Gt => pack(x, y, |a, b| conv(a) > conv(b)),
        Cmp::Ge => pack(x, y, |a, b| conv(a) >= conv(b)),
        Cmp::Eq => pack(x, y, |a, b| conv(a) == conv(b)),
        // Ordered: false for a NaN (for integers, plain `!=`).
        Cmp::Ne => pack(x, y, |a, b| conv(a) < conv(b) || conv(a) > conv(b)),
        Cmp::True => u64::MAX,
        Cmp::False => 0,
        // The unordered float comparisons are rare: one generic loop.
        c => pack(x, y, |a, b| c.holds(conv(a), conv(b))),
    }
}

/// The wasm build: a lane's result as a 32-bit mask of all ones vectorises there (a byte per lane
/// did not: `compare_lanes` ran one lane at a time, 13 % of Chromium's profile of the model
/// sweeps), and wasm SIMD's `i32x4.bitmask` gathers four lanes' bits at once.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn pack<const N: usize>(x: &[u32; N], y: &[u32; N], test: impl Fn(u32, u32) -> bool) -> u64 {
    use core::arch::wasm32::{i32x4_bitmask, u32x4};
    let mut masks = [0u32; N];
    for i in 0..N {
        masks[i] = 0u32.wrapping_sub(test(x[i], y[i]) as u32);
    }
    let mut bits = 0u64;
    for (k, m) in masks.chunks_exact(4).enumerate() {
        bits |= (i32x4_bitmask(u32x4(m[0], m[1], m[2], m[3])) as u64) << (4 * k);
    }
    bits
}

/// Elsewhere: each lane's result as a 32-bit mask of all ones, ANDed with its own bit and ORed
/// into its word of 32 lanes: an OR reduction the compiler vectorises (SSE2: an AND and an OR
/// per four lanes). A byte per lane packed by a multiply compiled to scalar shifts and ORs of
/// each byte: callgrind on the recorded double loop, `execute_rows` 13 % fewer instructions.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn pack<const N: usize>(x: &[u32; N], y: &[u32; N], test: impl Fn(u32, u32) -> bool) -> u64 {
    let mut bits = 0u64;
    for k in 0..N.div_ceil(32) {
        let mut word = 0u32;
        for i in 32 * k..(32 * k + 32).min(N) {
            word |= 0u32.wrapping_sub(test(x[i], y[i]) as u32) & (1 << (i % 32));
        }
        bits |= (word as u64) << (32 * k);
    }
    bits
}

#[inline]
fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Runs `f` for each lane, with a fast path for the common all-lanes-from-zero mask.
#[inline]
fn each_lane(mask: LaneMask, mut f: impl FnMut(u32)) {
    let bits = mask.0;
    if bits != 0 && bits & bits.wrapping_add(1) == 0 {
        for lane in 0..bits.count_ones() {
            f(lane);
        }
    } else {
        for lane in mask.iter() {
            f(lane);
        }
    }
}

fn lut3(lut: u8, a: u32, b: u32, c: u32) -> u32 {
    // Bit k of the result is lut[(a_k << 2) | (b_k << 1) | c_k], as in LOP3.LUT.
    let mut out = 0;
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let ma = if k & 4 != 0 { a } else { !a };
            let mb = if k & 2 != 0 { b } else { !b };
            let mc = if k & 1 != 0 { c } else { !c };
            out |= ma & mb & mc;
        }
    }
    out
}

fn special(m: &Machine, lane: u32, sr: SpecialReg) -> (u32, u32) {
    let l = &m.launch;
    match sr {
        SpecialReg::Tid(a) => (l.thread_idx(lane)[a.index()], 0),
        SpecialReg::Ntid(a) => (l.block[a.index()], 0),
        SpecialReg::Ctaid(a) => (l.block_idx[a.index()], 0),
        SpecialReg::Nctaid(a) => (l.grid[a.index()], 0),
        SpecialReg::LaneId => (lane, 0),
        SpecialReg::LaneMaskLt => ((1u32 << (lane & 31)) - 1, 0),
        SpecialReg::LaneMaskLe => (u32::MAX >> (31 - (lane & 31)), 0),
        SpecialReg::LaneMaskGt => (!(u32::MAX >> (31 - (lane & 31))), 0),
        SpecialReg::LaneMaskGe => (!((1u32 << (lane & 31)) - 1), 0),
        SpecialReg::LaneMaskEq => (1u32 << (lane & 31), 0),
        SpecialReg::WarpId => (l.first_thread / m.width.max(1), 0),
        SpecialReg::Srz => (0, 0),
        SpecialReg::ClockLo => (m.clock as u32, (m.clock >> 32) as u32),
        SpecialReg::ClockHi => ((m.clock >> 32) as u32, 0),
    }
}

/// Executes a non-control instruction on the lanes of `mask` whose guard holds.
/// Control instructions are the model's business and do nothing here, except that a `_sync`
/// instruction's member mask (`SHFL`/`VOTE`/`MATCH` with a mask, `WARPSYNC`) is checked first:
/// every lane it names must be among the lanes that run it (`ExecError::Members` otherwise).
/// `BPT.TRAP` on any lane is `ExecError::Trap`.
pub fn execute(m: &mut Machine, instr: &Instruction, mask: LaneMask) -> Result<(), ExecError> {
    if m.stride() == 32 {
        execute_rows::<32>(m, instr, mask)
    } else {
        execute_rows::<{ MAX_WARP as usize }>(m, instr, mask)
    }
}

/// `execute` for register rows of `N` slots.
fn execute_rows<const N: usize>(m: &mut Machine, instr: &Instruction, mask: LaneMask) -> Result<(), ExecError> {
    let lanes = m.guard_mask(instr.guard, mask);
    if lanes.is_empty() {
        return Ok(());
    }
    if let Some(members) = instr.op.member_mask() {
        check_members(m, mask, lanes, members)?;
    }
    match instr.op {
        Op::Iadd { dst, a, b } => map2::<N>(m, lanes, dst, a, b, false, u32::wrapping_add),
        Op::Iadd3 { dst, a, b, c, carry: Pred::PT } => {
            map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| x.wrapping_add(y).wrapping_add(z))
        }
        Op::Iadd3 { dst, a, b, c, carry } => wide::iadd3_carry(m, lanes, dst, [a, b, c], carry),
        Op::Iadd3X { dst, carry, a, b, c, invert, carry_in } => wide::iadd3_x(m, lanes, dst, [a, b, c], invert, carry_in, carry),
        Op::ImadWide { dst, a, b, c, signed } => wide::imad_wide(m, lanes, dst, a, b, c, signed),
        Op::Shf { dst, lo, shift, hi, left, signed, wide, high } => {
            map3::<N>(m, lanes, dst, lo, shift, hi, false, |x, s, y| wide::shf(x, s, y, left, signed, wide, high))
        }
        Op::Dadd { dst, a, b } => wide::double_op(m, lanes, dst, [a, b, b], |x, y, _, _| x + y),
        Op::Dmul { dst, a, b } => wide::double_op(m, lanes, dst, [a, b, b], |x, y, _, _| x * y),
        Op::Ddiv { dst, a, b } => wide::double_op(m, lanes, dst, [a, b, b], |x, y, _, _| x / y),
        Op::Dfma { dst, a, b, c } => wide::double_op(m, lanes, dst, [a, b, c], |x, y, z, _| libm::fma(x, y, z)),
        Op::Dsetp { cmp, combine, dst, dst_inv, a, b, c } => wide::dsetp(m, lanes, cmp, combine, dst, dst_inv, a, b, c),
        Op::Dmnmx { dst, a, b, p } => {
            let min = m.guard_mask(Some(Guard { pred: p.pred, negated: p.negated }), lanes);
            wide::double_op(m, lanes, dst, [a, b, b], |x, y, _, l| if min.contains(l) { x.min(y) } else { x.max(y) });
        }
        Op::Cvt { dst, src, from, to, round } => wide::convert(m, lanes, dst, src, from, to, round),
        Op::Iscadd { dst, a, b, shift } => map2::<N>(m, lanes, dst, a, b, false, |x, y| (x << shift).wrapping_add(y)),
        #[cfg(not(target_arch = "wasm32"))]
        Op::Imul { dst, a, b, hi, signed } => match (hi, signed) {
            (false, _) => map2::<N>(m, lanes, dst, a, b, false, u32::wrapping_mul),
            (true, true) => map2::<N>(m, lanes, dst, a, b, false, |x, y| mul(x, y, true, true)),
            (true, false) => map2::<N>(m, lanes, dst, a, b, false, |x, y| mul(x, y, true, false)),
        },
        #[cfg(not(target_arch = "wasm32"))]
        Op::Imad { dst, a, b, c, hi, signed } => match (hi, signed) {
            (false, _) => map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| x.wrapping_mul(y).wrapping_add(z)),
            (true, true) => map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| mul(x, y, true, true).wrapping_add(z)),
            (true, false) => map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| mul(x, y, true, false).wrapping_add(z)),
        },
        #[cfg(target_arch = "wasm32")]
        Op::Imul { dst, a, b, hi, signed } => map2::<N>(m, lanes, dst, a, b, false, |x, y| mul(x, y, hi, signed)),
        #[cfg(target_arch = "wasm32")]
        Op::Imad { dst, a, b, c, hi, signed } => map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| mul(x, y, hi, signed).wrapping_add(z)),
        Op::Isetp { cmp, signed, combine: op, dst, dst_inv, a, b, c } => {
            let r = if signed {
                compare_lanes::<N, _>(m, a, b, false, cmp, |x| x as i32)
            } else {
                compare_lanes::<N, _>(m, a, b, false, cmp, |x| x)
            };
            set_preds(m, lanes, r, op, dst, dst_inv, c);
        }
        Op::Fsetp { cmp, combine: op, dst, dst_inv, a, b, c } => {
            let r = compare_lanes::<N, _>(m, a, b, true, cmp, fl);
            set_preds(m, lanes, r, op, dst, dst_inv, c);
        }
        // f32 `+` and `*` round to nearest even: the common case needs no emulation.
        Op::Fadd { dst, a, b, mode: FloatMode::RN } => map2::<N>(m, lanes, dst, a, b, true, |x, y| (fl(x) + fl(y)).to_bits()),
        Op::Fadd { dst, a, b, mode } => map2::<N>(m, lanes, dst, a, b, true, |x, y| float::fadd(x, y, mode)),
        Op::Fmul { dst, a, b, mode: FloatMode::RN } => map2::<N>(m, lanes, dst, a, b, true, |x, y| (fl(x) * fl(y)).to_bits()),
        Op::Fmul { dst, a, b, mode } => map2::<N>(m, lanes, dst, a, b, true, |x, y| float::fmul(x, y, mode)),
        Op::Ffma { dst, a, b, c, mode } => map3::<N>(m, lanes, dst, a, b, c, true, |x, y, z| float::ffma(x, y, z, mode)),
        Op::Fdiv { dst, a, b, mode } => map2::<N>(m, lanes, dst, a, b, true, |x, y| float::fdiv(x, y, mode)),
        Op::Fchk { dst, a, b } => {
            let slow = lanes.iter().filter(|&l| float::fchk(lane_value(m, a, true, l), lane_value(m, b, true, l)));
            let r = slow.fold(LaneMask::EMPTY, LaneMask::with);
            if !dst.is_true() {
                let slot = &mut m.preds[dst.0 as usize];
                *slot = slot.without(lanes) | r;
            }
        }
        Op::Psetp { op, dst, a, b } => {
            let x = m.guard_mask(Some(Guard { pred: a.pred, negated: a.negated }), lanes);
            let y = m.guard_mask(Some(Guard { pred: b.pred, negated: b.negated }), lanes);
            let r = match op {
                BoolOp::And => x & y,
                BoolOp::Or => x | y,
                BoolOp::Xor => LaneMask(x.0 ^ y.0),
            };
            if !dst.is_true() {
                let slot = &mut m.preds[dst.0 as usize];
                *slot = slot.without(lanes) | r;
            }
        }
        Op::Plop3 { dst, dst2, a, b, c, lut, lut2 } => {
            let [x, y, z] = [a, b, c].map(|p| m.guard_mask(Some(Guard { pred: p.pred, negated: p.negated }), lanes));
            for (d, table) in [(dst, lut), (dst2, lut2)] {
                if d.is_true() {
                    continue;
                }
                // The lanes whose (x, y, z) row of the table is 1.
                let mut r = LaneMask::EMPTY;
                for l in lanes.iter() {
                    let row = (x.contains(l) as u8) << 2 | (y.contains(l) as u8) << 1 | z.contains(l) as u8;
                    if table >> row & 1 == 1 {
                        r = r.with(l);
                    }
                }
                let slot = &mut m.preds[d.0 as usize];
                *slot = slot.without(lanes) | r;
            }
        }
        Op::Mov { dst, src } => map2::<N>(m, lanes, dst, src, Src::Imm(0), false, |x, _| x),
        Op::Sel { dst, a, b, p } => {
            let chosen = m.guard_mask(Some(Guard { pred: p.pred, negated: p.negated }), lanes);
            map2::<N>(m, chosen, dst, a, b, false, |x, _| x);
            map2::<N>(m, lanes.without(chosen), dst, a, b, false, |_, y| y);
        }
        Op::Lop { op, dst, a, b, invert_b } => map2::<N>(m, lanes, dst, a, b, false, |x, y| {
            let y = if invert_b { !y } else { y };
            match op {
                LogicOp::And => x & y,
                LogicOp::Or => x | y,
                LogicOp::Xor => x ^ y,
                LogicOp::PassB => y,
            }
        }),
        Op::Lop3 { dst, a, b, c, lut } => map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| lut3(lut, x, y, z)),
        Op::Shl { dst, a, b } => map2::<N>(m, lanes, dst, a, b, false, |x, s| if s >= 32 { 0 } else { x << s }),
        // Natively, one closure per kind of shift and multiply: a choice inside the lane loop
        // kept the in-place loops (`rows`) from vectorising. In wasm one closure: per kind, V8
        // ran the model sweeps slower.
        #[cfg(not(target_arch = "wasm32"))]
        Op::Shr { dst, a, b, signed: true } => map2::<N>(m, lanes, dst, a, b, false, |x, s| ((x as i32) >> s.min(31)) as u32),
        #[cfg(not(target_arch = "wasm32"))]
        Op::Shr { dst, a, b, signed: false } => map2::<N>(m, lanes, dst, a, b, false, |x, s| if s >= 32 { 0 } else { x >> s }),
        #[cfg(target_arch = "wasm32")]
        Op::Shr { dst, a, b, signed } => map2::<N>(m, lanes, dst, a, b, false, |x, s| match (signed, s.min(32)) {
            (true, 32) => ((x as i32) >> 31) as u32,
            (true, s) => ((x as i32) >> s) as u32,
            (false, 32) => 0,
            (false, s) => x >> s,
        }),
        Op::S2r { dst, sr } => each_lane(lanes, |l| {
            let v = special(m, l, sr).0;
            m.set_reg(l, dst, v)
        }),
        Op::Cs2r { dst, sr, wide } => each_lane(lanes, |l| {
            let (lo, hi) = special(m, l, sr);
            m.set_reg(l, dst, lo);
            if wide && dst.0 < 254 {
                m.set_reg(l, Reg(dst.0 + 1), hi);
            }
        }),
        Op::Ld { dst, addr, width, space } => memory::load(m, lanes, dst, addr, width, space)?,
        Op::St { src, addr, width, space } => memory::store(m, lanes, src, addr, width, space)?,
        Op::Atom { op, dst, addr, b, c, space, wide } => memory::atom::<N>(m, lanes, op, dst, addr, b, c, space, wide)?,
        Op::I2f { dst, src, signed, round } => map2::<N>(m, lanes, dst, src, Src::Imm(0), false, |x, _| {
            let v = if signed { x as i32 as f64 } else { x as f64 };
            // Exact in f64, so rounded once.
            float::round_f32(v, round).to_bits()
        }),
        Op::F2i { dst, src, signed, round } => map2::<N>(m, lanes, dst, src, Src::Imm(0), true, |x, _| {
            // Rounded to an integral value, then `as`, which saturates and gives 0 for NaN.
            let v = float::integral(fl(x) as f64, round);
            if signed {
                v as i32 as u32
            } else {
                v as u32
            }
        }),
        Op::Mufu { func, dst, src } => map2::<N>(m, lanes, dst, src, Src::Imm(0), true, |x, _| arith::mufu(func, x)),
        Op::Frnd { mode, dst, src } => map2::<N>(m, lanes, dst, src, Src::Imm(0), true, |x, _| arith::frnd(mode, x)),
        Op::Popc { dst, src } => map2::<N>(m, lanes, dst, src, Src::Imm(0), false, |x, _| x.count_ones()),
        Op::Brev { dst, src } => map2::<N>(m, lanes, dst, src, Src::Imm(0), false, |x, _| x.reverse_bits()),
        Op::Bfe { dst, a, pos, len, signed } => map3::<N>(m, lanes, dst, a, pos, len, false, |x, p, n| bits::bfe(x, p, n, signed)),
        Op::Bfi { dst, insert, base, pos, len } => {
            let (x, y) = (gather::<N>(m, insert, false), gather::<N>(m, base, false));
            let (p, n) = (gather::<N>(m, pos, false), gather::<N>(m, len, false));
            let mut out = [0u32; N];
            for i in 0..N {
                out[i] = bits::bfi(x[i], y[i], p[i], n[i]);
            }
            scatter(m, dst, lanes, &out);
        }
        Op::Prmt { dst, a, sel, b, mode } => map3::<N>(m, lanes, dst, a, sel, b, false, |x, s, y| bits::prmt(x, s, y, mode)),
        Op::Fns { dst, mask, base, offset } => map3::<N>(m, lanes, dst, mask, base, offset, false, bits::fns),
        Op::Idp { dst, a, b, c, shape } => map3::<N>(m, lanes, dst, a, b, c, false, |x, y, z| bits::dot(x, y, z, shape)),
        Op::Sgxt { dst, a, bits: n, signed } => map2::<N>(m, lanes, dst, a, n, false, |x, k| bits::sgxt(x, k, signed)),
        Op::Flo { dst, src, signed, shift } => map2::<N>(m, lanes, dst, src, Src::Imm(0), false, |x, _| arith::flo(x, signed, shift)),
        Op::Imnmx { dst, a, b, signed, p } => {
            let min = m.guard_mask(Some(Guard { pred: p.pred, negated: p.negated }), lanes);
            map2::<N>(m, min, dst, a, b, false, |x, y| arith::imnmx(x, y, signed, true));
            map2::<N>(m, lanes.without(min), dst, a, b, false, |x, y| arith::imnmx(x, y, signed, false));
        }
        Op::Fmnmx { dst, a, b, p } => {
            let min = m.guard_mask(Some(Guard { pred: p.pred, negated: p.negated }), lanes);
            map2::<N>(m, min, dst, a, b, true, |x, y| arith::fmnmx(x, y, true));
            map2::<N>(m, lanes.without(min), dst, a, b, true, |x, y| arith::fmnmx(x, y, false));
        }
        Op::Idiv { dst, a, b, signed, rem, wide: false } => map2::<N>(m, lanes, dst, a, b, false, |x, y| arith::divide(x, y, signed, rem)),
        Op::Idiv { dst, a, b, signed, rem, wide: true } => wide::divide(m, lanes, dst, a, b, signed, rem),
        Op::Shfl { mode, pred, dst, a, b, c, .. } => warp::shfl::<N>(m, lanes, mode, pred, dst, a, b, c),
        Op::Vote { mode, dst, pred, src, mask } => warp::vote(m, lanes, mode, dst, pred, src, mask),
        Op::Redux { op, dst, src } => warp::redux(m, lanes, op, dst, src),
        Op::Match { mode, pred, dst, src, wide, mask } => warp::match_lanes(m, lanes, mode, pred, dst, src, wide, mask),
        Op::Trap => return Err(ExecError::Trap(lanes)),
        Op::B2r { dst, pred } => {
            let v = m.bar_result;
            for l in lanes.iter() {
                m.set_reg(l, dst, v);
                m.set_pred(l, pred, v != 0);
            }
        }
        Op::Printf { id, base, words, buffer } => printf(m, lanes, id, base, words, buffer)?,
        Op::Host { .. } if !m.host => return Err(ExecError::Fault(String::from(
            "`HOST` calls the host's runtime or C library (`cudaMalloc`, `malloc`, a launch): only a program's host code can, not a kernel",
        ))),
        _ => {}
    }
    Ok(())
}

/// `PRINTF`: one record per lane, in lane order, with the lane's argument words.
#[cold]
fn printf(m: &mut Machine, lanes: LaneMask, id: u16, base: Reg, words: u8, buffer: u32) -> Result<(), ExecError> {
    let mut args = [0u32; crate::printf::MAX_WORDS];
    let n = (words as usize).min(args.len());
    for l in lanes.iter() {
        if buffer == 0 {
            for (k, w) in args[..n].iter_mut().enumerate() {
                *w = m.reg(l, Reg(base.0.saturating_add(k as u8)));
            }
        } else {
            let at = m.reg(l, base);
            let slots = (0..32u32).filter(|b| buffer & (1 << b) != 0);
            for (w, slot) in args[..n].iter_mut().zip(slots) {
                let addr = at.wrapping_add(4 * slot);
                *w = m.memory.load(addr).ok_or_else(|| {
                    ExecError::Fault(alloc::format!("lane {l}: `PRINTF` reads its arguments at {addr:#x}, outside every buffer"))
                })?;
            }
        }
        m.output.push(l, id, &args[..n]);
    }
    Ok(())
}

fn mul(a: u32, b: u32, hi: bool, signed: bool) -> u32 {
    match (hi, signed) {
        (false, _) => a.wrapping_mul(b),
        (true, true) => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
        (true, false) => ((a as u64 * b as u64) >> 32) as u32,
    }
}

#[cfg(test)]
mod tests;
