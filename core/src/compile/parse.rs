//! Recursive-descent parser for the CUDA-C subset. It never fails: a statement that does not
//! parse becomes a located diagnostic, and parsing resumes at the next `;` or `}`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::*;
use super::lex::{Tok, Token};
use crate::diag::{Diagnostic, Span};

/// Words that belong to C or CUDA but not to this subset, with what to say about them.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("double", "`double` is not supported: use `float`"),
    ("long", "`long` is not supported: integers are 32-bit (`int`, `unsigned`)"),
    ("short", "`short` is not supported: integers are 32-bit (`int`, `unsigned`)"),
    ("char", "`char` is not supported: integers are 32-bit (`int`, `unsigned`)"),
    ("struct", "structs are not supported"),
    ("union", "unions are not supported"),
    ("enum", "enums are not supported: use `int` constants"),
    ("class", "classes are not supported"),
    ("template", "templates are not supported"),
    ("typedef", "`typedef` is not supported"),
    ("__shared__", "`__shared__` memory is not supported: pass a buffer as a pointer parameter"),
    ("__constant__", "`__constant__` memory is not supported: pass a buffer as a pointer parameter"),
    ("sizeof", "`sizeof` is not supported"),
    ("new", "`new` is not supported"),
    ("delete", "`delete` is not supported"),
    ("asm", "inline assembly is not supported: write an assembly kernel instead"),
];

/// The words that start a type, and the type each names.
const TYPE_WORDS: &[(&str, Ty)] =
    &[("int", Ty::INT), ("unsigned", Ty::UNSIGNED), ("signed", Ty::INT), ("float", Ty::FLOAT), ("bool", Ty::BOOL), ("void", Ty::Void)];

fn is_type_word(w: &str) -> bool {
    TYPE_WORDS.iter().any(|(k, _)| *k == w)
}

/// Qualifiers that change nothing here.
const IGNORED: &[&str] =
    &["const", "__restrict__", "restrict", "volatile", "static", "inline", "__noinline__", "__forceinline__", "extern"];

pub struct Parser<'t> {
    toks: &'t [Token],
    pos: usize,
    /// How deeply statements and expressions nest right now: bounded, so no input can
    /// exhaust the stack.
    depth: u32,
    pub diags: Vec<Diagnostic>,
}

/// Deeper nesting than this is refused (real kernels stay far below it).
const MAX_DEPTH: u32 = 64;

type PResult<T> = Result<T, Diagnostic>;

