//! Struct and class definitions: fields, constructors (member initialisers included), member
//! functions, operators and conversion operators. The fields are read first, so the struct's
//! layout is known while its member functions are read; each member function becomes a
//! function of its own whose first parameter is the object (`structs` says how it is held).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{describe, join, PResult, Parser, IGNORED};
use crate::compile::ast::*;
use crate::compile::lex::Tok;
use crate::compile::structs::Method;
use crate::diag::{Diagnostic, Span};

/// The operators a struct may define, as they follow `operator`.
const OPERATORS: &[&str] = &["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "+=", "-=", "*=", "/=", "&", "|", "^"];

/// How deeply struct template instances may be made one inside another's fields (each level
/// parses on the stack; real kernels use one or two).
const MAX_STRUCT_NESTING: u32 = 16;

/// What a member of a struct's body is.
enum Member {
    Fields(Vec<(String, Ty, Span)>),
    Function,
}

impl<'t> Parser<'t> {
    pub(super) fn is_struct(&self, w: &str) -> bool {
        self.structs.by_name(w).is_some()
    }

    /// Whether the `struct Name` (or `typedef struct`) here has a body: a `{` before any `;`.
    pub(super) fn struct_body_ahead(&self) -> bool {
        let (mut k, mut parens) = (0, 0);
        loop {
            match self.peek_at(k) {
                Tok::Punct("{") if parens == 0 => return true,
                Tok::Punct("(") => parens += 1,
                Tok::Punct(")") => parens -= 1,
                Tok::Punct(";" | "}") | Tok::Eof => return false,
                _ => {}
            }
            k += 1;
        }
    }

    /// The struct the word here names.
    pub(super) fn struct_here(&self) -> Option<StructRef> {
        match self.peek() {
            Tok::Ident(w) => self.structs.by_name(w),
            _ => None,
        }
    }

    /// `cuComplex(a, b)` or `cuComplex{a, b}` as a value.
    pub(super) fn construct(&mut self) -> PResult<(Expr, u32)> {
        let start = self.span();
        let ty = self.ty()?;
        self.struct_args(ty, start)
    }

    /// A struct's value from the `(...)` or `{...}` here: its constructor's arguments, or its
    /// fields' values.
    pub(super) fn struct_args(&mut self, ty: Ty, start: Span) -> PResult<(Expr, u32)> {
        let braces = self.is("{");
        let open = self.bump().span;
        let close = if braces { "}" } else { ")" };
        let (mut args, mut d) = (Vec::new(), 0);
        while !self.is(close) {
            let (a, da) = self.assignment()?;
            args.push(a);
            d = d.max(da);
            if !self.eat(",") {
                break;
            }
        }
        let end = if braces {
            self.expect("}", "to close the struct's values")?
        } else {
            self.close(open, "to close the constructor's arguments")?
        };
        self.node(ExprKind::Construct { ty, args, braces }, join(start, end), d + 1)
    }

    /// `operator+` and the like after `operator` (`self` at the symbol): the function's name.
    pub(super) fn operator_name(&mut self) -> PResult<String> {
        let at = self.span();
        match self.peek().clone() {
            Tok::Punct(p) if OPERATORS.contains(&p) => {
                self.bump();
                Ok(format!("operator{p}"))
            }
            t => Err(Diagnostic::error(
                at,
                format!("`operator` {}: the operators a struct may define here are {}", describe(&t), OPERATORS.join(" ")),
            )),
        }
    }

    /// `struct Name { ... };`, `class Name { public: ... };` or `typedef struct { ... } Name;`:
    /// the struct is added to `structs`, and its member functions returned.
    pub(super) fn struct_def(&mut self) -> PResult<Vec<Function>> {
        let start = self.span();
        let typedef = self.eat_word("typedef");
        let kind = if self.eat_word("class") {
            "class"
        } else {
            self.bump();
            "struct"
        };
        // `struct __align__(16) P`: at least that alignment, so its size rounds up to it too.
        let mut align = 1;
        if self.is_word("__align__") || self.is_word("__builtin_align__") {
            self.bump();
            let open = self.expect("(", "after `__align__`")?;
            let at = self.span();
            align = match self.bump().tok {
                Tok::Int { value, .. } if value.is_power_of_two() && value <= 128 => value as u32,
                _ => return Err(Diagnostic::error(at, "`__align__` takes a power of two up to 128")),
            };
            self.close(open, "to close `__align__(`")?;
        }
        let tag = match self.peek().clone() {
            Tok::Ident(n) => {
                self.bump();
                Some(n)
            }
            _ => None,
        };
        if self.is(":") {
            return Err(Diagnostic::error(self.span(), format!("a {kind} deriving from another is not supported: write its fields out")));
        }
        self.expect("{", &format!("to open the {kind}'s body"))?;
        let body = self.pos;
        let mut fields = Vec::new();
        // The member functions' names: a call of one from another may change the object.
        let mut members: Vec<String> = Vec::new();
        while !self.is("}") {
            match self.member()? {
                Member::Fields(mut f) => fields.append(&mut f),
                Member::Function => {
                    let open = (0..).find(|&k| matches!(self.peek_at(k), Tok::Punct("(") | Tok::Eof)).unwrap_or(0);
                    if let Some(Tok::Ident(n)) = open.checked_sub(1).map(|k| self.peek_at(k)) {
                        members.push(n.clone());
                    }
                    self.skip_function()?;
                }
            }
        }
        let end = self.pos;
        self.bump();
        let name = match (typedef, self.peek().clone()) {
            (true, Tok::Ident(alias)) => {
                self.bump();
                alias
            }
            _ => tag.clone().ok_or_else(|| Diagnostic::error(start, format!("a {kind} here has a name (`{kind} Name {{ ... }};`)")))?,
        };
        if !self.is(";") {
            return Err(Diagnostic::error(
                self.span(),
                format!("expected `;` after the {kind}'s `}}` (variables of it are declared where they are used)"),
            ));
        }
        self.bump();
        let r = self.structs.define(&name, kind, &fields, align, start)?;
        if let Some(tag) = tag.filter(|t| *t != name) {
            self.structs.alias(&tag, r);
        }
        // The member functions, now that the struct is a type.
        let after = self.pos;
        self.pos = body;
        let mut funcs = Vec::new();
        while self.pos < end {
            let at = self.pos;
            match self.member()? {
                Member::Fields(_) => {}
                Member::Function => {
                    self.pos = at;
                    if let Some(f) = self.member_function(r, &name, &members)? {
                        funcs.push(f);
                    }
                }
            }
        }
        self.pos = after;
        Ok(funcs)
    }

    /// The member here: a field declaration, read whole, or a function, left unread. Access
    /// labels before it are skipped.
    fn member(&mut self) -> PResult<Member> {
        loop {
            if self.eat(";") {
                continue;
            }
            if matches!(self.peek(), Tok::Ident(w) if matches!(w.as_str(), "public" | "private" | "protected"))
                && matches!(self.peek_at(1), Tok::Punct(":"))
            {
                self.bump();
                self.bump();
                continue;
            }
            break;
        }
        if self.is("}") {
            return Ok(Member::Fields(Vec::new()));
        }
        // A function's `(` comes before any `;`, `{`, `=` or `[`, outside a template's arguments
        // (`B<(N - 1)> b;` is a field).
        let (mut k, mut angles) = (0, 0i32);
        loop {
            match self.peek_at(k) {
                Tok::Punct("(") if angles <= 0 => return Ok(Member::Function),
                Tok::Punct("(") => {
                    // Parentheses inside a template's arguments, read past whole.
                    let mut depth = 0;
                    loop {
                        match self.peek_at(k) {
                            Tok::Punct("(") => depth += 1,
                            Tok::Punct(")") => depth -= 1,
                            Tok::Eof => break,
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                        k += 1;
                    }
                }
                Tok::Punct("<") => angles += 1,
                Tok::Punct(">") => angles -= 1,
                Tok::Punct(">>") => angles -= 2,
                Tok::Punct(";" | "{" | "=" | "[" | "}") | Tok::Eof => break,
                _ => {}
            }
            k += 1;
        }
        if (0..)
            .take_while(|&k| matches!(self.peek_at(k), Tok::Ident(_)))
            .any(|k| matches!(self.peek_at(k), Tok::Ident(w) if w == "friend"))
        {
            return Ok(Member::Function);
        }
        for w in ["static", "virtual"] {
            if self.is_word(w) {
                return Err(Diagnostic::error(self.span(), format!("`{w}` members are not supported")));
            }
        }
        let ty = self.ty()?;
        let mut out = Vec::new();
        loop {
            let fty = if self.eat("*") {
                ty.pointer_to().ok_or_else(|| Diagnostic::error(self.prev_span(), "pointers to pointers are not supported"))?
            } else {
                ty
            };
            let (name, span) = self.ident("a field name")?;
            if self.is("[") {
                return Err(Diagnostic::error(
                    self.span(),
                    "array fields are not supported: use separate fields, or a vector type (`float4`)",
                ));
            }
            if self.is("=") || self.is("{") {
                return Err(Diagnostic::error(self.span(), "a field's default value is not supported: set it in a constructor"));
            }
            out.push((name, fty, span));
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after the field")?;
        Ok(Member::Fields(out))
    }

    /// Skips a member function's declaration and body (in the first reading of the struct).
    fn skip_function(&mut self) -> PResult<()> {
        let (mut depth, mut parens, mut inits) = (0, 0, false);
        loop {
            // A constructor's member initialisers may use braces (`: x{a}, y{b} {}`): a brace
            // right after a field's name is its value, not the body.
            if depth == 0 && inits && self.is("{") && matches!(self.toks.get(self.pos.wrapping_sub(1)).map(|t| &t.tok), Some(Tok::Ident(_)))
            {
                let mut inner = 0;
                loop {
                    match self.peek() {
                        Tok::Punct("{") => inner += 1,
                        Tok::Punct("}") => inner -= 1,
                        Tok::Eof => break,
                        _ => {}
                    }
                    self.bump();
                    if inner == 0 {
                        break;
                    }
                }
                continue;
            }
            match self.peek() {
                Tok::Punct("(") => parens += 1,
                Tok::Punct(")") => parens -= 1,
                Tok::Punct(":") if depth == 0 && parens == 0 => inits = true,
                Tok::Eof => return Err(Diagnostic::error(self.span(), "the struct's body does not end")),
                Tok::Punct(";") if depth == 0 => {
                    self.bump();
                    return Ok(());
                }
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") if depth == 0 => return Ok(()),
                Tok::Punct("}") => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// A constructor, member function, operator or conversion operator of `r`, as a function
    /// `Name::member` taking the object first; `None` for a host-only one or a destructor.
    fn member_function(&mut self, r: StructRef, sname: &str, members: &[String]) -> PResult<Option<Function>> {
        let start = self.span();
        // A `friend` is a function of the file, declared here (`friend __device__ V
        // operator*(float k, const V& v)`): an operator of it is a free one.
        let qualifiers = (0..).take_while(
            |&k| matches!(self.peek_at(k), Tok::Ident(w) if w == "friend" || w.starts_with("__") || IGNORED.contains(&w.as_str())),
        );
        let friend = qualifiers.clone().any(|k| matches!(self.peek_at(k), Tok::Ident(w) if w == "friend"));
        if friend {
            if !qualifiers.clone().any(|k| matches!(self.peek_at(k), Tok::Ident(w) if w == "__device__")) {
                self.skip_function()?;
                return Ok(None);
            }
            let mut f = self.function()?;
            if f.name.starts_with("operator") {
                f.name = self.structs.add_free_operator(&f.name, f.params.iter().map(|p| p.ty).collect());
            }
            return Ok(Some(f));
        }
        let mut device = false;
        while let Tok::Ident(w) = self.peek() {
            match w.as_str() {
                "__device__" => device = true,
                "__host__" | "explicit" => {}
                w if IGNORED.contains(&w) => {}
                _ => break,
            }
            self.bump();
        }
        if self.is("~") || !device {
            // A destructor has nothing to run here; a host-only member never runs on the GPU.
            self.skip_function()?;
            return Ok(None);
        }
        let (member, ret, converts_to) = if self.is_word(sname) && matches!(self.peek_at(1), Tok::Punct("(")) {
            self.bump();
            (sname.to_string(), Ty::Void, None)
        } else if self.eat_word("operator") {
            let to = self.ty()?;
            (format!("operator {}", self.structs.name_of(to)), to, Some(to))
        } else {
            let ret = self.ty()?;
            // `Vec2& operator+=(...)` returns the object by reference: here, a copy of it (the
            // object itself gets its fields back through `this`).
            self.eat("&");
            let name = if self.eat_word("operator") { self.operator_name()? } else { self.ident("a member function's name")?.0 };
            (name, ret, None)
        };
        let ctor = member == sname;
        self.expect("(", "after the member function's name")?;
        let params = self.param_list(false)?;
        self.expect(")", "after the parameters")?;
        let constant = self.eat_word("const");
        let mut body = Vec::new();
        if ctor && self.eat(":") {
            body = self.member_inits(r)?;
        }
        if self.is(";") {
            return Err(Diagnostic::error(start, "a member function without a body is not supported: define it in the struct"));
        }
        self.expect("{", "to open the member function's body")?;
        body.extend(self.block_items());
        self.expect("}", "to close the member function's body")?;
        let def = self.structs.def(r).ok_or_else(|| Diagnostic::error(start, "internal: the struct is missing"))?;
        let field_names: Vec<&str> = def.fields.iter().map(|f| f.name.as_str()).collect();
        let writes = ctor || (!constant && body.iter().any(|s| assigns_fields(s, &field_names, members)));
        let taken = def.methods.iter().chain(&def.ctors).filter(|m| m.name == member).count();
        let func = if taken == 0 { format!("{sname}::{member}") } else { format!("{sname}::{member}~{}", taken + 1) };
        let param_tys = params.iter().map(|p| p.ty).collect();
        let least = params.len() - params.iter().rev().take_while(|p| p.default.is_some()).count();
        let this = Param { ty: Ty::Struct(r), name: String::from("this"), span: start, by_ref: writes, default: None };
        let method = Method { name: member.clone(), func: func.clone(), params: params.len(), param_tys, least, ret, converts_to };
        if let Some(d) = self.structs.def_mut(r) {
            if ctor {
                d.ctors.push(method)
            } else {
                d.methods.push(method)
            }
        }
        let params = core::iter::once(this).chain(params).collect();
        Ok(Some(Function { name: func, kernel: false, host: false, ret, params, body, span: start }))
    }

    /// A constructor's `: r(a), i(b)`: an assignment of each field, in order.
    fn member_inits(&mut self, r: StructRef) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            let (field, span) = self.ident("a field to initialise")?;
            if self.structs.field(r, &field).is_none() {
                return Err(Diagnostic::error(span, format!("`{}` has no field `{field}`", self.structs.name_of(Ty::Struct(r)))));
            }
            let fty = self.structs.field(r, &field).map_or(Ty::INT, |f| f.ty);
            let braces = self.is("{");
            let open = self.bump().span;
            let close = if braces { "}" } else { ")" };
            let mut args = Vec::new();
            while !self.is(close) {
                args.push(self.assignment()?.0);
                if !self.eat(",") {
                    break;
                }
            }
            let end = self.expect(close, "to close the field's value")?;
            let whole = join(span, end);
            // `x()` is zero; a struct field's several values are its constructor's arguments.
            let value = match (args.len(), fty) {
                (1, _) => args.remove(0),
                (_, Ty::Struct(_)) => Expr { kind: ExprKind::Construct { ty: fty, args, braces }, span: whole },
                (0, _) => Expr { kind: ExprKind::Int { value: 0, unsigned: false }, span: whole },
                _ => return Err(Diagnostic::error(whole, format!("`{field}` takes one value here"))),
            };
            let this = Expr { kind: ExprKind::Var(String::from("this")), span };
            let lhs = Expr { kind: ExprKind::Member(Box::new(this), field), span };
            let assign = ExprKind::Assign { op: None, lhs: Box::new(lhs), rhs: Box::new(value) };
            out.push(Stmt { kind: StmtKind::Expr(Expr { kind: assign, span: whole }), span: open });
            if !self.eat(",") {
                return Ok(out);
            }
        }
    }
}

/// Whether `s` assigns one of the fields (by its bare name, or through `this`).
/// Whether `s` may change the object: it assigns a field (by its bare name or through `this`),
/// calls a member function on a field or `this`, calls another member function of the object
/// (`members`), or passes a field to a function (which may take it by reference).
fn assigns_fields(s: &Stmt, fields: &[&str], members: &[String]) -> bool {
    let mut found = false;
    let field = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if fields.contains(&n.as_str()));
    crate::compile::lower::walk_stmt_exprs(s, &mut |e| {
        crate::compile::lower::walk_expr(e, &mut |x| {
            let mut root: &Expr = match &x.kind {
                ExprKind::Assign { lhs, .. } => lhs,
                ExprKind::IncDec { target, .. } => target,
                ExprKind::Method(m) => &m.obj,
                ExprKind::Call { name, args } => {
                    found |= members.contains(name) || args.iter().any(field);
                    return;
                }
                _ => return,
            };
            while let ExprKind::Member(inner, _) | ExprKind::Index(inner, _) = &root.kind {
                root = inner;
            }
            found |= matches!(&root.kind, ExprKind::Var(n) if n == "this" || fields.contains(&n.as_str()));
        })
    });
    found
}

/// A struct template (`template <class T> struct SharedMemory { ... };`): its parameters, its
/// tokens from `struct` to the closing brace, and its explicit specialisations
/// (`template <> struct SharedMemory<double> { ... };`), each for its arguments.
#[derive(Clone, PartialEq, Debug)]
pub struct StructTemplate {
    name: String,
    params: Vec<crate::compile::template::TemplateParam>,
    toks: Vec<crate::compile::lex::Token>,
    specialised: Vec<(Vec<TemplateArg>, Vec<crate::compile::lex::Token>)>,
    span: Span,
}

use crate::compile::lex::Token;
use crate::compile::template::{instance_name, TemplateArg, TemplateDef};

impl<'t> Parser<'t> {
    pub(super) fn is_struct_template(&self, w: &str) -> bool {
        self.struct_templates.iter().any(|t| t.name == w)
    }

    /// Whether the `template <...>` here declares a struct or class (`struct` after the `>`).
    pub(super) fn template_is_struct(&self) -> bool {
        let (mut k, mut depth) = (1, 0);
        loop {
            match self.peek_at(k) {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") if depth <= 1 => break,
                Tok::Punct(">") => depth -= 1,
                Tok::Punct(";" | "{" | "(") | Tok::Eof => return false,
                _ => {}
            }
            k += 1;
        }
        matches!(self.peek_at(k + 1), Tok::Ident(w) if w == "struct" || w == "class")
    }

    /// `template <class T> struct Name { ... };`, or a specialisation `template <> struct
    /// Name<double> { ... };`: kept as tokens, parsed for each argument list used.
    pub(super) fn struct_template(&mut self) -> PResult<()> {
        let span = self.span();
        let def = self.template_def()?;
        // `template_def` read to the closing brace; its tokens start at `struct`.
        let toks = def.toks;
        let name = match toks.get(1).map(|t| &t.tok) {
            Some(Tok::Ident(n)) => n.clone(),
            _ => return Err(Diagnostic::error(span, "a struct template here has a name (`template <class T> struct Name { ... };`)")),
        };
        if !toks.iter().any(|t| t.tok == Tok::Punct("{")) {
            // A declaration (`template <int N> struct B;`): the definition comes later.
            return Ok(());
        }
        if def.params.is_empty() {
            // A specialisation: its arguments, `<...>`, follow the name.
            let end = toks.iter().position(|t| t.tok == Tok::Punct("{")).unwrap_or(toks.len());
            let unspecified =
                || Diagnostic::error(span, format!("`template <>` specialises `{name}` for arguments: write them, `{name}<double>`"));
            if toks.get(2).map(|t| &t.tok) != Some(&Tok::Punct("<")) || end < 4 {
                return Err(unspecified());
            }
            let mut list: Vec<Token> = toks[3..end].to_vec();
            list.push(Token { tok: Tok::Eof, span });
            let mut p = self.for_instance(&list);
            let mut args = Vec::new();
            while !p.is(">") && *p.peek() != Tok::Eof {
                let at = p.pos;
                let is_type = p.at_type();
                let arg = p
                    .template_arg(is_type)
                    .ok_or_else(|| Diagnostic::error(span, "a specialisation's arguments are types or constants"))?;
                args.push(arg);
                if !p.eat(",") && !p.is(">") || p.pos == at {
                    return Err(unspecified());
                }
            }
            let body: Vec<Token> = toks[..2].iter().cloned().chain(toks[end..].iter().cloned()).collect();
            let Some(t) = self.struct_templates.iter_mut().find(|t| t.name == name) else {
                return Err(Diagnostic::error(span, format!("`{name}` is specialised before its template is defined")));
            };
            t.specialised.push((args, body));
            return Ok(());
        }
        self.struct_templates.push(StructTemplate { name, params: def.params, toks, specialised: Vec::new(), span });
        Ok(())
    }

    /// `Name<args>` here, of a struct template: the struct its arguments make (made the first
    /// time, with its member functions kept in `made_funcs`).
    pub(super) fn struct_instance(&mut self) -> PResult<StructRef> {
        let (name, span) = self.ident("a struct template's name")?;
        self.expect("<", &format!("after `{name}`"))?;
        let args = self.template_args(&name)?;
        let instance = instance_name(&name, &args, &self.structs);
        if let Some(r) = self.structs.by_name(&instance) {
            return Ok(r);
        }
        // A template that makes ever new instances of itself (`A<N>` holding `B<N>` holding `A<N - 1>`).
        if self.struct_depth >= MAX_STRUCT_NESTING {
            return Err(Diagnostic::error(span, format!("`{instance}`: struct templates nest more than {MAX_STRUCT_NESTING} deep")));
        }
        let Some(t) = self.struct_templates.iter().find(|t| t.name == name).cloned() else {
            return Err(Diagnostic::error(span, format!("no struct template `{name}`")));
        };
        let toks = match t.specialised.iter().find(|(a, _)| *a == args) {
            Some((_, body)) => body.clone(),
            None if args.len() == t.params.len() => {
                let def = TemplateDef { name: t.name.clone(), kernel: false, params: t.params.clone(), toks: t.toks.clone(), span: t.span };
                crate::compile::template::substitute(&def, &args, &self.structs)
            }
            None => return Err(Diagnostic::error(span, format!("`{name}` takes {} template argument(s)", t.params.len()))),
        };
        // The struct and its constructors take the instance's name; `Name<...>` written in its
        // body stays an instance to look up (this one, once it is defined).
        let templated = |k: usize| toks.get(k + 1).is_some_and(|t| t.tok == Tok::Punct("<"));
        let mut toks: Vec<Token> = toks
            .iter()
            .enumerate()
            .map(|(k, tk)| match &tk.tok {
                Tok::Ident(w) if *w == name && !templated(k) => Token { tok: Tok::Ident(instance.clone()), span: tk.span },
                _ => tk.clone(),
            })
            .collect();
        toks.push(Token { tok: Tok::Eof, span });
        // As written, a struct definition ends with `;`.
        toks.insert(toks.len() - 1, Token { tok: Tok::Punct(";"), span });
        let mut p = self.for_instance(&toks);
        p.struct_depth = self.struct_depth + 1;
        let funcs = p.struct_def().map_err(|d| {
            // An instance made inside this one already said which.
            let nested = d.message.starts_with('`') && d.message.contains(">`: ");
            let message = if nested { d.message } else { format!("`{instance}`: {} (line {})", d.message, d.span.line) };
            Diagnostic::error(span, message)
        })?;
        self.structs = p.structs;
        self.made_funcs.extend(funcs);
        self.made_funcs.append(&mut p.made_funcs);
        self.diags.append(&mut p.diags);
        self.structs.by_name(&instance).ok_or_else(|| Diagnostic::error(span, format!("`{instance}` could not be made")))
    }
}
