//! One PTX instruction to the machine's instructions, with registers already assigned.
//! Most are one instruction; 64-bit integer arithmetic becomes a pair of carrying adds or a
//! wide multiply, a vector load lands in scratch registers and is moved out, and a 16-bit
//! result is cut back to 16 bits. Control flow (`bra`, `brx.idx`, `ret`, `exit`) is the
//! flow builder's; a `call` is here, as `CAL`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::syntax::{Instr, Operand as P};
use super::types::{Class, T};
use crate::compile::ast::Special;
use crate::compile::ins::{CodeRef, Ins, Opcode, Operand, Reg, SysReg};

/// Scratch registers no PTX register is given: a vector's four words, then three temporaries
/// (`T1`,`T2` make a pair). Each is used within one PTX instruction only.
pub const VEC: u8 = 248;
pub const T1: u8 = 252;
pub const T2: u8 = 253;
pub const T3: u8 = 254;
/// The first scratch register: allocation stays below it.
pub const SCRATCH: u32 = VEC as u32;
/// The scratch predicate (carries, 64-bit compares).
pub const PS: u8 = 6;

/// Where a `.param` lives: its first register and how many 32-bit words it holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot {
    pub reg: u8,
    pub words: u32,
}

/// What lowering needs to know beyond the instruction.
pub struct Env<'a> {
    /// Each PTX register: its class and first physical register (or predicate number).
    pub regs: &'a BTreeMap<&'a str, (Class, u8)>,
    /// Memory symbols (shared arrays, globals, the local depot): the register with the address.
    pub syms: &'a BTreeMap<&'a str, u8>,
    /// `.param` names by (scope, name); scope 0 is the function's own parameters.
    pub params: &'a BTreeMap<(u32, &'a str), Slot>,
    /// Functions by PTX name: their labels.
    pub labels: &'a BTreeMap<&'a str, String>,
    /// The function is a kernel (`ret` exits).
    pub entry: bool,
    /// Its `vprintf` calls' formats, by the call's line (`vprintf::formats`).
    pub printf: &'a BTreeMap<u32, core::result::Result<u16, String>>,
}

pub type Result<T> = core::result::Result<T, String>;

/// The lowering of one instruction.
pub struct Lower<'a> {
    env: &'a Env<'a>,
    guard: Option<(u8, bool)>,
    line: u32,
    pub out: Vec<Ins>,
}

fn r(n: u8) -> Operand {
    Operand::r(n)
}

