//! Lowers checked syntax to the IR: statements to blocks and plain branches, variables to
//! registers. Reconvergence is not placed here (that is `reconverge`), except what only the
//! source knows: on the `kepler` target a loop with `break` gets a `PBK` and its exits become
//! `BRK`, and a loop with `continue` gets a `PCNT` per iteration and `CONT`.

mod arith;
mod call;
mod cond;
mod expr;
mod host;
mod host_io;
mod host_vector;
mod intrinsics;
mod place;
mod printf;
mod regs;
mod structs;
mod value;
mod wide;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::*;
use super::ins::{CodeRef, Ins, Opcode, Operand, SysReg};
use super::ir::{Func, Term};
use super::template::{Deduction, Wanted};
use super::{MemoryArray, Target};
use crate::cfg::BlockId;
use crate::diag::{Diagnostic, Span};
pub use regs::{FnSig, RegAlloc};

use value::{mov, Repr};

/// Where a jump goes: a block, or (Kepler) parking at the loop's BRK or CONT token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dest {
    Block(BlockId),
    Brk,
    Cont,
}

#[derive(Clone)]
struct LoopCtx {
    brk: Option<Dest>,
    cont: Option<Dest>,
    /// For a loop: the labels its body defines (a `goto` elsewhere leaves the loop).
    labels: Option<Vec<String>>,
}

#[derive(Clone, Copy)]
pub struct Var {
    pub ty: Ty,
    pub reg: u8,
    /// A variable in memory (`__shared__`, `__constant__`, `__device__`): its index in the
    /// kernel's `arrays` (`reg` holds its address).
    pub memory: Option<usize>,
}

/// Where a C variable lives, for showing it by name: its register while its scope runs.
#[derive(Clone, PartialEq, Debug)]
pub struct VarInfo {
    pub name: String,
    pub ty: Ty,
    /// Its type as the source spells it (`Node*`).
    pub type_name: String,
    pub reg: u8,
    pub func: String,
    /// Source lines from its declaration to the end of its scope.
    pub first_line: u32,
    pub last_line: u32,
}

/// A function lowered: its blocks, its registers, what went wrong, its variables, and the
/// template instances its calls need that do not exist yet.
pub struct Lowered {
    pub func: Func,
    pub regs: RegAlloc,
    pub diags: Vec<Diagnostic>,
    pub vars: Vec<VarInfo>,
    pub deduced: Vec<Wanted>,
    pub needed: Vec<String>,
}

/// One function being lowered.
pub struct Lower<'a> {
    pub target: Target,
    pub sigs: &'a BTreeMap<String, FnSig>,
    pub sig: &'a FnSig,
    pub arrays: &'a [MemoryArray],
    pub func: Func,
    cur: BlockId,
    scopes: Vec<Vec<(String, Var)>>,
    pub regs: RegAlloc,
    loops: Vec<LoopCtx>,
    labels: BTreeMap<String, (BlockId, Option<Span>)>,
    pub specials: [Option<u8>; Special::COUNT],
    pub diags: Vec<Diagnostic>,
    /// The source line being lowered, given to every instruction emitted.
    pub line: u32,
    next_label: u32,
    /// The first register allocated by the current statement: only those are temporaries.
    pub stmt_mark: u32,
    /// Blocks laid out after the function's body (the targets of branches to `BRK`/`CONT`).
    tail: Vec<BlockId>,
    /// Every variable declared, and for each open scope the indices of its variables in it.
    pub vars: Vec<VarInfo>,
    scope_vars: Vec<Vec<usize>>,
    /// The highest source line lowered so far: where a scope closing now ends (a `for` lowers
    /// its step, on the header's line, after its body).
    hi_line: u32,
    /// The file's function templates, for calls that leave their arguments to be deduced.
    pub templates: &'a [Deduction],
    /// The instances such calls name that are not compiled yet: the compile makes them and
    /// lowers again.
    pub deduced: Vec<Wanted>,
    /// The file's structs.
    pub structs: &'a crate::compile::structs::Structs,
    /// Member functions called (a constructor, an operator) that are not compiled yet: the
    /// compile adds them and lowers again.
    pub needed: Vec<String>,
    /// Lowering a program's host code: the runtime's calls and launches are known.
    pub host: bool,
}

