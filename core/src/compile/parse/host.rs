//! Host code's own syntax, read only for a whole program (`Parser.host`): launches
//! (`k<<<g, b>>>(...)`), `new`/`delete`, `std::vector<T>`, `std::cout << ...`, and arrays local
//! to host code. `std::` itself is dropped before parsing (`without_std`).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{const_int, describe, join, Node, PResult, Parser};
use crate::compile::ast::*;
use crate::compile::lex::{Tok, Token};
use crate::compile::template::{instance_name, Wanted};
use crate::diag::{Diagnostic, Span};

/// The call a vector's declaration makes: `std::vector` with the vector's type and name first
/// (its name cast to its type, never evaluated), then the constructor's arguments;
/// `std::vector{}` for a braced list.
pub const VECTOR_NEW: &str = "std::vector";
pub const VECTOR_LIST: &str = "std::vector{}";
/// `std::cout << a << b;` is one call of these, its operands in order (`std::endl` a "\n").
pub const COUT: &str = "<<cout>>";
pub const CERR: &str = "<<cerr>>";

/// What `<iostream>` and `<iomanip>` offer that the host runner does not print.
const STREAM_FORMATTING: &[&str] =
    &["setw", "setprecision", "fixed", "scientific", "hex", "dec", "oct", "setfill", "left", "right", "boolalpha", "showpoint"];

/// The tokens without `std::` (host code names `std::vector`, `std::cout`, `std::sqrt`; they
/// are the same names without it) and without `using namespace std;`.
pub fn without_std(toks: &[Token]) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        let word = |j: usize, w: &str| matches!(toks.get(j).map(|t| &t.tok), Some(Tok::Ident(x)) if x == w);
        if word(k, "std") && matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("::"))) {
            k += 2;
            continue;
        }
        if word(k, "using")
            && word(k + 1, "namespace")
            && word(k + 2, "std")
            && matches!(toks.get(k + 3).map(|t| &t.tok), Some(Tok::Punct(";")))
        {
            k += 4;
            continue;
        }
        out.push(toks[k].clone());
        k += 1;
    }
    out
}

