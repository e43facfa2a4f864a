//! PTX text to a module of functions and statements, as nvcc and Compiler Explorer print it:
//! comments, `.file`/`.loc` line information, `// begin inline asm` markers, `{ }` call
//! sequences and all. Nothing here knows what an instruction does; `lower` does.

use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::{Diagnostic, Span};

/// A token with its place; `text` is the token as written.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Tok<'a> {
    text: &'a str,
    span: Span,
}

/// Splits the text into tokens: names (which may hold dots, `%`, `$` and digits: `ld.global.f32`,
/// `%tid.x`, `$L__BB0_2`), numbers, strings and single punctuation. Comments (`//` and
/// `/* */`) are dropped. Tokens borrow the text: reading stays allocation-free until the
/// parser keeps something.
fn tokens(src: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::with_capacity(src.len() / 4);
    let mut in_comment = false;
    for (n, line) in src.lines().enumerate() {
        let line_no = n as u32 + 1;
        let bytes = line.as_bytes();
        let mut i = 0;
        // Columns count characters; lines of ASCII (nearly all) need no counting.
        let ascii = line.is_ascii();
        let col = |at: usize| if ascii { at as u32 + 1 } else { line[..at].chars().count() as u32 + 1 };
        while i < bytes.len() {
            let c = bytes[i];
            if in_comment {
                if c == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    in_comment = false;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
                break;
            }
            if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
                in_comment = true;
                i += 2;
                continue;
            }
            let start = i;
            if c == b'"' {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += 1;
                }
                i = (i + 1).min(bytes.len());
            } else if is_name_byte(c) || c == b'.' {
                while i < bytes.len() && (is_name_byte(bytes[i]) || bytes[i] == b'.') {
                    i += 1;
                }
            } else {
                // One character (which may take several bytes).
                i += line[i..].chars().next().map_or(1, char::len_utf8);
            }
            let (c0, c1) = (col(start), col(i));
            out.push(Tok { text: &line[start..i], span: Span::new(line_no, c0, c1 - c0) });
        }
    }
    out
}

/// PTX's identifiers: `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+`.
fn is_ptx_name(s: &str) -> bool {
    let b = s.as_bytes();
    let rest_ok = |r: &[u8]| r.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$');
    match b.split_first() {
        Some((c, r)) if c.is_ascii_alphabetic() => rest_ok(r),
        Some((b'_' | b'$' | b'%', r)) => !r.is_empty() && rest_ok(r),
        _ => false,
    }
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'%' || c == b'$'
}

