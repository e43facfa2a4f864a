//! Calls: the CUDA built-ins (barriers, fences, the clock, atomics, `abs`, `printf` in
//! `printf`; the rest are in
//! `intrinsics`) and
//! calls of the file's `__device__` functions, whose arguments and result live in the
//! callee's own registers (there is no call stack).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::value::{alu, Value};
use super::{Lower, Var};
use crate::compile::ast::*;
use crate::compile::ins::{CodeRef, Ins, Opcode, Operand, Reg, SysReg};
use crate::compile::template::{instance_name, Deduction, TemplateArg, Wanted};
use crate::diag::Span;

/// CUDA's atomic functions: the `ATOM` operation each is, and its number of arguments.
const ATOMICS: &[(&str, &str, usize)] = &[
    ("atomicAdd", "ADD", 2),
    ("atomicSub", "ADD", 2),
    ("atomicExch", "EXCH", 2),
    ("atomicMin", "MIN", 2),
    ("atomicMax", "MAX", 2),
    ("atomicAnd", "AND", 2),
    ("atomicOr", "OR", 2),
    ("atomicXor", "XOR", 2),
    ("atomicInc", "INC", 2),
    ("atomicDec", "DEC", 2),
    ("atomicCAS", "CAS", 3),
];

impl Lower<'_> {
    pub(super) fn call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        if self.host {
            if let Some(v) = self.host_call(name, args, span) {
                return v;
            }
        } else if let Some(why) = super::host::host_only(name) {
            self.error(span, why);
            return None;
        }
        if let Some(v) = self.intrinsic(name, args, span) {
            return v;
        }
        match name {
            "__syncthreads" => {
                self.arity(name, args, 0, span)?;
                self.emit(Ins::new(Opcode::Bar).with_mods(&["SYNC"]).src(Operand::Int(0)));
                Some(Value::imm(0, Ty::Void))
            }
            "__threadfence" | "__threadfence_block" => {
                self.arity(name, args, 0, span)?;
                // One warp's accesses are already ordered here.
                self.emit(Ins::new(Opcode::Nop));
                Some(Value::imm(0, Ty::Void))
            }
            "clock" => {
                self.arity(name, args, 0, span)?;
                let t = self.temp(span)?;
                self.emit(alu(Opcode::S2r, &[], t, &[Operand::Sys(SysReg::ClockLo)]));
                Some(Value::reg(t, Ty::INT))
            }
            "printf" => self.printf(args, span),
            "__trap" => {
                self.arity(name, args, 0, span)?;
                self.emit(Ins::new(Opcode::Bpt).with_mods(&["TRAP"]));
                Some(Value::imm(0, Ty::Void))
            }
            // A load through the read-only data cache: here, a load.
            "__ldg" => {
                self.arity(name, args, 1, span)?;
                self.expr(&Expr { kind: ExprKind::Deref(alloc::boxed::Box::new(args[0].clone())), span })
            }
            "__mul24" | "__umul24" => self.mul24(name, args, span),
            "sizeof" => self.size_of(&args[0], span),
            _ if name.starts_with("atomic") && ATOMICS.iter().any(|a| a.0 == name) => self.atomic(name, args, span),
            "abs" => {
                self.arity(name, args, 1, span)?;
                let x = self.expr_as(&args[0], Ty::INT)?;
                let p = self.regs.pred(span, &mut self.diags);
                self.compare(BinOp::Lt, x, Value::imm(0, Ty::INT), p, span);
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Iadd, &[], t, &[Operand::RZ, x.neg_operand()]));
                self.emit(alu(Opcode::Sel, &[], t, &[Operand::r(t), x.operand(), Operand::Pred(p)]));
                self.regs.free_pred(p);
                Some(Value::reg(t, Ty::INT))
            }
            _ => self.user_call(name, args, span),
        }
    }

    /// `atomicOp(&x, v[, w])`: `ATOM` (generic or global) or `ATOMS` (a `__shared__` variable),
    /// the old value returned. The lanes' updates happen one after another, in lane order.
    fn atomic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let &(_, op, want) = ATOMICS.iter().find(|a| a.0 == name)?;
        if args.len() != want {
            self.error(span, format!("`{name}` takes {want} arguments, found {}", args.len()));
            return None;
        }
        let shared = self.is_shared_address(&args[0]);
        let p = self.expr(&args[0])?;
        let Ty::Ptr(elem) = p.ty else {
            self.error(args[0].span, format!("the first argument of `{name}` is a pointer (`&a[i]`), not `{}`", p.ty.name()));
            return None;
        };
        if elem.stored_narrow().is_some() {
            self.error(
                args[0].span,
                format!("`{name}` on a `{}`: atomics work on 32- and 64-bit values (CUDA has none for bytes; count in an `int` or `unsigned` array)", Ty::Scalar(elem).name()),
            );
            return None;
        }
        let float = elem == Scalar::Float;
        if float && !matches!(name, "atomicAdd" | "atomicExch") {
            self.error(span, format!("`{name}` on floats is not an atomic CUDA has: use an `int` or `unsigned` variable"));
            return None;
        }
        if elem == Scalar::Double && name != "atomicAdd" {
            let hint = "CUDA has only `atomicAdd` on doubles: others go through `atomicCAS` on the bits (`(unsigned long long*)p`)";
            self.error(span, format!("`{name}` on a `double`: {hint}"));
            return None;
        }
        if matches!(name, "atomicInc" | "atomicDec") && elem != Scalar::Unsigned {
            self.error(args[0].span, format!("`{name}` works on `unsigned` values (CUDA declares it so)"));
            return None;
        }
        let base = self.in_reg(p, args[0].span)?;
        let ty = Ty::Scalar(elem);
        let mut ops = Vec::new();
        for (k, a) in args[1..].iter().enumerate() {
            let v = self.expr_as(a, ty)?;
            // `atomicSub(p, v)` adds `-v`.
            let v = if name == "atomicSub" && k == 0 { self.binary(BinOp::Sub, Value::imm(0, ty), v, a.span)? } else { v };
            ops.push(Operand::r(self.in_reg(v, a.span)?));
        }
        // A 64-bit atomic (`unsigned long long`, `long long`, `double`) works on register pairs.
        let t = if elem.wide() { self.temp_pair(span)? } else { self.temp(span)? };
        let mut mods: Vec<&'static str> = if shared { Vec::new() } else { alloc::vec!["E"] };
        mods.push(op);
        match (elem, op) {
            (Scalar::Float, "ADD") => mods.push("F32"),
            (Scalar::Double, _) => mods.push("F64"),
            (Scalar::Unsigned, "MIN" | "MAX") => mods.push("U32"),
            (Scalar::Long, "MIN" | "MAX") => mods.push("S64"),
            (Scalar::ULong, "MIN" | "MAX") => mods.push("U64"),
            (Scalar::Long | Scalar::ULong, _) => mods.push("64"),
            _ => {}
        }
        let addr = Operand::Mem { base: Reg::R(base), offset: 0 };
        let opcode = if shared { Opcode::Atoms } else { Opcode::Atom };
        self.emit(ops.into_iter().fold(alu(opcode, &mods, t, &[addr]), Ins::src));
        Some(Value::reg(t, ty))
    }

    /// `__mul24(a, b)`: the low 32 bits of the product of the low 24 bits of each, sign-extended
    /// (`__umul24`: zero-extended): `(a << 8 >> 8) * (b << 8 >> 8)`, or each `& 0xffffff`.
    fn mul24(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        use alloc::boxed::Box;
        self.arity(name, args, 2, span)?;
        let signed = name == "__mul24";
        let ty = if signed { Ty::INT } else { Ty::UNSIGNED };
        let e = |kind| Expr { kind, span };
        let int = |v: u64| e(ExprKind::Int { value: v, unsigned: !signed });
        let low24 = |a: &Expr| {
            let a = e(ExprKind::Cast(ty, Box::new(a.clone())));
            if signed {
                let up = e(ExprKind::Binary(BinOp::Shl, Box::new(a), Box::new(int(8))));
                e(ExprKind::Binary(BinOp::Shr, Box::new(up), Box::new(int(8))))
            } else {
                e(ExprKind::Binary(BinOp::BitAnd, Box::new(a), Box::new(int(0xff_ffff))))
            }
        };
        self.expr(&e(ExprKind::Binary(BinOp::Mul, Box::new(low24(&args[0])), Box::new(low24(&args[1])))))
    }

    /// `sizeof x`, from `x`'s declared type: a variable (a whole array in memory), or an element
    /// of an array or pointer (`a[0]`, `*p`). A `size_t`.
    fn size_of(&mut self, x: &Expr, span: Span) -> Option<Value> {
        let (name, element) = match &x.kind {
            ExprKind::Var(n) => (n, false),
            ExprKind::Index(p, _) | ExprKind::Deref(p) => match &p.kind {
                ExprKind::Var(n) => (n, true),
                _ => (&String::new(), true),
            },
            _ => (&String::new(), false),
        };
        let bytes = match self.lookup(name) {
            Some(Var { ty, memory, .. }) if ty.is_pointer() => {
                let whole = memory.filter(|_| !element).map(|k| self.arrays[k].len(0) as u64);
                let each = ty.pointee_ty().and_then(Ty::size_of);
                match whole {
                    Some(n) => each.map(|b| b * n.max(1)),
                    None if element => each,
                    None => ty.size_of(),
                }
            }
            Some(v) if !element => v.ty.size_of(),
            _ => None,
        };
        let Some(bytes) = bytes else {
            self.error(x.span, "`sizeof` here takes a type (`sizeof(float)`), a variable or an element of one (`sizeof(a[0])`)");
            return None;
        };
        let long = Value::imm(bytes as u32, Ty::UNSIGNED);
        self.convert(long, Ty::ULONG, span)
    }

    /// Whether `&x` or `&a[i]` names a `__shared__` variable (its atomics are `ATOMS`).
    fn is_shared_address(&mut self, e: &Expr) -> bool {
        let ExprKind::AddrOf(inner) = &e.kind else { return false };
        let mut root = &**inner;
        while let ExprKind::Index(p, _) = &root.kind {
            root = p;
        }
        let memory = match &root.kind {
            ExprKind::Var(n) => self.lookup(n).and_then(|v| v.memory),
            _ => None,
        };
        memory.is_some_and(|k| self.arrays[k].space == Space::Shared)
    }

    fn user_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        if let Some(t) = self.templates.iter().find(|t| t.name == name) {
            return self.deduced_call(&t.clone(), args, span);
        }
        let Some(sig) = self.sigs.get(name).cloned() else {
            // `ceil(x)` in a course's kernel: C's double function, whose float overload is built in.
            if let Some(call) = self.float_overload(name, args, span) {
                return call;
            }
            // In a member function, another member of the object (`magnitude2()`).
            if let Some(call) = self.sibling_call(name, args, span) {
                return call;
            }
            if let Some(ty) = self.structs.by_name(name) {
                let kind = self.structs.def(ty).map_or("struct", |d| d.kind);
                self.error(span, format!("`{name}` is a {kind}: it has no constructor here"));
                return None;
            }
            self.error(span, format!("unknown function `{name}` (not a `__device__` function of this file or a supported built-in)"));
            return None;
        };
        if sig.kernel {
            self.error(span, format!("`{name}` is a `__global__` kernel and cannot be called from device code"));
            return None;
        }
        self.call_args(&sig, None, args, span)
    }

    /// A call of `sig` with `args`, after the object a member function is called on (`this`:
    /// its value, and its place when it has one to get the fields back into).
    pub(super) fn call_args(
        &mut self,
        sig: &super::FnSig,
        this: Option<(Value, Option<super::place::Place>)>,
        args: &[Expr],
        span: Span,
    ) -> Option<Value> {
        let name = sig.name.as_str();
        let skip = usize::from(this.is_some());
        let params = &sig.params[skip.min(sig.params.len())..];
        let (by_ref, defaults) = (&sig.by_ref[skip.min(sig.by_ref.len())..], &sig.defaults[skip.min(sig.defaults.len())..]);
        // Arguments left out take their parameters' defaults (`g(x)` for `g(float x, float s = 3.0f)`).
        let filled: Vec<Expr>;
        let args = match defaults.get(args.len()..) {
            Some(rest) if !rest.is_empty() && rest.iter().all(Option::is_some) => {
                filled = args.iter().cloned().chain(rest.iter().flatten().cloned()).collect();
                &filled[..]
            }
            _ => args,
        };
        if args.len() != params.len() {
            let least = params.len() - defaults.iter().rev().take_while(|d| d.is_some()).count();
            let takes = if least < params.len() { format!("{least} to {}", params.len()) } else { alloc::format!("{}", params.len()) };
            self.error(span, format!("`{name}` takes {takes} argument(s), found {}", args.len()));
            return None;
        }
        // Evaluate every argument first: an argument may itself call a function. A reference's
        // is the variable's place, read once and written back after the call.
        let mut vals = Vec::new();
        let mut back = Vec::new();
        if let Some((v, place)) = this {
            vals.push(v);
            if let (Some(p), true) = (place, sig.by_ref.first() == Some(&true)) {
                back.push((0, p));
            }
        }
        for (k, (a, (ty, _))) in args.iter().zip(params).enumerate() {
            match by_ref[k].then(|| self.ref_place(a, *ty)).flatten() {
                Some(place) => {
                    let v = self.read_place(&place, a.span)?;
                    vals.push(self.convert(v, *ty, a.span)?);
                    back.push((k + skip, place));
                }
                None => vals.push(self.expr_as(a, *ty)?),
            }
        }
        self.call_sig(sig, vals, back, span)
    }

    /// The variable or element a reference argument names, which gets the value back; `None`
    /// for a value, a `__constant__` or a variable of another type than `ty` (only a `const`
    /// reference, which C++ binds to a converted copy, takes those: nvcc refuses the others).
    fn ref_place(&mut self, arg: &Expr, ty: Ty) -> Option<super::place::Place> {
        let mut root = arg;
        while let ExprKind::Index(p, _) | ExprKind::Member(p, _) = &root.kind {
            root = p;
        }
        let named = match &root.kind {
            ExprKind::Var(name) => {
                !self.lookup(name).and_then(|v| v.memory).is_some_and(|k| self.arrays[k].space == super::Space::Constant)
            }
            ExprKind::Deref(_) => true,
            _ => false,
        };
        if named {
            self.place(arg).filter(|p| p.ty() == ty)
        } else {
            None
        }
    }

    /// `twice(x)` of `template <typename T> T twice(T v)`: the instance its arguments' types
    /// name (`twice<float>`), the other parameters at their defaults. An instance not compiled
    /// yet is asked for (`deduced`) and the call reads 0 until the compile lowers again.
    fn deduced_call(&mut self, t: &Deduction, args: &[Expr], span: Span) -> Option<Value> {
        let name = &t.name;
        if args.len() != t.from_args.len() {
            self.error(span, format!("`{name}` takes {} argument(s), found {}", t.from_args.len(), args.len()));
            return None;
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.expr(a)?);
        }
        let mut got: Vec<Option<TemplateArg>> = alloc::vec![None; t.params.len()];
        for (v, from) in vals.iter().zip(&t.from_args) {
            let Some((k, pointer)) = *from else { continue };
            let ty = match (v.ty.pointee_ty(), pointer) {
                (Some(elem), true) => elem,
                (_, false) => v.ty,
                (None, true) => {
                    self.error(span, format!("`{name}` takes a pointer here, not `{}`", v.ty.name()));
                    return None;
                }
            };
            match got[k] {
                Some(TemplateArg::Type(seen)) if seen != ty => {
                    let p = &t.params[k].0;
                    self.error(
                        span,
                        format!(
                            "`{name}`'s `{p}` is `{}` by one argument and `{}` by another: write `{name}<...>(...)`",
                            seen.name(),
                            ty.name()
                        ),
                    );
                    return None;
                }
                _ => got[k] = Some(TemplateArg::Type(ty)),
            }
        }
        let mut full = Vec::new();
        for ((p, default), g) in t.params.iter().zip(got) {
            match g.or(*default) {
                Some(a) => full.push(a),
                None => {
                    self.error(
                        span,
                        format!("`{name}`'s template argument `{p}` does not follow from the call's arguments: write `{name}<...>(...)`"),
                    );
                    return None;
                }
            }
        }
        let instance = instance_name(name, &full, self.structs);
        let Some(sig) = self.sigs.get(&instance).cloned() else {
            self.deduced.push(Wanted { name: name.clone(), args: full, span });
            return Some(Value::imm(0, Ty::INT));
        };
        let mut converted = Vec::new();
        for (v, (ty, _)) in vals.into_iter().zip(&sig.params) {
            converted.push(self.convert(v, *ty, span)?);
        }
        let mut back = Vec::new();
        for (k, a) in args.iter().enumerate().filter(|(k, _)| sig.by_ref[*k]) {
            if let Some(place) = self.ref_place(a, sig.params[k].0) {
                back.push((k, place));
            }
        }
        self.call_sig(&sig, converted, back, span)
    }

    /// The call itself: the arguments into the callee's registers, `CAL`, each reference's
    /// value back into its place (`back`: the parameter and the place), and the result.
    pub(super) fn call_sig(
        &mut self,
        sig: &super::FnSig,
        vals: Vec<Value>,
        back: Vec<(usize, super::place::Place)>,
        span: Span,
    ) -> Option<Value> {
        for (v, (_, reg)) in vals.iter().zip(&sig.params) {
            self.move_into(*reg, *v, span)?;
        }
        self.emit(Ins::new(Opcode::Cal).to(CodeRef::Func(String::from(sig.label.as_str()))));
        for (k, place) in &back {
            let Some(&(ty, reg)) = sig.params.get(*k) else { continue };
            match (place, vals.get(*k).map(|v| v.repr)) {
                // An object in memory gets back only the fields each lane's call changed, as if
                // the member function had written them there (other lanes may change the others).
                (super::place::Place::Mem { .. }, Some(super::value::Repr::Reg(old))) if matches!(ty, Ty::Struct(_)) => {
                    self.write_changed(place, reg, old, span)?;
                }
                _ => {
                    self.write_place(place, Value::reg(reg, ty), span)?;
                }
            }
        }
        match sig.ret_reg {
            Some(r) => {
                let t = self.temp_for(sig.ret, span)?;
                self.move_into(t, Value::reg(r, sig.ret), span)?;
                Some(Value::reg(t, sig.ret))
            }
            None => Some(Value::imm(0, Ty::Void)),
        }
    }
}
