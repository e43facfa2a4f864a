//! The vector loops of the data path natively, over register rows read and written in place.
//! The compiler vectorises a loop over rows that cannot alias; over `regs` itself (a source may
//! be the destination) it did not, and copying each source into a row of its own first
//! (`map2_copied`, still taken for an immediate first source, `RZ` or a negated source) cost a
//! seventh of the data path (callgrind, the double loop at n = 31). The wasm build copies every
//! source: with these loops V8 ran the model sweeps 20-30 % slower (each `map2` two to four times
//! the code).

use super::{map2_copied, map3_copied, single_lane};
use crate::isa::{Reg, Src};
use crate::machine::{LaneMask, Machine};

/// The register a source reads in place: its own row, not negated (the usual case; an
/// immediate, `RZ` or a negated register is read as a copy, `gather`).
#[inline(always)]
pub(super) fn in_place(s: Src, nregs: u32) -> Option<usize> {
    match s {
        Src::Reg { reg, negated: false } if !reg.is_zero() && (reg.0 as u32) < nregs => Some(reg.0 as usize),
        _ => None,
    }
}

/// The rows around row `d`, read while row `d` is written.
struct Around<'r, const N: usize> {
    before: &'r [[u32; N]],
    after: &'r [[u32; N]],
    d: usize,
}

/// Where a source's slots come from in the loop that writes row `d`: another row, or row `d`
/// itself, each slot read before it is written.
enum View<'r, const N: usize> {
    Own,
    Row(&'r [u32; N]),
}

impl<'r, const N: usize> Around<'r, N> {
    /// Row `d` to write, and the rows around it.
    #[inline(always)]
    fn split(regs: &'r mut [u32], d: usize) -> (&'r mut [u32; N], Around<'r, N>) {
        let (before, rest) = regs.as_chunks_mut::<N>().0.split_at_mut(d);
        let (out, after) = rest.split_first_mut().expect("the destination is a register");
        (out, Around { before, after, d })
    }
    #[inline(always)]
    fn view(&self, r: usize) -> View<'r, N> {
        match r.cmp(&self.d) {
            core::cmp::Ordering::Less => View::Row(&self.before[r]),
            core::cmp::Ordering::Equal => View::Own,
            core::cmp::Ordering::Greater => View::Row(&self.after[r - self.d - 1]),
        }
    }
}

/// Sets `out` to `value(slot, old value)` in the lanes of `lanes`, the whole row when they are
/// all the lanes (padding slots past the width are never read as lanes).
#[inline(always)]
fn blend<const N: usize>(out: &mut [u32; N], lanes: LaneMask, all: LaneMask, value: impl Fn(usize, u32) -> u32) {
    if lanes == all {
        for (i, o) in out.iter_mut().enumerate() {
            *o = value(i, *o);
        }
    } else {
        // A branch-free blend (all-ones where the lane runs) vectorises; a per-lane `if` does not.
        for (i, o) in out.iter_mut().enumerate() {
            let sel = 0u32.wrapping_sub((lanes.0 >> i) as u32 & 1);
            *o = (*o & !sel) | (value(i, *o) & sel);
        }
    }
}

/// The destination row, when a result is written (not to `RZ`, nor past the registers).
#[inline(always)]
fn dst_row(m: &Machine, dst: Reg) -> Option<usize> {
    (!dst.is_zero() && (dst.0 as u32) < m.nregs).then_some(dst.0 as usize)
}

/// `map2_copied`, with the sources read in place when they are register rows.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn map2<const N: usize>(m: &mut Machine, lanes: LaneMask, dst: Reg, a: Src, b: Src, float: bool, f: impl Fn(u32, u32) -> u32) {
    // One lane (MIMD's steps): the scalar path.
    if single_lane(lanes).is_some() {
        return map2_copied::<N>(m, lanes, dst, a, b, float, f);
    }
    let Some(d) = dst_row(m, dst) else { return };
    let all = m.all_lanes();
    match (in_place(a, m.nregs), b, in_place(b, m.nregs)) {
        // The same value in every lane, as a scalar: a shift by it is one vector shift (SSE2 and
        // wasm SIMD shift all lanes by one amount), where a row of amounts was 32 scalar shifts.
        (Some(ra), Src::Imm(v), _) => {
            let (out, rows) = Around::<N>::split(&mut m.regs, d);
            match rows.view(ra) {
                View::Own => blend(out, lanes, all, |_, o| f(o, v)),
                View::Row(x) => blend(out, lanes, all, |i, _| f(x[i], v)),
            }
        }
        (Some(ra), _, Some(rb)) => {
            let (out, rows) = Around::<N>::split(&mut m.regs, d);
            match (rows.view(ra), rows.view(rb)) {
                (View::Own, View::Own) => blend(out, lanes, all, |_, o| f(o, o)),
                (View::Own, View::Row(y)) => blend(out, lanes, all, |i, o| f(o, y[i])),
                (View::Row(x), View::Own) => blend(out, lanes, all, |i, o| f(x[i], o)),
                (View::Row(x), View::Row(y)) => blend(out, lanes, all, |i, _| f(x[i], y[i])),
            }
        }
        _ => map2_copied::<N>(m, lanes, dst, a, b, float, f),
    }
}

/// `map3_copied`, with the sources read in place when they are register rows (none of them the
/// destination).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn map3<const N: usize>(
    m: &mut Machine,
    lanes: LaneMask,
    dst: Reg,
    a: Src,
    b: Src,
    c: Src,
    float: bool,
    f: impl Fn(u32, u32, u32) -> u32,
) {
    if single_lane(lanes).is_some() {
        return map3_copied::<N>(m, lanes, dst, a, b, c, float, f);
    }
    let Some(d) = dst_row(m, dst) else { return };
    let all = m.all_lanes();
    if let (Some(ra), Some(rb), Some(rc)) = (in_place(a, m.nregs), in_place(b, m.nregs), in_place(c, m.nregs)) {
        let (out, rows) = Around::<N>::split(&mut m.regs, d);
        // A source that is the destination too reads a copy (eight ways to read three is too many loops).
        if let (View::Row(x), View::Row(y), View::Row(z)) = (rows.view(ra), rows.view(rb), rows.view(rc)) {
            blend(out, lanes, all, |i, _| f(x[i], y[i], z[i]));
            return;
        }
    }
    map3_copied::<N>(m, lanes, dst, a, b, c, float, f);
}