/// An operand as written.
#[derive(Clone, PartialEq, Debug)]
pub enum Operand<'a> {
    /// A register (`%r3`, `%rd1`, `%p2`) or a special register (`%tid.x`), by name.
    Reg(&'a str),
    /// `!%p1`: a negated predicate.
    NotReg(&'a str),
    /// An integer literal (decimal, hex, octal, or negative).
    Int(i64),
    /// `0f3F800000` or a decimal float written for a `.f32` operand: its bits as f64 (exact).
    Float(f64),
    /// `[base+offset]`.
    Addr { base: &'a str, offset: i64 },
    /// `{%r1, %r2}`; `_` is a sink.
    Vector(Vec<&'a str>),
    /// `%r1|%p1`: two destinations (setp, shfl).
    Pair(&'a str, &'a str),
    /// A name that is not a register: a label, a function, a variable's address.
    Name(&'a str),
    /// `(param0, param1)`: a call's argument or result list.
    List(Vec<&'a str>),
}

/// One instruction.
#[derive(Clone, PartialEq, Debug)]
pub struct Instr<'a> {
    /// `@%p1` / `@!%p1`.
    pub guard: Option<(&'a str, bool)>,
    /// The opcode and its modifiers: `ld.global.nc.v4.f32` is `["ld", "global", "nc", "v4", "f32"]`.
    pub parts: Vec<&'a str>,
    pub operands: Vec<Operand<'a>>,
    pub span: Span,
    /// The innermost `{ }` block the instruction is in (0: the function body).
    pub scope: u32,
    /// The CUDA source line of the last `.loc` before it (0: none).
    pub cuda_line: u32,
    /// The `.file` number of that `.loc`.
    pub cuda_file: u32,
    /// Where that `.loc`'s code was inlined (`inlined_at FILE LINE`: a header's function, a
    /// `__device__` function); (0, 0) when not.
    pub cuda_outer: (u32, u32),
}

impl<'a> Instr<'a> {
    pub fn opcode(&self) -> &'a str {
        self.parts[0]
    }
    pub fn has(&self, m: &str) -> bool {
        self.parts[1..].contains(&m)
    }
}

/// A statement of a function body.
#[derive(Clone, PartialEq, Debug)]
pub enum Stmt<'a> {
    Label(&'a str, Span),
    Instr(Instr<'a>),
}

/// A state space variable: `.reg`, `.shared`, `.local`, `.param`, `.global`, `.const`.
#[derive(Clone, PartialEq, Debug)]
pub struct VarDecl<'a> {
    pub space: &'a str,
    /// The type (`b32`, `u64`, `pred`, `f32`...).
    pub ty: &'a str,
    pub name: &'a str,
    /// `%r<14>`: 14 registers `%r0`..`%r13`.
    pub count: Option<u32>,
    /// `name[N]` (`Some(None)` for `name[]`).
    pub array: Option<Option<u32>>,
    pub align: Option<u32>,
    pub extern_: bool,
    /// `= {1, 2, 3}` or `= 5`.
    pub init: Vec<Operand<'a>>,
    pub span: Span,
    /// The `{ }` block it was declared in (0: the function body, or the module).
    pub scope: u32,
}

/// A `.entry` or `.func`.
#[derive(Clone, PartialEq, Debug)]
pub struct Function<'a> {
    pub name: &'a str,
    pub entry: bool,
    pub params: Vec<VarDecl<'a>>,
    /// `.func (.param .b32 func_retval0) name(...)`.
    pub rets: Vec<VarDecl<'a>>,
    pub vars: Vec<VarDecl<'a>>,
    pub body: Vec<Stmt<'a>>,
    /// `.branchtargets` lists by name.
    pub tables: Vec<(&'a str, Vec<&'a str>)>,
    /// `None` for a declaration (`.extern .func vprintf(...)`).
    pub defined: bool,
    pub span: Span,
    /// The line of the closing brace.
    pub end_line: u32,
}

#[derive(Clone, PartialEq, Debug, Default)]
pub struct Module<'a> {
    pub version: Option<&'a str>,
    pub target: Option<String>,
    /// `.file N "name"`.
    pub files: Vec<(u32, &'a str)>,
    pub globals: Vec<VarDecl<'a>>,
    pub functions: Vec<Function<'a>>,
}

/// True when `text` looks like PTX: a `.version`, `.target` or `.entry` directive.
pub fn looks_like_ptx(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        let first = t.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
        matches!(first, ".version" | ".target" | ".entry" | ".address_size")
            || t.starts_with(".visible .entry")
            || t.starts_with(".weak .entry")
    })
}

struct Parser<'a> {
    toks: Vec<Tok<'a>>,
    at: usize,
    diags: Vec<Diagnostic>,
    next_scope: u32,
    loc: (u32, u32),
    /// The `inlined_at` file and line of that `.loc` ((0, 0): none).
    loc_outer: (u32, u32),
}

