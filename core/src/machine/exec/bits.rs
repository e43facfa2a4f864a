//! Bit fields and byte permutes, per lane: `BFE`, `BFI`, `SGXT` and `PRMT`, with the semantics
//! the PTX ISA manual gives `bfe`, `bfi` and `prmt` (and SASS gives `SGXT`).

use crate::isa::PrmtMode;

/// PTX `bfe.u32`/`.s32`: pos and len from bits 7:0 of their operands (so 0-255); bit i of the
/// result is bit pos + i of `a` for i < len while pos + i <= 31, else the sign bit: 0 when
/// unsigned or len is 0, else bit min(pos + len - 1, 31) of `a`.
pub fn bfe(a: u32, pos: u32, len: u32, signed: bool) -> u32 {
    let (pos, len) = (pos & 0xff, len & 0xff);
    let sign = signed && len > 0 && a >> (pos + len - 1).min(31) & 1 == 1;
    // The bits read: those below both len and 32 - pos.
    let n = len.min(32u32.saturating_sub(pos));
    let field = if n == 0 { 0 } else { (a >> pos) & (u32::MAX >> (32 - n)) };
    if sign {
        field | u32::MAX.checked_shl(n).unwrap_or(0)
    } else {
        field
    }
}

/// PTX `bfi.b32`: `base` with bits pos .. pos + len - 1 (those up to bit 31) replaced by the low
/// bits of `insert`; pos and len from bits 7:0.
pub fn bfi(insert: u32, base: u32, pos: u32, len: u32) -> u32 {
    let (pos, len) = (pos & 0xff, len & 0xff);
    if pos >= 32 || len == 0 {
        return base;
    }
    let n = len.min(32 - pos);
    let mask = (u32::MAX >> (32 - n)) << pos;
    (base & !mask) | ((insert << pos) & mask)
}

/// SASS `SGXT`: the low `bits` bits of `a` (`bits` clamped to 32), sign- or zero-extended.
pub fn sgxt(a: u32, bits: u32, signed: bool) -> u32 {
    match bits.min(32) {
        0 => 0,
        32 => a,
        n if signed => (((a << (32 - n)) as i32) >> (32 - n)) as u32,
        n => a & (u32::MAX >> (32 - n)),
    }
}

/// PTX `prmt.b32`: byte k of the result is byte `select(k)` of the eight bytes of `{b, a}`
/// (`a` bytes 0-3). The generic form reads selector k from bits 4k+3 .. 4k of `sel`, its bit 3
/// replicating the byte's sign; the modes read `sel`'s two low bits, as the manual's table:
/// `.f4e` bytes c .. c+3, `.b4e` c, c-1, c-2, c-3 (mod 8), `.rc8` byte c four times, `.ecl`
/// max(k, c), `.ecr` min(k, c), `.rc16` halfword c & 1 twice.
pub fn prmt(a: u32, sel: u32, b: u32, mode: PrmtMode) -> u32 {
    let bytes = (b as u64) << 32 | a as u64;
    let c = sel & 3;
    let mut out = 0;
    for k in 0..4u32 {
        let s = match mode {
            PrmtMode::Generic => sel >> (4 * k) & 0xf,
            PrmtMode::F4e => (c + k) & 7,
            PrmtMode::B4e => (c + 8 - k) & 7,
            PrmtMode::Rc8 => c,
            PrmtMode::Ecl => k.max(c),
            PrmtMode::Ecr => k.min(c),
            PrmtMode::Rc16 => (c & 1) * 2 + (k & 1),
        };
        let byte = (bytes >> (8 * (s & 7))) as u32 & 0xff;
        let byte = if s & 8 != 0 { 0u32.wrapping_sub(byte >> 7) & 0xff } else { byte };
        out |= byte << (8 * k);
    }
    out
}

/// `IDP`: `c` plus the dot product of `a`'s parts with `b`'s (PTX `dp4a`, `dp2a.lo`/`.hi`),
/// wrapping at 32 bits.
pub fn dot(a: u32, b: u32, c: u32, shape: crate::isa::DotShape) -> u32 {
    let part = |x: u32, bits: u32, k: u32, signed: bool| -> i64 {
        let v = (x >> (bits * k)) & ((1u32 << bits) - 1);
        if signed && v >> (bits - 1) == 1 {
            v as i64 - (1i64 << bits)
        } else {
            v as i64
        }
    };
    let (a_bits, n, first) = if shape.halves { (16, 2, if shape.hi { 2 } else { 0 }) } else { (8, 4, 0) };
    let sum: i64 = (0..n).map(|k| part(a, a_bits, k, shape.a_signed) * part(b, 8, first + k, shape.b_signed)).sum();
    (c as i64).wrapping_add(sum) as u32
}

/// PTX's `fns.b32`: the position of `mask`'s `offset`-th set bit from bit `base` up (that bit
/// counted first; a negative offset counts down from it), 0xffffffff when there is none;
/// offset 0 is `base` when its bit is set.
pub fn fns(mask: u32, base: u32, offset: u32) -> u32 {
    let (base, offset) = (base & 31, offset as i32);
    let set = |b: &u32| mask >> b & 1 == 1;
    let n = offset.unsigned_abs().max(1) as usize;
    let found = match offset {
        0 => set(&base).then_some(base),
        1.. => (base..32).filter(set).nth(n - 1),
        _ => (0..=base).rev().filter(set).nth(n - 1),
    };
    found.unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;
