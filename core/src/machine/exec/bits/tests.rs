//! `BFE`, `BFI`, `SGXT` against the PTX manual's pseudocode written out bit by bit, `PRMT`
//! against the manual's table of modes, and `IDP` against `dp4a`'s and `dp2a`'s definitions.

use super::*;

/// PTX `bfe`, as the manual writes it: one bit at a time.
fn bfe_manual(a: u32, b: u32, c: u32, signed: bool) -> u32 {
    let (pos, len) = (b & 0xff, c & 0xff);
    let sbit = if !signed || len == 0 { 0 } else { a >> (pos + len - 1).min(31) & 1 };
    let mut d = 0;
    for i in 0..32 {
        let bit = if i < len && pos + i <= 31 { a >> (pos + i) & 1 } else { sbit };
        d |= bit << i;
    }
    d
}

/// PTX `bfi`, as the manual writes it.
fn bfi_manual(a: u32, b: u32, c: u32, d: u32) -> u32 {
    let (pos, len) = (c & 0xff, d & 0xff);
    let mut f = b;
    let mut i = 0;
    while i < len && pos + i <= 31 {
        f = (f & !(1 << (pos + i))) | ((a >> i & 1) << (pos + i));
        i += 1;
    }
    f
}

fn values(seed: u32, n: usize) -> alloc::vec::Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

#[test]
fn bit_fields_follow_the_manuals_pseudocode() {
    let words = values(7, 40);
    // Positions and lengths at the edges: 0, inside, 31/32, past 32, and a high byte ignored.
    let edges = [0u32, 1, 5, 8, 16, 24, 31, 32, 33, 40, 255, 0x1_0003, 0xffff_ff10];
    for &a in &words {
        for &pos in &edges {
            for &len in &edges {
                for signed in [false, true] {
                    assert_eq!(bfe(a, pos, len, signed), bfe_manual(a, pos, len, signed), "bfe {a:#x} {pos} {len} {signed}");
                }
                assert_eq!(bfi(a, !a, pos, len), bfi_manual(a, !a, pos, len), "bfi {a:#x} {pos} {len}");
            }
        }
    }
    assert_eq!(bfe(0x0000_0f00, 8, 4, true), 0xffff_ffff, "the field's top bit is the sign");
    assert_eq!(bfe(0x8000_0000, 40, 3, true), 0xffff_ffff, "past bit 31, bit 31 is the sign");
    assert_eq!(bfe(0xffff_ffff, 4, 0, true), 0, "len 0 gives 0");
    assert_eq!(bfi(0xab, 0xffff_0000, 4, 8), 0xffff_0ab0);
    assert_eq!(bfi(0xff, 0, 28, 8), 0xf000_0000, "bits past 31 are dropped");
}

#[test]
fn sign_extension_keeps_the_low_bits() {
    for &a in &values(9, 64) {
        for bits in [0u32, 1, 7, 8, 16, 31, 32, 33, 0xffff_ffff] {
            let n = bits.min(32);
            let low = if n == 0 { 0 } else { a & (u32::MAX >> (32 - n)) };
            let negative = n > 0 && low >> (n - 1) & 1 == 1;
            let signed = if negative && n < 32 { low | u32::MAX << n } else { low };
            assert_eq!((sgxt(a, bits, true), sgxt(a, bits, false)), (signed, low), "{a:#x} {bits}");
        }
    }
    assert_eq!(sgxt(0x80, 8, true), 0xffff_ff80);
    assert_eq!(sgxt(0x80, 8, false), 0x80);
}