impl<'a> Lower<'a> {
    pub fn new(env: &'a Env<'a>) -> Lower<'a> {
        Lower { env, guard: None, line: 0, out: Vec::new() }
    }

    fn emit(&mut self, i: Ins) {
        self.out.push(i.guarded(self.guard).at_line(self.line));
    }

    /// A physical register of a PTX register of class `want` (W32 also accepts the low word
    /// of a pair, as PTX's `cvt` and `mov` do not).
    fn reg(&self, name: &str) -> Result<(Class, u8)> {
        match self.env.regs.get(name) {
            Some(&x) => Ok(x),
            None if name.starts_with('%') && special(name).is_some() => {
                Err(format!("special register `{name}` can only be read with `mov` or `cvt`"))
            }
            None if name.starts_with('%') => Err(format!("register `{name}` is not declared (a `.reg` line declares it)")),
            None => Err(format!("`{name}` is not a register")),
        }
    }
    fn gpr(&self, name: &str) -> Result<u8> {
        match self.reg(name)? {
            (Class::Pred, _) => Err(format!("`{name}` is a predicate; a general register is needed here")),
            (_, n) => Ok(n),
        }
    }
    fn pred(&self, name: &str) -> Result<u8> {
        match self.reg(name)? {
            (Class::Pred, n) => Ok(n),
            _ => Err(format!("`{name}` is not a predicate")),
        }
    }
    fn dst(&self, o: &P) -> Result<u8> {
        match o {
            P::Reg(n) => self.gpr(n),
            _ => Err(String::from("the destination must be a register")),
        }
    }
    fn pdst(&self, o: &P) -> Result<u8> {
        match o {
            P::Reg(n) if *n == "_" => Ok(7),
            P::Reg(n) => self.pred(n),
            _ => Err(String::from("the destination must be a predicate")),
        }
    }
    /// A predicate source, possibly negated.
    fn psrc(&self, o: &P) -> Result<Operand> {
        match o {
            P::Reg(n) => Ok(Operand::Pred(self.pred(n)?)),
            P::NotReg(n) => Ok(Operand::NotPred(self.pred(n)?)),
            P::Int(v) => Ok(if *v != 0 { Operand::PredTrue } else { Operand::PredFalse }),
            _ => Err(String::from("expected a predicate")),
        }
    }
    /// A 32-bit source of an integer instruction (a float literal gives its bits).
    fn isrc(&self, o: &P) -> Result<Operand> {
        match o {
            P::Reg(n) => Ok(r(self.gpr(n)?)),
            P::Int(v) => Ok(Operand::Int(*v as u32)),
            P::Float(f) => Ok(Operand::Mask((*f as f32).to_bits())),
            // PTX's one predefined constant.
            P::Name(s) if *s == "WARP_SZ" => Ok(Operand::Int(32)),
            P::Name(s) => self.sym(s).map(r),
            _ => Err(String::from("expected a register or a number")),
        }
    }
    /// A 32-bit float source.
    fn fsrc(&self, o: &P) -> Result<Operand> {
        match o {
            P::Reg(n) => Ok(r(self.gpr(n)?)),
            P::Float(f) => Ok(Operand::Float((*f as f32).to_bits())),
            P::Int(v) => Ok(Operand::Float((*v as f32).to_bits())),
            _ => Err(String::from("expected a register or a number")),
        }
    }
    /// A 64-bit source as its two words.
    fn src64(&self, o: &P, t: T) -> Result<(Operand, Operand)> {
        match o {
            P::Reg(n) => match self.reg(n)? {
                (Class::W64, k) => Ok((r(k), r(k + 1))),
                (Class::W32, k) if !t.float() => {
                    // A 32-bit register in a 64-bit slot: PTX allows it only for `mov`/`cvt`;
                    // read it zero-extended.
                    Ok((r(k), Operand::RZ))
                }
                _ => Err(format!("`{n}` is not a 64-bit register")),
            },
            P::Int(v) => Ok((Operand::Int(*v as u32), Operand::Int((*v >> 32) as u32))),
            // A float literal gives its bits at the slot's width (`0d...` for 64, `0f...` below).
            P::Float(f) => {
                let bits = if t.bits() == 64 { f.to_bits() } else { u64::from((*f as f32).to_bits()) };
                Ok((Operand::Mask(bits as u32), Operand::Mask((bits >> 32) as u32)))
            }
            P::Name(s) => Ok((r(self.sym(s)?), Operand::RZ)),
            _ => Err(String::from("expected a register or a number")),
        }
    }
    /// A double source for the `D*` instructions: a register pair or a literal (held in scratch).
    fn dsrc(&mut self, o: &P, scratch: u8) -> Result<Operand> {
        match o {
            P::Reg(n) => Ok(r(self.gpr(n)?)),
            _ => {
                let (lo, hi) = self.src64(o, T::F64)?;
                self.mov(scratch, lo);
                self.mov(scratch + 1, hi);
                Ok(r(scratch))
            }
        }
    }
    fn sym(&self, s: &str) -> Result<u8> {
        self.env.syms.get(s).copied().ok_or_else(|| {
            format!(
                "`{s}` is not declared in this PTX (Compiler Explorer's directive filter removes `.shared`, `.local` and `.global` lines: copy its output with Filter > Directives off)"
            )
        })
    }
    /// A source in a register (literals are moved into `scratch` first).
    fn in_reg(&mut self, o: Operand, scratch: u8) -> Operand {
        match o {
            Operand::Reg(_) => o,
            _ => {
                self.mov(scratch, o);
                r(scratch)
            }
        }
    }

    fn mov(&mut self, d: u8, s: Operand) {
        // `cvta.to.global.u64 %rd1, %rd1` moves a register onto itself: nothing to do.
        if s != r(d) {
            self.emit(Ins::new(Opcode::Mov).dst(r(d)).src(s));
        }
    }
    fn op2(&mut self, op: Opcode, mods: &[&'static str], d: u8, a: Operand) {
        self.emit(Ins::new(op).with_mods(mods).dst(r(d)).src(a));
    }
    fn op3(&mut self, op: Opcode, mods: &[&'static str], d: u8, a: Operand, b: Operand) {
        self.emit(Ins::new(op).with_mods(mods).dst(r(d)).src(a).src(b));
    }
    fn op4(&mut self, op: Opcode, mods: &[&'static str], d: u8, a: Operand, b: Operand, c: Operand) {
        self.emit(Ins::new(op).with_mods(mods).dst(r(d)).src(a).src(b).src(c));
    }
    /// Cuts a narrow result back to its width (narrow registers hold zero-extended values).
    fn narrow(&mut self, d: u8, t: T) {
        if t.narrow() {
            let mask = if t.bits() == 8 { 0xff } else { 0xffff };
            self.op3(Opcode::Lop, &["AND"], d, r(d), Operand::Mask(mask));
        }
    }
    /// A narrow source at its width: signed ones sign-extended into `scratch`, literals cut
    /// (`mul.wide.u16 %r1, %rs1, -21845` multiplies by 0xaaab).
    fn widen(&mut self, s: Operand, t: T, scratch: u8) -> Operand {
        if !t.narrow() {
            return s;
        }
        if !t.signed() {
            return match s {
                Operand::Int(v) | Operand::Mask(v) => Operand::Int(v & ((1u32 << t.bits()) - 1)),
                x => x,
            };
        }
        match s {
            Operand::Int(v) => Operand::Int(sext(v, t.bits())),
            _ => {
                let k = 32 - t.bits();
                self.op3(Opcode::Shl, &[], scratch, s, Operand::Int(k));
                self.op3(Opcode::Shr, &["S32"], scratch, r(scratch), Operand::Int(k));
                r(scratch)
            }
        }
    }

    /// Lowers `i`, under its guard (already a physical predicate).
    pub fn instr(&mut self, i: &Instr, guard: Option<(u8, bool)>) -> Result<()> {
        self.guard = guard;
        self.line = i.span.line;
        let op = i.opcode();
        if let Some(why) = outside(i) {
            return Err(why);
        }
        match op {
            "mov" => self.mov_(i),
            "add" | "sub" => self.add_sub(i),
            "mul" => self.mul(i),
            "mad" | "fma" => self.mad(i),
            "div" | "rem" => self.div(i),
            "neg" | "abs" | "not" | "cnot" => self.unary(i),
            "min" | "max" => self.min_max(i),
            "and" | "or" | "xor" => self.logic(i),
            "shl" | "shr" => self.shift(i),
            "shf" => self.funnel(i),
            "setp" => self.setp(i),
            "selp" => self.selp(i),
            "cvt" => self.cvt(i),
            "cvta" => self.cvta(i),
            "sqrt" | "rsqrt" | "rcp" | "ex2" | "lg2" | "sin" | "cos" => self.mufu(i),
            "popc" | "clz" | "brev" | "bfind" | "bfe" | "bfi" | "prmt" | "lop3" | "fns" => self.bits(i),
            "dp4a" | "dp2a" => self.dot(i),
            "ld" | "ldu" | "st" => self.memory(i),
            "atom" | "red" => self.atomic(i),
            "bar" | "barrier" => self.barrier(i),
            "membar" | "fence" | "nanosleep" | "prefetch" | "prefetchu" | "pmevent" => {
                self.emit(Ins::new(Opcode::Nop));
                Ok(())
            }
            "shfl" | "vote" | "activemask" | "match" | "redux" => self.warp(i),
            "call" => self.call(i),
            "trap" => {
                self.emit(Ins::new(Opcode::Bpt).with_mods(&["TRAP"]));
                Ok(())
            }
            "exit" => {
                self.emit(Ins::new(Opcode::Exit));
                Ok(())
            }
            "ret" => {
                self.emit(Ins::new(if self.env.entry { Opcode::Exit } else { Opcode::Ret }));
                Ok(())
            }
            _ => Err(format!("`{}` is not a PTX instruction warpscope runs", i.parts.join("."))),
        }
    }

    /// The instruction's type: the last suffix that names one.
    fn ty(i: &Instr) -> Result<T> {
        i.parts[1..].iter().rev().find_map(|p| T::from_name(p)).ok_or_else(|| format!("`{}` has no type suffix", i.parts.join(".")))
    }
    fn operands<'i>(i: &'i Instr<'_>, n: usize) -> Result<&'i [P<'i>]> {
        if i.operands.len() < n {
            return Err(format!("`{}` takes {n} operands, found {}", i.parts.join("."), i.operands.len()));
        }
        Ok(&i.operands)
    }

    fn mov_(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 2)?;
        if t == T::Pred {
            let d = self.pdst(&o[0])?;
            let s = self.psrc(&o[1])?;
            self.emit(Ins::new(Opcode::Psetp).with_mods(&["AND"]).dst(Operand::Pred(d)).src(s).src(Operand::PredTrue));
            return Ok(());
        }
        // Vectors: `mov.b64 {lo, hi}, %rd` and `mov.b64 %rd, {lo, hi}` (and 16-bit halves).
        if let P::Vector(parts) = &o[0] {
            return self.unpack(parts, &o[1], t);
        }
        if let P::Vector(parts) = &o[1] {
            return self.pack(&o[0], parts, t);
        }
        if let P::Reg(s) = &o[1] {
            if let Some(sr) = special(s) {
                return self.read_special(&o[0], s, sr);
            }
        }
        if let P::Addr { base, offset } = &o[1] {
            // `mov.u64 %rd1, sym+8`: an address inside a variable.
            let d = self.dst(&o[0])?;
            self.op3(Opcode::Iadd, &[], d, r(self.sym(base)?), Operand::Int(*offset as u32));
            if t.wide() {
                self.mov(d + 1, Operand::RZ);
            }
            return Ok(());
        }
        let d = self.dst(&o[0])?;
        if t.wide() {
            let (lo, hi) = self.src64(&o[1], t)?;
            self.mov(d, lo);
            self.mov(d + 1, hi);
        } else {
            let s = if t == T::F32 { self.fsrc(&o[1])? } else { self.isrc(&o[1])? };
            self.mov(d, s);
            self.narrow(d, t);
        }
        Ok(())
    }

    fn unpack(&mut self, parts: &[&str], src: &P, t: T) -> Result<()> {
        if t.wide() {
            let (lo, hi) = self.src64(src, t)?;
            for (k, w) in [lo, hi].into_iter().enumerate() {
                if let Some(n) = parts.get(k).filter(|n| **n != "_") {
                    let d = self.gpr(n)?;
                    self.mov(d, w);
                }
            }
            return Ok(());
        }
        // 32 bits into two 16-bit halves.
        let s = self.isrc(src)?;
        let s = self.in_reg(s, T1);
        if let Some(n) = parts.first().filter(|n| **n != "_") {
            let d = self.gpr(n)?;
            self.op3(Opcode::Lop, &["AND"], d, s, Operand::Mask(0xffff));
        }
        if let Some(n) = parts.get(1).filter(|n| **n != "_") {
            let d = self.gpr(n)?;
            self.op3(Opcode::Shr, &["U32"], d, s, Operand::Int(16));
        }
        Ok(())
    }

    fn pack(&mut self, dst: &P, parts: &[&str], t: T) -> Result<()> {
        let d = self.dst(dst)?;
        let word = |l: &Self, k: usize| -> Result<Operand> {
            match parts.get(k) {
                Some(n) if *n != "_" => Ok(r(l.gpr(n)?)),
                _ => Ok(Operand::RZ),
            }
        };
        if t.wide() {
            let (lo, hi) = (word(self, 0)?, word(self, 1)?);
            self.mov(T1, lo);
            self.mov(d + 1, hi);
            self.mov(d, r(T1));
        } else {
            let (lo, hi) = (word(self, 0)?, word(self, 1)?);
            self.op3(Opcode::Shl, &[], T1, hi, Operand::Int(16));
            self.op3(Opcode::Lop, &["OR"], d, r(T1), lo);
        }
        Ok(())
    }

    fn read_special(&mut self, dst: &P, name: &str, sr: SysReg) -> Result<()> {
        let d = self.dst(dst)?;
        let wide = self.env.regs.get(match dst {
            P::Reg(n) => *n,
            _ => "",
        });
        let wide = matches!(wide, Some((Class::W64, _)));
        if name == "%clock64" || name == "%globaltimer" {
            self.emit(Ins::new(Opcode::Cs2r).dst(r(d)).src(Operand::Sys(sr)));
            return Ok(());
        }
        self.emit(Ins::new(Opcode::S2r).dst(r(d)).src(Operand::Sys(sr)));
        if wide {
            self.mov(d + 1, Operand::RZ);
        }
        Ok(())
    }

    fn add_sub(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let sub = i.opcode() == "sub";
        if i.has("cc") || i.parts.iter().any(|p| *p == "addc" || *p == "subc") {
            return Err(String::from("extended-precision arithmetic (`.cc` carries) is outside what warpscope runs"));
        }
        let d = self.dst(&o[0])?;
        match t {
            T::F32 => {
                let (a, b) = (self.fsrc(&o[1])?, self.fsrc(&o[2])?);
                let b = if sub { negate_float(b) } else { b };
                let mods = product_mods(i);
                self.op3(Opcode::Fadd, &mods, d, a, b);
            }
            T::F64 => {
                let a = self.dsrc(&o[1], VEC)?;
                let b = self.dsrc(&o[2], VEC + 2)?;
                let b = if sub { negate_reg(b) } else { b };
                self.op3(Opcode::Dadd, &product_mods(i), d, a, b);
            }
            T::F16 => return Err(half()),
            t if t.wide() => {
                let (al, ah) = self.src64(&o[1], t)?;
                let (bl, bh) = self.src64(&o[2], t)?;
                if sub {
                    let bl = self.in_reg(bl, T1);
                    let bh = self.in_reg(bh, T2);
                    self.add64(d, (al, ah), (negate_reg(bl), invert_reg(bh)));
                } else {
                    self.add64(d, (al, ah), (bl, bh));
                }
            }
            _ => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                if i.has("sat") {
                    return Err(String::from("saturating integer arithmetic (`.sat`) is outside what warpscope runs"));
                }
                let b = if sub {
                    match b {
                        Operand::Int(v) => Operand::Int(v.wrapping_neg()),
                        Operand::Mask(v) => Operand::Int(v.wrapping_neg()),
                        x => negate_reg(x),
                    }
                } else {
                    b
                };
                self.op3(Opcode::Iadd, &[], d, a, b);
                self.narrow(d, t);
            }
        }
        Ok(())
    }

    /// The pair `d` = a + b with the carry through the scratch predicate; a subtraction passes
    /// `b` as `(-lo, ~hi)`.
    fn add64(&mut self, d: u8, a: (Operand, Operand), b: (Operand, Operand)) {
        self.emit(Ins::new(Opcode::Iadd3).dst(r(d)).dst(Operand::Pred(PS)).src(a.0).src(b.0).src(Operand::RZ));
        self.emit(Ins::new(Opcode::Iadd3).with_mods(&["X"]).dst(r(d + 1)).src(a.1).src(b.1).src(Operand::RZ).src(Operand::Pred(PS)));
    }

    fn mul(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let d = self.dst(&o[0])?;
        let sign: &[&'static str] = if t.signed() { &[] } else { &["U32"] };
        match t {
            T::F32 => {
                let (a, b) = (self.fsrc(&o[1])?, self.fsrc(&o[2])?);
                self.op3(Opcode::Fmul, &product_mods(i), d, a, b);
            }
            T::F64 => {
                let a = self.dsrc(&o[1], VEC)?;
                let b = self.dsrc(&o[2], VEC + 2)?;
                self.op3(Opcode::Dmul, &product_mods(i), d, a, b);
            }
            T::F16 => return Err(half()),
            t if t.wide() => {
                let (al, ah) = self.src64(&o[1], t)?;
                let (bl, bh) = self.src64(&o[2], t)?;
                if i.has("hi") {
                    self.mul_hi64(d, (al, ah), (bl, bh), t.signed());
                } else {
                    self.mul64(d, (al, ah), (bl, bh), None);
                }
            }
            _ if i.has("wide") => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                if t.narrow() {
                    // 16 x 16 bits: a 32-bit product.
                    let a = self.widen(a, t, T1);
                    let b = self.widen(b, t, T2);
                    self.op3(Opcode::Imul, sign, d, a, b);
                } else {
                    let mods: &[&'static str] = if t.signed() { &["WIDE"] } else { &["WIDE", "U32"] };
                    self.op4(Opcode::Imad, mods, d, a, b, Operand::RZ);
                }
            }
            _ => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                let a = self.widen(a, t, T1);
                let b = self.widen(b, t, T2);
                let mut mods: Vec<&'static str> = Vec::new();
                if i.has("hi") {
                    mods.push("HI");
                }
                mods.extend_from_slice(sign);
                self.op3(Opcode::Imul, &mods, d, a, b);
                if i.has("hi") && t.narrow() {
                    return Err(String::from("`mul.hi` of 16-bit values is outside what warpscope runs"));
                }
                self.narrow(d, t);
            }
        }
        Ok(())
    }

    /// d = a * b (+ c): the low 64 bits, in the scratch pair, then moved to d.
    fn mul64(&mut self, d: u8, a: (Operand, Operand), b: (Operand, Operand), c: Option<(Operand, Operand)>) {
        let al = self.in_reg(a.0, T3);
        self.op4(Opcode::Imad, &["WIDE", "U32"], T1, al, b.0, Operand::RZ);
        self.op4(Opcode::Imad, &[], T2, al, b.1, r(T2));
        let ah = self.in_reg(a.1, T3);
        self.op4(Opcode::Imad, &[], T2, ah, b.0, r(T2));
        match c {
            Some((cl, ch)) => {
                self.add64(d, (r(T1), r(T2)), (cl, ch));
            }
            None => {
                self.mov(d, r(T1));
                self.mov(d + 1, r(T2));
            }
        }
    }

    /// d = the high 64 bits of the 128-bit product a * b (nvcc's division of a `long long` by a
    /// constant): three 32x32 partial products summed with carries, then for signed operands
    /// `b` taken off where `a` is negative and `a` where `b` is.
    fn mul_hi64(&mut self, d: u8, a: (Operand, Operand), b: (Operand, Operand), signed: bool) {
        let wide = |l: &mut Self, dst: u8, x: Operand, y: Operand, c: Operand| l.op4(Opcode::Imad, &["WIDE", "U32"], dst, x, y, c);
        let (v0, v1, v2, v3) = (VEC, VEC + 1, VEC + 2, VEC + 3);
        wide(self, v0, a.0, b.0, Operand::RZ);
        self.mov(v2, r(v1));
        self.mov(v3, Operand::RZ);
        wide(self, v0, a.1, b.0, r(v2));
        self.mov(v2, r(v0));
        self.mov(T1, r(v1));
        wide(self, v0, a.0, b.1, r(v2));
        self.mov(v2, r(T1));
        wide(self, v2, a.1, b.1, r(v2));
        self.add64(v2, (r(v2), r(v3)), (r(v1), Operand::RZ));
        if signed {
            for (sign, other) in [(a.1, b), (b.1, a)] {
                // mask = all ones where `sign` is negative; subtract `other & mask`.
                self.op3(Opcode::Shr, &["S32"], T1, sign, Operand::Int(31));
                self.op3(Opcode::Lop, &["AND"], T2, other.0, r(T1));
                self.op3(Opcode::Lop, &["AND"], T3, other.1, r(T1));
                self.add64(v2, (r(v2), r(v3)), (Operand::Neg(Reg::R(T2)), Operand::Not(Reg::R(T3))));
            }
        }
        self.mov(d, r(v2));
        self.mov(d + 1, r(v3));
    }

    fn mad(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 4)?;
        let d = self.dst(&o[0])?;
        match t {
            T::F32 => {
                let (a, b, c) = (self.fsrc(&o[1])?, self.fsrc(&o[2])?, self.fsrc(&o[3])?);
                self.op4(Opcode::Ffma, &float_mods(i), d, a, b, c);
            }
            T::F64 => {
                let a = self.dsrc(&o[1], VEC)?;
                let b = self.dsrc(&o[2], VEC + 2)?;
                let c = self.dsrc(&o[3], T1)?;
                self.op4(Opcode::Dfma, &[], d, a, b, c);
            }
            T::F16 => return Err(half()),
            t if t.wide() => {
                let a = self.src64(&o[1], t)?;
                let b = self.src64(&o[2], t)?;
                let c = self.src64(&o[3], t)?;
                self.mul64(d, a, b, Some(c));
            }
            _ if i.has("wide") => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                let a = self.in_reg(a, T1);
                let (cl, ch) = self.src64(&o[3], if t.signed() { T::S64 } else { T::U64 })?;
                let c = match (cl, ch) {
                    (Operand::Reg(_), Operand::Reg(_)) => cl,
                    _ => {
                        self.mov(VEC, cl);
                        self.mov(VEC + 1, ch);
                        r(VEC)
                    }
                };
                let mods: &[&'static str] = if t.signed() { &["WIDE"] } else { &["WIDE", "U32"] };
                self.op4(Opcode::Imad, mods, d, a, b, c);
            }
            _ => {
                let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
                let mut mods: Vec<&'static str> = Vec::new();
                if i.has("hi") {
                    mods.push("HI");
                }
                if !t.signed() {
                    mods.push("U32");
                }
                self.op4(Opcode::Imad, &mods, d, a, b, c);
                self.narrow(d, t);
            }
        }
        Ok(())
    }

    fn div(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let d = self.dst(&o[0])?;
        let rem = i.opcode() == "rem";
        match t {
            T::F32 => {
                let (a, b) = (self.fsrc(&o[1])?, self.fsrc(&o[2])?);
                let a = self.in_reg(a, T1);
                let b = self.in_reg(b, T2);
                self.op3(Opcode::Fdiv, &[], d, a, b);
            }
            T::F64 => {
                let a = self.dsrc(&o[1], VEC)?;
                let b = self.dsrc(&o[2], VEC + 2)?;
                self.op3(Opcode::Ddiv, &[], d, a, b);
            }
            T::F16 => return Err(half()),
            t if t.wide() => {
                let (al, ah) = self.src64(&o[1], t)?;
                let (bl, bh) = self.src64(&o[2], t)?;
                self.mov(VEC, al);
                self.mov(VEC + 1, ah);
                self.mov(VEC + 2, bl);
                self.mov(VEC + 3, bh);
                let op = if rem { Opcode::Irem } else { Opcode::Idiv };
                self.op3(op, &[if t.signed() { "S64" } else { "U64" }], d, r(VEC), r(VEC + 2));
            }
            _ => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                let a = self.widen(a, t, T1);
                let b = self.widen(b, t, T2);
                let op = if rem { Opcode::Irem } else { Opcode::Idiv };
                self.op3(op, &[if t.signed() { "S32" } else { "U32" }], d, a, b);
                self.narrow(d, t);
            }
        }
        Ok(())
    }

    fn unary(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 2)?;
        let op = i.opcode();
        if t == T::Pred {
            let d = self.pdst(&o[0])?;
            let s = self.psrc(&o[1])?;
            let s = match (op, s) {
                ("not", Operand::Pred(p)) => Operand::NotPred(p),
                ("not", Operand::NotPred(p)) => Operand::Pred(p),
                (_, s) => s,
            };
            self.emit(Ins::new(Opcode::Psetp).with_mods(&["AND"]).dst(Operand::Pred(d)).src(s).src(Operand::PredTrue));
            return Ok(());
        }
        let d = self.dst(&o[0])?;
        match (op, t) {
            (_, T::F16) => return Err(half()),
            ("neg", T::F32) | ("abs", T::F32) => {
                let a = self.fsrc(&o[1])?;
                let (lop, mask) = if op == "neg" { ("XOR", 0x8000_0000) } else { ("AND", 0x7fff_ffff) };
                self.op3(Opcode::Lop, &[lop], d, a, Operand::Mask(mask));
            }
            ("neg", T::F64) | ("abs", T::F64) => {
                let (lo, hi) = self.src64(&o[1], t)?;
                let (lop, mask) = if op == "neg" { ("XOR", 0x8000_0000) } else { ("AND", 0x7fff_ffff) };
                self.op3(Opcode::Lop, &[lop], d + 1, hi, Operand::Mask(mask));
                self.mov(d, lo);
            }
            ("neg", t) if t.wide() => {
                let (lo, hi) = self.src64(&o[1], t)?;
                let lo = self.in_reg(lo, T1);
                let hi = self.in_reg(hi, T2);
                self.add64(d, (Operand::RZ, Operand::RZ), (negate_reg(lo), invert_reg(hi)));
            }
            ("not", t) if t.wide() => {
                let (lo, hi) = self.src64(&o[1], t)?;
                self.op3(Opcode::Lop, &["XOR"], d + 1, hi, Operand::Mask(!0));
                self.op3(Opcode::Lop, &["XOR"], d, lo, Operand::Mask(!0));
            }
            ("neg", t) => {
                let a = self.isrc(&o[1])?;
                let a = self.in_reg(a, T1);
                self.op3(Opcode::Iadd, &[], d, Operand::RZ, negate_reg(a));
                self.narrow(d, t);
            }
            ("abs", t) if !t.wide() => {
                let a = self.isrc(&o[1])?;
                let a = self.widen(a, t, T1);
                let a = self.in_reg(a, T1);
                self.emit(Ins::new(Opcode::Imnmx).dst(r(d)).src(a).src(negate_reg(a)).src(Operand::PredFalse));
                self.narrow(d, t);
            }
            ("not", t) => {
                let a = self.isrc(&o[1])?;
                self.op3(Opcode::Lop, &["XOR"], d, a, Operand::Mask(!0));
                self.narrow(d, t);
            }
            ("cnot", t) if !t.wide() => {
                let a = self.isrc(&o[1])?;
                self.emit(
                    Ins::new(Opcode::Isetp)
                        .with_mods(&["EQ", "U32", "AND"])
                        .dst(Operand::Pred(PS))
                        .dst(Operand::PredTrue)
                        .src(a)
                        .src(Operand::RZ)
                        .src(Operand::PredTrue),
                );
                self.emit(Ins::new(Opcode::Sel).dst(r(d)).src(Operand::Int(1)).src(Operand::RZ).src(Operand::Pred(PS)));
            }
            _ => return Err(format!("`{}` is outside what warpscope runs", i.parts.join("."))),
        }
        Ok(())
    }

    fn min_max(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let d = self.dst(&o[0])?;
        let pick = if i.opcode() == "min" { Operand::PredTrue } else { Operand::PredFalse };
        match t {
            T::F32 => {
                let (a, b) = (self.fsrc(&o[1])?, self.fsrc(&o[2])?);
                self.emit(Ins::new(Opcode::Fmnmx).dst(r(d)).src(a).src(b).src(pick));
            }
            T::F64 => {
                let a = self.dsrc(&o[1], VEC)?;
                let b = self.dsrc(&o[2], VEC + 2)?;
                self.emit(Ins::new(Opcode::Dmnmx).dst(r(d)).src(a).src(b).src(pick));
            }
            T::F16 => return Err(half()),
            t if t.wide() => {
                // Compare, then select each word.
                let a = self.src64(&o[1], t)?;
                let b = self.src64(&o[2], t)?;
                self.compare64("LT", t.signed(), a, b);
                let keep_a = if i.opcode() == "min" { Operand::Pred(PS) } else { Operand::NotPred(PS) };
                let (al, ah) = (self.in_reg(a.0, T1), a.1);
                self.emit(Ins::new(Opcode::Sel).dst(r(T3)).src(al).src(b.0).src(keep_a));
                self.emit(Ins::new(Opcode::Sel).dst(r(d + 1)).src(ah).src(b.1).src(keep_a));
                self.mov(d, r(T3));
            }
            _ => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                let a = self.widen(a, t, T1);
                let b = self.widen(b, t, T2);
                let mods: &[&'static str] = if t.signed() { &[] } else { &["U32"] };
                self.emit(Ins::new(Opcode::Imnmx).with_mods(mods).dst(r(d)).src(a).src(b).src(pick));
                self.narrow(d, t);
            }
        }
        Ok(())
    }

    fn logic(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let name: &'static str = match i.opcode() {
            "and" => "AND",
            "or" => "OR",
            _ => "XOR",
        };
        if t == T::Pred {
            let d = self.pdst(&o[0])?;
            let (a, b) = (self.psrc(&o[1])?, self.psrc(&o[2])?);
            self.emit(Ins::new(Opcode::Psetp).with_mods(&[name]).dst(Operand::Pred(d)).src(a).src(b));
            return Ok(());
        }
        let d = self.dst(&o[0])?;
        if t.wide() {
            let (al, ah) = self.src64(&o[1], t)?;
            let (bl, bh) = self.src64(&o[2], t)?;
            self.op3(Opcode::Lop, &[name], d, al, bl);
            self.op3(Opcode::Lop, &[name], d + 1, ah, bh);
        } else {
            let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
            self.op3(Opcode::Lop, &[name], d, a, b);
            self.narrow(d, t);
        }
        Ok(())
    }

    fn shift(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let d = self.dst(&o[0])?;
        let left = i.opcode() == "shl";
        let amount = self.isrc(&o[2])?;
        if t.wide() {
            let (lo, hi) = self.src64(&o[1], t)?;
            let (lo, hi) = (self.in_reg(lo, T1), self.in_reg(hi, T2));
            let ty = if t.signed() && !left { "S64" } else { "U64" };
            if left {
                // The high word first: it reads both source words.
                self.op4(Opcode::Shf, &["L", ty, "HI"], d + 1, lo, amount, hi);
                self.op4(Opcode::Shf, &["L", ty], d, lo, amount, hi);
            } else {
                self.op4(Opcode::Shf, &["R", ty], d, lo, amount, hi);
                self.op4(Opcode::Shf, &["R", ty, "HI"], d + 1, lo, amount, hi);
            }
            return Ok(());
        }
        let a = self.isrc(&o[1])?;
        let a = self.widen(a, t, T1);
        match amount {
            // A constant within the word: the plain shifts read best.
            Operand::Int(k) if k < 32 => {
                if left {
                    self.op3(Opcode::Shl, &[], d, a, amount);
                } else {
                    self.op3(Opcode::Shr, &[if t.signed() { "S32" } else { "U32" }], d, a, amount);
                }
            }
            // PTX clamps the amount at the width; so do the 32-bit funnel shifts.
            _ if left => self.op4(Opcode::Shf, &["L", "U32"], d, a, amount, Operand::RZ),
            _ if t.signed() => self.op4(Opcode::Shf, &["R", "S32", "HI"], d, Operand::RZ, amount, a),
            _ => self.op4(Opcode::Shf, &["R", "U32"], d, a, amount, Operand::RZ),
        }
        self.narrow(d, t);
        Ok(())
    }

    /// `shf.l|r.wrap|clamp.b32 d, a, b, c`: the funnel shift of `{b:a}`.
    fn funnel(&mut self, i: &Instr) -> Result<()> {
        let o = Self::operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
        let a = self.in_reg(a, T1);
        let c = if i.has("wrap") {
            match c {
                Operand::Int(v) => Operand::Int(v & 31),
                c => {
                    self.op3(Opcode::Lop, &["AND"], T2, c, Operand::Mask(31));
                    r(T2)
                }
            }
        } else {
            c
        };
        if i.has("l") {
            self.op4(Opcode::Shf, &["L", "U32", "HI"], d, a, c, b);
        } else {
            self.op4(Opcode::Shf, &["R", "U32"], d, a, c, b);
        }
        Ok(())
    }

    fn setp(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 3)?;
        let (p, q) = match &o[0] {
            P::Pair(a, b) => (self.pdst(&P::Reg(a))?, Some(self.pdst(&P::Reg(b))?)),
            x => (self.pdst(x)?, None),
        };
        let cmp = i.parts.get(1).copied().unwrap_or("");
        let (cmp, unsigned) = cmp_name(cmp, t).ok_or_else(|| format!("`{}`: unknown comparison `{cmp}`", i.parts.join(".")))?;
        let combine: &'static str = match () {
            _ if i.has("or") => "OR",
            _ if i.has("xor") => "XOR",
            _ => "AND",
        };
        let c = match o.get(3) {
            Some(x) => self.psrc(x)?,
            None => Operand::PredTrue,
        };
        let q = q.map_or(Operand::PredTrue, Operand::Pred);
        match t {
            T::F32 => {
                let (a, b) = (self.fsrc(&o[1])?, self.fsrc(&o[2])?);
                let mut mods = alloc::vec![cmp, combine];
                if i.has("ftz") {
                    mods.push("FTZ");
                }
                self.emit(Ins::new(Opcode::Fsetp).with_mods(&mods).dst(Operand::Pred(p)).dst(q).src(a).src(b).src(c));
            }
            T::F64 => {
                let a = self.dsrc(&o[1], VEC)?;
                let b = self.dsrc(&o[2], VEC + 2)?;
                self.emit(Ins::new(Opcode::Dsetp).with_mods(&[cmp, combine]).dst(Operand::Pred(p)).dst(q).src(a).src(b).src(c));
            }
            T::F16 => return Err(half()),
            t if t.wide() => {
                let a = self.src64(&o[1], t)?;
                let b = self.src64(&o[2], t)?;
                self.compare64(cmp, t.signed() && !unsigned, a, b);
                self.emit(Ins::new(Opcode::Psetp).with_mods(&[combine]).dst(Operand::Pred(p)).src(Operand::Pred(PS)).src(c));
                if let Operand::Pred(q) = q {
                    self.emit(Ins::new(Opcode::Psetp).with_mods(&[combine]).dst(Operand::Pred(q)).src(Operand::NotPred(PS)).src(c));
                }
            }
            _ => {
                let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
                let a = self.widen(a, t, T1);
                let b = self.widen(b, t, T2);
                let mut mods = alloc::vec![cmp];
                if unsigned || !t.signed() {
                    mods.push("U32");
                }
                mods.push(combine);
                self.emit(Ins::new(Opcode::Isetp).with_mods(&mods).dst(Operand::Pred(p)).dst(q).src(a).src(b).src(c));
            }
        }
        Ok(())
    }

    /// The scratch predicate = `a cmp b` on 64-bit integers (the way the C compiler compares
    /// `long long`s: the low words unsigned, then the high words).
    fn compare64(&mut self, cmp: &'static str, signed: bool, a: (Operand, Operand), b: (Operand, Operand)) {
        let isetp = |c: &'static str, unsigned: bool, comb: &'static str, l: Operand, rr: Operand, third: Operand| {
            let mut mods = alloc::vec![c];
            if unsigned {
                mods.push("U32");
            }
            mods.push(comb);
            Ins::new(Opcode::Isetp).with_mods(&mods).dst(Operand::Pred(PS)).dst(Operand::PredTrue).src(l).src(rr).src(third)
        };
        let (al, ah) = (self.in_reg(a.0, T1), self.in_reg(a.1, T2));
        let (bl, bh) = (self.in_reg(b.0, VEC), self.in_reg(b.1, VEC + 1));
        match cmp {
            "EQ" => {
                self.emit(isetp("EQ", true, "AND", al, bl, Operand::PredTrue));
                self.emit(isetp("EQ", true, "AND", ah, bh, Operand::Pred(PS)));
            }
            "NE" => {
                self.emit(isetp("NE", true, "AND", al, bl, Operand::PredTrue));
                self.emit(isetp("NE", true, "OR", ah, bh, Operand::Pred(PS)));
            }
            _ => {
                let (l, rr, strict) = match cmp {
                    "LT" => ((al, ah), (bl, bh), "LT"),
                    "LE" => ((al, ah), (bl, bh), "LE"),
                    "GT" => ((bl, bh), (al, ah), "LT"),
                    _ => ((bl, bh), (al, ah), "LE"),
                };
                self.emit(isetp(strict, true, "AND", l.0, rr.0, Operand::PredTrue));
                self.emit(isetp("EQ", true, "AND", l.1, rr.1, Operand::Pred(PS)));
                self.emit(isetp("LT", !signed, "OR", l.1, rr.1, Operand::Pred(PS)));
            }
        }
    }

    fn selp(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let p = self.psrc(&o[3])?;
        if t.wide() {
            let (al, ah) = self.src64(&o[1], t)?;
            let (bl, bh) = self.src64(&o[2], t)?;
            let al = self.in_reg(al, T1);
            let ah = self.in_reg(ah, T2);
            self.emit(Ins::new(Opcode::Sel).dst(r(T3)).src(al).src(bl).src(p));
            self.emit(Ins::new(Opcode::Sel).dst(r(d + 1)).src(ah).src(bh).src(p));
            self.mov(d, r(T3));
        } else {
            let (a, b) = (self.isrc(&o[1])?, self.isrc(&o[2])?);
            self.emit(Ins::new(Opcode::Sel).dst(r(d)).src(a).src(b).src(p));
        }
        Ok(())
    }

    fn cvta(&mut self, i: &Instr) -> Result<()> {
        // The machine's addresses are the same in every space: a copy.
        let t = Self::ty(i)?;
        let o = Self::operands(i, 2)?;
        let d = self.dst(&o[0])?;
        if t.wide() {
            let (lo, hi) = self.src64(&o[1], t)?;
            self.mov(d, lo);
            self.mov(d + 1, hi);
        } else {
            let (lo, _) = self.src64(&o[1], T::U64)?;
            self.mov(d, lo);
        }
        Ok(())
    }

    fn mufu(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 2)?;
        let d = self.dst(&o[0])?;
        if t == T::F64 {
            if i.opcode() == "rcp" {
                let a = self.dsrc(&o[1], VEC)?;
                self.mov(VEC + 2, Operand::RZ);
                self.mov(VEC + 3, Operand::Mask(0x3ff0_0000));
                self.op3(Opcode::Ddiv, &[], d, r(VEC + 2), a);
                return Ok(());
            }
            return Err(format!("`{}` (double precision) is outside what warpscope runs", i.parts.join(".")));
        }
        if t != T::F32 {
            return Err(half());
        }
        let f: &'static str = match i.opcode() {
            "sqrt" => "SQRT",
            "rsqrt" => "RSQ",
            "rcp" => "RCP",
            "ex2" => "EX2",
            "lg2" => "LG2",
            "sin" => "SIN",
            _ => "COS",
        };
        let a = self.fsrc(&o[1])?;
        let a = self.in_reg(a, T1);
        self.op2(Opcode::Mufu, &[f], d, a);
        Ok(())
    }

    /// `dp4a.atype.btype d, a, b, c` and `dp2a.lo|hi.atype.btype`: one `IDP`, each side's parts
    /// signed as its type says.
    fn dot(&mut self, i: &Instr) -> Result<()> {
        let o = Self::operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let four = i.opcode() == "dp4a";
        let signed: Vec<bool> = i
            .parts
            .iter()
            .filter_map(|p| match *p {
                "s32" => Some(true),
                "u32" => Some(false),
                _ => None,
            })
            .collect();
        let [a_signed, b_signed] = signed[..] else {
            return Err(format!("`{}` needs the types of a and b (`.u32.s32`)", i.parts.join(".")));
        };
        let hi = i.parts.contains(&"hi");
        let a_part = match (four, a_signed) {
            (true, true) => "S8",
            (true, false) => "U8",
            (false, true) => "S16",
            (false, false) => "U16",
        };
        let b_part = if b_signed { "S8" } else { "U8" };
        let shape: &[&'static str] = if four {
            &["4A"]
        } else if hi {
            &["2A", "HI"]
        } else {
            &["2A", "LO"]
        };
        let mods: Vec<&'static str> = shape.iter().copied().chain([a_part, b_part]).collect();
        let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
        let a = self.in_reg(a, T1);
        self.op4(Opcode::Idp, &mods, d, a, b, c);
        Ok(())
    }

    fn bits(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let o = Self::operands(i, 2)?;
        let d = self.dst(&o[0])?;
        let op = i.opcode();
        if t.wide() && op != "popc" && op != "clz" {
            return Err(format!("`{}` on 64-bit values is outside what warpscope runs", i.parts.join(".")));
        }
        match op {
            "popc" if t.wide() => {
                let (lo, hi) = self.src64(&o[1], t)?;
                self.op2(Opcode::Popc, &[], T1, lo);
                self.op2(Opcode::Popc, &[], T2, hi);
                self.op3(Opcode::Iadd, &[], d, r(T1), r(T2));
            }
            "clz" if t.wide() => {
                // clz(hi), plus clz(lo) when hi is zero.
                let (lo, hi) = self.src64(&o[1], t)?;
                self.op2(Opcode::Flo, &["U32"], T1, hi);
                self.op3(Opcode::Iadd, &[], T1, negate_reg(r(T1)), Operand::Int(31));
                self.op2(Opcode::Flo, &["U32"], T2, lo);
                self.op3(Opcode::Iadd, &[], T2, negate_reg(r(T2)), Operand::Int(63));
                self.emit(
                    Ins::new(Opcode::Isetp)
                        .with_mods(&["EQ", "U32", "AND"])
                        .dst(Operand::Pred(PS))
                        .dst(Operand::PredTrue)
                        .src(r(T1))
                        .src(Operand::Int(32))
                        .src(Operand::PredTrue),
                );
                self.emit(Ins::new(Opcode::Sel).dst(r(d)).src(r(T2)).src(r(T1)).src(Operand::Pred(PS)));
            }
            "popc" => {
                let a = self.isrc(&o[1])?;
                self.op2(Opcode::Popc, &[], d, a);
            }
            "brev" => {
                let a = self.isrc(&o[1])?;
                self.op2(Opcode::Brev, &[], d, a);
            }
            // 31 - the highest set bit's index: FLO gives 0xffffffff for zero, so 32 there.
            "clz" => {
                let a = self.isrc(&o[1])?;
                self.op2(Opcode::Flo, &["U32"], d, a);
                self.op3(Opcode::Iadd, &[], d, negate_reg(r(d)), Operand::Int(31));
            }
            "bfind" => {
                let a = self.isrc(&o[1])?;
                let sign = if t.signed() { "S32" } else { "U32" };
                if i.has("shiftamt") {
                    // 31 - index, but 0xffffffff (not 32) when no bit is found.
                    self.op2(Opcode::Flo, &[sign], T1, a);
                    self.op3(Opcode::Iadd, &[], T2, negate_reg(r(T1)), Operand::Int(31));
                    self.emit(
                        Ins::new(Opcode::Isetp)
                            .with_mods(&["EQ", "U32", "AND"])
                            .dst(Operand::Pred(PS))
                            .dst(Operand::PredTrue)
                            .src(r(T1))
                            .src(Operand::Mask(!0))
                            .src(Operand::PredTrue),
                    );
                    self.emit(Ins::new(Opcode::Sel).dst(r(d)).src(r(T1)).src(r(T2)).src(Operand::Pred(PS)));
                } else {
                    self.op2(Opcode::Flo, &[sign], d, a);
                }
            }
            "bfe" => {
                let o = Self::operands(i, 4)?;
                let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
                let a = self.in_reg(a, T1);
                self.op4(Opcode::Bfe, &[if t.signed() { "S32" } else { "U32" }], d, a, b, c);
            }
            "bfi" => {
                let o = Self::operands(i, 5)?;
                let (a, b, c, e) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?, self.isrc(&o[4])?);
                let a = self.in_reg(a, T1);
                let b = self.in_reg(b, T2);
                self.emit(Ins::new(Opcode::Bfi).dst(r(d)).src(a).src(b).src(c).src(e));
            }
            "fns" => {
                let o = Self::operands(i, 4)?;
                let (mask, base, offset) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
                let mask = self.in_reg(mask, T1);
                self.op4(Opcode::Fns, &[], d, mask, base, offset);
            }
            "prmt" => {
                let o = Self::operands(i, 4)?;
                let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
                let a = self.in_reg(a, T1);
                let b = self.in_reg(b, T2);
                let mode: Option<&'static str> = ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]
                    .iter()
                    .zip(["F4E", "B4E", "RC8", "ECL", "ECR", "RC16"])
                    .find(|(m, _)| i.has(m))
                    .map(|(_, n)| n);
                let mods: Vec<&'static str> = mode.into_iter().collect();
                // SASS writes the selector between the two sources.
                self.op4(Opcode::Prmt, &mods, d, a, c, b);
            }
            _ => {
                // lop3.b32 d, a, b, c, lut
                let o = Self::operands(i, 5)?;
                let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
                let lut = match o[4] {
                    P::Int(v) if (0..=255).contains(&v) => v as u32,
                    _ => return Err(String::from("`lop3`'s truth table must be a number 0-255")),
                };
                let a = self.in_reg(a, T1);
                let c = self.in_reg(c, T2);
                self.emit(Ins::new(Opcode::Lop3).with_mods(&["LUT"]).dst(r(d)).src(a).src(b).src(c).src(Operand::Int(lut)));
            }
        }
        Ok(())
    }

    fn cvt(&mut self, i: &Instr) -> Result<()> {
        let tys: Vec<T> = i.parts[1..].iter().filter_map(|p| T::from_name(p)).collect();
        let [to, from] = tys[..] else { return Err(String::from("`cvt` needs a destination and a source type (`cvt.s64.s32`)")) };
        if to == T::F16 || from == T::F16 {
            return Err(half());
        }
        let o = Self::operands(i, 2)?;
        let d = self.dst(&o[0])?;
        let rounding = ["rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"].iter().find(|m| i.has(m)).copied();
        if let P::Reg(s) = &o[1] {
            if let Some(sr) = special(s) {
                return self.read_special(&o[0], s, sr);
            }
        }
        match (from.float(), to.float()) {
            (false, false) => {
                if i.has("sat") {
                    return Err(String::from("saturating integer conversions (`cvt.sat`) are outside what warpscope runs"));
                }
                // Read the source at its width (sign- or zero-extended), then cut or extend.
                let (lo, hi) = if from.wide() { self.src64(&o[1], from)? } else { (self.isrc(&o[1])?, Operand::RZ) };
                let lo = if from.wide() { lo } else { self.widen(lo, from, T1) };
                let lo = if from.narrow() && !from.signed() {
                    let mask = if from.bits() == 8 { 0xff } else { 0xffff };
                    self.op3(Opcode::Lop, &["AND"], T1, lo, Operand::Mask(mask));
                    r(T1)
                } else {
                    lo
                };
                if to.wide() {
                    if from.wide() {
                        self.mov(d, lo);
                        self.mov(d + 1, hi);
                    } else {
                        self.mov(d, lo);
                        if from.signed() {
                            self.op3(Opcode::Shr, &["S32"], d + 1, r(d), Operand::Int(31));
                        } else {
                            self.mov(d + 1, Operand::RZ);
                        }
                    }
                } else {
                    self.mov(d, lo);
                    self.narrow(d, to);
                }
            }
            (false, true) => {
                let src = if from.wide() {
                    self.src64(&o[1], from)?.0
                } else {
                    let s = self.isrc(&o[1])?;
                    self.widen(s, from, T1)
                };
                let src = if from.wide() { self.wide_in_reg(&o[1], from)? } else { src };
                let from = num(from);
                let mut mods = alloc::vec![num_name(num(to)), num_name(from)];
                if let Some(m) = rounding.filter(|m| *m != "rn") {
                    mods.push(round_name(m));
                }
                self.op2(Opcode::I2f, &mods, d, src);
            }
            (true, false) => {
                let src = if from == T::F64 { self.dsrc(&o[1], VEC)? } else { self.fsrc(&o[1])? };
                let src = self.in_reg(src, T1);
                let round = match rounding {
                    Some("rni") => "ROUND",
                    Some("rmi") => "FLOOR",
                    Some("rpi") => "CEIL",
                    _ => "TRUNC",
                };
                let to32 = if to.narrow() {
                    if to.signed() {
                        T::S32
                    } else {
                        T::U32
                    }
                } else {
                    to
                };
                self.op2(Opcode::F2i, &[num_name(num(to32)), num_name(num(from)), round], d, src);
                self.narrow(d, to);
            }
            (true, true) => {
                if from == to {
                    let src = if from == T::F64 { self.dsrc(&o[1], VEC)? } else { self.fsrc(&o[1])? };
                    let src = self.in_reg(src, T1);
                    if from == T::F64 {
                        if rounding.is_some_and(|m| m.ends_with('i')) {
                            return Err(String::from("rounding a double to an integral double is outside what warpscope runs"));
                        }
                        self.mov(d, src);
                        self.mov(
                            d + 1,
                            match src {
                                Operand::Reg(Reg::R(k)) => r(k + 1),
                                x => x,
                            },
                        );
                        return Ok(());
                    }
                    match rounding {
                        Some("rni") => self.op2(Opcode::Frnd, &[], d, src),
                        Some("rzi") => self.op2(Opcode::Frnd, &["TRUNC"], d, src),
                        Some("rmi") => self.op2(Opcode::Frnd, &["FLOOR"], d, src),
                        Some("rpi") => self.op2(Opcode::Frnd, &["CEIL"], d, src),
                        _ => self.mov(d, src),
                    }
                    if i.has("sat") {
                        // Clamp to [0, 1]; a NaN becomes 0 (FMNMX lets the number win).
                        self.emit(Ins::new(Opcode::Fmnmx).dst(r(d)).src(r(d)).src(Operand::Float(0)).src(Operand::PredFalse));
                        self.emit(Ins::new(Opcode::Fmnmx).dst(r(d)).src(r(d)).src(Operand::Float(1f32.to_bits())).src(Operand::PredTrue));
                    }
                } else {
                    let src = if from == T::F64 { self.dsrc(&o[1], VEC)? } else { self.fsrc(&o[1])? };
                    let src = self.in_reg(src, T1);
                    let mut mods = alloc::vec![num_name(num(to)), num_name(num(from))];
                    if let Some(m) = rounding.filter(|m| *m != "rn") {
                        mods.push(round_name(m));
                    }
                    self.op2(Opcode::F2f, &mods, d, src);
                }
            }
        }
        Ok(())
    }

    /// A 64-bit integer source in a register pair (literals in the scratch pair).
    fn wide_in_reg(&mut self, o: &P, t: T) -> Result<Operand> {
        self.wide_in(o, t, VEC)
    }

    /// A 64-bit source as a register pair: its own, or `scratch`'s with the value moved in.
    fn wide_in(&mut self, o: &P, t: T, scratch: u8) -> Result<Operand> {
        let (lo, hi) = self.src64(o, t)?;
        match (lo, hi) {
            (Operand::Reg(_), Operand::Reg(_)) => Ok(lo),
            _ => {
                self.mov(scratch, lo);
                self.mov(scratch + 1, hi);
                Ok(r(scratch))
            }
        }
    }

    fn memory(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let store = i.opcode() == "st";
        let o = Self::operands(i, 2)?;
        let (addr_op, data) = if store { (&o[0], &o[1]) } else { (&o[1], &o[0]) };
        let lanes: u32 = i.parts.iter().find_map(|p| p.strip_prefix('v').and_then(|n| n.parse().ok())).unwrap_or(1);
        let space = ["param", "global", "shared", "local", "const"].into_iter().find(|s| i.has(s));
        let P::Addr { base, offset } = addr_op else {
            return Err(String::from("expected an address like `[%rd1+4]`"));
        };
        if space == Some("param") && !self.env.regs.contains_key(base) {
            return self.param_access(i, store, base, *offset, data, t);
        }
        if t.float() && t.bits() == 16 {
            return Err(half());
        }
        // The data as registers: one per element and word.
        let mut words: Vec<Option<u8>> = Vec::new();
        let elems: Vec<Option<&str>> = match data {
            P::Vector(v) => v.iter().map(|n| (*n != "_").then_some(*n)).collect(),
            P::Reg(n) => alloc::vec![Some(*n)],
            other if store => {
                // A literal stored: put it in scratch.
                let v = match other {
                    P::Int(v) => *v as u64,
                    P::Float(f) if t == T::F64 => f.to_bits(),
                    P::Float(f) => (*f as f32).to_bits() as u64,
                    _ => return Err(String::from("expected a register or a vector of registers")),
                };
                self.mov(VEC, Operand::Mask(v as u32));
                if t.wide() {
                    self.mov(VEC + 1, Operand::Mask((v >> 32) as u32));
                }
                let w = if t.wide() { 2 } else { 1 };
                return self.access(store, space, t, base, *offset, r(VEC), w);
            }
            _ => return Err(String::from("expected a register or a vector of registers")),
        };
        if elems.len() as u32 != lanes {
            return Err(format!("`.v{lanes}` needs {lanes} registers, found {}", elems.len()));
        }
        let per = if t.wide() { 2 } else { 1 };
        for e in &elems {
            match e {
                Some(n) => {
                    let k = self.gpr(n)?;
                    for w in 0..per {
                        words.push(Some(k + w as u8));
                    }
                }
                None => words.extend(core::iter::repeat_n(None, per)),
            }
        }
        let total = words.len() as u32;
        if lanes > 1 && t.narrow() {
            // `ld.global.v4.u8 {%rs1, %rs2, %rs3, %rs4}` (a `uchar4`): element by element, each
            // a byte or halfword access of its own (an element named `_` is not loaded).
            let bytes = (t.bits() / 8) as i64;
            for (k, w) in words.iter().enumerate() {
                let data = match (w, store) {
                    (Some(w), _) => r(*w),
                    (None, true) => Operand::RZ,
                    (None, false) => continue,
                };
                self.access(store, space, t, base, *offset + k as i64 * bytes, data, 1)?;
            }
            return Ok(());
        }
        if total > 4 {
            return Err(format!("`{}` moves more than 128 bits, outside what warpscope runs", i.parts.join(".")));
        }
        // One register (or a pair holding a 64-bit value) is accessed in place; a vector
        // passes through the scratch registers, which are consecutive.
        let in_place = lanes == 1 && words[0].is_some();
        if in_place {
            let first = words[0].unwrap_or(0);
            self.access(store, space, t, base, *offset, r(first), total)?;
            // A value narrower than its register pair (`ld.global.s32 %rd2, [%rd9]`) is sign-
            // or zero-extended into the high word, as PTX specifies for a wider destination.
            if let (false, P::Reg(n)) = (store, data) {
                if !t.wide() && self.reg(n)?.0 == Class::W64 {
                    if t.signed() {
                        self.op3(Opcode::Shr, &["S32"], first + 1, r(first), Operand::Int(31));
                    } else {
                        self.mov(first + 1, Operand::RZ);
                    }
                }
            }
            return Ok(());
        }
        if store {
            for (k, w) in words.iter().enumerate() {
                self.mov(VEC + k as u8, w.map_or(Operand::RZ, r));
            }
        }
        self.access(store, space, t, base, *offset, r(VEC), total)?;
        if !store {
            for (k, w) in words.iter().enumerate() {
                if let Some(w) = w {
                    self.mov(*w, r(VEC + k as u8));
                }
            }
        }
        Ok(())
    }

    /// The load or store itself: `words` 32-bit words at `[base+offset]`.
    #[allow(clippy::too_many_arguments)]
    fn access(&mut self, store: bool, space: Option<&str>, t: T, base: &str, offset: i64, data: Operand, words: u32) -> Result<()> {
        let (base_reg, offset) = if base.is_empty() {
            (Reg::Z, offset)
        } else if let Some(&(_, k)) = self.env.regs.get(base) {
            (Reg::R(k), offset)
        } else {
            (Reg::R(self.sym(base)?), offset)
        };
        let offset = i32::try_from(offset).map_err(|_| String::from("the address offset does not fit in 32 bits"))?;
        let mem = Operand::Mem { base: base_reg, offset };
        let op = match (store, space) {
            (false, Some("shared")) => Opcode::Lds,
            (true, Some("shared")) => Opcode::Sts,
            (false, Some("global" | "const" | "local")) => Opcode::Ldg,
            (true, Some("global" | "local")) => Opcode::Stg,
            (true, Some("const")) => return Err(String::from("the `.const` space is read-only")),
            (false, _) => Opcode::Ld,
            (true, _) => Opcode::St,
        };
        let mut mods: Vec<&'static str> = Vec::new();
        if !matches!(op, Opcode::Lds | Opcode::Sts) {
            mods.push("E");
        }
        match (t.bits(), t.signed()) {
            (8, false) => mods.push("U8"),
            (8, true) => mods.push(if store { "U8" } else { "S8" }),
            (16, false) => mods.push("U16"),
            (16, true) => mods.push(if store { "U16" } else { "S16" }),
            _ => {}
        }
        match words {
            2 => mods.push("64"),
            3 | 4 => mods.push("128"),
            _ => {}
        }
        let ins = if store { Ins::new(op).with_mods(&mods).src(mem).src(data) } else { Ins::new(op).with_mods(&mods).dst(data).src(mem) };
        self.emit(ins);
        Ok(())
    }

    /// `ld.param` / `st.param`: the parameter's registers.
    fn param_access(&mut self, i: &Instr, store: bool, name: &str, offset: i64, data: &P, t: T) -> Result<()> {
        let slot = self
            .env
            .params
            .get(&(i.scope, name))
            .or_else(|| self.env.params.get(&(0, name)))
            .copied()
            .ok_or_else(|| format!("`{name}` is not a parameter of this function or call"))?;
        // A byte or halfword inside a word (a `uchar4` or struct passed by value): its bits of
        // the word, zero-extended as narrow registers hold them.
        if let (false, true, P::Reg(n)) = (store, t.narrow(), data) {
            let word = slot.reg + (offset / 4) as u8;
            if offset < 0 || (offset / 4) as u32 >= slot.words {
                return Err(format!("`[{name}+{offset}]` reads past the end of the parameter"));
            }
            let (_, reg) = self.reg(n)?;
            let (pos, len) = (8 * (offset % 4) as u32, t.bits());
            self.emit(Ins::new(Opcode::Bfe).with_mods(&["U32"]).dst(r(reg)).src(r(word)).src(Operand::Int(pos)).src(Operand::Int(len)));
            return Ok(());
        }
        if offset % 4 != 0 {
            return Err(format!("`[{name}+{offset}]`: parameters are read in whole 32-bit words here"));
        }
        let first = slot.reg + (offset / 4) as u8;
        let regs: Vec<Option<&str>> = match data {
            P::Vector(v) => v.iter().map(|n| (*n != "_").then_some(*n)).collect(),
            P::Reg(n) => alloc::vec![Some(*n)],
            _ if store => {
                let (lo, hi) = self.src64(data, t)?;
                self.mov(first, lo);
                if t.wide() {
                    self.mov(first + 1, hi);
                }
                return Ok(());
            }
            _ => return Err(String::from("expected a register")),
        };
        let per = if t.wide() { 2u8 } else { 1 };
        if (offset / 4) as u32 + regs.len() as u32 * per as u32 > slot.words {
            return Err(format!("`[{name}+{offset}]` reads past the end of the parameter"));
        }
        for (k, n) in regs.iter().enumerate() {
            let Some(n) = n else { continue };
            let (class, reg) = self.reg(n)?;
            let at = first + k as u8 * per;
            if class == Class::Pred {
                return Err(String::from("a predicate cannot be a parameter"));
            }
            for w in 0..per.min(class.words() as u8) {
                if store {
                    self.mov(at + w, r(reg + w));
                } else {
                    self.mov(reg + w, r(at + w));
                }
            }
            if !store && t.narrow() {
                self.narrow(reg, t);
            }
        }
        Ok(())
    }

    fn atomic(&mut self, i: &Instr) -> Result<()> {
        let t = Self::ty(i)?;
        let red = i.opcode() == "red";
        let o = &i.operands;
        let (d, rest) = if red { (None, &o[..]) } else { (Some(&o[0]), &o[1.min(o.len())..]) };
        if rest.len() < 2 {
            return Err(format!("`{}` needs an address and a value", i.parts.join(".")));
        }
        let P::Addr { base, offset } = &rest[0] else { return Err(String::from("expected an address like `[%rd1]`")) };
        let what: &'static str = ["add", "min", "max", "and", "or", "xor", "inc", "dec", "cas", "exch"]
            .into_iter()
            .find(|m| i.has(m))
            .map(|m| match m {
                "add" => "ADD",
                "min" => "MIN",
                "max" => "MAX",
                "and" => "AND",
                "or" => "OR",
                "xor" => "XOR",
                "inc" => "INC",
                "dec" => "DEC",
                "cas" => "CAS",
                _ => "EXCH",
            })
            .ok_or_else(|| format!("`{}`: which operation?", i.parts.join(".")))?;
        if t.narrow() || t == T::F16 {
            return Err(format!("`{}`: atomics on {}-bit values are outside what warpscope runs", i.parts.join("."), t.bits()));
        }
        let shared = i.has("shared");
        let op = if shared {
            Opcode::Atoms
        } else if i.has("global") {
            Opcode::Atomg
        } else {
            Opcode::Atom
        };
        let mut mods: Vec<&'static str> = Vec::new();
        if !shared {
            mods.push("E");
        }
        mods.push(what);
        // A 64-bit atomic works on register pairs (`.64`; `.S64`/`.U64` for a signed or unsigned
        // MIN or MAX, `.F64` for a double's ADD).
        let minmax = matches!(what, "MIN" | "MAX");
        mods.extend(match t {
            T::F32 => Some("F32"),
            T::F64 => Some("F64"),
            t if t.wide() && minmax => Some(if t.signed() { "S64" } else { "U64" }),
            t if t.wide() => Some("64"),
            t if !t.signed() && minmax => Some("U32"),
            _ => None,
        });
        let dst = match d {
            Some(x) => r(self.dst(x)?),
            None => Operand::RZ,
        };
        let (base_reg, offset) = match self.env.regs.get(base) {
            Some(&(_, k)) => (Reg::R(k), *offset),
            None => (Reg::R(self.sym(base)?), *offset),
        };
        let mem = Operand::Mem { base: base_reg, offset: offset as i32 };
        let value = |l: &mut Self, o: &P, scratch: u8| match t {
            T::F32 => l.fsrc(o),
            t if t.wide() => l.wide_in(o, t, scratch),
            _ => l.isrc(o),
        };
        let b = value(self, &rest[1], VEC)?;
        let mut ins = Ins::new(op).with_mods(&mods).dst(dst).src(mem).src(b);
        if what == "CAS" {
            let c = rest.get(2).ok_or_else(|| String::from("`atom.cas` needs a compare and a new value"))?;
            let c = value(self, c, VEC + 2)?;
            ins = ins.src(c);
        }
        self.emit(ins);
        Ok(())
    }

    fn barrier(&mut self, i: &Instr) -> Result<()> {
        if i.has("warp") {
            let mask = match i.operands.first() {
                Some(m) => self.isrc(m)?,
                None => Operand::Mask(!0),
            };
            self.emit(Ins::new(Opcode::Warpsync).src(mask));
            return Ok(());
        }
        if i.has("arrive") {
            return Err(format!(
                "`{}` (an arrival that does not wait, for producer-consumer barriers) is not supported: warpscope runs `bar.sync`, `barrier.sync` and `bar.red`",
                i.parts.join(".")
            ));
        }
        let o = &i.operands;
        if i.has("red") {
            // bar.red.popc.u32 d, a{, b}, {!}c  /  bar.red.and.pred p, a{, b}, {!}c
            let (kind, mode) = [("popc", "POPC"), ("and", "AND"), ("or", "OR")]
                .into_iter()
                .find(|(k, _)| i.has(k))
                .ok_or_else(|| String::from("`bar.red` takes `.popc`, `.and` or `.or`"))?;
            if !(3..=4).contains(&o.len()) {
                return Err(format!("`{}` takes a destination, a barrier, an optional thread count and a predicate", i.parts.join(".")));
            }
            let mut ins = Ins::new(Opcode::Bar).with_mods(&["RED", mode]);
            for id in &o[1..o.len() - 1] {
                ins = ins.src(self.isrc(id)?);
            }
            self.emit(ins.src(self.psrc(&o[o.len() - 1])?));
            let result = Ins::new(Opcode::B2r).with_mods(&["RESULT"]);
            self.emit(if kind == "popc" {
                result.dst(r(self.dst(&o[0])?))
            } else {
                result.dst(Operand::RZ).dst(Operand::Pred(self.pdst(&o[0])?))
            });
            return Ok(());
        }
        // bar.sync a{, b}, barrier.sync a{, b} (and their .aligned forms).
        if o.is_empty() || o.len() > 2 {
            return Err(format!("`{}` takes a barrier and an optional thread count", i.parts.join(".")));
        }
        let mut ins = Ins::new(Opcode::Bar).with_mods(&["SYNC"]);
        for a in o {
            ins = ins.src(self.isrc(a)?);
        }
        self.emit(ins);
        Ok(())
    }

    fn warp(&mut self, i: &Instr) -> Result<()> {
        match i.opcode() {
            "activemask" => {
                let d = self.dst(Self::operands(i, 1)?.first().unwrap_or(&P::Int(0)))?;
                self.emit(Ins::new(Opcode::Vote).with_mods(&["ANY"]).dst(r(d)).dst(Operand::PredTrue).src(Operand::PredTrue));
                Ok(())
            }
            "shfl" => {
                let o = Self::operands(i, 4)?;
                let mode: &'static str = if i.has("up") {
                    "UP"
                } else if i.has("down") {
                    "DOWN"
                } else if i.has("bfly") {
                    "BFLY"
                } else {
                    "IDX"
                };
                let (d, p) = match &o[0] {
                    P::Pair(a, b) => (self.gpr(a)?, Operand::Pred(self.pdst(&P::Reg(b))?)),
                    x => (self.dst(x)?, Operand::PredTrue),
                };
                let (a, b, c) = (self.isrc(&o[1])?, self.isrc(&o[2])?, self.isrc(&o[3])?);
                let mut ins = Ins::new(Opcode::Shfl).with_mods(&[mode]).dst(p).dst(r(d)).src(a).src(b).src(c);
                if let Some(m) = o.get(4) {
                    ins = ins.src(self.isrc(m)?);
                }
                self.emit(ins);
                Ok(())
            }
            "vote" => {
                let o = Self::operands(i, 2)?;
                let mask = match o.get(2) {
                    Some(m) => Some(self.isrc(m)?),
                    None => None,
                };
                let src = self.psrc(&o[1])?;
                let (mode, d, p): (&'static str, Operand, Operand) = if i.has("ballot") {
                    ("ANY", r(self.dst(&o[0])?), Operand::PredTrue)
                } else {
                    let m = if i.has("all") {
                        "ALL"
                    } else if i.has("any") {
                        "ANY"
                    } else {
                        "EQ"
                    };
                    (m, Operand::RZ, Operand::Pred(self.pdst(&o[0])?))
                };
                let mut ins = Ins::new(Opcode::Vote).with_mods(&[mode]).dst(d).dst(p).src(src);
                if let Some(m) = mask {
                    ins = ins.src(m);
                }
                self.emit(ins);
                Ok(())
            }
            "redux" => {
                // redux.sync.op.type d, a, membermask: the mask's lanes meet (as ptxas's
                // WARPSYNC does), then REDUX combines their values.
                let t = Self::ty(i)?;
                let o = Self::operands(i, 3)?;
                let op = i.parts[1..].iter().find_map(|p| crate::compile::ins::redux_op(p));
                let op = op.ok_or_else(|| format!("`{}`: which operation?", i.parts.join(".")))?;
                if t.float() || t.wide() || t.narrow() {
                    return Err(format!(
                        "`{}`: `redux.sync` on {}-bit {} is outside what warpscope runs",
                        i.parts.join("."),
                        t.bits(),
                        if t.float() { "floats" } else { "values" }
                    ));
                }
                let a = self.isrc(&o[1])?;
                let a = self.in_reg(a, T1);
                let m = self.isrc(&o[2])?;
                self.emit(Ins::new(Opcode::Warpsync).src(m));
                let signed = t.signed() && matches!(op, "MIN" | "MAX");
                let mods: &[&str] = if signed { &[op, "S32"] } else { &[op] };
                self.emit(Ins::new(Opcode::Redux).with_mods(mods).dst(r(self.dst(&o[0])?)).src(a));
                Ok(())
            }
            _ => {
                // match.sync.any|all.b32 d[|p], a, membermask
                let t = Self::ty(i)?;
                let o = Self::operands(i, 3)?;
                if t.wide() {
                    return Err(String::from("`match.sync` on 64-bit values is outside what warpscope runs"));
                }
                let a = self.isrc(&o[1])?;
                let a = self.in_reg(a, T1);
                let m = self.isrc(&o[2])?;
                let ins = if i.has("all") {
                    let (d, p) = match &o[0] {
                        P::Pair(a, b) => (r(self.gpr(a)?), Operand::Pred(self.pdst(&P::Reg(b))?)),
                        x => (r(self.dst(x)?), Operand::PredTrue),
                    };
                    Ins::new(Opcode::Match).with_mods(&["ALL"]).dst(p).dst(d).src(a).src(m)
                } else {
                    Ins::new(Opcode::Match).with_mods(&["ANY"]).dst(r(self.dst(&o[0])?)).src(a).src(m)
                };
                self.emit(ins);
                Ok(())
            }
        }
    }

    /// The format `vprintf::formats` found for the `vprintf` or `__assertfail` call `i`.
    fn call_format(&self, i: &Instr, name: &str) -> Result<u16> {
        match self.env.printf.get(&i.span.line) {
            Some(Ok(k)) => Ok(*k),
            Some(Err(why)) => Err(why.clone()),
            None => Err(format!("internal error: a `{name}` call without its text")),
        }
    }

    fn call(&mut self, i: &Instr) -> Result<()> {
        if self.guard.is_some() {
            return Err(String::from("a guarded `call` is outside what warpscope runs (branch around it instead)"));
        }
        let name = i.operands.iter().find_map(|o| if let P::Name(n) = o { Some(*n) } else { None });
        let name = name.ok_or_else(|| String::from("`call` needs the function's name"))?;
        if name == "vprintf" {
            // `PRINTF "format", [buffer]`: the buffer's address is in the second argument's
            // registers (its low word: warpscope's addresses are 32-bit).
            let format = self.call_format(i, name)?;
            let [_, buf] = super::vprintf::args(i).ok_or_else(|| String::from("`vprintf` takes a format and a buffer"))?;
            let slot = self.env.params.get(&(i.scope, buf)).copied().ok_or_else(|| format!("`{buf}` is not a parameter of this call"))?;
            self.emit(Ins::new(Opcode::Printf).src(Operand::Str(format)).src(Operand::Mem { base: Reg::R(slot.reg), offset: 0 }));
            return Ok(());
        }
        if name == "__assertfail" {
            // A failed `assert`: CUDA's line (no arguments), then the trap that aborts the kernel.
            let format = self.call_format(i, name)?;
            self.emit(Ins::new(Opcode::Printf).src(Operand::Str(format)).src(Operand::Mem { base: Reg::Z, offset: 0 }));
            self.emit(Ins::new(Opcode::Bpt).with_mods(&["TRAP"]));
            return Ok(());
        }
        let label = self.env.labels.get(&name).ok_or_else(|| format!("`{name}` is not a function defined in this module"))?;
        self.emit(Ins::new(Opcode::Cal).to(CodeRef::Func(label.clone())));
        Ok(())
    }
}