pub fn parse(src: &str) -> (Module<'_>, Vec<Diagnostic>) {
    let mut p = Parser { toks: tokens(src), at: 0, diags: Vec::new(), next_scope: 1, loc: (0, 0), loc_outer: (0, 0) };
    let m = p.module();
    (m, p.diags)
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.at).map(|t| t.text)
    }
    fn peek_at(&self, k: usize) -> Option<&'a str> {
        self.toks.get(self.at + k).map(|t| t.text)
    }
    fn span(&self) -> Span {
        match self.toks.get(self.at).or(self.toks.last()) {
            Some(t) => t.span,
            None => Span::new(1, 1, 1),
        }
    }
    fn line(&self) -> u32 {
        self.toks.get(self.at).map_or(u32::MAX, |t| t.span.line)
    }
    fn bump(&mut self) -> Option<Tok<'a>> {
        let t = self.toks.get(self.at).copied();
        self.at += 1;
        t
    }
    fn eat(&mut self, s: &str) -> bool {
        if self.peek() == Some(s) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, s: &str, what: &str) -> bool {
        if self.eat(s) {
            return true;
        }
        let found = self.peek().map_or(String::from("the end of the text"), |t| alloc::format!("`{t}`"));
        self.error(self.span(), alloc::format!("expected `{s}` {what}, found {found}"));
        false
    }
    fn error(&mut self, span: Span, msg: String) {
        self.diags.push(Diagnostic::error(span, msg));
    }
    /// Skips to just after the next `;` (or a `}` / end of line of a line directive).
    fn recover(&mut self) {
        let line = self.line();
        while let Some(t) = self.peek() {
            if t == ";" {
                self.at += 1;
                return;
            }
            if t == "}" || (t == "{" && self.line() != line) {
                return;
            }
            self.at += 1;
        }
    }
    /// Skips the rest of the current line.
    fn skip_line(&mut self, line: u32) {
        while self.line() == line {
            self.at += 1;
        }
    }

    fn module(&mut self) -> Module<'a> {
        let mut m = Module::default();
        let mut linkage = false;
        while let Some(t) = self.peek() {
            let span = self.span();
            match t {
                ".version" | ".target" | ".address_size" => {
                    self.at += 1;
                    let line = span.line;
                    let mut words = Vec::new();
                    while self.line() == line {
                        let w = self.bump().map_or("", |t| t.text);
                        if w != "," {
                            words.push(w);
                        }
                    }
                    match t {
                        ".version" => m.version = words.first().copied(),
                        ".target" => m.target = Some(words.join(", ")),
                        _ => {}
                    }
                }
                ".file" => {
                    self.at += 1;
                    let line = span.line;
                    let num = self.peek().and_then(|n| n.parse::<u32>().ok());
                    self.at += 1;
                    let name = self.peek().map_or("", |s| s.trim_matches('"'));
                    self.skip_line(line);
                    if let Some(n) = num {
                        m.files.push((n, name));
                    }
                }
                ".loc" => self.loc_directive(),
                ".section" => self.skip_section(),
                ".visible" | ".weak" | ".extern" | ".common" => {
                    self.at += 1;
                    linkage = true;
                }
                ".entry" | ".func" => {
                    let f = self.function();
                    m.functions.push(f);
                    linkage = false;
                }
                ".global" | ".const" | ".shared" => {
                    let mut v = self.var_decl(0);
                    v.extern_ |= linkage;
                    m.globals.push(v);
                    linkage = false;
                }
                ".pragma" => {
                    self.recover();
                }
                _ => {
                    self.error(span, alloc::format!("`{t}` is not a PTX directive warpscope reads at the top of a module"));
                    self.at += 1;
                    self.recover();
                }
            }
        }
        m
    }

    /// `.loc FILE LINE COL [, function_name ..., inlined_at ...]`.
    fn loc_directive(&mut self) {
        let line = self.line();
        self.at += 1;
        let file = self.peek().and_then(|n| n.parse::<u32>().ok()).unwrap_or(0);
        let cuda = self.peek_at(1).and_then(|n| n.parse::<u32>().ok()).unwrap_or(0);
        self.loc = (file, cuda);
        self.loc_outer = (0, 0);
        while self.line() == line {
            if self.peek() == Some("inlined_at") {
                let num = |k| self.peek_at(k).and_then(|n| n.parse::<u32>().ok()).unwrap_or(0);
                self.loc_outer = (num(1), num(2));
            }
            self.at += 1;
        }
    }

    /// `.section .debug_info { ... }` (from `-G`): skipped whole.
    fn skip_section(&mut self) {
        let line = self.line();
        while self.line() == line && self.peek() != Some("{") {
            self.at += 1;
        }
        if self.eat("{") {
            let mut depth = 1;
            while let Some(t) = self.bump() {
                match t.text {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn function(&mut self) -> Function<'a> {
        let span = self.span();
        let entry = self.bump().is_some_and(|t| t.text == ".entry");
        let mut rets = Vec::new();
        if !entry && self.peek() == Some("(") {
            rets = self.param_list();
        }
        let name_span = self.span();
        let name = match self.bump() {
            Some(t) if is_ptx_name(t.text) => t.text,
            found => {
                let found = found.map_or(String::from("the end"), |t| alloc::format!("`{}`", t.text));
                self.error(name_span, alloc::format!("expected the function's name, found {found}"));
                ""
            }
        };
        let params = if self.peek() == Some("(") { self.param_list() } else { Vec::new() };
        let mut f = Function {
            name,
            entry,
            params,
            rets,
            vars: Vec::new(),
            body: Vec::new(),
            tables: Vec::new(),
            defined: false,
            span: Span::new(name_span.line, name_span.col, name_span.len),
            end_line: span.line,
        };
        let _ = span;
        // Performance directives (`.maxntid 256, 1, 1`, `.reqntid`, `.minnctapersm`, `.noreturn`).
        while let Some(t) = self.peek() {
            if t == "{" || t == ";" {
                break;
            }
            self.at += 1;
        }
        if self.eat(";") {
            return f;
        }
        if !self.expect("{", "to open the function's body") {
            return f;
        }
        f.defined = true;
        self.body(&mut f, 0);
        f
    }

    /// `( .param .u64 name, .param .align 4 .b8 s[16] )`.
    fn param_list(&mut self) -> Vec<VarDecl<'a>> {
        let mut out = Vec::new();
        self.eat("(");
        while let Some(t) = self.peek() {
            if t == ")" {
                self.at += 1;
                break;
            }
            if t == "," {
                self.at += 1;
                continue;
            }
            if t.starts_with('.') {
                out.push(self.decl_words(0));
            } else {
                let span = self.span();
                self.error(span, alloc::format!("expected a `.param` declaration, found `{t}`"));
                self.at += 1;
            }
        }
        out
    }

    /// The words of a declaration up to its name (and array size), without the `;`.
    fn decl_words(&mut self, scope: u32) -> VarDecl<'a> {
        let span = self.span();
        let mut v =
            VarDecl { space: "", ty: "", name: "", count: None, array: None, align: None, extern_: false, init: Vec::new(), span, scope };
        while let Some(t) = self.peek() {
            if !t.starts_with('.') {
                break;
            }
            self.at += 1;
            match t {
                ".reg" | ".shared" | ".local" | ".param" | ".global" | ".const" => v.space = &t[1..],
                ".align" => v.align = self.bump().and_then(|n| n.text.parse().ok()),
                ".extern" | ".visible" | ".weak" => v.extern_ |= t == ".extern",
                ".ptr" | ".volatile" => {}
                _ if v.ty.is_empty() || t.starts_with(".v") => {
                    if t.starts_with(".v") && t[2..].parse::<u32>().is_ok() {
                        // `.reg .v4 .f32`: keep the element type.
                    } else {
                        v.ty = &t[1..];
                    }
                }
                _ => {}
            }
        }
        v.span = self.span();
        if let Some(t) = self.bump() {
            if !is_ptx_name(t.text) {
                self.error(
                    t.span,
                    alloc::format!(
                        "`{}` is not a PTX name (a letter, or `_`, `$` or `%` and more, then letters, digits, `_` and `$`)",
                        t.text
                    ),
                );
            }
            v.name = t.text;
        }
        if self.eat("<") {
            v.count = self.bump().and_then(|n| n.text.parse().ok());
            self.expect(">", "after a register count");
        }
        if self.eat("[") {
            let n = if self.peek() == Some("]") { None } else { self.bump().and_then(|n| parse_int(n.text)).map(|n| n as u32) };
            self.expect("]", "after an array size");
            v.array = Some(n);
            // Further dimensions multiply in.
            while self.eat("[") {
                let more = self.bump().and_then(|n| parse_int(n.text)).unwrap_or(1) as u32;
                self.expect("]", "after an array size");
                v.array = Some(n.map(|n| n * more));
            }
        }
        v
    }

    fn var_decl(&mut self, scope: u32) -> VarDecl<'a> {
        let mut v = self.decl_words(scope);
        if self.eat("=") {
            if self.eat("{") {
                while let Some(t) = self.peek() {
                    if t == "}" {
                        self.at += 1;
                        break;
                    }
                    if t == "," {
                        self.at += 1;
                        continue;
                    }
                    match self.operand() {
                        Some(o) => v.init.push(o),
                        None => break,
                    }
                }
            } else if let Some(o) = self.operand() {
                v.init.push(o);
            }
        }
        self.expect(";", "after a declaration");
        v
    }

    fn body(&mut self, f: &mut Function<'a>, scope: u32) {
        loop {
            let Some(t) = self.peek() else {
                self.error(self.span(), alloc::format!("`{}` has no closing `}}`", f.name));
                return;
            };
            let span = self.span();
            match t {
                "}" => {
                    f.end_line = span.line;
                    self.at += 1;
                    return;
                }
                "{" => {
                    self.at += 1;
                    let inner = self.next_scope;
                    self.next_scope += 1;
                    self.body(f, inner);
                }
                ".reg" | ".shared" | ".local" | ".param" | ".global" | ".const" => {
                    let v = self.var_decl(scope);
                    f.vars.push(v);
                }
                ".loc" => self.loc_directive(),
                ".pragma" => self.recover(),
                _ if t.starts_with('.') => {
                    self.error(span, alloc::format!("`{t}` is not a directive warpscope reads inside a function"));
                    self.at += 1;
                    self.recover();
                }
                _ if self.peek_at(1) == Some(":") => {
                    self.at += 2;
                    if self.peek() == Some(".branchtargets") {
                        self.at += 1;
                        let mut names = Vec::new();
                        while let Some(n) = self.peek() {
                            if n == ";" {
                                self.at += 1;
                                break;
                            }
                            if n != "," {
                                names.push(n);
                            }
                            self.at += 1;
                        }
                        f.tables.push((t, names));
                    } else {
                        f.body.push(Stmt::Label(t, span));
                    }
                }
                _ => {
                    if let Some(i) = self.instr(scope) {
                        f.body.push(Stmt::Instr(i));
                    }
                }
            }
        }
    }

    fn instr(&mut self, scope: u32) -> Option<Instr<'a>> {
        let start = self.span();
        let mut guard = None;
        if self.eat("@") {
            let neg = self.eat("!");
            let p = self.bump().map_or("", |t| t.text);
            guard = Some((p, neg));
        }
        let op_span = self.span();
        let op = self.bump()?;
        if !op.text.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.error(op_span, alloc::format!("expected an instruction, found `{}`", op.text));
            self.recover();
            return None;
        }
        let parts: Vec<&'a str> = op.text.split('.').filter(|s| !s.is_empty()).collect();
        let mut operands = Vec::new();
        loop {
            match self.peek() {
                Some(";") => {
                    self.at += 1;
                    break;
                }
                Some(",") => {
                    self.at += 1;
                }
                None | Some("}") => {
                    self.error(self.span(), alloc::format!("expected `;` after `{}`", op.text));
                    break;
                }
                _ => match self.operand() {
                    Some(o) => operands.push(o),
                    None => {
                        self.recover();
                        break;
                    }
                },
            }
        }
        let end = self.toks.get(self.at.saturating_sub(1)).map_or(start, |t| t.span);
        let len = if end.line == start.line { end.col + end.len - start.col } else { op_span.len };
        Some(Instr {
            guard,
            parts,
            operands,
            span: Span::new(start.line, start.col, len),
            scope,
            cuda_line: self.loc.1,
            cuda_file: self.loc.0,
            cuda_outer: self.loc_outer,
        })
    }

    /// The comma-separated names after an opening `{` or `(`, up to `close` (`{%f1, %f2}`,
    /// `(param0, param1)`); a `;` first is an error.
    fn names_until(&mut self, close: &str, what: &str) -> Vec<&'a str> {
        self.at += 1;
        let mut names = Vec::new();
        while let Some(t) = self.peek() {
            if t == close {
                self.at += 1;
                break;
            }
            if t == "," {
                self.at += 1;
                continue;
            }
            if t == ";" {
                self.error(self.span(), alloc::format!("expected `{close}` to close {what}"));
                break;
            }
            names.push(t);
            self.at += 1;
        }
        names
    }

    fn operand(&mut self) -> Option<Operand<'a>> {
        let span = self.span();
        let t = self.peek()?;
        match t {
            "[" => {
                self.at += 1;
                let base = self.bump().map_or("", |t| t.text);
                let mut offset = 0i64;
                if let Some(at) = parse_int(base) {
                    // `[0x100]`: an absolute address.
                    offset = at;
                    self.expect("]", "after an address");
                    return Some(Operand::Addr { base: "", offset });
                }
                while self.peek() == Some("+") || self.peek() == Some("-") {
                    let neg = self.bump().is_some_and(|t| t.text == "-");
                    let neg2 = self.eat("-");
                    let v = self.bump().and_then(|n| parse_int(n.text)).unwrap_or(0);
                    offset = offset.wrapping_add(if neg ^ neg2 { v.wrapping_neg() } else { v });
                }
                self.expect("]", "after an address");
                Some(Operand::Addr { base, offset })
            }
            "{" => Some(Operand::Vector(self.names_until("}", "a vector"))),
            "(" => Some(Operand::List(self.names_until(")", "a list"))),
            "!" => {
                self.at += 1;
                let r = self.bump().map_or("", |t| t.text);
                Some(Operand::NotReg(r))
            }
            "-" => {
                self.at += 1;
                let n = self.bump().map_or("", |t| t.text);
                match number(n) {
                    Some(Operand::Int(v)) => Some(Operand::Int(v.wrapping_neg())),
                    Some(Operand::Float(v)) => Some(Operand::Float(-v)),
                    _ => {
                        self.error(span, alloc::format!("expected a number after `-`, found `{n}`"));
                        None
                    }
                }
            }
            _ => {
                self.at += 1;
                if let Some(n) = number(t) {
                    return Some(n);
                }
                if t.starts_with('%') {
                    if self.eat("|") {
                        let second = self.bump().map_or("", |t| t.text);
                        return Some(Operand::Pair(t, second));
                    }
                    return Some(Operand::Reg(t));
                }
                if t.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$') {
                    // `sym+4` as an operand of `mov`.
                    if self.peek() == Some("+") {
                        self.at += 1;
                        let v = self.bump().and_then(|n| parse_int(n.text)).unwrap_or(0);
                        return Some(Operand::Addr { base: t, offset: v });
                    }
                    return Some(Operand::Name(t));
                }
                self.error(span, alloc::format!("unexpected `{t}` in an operand list"));
                None
            }
        }
    }
}

