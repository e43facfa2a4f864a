//! Function templates, as courses write them (`template <unsigned int blockSize> __global__ void
//! reduce6(...)`, `template <typename T> __device__ T warpSum(T v)`): each instance is the
//! template's tokens with every parameter replaced by its argument, parsed as a function of its
//! own named `reduce6<256>`. Calls name their instances with explicit arguments
//! (`warpReduce<blockSize>(s, tid)`); the kernel's come from `//@ kernel reduce6<256>`, else the
//! host's launch (`reduce6<512><<<grid, block>>>`), else the template's defaults.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::Ty;
use super::lex::{lex, Tok, Token};
use super::parse::Parser;
use super::structs::Structs;
use crate::diag::Span;

/// One template parameter: its name, and whether it takes a type (`typename T`) or a value
/// (`int N`), with its default's tokens.
#[derive(Clone, PartialEq, Debug)]
pub struct TemplateParam {
    pub name: String,
    pub is_type: bool,
    pub default: Vec<Token>,
}

/// A function template: its parameters and the function's tokens after `template <...>`.
#[derive(Clone, PartialEq, Debug)]
pub struct TemplateDef {
    pub name: String,
    pub kernel: bool,
    pub params: Vec<TemplateParam>,
    pub toks: Vec<Token>,
    pub span: Span,
}

/// A template argument: a type or a constant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TemplateArg {
    Type(Ty),
    Value(i64),
}

impl TemplateArg {
    /// As C writes it; a struct by its name in `structs`.
    fn text(self, structs: &Structs) -> String {
        match self {
            TemplateArg::Type(t) => structs.name_of(t),
            TemplateArg::Value(v) => format!("{v}"),
        }
    }
}

/// What lowering needs to deduce a call's template arguments (`twice(x)` calls
/// `twice<float>` when `x` is a float): each parameter's kind and default, and for each of the
/// function's parameters, the type parameter it is declared as (and whether as a pointer to it).
#[derive(Clone, PartialEq, Debug)]
pub struct Deduction {
    pub name: String,
    pub params: Vec<(String, Option<TemplateArg>)>,
    pub from_args: Vec<Option<(usize, bool)>>,
}

impl TemplateDef {
    /// For each of the function's parameters, the type parameter it is declared as (`T x`,
    /// `const T* p`), if one is.
    pub fn deduced_from(&self) -> Vec<Option<(usize, bool)>> {
        let start = self.toks.windows(2).position(|w| w[0].tok == Tok::Ident(self.name.clone()) && w[1].tok == Tok::Punct("("));
        let Some(start) = start else { return Vec::new() };
        let mut out = Vec::new();
        let (mut depth, mut current): (i32, Option<(usize, bool)>) = (0, None);
        let mut any = false;
        for t in &self.toks[start + 2..] {
            match &t.tok {
                Tok::Punct("(" | "[" | "<") => depth += 1,
                Tok::Punct(")") if depth == 0 => break,
                Tok::Punct(")" | "]" | ">") => depth -= 1,
                Tok::Punct(",") if depth == 0 => {
                    out.push(current.take());
                    any = false;
                    continue;
                }
                Tok::Punct("*") => {
                    if let Some(c) = current.as_mut() {
                        c.1 = true;
                    }
                }
                Tok::Ident(w) => {
                    if let Some(k) = self.params.iter().position(|p| p.is_type && p.name == *w).filter(|_| current.is_none()) {
                        current = Some((k, false));
                    }
                }
                _ => {}
            }
            any = true;
        }
        if any || current.is_some() {
            out.push(current);
        }
        out
    }
}

/// An instance a call or a launch asks for: the template's name, its arguments, and where.
#[derive(Clone, PartialEq, Debug)]
pub struct Wanted {
    pub name: String,
    pub args: Vec<TemplateArg>,
    pub span: Span,
}

/// The most instances one file makes (a template that instantiates itself with ever new
/// arguments would not end).
pub const MAX_INSTANCES: usize = 64;

/// The instance's function name: `reduce6<256>`, `warpSum<float>`.
pub fn instance_name(name: &str, args: &[TemplateArg], structs: &Structs) -> String {
    let args: Vec<String> = args.iter().map(|a| a.text(structs)).collect();
    format!("{name}<{}>", args.join(", "))
}