/// Why an instruction is outside what warpscope runs, for the families it does not model.
fn outside(i: &Instr) -> Option<String> {
    let op = i.opcode();
    let what = match op {
        "tex" | "tld4" | "txq" => "textures",
        "suld" | "sust" | "sured" | "suq" => "surfaces",
        "mma" | "wmma" | "wgmma" | "ldmatrix" | "stmatrix" | "movmatrix" | "tcgen05" => "tensor-core matrix instructions",
        "cp" | "mbarrier" | "elect" | "multimem" | "mapa" | "getctarank" | "griddepcontrol" | "setmaxnreg" | "cp.async" => {
            "asynchronous copies, clusters and their barriers"
        }
        "alloca" | "stacksave" | "stackrestore" => "a dynamic stack",
        "istypep" | "isspacep" | "applypriority" | "discard" | "createpolicy" => "memory-space queries and cache policies",
        "sad" | "mul24" | "mad24" | "testp" | "copysign" | "slct" | "set" | "szext" | "bmsk" | "addc" | "subc" | "madc" => {
            "this arithmetic instruction"
        }
        "vote" if i.has("ballot") && !i.has("sync") => "the pre-Volta `vote` without `.sync`",
        "shfl" if !i.has("sync") => "the pre-Volta `shfl` without `.sync`",
        _ => return None,
    };
    Some(format!("`{}` ({what}) is outside what warpscope runs", i.parts.join(".")))
}

