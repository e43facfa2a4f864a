//! Cooperative groups as the CUDA samples use them (`cg::thread_block`, `this_thread_block()`,
//! `tiled_partition<32>`, `tile.shfl_down`, `coalesced_threads()`, `thread_rank()`, `sync`),
//! rewritten over the preprocessed tokens into the built-ins they compile to, before parsing:
//! a block's `sync()` is `__syncthreads()`, a tile's `shfl_down(v, d)` is `__shfl_down_sync` over
//! the tile's lanes with the tile's width, a coalesced group is the mask `__activemask()` gave
//! when it was made. Rewritten code takes the span of what it replaces, so messages point at the
//! user's line. A group passed to a `__device__` function as a `thread_block` or
//! `thread_block_tile<N>` parameter is known from its type there; a `thread_group` parameter
//! takes the kind its calls pass (several kinds: one copy of the function per kind, as nvcc's
//! inlining specialises it). `cg::reduce` is `REDUX` or a butterfly of `shfl_xor`, and a
//! coalesced group's shuffles find their source lane by rank (`__fns`), both through small
//! device functions placed before the file's code.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::lex::{lex, Tok, Token};
use crate::diag::{Diagnostic, Span};

mod reduce;
mod specialise;

use reduce::{NTH_DOWN, NTH_UP};

/// What a group variable is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Block,
    /// A tile of this many threads (a power of two up to 32).
    Tile(u32),
    /// The lanes `__activemask()` gave: the variable holds that mask.
    Coalesced,
}

impl Kind {
    /// The cooperative-groups type of a group of this kind.
    fn type_name(self) -> String {
        match self {
            Kind::Block => String::from("thread_block"),
            Kind::Tile(n) => format!("thread_block_tile<{n}>"),
            Kind::Coalesced => String::from("coalesced_group"),
        }
    }
}

/// The thread's rank in its block, from the launch's built-ins.
const RANK: &str = "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)";
const BLOCK_SIZE: &str = "(blockDim.x * blockDim.y * blockDim.z)";

/// A tile of `n` threads in its warp: the lane it starts at (a multiple of n) and the mask of
/// its lanes (every lane for 32), as expressions.
fn tile_lanes(n: u32) -> (String, String) {
    let base = format!("({RANK} % 32 / {n} * {n})");
    let mask = if n == 32 { String::from("0xffffffffu") } else { format!("((0xffffffffu >> {}) << {base})", 32 - n) };
    (base, mask)
}

/// Rewrites the cooperative-groups code of `toks`; other tokens stay as they are.
pub fn rewrite(toks: Vec<Token>) -> (Vec<Token>, Vec<Diagnostic>) {
    if !toks.iter().any(|t| matches!(&t.tok, Tok::Ident(w) if w == "cooperative_groups")) {
        return (toks, Vec::new());
    }
    let mut r = Rewriter {
        out: Vec::new(),
        diags: Vec::new(),
        vars: BTreeMap::new(),
        aliases: Vec::new(),
        params: BTreeMap::new(),
        several: BTreeMap::new(),
        helpers: BTreeMap::new(),
    };
    let toks = r.unqualified(toks);
    // A function whose `thread_group` parameter is passed groups of several kinds becomes one
    // function per kind, as nvcc's inlining specialises it; then each parameter has one kind.
    r.passed_groups(&toks);
    let toks = r.specialised(toks);
    r.vars.clear();
    r.params.clear();
    r.several.clear();
    r.passed_groups(&toks);
    // The first passes' own messages are the last's again.
    r.diags.clear();
    r.vars.clear();
    r.out = Vec::with_capacity(toks.len());
    r.run(&toks);
    // The helpers first, at the file's first group's line, so every function can call them.
    let at = toks.iter().find(|t| ident(Some(t)) == Some("cooperative_groups")).map_or(Span::default(), |t| t.span);
    let mut out: Vec<Token> = r.helpers.values().flat_map(|code| snippet(code, at)).collect();
    out.extend(r.out);
    (out, r.diags)
}

/// Where the parameter at `k` stands: its function's name and its position in the list.
fn param_position(toks: &[Token], k: usize) -> Option<(String, usize)> {
    let (mut depth, mut commas) = (0i32, 0);
    for j in (0..k).rev() {
        match &toks[j].tok {
            Tok::Punct(")" | "]" | ">") => depth += 1,
            Tok::Punct("[" | "<") => depth -= 1,
            Tok::Punct("(") if depth == 0 => return ident(toks.get(j.checked_sub(1)?)).map(|f| (f.to_string(), commas)),
            Tok::Punct("(") => depth -= 1,
            Tok::Punct(",") if depth == 0 => commas += 1,
            Tok::Punct(";" | "{" | "}") => return None,
            _ => {}
        }
    }
    None
}