/// A numeric literal: integers (`12`, `0x1F`, `017`, `12U`) and floats (`0f3F800000`,
/// `0d3FF0000000000000`, `1.5`).
fn number(t: &str) -> Option<Operand<'static>> {
    let b = t.as_bytes();
    if !b.first()?.is_ascii_digit() {
        return None;
    }
    if (t.starts_with("0f") || t.starts_with("0F")) && t.len() == 10 {
        return u32::from_str_radix(&t[2..], 16).ok().map(|bits| Operand::Float(f32::from_bits(bits) as f64));
    }
    if (t.starts_with("0d") || t.starts_with("0D")) && t.len() == 18 {
        return u64::from_str_radix(&t[2..], 16).ok().map(|bits| Operand::Float(f64::from_bits(bits)));
    }
    if let Some(v) = parse_int(t) {
        return Some(Operand::Int(v));
    }
    t.parse::<f64>().ok().map(Operand::Float)
}

/// An integer literal as PTX writes it.
pub fn parse_int(t: &str) -> Option<i64> {
    let t = t.trim_end_matches(['U', 'u']);
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()?
    } else if t.len() > 1 && t.starts_with('0') && t.bytes().all(|c| c.is_ascii_digit()) {
        u64::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse::<u64>().ok()?
    };
    let v = v as i64;
    Some(if neg { v.wrapping_neg() } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    const VEC_ADD: &str = r#"//
// Generated by NVIDIA NVVM Compiler
.version 8.5
.target sm_90
.address_size 64

	// .globl	_Z7vec_addPKfS0_Pfi
.visible .entry _Z7vec_addPKfS0_Pfi(
	.param .u64 _Z7vec_addPKfS0_Pfi_param_0,
	.param .u32 _Z7vec_addPKfS0_Pfi_param_3
)
.maxntid 256, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.shared .align 4 .b8 _ZZ1kE1s[1024];
	.loc	1 5 3
	ld.param.u64 	%rd1, [_Z7vec_addPKfS0_Pfi_param_0+8];
	setp.ge.s32 	%p1|%p2, %r1, %r2;
	@!%p1 bra 	$L__BB0_2;
	// begin inline asm
	st.global.v2.f32 	[%rd1+-4], {%f1, %f2};
	// end inline asm
	{ // callseq 0, 0
	.param .b32 param0;
	call.uni (retval0), _Z3fooi, (param0);
	}
$L__BB0_2:
	mov.f32 %f1, 0f3F800000;
	ret;
}
"#;

    #[test]
    fn reads_what_nvcc_prints() {
        assert!(looks_like_ptx(VEC_ADD));
        let (m, d) = parse(VEC_ADD);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(m.version, Some("8.5"));
        assert_eq!(m.functions.len(), 1);
        let f = &m.functions[0];
        assert!(f.entry && f.defined);
        assert_eq!(f.params.len(), 2);
        assert_eq!(f.params[1].ty, "u32");
        assert_eq!(f.vars[0].count, Some(2));
        assert_eq!(f.vars[2].array, Some(Some(1024)));
        let instrs: Vec<&Instr> = f.body.iter().filter_map(|s| if let Stmt::Instr(i) = s { Some(i) } else { None }).collect();
        assert_eq!(instrs[0].parts, ["ld", "param", "u64"]);
        assert_eq!(instrs[0].operands[1], Operand::Addr { base: "_Z7vec_addPKfS0_Pfi_param_0", offset: 8 });
        assert_eq!(instrs[0].cuda_line, 5);
        assert_eq!(instrs[1].operands[0], Operand::Pair("%p1", "%p2"));
        assert_eq!(instrs[2].guard, Some(("%p1", true)));
        assert_eq!(instrs[3].operands[0], Operand::Addr { base: "%rd1", offset: -4 });
        assert_eq!(instrs[3].operands[1], Operand::Vector(vec!["%f1", "%f2"]));
        assert_eq!(instrs[4].scope, 1);
        assert_eq!(instrs[4].operands[0], Operand::List(vec!["retval0"]));
        assert_eq!(instrs[5].operands[1], Operand::Float(1.0));
        assert!(f.body.iter().any(|s| matches!(s, Stmt::Label(l, _) if *l == "$L__BB0_2")));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("-1"), Some(-1));
        assert_eq!(parse_int("017"), Some(15));
        assert_eq!(number("0d3FF0000000000000"), Some(Operand::Float(1.0)));
        assert_eq!(number("0fBF800000"), Some(Operand::Float(-1.0)));
        assert_eq!(number("4294967295U"), Some(Operand::Int(4294967295)));
    }

    #[test]
    fn errors_are_located() {
        let (_, d) = parse(".version 8.5\n.entry k()\n{\n  add.s32 %r1, %r2 ^ 3;\n}\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].span.line, 4);
    }
}