/// The special register a PTX name reads.
pub fn special(name: &str) -> Option<SysReg> {
    let (base, axis) = match name.rsplit_once('.') {
        Some((b, a)) if ["x", "y", "z"].contains(&a) => (b, ["x", "y", "z"].iter().position(|x| *x == a).map(|k| k as u8)),
        _ => (name, None),
    };
    Some(match (base, axis) {
        ("%tid", Some(k)) => SysReg::Launch(Special::ThreadIdx(k)),
        ("%ntid", Some(k)) => SysReg::Launch(Special::BlockDim(k)),
        ("%ctaid", Some(k)) => SysReg::Launch(Special::BlockIdx(k)),
        ("%nctaid", Some(k)) => SysReg::Launch(Special::GridDim(k)),
        ("%laneid", None) => SysReg::Launch(Special::LaneId),
        ("%warpid", None) => SysReg::Named("SR_WARPID"),
        ("%clock", None) | ("%clock64", None) => SysReg::ClockLo,
        ("%lanemask_eq", None) => SysReg::Named("SR_EQMASK"),
        ("%lanemask_lt", None) => SysReg::Named("SR_LTMASK"),
        ("%lanemask_le", None) => SysReg::Named("SR_LEMASK"),
        ("%lanemask_gt", None) => SysReg::Named("SR_GTMASK"),
        ("%lanemask_ge", None) => SysReg::Named("SR_GEMASK"),
        _ => return None,
    })
}

