//! Which registers and predicates an operation reads and writes: the dependences a timing model
//! waits on. One arm per operation, so a new operation must say what it touches.

use super::{Address, Instruction, NumType, Op, Pred, PredSrc, Reg, Src, Width};

/// A set of general registers (RZ never enters) and of predicates (PT never enters).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct RegSet {
    regs: [u64; 4],
    preds: u16,
}

impl RegSet {
    pub fn add(&mut self, r: Reg) {
        if !r.is_zero() {
            self.regs[r.0 as usize / 64] |= 1 << (r.0 % 64);
        }
    }
    /// `r` and the `n - 1` registers after it (a pair or a quad).
    pub fn add_run(&mut self, r: Reg, n: u32) {
        if r.is_zero() {
            return;
        }
        for k in 0..n {
            if let Some(x) = r.0.checked_add(k as u8).filter(|x| *x != Reg::RZ.0) {
                self.add(Reg(x));
            }
        }
    }
    pub fn add_pred(&mut self, p: Pred) {
        if !p.is_true() {
            self.preds |= 1 << p.0;
        }
    }
    pub fn contains(&self, r: Reg) -> bool {
        !r.is_zero() && self.regs[r.0 as usize / 64] & (1 << (r.0 % 64)) != 0
    }
    pub fn without(&self, other: &RegSet) -> RegSet {
        let mut out = *self;
        for (a, b) in out.regs.iter_mut().zip(other.regs) {
            *a &= !b;
        }
        out.preds &= !other.preds;
        out
    }
    pub fn union(&self, other: &RegSet) -> RegSet {
        let mut out = *self;
        for (a, b) in out.regs.iter_mut().zip(other.regs) {
            *a |= b;
        }
        out.preds |= other.preds;
        out
    }
    pub fn regs(&self) -> impl Iterator<Item = Reg> + '_ {
        (0..255u8).filter(|&r| self.regs[r as usize / 64] & (1 << (r % 64)) != 0).map(Reg)
    }
    pub fn preds(&self) -> impl Iterator<Item = Pred> + '_ {
        (0..Pred::FILE as u8).filter(|&p| self.preds & (1 << p) != 0).map(Pred)
    }
    pub fn is_empty(&self) -> bool {
        self.regs == [0; 4] && self.preds == 0
    }
}

/// What one instruction reads (its guard included) and writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Uses {
    pub reads: RegSet,
    pub writes: RegSet,
}

impl Uses {
    fn src(&mut self, s: Src) {
        self.src_n(s, 1);
    }
    fn src_n(&mut self, s: Src, n: u32) {
        if let Src::Reg { reg, .. } = s {
            self.reads.add_run(reg, n);
        }
    }
    fn pred(&mut self, p: PredSrc) {
        self.reads.add_pred(p.pred);
    }
    fn dst(&mut self, r: Reg) {
        self.writes.add(r);
    }
    fn dst_n(&mut self, r: Reg, n: u32) {
        self.writes.add_run(r, n);
    }
    fn addr(&mut self, a: Address) {
        self.reads.add(a.base);
    }
}

fn width_regs(w: Width) -> u32 {
    w.words().max(1)
}

fn type_regs(t: NumType) -> u32 {
    1 + t.wide() as u32
}

impl Instruction {
    /// The registers and predicates this instruction reads (its guard too) and writes.
    pub fn uses(&self) -> Uses {
        let mut u = self.op.uses();
        if let Some(g) = self.guard {
            u.reads.add_pred(g.pred);
        }
        u
    }
}

