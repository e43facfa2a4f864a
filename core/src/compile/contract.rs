//! Floating-point contraction, as nvcc does it by default (`--fmad=true`): a multiply whose
//! product only an add (or subtract) of the same block reads becomes one fused multiply-add,
//! rounded once. Without it a Mandelbrot pixel iterates 212 times where the GPU iterates 214,
//! and saxpy's results differ in the last bit. The order is LLVM's (its NVPTX back end is
//! nvcc's): each add, in block order, fuses the multiply of its first operand if it can, else the
//! one of its second; a subtract is an add of a negated operand. Doubles fuse the same way
//! (`DMUL` and `DADD` into `DFMA`), their pairs' high registers counted with the low.

use alloc::vec::Vec;

use super::ins::{Ins, Opcode, Operand, Reg};
use super::ir::Func;

/// Fuses the function's multiply-add pairs. `named` are the source variables' registers and the
/// lines of their scopes: a product written into one there stays computed (the variables view
/// shows it), and the add still fuses.
pub fn contract(func: &mut Func, named: &[(u8, u32, u32)]) {
    let exposed = upward_exposed(func);
    let shared = repeated_products(func, named);
    for block in &mut func.blocks {
        let mut j = 0;
        while j < block.instrs.len() {
            if let Some((i, fused)) = fusion(&block.instrs, j, &exposed, &shared) {
                let line = block.instrs[i].line;
                let keep = matches!(block.instrs[i].dests[0], Operand::Reg(Reg::R(d)) if named.iter().any(|&(r, from, to)| r == d && (from..=to).contains(&line)));
                block.instrs[j] = fused;
                if !keep {
                    block.instrs.remove(i);
                    continue;
                }
            }
            j += 1;
        }
    }
}

/// The fused form of the add at `j` and the multiply it absorbs, if one can be.
fn fusion(instrs: &[Ins], j: usize, exposed: &[bool], shared: &[[Operand; 2]]) -> Option<(usize, Ins)> {
    let add = &instrs[j];
    let (mul_op, fma_op) = match add.op {
        Opcode::Fadd => (Opcode::Fmul, Opcode::Ffma),
        Opcode::Dadd => (Opcode::Dmul, Opcode::Dfma),
        _ => return None,
    };
    if !plain(add) || add.srcs.len() != 2 || add.dests.len() != 1 {
        return None;
    }
    // A double's product is a pair: its high register is read and written with the low.
    let pair = usize::from(add.op == Opcode::Dadd);
    for side in 0..2 {
        let (product, other) = (add.srcs[side], add.srcs[1 - side]);
        let (d, negated) = match product {
            Operand::Reg(Reg::R(d)) => (d, false),
            Operand::Neg(Reg::R(d)) => (d, true),
            _ => continue,
        };
        // `x + 0` is not `x` for a product of -0: never an addend of zero.
        if other == Operand::RZ || reads(&other, d) {
            continue;
        }
        let Some(i) = (0..j).rev().find(|&k| writes(&instrs[k], d)) else { continue };
        let mul = &instrs[i];
        let regs = d..=d.saturating_add(pair as u8);
        if mul.op != mul_op || !plain(mul) || mul.srcs.len() != 2 || instrs[i + 1..j].iter().any(|k| regs.clone().any(|r| reads_reg(k, r)))
        {
            continue;
        }
        let [a, b] = [mul.srcs[0], mul.srcs[1]];
        if shared.contains(&key(a, b)) {
            continue;
        }
        // The add may overwrite a factor: it reads its operands first.
        let factor_regs = |s: &Operand| source_reg(s).map(|r| r..=r.saturating_add(pair as u8));
        if instrs[i + 1..j].iter().any(|k| [a, b].iter().filter_map(factor_regs).any(|mut rs| rs.any(|r| writes(k, r)))) {
            continue;
        }
        if !regs.clone().all(|r| dead_after(instrs, j, r, exposed)) {
            continue;
        }
        // A double's constant factor is no single word to flip the sign of.
        let a = match (negated, pair) {
            (false, _) => a,
            (true, 0) => negate(a)?,
            (true, _) => negate(a).filter(|n| !matches!(n, Operand::Float(_)))?,
        };
        let mut fused = Ins::new(fma_op).dst(add.dests[0]).src(a).src(b).src(other).at_line(add.line);
        fused.guard = add.guard;
        return Some((i, fused));
    }
    None
}

