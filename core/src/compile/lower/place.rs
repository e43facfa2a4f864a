//! Places: what an assignment writes (a variable's register, or memory at `[base + offset]`),
//! loads and stores, `&`, assignments and `++`/`--`. A computed value assigned to a variable is
//! written straight into it by retargeting the instruction that computed it.

use alloc::format;
use alloc::vec::Vec;

use super::value::{alu, Repr, Value};
use super::{Lower, Var};
use crate::compile::ast::*;
use crate::compile::ins::{Ins, Opcode, Operand, Reg};
use crate::diag::Span;

/// Where an assignment goes.
#[derive(Clone, Copy)]
pub(super) enum Place {
    Reg(u8, Ty),
    /// `[base + offset]` holding a value of type `ty` (a scalar, a vector's components one
    /// after another, a struct's fields at their offsets); `shared` when the compiler knows it
    /// is in shared memory (then it uses `LDS`/`STS`; other pointers use generic `LD`/`ST`).
    Mem {
        base: u8,
        offset: i32,
        ty: Ty,
        shared: bool,
    },
}

impl Place {
    /// The type of what it holds.
    pub(super) fn ty(&self) -> Ty {
        match *self {
            Place::Reg(_, ty) | Place::Mem { ty, .. } => ty,
        }
    }
}

/// How memory holds one scalar of a row: a pointer as its address's 32 bits (the high word is
/// zero here).
fn stored(ty: Ty) -> Scalar {
    match ty {
        Ty::Scalar(s) => s,
        _ => Scalar::Unsigned,
    }
}

/// The modifiers of a load or store of `elem` (`LD.E.U8`, `STS.64`): its width, and `.E` (64-bit
/// addresses) for a global one. A store of a byte or halfword writes the register's low bits,
/// so it is `.U8` or `.U16` signed or not.
fn mem_mods(shared: bool, elem: Scalar, store: bool) -> Vec<&'static str> {
    let width = match (elem.stored_narrow(), elem.wide()) {
        (Some((8, true)), _) if !store => Some("S8"),
        (Some((8, _)), _) => Some("U8"),
        (Some((_, true)), _) if !store => Some("S16"),
        (Some(_), _) => Some("U16"),
        (None, true) => Some("64"),
        (None, false) => None,
    };
    (!shared).then_some("E").into_iter().chain(width).collect()
}

/// `LD.E` or `LDS`, as wide as the element.
fn load_ins(t: u8, base: u8, offset: i32, shared: bool, elem: Scalar) -> Ins {
    alu(if shared { Opcode::Lds } else { Opcode::Ld }, &mem_mods(shared, elem, false), t, &[mem(base, offset)])
}

/// Bytes per element of `ty` (a `float3` is 12, a struct its size with padding).
fn size_of(ty: Ty) -> i32 {
    ty.size_of().unwrap_or(0) as i32
}

fn mem(base: u8, offset: i32) -> Operand {
    Operand::Mem { base: Reg::R(base), offset }
}