impl<'t> Parser<'t> {
    pub fn new(toks: &'t [Token]) -> Parser<'t> {
        Parser { toks, pos: 0, depth: 0, diags: Vec::new() }
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.toks[self.pos.min(self.toks.len() - 1)].span
    }
    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)].span
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    fn eat(&mut self, p: &str) -> bool {
        let yes = self.is(p);
        if yes {
            self.bump();
        }
        yes
    }
    fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.is_word(w);
        if yes {
            self.bump();
        }
        yes
    }
    fn expect(&mut self, p: &str, what: &str) -> PResult<Span> {
        if self.is(p) {
            return Ok(self.bump().span);
        }
        Err(Diagnostic::error(self.span(), format!("expected `{p}` {what}, found {}", describe(self.peek()))))
    }
    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                let span = self.bump().span;
                Ok((s, span))
            }
            t => Err(Diagnostic::error(self.span(), format!("expected {what}, found {}", describe(&t)))),
        }
    }
    fn unsupported_here(&self) -> Option<Diagnostic> {
        let Tok::Ident(w) = self.peek() else { return None };
        UNSUPPORTED.iter().find(|(k, _)| k == w).map(|(_, msg)| Diagnostic::error(self.span(), *msg))
    }

    /// Skips to just after the next `;` or to the next `}` at this nesting level.
    fn recover(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct(";") if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ----- types -----

    fn skip_ignored(&mut self) {
        while let Tok::Ident(w) = self.peek() {
            if IGNORED.contains(&w.as_str()) {
                self.bump();
            } else {
                return;
            }
        }
    }

    fn at_type(&self) -> bool {
        let mut k = 0;
        while let Tok::Ident(w) = self.peek_at(k) {
            if IGNORED.contains(&w.as_str()) {
                k += 1;
                continue;
            }
            return is_type_word(w);
        }
        false
    }

    /// A type: qualifiers, a base type and `*`s.
    fn ty(&mut self) -> PResult<Ty> {
        self.skip_ignored();
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        let start = self.span();
        let base = match self.peek() {
            Tok::Ident(w) => match TYPE_WORDS.iter().find(|(k, _)| k == w) {
                Some(&(k, ty)) => {
                    self.bump();
                    // `unsigned int`, `signed int`.
                    if k == "unsigned" || k == "signed" {
                        self.eat_word("int");
                    }
                    ty
                }
                None => return Err(Diagnostic::error(start, format!("expected a type (int, unsigned, float, bool), found `{w}`"))),
            },
            t => return Err(Diagnostic::error(start, format!("expected a type (int, unsigned, float, bool), found {}", describe(t)))),
        };
        self.skip_ignored();
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        let mut ty = base;
        let mut stars = 0;
        while self.eat("*") {
            stars += 1;
            self.skip_ignored();
        }
        if stars > 0 {
            ty = match base {
                Ty::Scalar(s) if stars == 1 => Ty::Ptr(s),
                Ty::Void => return Err(Diagnostic::error(start, "`void*` is not supported: give the pointer an element type")),
                _ => return Err(Diagnostic::error(start, "pointers to pointers are not supported")),
            };
        }
        Ok(ty)
    }

    // ----- top level -----

    pub fn program(&mut self) -> Vec<Function> {
        let mut funcs = Vec::new();
        while *self.peek() != Tok::Eof {
            match self.function() {
                Ok(f) => funcs.push(f),
                Err(d) => {
                    self.diags.push(d);
                    self.recover_top();
                }
            }
        }
        funcs
    }

    /// After a broken top-level item, skip to the next function.
    fn recover_top(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    depth -= 1;
                    if depth <= 0 {
                        self.bump();
                        return;
                    }
                }
                Tok::Punct(";") if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn function(&mut self) -> PResult<Function> {
        let start = self.span();
        let mut kernel = false;
        let mut device = false;
        loop {
            if self.eat_word("__global__") {
                kernel = true;
            } else if self.eat_word("__device__") {
                device = true;
            } else if self.eat_word("__host__") {
            } else if matches!(self.peek(), Tok::Ident(w) if IGNORED.contains(&w.as_str())) {
                self.bump();
            } else {
                break;
            }
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        if !kernel && !device {
            return Err(Diagnostic::error(
                self.span(),
                format!("expected a `__global__` kernel or a `__device__` function, found {}", describe(self.peek())),
            ));
        }
        let ret = self.ty()?;
        let (name, _) = self.ident("a function name")?;
        if kernel && ret != Ty::Void {
            return Err(Diagnostic::error(start, format!("a `__global__` kernel returns `void`, not `{}`", ret.name())));
        }
        self.expect("(", "after the function name")?;
        let mut params = Vec::new();
        let empty = self.is(")") || (self.is_word("void") && matches!(self.peek_at(1), Tok::Punct(")")));
        if !empty {
            loop {
                let ty = self.ty()?;
                if ty == Ty::Void {
                    return Err(Diagnostic::error(self.prev_span(), "a parameter cannot be `void`"));
                }
                let (pname, span) = self.ident("a parameter name")?;
                if self.is("[") {
                    return Err(Diagnostic::error(self.span(), "array parameters are not supported: use a pointer (`int* a`)"));
                }
                params.push(Param { ty, name: pname, span });
                if !self.eat(",") {
                    break;
                }
            }
        } else {
            self.eat_word("void");
        }
        self.expect(")", "after the parameters")?;
        if self.eat(";") {
            return Err(Diagnostic::error(
                start,
                "function declarations without a body are not supported: define the function before its use",
            ));
        }
        self.expect("{", "to open the function body")?;
        let body = self.block_items();
        self.expect("}", "to close the function body")?;
        Ok(Function { name, kernel, ret, params, body, span: start })
    }

    /// Statements up to (not including) the closing `}`.
    fn block_items(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        while !self.is("}") && *self.peek() != Tok::Eof {
            let before = self.pos;
            match self.statement() {
                Ok(s) => out.push(s),
                Err(d) => {
                    self.diags.push(d);
                    self.recover();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        out
    }

    // ----- statements -----

    fn statement(&mut self) -> PResult<Stmt> {
        self.nested(Self::statement_inner)
    }

    /// Runs `f` one nesting level deeper, or refuses when the input nests too deeply.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Diagnostic::error(self.span(), format!("nested more than {MAX_DEPTH} levels deep")));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let span = self.span();
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        let kind = match self.peek().clone() {
            Tok::Punct("{") => {
                self.bump();
                let items = self.block_items();
                self.expect("}", "to close the block")?;
                StmtKind::Block(items)
            }
            Tok::Punct(";") => {
                self.bump();
                StmtKind::Empty
            }
            Tok::Ident(w) => match w.as_str() {
                "if" => {
                    self.bump();
                    self.expect("(", "after `if`")?;
                    let cond = self.expr()?;
                    self.expect(")", "after the condition")?;
                    let then = Box::new(self.statement()?);
                    let els = if self.eat_word("else") { Some(Box::new(self.statement()?)) } else { None };
                    StmtKind::If { cond, then, els }
                }
                "while" => {
                    self.bump();
                    self.expect("(", "after `while`")?;
                    let cond = self.expr()?;
                    self.expect(")", "after the condition")?;
                    StmtKind::While { cond, body: Box::new(self.statement()?) }
                }
                "do" => {
                    self.bump();
                    let body = Box::new(self.statement()?);
                    if !self.eat_word("while") {
                        return Err(Diagnostic::error(self.span(), "expected `while` after the body of `do`"));
                    }
                    self.expect("(", "after `while`")?;
                    let cond = self.expr()?;
                    self.expect(")", "after the condition")?;
                    self.expect(";", "after `do ... while (...)`")?;
                    StmtKind::DoWhile { body, cond }
                }
                "for" => {
                    self.bump();
                    self.expect("(", "after `for`")?;
                    let init = if self.eat(";") {
                        None
                    } else if self.at_type() {
                        Some(Box::new(self.declaration()?))
                    } else {
                        let s = self.span();
                        let e = self.expr()?;
                        self.expect(";", "after the loop's initialiser")?;
                        Some(Box::new(Stmt { kind: StmtKind::Expr(e), span: s }))
                    };
                    let cond = if self.is(";") { None } else { Some(self.expr()?) };
                    self.expect(";", "after the loop condition")?;
                    let step = if self.is(")") { None } else { Some(self.expr()?) };
                    self.expect(")", "to close `for (...)`")?;
                    StmtKind::For { init, cond, step, body: Box::new(self.statement()?) }
                }
                "switch" => {
                    self.bump();
                    self.expect("(", "after `switch`")?;
                    let value = self.expr()?;
                    self.expect(")", "after the switch value")?;
                    self.expect("{", "to open the switch body")?;
                    let body = self.switch_body()?;
                    self.expect("}", "to close the switch body")?;
                    StmtKind::Switch { value, body }
                }
                "case" | "default" => {
                    return Err(Diagnostic::error(span, format!("`{w}` outside a `switch`")));
                }
                "break" => {
                    self.bump();
                    self.expect(";", "after `break`")?;
                    StmtKind::Break
                }
                "continue" => {
                    self.bump();
                    self.expect(";", "after `continue`")?;
                    StmtKind::Continue
                }
                "return" => {
                    self.bump();
                    let value = if self.is(";") { None } else { Some(self.expr()?) };
                    self.expect(";", "after `return`")?;
                    StmtKind::Return(value)
                }
                "goto" => {
                    self.bump();
                    let (label, _) = self.ident("a label after `goto`")?;
                    self.expect(";", "after `goto label`")?;
                    StmtKind::Goto(label)
                }
                "else" => return Err(Diagnostic::error(span, "`else` without an `if`")),
                _ if self.at_type() => return self.declaration(),
                _ if matches!(self.peek_at(1), Tok::Punct(":")) && !is_keyword(&w) => {
                    self.bump();
                    self.bump();
                    let inner = if self.is("}") { Stmt { kind: StmtKind::Empty, span } } else { self.statement()? };
                    StmtKind::Label(w, Box::new(inner))
                }
                _ => self.expr_statement()?,
            },
            _ => self.expr_statement()?,
        };
        Ok(Stmt { kind, span })
    }

    fn expr_statement(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect(";", "after the expression")?;
        Ok(StmtKind::Expr(e))
    }

    fn switch_body(&mut self) -> PResult<Vec<SwitchItem>> {
        let mut items = Vec::new();
        while !self.is("}") && *self.peek() != Tok::Eof {
            let span = self.span();
            if self.eat_word("case") {
                let e = self.expr()?;
                let v = const_int(&e).ok_or_else(|| Diagnostic::error(e.span, "a `case` label must be an integer constant"))?;
                self.expect(":", "after the case value")?;
                items.push(SwitchItem::Case(Some(v), span));
            } else if self.eat_word("default") {
                self.expect(":", "after `default`")?;
                items.push(SwitchItem::Case(None, span));
            } else {
                let before = self.pos;
                match self.statement() {
                    Ok(s) => items.push(SwitchItem::Stmt(s)),
                    Err(d) => {
                        self.diags.push(d);
                        self.recover();
                        if self.pos == before {
                            self.bump();
                        }
                    }
                }
            }
        }
        Ok(items)
    }

    fn declaration(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let base = self.ty()?;
        if base == Ty::Void {
            return Err(Diagnostic::error(span, "a variable cannot be `void`"));
        }
        let mut vars = Vec::new();
        loop {
            // `int *p` binds the star to the name.
            let mut ty = base;
            if self.eat("*") {
                ty = match base {
                    Ty::Scalar(s) => Ty::Ptr(s),
                    _ => return Err(Diagnostic::error(self.prev_span(), "pointers to pointers are not supported")),
                };
            }
            let (name, nspan) = self.ident("a variable name")?;
            if self.is("[") {
                return Err(Diagnostic::error(self.span(), "local arrays are not supported: use a buffer parameter"));
            }
            let init = if self.eat("=") { Some(self.assignment()?) } else { None };
            vars.push((ty, name, nspan, init));
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after the declaration")?;
        Ok(Stmt { kind: StmtKind::Decl(vars), span })
    }

    // ----- expressions -----

    pub fn expr(&mut self) -> PResult<Expr> {
        let e = self.assignment()?;
        if self.is(",") {
            return Err(Diagnostic::error(self.span(), "the comma operator is not supported"));
        }
        Ok(e)
    }

    fn assignment(&mut self) -> PResult<Expr> {
        self.nested(Self::assignment_inner)
    }

    fn assignment_inner(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match self.peek() {
            Tok::Punct("=") => None,
            Tok::Punct(p) => match compound_op(p) {
                Some(op) => Some(op),
                None => return Ok(lhs),
            },
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.assignment()?;
        let span = join(lhs.span, rhs.span);
        Ok(Expr { kind: ExprKind::Assign { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span })
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.assignment()?;
        self.expect(":", "in `?:`")?;
        let b = self.ternary()?;
        let span = join(c.span, b.span);
        Ok(Expr { kind: ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)), span })
    }

    /// Precedence climbing over the binary operators, `||` lowest.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Tok::Punct(p) = self.peek() {
            let Some((prec, op)) = binary_op(p) else { break };
            if prec < min_prec {
                break;
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = join(lhs.span, rhs.span);
            let kind = match op {
                Bin::Logical(and) => ExprKind::Logical { and, lhs: Box::new(lhs), rhs: Box::new(rhs) },
                Bin::Op(op) => ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            };
            lhs = Expr { kind, span };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.nested(Self::unary_inner)
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        let wrap = |kind, inner: &Expr| Expr { kind, span: join(span, inner.span) };
        match self.peek() {
            Tok::Punct("-") => {
                self.bump();
                let e = self.unary()?;
                Ok(wrap(ExprKind::Unary(UnOp::Neg, Box::new(e.clone())), &e))
            }
            Tok::Punct("+") => {
                self.bump();
                self.unary()
            }
            Tok::Punct("!") => {
                self.bump();
                let e = self.unary()?;
                Ok(wrap(ExprKind::Unary(UnOp::Not, Box::new(e.clone())), &e))
            }
            Tok::Punct("~") => {
                self.bump();
                let e = self.unary()?;
                Ok(wrap(ExprKind::Unary(UnOp::BitNot, Box::new(e.clone())), &e))
            }
            Tok::Punct("*") => {
                self.bump();
                let e = self.unary()?;
                Ok(wrap(ExprKind::Deref(Box::new(e.clone())), &e))
            }
            Tok::Punct("&") => {
                self.bump();
                let e = self.unary()?;
                Ok(wrap(ExprKind::AddrOf(Box::new(e.clone())), &e))
            }
            Tok::Punct(p @ ("++" | "--")) => {
                let inc = *p == "++";
                self.bump();
                let e = self.unary()?;
                Ok(wrap(ExprKind::IncDec { inc, prefix: true, target: Box::new(e.clone()) }, &e))
            }
            Tok::Punct("(") if self.cast_ahead() => {
                self.bump();
                let ty = self.ty()?;
                self.expect(")", "to close the cast")?;
                let e = self.unary()?;
                Ok(wrap(ExprKind::Cast(ty, Box::new(e.clone())), &e))
            }
            _ => self.postfix(),
        }
    }

    fn cast_ahead(&self) -> bool {
        matches!(self.peek_at(1), Tok::Ident(w) if w == "const" || (is_type_word(w) && w != "void"))
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            if self.eat("[") {
                let i = self.expr()?;
                let end = self.expect("]", "to close the index")?;
                let span = join(e.span, end);
                e = Expr { kind: ExprKind::Index(Box::new(e), Box::new(i)), span };
            } else if let Tok::Punct(p @ ("++" | "--")) = self.peek() {
                let inc = *p == "++";
                let end = self.bump().span;
                let span = join(e.span, end);
                e = Expr { kind: ExprKind::IncDec { inc, prefix: false, target: Box::new(e) }, span };
            } else if self.is(".") || self.is("->") {
                return Err(Diagnostic::error(self.span(), "member access is only supported on `threadIdx`, `blockDim` and `blockIdx`"));
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        let t = self.bump();
        let kind = match t.tok {
            Tok::Int { value, unsigned } => ExprKind::Int { value: value as u32, unsigned },
            Tok::Float(f) => ExprKind::Float(f),
            Tok::Punct("(") => {
                let e = self.expr()?;
                let end = self.expect(")", "to close the parenthesis")?;
                return Ok(Expr { kind: e.kind, span: join(span, end) });
            }
            Tok::Ident(w) => match w.as_str() {
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                "threadIdx" | "blockDim" | "blockIdx" | "gridDim" => {
                    self.expect(".", &format!("after `{w}`"))?;
                    let (field, fspan) = self.ident("`x`")?;
                    let whole = join(span, fspan);
                    if field != "x" {
                        return Err(Diagnostic::error(
                            whole,
                            format!("`{w}.{field}`: only one-dimensional blocks are supported (use `.x`)"),
                        ));
                    }
                    let sp = match w.as_str() {
                        "threadIdx" => Special::ThreadIdx,
                        "blockDim" => Special::BlockDim,
                        _ => {
                            return Err(Diagnostic::error(
                                whole,
                                format!("`{w}.x`: warpscope runs a single warp of a single block, so there is no grid"),
                            ))
                        }
                    };
                    return Ok(Expr { kind: ExprKind::Special(sp), span: whole });
                }
                "laneid" => ExprKind::Special(Special::LaneId),
                _ if is_keyword(&w) => {
                    return Err(Diagnostic::error(span, format!("expected an expression, found `{w}`")));
                }
                _ if self.is("(") => {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.is(")") {
                        loop {
                            args.push(self.assignment()?);
                            if !self.eat(",") {
                                break;
                            }
                        }
                    }
                    let end = self.expect(")", "to close the call's arguments")?;
                    return Ok(Expr { kind: ExprKind::Call { name: w, args }, span: join(span, end) });
                }
                _ => ExprKind::Var(w),
            },
            other => return Err(Diagnostic::error(span, format!("expected an expression, found {}", describe(&other)))),
        };
        Ok(Expr { kind, span })
    }
}

enum Bin {
    Op(BinOp),
    Logical(bool),
}

fn binary_op(p: &str) -> Option<(u8, Bin)> {
    use BinOp::*;
    Some(match p {
        "||" => (1, Bin::Logical(false)),
        "&&" => (2, Bin::Logical(true)),
        "|" => (3, Bin::Op(BitOr)),
        "^" => (4, Bin::Op(BitXor)),
        "&" => (5, Bin::Op(BitAnd)),
        "==" => (6, Bin::Op(Eq)),
        "!=" => (6, Bin::Op(Ne)),
        "<" => (7, Bin::Op(Lt)),
        "<=" => (7, Bin::Op(Le)),
        ">" => (7, Bin::Op(Gt)),
        ">=" => (7, Bin::Op(Ge)),
        "<<" => (8, Bin::Op(Shl)),
        ">>" => (8, Bin::Op(Shr)),
        "+" => (9, Bin::Op(Add)),
        "-" => (9, Bin::Op(Sub)),
        "*" => (10, Bin::Op(Mul)),
        "/" => (10, Bin::Op(Div)),
        "%" => (10, Bin::Op(Rem)),
        _ => return None,
    })
}

fn compound_op(p: &str) -> Option<BinOp> {
    use BinOp::*;
    Some(match p {
        "+=" => Add,
        "-=" => Sub,
        "*=" => Mul,
        "/=" => Div,
        "%=" => Rem,
        "&=" => BitAnd,
        "|=" => BitOr,
        "^=" => BitXor,
        "<<=" => Shl,
        ">>=" => Shr,
        _ => return None,
    })
}

/// The value of an integer constant expression (a literal, possibly negated).
fn const_int(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int { value, .. } => Some(*value as i64),
        ExprKind::Unary(UnOp::Neg, inner) => const_int(inner).map(|v| -v),
        _ => None,
    }
}

pub fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "if" | "else"
            | "while"
            | "do"
            | "for"
            | "switch"
            | "case"
            | "default"
            | "break"
            | "continue"
            | "return"
            | "goto"
            | "int"
            | "unsigned"
            | "signed"
            | "float"
            | "bool"
            | "void"
            | "true"
            | "false"
    ) || IGNORED.contains(&w)
        || UNSUPPORTED.iter().any(|(k, _)| *k == w)
}

/// A span covering `a` through `b` when both are on one line, else `a`.
pub fn join(a: Span, b: Span) -> Span {
    if a.line == b.line && b.col + b.len >= a.col {
        Span::new(a.line, a.col, (b.col + b.len).saturating_sub(a.col).max(1))
    } else {
        a
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(w) => format!("`{w}`"),
        Tok::Int { value, .. } => format!("the number {value}"),
        Tok::Float(f) => format!("the number {f}"),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Eof => "the end of the file".to_string(),
    }
}
