//! Calls: the CUDA built-ins (barriers, fences, the clock, atomics, `min`/`max`/`abs`) and
//! calls of the file's `__device__` functions, whose arguments and result live in the
//! callee's own registers (there is no call stack).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::value::{alu, common, mov, Value};
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{CodeRef, Ins, Opcode, Operand, Reg, SysReg};
use crate::compile::Target;
use crate::diag::Span;

impl Lower<'_> {
    pub(super) fn call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let arity = |l: &mut Self, n: usize| -> bool {
            if args.len() != n {
                l.error(span, format!("`{name}` takes {n} argument(s), found {}", args.len()));
                return false;
            }
            true
        };
        match name {
            "__syncthreads" => {
                if !arity(self, 0) {
                    return None;
                }
                self.emit(Ins::new(Opcode::Bar).with_mods(&["SYNC"]).src(Operand::Int(0)));
                Some(Value::imm(0, Ty::Void))
            }
            "__syncwarp" => {
                if args.len() > 1 {
                    arity(self, 1);
                    return None;
                }
                let mask = match args.first() {
                    Some(a) => self.expr_as(a, Ty::UNSIGNED)?,
                    None => Value::imm(u32::MAX, Ty::UNSIGNED),
                };
                if self.target == Target::Volta {
                    self.emit(Ins::new(Opcode::Warpsync).src(mask.operand()));
                } else {
                    // A token stack keeps the warp in lockstep: nothing to wait for.
                    self.emit(Ins::new(Opcode::Nop));
                }
                Some(Value::imm(0, Ty::Void))
            }
            "__threadfence" | "__threadfence_block" => {
                if !arity(self, 0) {
                    return None;
                }
                // One warp's accesses are already ordered here.
                self.emit(Ins::new(Opcode::Nop));
                Some(Value::imm(0, Ty::Void))
            }
            "clock" => {
                if !arity(self, 0) {
                    return None;
                }
                let t = self.temp(span)?;
                self.emit(alu(Opcode::S2r, &[], t, &[Operand::Sys(SysReg::ClockLo)]));
                Some(Value::reg(t, Ty::INT))
            }
            "atomicAdd" | "atomicExch" | "atomicCAS" => self.atomic(name, args, span),
            "min" | "max" => {
                if !arity(self, 2) {
                    return None;
                }
                let x = self.expr(&args[0])?;
                let y = self.expr(&args[1])?;
                let ty = common(x.ty, y.ty);
                let x = self.convert(x, ty, span)?;
                let y = self.convert(y, ty, span)?;
                let p = self.regs.pred(span, &mut self.diags);
                self.compare(if name == "min" { BinOp::Lt } else { BinOp::Gt }, x, y, p, span);
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Sel, &[], t, &[x.operand(), y.operand(), Operand::Pred(p)]));
                self.regs.free_pred(p);
                Some(Value::reg(t, ty))
            }
            "abs" => {
                if !arity(self, 1) {
                    return None;
                }
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

    fn atomic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let want = if name == "atomicCAS" { 3 } else { 2 };
        if args.len() != want {
            self.error(span, format!("`{name}` takes {want} arguments, found {}", args.len()));
            return None;
        }
        let p = self.expr(&args[0])?;
        let Ty::Ptr(elem) = p.ty else {
            self.error(args[0].span, format!("the first argument of `{name}` is a pointer (`&a[i]`), not `{}`", p.ty.name()));
            return None;
        };
        if elem == Scalar::Float && name == "atomicAdd" {
            self.error(span, "`atomicAdd` on floats is not supported: use an `int` or `unsigned` buffer");
            return None;
        }
        let base = self.in_reg(p, args[0].span)?;
        let ty = Ty::Scalar(elem);
        let mut ops = Vec::new();
        for a in &args[1..] {
            let v = self.expr_as(a, ty)?;
            ops.push(Operand::r(self.in_reg(v, a.span)?));
        }
        let t = self.temp(span)?;
        let m = match name {
            "atomicAdd" => "ADD",
            "atomicExch" => "EXCH",
            _ => "CAS",
        };
        let addr = Operand::Mem { base: Reg::R(base), offset: 0 };
        self.emit(ops.into_iter().fold(alu(Opcode::Atom, &["E", m], t, &[addr]), Ins::src));
        Some(Value::reg(t, ty))
    }

    fn user_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let Some(sig) = self.sigs.get(name).cloned() else {
            self.error(span, format!("unknown function `{name}` (not a `__device__` function of this file or a supported built-in)"));
            return None;
        };
        if sig.kernel {
            self.error(span, format!("`{name}` is a `__global__` kernel and cannot be called from device code"));
            return None;
        }
        if args.len() != sig.params.len() {
            self.error(span, format!("`{name}` takes {} argument(s), found {}", sig.params.len(), args.len()));
            return None;
        }
        // Evaluate every argument first: an argument may itself call a function.
        let mut vals = Vec::new();
        for (a, (ty, _)) in args.iter().zip(&sig.params) {
            vals.push(self.expr_as(a, *ty)?);
        }
        for (v, (_, reg)) in vals.iter().zip(&sig.params) {
            self.emit(mov(*reg, v.operand()));
        }
        self.emit(Ins::new(Opcode::Cal).to(CodeRef::Func(String::from(sig.label.as_str()))));
        match sig.ret_reg {
            Some(r) => {
                let t = self.temp(span)?;
                self.emit(mov(t, Operand::r(r)));
                Some(Value::reg(t, sig.ret))
            }
            None => Some(Value::imm(0, Ty::Void)),
        }
    }
}