impl<'a> Lower<'a> {
    pub fn new(target: Target, sigs: &'a BTreeMap<String, FnSig>, sig: &'a FnSig, arrays: &'a [MemoryArray], regs: RegAlloc) -> Lower<'a> {
        let mut func = Func { name: sig.name.clone(), ..Func::default() };
        let entry = func.new_block(sig.label.clone());
        func.order.push(entry);
        Lower {
            target,
            sigs,
            sig,
            arrays,
            func,
            cur: entry,
            scopes: alloc::vec![Vec::new()],
            regs,
            loops: Vec::new(),
            labels: BTreeMap::new(),
            specials: [None; Special::COUNT],
            diags: Vec::new(),
            line: sig.span.line,
            next_label: 0,
            stmt_mark: 0,
            tail: Vec::new(),
            vars: Vec::new(),
            scope_vars: alloc::vec![Vec::new()],
            hi_line: 0,
            templates: &[],
            deduced: Vec::new(),
            structs: &crate::compile::structs::NO_STRUCTS,
            needed: Vec::new(),
            host: false,
        }
    }

    /// Host code: the runtime's calls and launches are known.
    pub fn for_host(self, host: bool) -> Lower<'a> {
        Lower { host, ..self }
    }

    /// The file's structs, for its struct types.
    pub fn with_structs(self, structs: &'a crate::compile::structs::Structs) -> Lower<'a> {
        Lower { structs, ..self }
    }

    /// Calls of these templates without arguments deduce them (`twice(x)`).
    pub fn with_templates(self, templates: &'a [Deduction]) -> Lower<'a> {
        Lower { templates, ..self }
    }

    // ----- blocks -----

    /// A fresh block named after the construct and its source line (`.L_else_12`).
    pub fn block(&mut self, what: &str) -> BlockId {
        self.next_label += 1;
        let label = format!(".L_{}_{}_{}", crate::compile::template::label_safe(&self.sig.name), what, self.line);
        // Two constructs of one kind on one line need distinct labels.
        let label = if self.func.blocks.iter().any(|b| b.label == label) { format!("{label}_{}", self.next_label) } else { label };
        self.func.new_block(label)
    }

    /// Starts emitting into `b`, placing it next in the layout. The current block, if still
    /// open, falls through into it.
    pub fn start(&mut self, b: BlockId) {
        if self.func.block(self.cur).term == Term::Open {
            self.terminate(Term::Jump(b));
        }
        self.cur = b;
        if !self.func.order.contains(&b) {
            self.func.order.push(b);
        }
    }

    /// Appends `ins` to the current block, from the source line being lowered.
    pub fn emit(&mut self, ins: Ins) {
        self.open_if_closed();
        let line = self.line;
        self.func.block_mut(self.cur).instrs.push(ins.at_line(line));
    }

    /// After `break`, `return` and the like, code that follows is unreachable; it still gets a
    /// block so it is checked, and the emitter drops it.
    fn open_if_closed(&mut self) {
        if self.func.block(self.cur).term != Term::Open {
            let b = self.block("dead");
            self.cur = b;
            self.func.order.push(b);
        }
    }

    pub fn terminate(&mut self, term: Term) {
        self.open_if_closed();
        let line = self.line;
        let b = self.func.block_mut(self.cur);
        b.term = term;
        b.term_line = line;
    }

    pub fn jump(&mut self, d: Dest) {
        self.terminate(match d {
            Dest::Block(b) => Term::Jump(b),
            Dest::Brk => Term::Brk,
            Dest::Cont => Term::Cont,
        });
    }

    /// A block for a destination: `BRK`/`CONT` get a block of their own to branch to.
    pub fn dest_block(&mut self, d: Dest) -> BlockId {
        match d {
            Dest::Block(b) => b,
            Dest::Brk | Dest::Cont => {
                let b = self.block(if d == Dest::Brk { "brk" } else { "cont" });
                let line = self.line;
                let blk = self.func.block_mut(b);
                blk.term = if d == Dest::Brk { Term::Brk } else { Term::Cont };
                blk.term_line = line;
                self.tail.push(b);
                b
            }
        }
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    // ----- variables -----

    pub fn lookup(&self, name: &str) -> Option<Var> {
        let found = self.scopes.iter().rev().find_map(|s| s.iter().rev().find(|(n, _)| n == name).map(|(_, v)| *v));
        // In a member function a field hides the file's variables of its name, not locals.
        match found {
            Some(Var { memory: Some(_), .. }) | None => self.field_of_this(name).or(found),
            local => local,
        }
    }

    fn bind(&mut self, name: &str, ty: Ty, reg: u8, span: Span) {
        if self.scopes.last().is_some_and(|s| s.iter().any(|(n, _)| n == name)) {
            self.error(span, format!("`{name}` is already declared in this scope"));
        }
        if let Some(s) = self.scopes.last_mut() {
            s.push((name.to_string(), Var { ty, reg, memory: None }));
        }
        self.declare_info(name, ty, reg, span.line);
    }

    /// Records a variable to show by name; a struct's fields are shown each (`a.r`, `a.i`).
    fn declare_info(&mut self, name: &str, ty: Ty, reg: u8, line: u32) {
        for (shown, ty, offset) in self.structs.shown_fields(ty, name) {
            let type_name = self.ty_name(ty);
            let info =
                VarInfo { name: shown, ty, type_name, reg: reg + offset, func: self.sig.name.clone(), first_line: line, last_line: line };
            self.vars.push(info);
            let k = self.vars.len() - 1;
            if let Some(s) = self.scope_vars.last_mut() {
                s.push(k);
            }
        }
    }

    /// Ends the innermost scope's variables at the line being lowered.
    fn close_scope_vars(&mut self) {
        let end = self.line.max(self.hi_line);
        for k in self.scope_vars.pop().unwrap_or_default() {
            self.vars[k].last_line = end.max(self.vars[k].first_line);
        }
    }

    fn with_scope(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        self.scope_vars.push(Vec::new());
        let mark = self.regs.mark();
        f(self);
        self.regs.release(mark);
        self.scopes.pop();
        self.close_scope_vars();
    }

    // ----- functions -----

    /// Lowers the whole function body.
    pub fn function(mut self, f: &Function) -> Lowered {
        for (p, reg) in f.params.iter().zip(&self.sig.params) {
            self.scopes[0].push((p.name.clone(), Var { ty: p.ty, reg: reg.1, memory: None }));
            self.declare_info(&p.name, p.ty, reg.1, f.span.line);
        }
        for (k, a) in self.arrays.iter().enumerate().filter(|(_, a)| a.func.is_none()) {
            self.scopes[0].push((a.name.clone(), Var { ty: a.pointer(), reg: a.reg, memory: Some(k) }));
        }
        self.load_specials(&f.body);
        for s in &f.body {
            self.stmt(s);
        }
        self.line = f.body.last().map_or(f.span.line, |s| s.span.line);
        self.close_scope_vars();
        if self.func.block(self.cur).term == Term::Open {
            // The join after an if/else whose sides both return, or the exit of a loop that only
            // returns, is never reached: falling off it is no missing return.
            if self.sig.ret != Ty::Void && !self.sig.kernel && self.func.reaches(self.cur) {
                self.error(f.span, format!("`{}` can reach its end without returning a value", f.name));
            }
            self.terminate(if self.sig.kernel { Term::Exit } else { Term::Ret });
        }
        let tail = core::mem::take(&mut self.tail);
        self.func.order.extend(tail);
        for (name, (b, used)) in &self.labels {
            if let Some(span) = used {
                if self.func.block(*b).term == Term::Open && !self.func.order.contains(b) {
                    self.diags.push(Diagnostic::error(*span, format!("`goto {name}`: no label `{name}` in `{}`", f.name)));
                }
            }
        }
        Lowered { func: self.func, regs: self.regs, diags: self.diags, vars: self.vars, deduced: self.deduced, needed: self.needed }
    }

    /// Reads each special register the body uses once, at the entry, so every use dominates.
    fn load_specials(&mut self, body: &[Stmt]) {
        let mut used = [false; Special::COUNT];
        for s in body {
            visit_specials(s, &mut used);
        }
        for sp in Special::all() {
            if used[sp.index()] {
                if let Some(r) = self.regs.var(self.sig.span, &mut self.diags) {
                    self.emit(value::alu(Opcode::S2r, &[], r, &[Operand::Sys(SysReg::Launch(sp))]));
                    self.specials[sp.index()] = Some(r);
                }
            }
        }
    }

    // ----- statements -----

    fn stmt(&mut self, s: &Stmt) {
        self.line = s.span.line;
        self.hi_line = self.hi_line.max(s.span.line);
        let mark = self.regs.mark();
        let outer_mark = self.stmt_mark;
        self.stmt_mark = mark;
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Shared(decls) => {
                for d in decls {
                    let found = self.arrays.iter().position(|a| a.span == d.span && a.func.as_deref() == Some(self.sig.name.as_str()));
                    if let Some(k) = found {
                        if self.scopes.last().is_some_and(|s| s.iter().any(|(n, _)| *n == d.name)) {
                            self.error(d.span, format!("`{}` is already declared in this scope", d.name));
                        }
                        let var = Var { ty: self.arrays[k].pointer(), reg: self.arrays[k].reg, memory: Some(k) };
                        if let Some(s) = self.scopes.last_mut() {
                            s.push((d.name.clone(), var));
                        }
                        if d.space == Space::Host {
                            self.host_array(k, d.span);
                        }
                    }
                }
            }
            StmtKind::Decl(vars) => {
                for (ty, name, span, init) in vars {
                    self.line = span.line;
                    // The variable's register (a pair for 64 bits) sits below the initialiser's temporaries.
                    let Some(reg) = self.temp_for(*ty, *span) else { continue };
                    let temps = self.regs.mark();
                    if let (Ty::Vector(..) | Ty::Struct(_), Some(e)) = (ty, init) {
                        self.vector_into(e, *ty, reg);
                        self.regs.release(temps);
                        self.bind(name, *ty, reg, *span);
                        continue;
                    }
                    if let (Ty::Struct(_), None) = (ty, init) {
                        self.default_construct(*ty, reg, *span);
                        self.regs.release(temps);
                        self.bind(name, *ty, reg, *span);
                        continue;
                    }
                    match init.as_ref().map(|e| self.expr_as(e, *ty)) {
                        // A computed value is written straight into the variable.
                        Some(Some(v))
                            if ty.registers() == 1
                                && matches!(v.repr, Repr::Reg(t) if u32::from(t) >= temps && self.retarget_last(t, reg)) => {}
                        Some(Some(v)) => {
                            self.move_into(reg, v, *span);
                        }
                        Some(None) => {}
                        // C leaves it undefined; zero keeps runs reproducible.
                        None => {
                            for k in 0..ty.registers() {
                                self.emit(mov(reg + k, Operand::RZ));
                            }
                        }
                    }
                    self.regs.release(temps);
                    self.bind(name, *ty, reg, *span);
                }
                self.stmt_mark = outer_mark;
                return;
            }
            StmtKind::Expr(e) => {
                self.expr_effect(e);
            }
            StmtKind::Block(items) => self.with_scope(|l| items.iter().for_each(|s| l.stmt(s))),
            StmtKind::Seq(items) => {
                self.stmt_mark = outer_mark;
                items.iter().for_each(|s| self.stmt(s));
                return;
            }
            StmtKind::If { cond, then, els } => self.if_stmt(cond, then, els.as_deref()),
            StmtKind::While { cond, body } => self.loop_stmt(Some(cond), &[], body, true),
            StmtKind::DoWhile { body, cond } => self.loop_stmt(Some(cond), &[], body, false),
            StmtKind::For { init, cond, step, body } => {
                self.with_scope(|l| {
                    if let Some(i) = init {
                        l.stmt(i);
                    }
                    l.line = s.span.line;
                    l.loop_stmt(cond.as_ref(), step, body, true);
                });
            }
            StmtKind::Switch { value, body } => self.switch_stmt(value, body, s.span),
            StmtKind::Break => match self.loops.iter().rev().find_map(|l| l.brk) {
                Some(d) => self.jump(d),
                None => self.error(s.span, "`break` outside a loop or `switch`"),
            },
            StmtKind::Continue => match self.loops.iter().rev().find_map(|l| l.cont) {
                Some(d) => self.jump(d),
                None => self.error(s.span, "`continue` outside a loop"),
            },
            StmtKind::Return(value) => self.return_stmt(value.as_ref(), s.span),
            StmtKind::Goto(name) => {
                let b = self.label_block(name, Some(s.span));
                // The innermost loop whose body does not define the label is the first one left.
                let left = self.loops.iter().rev().find(|l| l.labels.as_ref().is_some_and(|ls| !ls.contains(name)));
                let escape = match left.and_then(|l| l.brk) {
                    Some(Dest::Block(exit)) => Some(exit),
                    _ => None,
                };
                self.jump(Dest::Block(b));
                let cur = self.cur;
                self.func.block_mut(cur).escape = escape;
            }
            StmtKind::Label(name, inner) => {
                let b = self.label_block(name, None);
                if self.func.order.contains(&b) {
                    self.error(s.span, format!("label `{name}` is defined twice"));
                } else {
                    self.start(b);
                }
                self.stmt(inner);
            }
        }
        self.regs.release(mark);
        self.stmt_mark = outer_mark;
    }

    fn label_block(&mut self, name: &str, used: Option<Span>) -> BlockId {
        if let Some((b, u)) = self.labels.get_mut(name) {
            if u.is_none() {
                *u = used;
            }
            return *b;
        }
        let label = format!(".L_{}_{}", crate::compile::template::label_safe(&self.sig.name), name);
        let b = self.func.new_block(label);
        self.labels.insert(name.to_string(), (b, used));
        b
    }

    fn if_stmt(&mut self, cond: &Expr, then: &Stmt, els: Option<&Stmt>) {
        let then_b = self.block("then");
        let join = self.block("endif");
        let else_b = if els.is_some() { self.block("else") } else { join };
        self.cond(cond, Dest::Block(then_b), Dest::Block(else_b));
        self.start(then_b);
        self.with_scope(|l| l.stmt(then));
        if let Some(e) = els {
            self.line = e.span.line;
            self.jump(Dest::Block(join));
            self.start(else_b);
            self.with_scope(|l| l.stmt(e));
        }
        self.start(join);
    }

    /// Loops are laid out rotated, as compilers do: a guard test before the loop, the body, the
    /// step, and the test again at the bottom branching back. Lanes that leave at the bottom
    /// are the not-taken side of a divergent branch: each leaving group waits in a DIV token.
    fn loop_stmt(&mut self, cond: Option<&Expr>, step: &[Expr], body: &Stmt, guard: bool) {
        let line = self.line;
        let body_b = self.block("loop");
        let latch = self.block("next");
        let exit = self.block("endloop");
        // A goto out of the loop would leave its BRK/CONT token behind on the stack: such loops
        // use plain branches, and reconvergence comes from the post-dominators alone.
        let kepler = self.target == Target::Kepler && !goto_leaves(body);
        let (has_break, has_continue) = (breaks_loop(body), continues_loop(body));
        let brk = if kepler && has_break {
            self.emit(Ins::new(Opcode::Pbk).to(CodeRef::Block(exit)));
            Dest::Brk
        } else {
            Dest::Block(exit)
        };
        if guard {
            if let Some(c) = cond {
                self.cond(c, Dest::Block(body_b), brk);
            }
        }
        self.start(body_b);
        let cont = if kepler && has_continue {
            self.emit(Ins::new(Opcode::Pcnt).to(CodeRef::Block(latch)));
            Dest::Cont
        } else {
            Dest::Block(latch)
        };
        let mut labels = Vec::new();
        collect_labels(body, &mut labels, &mut Vec::new());
        let labels = Some(labels.into_iter().map(String::from).collect());
        self.loops.push(LoopCtx { brk: Some(brk), cont: Some(cont), labels });
        self.with_scope(|l| l.stmt(body));
        self.loops.pop();
        self.line = line;
        if cont == Dest::Cont {
            // The lanes still running pop the CONT token, which brings the parked ones back too.
            self.open_if_closed();
            if self.func.block(self.cur).term == Term::Open {
                self.terminate(Term::Sync(latch));
            }
        }
        self.start(latch);
        if self.target == Target::Volta && cond.is_some_and(waits_on_memory) {
            // A loop that waits for another lane (a spin lock) yields each time round, as nvcc
            // emits for sm_70 and later: independent thread scheduling lets the others run.
            self.emit(Ins::new(Opcode::Yield));
        }
        for s in step {
            let mark = self.regs.mark();
            self.expr_effect(s);
            self.regs.release(mark);
        }
        match cond {
            Some(c) => self.cond(c, Dest::Block(body_b), brk),
            None => self.jump(Dest::Block(body_b)),
        }
        self.start(exit);
    }

    /// A chain of compare-and-branch, one per case, then the default; bodies fall through in order.
    fn switch_stmt(&mut self, value: &Expr, items: &[SwitchItem], span: Span) {
        let Some(v) = self.expr_as(value, Ty::INT) else { return };
        let exit = self.block("endswitch");
        let mut cases = Vec::new();
        let mut default = None;
        for it in items {
            if let SwitchItem::Case(k, sp) = it {
                self.line = sp.line;
                let b = self.block(if k.is_some() { "case" } else { "default" });
                match k {
                    Some(k) if cases.iter().any(|(c, _)| c == k) => self.error(*sp, format!("`case {k}` appears twice")),
                    Some(k) => cases.push((*k, b)),
                    None if default.is_some() => self.error(*sp, "`default` appears twice"),
                    None => default = Some(b),
                }
            }
        }
        self.line = span.line;
        for (k, b) in &cases {
            let p = self.regs.pred(span, &mut self.diags);
            self.emit(value::setp(Opcode::Isetp, &["EQ", "AND"], p, v.operand(), Operand::Int(*k as u32)));
            let next = self.block("test");
            self.terminate(Term::Branch { pred: p, neg: false, taken: *b, fall: next });
            self.regs.free_pred(p);
            self.start(next);
        }
        self.jump(Dest::Block(default.unwrap_or(exit)));
        let cont = self.loops.last().and_then(|l| l.cont);
        self.loops.push(LoopCtx { brk: Some(Dest::Block(exit)), cont, labels: None });
        self.with_scope(|l| {
            for it in items {
                match it {
                    SwitchItem::Case(k, _) => {
                        let b = match k {
                            Some(k) => l.case_block(&cases, *k),
                            None => default,
                        };
                        if let Some(b) = b {
                            l.start(b);
                        }
                    }
                    SwitchItem::Stmt(s) => l.stmt(s),
                }
            }
        });
        self.loops.pop();
        self.line = span.line;
        self.start(exit);
    }

    fn case_block(&self, cases: &[(i64, BlockId)], k: i64) -> Option<BlockId> {
        cases.iter().find(|c| c.0 == k).map(|c| c.1)
    }

    fn return_stmt(&mut self, value: Option<&Expr>, span: Span) {
        match (value, self.sig.ret) {
            (Some(e), Ty::Void) => self.error(e.span, format!("`{}` returns `void`: `return` takes no value here", self.sig.name)),
            (None, ty) if ty != Ty::Void => self.error(span, format!("`{}` must return a `{}` value", self.sig.name, ty.name())),
            (Some(e), ty) => {
                if let (Some(v), Some(r)) = (self.expr_as(e, ty), self.sig.ret_reg) {
                    self.move_into(r, v, span);
                }
            }
            (None, _) => {}
        }
        self.terminate(if self.sig.kernel { Term::Exit } else { Term::Ret });
    }
}

fn visit_specials(s: &Stmt, used: &mut [bool; Special::COUNT]) {
    walk_stmt_exprs(s, &mut |e: &Expr| {
        walk_expr(e, &mut |x| {
            if let ExprKind::Special(sp) = x.kind {
                used[sp.index()] = true;
            }
        })
    });
}

/// Calls `f` on `s` and every statement inside it.
pub fn walk_stmts(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    f(s);
    match &s.kind {
        StmtKind::Block(items) | StmtKind::Seq(items) => items.iter().for_each(|s| walk_stmts(s, f)),
        StmtKind::If { then, els, .. } => {
            walk_stmts(then, f);
            if let Some(e) = els {
                walk_stmts(e, f);
            }
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => walk_stmts(body, f),
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                walk_stmts(i, f);
            }
            walk_stmts(body, f);
        }
        StmtKind::Switch { body, .. } => body.iter().for_each(|it| {
            if let SwitchItem::Stmt(s) = it {
                walk_stmts(s, f);
            }
        }),
        StmtKind::Label(_, inner) => walk_stmts(inner, f),
        _ => {}
    }
}

/// Calls `f` on every expression directly inside `s` and its sub-statements.
pub fn walk_stmt_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Decl(vars) => vars.iter().filter_map(|v| v.3.as_ref()).for_each(&mut *f),
        StmtKind::Expr(e) => f(e),
        StmtKind::Block(items) | StmtKind::Seq(items) => items.iter().for_each(|s| walk_stmt_exprs(s, f)),
        StmtKind::If { cond, then, els } => {
            f(cond);
            walk_stmt_exprs(then, f);
            if let Some(e) = els {
                walk_stmt_exprs(e, f);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            f(cond);
            walk_stmt_exprs(body, f);
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                walk_stmt_exprs(i, f);
            }
            cond.iter().chain(step.iter()).for_each(&mut *f);
            walk_stmt_exprs(body, f);
        }
        StmtKind::Switch { value, body } => {
            f(value);
            for it in body {
                if let SwitchItem::Stmt(s) = it {
                    walk_stmt_exprs(s, f);
                }
            }
        }
        StmtKind::Return(Some(e)) => f(e),
        StmtKind::Label(_, inner) => walk_stmt_exprs(inner, f),
        _ => {}
    }
}