/// A name as a listing label may spell it (an instance's `<`, `>`, `,`, ` ` and `*` become `_`).
pub fn label_safe(name: &str) -> String {
    // An operator's symbols are its name: `operator*` and `operator+` need labels apart.
    const SYMBOLS: [(char, &str); 12] = [
        ('+', "plus"),
        ('-', "minus"),
        ('*', "times"),
        ('/', "div"),
        ('%', "mod"),
        ('=', "eq"),
        ('<', "lt"),
        ('>', "gt"),
        ('!', "not"),
        ('&', "and"),
        ('|', "or"),
        ('^', "xor"),
    ];
    match name.split_once("operator") {
        Some((before, op)) if !op.is_empty() && !op.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') => {
            let word = |c: char| SYMBOLS.iter().find(|s| s.0 == c).map_or("_", |s| s.1);
            let spelt: String =
                op.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { String::from(c) } else { String::from(word(c)) }).collect();
            format!("{}operator_{spelt}", label_safe(before))
        }
        _ => name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect(),
    }
}

/// The instance's tokens: the template's with each parameter replaced by its argument (at the
/// parameter's place, so messages point into the template) and the function renamed.
pub fn substitute(def: &TemplateDef, args: &[TemplateArg], structs: &Structs) -> Vec<Token> {
    let instance = instance_name(&def.name, args, structs);
    let mut out = Vec::with_capacity(def.toks.len());
    let mut renamed = false;
    for (k, t) in def.toks.iter().enumerate() {
        let Tok::Ident(w) = &t.tok else {
            out.push(t.clone());
            continue;
        };
        if let Some(p) = def.params.iter().position(|p| p.name == *w) {
            out.extend(arg_tokens(args[p], t.span, structs));
        } else if !renamed && *w == def.name && matches!(def.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            // The function's own name, before its parameter list.
            renamed = true;
            out.push(Token { tok: Tok::Ident(instance.clone()), span: t.span });
        } else {
            out.push(t.clone());
        }
    }
    out
}

/// An argument's tokens, placed at `span`.
fn arg_tokens(arg: TemplateArg, span: Span, structs: &Structs) -> Vec<Token> {
    let at = |tok| Token { tok, span };
    match arg {
        // A negative value as C writes one: `(-3)`.
        TemplateArg::Value(v) if v < 0 => {
            let mut out = alloc::vec![at(Tok::Punct("(")), at(Tok::Punct("-"))];
            out.extend(arg_tokens(TemplateArg::Value(-v), span, structs));
            out.push(at(Tok::Punct(")")));
            out
        }
        TemplateArg::Value(v) if v <= i32::MAX as i64 => alloc::vec![at(Tok::Int { value: v as u64, unsigned: false })],
        TemplateArg::Value(v) => alloc::vec![at(Tok::Long { value: v as u64, unsigned: false })],
        TemplateArg::Type(ty) => {
            // The type's C spelling, word by word (`unsigned long long*`).
            let pointer = ty.is_pointer();
            let name = structs.name_of(ty);
            let words = name.trim_end_matches('*').split(' ');
            let mut out: Vec<Token> = words.map(|w| at(Tok::Ident(w.to_string()))).collect();
            if pointer {
                out.push(at(Tok::Punct("*")));
            }
            out
        }
    }
}

/// The arguments of the host's first launch of `name` with constant arguments
/// (`reduce6<512><<<grid, block>>>(...)`, or `<BLOCK>` of a `#define`), or of an explicit
/// instantiation (`template __global__ void k<3>(int*);`), read from the file's tokens after the
/// preprocessor: each a number, `true`/`false` or a type's words.
pub fn host_launch_args(toks: &[Token], name: &str) -> Option<Vec<TemplateArg>> {
    let is = |k: usize, p: &str| matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    // The statement around token `k` starts with `template` (not `template <`).
    let instantiation = |k: usize| {
        let start = (0..k).rev().find(|&j| is(j, ";") || is(j, "}") || is(j, "{")).map_or(0, |j| j + 1);
        toks.get(start).is_some_and(|t| t.tok == Tok::Ident("template".into())) && !is(start + 1, "<")
    };
    for (k, t) in toks.iter().enumerate() {
        if t.tok != Tok::Ident(name.to_string()) || !is(k + 1, "<") {
            continue;
        }
        let Some(close) = (k + 2..toks.len()).find(|&j| is(j, ">") || is(j, ";")).filter(|&j| is(j, ">")) else { continue };
        // `>` then `<<<`, which the lexer reads as `<<` and `<`; or an instantiation's `(`.
        if !((is(close + 1, "<<") && is(close + 2, "<")) || (is(close + 1, "(") && instantiation(k))) {
            continue;
        }
        let args: Option<Vec<TemplateArg>> = toks[k + 2..close].split(|t| t.tok == Tok::Punct(",")).map(token_arg).collect();
        if let Some(args) = args {
            return Some(args);
        }
    }
    None
}