struct Rewriter {
    out: Vec<Token>,
    diags: Vec<Diagnostic>,
    /// Group variables and parameters by name.
    vars: BTreeMap<String, Kind>,
    /// `cg` of `namespace cg = cooperative_groups;`.
    aliases: Vec<String>,
    /// The kind of group each `thread_group` parameter gets from its calls: by function and
    /// position.
    params: BTreeMap<(String, usize), Kind>,
    /// The `thread_group` parameters passed groups of several kinds, and those kinds.
    several: BTreeMap<(String, usize), Vec<Kind>>,
    /// Device functions the rewritten code calls (a coalesced group's lane search, a
    /// reduction's steps), by name: defined before the file's code.
    helpers: BTreeMap<String, String>,
}

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    }
}

fn punct(t: Option<&Token>, p: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

/// `text` lexed, every token at `span`.
fn snippet(text: &str, span: Span) -> Vec<Token> {
    let (toks, _) = lex(text);
    toks.into_iter().filter(|t| t.tok != Tok::Eof).map(|t| Token { span, ..t }).collect()
}

/// The index just past the bracket closing the one at `open` (`(`, `<` or `{`).
fn closing(toks: &[Token], open: usize) -> Option<usize> {
    let (o, c) = match &toks.get(open)?.tok {
        Tok::Punct("(") => ("(", ")"),
        Tok::Punct("<") => ("<", ">"),
        Tok::Punct("{") => ("{", "}"),
        _ => return None,
    };
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if punct(Some(t), o) {
            depth += 1;
        } else if punct(Some(t), c) {
            depth -= 1;
            if depth == 0 {
                return Some(k + 1);
            }
        }
    }
    None
}