/// The comparison's name for the SETP instructions, and whether it forces an unsigned compare.
fn cmp_name(c: &str, t: T) -> Option<(&'static str, bool)> {
    Some(match c {
        "eq" => ("EQ", false),
        "ne" => ("NE", false),
        "lt" => ("LT", false),
        "le" => ("LE", false),
        "gt" => ("GT", false),
        "ge" => ("GE", false),
        "lo" => ("LT", true),
        "ls" => ("LE", true),
        "hi" => ("GT", true),
        "hs" => ("GE", true),
        "equ" if t.float() => ("EQU", false),
        "neu" if t.float() => ("NEU", false),
        "ltu" if t.float() => ("LTU", false),
        "leu" if t.float() => ("LEU", false),
        "gtu" if t.float() => ("GTU", false),
        "geu" if t.float() => ("GEU", false),
        "num" if t.float() => ("NUM", false),
        "nan" if t.float() => ("NAN", false),
        _ => return None,
    })
}

/// The rounding, saturation and flush modifiers of a float instruction.
/// A float `mul`, `add` or `sub`'s modifiers, `.rn` kept: PTX lets ptxas fuse a multiply and an
/// add into one fma only where neither names a rounding (`contract`), and `.RN` says it did.
fn product_mods(i: &Instr) -> Vec<&'static str> {
    let mut mods = float_mods(i);
    if i.has("rn") {
        mods.push("RN");
    }
    mods
}