#[test]
fn byte_permutes_follow_the_manuals_table() {
    // Bytes 0-7 of {b, a} are 0x10..0x17, so a result names the bytes it took.
    let (a, b) = (0x1312_1110, 0x1716_1514);
    let took = |d: u32| [d & 0xff, d >> 8 & 0xff, d >> 16 & 0xff, d >> 24].map(|x| x - 0x10);
    // The manual's table, result bytes 0 to 3 for c[1:0] = 0, 1, 2, 3.
    let table: [(PrmtMode, [[u32; 4]; 4]); 6] = [
        (PrmtMode::F4e, [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]),
        (PrmtMode::B4e, [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]]),
        (PrmtMode::Rc8, [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]),
        (PrmtMode::Ecl, [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]]),
        (PrmtMode::Ecr, [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]]),
        (PrmtMode::Rc16, [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]]),
    ];
    for (mode, rows) in table {
        for (c, row) in rows.iter().enumerate() {
            // Only c's two low bits count.
            assert_eq!(took(prmt(a, c as u32 | 0xff00, b, mode)), *row, "{mode:?} c = {c}");
        }
    }
    // The generic form: four selectors, each naming a byte.
    assert_eq!(took(prmt(a, 0x3210, b, PrmtMode::Generic)), [0, 1, 2, 3]);
    assert_eq!(took(prmt(a, 0x4567, b, PrmtMode::Generic)), [7, 6, 5, 4]);
    assert_eq!(prmt(a, 0x7650_0000, b, PrmtMode::Generic), prmt(a, 0, b, PrmtMode::Generic), "only sel's low 16 bits count");
    // A selector's bit 3 replicates the byte's sign.
    assert_eq!(prmt(0x0000_8070, 0x9988, 0, PrmtMode::Generic), 0xffff_0000, "bytes 0 (0x70) twice, then 1 (0x80) twice");
    assert_eq!(prmt(0x1234_5678, 0x3201, 0, PrmtMode::Generic), 0x1234_7856);
}

/// `fns` against its definition counted out with set bits cleared one at a time (PTX ISA
/// `fns`): up from `base`, down from it, offset 0, and none found.
#[test]
fn fns_finds_the_nth_set_bit() {
    let up = |mask: u32, base: u32, n: u32| {
        let mut rest = mask & (u32::MAX << base);
        for _ in 1..n {
            rest &= rest.wrapping_sub(1);
        }
        if rest == 0 {
            u32::MAX
        } else {
            rest.trailing_zeros()
        }
    };
    for mask in [0u32, 1, 0x8000_0001, 0xb6db_6db6, u32::MAX, 0x0f0f_00f0] {
        for base in 0..32 {
            for n in 1..34 {
                assert_eq!(fns(mask, base, n), up(mask, base, n), "{mask:#x} {base} +{n}");
                let down = (0..=base).rev().filter(|b| mask >> b & 1 == 1).nth(n as usize - 1).unwrap_or(u32::MAX);
                assert_eq!(fns(mask, base, (n as i32).wrapping_neg() as u32), down, "{mask:#x} {base} -{n}");
            }
            assert_eq!(fns(mask, base, 0), if mask >> base & 1 == 1 { base } else { u32::MAX });
        }
    }
}

/// `IDP` against the PTX ISA's definition of `dp4a` and `dp2a`, each part extended on its own
/// as its sign says: words with every byte's top bit set, and none.
#[test]
fn dot_products_extend_each_part_as_its_type_says() {
    use crate::isa::DotShape;
    let words = [0x80ff_7f01u32, 0x81ff_007d, 0x7f7f_7f7f, 0xffff_ffff, 0x0102_0304, 0];
    // Part `k` of `bits` bits of `x`, sign-extended or not.
    let part = |x: u32, bits: u32, k: u32, signed: bool| -> i64 {
        let v = (x >> (bits * k)) as i64 & ((1 << bits) - 1);
        if signed && v >> (bits - 1) == 1 {
            v - (1 << bits)
        } else {
            v
        }
    };
    let byte = |x, k, signed| part(x, 8, k, signed);
    let half = |x, k, signed| part(x, 16, k, signed);
    for &a in &words {
        for &b in &words {
            for (sa, sb) in [(false, false), (true, true), (true, false), (false, true)] {
                let four: i64 = (0..4).map(|k| byte(a, k, sa) * byte(b, k, sb)).sum();
                let shape = DotShape { halves: false, hi: false, a_signed: sa, b_signed: sb };
                assert_eq!(dot(a, b, 9, shape), (four + 9) as u32, "dp4a {a:#x} {b:#x} {sa} {sb}");
                for hi in [false, true] {
                    let first = if hi { 2 } else { 0 };
                    let two: i64 = (0..2).map(|k| half(a, k, sa) * byte(b, first + k, sb)).sum();
                    let shape = DotShape { halves: true, hi, a_signed: sa, b_signed: sb };
                    assert_eq!(dot(a, b, u32::MAX, shape), (two - 1) as u32, "dp2a {a:#x} {b:#x} {sa} {sb} {hi}");
                }
            }
        }
    }
}