impl Op {
    /// The registers and predicates this operation reads and writes (64-bit values name a pair).
    pub fn uses(&self) -> Uses {
        let mut u = Uses::default();
        match *self {
            Op::Iadd { dst, a, b } | Op::Shl { dst, a, b } | Op::Shr { dst, a, b, .. } => {
                u.dst(dst);
                u.src(a);
                u.src(b);
            }
            Op::Iscadd { dst, a, b, .. } | Op::Imul { dst, a, b, .. } | Op::Lop { dst, a, b, .. } => {
                u.dst(dst);
                u.src(a);
                u.src(b);
            }
            Op::Fadd { dst, a, b, .. } | Op::Fmul { dst, a, b, .. } | Op::Fdiv { dst, a, b, .. } => {
                u.dst(dst);
                u.src(a);
                u.src(b);
            }
            Op::Iadd3 { dst, a, b, c, carry } => {
                u.dst(dst);
                u.writes.add_pred(carry);
                [a, b, c].into_iter().for_each(|s| u.src(s));
            }
            Op::Iadd3X { dst, carry, a, b, c, carry_in, .. } => {
                u.dst(dst);
                u.writes.add_pred(carry);
                [a, b, c].into_iter().for_each(|s| u.src(s));
                u.pred(carry_in);
            }
            Op::ImadWide { dst, a, b, c, .. } => {
                u.dst_n(dst, 2);
                u.src(a);
                u.src(b);
                u.src_n(c, 2);
            }
            Op::Shf { dst, lo, shift, hi, .. } => {
                u.dst(dst);
                [lo, shift, hi].into_iter().for_each(|s| u.src(s));
            }
            Op::Imad { dst, a, b, c, .. } | Op::Ffma { dst, a, b, c, .. } | Op::Lop3 { dst, a, b, c, .. } => {
                u.dst(dst);
                [a, b, c].into_iter().for_each(|s| u.src(s));
            }
            Op::Isetp { dst, dst_inv, a, b, c, .. } | Op::Fsetp { dst, dst_inv, a, b, c, .. } => {
                u.writes.add_pred(dst);
                u.writes.add_pred(dst_inv);
                u.src(a);
                u.src(b);
                u.pred(c);
            }
            Op::Dsetp { dst, dst_inv, a, b, c, .. } => {
                u.writes.add_pred(dst);
                u.writes.add_pred(dst_inv);
                u.src_n(a, 2);
                u.src_n(b, 2);
                u.pred(c);
            }
            Op::Fchk { dst, a, b } => {
                u.writes.add_pred(dst);
                u.src(a);
                u.src(b);
            }
            Op::Psetp { dst, a, b, .. } => {
                u.writes.add_pred(dst);
                u.pred(a);
                u.pred(b);
            }
            Op::Plop3 { dst, dst2, a, b, c, .. } => {
                u.writes.add_pred(dst);
                u.writes.add_pred(dst2);
                [a, b, c].into_iter().for_each(|p| u.pred(p));
            }
            Op::Mov { dst, src }
            | Op::Popc { dst, src }
            | Op::Brev { dst, src }
            | Op::Flo { dst, src, .. }
            | Op::Frnd { dst, src, .. }
            | Op::Mufu { dst, src, .. }
            | Op::I2f { dst, src, .. }
            | Op::F2i { dst, src, .. } => {
                u.dst(dst);
                u.src(src);
            }
            Op::Cvt { dst, src, from, to, .. } => {
                u.dst_n(dst, type_regs(to));
                u.src_n(src, type_regs(from));
            }
            Op::Sel { dst, a, b, p } | Op::Imnmx { dst, a, b, p, .. } | Op::Fmnmx { dst, a, b, p } => {
                u.dst(dst);
                u.src(a);
                u.src(b);
                u.pred(p);
            }
            Op::Dmnmx { dst, a, b, p } => {
                u.dst_n(dst, 2);
                u.src_n(a, 2);
                u.src_n(b, 2);
                u.pred(p);
            }
            Op::S2r { dst, .. } => u.dst(dst),
            Op::Cs2r { dst, wide, .. } => u.dst_n(dst, 1 + wide as u32),
            Op::Ld { dst, addr, width, .. } => {
                u.dst_n(dst, width_regs(width));
                u.addr(addr);
            }
            Op::St { src, addr, width, .. } => {
                u.reads.add_run(src, width_regs(width));
                u.addr(addr);
            }
            Op::Atom { dst, addr, b, c, wide, .. } => {
                let n = 1 + wide as u32;
                u.dst_n(dst, n);
                u.addr(addr);
                u.src_n(b, n);
                u.src_n(c, n);
            }
            Op::Dadd { dst, a, b } | Op::Dmul { dst, a, b } | Op::Ddiv { dst, a, b } => {
                u.dst_n(dst, 2);
                u.src_n(a, 2);
                u.src_n(b, 2);
            }
            Op::Dfma { dst, a, b, c } => {
                u.dst_n(dst, 2);
                [a, b, c].into_iter().for_each(|s| u.src_n(s, 2));
            }
            Op::Bfe { dst, a, pos, len, .. } => {
                u.dst(dst);
                [a, pos, len].into_iter().for_each(|s| u.src(s));
            }
            Op::Bfi { dst, insert, base, pos, len } => {
                u.dst(dst);
                [insert, base, pos, len].into_iter().for_each(|s| u.src(s));
            }
            Op::Prmt { dst, a, sel, b, .. } => {
                u.dst(dst);
                [a, sel, b].into_iter().for_each(|s| u.src(s));
            }
            Op::Idp { dst, a, b, c, .. } => {
                u.dst(dst);
                [a, b, c].into_iter().for_each(|s| u.src(s));
            }
            Op::Fns { dst, mask, base, offset } => {
                u.dst(dst);
                [mask, base, offset].into_iter().for_each(|s| u.src(s));
            }
            Op::Sgxt { dst, a, bits, .. } => {
                u.dst(dst);
                u.src(a);
                u.src(bits);
            }
            Op::Idiv { dst, a, b, wide, .. } => {
                let n = 1 + wide as u32;
                u.dst_n(dst, n);
                u.src_n(a, n);
                u.src_n(b, n);
            }
            Op::Shfl { pred, dst, a, b, c, mask, .. } => {
                u.dst(dst);
                u.writes.add_pred(pred);
                [a, b, c].into_iter().for_each(|s| u.src(s));
                mask.into_iter().for_each(|s| u.src(s));
            }
            Op::Vote { dst, pred, src, mask, .. } => {
                u.dst(dst);
                u.writes.add_pred(pred);
                u.pred(src);
                mask.into_iter().for_each(|s| u.src(s));
            }
            Op::Redux { dst, src, .. } => {
                u.dst(dst);
                u.reads.add(src);
            }
            Op::Match { pred, dst, src, wide, mask, .. } => {
                u.dst(dst);
                u.writes.add_pred(pred);
                u.src_n(src, 1 + wide as u32);
                mask.into_iter().for_each(|s| u.src(s));
            }
            Op::Printf { base, words, .. } => u.reads.add_run(base, words as u32),
            Op::Host { base, words, .. } => {
                u.reads.add_run(base, words as u32);
                u.dst_n(base, words as u32);
            }
            Op::BmovRead { dst, .. } => u.dst(dst),
            Op::BmovWrite { src, .. } => u.reads.add(src),
            Op::Warpsync { mask } => u.src(mask),
            Op::BarSync { id, count, red } => {
                u.src(id);
                count.into_iter().for_each(|s| u.src(s));
                red.into_iter().for_each(|r| u.pred(r.pred));
            }
            Op::B2r { dst, pred } => {
                u.dst(dst);
                u.writes.add_pred(pred);
            }
            Op::Nop
            | Op::Trap
            | Op::Ssy { .. }
            | Op::Sync
            | Op::Bra { .. }
            | Op::Pbk { .. }
            | Op::Brk
            | Op::Pcnt { .. }
            | Op::Cont
            | Op::Cal { .. }
            | Op::Ret
            | Op::Exit
            | Op::Bssy { .. }
            | Op::Bsync { .. }
            | Op::Break { .. }
            | Op::Yield => {}
        }
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;

    fn uses(text: &str) -> Uses {
        let (p, diags) = assemble(text);
        assert!(diags.is_empty(), "{diags:?}");
        p.instrs[0].uses()
    }

    #[test]
    fn reads_sources_and_guard_and_writes_destinations() {
        let u = uses("@P1 FFMA R1, R2, R3, R4;");
        assert!(u.writes.contains(Reg(1)) && !u.writes.contains(Reg(2)));
        assert_eq!(u.reads.regs().collect::<alloc::vec::Vec<_>>(), [Reg(2), Reg(3), Reg(4)]);
        assert_eq!(u.reads.preds().collect::<alloc::vec::Vec<_>>(), [Pred(1)]);
    }

    #[test]
    fn zero_register_and_true_predicate_are_no_dependence() {
        let u = uses("ISETP.GE.AND P0, PT, R3, RZ, PT;");
        assert_eq!(u.reads.regs().collect::<alloc::vec::Vec<_>>(), [Reg(3)]);
        assert_eq!(u.writes.preds().collect::<alloc::vec::Vec<_>>(), [Pred(0)]);
        assert!(u.reads.preds().next().is_none());
    }

    #[test]
    fn double_precision_names_register_pairs() {
        let u = uses("DADD R4, R6, R8;");
        assert_eq!(u.writes.regs().collect::<alloc::vec::Vec<_>>(), [Reg(4), Reg(5)]);
        assert_eq!(u.reads.regs().collect::<alloc::vec::Vec<_>>(), [Reg(6), Reg(7), Reg(8), Reg(9)]);
    }
}