/// The arguments between `(` at `open` and its `)` (at `close - 1`), split at top-level commas.
fn arguments(toks: &[Token], open: usize, close: usize) -> Vec<Vec<Token>> {
    let mut args = Vec::new();
    let mut cur = Vec::new();
    let mut depth = 0;
    for t in &toks[open + 1..close - 1] {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => depth -= 1,
            Tok::Punct(",") if depth == 0 => {
                args.push(core::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(t.clone());
    }
    if !cur.is_empty() {
        args.push(cur);
    }
    args
}

impl Rewriter {
    /// Without `namespace cg = cooperative_groups;`, `using namespace ...;` and the `cg::` or
    /// `cooperative_groups::` before a name.
    fn unqualified(&mut self, toks: Vec<Token>) -> Vec<Token> {
        let mut out = Vec::with_capacity(toks.len());
        let mut k = 0;
        while k < toks.len() {
            let w = ident(toks.get(k));
            if w == Some("namespace") && punct(toks.get(k + 2), "=") && ident(toks.get(k + 3)) == Some("cooperative_groups") {
                self.aliases.push(ident(toks.get(k + 1)).unwrap_or_default().to_string());
                k += 5;
                continue;
            }
            if w == Some("using") && ident(toks.get(k + 1)) == Some("namespace") && ident(toks.get(k + 2)) == Some("cooperative_groups") {
                k += 4;
                continue;
            }
            if let Some(w) = w {
                if (w == "cooperative_groups" || self.aliases.iter().any(|a| a == w)) && punct(toks.get(k + 1), "::") {
                    k += 2;
                    continue;
                }
            }
            out.push(toks[k].clone());
            k += 1;
        }
        out
    }

    fn error(&mut self, span: Span, message: String) {
        self.diags.push(Diagnostic::error(span, message));
    }

    fn run(&mut self, toks: &[Token]) {
        let mut k = 0;
        while k < toks.len() {
            k = self.at(toks, k);
        }
    }

    /// Rewrites what starts at `k`; the index after it.
    fn at(&mut self, toks: &[Token], k: usize) -> usize {
        let t = &toks[k];
        let Some(w) = ident(Some(t)) else {
            self.out.push(t.clone());
            return k + 1;
        };
        // A group type: a declaration, or a parameter.
        if let Some((kind, after)) = self.group_type(toks, k) {
            return self.declaration(toks, k, kind, after);
        }
        // `reduce(g, value, plus<int>())` (`cg::reduce`: its third argument is an operator
        // object, `op<T>()`; a function of the file's own named `reduce` is not it).
        if let (true, Some(close)) = (w == "reduce" && punct(toks.get(k + 1), "("), closing(toks, k + 1)) {
            let args = arguments(toks, k + 1, close);
            let operator = args.get(2).is_some_and(|a| ident(a.first()).is_some() && punct(a.get(1), "<") && punct(a.last(), ")"));
            if args.len() == 3 && operator {
                let group = (args[0].len() == 1).then(|| ident(args[0].first())).flatten();
                let code = match group.and_then(|g| self.vars.get(g).copied()) {
                    Some(kind) => self.reduce(kind, &args, t.span),
                    None => {
                        self.error(t.span, "cooperative groups' `reduce` takes a tile variable: `thread_block_tile<32> tile = tiled_partition<32>(block);`, then `reduce(tile, v, plus<int>())`".into());
                        snippet("0", t.span)
                    }
                };
                self.out.extend(code);
                return close;
            }
        }
        // `sync(g)` (`cg::sync`).
        if w == "sync" && punct(toks.get(k + 1), "(") {
            if let (Some(g), true) = (ident(toks.get(k + 2)), punct(toks.get(k + 3), ")")) {
                if let Some(&kind) = self.vars.get(g) {
                    let code = self.method(kind, g, "sync", &[], t.span);
                    self.out.extend(code);
                    return k + 4;
                }
            }
        }
        // `g.method(args)`, and `this_thread_block().method(args)`.
        let (kind, name, dot) = match (self.vars.get(w), w) {
            (Some(&kind), _) => (Some(kind), w.to_string(), k + 1),
            (None, "this_thread_block") if punct(toks.get(k + 1), "(") && punct(toks.get(k + 2), ")") => {
                (Some(Kind::Block), String::new(), k + 3)
            }
            _ => (None, String::new(), k + 1),
        };
        if let Some(kind) = kind {
            // A group passed as an argument (`reduce(tile, v)`, `f(this_thread_block())`): the
            // function's parameter of its type was left out, so the argument goes too.
            let bare =
                (punct(self.out.last(), "(") || punct(self.out.last(), ",")) && (punct(toks.get(dot), ",") || punct(toks.get(dot), ")"));
            if bare && kind != Kind::Coalesced {
                if punct(toks.get(dot), ",") {
                    return dot + 1;
                }
                if punct(self.out.last(), ",") {
                    self.out.pop();
                }
                return dot;
            }
            if punct(toks.get(dot), ".") {
                if let (Some(m), true) = (ident(toks.get(dot + 1)), punct(toks.get(dot + 2), "(")) {
                    let Some(close) = closing(toks, dot + 2) else {
                        self.out.push(t.clone());
                        return k + 1;
                    };
                    let args = arguments(toks, dot + 2, close);
                    let code = self.method(kind, &name, m, &args, t.span);
                    self.out.extend(code);
                    return close;
                }
            }
        }
        if matches!(w, "this_thread_block" | "tiled_partition" | "coalesced_threads" | "thread_group" | "grid_group" | "this_grid") {
            let what = match w {
                "grid_group" | "this_grid" => "a grid group (`this_grid()`, grid-wide sync) is not supported: warpscope runs one block's barriers; split the kernel at the grid sync into two launches",
                "thread_group" => "a `thread_group` whose kind is not known here is not supported: declare it as `thread_block` or `thread_block_tile<N>`",
                _ => "this use of a cooperative group is not supported: make the group a variable (`thread_block block = this_thread_block();`) and call its methods",
            };
            self.error(t.span, format!("cooperative groups' `{w}`: {what}"));
        }
        self.out.push(t.clone());
        k + 1
    }

    /// The group type at `k` (`thread_block`, `thread_block_tile<N>`, `coalesced_group`,
    /// `thread_group`; `const` and `&` around it are passed over) and the index after it.
    fn group_type(&mut self, toks: &[Token], k: usize) -> Option<(Option<Kind>, usize)> {
        let mut at = k;
        if ident(toks.get(at)) == Some("const") {
            at += 1;
        }
        let (kind, mut after) = match ident(toks.get(at))? {
            "thread_block" => (Some(Kind::Block), at + 1),
            "coalesced_group" => (Some(Kind::Coalesced), at + 1),
            "thread_group" => (None, at + 1),
            // `auto tile = tiled_partition<32>(block);`: the value says the kind.
            "auto"
                if punct(toks.get(at + 2), "=")
                    && matches!(ident(toks.get(at + 3)), Some("this_thread_block" | "tiled_partition" | "coalesced_threads")) =>
            {
                (None, at + 1)
            }
            "thread_block_tile" if punct(toks.get(at + 1), "<") => {
                let n = match toks.get(at + 2).map(|t| &t.tok) {
                    Some(Tok::Int { value, .. }) if [1, 2, 4, 8, 16, 32].contains(value) => *value as u32,
                    _ => {
                        self.error(toks[at].span, "a `thread_block_tile`'s size is a constant power of two from 1 to 32".into());
                        1
                    }
                };
                (Some(Kind::Tile(n)), closing(toks, at + 1)?)
            }
            _ => return None,
        };
        if punct(toks.get(after), "&") {
            after += 1;
        }
        Some((kind, after))
    }

    /// A group declared at `k` (its type ends before `after`): `T g = init;` makes `g` known
    /// (a coalesced group's mask kept in an `unsigned`), a parameter `T g` too (it leaves the
    /// parameter list: every call passes the one group the type says).
    fn declaration(&mut self, toks: &[Token], k: usize, kind: Option<Kind>, after: usize) -> usize {
        let span = toks[k].span;
        let Some(name) = ident(toks.get(after)).map(String::from) else {
            self.error(
                span,
                "a cooperative group's type is used here without a variable: declare one (`thread_block block = this_thread_block();`)"
                    .into(),
            );
            return after;
        };
        if punct(toks.get(after + 1), "=") {
            let end = (after + 2..toks.len()).find(|&j| punct(toks.get(j), ";")).unwrap_or(toks.len());
            let init = &toks[after + 2..end];
            let made = self.made_by(init, span).or(kind);
            let Some(made) = made else { return end + 1 };
            if kind.is_some_and(|k| k != made) {
                self.error(span, format!("`{name}`'s type is not the kind of group its value is"));
            }
            self.vars.insert(name.clone(), made);
            if made == Kind::Coalesced {
                self.out.extend(snippet(&format!("unsigned {name} = __activemask();"), span));
            }
            return end + 1;
        }
        // A parameter (followed by `,` or `)`); a `thread_group` one is what its calls pass.
        let kind = kind.or_else(|| param_position(toks, k).and_then(|p| self.params.get(&p).copied()));
        let Some(kind) = kind else {
            self.error(
                span,
                format!("cooperative groups' `thread_group` parameter `{name}`: no call passes it a group warpscope knows (`this_thread_block()`, a `thread_block_tile<N>` or a coalesced group); make it `thread_block` or `thread_block_tile<N>`"),
            );
            return after + 1;
        };
        self.vars.insert(name.clone(), kind);
        if kind == Kind::Coalesced {
            self.out.extend(snippet(&format!("unsigned {name}"), span));
            return after + 1;
        }
        // Leave the parameter out, with one of the commas around it.
        if punct(toks.get(after + 1), ",") {
            return after + 2;
        }
        if punct(self.out.last(), ",") {
            self.out.pop();
        }
        after + 1
    }

    /// The kind of group `init` makes: `this_thread_block()`, `tiled_partition<N>(g)`,
    /// `tiled_partition(g, N)`, `coalesced_threads()`, or another group variable.
    fn made_by(&mut self, init: &[Token], span: Span) -> Option<Kind> {
        match init.first().and_then(|t| ident(Some(t)))? {
            "this_thread_block" => Some(Kind::Block),
            "coalesced_threads" => Some(Kind::Coalesced),
            "tiled_partition" => {
                let n = init.iter().rev().find_map(|t| match t.tok {
                    Tok::Int { value, .. } => Some(value),
                    _ => None,
                });
                match n {
                    Some(n) if [1, 2, 4, 8, 16, 32].contains(&n) => Some(Kind::Tile(n as u32)),
                    _ => {
                        self.error(span, "`tiled_partition`'s size is a constant power of two from 1 to 32".into());
                        None
                    }
                }
            }
            w => self.vars.get(w).copied(),
        }
    }

    /// The code of `g.method(args)` for a group of `kind` named `g` (empty for an unnamed
    /// block).
    fn method(&mut self, kind: Kind, g: &str, method: &str, args: &[Vec<Token>], span: Span) -> Vec<Token> {
        let arity = match method {
            "sync" | "thread_rank" | "size" | "num_threads" | "meta_group_rank" | "meta_group_size" | "group_index" | "thread_index"
            | "group_dim" | "dim_threads" => 0,
            "any" | "all" | "ballot" => 1,
            "shfl" | "shfl_down" | "shfl_up" | "shfl_xor" => 2,
            _ => usize::MAX,
        };
        let text = match (kind, method) {
            (Kind::Block, "sync") => Some(String::from("__syncthreads()")),
            (Kind::Block, "thread_rank") => Some(String::from(RANK)),
            (Kind::Block, "size" | "num_threads") => Some(String::from(BLOCK_SIZE)),
            (Kind::Block, "group_index") => Some(String::from("blockIdx")),
            (Kind::Block, "thread_index") => Some(String::from("threadIdx")),
            (Kind::Block, "group_dim" | "dim_threads") => Some(String::from("blockDim")),
            (Kind::Tile(n), _) => {
                let (base, mask) = tile_lanes(n);
                match method {
                    "sync" => Some(format!("__syncwarp({mask})")),
                    "thread_rank" => Some(format!("({RANK} % {n})")),
                    "size" | "num_threads" => Some(format!("{n}")),
                    "meta_group_rank" => Some(format!("({RANK} / {n})")),
                    "meta_group_size" => Some(format!("(({BLOCK_SIZE} + {}) / {n})", n - 1)),
                    "shfl" | "shfl_down" | "shfl_up" | "shfl_xor" => {
                        let f = if method == "shfl" { String::from("__shfl_sync") } else { format!("__{method}_sync") };
                        Some(format!("{f}({mask}, $0, $1, {n})"))
                    }
                    "any" | "all" => Some(format!("__{method}_sync({mask}, $0)")),
                    "ballot" if n == 32 => Some(String::from("__ballot_sync(0xffffffffu, $0)")),
                    "ballot" => Some(format!("((__ballot_sync({mask}, $0) >> {base}) & (0xffffffffu >> {}))", 32 - n)),
                    _ => None,
                }
            }
            (Kind::Coalesced, "sync") => Some(format!("__syncwarp({g})")),
            (Kind::Coalesced, "size" | "num_threads") => Some(format!("__popc({g})")),
            (Kind::Coalesced, "thread_rank") => Some(format!("__popc({g} & ((1u << ({RANK} % 32)) - 1u))")),
            (Kind::Coalesced, "any" | "all") => Some(format!("__{method}_sync({g}, $0)")),
            // By rank in the group: the lane of the group's (rank + 1)-th set bit; up and down
            // count the group's lanes from this one, staying here past the group's end.
            (Kind::Coalesced, "shfl") => Some(format!("__shfl_sync({g}, $0, {}({g}, 0, ($1) + 1))", self.helper(NTH_UP))),
            (Kind::Coalesced, "shfl_down") => Some(format!("__shfl_sync({g}, $0, {}({g}, {RANK} % 32, ($1) + 1))", self.helper(NTH_UP))),
            (Kind::Coalesced, "shfl_up") => Some(format!("__shfl_sync({g}, $0, {}({g}, {RANK} % 32, ($1) + 1))", self.helper(NTH_DOWN))),
            _ => None,
        };
        let Some(text) = text.filter(|_| args.len() == arity || arity == usize::MAX) else {
            let what = kind.type_name();
            let message = if arity != usize::MAX && args.len() != arity {
                format!("cooperative groups' `{what}::{method}` takes {arity} argument(s), found {}", args.len())
            } else {
                format!(
                    "cooperative groups' `{what}::{method}` is not supported: use the warp's built-ins (`__shfl_down_sync`, `__ballot_sync`, `__syncwarp`...) with the group's lanes"
                )
            };
            self.error(span, message);
            return snippet("0", span);
        };
        // `$0`, `$1`: the arguments, as written.
        let mut out = Vec::new();
        for (i, piece) in text.split('$').enumerate() {
            let rest = if i == 0 {
                piece
            } else {
                let k = piece.chars().next().and_then(|c| c.to_digit(10)).unwrap_or(0) as usize;
                out.push(Token { tok: Tok::Punct("("), span });
                out.extend(args.get(k).cloned().unwrap_or_default());
                out.push(Token { tok: Tok::Punct(")"), span });
                &piece[1..]
            };
            out.extend(snippet(rest, span));
        }
        out
    }
}