/// One argument's tokens: a number (`512`, `-1`) or a type (`unsigned int`, as the parser reads
/// types).
fn token_arg(toks: &[Token]) -> Option<TemplateArg> {
    match toks.iter().map(|t| &t.tok).collect::<Vec<_>>().as_slice() {
        [Tok::Int { value, .. } | Tok::Long { value, .. }] => Some(TemplateArg::Value(*value as i64)),
        [Tok::Punct("-"), Tok::Int { value, .. } | Tok::Long { value, .. }] => Some(TemplateArg::Value(-(*value as i64))),
        [Tok::Ident(w)] if w == "true" || w == "false" => Some(TemplateArg::Value(i64::from(w == "true"))),
        _ => {
            let span = toks.first()?.span;
            let toks: Vec<Token> = toks.iter().cloned().chain([Token { tok: Tok::Eof, span }]).collect();
            let mut p = Parser::new(&toks);
            let ty = p.template_arg(true)?;
            (p.next_token().tok == Tok::Eof).then_some(ty)
        }
    }
}

/// `256, float` (`//@ kernel reduce6<256, float>`): each argument a number or a type.
pub fn literal_args(text: &str) -> Option<Vec<TemplateArg>> {
    let (toks, lexed) = lex(text);
    if !lexed.is_empty() {
        return None;
    }
    let toks = &toks[..toks.len().saturating_sub(1)];
    toks.split(|t| t.tok == Tok::Punct(",")).map(token_arg).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::ast::Scalar;

    fn launch_args(text: &str, name: &str) -> Option<Vec<TemplateArg>> {
        let (toks, _) = crate::compile::lex::lex(text);
        let (toks, _) = crate::compile::pre::preprocess(toks);
        host_launch_args(&toks, name)
    }

    #[test]
    fn the_hosts_launch_gives_the_kernels_arguments() {
        let host = "switch (threads) {\n case 512: reduce6<512><<<g, b, s>>>(in, out, n); break;\n}\n";
        assert_eq!(launch_args(host, "reduce6"), Some(alloc::vec![TemplateArg::Value(512)]));
        let two = Some(alloc::vec![TemplateArg::Type(Ty::FLOAT), TemplateArg::Value(16)]);
        assert_eq!(launch_args("k<float, 0x10><<<1, 32>>>(a);", "k"), two);
        let defined = Some(alloc::vec![TemplateArg::Value(128), TemplateArg::Type(Ty::UNSIGNED)]);
        assert_eq!(launch_args("#define BLOCK 128\nk<BLOCK, unsigned int><<<1, BLOCK>>>(a);", "k"), defined);
        // Another kernel whose name ends the same, a variable argument, a comment: none.
        assert_eq!(launch_args("my_k<8><<<1, 32>>>(a); k<n><<<1, 32>>>(a); // k<4><<<1, 1>>>", "k"), None);
        assert_eq!(
            launch_args("template <int K> __global__ void k(int* a) {}\ntemplate __global__ void k<3>(int*);", "k"),
            Some(alloc::vec![TemplateArg::Value(3)])
        );
        assert_eq!(launch_args("k<true, 2><<<1, 32>>>(a);", "k"), Some(alloc::vec![TemplateArg::Value(1), TemplateArg::Value(2)]));
        assert_eq!(launch_args("x = k<2>(a);", "k"), None, "a call, not an instantiation");
    }

    #[test]
    fn instance_names_are_labels_once_made_safe() {
        let name = instance_name("warpSum", &[TemplateArg::Type(Ty::Ptr(Scalar::ULong)), TemplateArg::Value(-3)], &Structs::default());
        assert_eq!(name, "warpSum<unsigned long long*, -3>");
        assert_eq!(label_safe(&name), "warpSum_unsigned_long_long____3_");
    }
}

#[cfg(test)]
mod deduction_tests {
    use super::*;
    use crate::compile::lex::lex;

    #[test]
    fn each_function_parameter_names_the_type_parameter_it_is_declared_as() {
        let (toks, _) = lex("__device__ T f(const T* in, int n, T x, float* out) { return x; }");
        let param = |name: &str| TemplateParam { name: name.to_string(), is_type: true, default: Vec::new() };
        let def = TemplateDef { name: "f".into(), kernel: false, params: alloc::vec![param("T")], toks, span: Span::new(1, 1, 1) };
        assert_eq!(def.deduced_from(), [Some((0, true)), None, Some((0, false)), None]);
    }
}