/// A product's factors in one order.
fn key(a: Operand, b: Operand) -> [Operand; 2] {
    let rank = |o: &Operand| alloc::format!("{o:?}");
    if rank(&a) <= rank(&b) {
        [a, b]
    } else {
        [b, a]
    }
}

/// The products of variables (and constants) the function computes more than once, `x * x` in a
/// loop's condition and in its body: nvcc computes each once and reuses it (common
/// subexpressions), so it has two readers and is never fused; warpscope computes it twice, and
/// fusing either would round differently from the GPU. A factor in a temporary register is a
/// value of its own statement, never shared.
fn repeated_products(func: &Func, named: &[(u8, u32, u32)]) -> Vec<[Operand; 2]> {
    let stable = |o: &Operand| match *o {
        Operand::Reg(Reg::R(r)) | Operand::Neg(Reg::R(r)) => named.iter().any(|v| v.0 == r),
        Operand::Float(_) => true,
        _ => false,
    };
    let mut seen: Vec<[Operand; 2]> = Vec::new();
    let mut twice = Vec::new();
    for ins in func.blocks.iter().flat_map(|b| &b.instrs) {
        if !matches!(ins.op, Opcode::Fmul | Opcode::Dmul) || ins.srcs.len() != 2 || !ins.srcs.iter().all(stable) {
            continue;
        }
        let k = key(ins.srcs[0], ins.srcs[1]);
        if seen.contains(&k) {
            twice.push(k);
        } else {
            seen.push(k);
        }
    }
    twice
}

/// Unguarded and without modifiers (a rounding mode or flush-to-zero is not the default's).
fn plain(ins: &Ins) -> bool {
    ins.guard.is_none() && ins.mods.is_empty() && ins.target.is_none()
}

fn source_reg(op: &Operand) -> Option<u8> {
    match *op {
        Operand::Reg(Reg::R(r)) | Operand::Neg(Reg::R(r)) | Operand::Not(Reg::R(r)) | Operand::Mem { base: Reg::R(r), .. } => Some(r),
        _ => None,
    }
}

fn reads(op: &Operand, r: u8) -> bool {
    source_reg(op) == Some(r)
}

/// Reads general register `r`: a source, an address, a second destination it also reads, or the
/// high word of a double's pair.
fn reads_reg(ins: &Ins, r: u8) -> bool {
    let wide = wide(ins.op);
    let hit = |s: &Operand| reads(s, r) || (wide && r > 0 && reads(s, r - 1));
    ins.srcs.iter().chain(ins.dests.iter().skip(1)).any(hit)
        || matches!(ins.dests.first(), Some(Operand::Mem { base: Reg::R(b), .. }) if *b == r)
}

/// Writes general register `r` (a guarded write counts too; a double's destination writes the
/// pair from it).
fn writes(ins: &Ins, r: u8) -> bool {
    ins.dests.iter().any(|d| *d == Operand::r(r) || (wide(ins.op) && r > 0 && *d == Operand::r(r - 1)))
}

/// Reads and writes register pairs (a double).
fn wide(op: Opcode) -> bool {
    matches!(op, Opcode::Dadd | Opcode::Dmul | Opcode::Dfma | Opcode::Ddiv | Opcode::Dsetp | Opcode::Dmnmx | Opcode::F2f)
}

fn negate(op: Operand) -> Option<Operand> {
    match op {
        Operand::Reg(r) => Some(Operand::Neg(r)),
        Operand::Neg(r) => Some(Operand::Reg(r)),
        Operand::Float(bits) => Some(Operand::Float(bits ^ 0x8000_0000)),
        _ => None,
    }
}

/// After the add at `j`, the product register is written again before any read, or the block
/// ends with it live in no block (no block reads it before writing it).
fn dead_after(instrs: &[Ins], j: usize, d: u8, exposed: &[bool]) -> bool {
    for k in &instrs[j + 1..] {
        if reads_reg(k, d) {
            return false;
        }
        if writes(k, d) && k.guard.is_none() {
            return true;
        }
    }
    !exposed[d as usize]
}