impl Parser<'_> {
    /// `vector<T>`, at `vector`: a vector is held as a pointer to its elements (the host runner
    /// keeps its length), so `v[i]` and `v.data()` are its elements; `Parser.vector_read` says
    /// a vector was read.
    pub(super) fn vector_type(&mut self, start: Span) -> PResult<Ty> {
        self.bump();
        self.bump();
        let elem = self.ty()?;
        if !self.eat(">") {
            let found = describe(self.peek());
            return Err(Diagnostic::error(self.span(), format!("expected `>` to close `vector<...>`, found {found}")));
        }
        let ty = match elem {
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Struct(_) => elem.pointer_to(),
            _ => None,
        };
        let ty = ty.ok_or_else(|| {
            Diagnostic::error(
                start,
                format!("a `vector<{}>` is not supported: a vector holds numbers, CUDA vectors or structs", elem.name()),
            )
        })?;
        self.vector_read = true;
        Ok(ty)
    }

    /// A vector variable's initialiser, after its name: `(n)`, `(n, value)`, `(other)`,
    /// `{1, 2, 3}`, `= other`, `= {1, 2}` or none (empty).
    pub(super) fn std_vector_init(&mut self, ty: Ty, name: &str, span: Span) -> PResult<Expr> {
        let typed = Expr { kind: ExprKind::Cast(ty, Box::new(Expr { kind: ExprKind::Str(String::from(name)), span })), span };
        let mut args = alloc::vec![typed];
        let braced = self.eat("=") && self.is("{") || self.is("{");
        let name = if braced {
            let mut values = Vec::new();
            self.initialiser(&mut values, &[])?;
            args.extend(values);
            VECTOR_LIST
        } else if self.prev_is("=") {
            args.push(self.assignment()?.0);
            VECTOR_NEW
        } else if self.eat("(") {
            while !self.is(")") {
                args.push(self.assignment()?.0);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")", "to close the vector's size")?;
            VECTOR_NEW
        } else {
            VECTOR_NEW
        };
        Ok(Expr { kind: ExprKind::Call { name: String::from(name), args }, span })
    }

    fn prev_is(&self, p: &'static str) -> bool {
        self.toks.get(self.pos.wrapping_sub(1)).is_some_and(|t| t.tok == Tok::Punct(p))
    }

    /// `new T[n]` (`new T[n]()` zeroed) and `new T`: `(T*)malloc(n * sizeof(T))`, or `calloc`.
    pub(super) fn new_expr(&mut self) -> PResult<Node> {
        let span = self.bump().span;
        let elem = self.ty()?;
        let Some((ptr, bytes)) = elem.pointer_to().zip(elem.size_of()) else {
            return Err(Diagnostic::error(
                span,
                format!("`new {}` is not supported: `new` makes numbers, CUDA vectors or structs", elem.name()),
            ));
        };
        let int = |value: u64, span: Span| Expr { kind: ExprKind::Int { value, unsigned: true }, span };
        let count = if self.eat("[") {
            let n = self.expr()?;
            self.expect("]", "to close `new`'s count")?;
            n
        } else {
            int(1, span)
        };
        let zeroed =
            if self.is("(") && matches!(self.peek_at(1), Tok::Punct(")")) || self.is("{") && matches!(self.peek_at(1), Tok::Punct("}")) {
                self.bump();
                self.bump();
                true
            } else {
                false
            };
        if self.is("(") || self.is("{") {
            return Err(Diagnostic::error(
                self.span(),
                "`new` with initial values is not supported: allocate with `new T[n]` and assign the elements",
            ));
        }
        let end = self.prev_span();
        let size = int(bytes, span);
        let call = if zeroed {
            ExprKind::Call { name: String::from("calloc"), args: alloc::vec![count, size] }
        } else {
            let total = Expr { kind: ExprKind::Binary(BinOp::Mul, Box::new(count), Box::new(size)), span };
            ExprKind::Call { name: String::from("malloc"), args: alloc::vec![total] }
        };
        let whole = join(span, end);
        let call = Expr { kind: call, span: whole };
        self.node(ExprKind::Cast(ptr, Box::new(call)), whole, 3)
    }

    /// `delete p;` and `delete[] p;`: `free(p)`.
    pub(super) fn delete_stmt(&mut self) -> PResult<StmtKind> {
        let span = self.bump().span;
        if self.eat("[") {
            self.expect("]", "after `delete[`")?;
        }
        let p = self.expr()?;
        self.expect(";", "after `delete`")?;
        Ok(StmtKind::Expr(Expr { kind: ExprKind::Call { name: String::from("free"), args: alloc::vec![p] }, span }))
    }

    /// `cout << a << "text" << endl;` (or `cerr`): one call of `COUT` (`CERR`) with the
    /// operands, `endl` as `"\n"`.
    pub(super) fn stream_stmt(&mut self) -> PResult<StmtKind> {
        let t = self.bump();
        let name = if matches!(&t.tok, Tok::Ident(w) if w == "cerr" || w == "clog") { CERR } else { COUT };
        let operand_prec = Infix::from_symbol("<<").map_or(0, |(_, p)| p + 1);
        let mut args = Vec::new();
        while self.eat("<<") {
            match self.peek() {
                Tok::Ident(w) if w == "endl" => {
                    let s = self.bump().span;
                    args.push(Expr { kind: ExprKind::Str(String::from("\n")), span: s });
                }
                Tok::Ident(w) if w == "flush" => {
                    self.bump();
                }
                Tok::Ident(w) if STREAM_FORMATTING.contains(&w.as_str()) => {
                    return Err(Diagnostic::error(
                        self.span(),
                        format!("`{w}` (iostream formatting) is not supported: print the value with `printf` and a format such as `%8.3f`"),
                    ));
                }
                // `'x'` alone is a `char` in C++, printed as one (C reads it as an `int`).
                Tok::Int { value, .. } if self.text(self.span()).starts_with('\'') && matches!(self.peek_at(1), Tok::Punct("<<" | ";")) => {
                    let c = char::from_u32(*value as u32).unwrap_or('?');
                    let s = self.bump().span;
                    args.push(Expr { kind: ExprKind::Str(String::from(c)), span: s });
                }
                _ => args.push(self.binary(operand_prec)?.0),
            }
        }
        if !self.is(";") {
            return Err(Diagnostic::error(
                self.span(),
                format!("expected `<<` or `;` in the `cout` statement, found {}", describe(self.peek())),
            ));
        }
        self.bump();
        Ok(StmtKind::Expr(Expr { kind: ExprKind::Call { name: String::from(name), args }, span: t.span }))
    }

    /// Whether the declaration here declares an array (a name followed by `[` before any `=`,
    /// `(` or `;`): in host code, an array in host memory.
    pub(super) fn local_array_ahead(&self) -> bool {
        let mut k = 0;
        loop {
            match (self.peek_at(k), self.peek_at(k + 1)) {
                (Tok::Ident(_), Tok::Punct("[")) => return true,
                (Tok::Punct(";" | "=" | "(" | "{" | ")" | "}") | Tok::Eof, _) => return false,
                _ => k += 1,
            }
        }
    }

    /// Whether a kernel launch starts here: `name<<<` or `name<args><<<` (the lexer reads
    /// `<<<` as `<<` and `<`).
    pub(super) fn launch_ahead(&self) -> bool {
        let chevrons = |k: usize| matches!(self.peek_at(k), Tok::Punct("<<")) && matches!(self.peek_at(k + 1), Tok::Punct("<"));
        if chevrons(1) {
            return true;
        }
        if !matches!(self.peek_at(1), Tok::Punct("<")) {
            return false;
        }
        let mut k = 2;
        loop {
            match self.peek_at(k) {
                Tok::Punct(">") => return chevrons(k + 1),
                Tok::Punct(";" | "{" | "}") | Tok::Eof => return false,
                _ => k += 1,
            }
        }
    }

    /// `kernel<<<grid, block[, shared[, stream]]>>>(args);` (or `kernel<T, 256><<<...>>>`): a
    /// call named `<<<kernel>>>` whose first three arguments are the grid, the block and the
    /// dynamic shared bytes (0 when not given), then the kernel's.
    pub(super) fn launch(&mut self) -> PResult<StmtKind> {
        let (name, span) = self.ident("a kernel's name")?;
        let instance = if self.eat("<") {
            let args = self.template_args(&name)?;
            self.wanted.push(Wanted { name: name.clone(), args: args.clone(), span });
            instance_name(&name, &args, &self.structs)
        } else {
            name
        };
        self.expect("<<", "to open the launch's `<<<`")?;
        self.expect("<", "to open the launch's `<<<`")?;
        // The sizes are read above the shifts, so `>>>` closes them.
        let above_shifts = Infix::from_symbol("<<").map_or(0, |(_, p)| p + 1);
        let mut config = Vec::new();
        loop {
            config.push(self.binary(above_shifts)?.0);
            if !self.eat(",") {
                break;
            }
        }
        let close = self.span();
        if !(self.eat(">>") && self.eat(">")) {
            return Err(Diagnostic::error(close, "expected `>>>` to close the launch's configuration"));
        }
        if config.len() < 2 || config.len() > 4 {
            return Err(Diagnostic::error(
                span,
                format!("a launch's `<<<...>>>` gives the grid and the block, then optionally the dynamic shared memory's bytes and a stream; this one has {} part(s)", config.len()),
            ));
        }
        if let Some(stream) = config.get(3) {
            if const_int(stream) != Some(0) {
                return Err(Diagnostic::error(
                    stream.span,
                    "launches on streams other than the default are not supported: warpscope runs launches in order, one after another; drop the stream argument",
                ));
            }
            config.truncate(3);
        }
        if config.len() == 2 {
            config.push(Expr { kind: ExprKind::Int { value: 0, unsigned: false }, span: close });
        }
        if !self.is("(") {
            return Err(Diagnostic::error(self.span(), "expected the kernel's arguments in `(...)` after `>>>`"));
        }
        let (call, _) = self.call(format!("<<<{instance}>>>"), span)?;
        let ExprKind::Call { name, args } = call.kind else { unreachable!("`call` makes a call") };
        config.extend(args);
        self.expect(";", "after the launch")?;
        Ok(StmtKind::Expr(Expr { kind: ExprKind::Call { name, args: config }, span: call.span }))
    }
}