/// Calls `f` on `e` and every sub-expression.
pub fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Deref(a) | ExprKind::AddrOf(a) | ExprKind::Cast(_, a) | ExprKind::Member(a, _) => walk_expr(a, f),
        ExprKind::IncDec { target, .. } => walk_expr(target, f),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Logical { lhs, rhs, .. } | ExprKind::Assign { lhs, rhs, .. } => {
            walk_expr(lhs, f);
            walk_expr(rhs, f);
        }
        ExprKind::Ternary(a, b, c) => {
            walk_expr(a, f);
            walk_expr(b, f);
            walk_expr(c, f);
        }
        ExprKind::Call { args, .. } | ExprKind::Construct { args, .. } => args.iter().for_each(|a| walk_expr(a, f)),
        ExprKind::Method(m) => {
            walk_expr(&m.obj, f);
            m.args.iter().for_each(|a| walk_expr(a, f));
        }
        _ => {}
    }
}

/// True when `body` holds a `goto` to a label it does not define.
fn goto_leaves(body: &Stmt) -> bool {
    let mut defined = Vec::new();
    let mut targets = Vec::new();
    collect_labels(body, &mut defined, &mut targets);
    targets.iter().any(|t| !defined.contains(t))
}

fn collect_labels<'s>(s: &'s Stmt, defined: &mut Vec<&'s str>, targets: &mut Vec<&'s str>) {
    match &s.kind {
        StmtKind::Goto(l) => targets.push(l),
        StmtKind::Label(l, inner) => {
            defined.push(l);
            collect_labels(inner, defined, targets);
        }
        StmtKind::Block(items) | StmtKind::Seq(items) => items.iter().for_each(|x| collect_labels(x, defined, targets)),
        StmtKind::If { then, els, .. } => {
            collect_labels(then, defined, targets);
            if let Some(e) = els {
                collect_labels(e, defined, targets);
            }
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::For { body, .. } => {
            collect_labels(body, defined, targets)
        }
        StmtKind::Switch { body, .. } => {
            for it in body {
                if let SwitchItem::Stmt(x) = it {
                    collect_labels(x, defined, targets);
                }
            }
        }
        _ => {}
    }
}

/// True when `body` holds a `break` that leaves this loop (not one inside a nested loop or switch).
fn breaks_loop(body: &Stmt) -> bool {
    any_stmt(body, &|s| matches!(s.kind, StmtKind::Break), true)
}

/// True when `body` holds a `continue` for this loop (a `switch` does not capture `continue`).
fn continues_loop(body: &Stmt) -> bool {
    any_stmt(body, &|s| matches!(s.kind, StmtKind::Continue), false)
}

fn any_stmt(s: &Stmt, pred: &dyn Fn(&Stmt) -> bool, switch_captures: bool) -> bool {
    if pred(s) {
        return true;
    }
    match &s.kind {
        StmtKind::Block(items) | StmtKind::Seq(items) => items.iter().any(|x| any_stmt(x, pred, switch_captures)),
        StmtKind::If { then, els, .. } => {
            any_stmt(then, pred, switch_captures) || els.as_ref().is_some_and(|e| any_stmt(e, pred, switch_captures))
        }
        StmtKind::Label(_, inner) => any_stmt(inner, pred, switch_captures),
        StmtKind::Switch { body, .. } if !switch_captures => {
            body.iter().any(|it| matches!(it, SwitchItem::Stmt(x) if any_stmt(x, pred, switch_captures)))
        }
        // Nested loops capture both; a switch captures `break`.
        _ => false,
    }
}

/// True when `e` calls an atomic: a loop on it waits for another lane to change memory.
fn waits_on_memory(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { name, args } => name.starts_with("atomic") || args.iter().any(waits_on_memory),
        ExprKind::Method(m) => waits_on_memory(&m.obj) || m.args.iter().any(waits_on_memory),
        ExprKind::Unary(_, a) | ExprKind::Deref(a) | ExprKind::AddrOf(a) | ExprKind::Cast(_, a) | ExprKind::Member(a, _) => {
            waits_on_memory(a)
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => waits_on_memory(a) || waits_on_memory(b),
        ExprKind::Logical { lhs, rhs, .. } | ExprKind::Assign { lhs, rhs, .. } => waits_on_memory(lhs) || waits_on_memory(rhs),
        ExprKind::Ternary(a, b, c) => waits_on_memory(a) || waits_on_memory(b) || waits_on_memory(c),
        ExprKind::IncDec { target, .. } => waits_on_memory(target),
        _ => false,
    }
}
