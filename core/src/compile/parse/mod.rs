//! Recursive-descent parser for the CUDA-C subset. It never fails: a statement that does not
//! parse becomes a located diagnostic, and parsing resumes at the next `;` or `}`.
//!
//! It also reads the expressions of `//@` header lines (`Dialect::Header`, for `kernel::expr`):
//! there every name is a variable or a function (no keywords, casts, pointers or assignment),
//! and errors are worded for a one-line expression. One nesting limit serves both: parser
//! recursion and the height of every tree are bounded, so no input can exhaust the stack while
//! parsing, lowering, evaluating or dropping the tree.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::*;
use super::lex::{Dialect, Tok, Token};
use super::template::{instance_name, TemplateArg, TemplateDef, TemplateParam, Wanted};
use crate::diag::{Diagnostic, Span};

/// Words that belong to C or CUDA but not to this subset, with what to say about them.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("union", "unions are not supported"),
    ("enum", "enums are not supported: use `int` constants"),
    ("template", "templates are not supported"),
    ("typedef", "`typedef` is not supported"),
    ("__constant__", "a `__constant__` variable is declared at file scope, outside every function"),
    ("new", "`new` is not supported in device code: allocate with `cudaMalloc` in `main`"),
    ("delete", "`delete` is not supported in device code"),
    ("asm", "inline assembly is not supported: write an assembly kernel instead"),
];

/// Host types of what a program's host part cannot do, with what to say about them.
const HOST_UNSUPPORTED: &[(&str, &str)] = &[
    ("cudaStream_t", "streams are not supported: warpscope runs every launch and copy in order, on the default stream; drop the streams (and the launches' fourth argument)"),
    ("FILE", "files are not supported in host code: give the data in the program (or print it with printf)"),
    ("thread", "threads are not supported in host code: warpscope runs `main()` on one host thread"),
    ("ifstream", "files are not supported in host code: give the data in the program"),
    ("ofstream", "files are not supported in host code: print the results with printf or std::cout"),
];

/// The types the C here has, as a message lists them.
const KNOWN_TYPES: &str =
    "`int`, `unsigned`, `char`, `short`, `long long` (signed or unsigned), `float`, `double`, `bool`, `size_t`, a vector type (`float4`, `int2`, `uchar4`...) or a struct the file defines before it";

/// The words that start a type, and the type each names.
/// The words that start a type (`long`, `unsigned` and `signed` combine, as in C; `long` is 64
/// bits, as on Linux).
const TYPE_WORDS: &[(&str, Ty)] = &[
    ("int", Ty::INT),
    ("unsigned", Ty::UNSIGNED),
    ("signed", Ty::INT),
    ("long", Ty::LONG),
    ("float", Ty::FLOAT),
    ("double", Ty::DOUBLE),
    ("bool", Ty::BOOL),
    ("void", Ty::Void),
    ("size_t", Ty::ULONG),
    ("uint32_t", Ty::UNSIGNED),
    ("int32_t", Ty::INT),
    ("uint64_t", Ty::ULONG),
    ("int64_t", Ty::LONG),
    ("ptrdiff_t", Ty::LONG),
    ("uint", Ty::UNSIGNED),
    ("char", Ty::Scalar(Scalar::Char)),
    ("short", Ty::Scalar(Scalar::Short)),
    ("int8_t", Ty::Scalar(Scalar::Char)),
    ("uint8_t", Ty::Scalar(Scalar::UChar)),
    ("int16_t", Ty::Scalar(Scalar::Short)),
    ("uint16_t", Ty::Scalar(Scalar::UShort)),
];

fn is_type_word(w: &str) -> bool {
    TYPE_WORDS.iter().any(|(k, _)| *k == w) || vector_of(w).is_some()
}

/// Qualifiers that change nothing here.
const IGNORED: &[&str] = &[
    "const",
    "constexpr",
    "__restrict__",
    "restrict",
    "volatile",
    "static",
    "inline",
    "__inline__",
    "__noinline__",
    "__forceinline__",
    "extern",
];

mod host;
mod structs;

pub use host::without_std;
pub(super) use host::{CERR, COUT, VECTOR_LIST, VECTOR_NEW};

pub struct Parser<'t> {
    toks: &'t [Token],
    dialect: Dialect,
    /// The text parsed, to name tokens as written (a header expression's) or to quote an
    /// `assert`'s condition (C's).
    src: &'t str,
    pos: usize,
    /// How deeply statements and expressions nest right now: bounded, so no input can
    /// exhaust the stack.
    depth: u32,
    pub diags: Vec<Diagnostic>,
    /// File-scope `const` numbers, which read as their values wherever their names appear.
    consts: alloc::collections::BTreeMap<String, ExprKind>,
    /// The function templates declared so far: `name<...>(` calls one of their instances.
    templates: alloc::collections::BTreeSet<String>,
    /// The instances the calls parsed so far name.
    pub wanted: Vec<Wanted>,
    /// The structs, classes, unions and typedefs the file defines (skipped as host code): a
    /// type of one of their names is told what it is and what to do instead.
    user_types: alloc::collections::BTreeMap<String, (&'static str, u32)>,
    /// The structs and classes defined so far.
    pub structs: super::structs::Structs,
    /// Why each struct skipped as host code could not be read (a typedef's unnamed one under "").
    struct_errors: alloc::collections::BTreeMap<String, Diagnostic>,
    /// Struct templates (`template <class T> struct SharedMemory { ... };`), made into a struct
    /// per argument list where used.
    struct_templates: Vec<structs::StructTemplate>,
    /// The member functions of struct instances made while parsing, for the unit's functions.
    pub made_funcs: Vec<Function>,
    /// How many struct instances are being made around this parser (one inside another's fields).
    struct_depth: u32,
    /// `typedef float real;` and `typedef struct node Node;`: each name and the type it is.
    typedefs: alloc::collections::BTreeMap<String, Ty>,
    /// Whether the type just read said `const` (a `const T&` parameter is passed as a value).
    saw_const: bool,
    /// Reading a whole program: host functions (`main` and its helpers) are read, not skipped.
    pub host: bool,
    /// The type just read was a `vector<T>` (held as a `T*`).
    vector_read: bool,
    /// The function's `const` locals read as constants (`consts` holds them too).
    local_consts: Vec<String>,
}

/// The nesting budget, in levels: a statement nests `STATEMENT_LEVELS`, a `(`, a call's
/// arguments, a `?:` arm or a prefix operator `EXPR_LEVELS`, and no expression tree is taller
/// than this many nodes. Deeper input is refused (real kernels stay far below it); the
/// weights follow how much stack each takes to parse and lower.
pub const MAX_DEPTH: u32 = 340;

/// The levels a statement nests (68 blocks fit).
const STATEMENT_LEVELS: u32 = 5;
/// The levels an expression nests (170 parentheses fit).
const EXPR_LEVELS: u32 = 2;

type PResult<T> = Result<T, Diagnostic>;

/// An expression and the height of its tree.
type Node = (Expr, u32);

impl<'t> Parser<'t> {
    pub fn new(toks: &'t [Token]) -> Parser<'t> {
        Parser {
            toks,
            dialect: Dialect::Cuda,
            src: "",
            pos: 0,
            depth: 0,
            diags: Vec::new(),
            consts: Default::default(),
            templates: Default::default(),
            wanted: Vec::new(),
            user_types: Default::default(),
            structs: Default::default(),
            struct_errors: Default::default(),
            struct_templates: Vec::new(),
            made_funcs: Vec::new(),
            struct_depth: 0,
            typedefs: Default::default(),
            saw_const: false,
            host: false,
            vector_read: false,
            local_consts: Vec::new(),
        }
    }

    /// A parser for a C file: `toks` lexed (and preprocessed) from `src`.
    pub fn cuda(toks: &'t [Token], src: &'t str) -> Parser<'t> {
        Parser { src, ..Parser::new(toks) }
    }