fn float_mods(i: &Instr) -> Vec<&'static str> {
    let mut mods = Vec::new();
    for (p, m) in [("rm", "RM"), ("rp", "RP"), ("rz", "RZ"), ("ftz", "FTZ"), ("sat", "SAT")] {
        if i.has(p) {
            mods.push(m);
        }
    }
    mods
}

fn num(t: T) -> crate::isa::NumType {
    use crate::isa::NumType;
    match t {
        T::S64 => NumType::S64,
        T::U64 | T::B64 => NumType::U64,
        T::F32 => NumType::F32,
        T::F64 => NumType::F64,
        t if t.signed() => NumType::S32,
        _ => NumType::U32,
    }
}

fn num_name(n: crate::isa::NumType) -> &'static str {
    use crate::isa::NumType;
    match n {
        NumType::S32 => "S32",
        NumType::U32 => "U32",
        NumType::S64 => "S64",
        NumType::U64 => "U64",
        NumType::F32 => "F32",
        NumType::F64 => "F64",
    }
}

fn round_name(m: &str) -> &'static str {
    match m {
        "rz" | "rzi" => "RZ",
        "rm" | "rmi" => "RM",
        "rp" | "rpi" => "RP",
        _ => "RN",
    }
}

fn sext(v: u32, bits: u32) -> u32 {
    let k = 32 - bits;
    (((v << k) as i32) >> k) as u32
}

fn negate_float(o: Operand) -> Operand {
    match o {
        Operand::Float(bits) => Operand::Float(bits ^ 0x8000_0000),
        x => negate_reg(x),
    }
}

fn negate_reg(o: Operand) -> Operand {
    match o {
        Operand::Reg(r) => Operand::Neg(r),
        Operand::Neg(r) => Operand::Reg(r),
        x => x,
    }
}

fn invert_reg(o: Operand) -> Operand {
    match o {
        Operand::Reg(r) => Operand::Not(r),
        x => x,
    }
}

fn half() -> String {
    String::from("half precision (`.f16`, `.bf16`) is outside what warpscope runs")
}