impl Lower<'_> {
    /// `a[i]`, `*p` or `v.x` as a value.
    pub(super) fn load(&mut self, e: &Expr) -> Option<Value> {
        let place = self.place(e)?;
        self.read_place(&place, e.span)
    }

    /// `base + index * size`, as SASS computes it: `ISCADD` for a power of two, else `IMAD`
    /// (a `float3` is 12 bytes).
    pub(super) fn scaled_add(&mut self, t: u8, index: u8, negate: bool, base: Operand, size: i32) {
        if (size as u32).is_power_of_two() {
            let idx = if negate { Operand::Neg(Reg::R(index)) } else { Operand::r(index) };
            self.emit(alu(Opcode::Iscadd, &[], t, &[idx, base, Operand::Int(size.trailing_zeros())]));
        } else {
            let step = if negate { size.wrapping_neg() } else { size };
            self.emit(alu(Opcode::Imad, &[], t, &[Operand::r(index), Operand::Int(step as u32), base]));
        }
    }

    /// Component `k` of a vector's place (`v.x`, `p[i].w`, or a computed vector's registers).
    pub(super) fn component_place(&mut self, whole: Place, k: u8, span: Span) -> Option<Place> {
        let ty = whole.ty();
        let Ty::Vector(s, n) = ty else {
            self.error(span, format!("`.{}` needs a vector (`float4`, `uchar4`...), and this is `{}`", component_name(k), ty.name()));
            return None;
        };
        if k >= n {
            self.error(span, format!("`{}` has {n} component{}: no `.{}`", ty.name(), if n == 1 { "" } else { "s" }, component_name(k)));
            return None;
        }
        Some(match whole {
            Place::Reg(r, _) => Place::Reg(r + k, Ty::Scalar(s)),
            Place::Mem { base, offset, shared, .. } => {
                Place::Mem { base, offset: offset + k as i32 * s.bytes() as i32, ty: Ty::Scalar(s), shared }
            }
        })
    }

    /// `&a[i]`: the element's address.
    pub(super) fn address_of(&mut self, inner: &Expr, span: Span) -> Option<Value> {
        match self.place(inner)? {
            Place::Mem { base, offset: 0, ty, .. } => Some(Value::reg(base, ty.pointer_to()?)),
            Place::Mem { base, offset, ty, .. } => {
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Iadd, &[], t, &[Operand::r(base), Operand::Int(offset as u32)]));
                Some(Value::reg(t, ty.pointer_to()?))
            }
            Place::Reg(..) => {
                self.error(span, "`&` of a local variable: locals live in registers, which have no address");
                None
            }
        }
    }

    /// `a[i][j]` of an array in memory `a[N][M]` as `a[i * M + j]`, with whether it is shared.
    /// `None` when `e` is not an element of a declared array.
    fn array_element(&mut self, e: &Expr) -> Option<Option<(Expr, bool)>> {
        let mut idx = alloc::vec::Vec::new();
        let mut root = e;
        while let ExprKind::Index(p, i) = &root.kind {
            idx.push(&**i);
            root = p;
        }
        let ExprKind::Var(name) = &root.kind else { return Some(None) };
        let Some(Var { memory: Some(k), .. }) = self.lookup(name) else { return Some(None) };
        let dims = self.arrays[k].dims.clone();
        let shared = self.arrays[k].space == Space::Shared;
        idx.reverse();
        if idx.len() != dims.len() {
            let n = dims.len();
            self.error(
                e.span,
                format!("`{name}` has {n} dimension{}: index every one (`{name}{}`)", if n == 1 { "" } else { "s" }, "[i]".repeat(n)),
            );
            return None;
        }
        // Row-major: index j is scaled by the sizes of the dimensions after it.
        let mut linear: Option<Expr> = None;
        for (j, i) in idx.iter().enumerate() {
            let stride: u32 = dims[j + 1..].iter().map(|d| d.unwrap_or(1)).product();
            let span = i.span;
            let term = if stride == 1 {
                (*i).clone()
            } else {
                let k = Expr { kind: ExprKind::Int { value: stride as u64, unsigned: false }, span };
                Expr { kind: ExprKind::Binary(BinOp::Mul, alloc::boxed::Box::new((*i).clone()), alloc::boxed::Box::new(k)), span }
            };
            linear = Some(match linear {
                None => term,
                Some(acc) => Expr { kind: ExprKind::Binary(BinOp::Add, alloc::boxed::Box::new(acc), alloc::boxed::Box::new(term)), span },
            });
        }
        let flat = match linear {
            Some(l) => Expr { kind: ExprKind::Index(alloc::boxed::Box::new(root.clone()), alloc::boxed::Box::new(l)), span: e.span },
            None => root.clone(),
        };
        Some(Some((flat, shared)))
    }

    pub(super) fn place(&mut self, e: &Expr) -> Option<Place> {
        if matches!(e.kind, ExprKind::Index(..) | ExprKind::Var(_)) {
            if let Some((flat, shared)) = self.array_element(e)? {
                if let ExprKind::Var(name) = &flat.kind {
                    // A scalar in memory: its address is in the variable's register.
                    let v = self.lookup(name)?;
                    return Some(Place::Mem { base: v.reg, offset: 0, ty: v.ty.pointee_ty()?, shared });
                }
                return match self.pointer_element(&flat)? {
                    Place::Mem { base, offset, ty, .. } => Some(Place::Mem { base, offset, ty, shared }),
                    p => Some(p),
                };
            }
        }
        if let ExprKind::Member(whole, field) = &e.kind {
            if let ExprKind::Var(name) = &whole.kind {
                if self.lookup(name).is_none() {
                    let msg = match crate::compile::parse::near_builtin(name) {
                        Some(near) => format!("unknown name `{name}`: did you mean `{near}`?"),
                        None => format!("unknown variable `{name}`"),
                    };
                    self.error(whole.span, msg);
                    return None;
                }
            }
            let whole = self.place(whole)?;
            return self.member_place(whole, field, e.span);
        }
        self.pointer_element(e)
    }

    /// A variable, `p[i]` or `*p` through a pointer value.
    fn pointer_element(&mut self, e: &Expr) -> Option<Place> {
        match &e.kind {
            ExprKind::Var(name) => match self.lookup(name) {
                Some(v) => Some(Place::Reg(v.reg, v.ty)),
                None => {
                    self.error(e.span, format!("unknown variable `{name}`"));
                    None
                }
            },
            ExprKind::Index(p, i) => {
                let pv = self.expr(p)?;
                let Some(ty) = pv.ty.pointee_ty() else {
                    self.error(p.span, format!("`[]` needs a pointer, and this is `{}`", self.ty_name(pv.ty)));
                    return None;
                };
                let base = self.in_reg(pv, p.span)?;
                // `a[x + 6]`: the constant goes into the address offset, as SASS writes it.
                let size = size_of(ty);
                let (i, extra) = match &i.kind {
                    ExprKind::Binary(BinOp::Add, x, k) => match k.kind {
                        ExprKind::Int { value, .. } if (value as u32 as i32).checked_mul(size).is_some() => {
                            (&**x, value as u32 as i32 * size)
                        }
                        _ => (&**i, 0),
                    },
                    _ => (&**i, 0),
                };
                let iv = self.expr(i)?;
                if !super::value::is_integer(iv.ty) {
                    self.error(i.span, format!("an index must be an integer, not `{}`", iv.ty.name()));
                    return None;
                }
                // A 64-bit index addresses with its low word (addresses are 32 bits here).
                let iv = if iv.ty.wide() { self.convert(iv, Ty::INT, i.span)? } else { iv };
                match iv.repr {
                    Repr::Imm(k) if (k as i32).checked_mul(size).and_then(|o| o.checked_add(extra)).is_some() => {
                        Some(Place::Mem { base, offset: (k as i32) * size + extra, ty, shared: false })
                    }
                    _ => {
                        let ir = self.in_reg(iv, i.span)?;
                        let t = self.temp(e.span)?;
                        self.scaled_add(t, ir, false, Operand::r(base), size);
                        Some(Place::Mem { base: t, offset: extra, ty, shared: false })
                    }
                }
            }
            ExprKind::Deref(p) => {
                let pv = self.expr(p)?;
                let Some(ty) = pv.ty.pointee_ty() else {
                    self.error(p.span, format!("`*` needs a pointer, and this is `{}`", self.ty_name(pv.ty)));
                    return None;
                };
                let base = self.in_reg(pv, p.span)?;
                Some(Place::Mem { base, offset: 0, ty, shared: false })
            }
            _ => {
                self.error(e.span, "this cannot be assigned to (expected a variable, `a[i]`, `*p`, a vector's `.x` or a struct's field)");
                None
            }
        }
    }

    pub(super) fn read_place(&mut self, p: &Place, span: Span) -> Option<Value> {
        match *p {
            Place::Reg(r, ty) => Some(Value::reg(r, ty)),
            Place::Mem { .. } => {
                let t = self.temp_for(p.ty(), span)?;
                self.load_into(p, t);
                Some(Value::reg(t, p.ty()))
            }
        }
    }

    /// The loads of a place in memory into registers from `t` on (a vector's components and a
    /// struct's fields, each into its own register of the row).
    fn load_into(&mut self, p: &Place, t: u8) {
        if let Place::Mem { base, offset, ty, shared } = *p {
            for leaf in self.structs.leaves(ty) {
                self.emit(load_ins(t + leaf.reg, base, offset + leaf.byte as i32, shared, stored(leaf.ty)));
            }
        }
    }

    /// Whether `e` reads a variable held in registers `r..r + n`.
    fn reads_registers(&self, e: &Expr, r: u8, n: u8) -> bool {
        let mut reads = false;
        super::walk_expr(e, &mut |x| {
            if let ExprKind::Var(name) = &x.kind {
                if let Some(Var { reg, ty, memory: None }) = self.lookup(name) {
                    reads |= reg < r + n && r < reg + ty.registers();
                }
            }
        });
        reads
    }

    /// `e`, a vector of type `ty`, written into the registers from `r` on: a load or a
    /// `make_float4(...)` writes them directly, as nvcc's code does, instead of through
    /// temporaries and `MOV`s.
    pub(super) fn vector_into(&mut self, e: &Expr, ty: Ty, r: u8) -> Option<()> {
        let from_memory = matches!(e.kind, ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member(..));
        if from_memory {
            let p = self.place(e)?;
            if p.ty() == ty && matches!(p, Place::Mem { .. }) {
                self.load_into(&p, r);
                return Some(());
            }
            let v = self.read_place(&p, e.span)?;
            let v = self.convert(v, ty, e.span)?;
            return self.move_into(r, v, e.span);
        }
        if let (ExprKind::Construct { .. }, Ty::Struct(_)) = (&e.kind, ty) {
            if !self.reads_registers(e, r, ty.registers()) {
                return self.construct_into(e, r);
            }
        }
        if let (ExprKind::Call { name, args }, Ty::Vector(s, n)) = (&e.kind, ty) {
            // Not when an argument reads the row being written (`v = make_float2(v.y, v.x)`):
            // then the new components are made apart first.
            let made = name.strip_prefix("make_").and_then(vector_of) == Some(Ok((s, n))) && args.len() == n as usize;
            if made && !args.iter().any(|a| self.reads_registers(a, r, n)) {
                return self.make_vector_into(args, s, r);
            }
        }
        let v = self.expr_as(e, ty)?;
        self.move_into(r, v, e.span)
    }

    pub(super) fn write_place(&mut self, p: &Place, v: Value, span: Span) -> Option<Value> {
        match *p {
            Place::Reg(r, ty) => {
                let v = self.convert(v, ty, span)?;
                self.move_into(r, v, span)?;
                Some(Value::reg(r, ty))
            }
            Place::Mem { base, offset, ty, shared } => {
                let v = self.convert(v, ty, span)?;
                for leaf in self.structs.leaves(ty) {
                    let src = match v.repr {
                        Repr::Imm(0) => Operand::RZ,
                        _ => Operand::r(self.in_reg(v, span)? + leaf.reg),
                    };
                    let st = Ins::new(if shared { Opcode::Sts } else { Opcode::St }).with_mods(&mem_mods(shared, stored(leaf.ty), true));
                    self.emit(st.src(mem(base, offset + leaf.byte as i32)).src(src));
                }
                Some(v)
            }
        }
    }

    /// Stores each scalar of the row at `new` whose bits differ from the row at `old` into the
    /// struct at `p` in memory (a predicated store per field).
    pub(super) fn write_changed(&mut self, p: &Place, new: u8, old: u8, span: Span) -> Option<()> {
        let Place::Mem { base, offset, ty, shared } = *p else { return None };
        for leaf in self.structs.leaves(ty) {
            let (n, o) = (new + leaf.reg, old + leaf.reg);
            let changed = self.regs.pred(span, &mut self.diags);
            self.emit(super::value::setp(Opcode::Isetp, &["NE", "U32", "AND"], changed, Operand::r(n), Operand::r(o)));
            if leaf.ty.wide() {
                // Either word of a 64-bit field.
                let ins = Ins::new(Opcode::Isetp).with_mods(&["NE", "U32", "OR"]).dst(Operand::Pred(changed)).dst(Operand::PredTrue);
                self.emit(ins.src(Operand::r(n + 1)).src(Operand::r(o + 1)).src(Operand::Pred(changed)));
            }
            let st = Ins::new(if shared { Opcode::Sts } else { Opcode::St }).with_mods(&mem_mods(shared, stored(leaf.ty), true));
            self.emit(st.src(mem(base, offset + leaf.byte as i32)).src(Operand::r(n)).guarded(Some((changed, false))));
            self.regs.free_pred(changed);
        }
        Some(())
    }

    pub(super) fn assign(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr, span: Span) -> Option<Value> {
        self.check_writable(lhs)?;
        let place = self.place(lhs)?;
        if let (Place::Reg(r, ty @ (Ty::Vector(..) | Ty::Struct(_))), None) = (&place, op) {
            self.vector_into(rhs, *ty, *r)?;
            return Some(Value::reg(*r, *ty));
        }
        if let (Ty::Struct(_), Some(op)) = (place.ty(), op) {
            return self.struct_compound(op, place, rhs, span);
        }
        let value = match op {
            None => self.expr(rhs)?,
            Some(op) => {
                let old = self.read_place(&place, span)?;
                let r = self.expr(rhs)?;
                let ty = old.ty;
                let v = self.binary(op, old, r, span)?;
                self.convert(v, ty, span)?
            }
        };
        // Assigning a computed temporary to a variable: write the result straight into it.
        if let (Place::Reg(r, ty), Repr::Reg(t)) = (&place, value.repr) {
            if value.ty == *ty && ty.registers() == 1 && t != *r && u32::from(t) >= self.stmt_mark && self.retarget_last(t, *r) {
                return Some(Value::reg(*r, *ty));
            }
        }
        self.write_place(&place, value, span)
    }

    /// If the last instruction wrote temporary `t`, make it write `r` instead (saves a MOV).
    pub fn retarget_last(&mut self, t: u8, r: u8) -> bool {
        let cur = self.cur;
        self.func.block_mut(cur).instrs.last_mut().is_some_and(|last| last.retarget(t, r))
    }

    /// `None` (with the error) when `target` is an element of a `__constant__` variable.
    fn check_writable(&mut self, target: &Expr) -> Option<()> {
        let mut root = target;
        while let ExprKind::Index(p, _) = &root.kind {
            root = p;
        }
        let ExprKind::Var(name) = &root.kind else { return Some(()) };
        match self.lookup(name).and_then(|v| v.memory) {
            Some(k) if self.arrays[k].space == Space::Constant => {
                self.error(
                    target.span,
                    format!("`{name}` is `__constant__`: a kernel only reads it (the host writes it, with `cudaMemcpyToSymbol`)"),
                );
                None
            }
            _ => Some(()),
        }
    }

    pub(super) fn inc_dec(&mut self, inc: bool, prefix: bool, target: &Expr, span: Span) -> Option<Value> {
        self.check_writable(target)?;
        let place = self.place(target)?;
        let old = self.read_place(&place, span)?;
        let one = if old.is_float() { Value::imm(1.0f32.to_bits(), Ty::FLOAT) } else { Value::imm(1, Ty::INT) };
        let result_old = if prefix {
            None
        } else {
            // Keep the old value: the variable's register is about to change.
            let t = self.temp_for(old.ty, span)?;
            self.move_into(t, old, span)?;
            Some(Value::reg(t, old.ty))
        };
        let new = self.binary(if inc { BinOp::Add } else { BinOp::Sub }, old, one, span)?;
        let new = self.convert(new, old.ty, span)?;
        let written = if let (Place::Reg(r, _), Repr::Reg(t)) = (&place, new.repr) {
            if !new.ty.wide() && u32::from(t) >= self.stmt_mark && self.retarget_last(t, *r) {
                Value::reg(*r, old.ty)
            } else {
                self.write_place(&place, new, span)?
            }
        } else {
            self.write_place(&place, new, span)?
        };
        Some(result_old.unwrap_or(written))
    }
}