    /// A parser for an instance's tokens (`template::substitute`), which knows this one's file
    /// constants and templates.
    pub fn for_instance<'u>(&self, toks: &'u [Token]) -> Parser<'u>
    where
        't: 'u,
    {
        Parser {
            src: self.src,
            consts: self.consts.clone(),
            templates: self.templates.clone(),
            user_types: self.user_types.clone(),
            structs: self.structs.clone(),
            struct_errors: self.struct_errors.clone(),
            struct_templates: self.struct_templates.clone(),
            typedefs: self.typedefs.clone(),
            ..Parser::new(toks)
        }
    }

    /// A template argument (a parameter's default): a type, or a constant expression.
    pub fn template_arg(&mut self, is_type: bool) -> Option<TemplateArg> {
        if is_type {
            return self.ty().ok().map(TemplateArg::Type);
        }
        let e = self.expr().ok()?;
        const_int(&e).map(TemplateArg::Value)
    }

    /// One function: an instance's (`for_instance`).
    pub fn instance_function(&mut self) -> PResult<Function> {
        self.function()
    }

    /// A parser for one header expression: `toks` lexed from `src` in `Dialect::Header`.
    pub fn header(toks: &'t [Token], src: &'t str) -> Parser<'t> {
        Parser { dialect: Dialect::Header, src, ..Parser::new(toks) }
    }

    /// The token where parsing stopped.
    pub fn next_token(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn in_header(&self) -> bool {
        self.dialect == Dialect::Header
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
        if self.host && (w == "new" || w == "delete") {
            return None;
        }
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
                self.saw_const |= w == "const";
                self.bump();
            } else {
                return;
            }
        }
    }

    fn at_type(&self) -> bool {
        let mut k = 0;
        while let Tok::Ident(w) = self.peek_at(k) {
            if IGNORED.contains(&w.as_str()) || w == "__shared__" {
                k += 1;
                continue;
            }
            // A struct this C could not read is a type too: `ty` says why.
            return is_type_word(w)
                || (self.host && w == "dim3" && !matches!(self.peek_at(k + 1), Tok::Punct("(")))
                || (self.host && (w == "cudaError_t" || w == "cudaEvent_t"))
                || (self.host && w == "vector" && matches!(self.peek_at(k + 1), Tok::Punct("<")))
                || (self.host && HOST_UNSUPPORTED.iter().any(|(t, _)| t == w))
                || self.is_struct(w)
                || self.is_struct_template(w)
                || self.typedefs.contains_key(w.as_str())
                || self.user_types.contains_key(w.as_str());
        }
        false
    }

    /// Why `word` is not a type here: a struct or class the file defines, or a word it does not.
    fn not_a_type(&self, word: &str) -> String {
        if let (Some((kind, line)), Some(d)) = (self.user_types.get(word), self.struct_errors.get(word)) {
            return format!(
                "`{word}` is a {kind} (line {line}) that warpscope's own C cannot read: {} (line {}). Rewrite that part, or run nvcc's code \
                 (`--nvcc`, or paste its PTX or SASS)",
                d.message, d.span.line
            );
        }
        match self.user_types.get(word) {
            Some((kind, line)) => format!(
                "`{word}` is a {kind} (line {line}): warpscope's own C has no {kind}s. Run nvcc's code, which has them \
                 (`--nvcc`, or paste its PTX or SASS), or write it as a struct"
            ),
            None => format!("expected a type ({KNOWN_TYPES}), found `{word}`"),
        }
    }

    /// A type: qualifiers, a base type and `*`s.
    fn ty(&mut self) -> PResult<Ty> {
        self.saw_const = false;
        self.vector_read = false;
        self.skip_ignored();
        // `struct Node* p`, as C writes a struct's type.
        if matches!(self.peek(), Tok::Ident(w) if w == "struct" || w == "class")
            && matches!(self.peek_at(1), Tok::Ident(n) if self.is_struct(n))
        {
            self.bump();
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        let start = self.span();
        if let Some(r) = self.struct_here() {
            self.bump();
            return self.pointers(Ty::Struct(r), start);
        }
        if self.host && self.is_word("dim3") {
            self.bump();
            return Ok(Ty::Vector(Scalar::Unsigned, 3));
        }
        // `cudaEvent_t` is a handle the host runner numbers.
        if self.host && (self.is_word("cudaError_t") || self.is_word("cudaEvent_t")) {
            self.bump();
            return self.pointers(Ty::INT, start);
        }
        if self.host && self.is_word("vector") && matches!(self.peek_at(1), Tok::Punct("<")) {
            return self.vector_type(start);
        }
        if let Some(why) = HOST_UNSUPPORTED.iter().find(|(w, _)| self.host && self.is_word(w)).map(|(_, why)| *why) {
            return Err(Diagnostic::error(start, why));
        }
        let named = match self.peek() {
            Tok::Ident(w) => self.typedefs.get(w.as_str()).copied(),
            _ => None,
        };
        if let Some(ty) = named {
            self.bump();
            return self.pointers(ty, start);
        }
        if matches!(self.peek(), Tok::Ident(w) if self.is_struct_template(w)) {
            let r = self.struct_instance()?;
            return self.pointers(Ty::Struct(r), start);
        }
        let base = match self.peek() {
            Tok::Ident(w) => match TYPE_WORDS.iter().find(|(k, _)| k == w) {
                Some(&("unsigned" | "signed" | "long" | "short" | "char", _)) => self.int_type()?,
                Some(&(_, ty)) => {
                    self.bump();
                    ty
                }
                None => match vector_of(w) {
                    Some(Ok((s, n))) => {
                        self.bump();
                        Ty::Vector(s, n)
                    }
                    Some(Err(why)) => return Err(Diagnostic::error(start, why)),
                    None => return Err(Diagnostic::error(start, self.not_a_type(w))),
                },
            },
            t => return Err(Diagnostic::error(start, format!("expected a type ({KNOWN_TYPES}), found {}", describe(t)))),
        };
        self.pointers(base, start)
    }

    /// The `*`s after a type's base, and qualifiers among them.
    fn pointers(&mut self, base: Ty, start: Span) -> PResult<Ty> {
        self.skip_ignored();
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        let mut stars = 0;
        while self.eat("*") {
            stars += 1;
            self.skip_ignored();
        }
        match (stars, base.pointer_to()) {
            (0, _) => Ok(base),
            (1, Some(p)) => Ok(p),
            _ if base == Ty::Void => Err(Diagnostic::error(start, "`void*` is not supported: give the pointer an element type")),
            _ => Err(Diagnostic::error(start, "pointers to pointers are not supported")),
        }
    }

    /// `unsigned`, `signed`, `long`, `long long`, `short`, `char` and `int` in any order
    /// (`unsigned long long int`, `short unsigned`).
    fn int_type(&mut self) -> PResult<Ty> {
        let start = self.span();
        let (mut unsigned, mut signed, mut longs, mut double, mut int) = (false, false, 0, false, false);
        let mut small: Option<&'static str> = None;
        loop {
            match self.peek() {
                Tok::Ident(w) if w == "unsigned" => unsigned = true,
                Tok::Ident(w) if w == "signed" => signed = true,
                Tok::Ident(w) if w == "int" => int = true,
                Tok::Ident(w) if w == "long" => longs += 1,
                Tok::Ident(w) if w == "double" => double = true,
                Tok::Ident(w) if (w == "short" || w == "char") && small.is_some() => {
                    return Err(Diagnostic::error(self.span(), format!("`{w}` after `{}`: a type is one of them", small.unwrap_or(""))));
                }
                Tok::Ident(w) if w == "short" => small = Some("short"),
                Tok::Ident(w) if w == "char" => small = Some("char"),
                _ => break,
            }
            self.bump();
        }
        let scalar = match (small, double, longs, unsigned) {
            (Some(w), true, ..) | (Some(w), _, 1.., _) => {
                return Err(Diagnostic::error(start, format!("`{w}` takes no `long` or `double`")));
            }
            (Some("char"), ..) if int => return Err(Diagnostic::error(start, "`char int` is not a type: write `char` or `int`")),
            (Some("char"), _, _, true) => Scalar::UChar,
            (Some("char"), ..) => Scalar::Char,
            (Some(_), _, _, true) => Scalar::UShort,
            (Some(_), ..) => Scalar::Short,
            (None, true, 1, false) => return Err(Diagnostic::error(start, "`long double` is not supported: use `double`")),
            (None, true, ..) => return Err(Diagnostic::error(start, "`double` takes no `unsigned`, `signed` or `long`")),
            (None, false, 0, false) => Scalar::Int,
            (None, false, 0, true) => Scalar::Unsigned,
            (None, false, _, false) => Scalar::Long,
            (None, false, _, true) => Scalar::ULong,
        };
        if unsigned && signed {
            return Err(Diagnostic::error(start, "a type is `signed` or `unsigned`, not both"));
        }
        Ok(Ty::Scalar(scalar))
    }

    // ----- top level -----

    /// A whole file: device functions and file-scope `__shared__` variables are read, host code
    /// (`main`, helpers, includes' leftovers, structs) is skipped and listed.
    pub fn unit(&mut self) -> Unit {
        let mut unit = Unit::default();
        while *self.peek() != Tok::Eof {
            if self.eat(";") {
                continue;
            }
            let start = self.pos;
            let words = self.item_words();
            let has = |w: &str| words.iter().any(|x| x == w);
            // An explicit instantiation (`template __global__ void k<3>(int*);`) names an
            // instance for the host: it is read as a launch's arguments (`host_launch_args`).
            let instantiation = self.is_word("template") && !matches!(self.peek_at(1), Tok::Punct("<"));
            let result = if instantiation {
                self.recover_top();
                Ok(())
            } else if self.is_word("typedef") && !self.struct_body_ahead() && self.file_typedef() {
                Ok(())
            } else if self.is_word("template") && self.template_is_struct() {
                self.struct_template()
            } else if self.is_word("template") && self.template_is_function() {
                self.template_def().map(|t| {
                    self.templates.insert(t.name.clone());
                    unit.templates.push(t)
                })
            } else if self.host && !has("__global__") && !has("__device__") && self.item_is_function() && self.host_function_ahead() {
                if self.prototype_ahead() {
                    self.recover_top();
                    Ok(())
                } else {
                    self.function().map(|f| unit.funcs.push(f))
                }
            } else if has("__global__") || (has("__device__") && self.item_is_function()) {
                self.function().map(|mut f| {
                    // `operator+` outside a struct: one of several is told apart by its function's name.
                    if f.name.starts_with("operator") {
                        f.name = self.structs.add_free_operator(&f.name, f.params.iter().map(|p| p.ty).collect());
                    }
                    unit.funcs.push(f)
                })
            } else if (has("const") || has("constexpr")) && !self.item_is_function() && self.file_constant() {
                Ok(())
            } else if has("__shared__") || has("__device__") || has("__constant__") || has("__managed__") {
                self.memory_decl().map(|ds| unit.memory.extend(ds))
            } else {
                let span = self.span();
                let name = self.item_name();
                let user_type = self.user_type_here();
                // A struct or class with a body is read; one this C cannot read is skipped as
                // host code, and device code that uses it is told why.
                if matches!(user_type, Some(("struct" | "class", _))) && self.struct_body_ahead() {
                    let (before, made) = (self.structs.clone(), self.made_funcs.len());
                    match self.struct_def() {
                        Ok(funcs) => {
                            unit.funcs.extend(funcs);
                            continue;
                        }
                        Err(d) => {
                            self.pos = start;
                            self.structs = before;
                            self.made_funcs.truncate(made);
                            let key = match &user_type {
                                Some((_, Some(n))) => n.clone(),
                                _ => String::new(),
                            };
                            self.struct_errors.insert(key, d);
                        }
                    }
                }
                self.recover_top();
                if let Some((kind, named)) = user_type {
                    // `typedef struct { ... } Name;`: the name follows the braces.
                    let name = match (named, self.peek().clone(), self.peek_at(1)) {
                        (Some(n), ..) => Some(n),
                        (None, Tok::Ident(n), Tok::Punct(";")) => {
                            self.bump();
                            Some(n)
                        }
                        _ => None,
                    };
                    if let Some(name) = name {
                        if let Some(d) = self.struct_errors.remove("") {
                            self.struct_errors.insert(name.clone(), d);
                        }
                        self.user_types.insert(name, (kind, span.line));
                    }
                }
                let last_line = self.prev_span().line;
                unit.host.push(HostItem { span, last_line, name });
                Ok(())
            };
            if let Err(d) = result {
                self.diags.push(d);
                if self.pos == start {
                    self.recover_top();
                }
            }
        }
        unit.structs = self.structs.clone();
        unit.funcs.append(&mut self.made_funcs);
        unit
    }

    /// Whether the `template <...>` here declares a kernel or device function (its first
    /// bracket after the parameter list is a `(`, and `__global__` or `__device__` comes first).
    fn template_is_function(&self) -> bool {
        let mut k = 0;
        let mut depth = 0;
        loop {
            match self.peek_at(k) {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(">>") => {
                    depth -= 2;
                    if depth <= 0 {
                        break;
                    }
                }
                Tok::Eof | Tok::Punct(";" | "{") => return false,
                _ => {}
            }
            k += 1;
        }
        let mut device = false;
        loop {
            k += 1;
            match self.peek_at(k) {
                Tok::Punct("(") => return device,
                Tok::Ident(w) if w == "__global__" || w == "__device__" => device = true,
                Tok::Punct("{" | ";" | "=" | "[") | Tok::Eof => return false,
                _ => {}
            }
        }
    }

    /// `template <typename T, int N = 32>` and the function after it, kept as tokens to be
    /// instantiated (`template::substitute`).
    fn template_def(&mut self) -> PResult<TemplateDef> {
        let span = self.span();
        self.bump();
        self.expect("<", "after `template`")?;
        let mut params = Vec::new();
        while !self.eat(">") {
            let is_type = self.eat_word("typename") || self.eat_word("class");
            if !is_type {
                let ty = self.ty()?;
                if !matches!(ty, Ty::Scalar(s) if !s.float()) {
                    return Err(Diagnostic::error(
                        self.prev_span(),
                        format!("a template's value parameter is an integer here, not `{}`", ty.name()),
                    ));
                }
            }
            let (name, _) = self.ident("the template parameter's name")?;
            let mut default = Vec::new();
            if self.eat("=") {
                let mut depth = 0;
                while !(depth == 0 && (self.is(",") || self.is(">"))) && *self.peek() != Tok::Eof {
                    match self.peek() {
                        Tok::Punct("(" | "<") => depth += 1,
                        Tok::Punct(")" | ">") => depth -= 1,
                        _ => {}
                    }
                    default.push(self.bump());
                }
            }
            params.push(TemplateParam { name, is_type, default });
            if !self.eat(",") {
                self.expect(">", "to close the template's parameters")?;
                break;
            }
        }
        let start = self.pos;
        let name = self.item_name().unwrap_or_default();
        let kernel = self.item_words().iter().any(|w| w == "__global__");
        self.recover_top();
        let toks = self.toks[start..self.pos].to_vec();
        Ok(TemplateDef { name, kernel, params, toks, span })
    }

    /// `typedef float real;`, `typedef struct node Node;`, `typedef unsigned int uint_t;`: the
    /// name becomes the type. A typedef of anything else (a function pointer, a host type) is left
    /// to be skipped as host code: `false`, with nothing read.
    fn file_typedef(&mut self) -> bool {
        let start = self.pos;
        let read = (|| {
            self.bump();
            let ty = self.ty().ok()?;
            let (name, _) = self.ident("a name").ok()?;
            self.is(";").then_some((name, ty))
        })();
        match read {
            Some((name, ty)) => {
                self.bump();
                self.typedefs.insert(name, ty);
                true
            }
            None => {
                self.pos = start;
                false
            }
        }
    }

    /// `const int N = 256;` at file scope: a constant the kernels may use, read as if it were
    /// a `#define` (a constant that does not evaluate is host code, skipped by the caller).
    fn file_constant(&mut self) -> bool {
        let start = self.pos;
        let diags = self.diags.len();
        let value = (|| {
            let ty = self.ty().ok()?;
            let (name, _) = self.ident("a name").ok()?;
            self.eat("=").then_some(())?;
            let e = self.expr().ok()?;
            self.eat(";").then_some(())?;
            let kind = match (ty, const_number(&e)?) {
                (Ty::Scalar(Scalar::Float), v) => ExprKind::Float(v),
                (Ty::Scalar(s), v) if v == (v as i64) as f64 => ExprKind::Int { value: v as i64 as u64, unsigned: s == Scalar::Unsigned },
                _ => return None,
            };
            Some((name, kind))
        })();
        self.diags.truncate(diags);
        match value {
            Some((name, kind)) => {
                self.consts.insert(name, kind);
                true
            }
            None => {
                self.pos = start;
                false
            }
        }
    }

    /// The words of the top-level item here, up to its first `(`, `{`, `;` or `=`.
    fn item_words(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut k = 0;
        loop {
            match self.peek_at(k) {
                Tok::Ident(w) => out.push(w.clone()),
                Tok::Punct("(" | "{" | ";" | "=") | Tok::Eof => return out,
                _ => {}
            }
            k += 1;
        }
    }

    /// Whether the item here is a function (its first bracket is a `(`).
    fn item_is_function(&self) -> bool {
        let mut k = 0;
        loop {
            match self.peek_at(k) {
                Tok::Punct("(") => return true,
                Tok::Punct("{" | ";" | "=" | "[") | Tok::Eof => return false,
                _ => k += 1,
            }
        }
    }

    /// The name a host item defines: the word before its first `(`, if it has one.
    fn item_name(&self) -> Option<String> {
        let mut k = 0;
        let mut last = None;
        loop {
            match self.peek_at(k) {
                // `__launch_bounds__(256, 2)` is an attribute, not the name.
                Tok::Ident(w) if w == "__launch_bounds__" && *self.peek_at(k + 1) == Tok::Punct("(") => {
                    while !matches!(self.peek_at(k), Tok::Punct(")") | Tok::Eof) {
                        k += 1;
                    }
                }
                Tok::Ident(w) => last = Some(w.clone()),
                Tok::Punct("(") => return last,
                Tok::Punct("{" | ";" | "=") | Tok::Eof => return None,
                _ => {}
            }
            k += 1;
        }
    }

    /// A type definition starting here (`struct Node {`, `class Complex {`, `typedef struct {`):
    /// what it defines and its name, when it comes before the body.
    fn user_type_here(&self) -> Option<(&'static str, Option<String>)> {
        let typedef = self.is_word("typedef");
        let k = usize::from(typedef);
        let kind = match self.peek_at(k) {
            Tok::Ident(w) if w == "struct" => "struct",
            Tok::Ident(w) if w == "class" => "class",
            Tok::Ident(w) if w == "union" => "union",
            _ if typedef => "typedef",
            _ => return None,
        };
        let named = match (self.peek_at(k + 1), self.peek_at(k + 2)) {
            (Tok::Ident(n), Tok::Punct("{" | ":")) if kind != "typedef" => Some(n.clone()),
            _ => None,
        };
        Some((kind, named))
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

    /// `__launch_bounds__(256, 2)`: a hint for the register allocator, nothing to model.
    fn launch_bounds(&mut self) -> PResult<()> {
        self.bump();
        let open = self.expect("(", "after `__launch_bounds__`")?;
        while !self.is(")") && *self.peek() != Tok::Eof {
            self.bump();
        }
        self.close(open, "to close `__launch_bounds__(...)`")?;
        Ok(())
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
            } else if self.eat_word("__host__") || self.eat_word("friend") {
            } else if self.is_word("__launch_bounds__") {
                self.launch_bounds()?;
            } else if matches!(self.peek(), Tok::Ident(w) if IGNORED.contains(&w.as_str())) || matches!(self.peek(), Tok::Str(_)) {
                // Qualifiers, and the `"C"` of `extern "C"`.
                self.bump();
            } else {
                break;
            }
        }
        if let Some(d) = self.unsupported_here() {
            return Err(d);
        }
        if !kernel && !device && !self.host {
            return Err(Diagnostic::error(
                self.span(),
                format!("expected a `__global__` kernel or a `__device__` function, found {}", describe(self.peek())),
            ));
        }
        let ret = self.ty()?;
        if self.is_word("__launch_bounds__") {
            self.launch_bounds()?;
        }
        let name = if self.eat_word("operator") { self.operator_name()? } else { self.ident("a function name")?.0 };
        if kernel && ret != Ty::Void {
            return Err(Diagnostic::error(start, format!("a `__global__` kernel returns `void`, not `{}`", ret.name())));
        }
        self.expect("(", "after the function name")?;
        let host = !kernel && !device;
        let params = if host && name == "main" { self.main_params()? } else { self.param_list(kernel)? };
        self.expect(")", "after the parameters")?;
        if self.eat(";") {
            return Err(Diagnostic::error(
                start,
                "function declarations without a body are not supported: define the function before its use",
            ));
        }
        self.expect("{", "to open the function body")?;
        // A function's `const` locals are constants inside it only.
        let (file_consts, outer_locals) = (self.consts.clone(), core::mem::take(&mut self.local_consts));
        let body = self.block_items();
        self.consts = file_consts;
        self.local_consts = outer_locals;
        self.expect("}", "to close the function body")?;
        Ok(Function { name, kernel, host, ret, params, body, span: start })
    }

    /// `main`'s parameters, `(int argc, char** argv)` or none: skipped (the program runs with
    /// no arguments, as `./a.out` does).
    fn main_params(&mut self) -> PResult<Vec<Param>> {
        while !self.is(")") && *self.peek() != Tok::Eof {
            self.bump();
        }
        Ok(Vec::new())
    }

    /// Whether the function item here is host code: a definition or prototype of a function
    /// whose words name no CUDA qualifier (`int main()`, `void init(float* a, int n)`,
    /// `static inline bool check(...)`), not a struct or a typedef.
    fn host_function_ahead(&self) -> bool {
        !self.is_word("typedef") && !self.is_word("struct") && !self.is_word("class") && !self.is_word("template") && !self.is_word("using")
    }

    /// Whether the function item here ends at a `;` (a prototype) before any `{`.
    fn prototype_ahead(&self) -> bool {
        let mut k = 0;
        let mut depth = 0i32;
        loop {
            match self.peek_at(k) {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => depth -= 1,
                Tok::Punct(";") if depth == 0 => return true,
                Tok::Punct("{") if depth == 0 => return false,
                Tok::Eof => return true,
                _ => {}
            }
            k += 1;
        }
    }

    /// A function's parameters, after its `(` and up to its `)`. A `const T&` is passed as a
    /// value (nothing comes back from it).
    fn param_list(&mut self, kernel: bool) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        let empty = self.is(")") || (self.is_word("void") && matches!(self.peek_at(1), Tok::Punct(")")));
        if !empty {
            loop {
                let mut ty = self.ty()?;
                if ty == Ty::Void {
                    return Err(Diagnostic::error(self.prev_span(), "a parameter cannot be `void`"));
                }
                if self.vector_read && !self.is("&") {
                    return Err(Diagnostic::error(
                        self.span(),
                        "a vector passed by value is not supported (it would be copied): pass it by reference, `const std::vector<T>&`",
                    ));
                }
                // `unsigned int &state`: a reference, which a kernel cannot take (the host passes
                // values).
                let by_ref = self.is("&") && !self.saw_const;
                if by_ref {
                    if kernel {
                        return Err(Diagnostic::error(
                            self.span(),
                            "a kernel's parameter cannot be a reference (the host passes values): pass a pointer",
                        ));
                    }
                    self.eat("&");
                }
                self.eat("&");
                let (pname, span) = self.ident("a parameter name")?;
                // `int a[]` (or `int a[N]`) is the pointer `int* a`, as in C.
                if self.is("[") {
                    let span = self.span();
                    ty = ty
                        .pointer_to()
                        .filter(|_| !ty.is_pointer())
                        .ok_or_else(|| Diagnostic::error(span, "an array of pointers as a parameter is not supported: pass a pointer"))?;
                    self.bump();
                    while !self.eat("]") {
                        if *self.peek() == Tok::Eof {
                            return Err(Diagnostic::error(span, "expected `]` to close the array parameter"));
                        }
                        self.bump();
                    }
                    if self.is("[") {
                        return Err(Diagnostic::error(
                            self.span(),
                            "a parameter of more than one dimension is not supported: pass a pointer and index it `a[i * n + j]`",
                        ));
                    }
                }
                let default = if self.eat("=") {
                    if kernel {
                        return Err(Diagnostic::error(
                            self.prev_span(),
                            "a kernel's parameter has no default: the host passes every argument",
                        ));
                    }
                    Some(self.bare_expr()?)
                } else {
                    None
                };
                params.push(Param { ty, name: pname, span, by_ref, default });
                if !self.eat(",") {
                    break;
                }
            }
        } else {
            self.eat_word("void");
        }
        Ok(params)
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
        self.nested_by(STATEMENT_LEVELS, Self::statement_inner)
    }

    /// Runs `f` one nesting level deeper, or refuses when the input nests too deeply.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.nested_by(EXPR_LEVELS, f)
    }

    /// Runs `f` `levels` nesting levels deeper, or refuses when the input nests too deeply.
    fn nested_by<T>(&mut self, levels: u32, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth + levels > MAX_DEPTH {
            return Err(self.too_deep(self.span()));
        }
        self.depth += levels;
        let r = f(self);
        self.depth -= levels;
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
                    // `i++, j--`: the comma of a loop's increments (the one place course
                    // kernels use the comma operator).
                    let mut step = Vec::new();
                    if !self.is(")") {
                        step.push(self.assignment()?.0);
                        while self.eat(",") {
                            step.push(self.assignment()?.0);
                        }
                    }
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
                _ if self.host && self.launch_ahead() => self.launch()?,
                "delete" if self.host => self.delete_stmt()?,
                "cout" | "cerr" | "clog" if self.host && matches!(self.peek_at(1), Tok::Punct("<<")) => self.stream_stmt()?,
                _ => self.expr_statement()?,
            },
            _ => self.expr_statement()?,
        };
        Ok(Stmt { kind, span })
    }

    fn expr_statement(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect(";", "after the expression")?;
        if let ExprKind::Call { name, args } = &e.kind {
            if name == "assert" && args.len() == 1 {
                return Ok(self.assertion(&args[0], e.span));
            }
        }
        Ok(StmtKind::Expr(e))
    }

    /// `assert(cond)` as CUDA runs it: the lanes where `cond` is false print which thread failed
    /// and what, then trap (the kernel aborts and the host sees the error).
    fn assertion(&self, cond: &Expr, span: Span) -> StmtKind {
        let text = self.text(cond.span).replace('%', "%%");
        let format = format!(
            "line {}: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `{}` failed.\n",
            span.line,
            if text.is_empty() { "the condition" } else { &text }
        );
        let expr = |kind| Expr { kind, span };
        let mut args = alloc::vec![expr(ExprKind::Str(format))];
        args.extend((0..3).map(|d| expr(ExprKind::Special(Special::BlockIdx(d)))));
        args.extend((0..3).map(|d| expr(ExprKind::Special(Special::ThreadIdx(d)))));
        let call = |name: &str, args| Stmt { kind: StmtKind::Expr(expr(ExprKind::Call { name: name.to_string(), args })), span };
        StmtKind::If {
            cond: expr(ExprKind::Unary(UnOp::Not, Box::new(cond.clone()))),
            then: Box::new(Stmt { kind: StmtKind::Block(alloc::vec![call("printf", args), call("__trap", Vec::new())]), span }),
            els: None,
        }
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

    /// `float2 v = {1.0f, 2.0f}`: a `make_float2` of the listed values, the rest zero, as C fills
    /// an aggregate.
    fn vector_init(&mut self, s: Scalar, n: u8) -> PResult<Expr> {
        let start = self.bump().span;
        let mut args = Vec::new();
        while !self.is("}") {
            if args.len() == n as usize {
                return Err(Diagnostic::error(self.span(), format!("`{}` has {n} components: too many values", Ty::Vector(s, n).name())));
            }
            args.push(self.assignment()?.0);
            if !self.eat(",") {
                break;
            }
        }
        let end = self.expect("}", "to close the vector's values")?;
        let span = join(start, end);
        while args.len() < n as usize {
            args.push(Expr { kind: ExprKind::Int { value: 0, unsigned: false }, span });
        }
        Ok(Expr { kind: ExprKind::Call { name: format!("make_{}", Ty::Vector(s, n).name()), args }, span })
    }

    /// A `dim3`'s sizes, `(x[, y[, z]])` or `{...}` or none: each one not given is 1.
    fn dim3_value(&mut self, span: Span) -> PResult<Expr> {
        let mut args = Vec::new();
        let close = if self.eat("(") {
            Some(")")
        } else if self.eat("{") {
            Some("}")
        } else {
            None
        };
        if let Some(close) = close {
            while !self.is(close) {
                if args.len() == 3 {
                    return Err(Diagnostic::error(self.span(), "a `dim3` has three sizes, x, y and z: too many values"));
                }
                args.push(self.assignment()?.0);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(close, "to close the `dim3`'s sizes")?;
        }
        while args.len() < 3 {
            args.push(Expr { kind: ExprKind::Int { value: 1, unsigned: true }, span });
        }
        Ok(Expr { kind: ExprKind::Call { name: String::from("make_uint3"), args }, span })
    }

    fn declaration(&mut self) -> PResult<Stmt> {
        let span = self.span();
        if self.shared_ahead() {
            return Ok(Stmt { kind: StmtKind::Shared(self.memory_decl()?), span });
        }
        let dim3 = self.host && self.is_word("dim3");
        let array_ahead = self.host && self.local_array_ahead();
        let start = self.pos;
        let base = self.ty()?;
        let (vector, constant) = (self.vector_read, self.saw_const);
        // An array in host code lives in host memory, as a `__device__` one in device memory:
        // one of numbers is read below with the declaration's other names (`int h[64], *d;`),
        // one of structs or CUDA vectors as a memory declaration.
        if array_ahead && !matches!(base, Ty::Scalar(_) | Ty::Ptr(_)) {
            self.pos = start;
            return Ok(Stmt { kind: StmtKind::Shared(self.memory_decl_in(Some(Space::Host))?), span });
        }
        let mut arrays = Vec::new();
        if base == Ty::Void {
            return Err(Diagnostic::error(span, "a variable cannot be `void`"));
        }
        let mut vars = Vec::new();
        // `float *a, *b, c;`: the first star was read with the type; each name has its own.
        let stars_read = self.toks.get(self.pos.wrapping_sub(1)).is_some_and(|t| t.tok == Tok::Punct("*"));
        let unstarred = if stars_read { base.pointee_ty().unwrap_or(base) } else { base };
        loop {
            // `int *p` binds the star to the name.
            let mut ty = if vars.is_empty() { base } else { unstarred };
            if !vars.is_empty() && self.eat("*") {
                ty = unstarred.pointer_to().ok_or_else(|| Diagnostic::error(self.prev_span(), "pointers to pointers are not supported"))?;
            } else if self.eat("*") {
                ty = base.pointer_to().ok_or_else(|| Diagnostic::error(self.prev_span(), "pointers to pointers are not supported"))?;
            }
            let (name, nspan) = self.ident("a variable name")?;
            if let (true, true, Ty::Scalar(elem)) = (self.host, self.is("["), ty) {
                self.pos -= 1;
                arrays.push(self.memory_declarator(Space::Host, elem)?);
                if !self.eat(",") {
                    break;
                }
                continue;
            }
            if self.is("[") {
                return Err(Diagnostic::error(self.span(), "local arrays are not supported: use a buffer parameter"));
            }
            if vector {
                let init = self.std_vector_init(ty, &name, nspan)?;
                vars.push((ty, name, nspan, Some(init)));
                if !self.eat(",") {
                    break;
                }
                continue;
            }
            let init = match (self.eat("="), ty) {
                // `dim3 grid(16, 16);`, `dim3 block;`: components not given are 1.
                (false, _) if dim3 && ty == base => Some(self.dim3_value(nspan)?),
                (true, Ty::Vector(s, n)) if self.is("{") => Some(self.vector_init(s, n)?),
                // `Node n = {1, 2};`, and `cuComplex c(a, b);` or `c{a, b}` calling its constructor.
                (true, Ty::Struct(_)) if self.is("{") => Some(self.struct_args(ty, nspan)?.0),
                (false, Ty::Struct(_)) if self.is("(") || self.is("{") => Some(self.struct_args(ty, nspan)?.0),
                (true, _) => Some(self.assignment()?.0),
                (false, _) => None,
            };
            vars.push((ty, name, nspan, init));
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after the declaration")?;
        // `const int n = 128;` is a constant where sizes are read (`float h[n]`), as in C++;
        // another variable of its name after it is that variable.
        for (ty, name, _, init) in &vars {
            match (constant, ty, init.as_ref().and_then(const_int)) {
                (true, Ty::Scalar(s), Some(v)) if !s.float() => {
                    self.consts.insert(name.clone(), ExprKind::Int { value: v as u64, unsigned: s.unsigned() });
                    self.local_consts.push(name.clone());
                }
                _ if self.local_consts.contains(name) => {
                    self.consts.remove(name);
                }
                _ => {}
            }
        }
        let decl = Stmt { kind: StmtKind::Decl(vars), span };
        if arrays.is_empty() {
            return Ok(decl);
        }
        Ok(Stmt { kind: StmtKind::Seq(alloc::vec![Stmt { kind: StmtKind::Shared(arrays), span }, decl]), span })
    }

    /// Whether the declaration here is `__shared__` (among its qualifiers).
    fn shared_ahead(&self) -> bool {
        let mut k = 0;
        while let Tok::Ident(w) = self.peek_at(k) {
            if w == "__shared__" {
                return true;
            }
            if !IGNORED.contains(&w.as_str()) {
                return false;
            }
            k += 1;
        }
        false
    }

    /// `__shared__ float s[N][M];`, `__shared__ int count;`, `extern __shared__ float s[];`, and at
    /// file scope `__constant__ float mask[5] = {...};` or `__device__ int counter;`; several
    /// variables of one declaration (`__constant__ float a, b[4];`) one after another.
    fn memory_decl(&mut self) -> PResult<Vec<MemoryDecl>> {
        self.memory_decl_in(None)
    }

    /// A memory declaration whose space is `preset` unless a qualifier says otherwise.
    fn memory_decl_in(&mut self, preset: Option<Space>) -> PResult<Vec<MemoryDecl>> {
        let start = self.span();
        let mut space = None;
        loop {
            let found = [Space::Shared, Space::Constant, Space::Global].into_iter().find(|s| self.is_word(s.qualifier()));
            if let Some(s) = found.or_else(|| self.is_word("__managed__").then_some(Space::Global)) {
                self.bump();
                // `__device__ __constant__` is constant memory.
                space = Some(if space == Some(Space::Constant) { Space::Constant } else { s });
                continue;
            }
            match self.peek() {
                Tok::Ident(w) if IGNORED.contains(&w.as_str()) => {
                    self.bump();
                }
                _ => break,
            }
        }
        let space = space.or(preset).unwrap_or(Space::Shared);
        let q = space.qualifier();
        let ty = self.ty()?;
        // A vector type's variable (`__shared__ float3 pts[32]`): its components in a row; a
        // struct's, its fields' scalars (or its words or bytes) in a row.
        let mut strukt = None;
        let (ty, width) = match ty {
            Ty::Vector(s, n) => (Ty::Scalar(s), n),
            Ty::Struct(r) => {
                let s = self.structs.buffer_scalar(r);
                let n = r.bytes as u32 / s.bytes();
                if n > 255 {
                    return Err(Diagnostic::error(
                        start,
                        format!("a `{q}` array of `{}` is not supported: its elements are over 255 words", self.structs.name_of(ty)),
                    ));
                }
                strukt = Some(r);
                (Ty::Scalar(s), n as u8)
            }
            t => (t, 1),
        };
        let Ty::Scalar(elem) = ty else {
            return Err(Diagnostic::error(
                start,
                format!(
                    "a `{q}` variable holds a number (`int`, `char`, `float`, `double`, `long long`...) or `bool`, not `{}`",
                    ty.name()
                ),
            ));
        };
        let mut decls = Vec::new();
        loop {
            let d = self.memory_declarator(space, elem)?;
            if let (true, Some(values)) = (width > 1, &d.init) {
                return Err(Diagnostic::error(
                    values.first().map_or(d.span, |v| v.span),
                    format!(
                        "`{}`'s initialiser: an array of `{}` with one is not supported; declare its components as a `{}` array ({width} per element, `{q} {} {}[] = {{...}}`) and read them by index",
                        d.name,
                        strukt.map_or(String::from(Ty::Vector(elem, width).name()), |r| self.structs.name_of(Ty::Struct(r))),
                        Ty::Scalar(elem).name(),
                        Ty::Scalar(elem).name(),
                        d.name
                    ),
                ));
            }
            decls.push(MemoryDecl { width, strukt, ..d });
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after the declaration")?;
        Ok(decls)
    }

    /// One variable of a memory declaration: its name, sizes and initialiser.
    fn memory_declarator(&mut self, space: Space, elem: Scalar) -> PResult<MemoryDecl> {
        let q = space.qualifier();
        let (name, span) = self.ident("the variable's name")?;
        let mut dims = Vec::new();
        while self.eat("[") {
            if self.eat("]") {
                // The first dimension of a shared array (`extern`), or of one whose initialiser
                // gives its size, may be open.
                if !dims.is_empty() || (space != Space::Shared && !self.is("[") && !self.is("=")) {
                    let what = if space == Space::Shared {
                        "only the first dimension of a shared array"
                    } else {
                        "only the first dimension, and only with an initialiser,"
                    };
                    return Err(Diagnostic::error(self.prev_span(), format!("{what} may be left open: give its size")));
                }
                dims.push(None);
                continue;
            }
            let e = self.expr()?;
            let n = const_int(&e)
                .filter(|n| (1..=(1 << 20)).contains(n))
                .ok_or_else(|| Diagnostic::error(e.span, "an array's size is a constant from 1 to 1048576 (a number or a `#define`)"))?;
            self.expect("]", "to close the array size")?;
            dims.push(Some(n as u32));
        }
        if dims.len() > 3 {
            return Err(Diagnostic::error(span, format!("`{q}` arrays have at most three dimensions")));
        }
        // Every later product of the sizes fits in 32 bits.
        let elements: u64 = dims.iter().map(|d| d.unwrap_or(1) as u64).product();
        if elements > 1 << 20 {
            return Err(Diagnostic::error(span, format!("`{name}` has {elements} elements; an array holds at most 1048576")));
        }
        let init = if self.is("=") {
            if space == Space::Shared {
                return Err(Diagnostic::error(self.span(), "a `__shared__` variable cannot have an initialiser (CUDA does not allow one)"));
            }
            self.bump();
            let mut values = Vec::new();
            // One element of each brace level: a row of a 2-D array, one value of its last level.
            let strides: Vec<u32> = (1..dims.len()).map(|k| dims[k..].iter().map(|d| d.unwrap_or(1)).product()).collect();
            self.initialiser(&mut values, &strides)?;
            // `char s[] = "warp"`: the text's bytes and a terminating zero, as in C.
            if let ([Expr { kind: ExprKind::Str(text), span }], Some((8, _))) = (values.as_slice(), elem.narrow()) {
                let (text, span) = (text.clone(), *span);
                values = text.bytes().chain([0]).map(|b| Expr { kind: ExprKind::Int { value: b as u64, unsigned: false }, span }).collect();
            }
            Some(values)
        } else {
            None
        };
        if let (Some(None), Some(values)) = (dims.first(), &init) {
            if space != Space::Shared {
                let inner: u32 = dims[1..].iter().map(|d| d.unwrap_or(1)).product();
                dims[0] = Some((values.len() as u32).div_ceil(inner.max(1)).max(1));
            }
        }
        if space != Space::Shared && dims.first() == Some(&None) {
            return Err(Diagnostic::error(span, format!("`{name}[]` needs a size or an initialiser to give it one")));
        }
        Ok(MemoryDecl { space, elem, width: 1, strukt: None, name, dims, init, span })
    }

    /// `5` or `{{1, 2}, {3}}`: the values in row-major order. `strides` are the sizes of one
    /// element at each brace level (`[2, 1]` for `int a[3][2]`; none for a list of scalars).
    fn initialiser(&mut self, out: &mut Vec<Expr>, strides: &[u32]) -> PResult<()> {
        if !self.eat("{") {
            out.push(self.assignment()?.0);
            return Ok(());
        }
        self.braced(out, strides)
    }

    /// The rest of a `{...}`. As in C, a braced list that starts an
    /// element of this level (a row) initialises that element alone and its missing values
    /// are zeros; values without braces fill on in order (brace elision).
    fn braced(&mut self, out: &mut Vec<Expr>, strides: &[u32]) -> PResult<()> {
        let start = out.len();
        let elem = strides.first().copied().unwrap_or(1) as usize;
        while !self.eat("}") {
            let at = self.span();
            if self.eat("{") {
                let pos = out.len() - start;
                if elem > 1 && pos.is_multiple_of(elem) {
                    self.nested(|p| p.braced(out, &strides[1..]))?;
                    let filled = out.len() - start - pos;
                    if filled > elem {
                        return Err(Diagnostic::error(at, format!("this row has {filled} values; it holds {elem}")));
                    }
                    let zero = Expr { kind: ExprKind::Int { value: 0, unsigned: false }, span: at };
                    out.resize(start + pos + elem, zero);
                } else {
                    // Braces around one value, or inside a row that values began.
                    self.nested(|p| p.braced(out, &[]))?;
                }
            } else {
                out.push(self.assignment()?.0);
            }
            if !self.eat(",") {
                self.expect("}", "to close the initialiser")?;
                break;
            }
        }
        Ok(())
    }

    // ----- expressions -----

    fn too_deep(&self, span: Span) -> Diagnostic {
        match self.dialect {
            Dialect::Header => Diagnostic::error(span, "expression nested too deeply"),
            Dialect::Cuda => Diagnostic::error(span, format!("nested more than {MAX_DEPTH} levels deep")),
        }
    }

    /// A node of height `height`, refused when taller than the limit (`1+1+...` is left-deep).
    fn node(&self, kind: ExprKind, span: Span, height: u32) -> PResult<Node> {
        if height > MAX_DEPTH {
            return Err(self.too_deep(span));
        }
        Ok((Expr { kind, span }, height))
    }

    /// How a message names a token: as written in a header expression.
    fn describe(&self, t: &Token) -> String {
        match (self.dialect, &t.tok) {
            (Dialect::Header, Tok::Eof) => "the end of the expression".to_string(),
            (Dialect::Header, _) => format!("`{}`", self.text(t.span)),
            (Dialect::Cuda, tok) => describe(tok),
        }
    }

    /// The text a one-line span covers.
    fn text(&self, span: Span) -> String {
        let line = self.src.lines().nth(span.line.saturating_sub(1) as usize).unwrap_or("");
        line.chars().skip(span.col.saturating_sub(1) as usize).take(span.len as usize).collect()
    }

    /// The `?` at `q` has no `:` where one is due.
    fn no_colon(&mut self, q: Span) -> Diagnostic {
        if self.in_header() {
            let next = self.next_token().clone();
            return Diagnostic::error(q, format!("this `?` has no `:`: expected `:` before {}", self.describe(&next)));
        }
        self.expect(":", "in `?:`").err().unwrap_or_else(|| Diagnostic::error(q, "expected `:` in `?:`"))
    }

    /// The `)` that closes the `(` at `open`.
    fn close(&mut self, open: Span, what: &str) -> PResult<Span> {
        if self.in_header() && !self.is(")") {
            let next = self.next_token().clone();
            return Err(Diagnostic::error(open, format!("this `(` is never closed: expected `)` before {}", self.describe(&next))));
        }
        self.expect(")", what)
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        self.expr_node().map(|n| n.0)
    }

    fn expr_node(&mut self) -> PResult<Node> {
        let e = self.assignment()?;
        if self.is(",") && !self.in_header() {
            return Err(Diagnostic::error(self.span(), "the comma operator is not supported"));
        }
        Ok(e)
    }

    /// One expression, stopping before the first token that cannot continue it; the caller
    /// says what may follow. The entry point for header expressions.
    pub fn bare_expr(&mut self) -> PResult<Expr> {
        self.assignment().map(|n| n.0)
    }

    fn assignment(&mut self) -> PResult<Node> {
        self.nested_by(EXPR_LEVELS, Self::assignment_inner)
    }

    fn assignment_inner(&mut self) -> PResult<Node> {
        let (lhs, dl) = self.ternary()?;
        let op = match self.peek() {
            Tok::Punct("=") => None,
            Tok::Punct(p) => match compound_op(p) {
                Some(op) => Some(op),
                None => return Ok((lhs, dl)),
            },
            _ => return Ok((lhs, dl)),
        };
        self.bump();
        let (rhs, dr) = self.assignment()?;
        let span = join(lhs.span, rhs.span);
        self.node(ExprKind::Assign { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span, 1 + dl.max(dr))
    }

    fn ternary(&mut self) -> PResult<Node> {
        let (c, dc) = self.binary(0)?;
        if !self.is("?") {
            return Ok((c, dc));
        }
        let q = self.bump().span;
        let (a, da) = self.assignment()?;
        if !self.is(":") {
            return Err(self.no_colon(q));
        }
        self.bump();
        let (b, db) = self.nested(Self::ternary)?;
        let span = join(c.span, b.span);
        self.node(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)), span, 1 + dc.max(da).max(db))
    }

    /// Precedence climbing over the binary operators, `||` lowest; a loop for left
    /// associativity, so chains do not recurse.
    fn binary(&mut self, min_prec: u8) -> PResult<Node> {
        let (mut lhs, mut d) = self.unary()?;
        while let Tok::Punct(p) = self.peek() {
            let Some((op, prec)) = Infix::from_symbol(p) else { break };
            if prec < min_prec {
                break;
            }
            self.bump();
            let (rhs, dr) = self.binary(prec + 1)?;
            let span = join(lhs.span, rhs.span);
            let kind = match op {
                Infix::Logical { and } => ExprKind::Logical { and, lhs: Box::new(lhs), rhs: Box::new(rhs) },
                Infix::Op(op) => ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            };
            (lhs, d) = self.node(kind, span, 1 + d.max(dr))?;
        }
        Ok((lhs, d))
    }

    /// Prefix operators, each one nesting level; casts; then postfix expressions.
    fn unary(&mut self) -> PResult<Node> {
        let span = self.span();
        let c = !self.in_header();
        let kind: fn(Box<Expr>) -> ExprKind = match self.peek() {
            Tok::Punct("-") => |e| ExprKind::Unary(UnOp::Neg, e),
            Tok::Punct("!") => |e| ExprKind::Unary(UnOp::Not, e),
            Tok::Punct("~") => |e| ExprKind::Unary(UnOp::BitNot, e),
            Tok::Punct("+") if c => {
                self.bump();
                return self.nested(Self::unary);
            }
            // `*this` is the object itself (`this` is no pointer here).
            Tok::Punct("*") if c && matches!(self.peek_at(1), Tok::Ident(w) if w == "this") => {
                self.bump();
                return self.postfix();
            }
            Tok::Punct("*") if c => ExprKind::Deref,
            Tok::Punct("&") if c => ExprKind::AddrOf,
            Tok::Punct("++") => |e| ExprKind::IncDec { inc: true, prefix: true, target: e },
            Tok::Punct("--") => |e| ExprKind::IncDec { inc: false, prefix: true, target: e },
            Tok::Punct("(") if c && self.cast_ahead() => return self.nested(Self::cast),
            // `(void**)&d_a`, `(void*)p`: the runtime's calls take any pointer as it is.
            Tok::Punct("(")
                if c && self.host
                    && matches!(self.peek_at(1), Tok::Ident(w) if w == "void")
                    && matches!(self.peek_at(2), Tok::Punct("*")) =>
            {
                self.bump();
                self.bump();
                while self.eat("*") {}
                self.expect(")", "to close the cast")?;
                return self.nested(Self::unary);
            }
            Tok::Ident(w) if c && self.host && w == "new" => return self.nested(Self::new_expr),
            Tok::Ident(w) if c && self.host && w == "dim3" && matches!(self.peek_at(1), Tok::Punct("(" | "{")) => {
                self.bump();
                let e = self.dim3_value(span)?;
                return Ok((e, 1));
            }
            Tok::Ident(w) if c && matches!(w.as_str(), "static_cast" | "reinterpret_cast" | "const_cast") => {
                return self.nested(Self::named_cast);
            }
            // A struct's constructor called as a value: `cuComplex(a, b)`.
            Tok::Ident(w) if c && self.is_struct(w) && matches!(self.peek_at(1), Tok::Punct("(" | "{")) => {
                return self.nested(Self::construct);
            }
            Tok::Ident(w) if c && self.is_struct_template(w) && matches!(self.peek_at(1), Tok::Punct("<")) => {
                return self.nested(Self::construct);
            }
            // C++'s functional cast, `float(t)` (a template's `T(4.0)` once `T` is a type).
            Tok::Ident(w)
                if c && (is_type_word(w) || self.typedefs.contains_key(w.as_str()))
                    && w != "void"
                    && matches!(self.peek_at(1), Tok::Punct("(")) =>
            {
                return self.nested(Self::functional_cast);
            }
            _ => return self.postfix(),
        };
        self.nested(|p| {
            p.bump();
            let (e, d) = p.unary()?;
            let span = join(span, e.span);
            p.node(kind(Box::new(e)), span, d + 1)
        })
    }

    fn cast(&mut self) -> PResult<Node> {
        let span = self.bump().span;
        let ty = self.ty()?;
        self.expect(")", "to close the cast")?;
        let (e, d) = self.unary()?;
        let span = join(span, e.span);
        self.node(ExprKind::Cast(ty, Box::new(e)), span, d + 1)
    }

    /// C++'s `static_cast<T>(e)` (and `reinterpret_cast`, `const_cast`): the cast `(T)(e)`.
    fn named_cast(&mut self) -> PResult<Node> {
        let (name, span) = self.ident("a cast")?;
        self.expect("<", &format!("after `{name}`"))?;
        let ty = self.ty()?;
        self.expect(">", &format!("to close `{name}`'s type"))?;
        self.expect("(", &format!("after `{name}<...>`"))?;
        let (e, d) = self.expr_node()?;
        let end = self.expect(")", &format!("to close `{name}`"))?;
        self.node(ExprKind::Cast(ty, Box::new(e)), join(span, end), d + 1)
    }

    /// `T(e)`: the cast `(T)(e)`.
    fn functional_cast(&mut self) -> PResult<Node> {
        let span = self.span();
        let ty = self.ty()?;
        self.expect("(", "after the type of a functional cast")?;
        let (e, d) = self.expr_node()?;
        let end = self.expect(")", "to close the functional cast")?;
        self.node(ExprKind::Cast(ty, Box::new(e)), join(span, end), d + 1)
    }

    fn cast_ahead(&self) -> bool {
        matches!(self.peek_at(1), Tok::Ident(w) if w == "const" || w == "struct" || self.is_struct(w) || self.typedefs.contains_key(w.as_str()) || (is_type_word(w) && w != "void"))
    }

    fn postfix(&mut self) -> PResult<Node> {
        let (mut e, mut d) = self.atom()?;
        loop {
            if self.eat("[") {
                let (i, di) = self.expr_node()?;
                let end = self.expect("]", "to close the index")?;
                let span = join(e.span, end);
                (e, d) = self.node(ExprKind::Index(Box::new(e), Box::new(i)), span, 1 + d.max(di))?;
            } else if let Tok::Punct(p @ ("++" | "--")) = self.peek() {
                let inc = *p == "++";
                let end = self.bump().span;
                let span = join(e.span, end);
                (e, d) = self.node(ExprKind::IncDec { inc, prefix: false, target: Box::new(e) }, span, d + 1)?;
            } else if (self.is(".") || self.is("->")) && !self.in_header() {
                (e, d) = self.member_access(e, d)?;
            } else {
                return Ok((e, d));
            }
        }
    }

    /// A vector's component or a struct's field (`v.x`, `n.starting`, `p->w`), or a member
    /// function's call (`a.magnitude2()`), after `e`; the lowering checks which the type has, and
    /// names the built-in a misspelt one (`blockIdy.x`) was meant to be. Apart from `postfix`,
    /// whose frame every nested expression holds.
    #[inline(never)]
    fn member_access(&mut self, e: Expr, d: u32) -> PResult<Node> {
        let arrow = self.is("->");
        self.bump();
        let (field, fspan) = self.ident("a field's name")?;
        let span = join(e.span, fspan);
        // `this->r` is the object's field: `this` is the object here, not a pointer.
        let this = matches!(&e.kind, ExprKind::Var(n) if n == "this");
        let base = if arrow && !this { Expr { kind: ExprKind::Deref(Box::new(e)), span } } else { e };
        if !self.is("(") {
            return self.node(ExprKind::Member(Box::new(base), field), span, d + 2);
        }
        let (call, dc) = self.call(field.clone(), fspan)?;
        let ExprKind::Call { args, .. } = call.kind else { return Ok((call, dc)) };
        let span = join(span, call.span);
        let call = MethodCall { obj: base, name: field, args };
        self.node(ExprKind::Method(Box::new(call)), span, d.max(dc) + 2)
    }

    /// A parenthesized expression, a call, or a leaf (`primary`). Kept apart from `primary`, whose
    /// frame is large, so that nesting through them uses little stack.
    fn atom(&mut self) -> PResult<Node> {
        if !self.in_header() && self.is_word("sizeof") {
            return self.size_of();
        }
        let call = match (self.peek(), self.peek_at(1)) {
            (Tok::Punct("("), _) => return self.paren(),
            (Tok::Ident(w), Tok::Punct("<")) if !self.in_header() && self.templates.contains(w) => return self.template_call(),
            (Tok::Ident(w), Tok::Punct("(")) => {
                self.in_header() || !(is_keyword(w) || matches!(w.as_str(), "threadIdx" | "blockDim" | "blockIdx" | "gridDim" | "laneid"))
            }
            _ => false,
        };
        if !call {
            return self.primary();
        }
        let t = self.bump();
        let Tok::Ident(name) = t.tok else { return self.primary() };
        self.call(name, t.span)
    }

    /// `sizeof(float)` is a `size_t` constant; `sizeof x` and `sizeof(x)` are a call of
    /// `sizeof` the lowering answers from `x`'s type.
    fn size_of(&mut self) -> PResult<Node> {
        let start = self.bump().span;
        let of_type = self.is("(")
            && matches!(self.peek_at(1), Tok::Ident(w) if is_type_word(w) || self.is_struct(w) || self.typedefs.contains_key(w.as_str()) || w == "struct" || IGNORED.contains(&w.as_str()));
        if !of_type {
            let (e, d) = self.unary()?;
            let span = join(start, e.span);
            return self.node(ExprKind::Call { name: "sizeof".to_string(), args: alloc::vec![e] }, span, d + 1);
        }
        self.bump();
        let ty = self.ty()?;
        let end = self.close(start, "to close `sizeof(`")?;
        let span = join(start, end);
        let Some(bytes) = ty.size_of() else {
            return Err(Diagnostic::error(span, format!("`sizeof({})`: `{}` has no size", ty.name(), ty.name())));
        };
        let inner = self.node(ExprKind::Int { value: bytes, unsigned: true }, span, 1)?.0;
        self.node(ExprKind::Cast(Ty::ULONG, Box::new(inner)), span, 2)
    }

    /// `warpReduce<blockSize>(s, tid)`: a call of the instance the arguments name (each a type,
    /// or a constant written without `<` and `>`).
    fn template_call(&mut self) -> PResult<Node> {
        let (name, span) = self.ident("a template's name")?;
        self.bump();
        let args = self.template_args(&name)?;
        if !self.is("(") {
            return Err(Diagnostic::error(span, format!("`{name}<...>` is called here: write its arguments, `{name}<...>(...)`")));
        }
        self.wanted.push(Wanted { name: name.clone(), args: args.clone(), span });
        let instance = instance_name(&name, &args, &self.structs);
        self.call(instance, span)
    }

    /// A template's arguments after its `<`, through the `>`: each a type, or a constant written
    /// without `<` and `>` (a number or a `#define`).
    fn template_args(&mut self, name: &str) -> PResult<Vec<TemplateArg>> {
        let mut args = Vec::new();
        while !self.eat(">") {
            if self.at_type() {
                args.push(TemplateArg::Type(self.ty()?));
            } else {
                let above_comparisons = Infix::from_symbol("<<").map_or(0, |(_, p)| p);
                let (e, _) = self.binary(above_comparisons)?;
                let v = const_int(&e).ok_or_else(|| {
                    Diagnostic::error(e.span, format!("`{name}`'s template argument is a constant here (a number or a `#define`)"))
                })?;
                args.push(TemplateArg::Value(v));
            }
            if !self.eat(",") {
                self.expect(">", "to close the template's arguments")?;
                break;
            }
        }
        Ok(args)
    }

    fn paren(&mut self) -> PResult<Node> {
        let span = self.bump().span;
        let (e, d) = self.expr_node()?;
        let end = self.close(span, "to close the parenthesis")?;
        Ok((Expr { kind: e.kind, span: join(span, end) }, d))
    }

    fn primary(&mut self) -> PResult<Node> {
        let span = self.span();
        if !self.in_header() {
            if let Some(d) = self.unsupported_here() {
                return Err(d);
            }
        }
        let t = self.bump();
        let kind = match t.tok {
            Tok::Int { value, unsigned } => ExprKind::Int { value, unsigned },
            // A `long long` literal: its value at 64 bits, typed by the cast around it.
            Tok::Long { value, unsigned } => {
                let ty = if unsigned { Ty::ULONG } else { Ty::LONG };
                let inner = self.node(ExprKind::Int { value, unsigned }, span, 1)?.0;
                ExprKind::Cast(ty, Box::new(inner))
            }
            // `0.5f` is a float: the cast keeps it one beside an int (`i * 0.5f`), where `0.5`
            // alone would be a double.
            Tok::Float(f) => {
                let inner = self.node(ExprKind::Float(f64::from(f)), span, 1)?.0;
                ExprKind::Cast(Ty::FLOAT, Box::new(inner))
            }
            Tok::Double(f) => ExprKind::Float(f),
            Tok::Ident(w) if self.in_header() => ExprKind::Var(w),
            Tok::Ident(w) => match w.as_str() {
                "true" => ExprKind::Bool(true),
                // In a member function, the object (its fields are `this->f`, or `f`).
                "this" => ExprKind::Var(w),
                "false" => ExprKind::Bool(false),
                "threadIdx" | "blockDim" | "blockIdx" | "gridDim" => {
                    self.expect(".", &format!("after `{w}`"))?;
                    let (field, fspan) = self.ident("`x`, `y` or `z`")?;
                    let whole = join(span, fspan);
                    let Some(sp) = Special::from_member(&w, &field) else {
                        return Err(Diagnostic::error(whole, format!("`{w}` has the fields `x`, `y` and `z`, not `{field}`")));
                    };
                    return Ok((Expr { kind: ExprKind::Special(sp), span: whole }, 1));
                }
                // The hardware's warp size, a constant in compiled code as in nvcc's.
                "warpSize" => ExprKind::Int { value: 32, unsigned: false },
                "laneid" => ExprKind::Special(Special::LaneId),
                _ if is_keyword(&w) => {
                    return Err(Diagnostic::error(span, format!("expected an expression, found `{w}`")));
                }
                _ => self.consts.get(&w).cloned().unwrap_or(ExprKind::Var(w)),
            },
            Tok::Str(mut s) if !self.in_header() => {
                // Adjacent literals are one string, as in C.
                while let Tok::Str(more) = self.peek() {
                    s.push_str(more);
                    self.bump();
                }
                ExprKind::Str(s)
            }
            Tok::Punct(p) if self.in_header() => return Err(Diagnostic::error(span, format!("unexpected `{p}`"))),
            Tok::Eof if self.in_header() => return Err(Diagnostic::error(span, "unexpected end of expression")),
            other => return Err(Diagnostic::error(span, format!("expected an expression, found {}", describe(&other)))),
        };
        self.node(kind, span, 1)
    }

    /// `name(args)`, at the `(`. A header call may end its arguments with a comma.
    fn call(&mut self, name: String, span: Span) -> PResult<Node> {
        let open = self.bump().span;
        let (mut args, mut d) = (Vec::new(), 0);
        if !self.is(")") {
            loop {
                let (a, da) = self.assignment()?;
                args.push(a);
                d = d.max(da);
                if !self.eat(",") || (self.in_header() && self.is(")")) {
                    break;
                }
            }
        }
        let end = self.close(open, "to close the call's arguments")?;
        self.node(ExprKind::Call { name, args }, join(span, end), d + 1)
    }
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
/// A constant number: an integer constant, or a float literal with an optional sign.
pub(super) fn const_number(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Float(f) => Some(*f),
        ExprKind::Cast(Ty::Scalar(Scalar::Float | Scalar::Double), inner) => const_number(inner),
        ExprKind::Unary(UnOp::Neg, x) => const_number(x).map(|v| -v),
        _ => const_int(e).map(|v| v as f64),
    }
}

/// An integer constant expression's value (`N * 2 + 1` once `#define`s are expanded).
fn const_int(e: &Expr) -> Option<i64> {
    super::pre::const_eval(e)
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
            | "sizeof"
            | "return"
            | "goto"
            | "int"
            | "long"
            | "double"
            | "unsigned"
            | "signed"
            | "char"
            | "short"
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
        Tok::Int { value, .. } | Tok::Long { value, .. } => format!("the number {value}"),
        Tok::Float(f) => format!("the number {f}"),
        Tok::Double(f) => format!("the number {f}"),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Str(_) => "a string".to_string(),
        Tok::Directive | Tok::EndDirective => "a preprocessor line".to_string(),
        Tok::Bad(why) => why.clone(),
        Tok::Eof => "the end of the file".to_string(),
    }
}

/// The built-ins a C kernel reads members of.
const BUILTIN_STRUCTS: [&str; 4] = ["threadIdx", "blockIdx", "blockDim", "gridDim"];

/// The built-in a misspelt name was probably meant to be (`gridDm` for `gridDim`).
pub(crate) fn near_builtin(name: &str) -> Option<&'static str> {
    BUILTIN_STRUCTS.iter().copied().find(|b| edit_distance(name, b) <= 2)
}

/// Letters to insert, delete or change to turn `a` into `b` (Levenshtein), for "did you mean".
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + (ca != cb) as usize).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