/// By register: whether some block reads it before writing it (its value then comes from an
/// earlier block, so it may be live where a block ends).
fn upward_exposed(func: &Func) -> Vec<bool> {
    let mut exposed = alloc::vec![false; 257];
    for block in &func.blocks {
        let mut written = [false; 257];
        for ins in &block.instrs {
            let sources =
                ins.srcs.iter().chain(ins.dests.iter().skip(1)).chain(ins.dests.first().filter(|d| matches!(d, Operand::Mem { .. })));
            let wide = usize::from(wide(ins.op));
            for r in sources.filter_map(source_reg) {
                // A double's source is a pair: its high word too.
                for r in r as usize..=r as usize + wide {
                    exposed[r] |= !written[r];
                }
            }
            if ins.guard.is_none() {
                for r in ins.dests.iter().filter_map(|d| match d {
                    Operand::Reg(Reg::R(r)) => Some(*r as usize),
                    _ => None,
                }) {
                    // A double's destination is a pair: its high word is written too.
                    written[r..=(r + wide).min(256)].fill(true);
                }
            }
        }
    }
    exposed
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::super::{compile, CompileOptions, Target};

    /// The compiled kernel's instructions, mnemonics only, without the reconvergence ones.
    fn ops(src: &str, fmad: bool) -> Vec<String> {
        let (out, diags) = compile(src, CompileOptions { target: Target::Plain, if_convert: false, kernel: None, fmad, host: false });
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        out.unwrap()
            .listing
            .lines()
            .filter(|l| !l.trim_start().starts_with("//") && !l.ends_with(':'))
            .map(|l| String::from(l.trim()))
            .collect()
    }
    fn count(ops: &[String], prefix: &str) -> usize {
        ops.iter().filter(|o| o.starts_with(prefix)).count()
    }
    fn kernel(body: &str) -> String {
        alloc::format!("__global__ void k(float* o, float a, float b, float c) {{\n  {body}\n}}\n")
    }

    #[test]
    fn a_product_only_an_add_reads_becomes_one_ffma() {
        for body in ["o[0] = a * b + c;", "o[0] = c + a * b;", "o[0] = a * b - c;", "o[0] = c - a * b;"] {
            let fused = ops(&kernel(body), true);
            assert_eq!((count(&fused, "FFMA"), count(&fused, "FMUL"), count(&fused, "FADD")), (1, 0, 0), "{body}: {fused:?}");
            let plain = ops(&kernel(body), false);
            assert_eq!((count(&plain, "FFMA"), count(&plain, "FMUL"), count(&plain, "FADD")), (0, 1, 1), "{body}: {plain:?}");
        }
        // c - a*b negates a factor; a*b - c the addend.
        assert!(ops(&kernel("o[0] = c - a * b;"), true).iter().any(|o| o.starts_with("FFMA") && o.contains(", -R")), "negated");
    }

    #[test]
    fn the_first_operands_product_fuses_first_and_a_shared_one_not_at_all() {
        // x*x - y*y + c, as the Mandelbrot loop: one fused (x*x), y*y multiplied, one add.
        let mandel = ops(&kernel("o[0] = a * a - b * b + c;"), true);
        assert_eq!((count(&mandel, "FFMA"), count(&mandel, "FMUL"), count(&mandel, "FADD")), (1, 1, 1), "{mandel:?}");
        // A product read twice stays a multiply.
        let twice = ops(&kernel("float p = a * b; o[0] = p + c; o[1] = p;"), true);
        assert_eq!(count(&twice, "FFMA"), 0, "{twice:?}");
        // Adding zero is not contracted (-0 + 0 is +0).
        let zero = ops(&kernel("o[0] = a * b + 0.0f;"), true);
        assert_eq!(count(&zero, "FFMA"), 0, "{zero:?}");
    }

    #[test]
    fn doubles_fuse_into_one_dfma() {
        let src = "__global__ void k(double* o, double a, double b, double c) {\n  o[0] = a * b + c;\n  o[1] = c - a * c;\n}\n";
        let fused = ops(src, true);
        assert_eq!((count(&fused, "DFMA"), count(&fused, "DMUL"), count(&fused, "DADD")), (2, 0, 0), "{fused:?}");
        let plain = ops(src, false);
        assert_eq!((count(&plain, "DFMA"), count(&plain, "DMUL"), count(&plain, "DADD")), (0, 2, 2), "{plain:?}");
    }

    #[test]
    fn a_named_product_stays_computed_beside_the_fused_add() {
        let named = ops(&kernel("float p = a * b;\n  o[0] = p + c;"), true);
        assert_eq!((count(&named, "FFMA"), count(&named, "FMUL")), (1, 1), "{named:?}");
    }
}
