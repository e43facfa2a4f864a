//! Reads the `//@` header lines of a kernel file and assembles the rest.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::expr::parse_expr;
use super::{note, BufferDecl, BufferInit, InitTarget, Kernel, LaunchDecl, LocatedExpr, ParamDecl, RegInit};
use crate::diag::{Diagnostic, Span};
use crate::isa::{Pred, Reg};
use crate::machine::{ElemType, Sizing, MAX_WARP};
use crate::model::{ModelKind, StackConfig};
use crate::session::{choice, Named};

pub const HEADERS: &[&str] = &[
    "warp",
    "param",
    "reg",
    "buffer",
    "launch",
    "kernel",
    "model",
    "preset",
    "stack",
    "ifconvert",
    "fmad",
    "excerpt",
    "title",
    "about",
    "note",
];
/// The highest `//@ stack limit=N`: deeper stacks would make checkpoints the memory problem.
pub const MAX_STACK_LIMIT: u32 = 65_536;
/// Names every expression may use besides params and buffers.
pub const RESERVED: &[&str] = &["t", "i", "W"];

/// A header line being read: its number and text, for locating problems.
pub(super) struct Line<'a> {
    no: u32,
    text: &'a str,
}

impl<'a> Line<'a> {
    /// Span of a sub-slice of this line's text.
    pub(super) fn span_of(&self, part: &str) -> Span {
        let start = (part.as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize).min(self.text.len());
        let col = self.text[..start].chars().count() as u32 + 1;
        Span::new(self.no, col, part.chars().count().max(1) as u32)
    }
    pub(super) fn error(&self, part: &str, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.span_of(part), msg)
    }
    /// Parses an expression standing at `part`; errors are located inside it.
    fn expr(&self, part: &str) -> Result<LocatedExpr, Diagnostic> {
        let span = self.span_of(part);
        match parse_expr(part) {
            Ok(expr) => Ok(LocatedExpr { expr, span, text: part.to_string() }),
            Err(e) => Err(Diagnostic::error(super::span_within(span, part, e.offset, e.len), e.message)),
        }
    }
}

/// The bytes of a text in double quotes (C's escapes `\n`, `\t`, `\0`, `\\`, `\"`), or
/// where and why it is not one.
fn text_bytes(txt: &str) -> Result<Vec<u8>, (usize, String)> {
    let body = txt[1..].strip_suffix('"').filter(|b| !b.ends_with('\\') || b.ends_with("\\\\"));
    let body = body.ok_or((0, String::from("expected `\"` to close the text")))?;
    let mut out = Vec::new();
    let mut chars = body.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' => out.push(match chars.next() {
                Some((_, 'n')) => b'\n',
                Some((_, 't')) => b'\t',
                Some((_, 'r')) => b'\r',
                Some((_, '0')) => 0,
                Some((_, c @ ('\\' | '"' | '\''))) => c as u8,
                _ => return Err((k + 1, String::from("unknown escape: the text knows `\\n`, `\\t`, `\\r`, `\\0`, `\\\\` and `\\\"`"))),
            }),
            '"' => return Err((k + 1, String::from("a `\"` inside the text is written `\\\"`"))),
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    Ok(out)
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Whether a header expression can name a buffer so (another input language's names may not).
pub(crate) fn is_buffer_name(s: &str) -> bool {
    is_ident(s) && !RESERVED.contains(&s)
}

/// What a reserved name stands for in an expression.
fn reserved_meaning(name: &str) -> &'static str {
    match name {
        "t" => "the lane",
        "i" => "the element",
        _ => "the warp width",
    }
}

/// Splits `lhs = rhs` at the first `=` that is not part of `==`, `<=`, `>=` or `!=`.
pub(super) fn split_assign(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    (0..b.len())
        .find(|&k| b[k] == b'=' && b.get(k + 1) != Some(&b'=') && (k == 0 || !b"=<>!".contains(&b[k - 1])))
        .map(|k| (&s[..k], &s[k + 1..]))
}

/// Checks names an expression uses: params declared so far, buffers (for registers), and the reserved ones allowed here.
fn check_names(e: &LocatedExpr, k: &Kernel, allowed: &[&str], buffers_ok: bool) -> Option<Diagnostic> {
    for name in e.expr.free_vars() {
        let declared = k.params.iter().any(|p| p.name == name) || k.buffers.iter().any(|b| b.name == name);
        // A `//@ reg` line names inputs by name, and `t` and `W` mean the lane and the width
        // there: an input so named cannot be reached (a C kernel's binding does not need to).
        if buffers_ok && RESERVED.contains(&name.as_str()) && declared && allowed.contains(&name.as_str()) {
            return Some(Diagnostic::error(
                e.span,
                format!("`{name}` here is {}, not the input `{name}` declared above: rename the input", reserved_meaning(&name)),
            ));
        }
        let known = allowed.contains(&name.as_str())
            || k.params.iter().any(|p| p.name == name)
            || (buffers_ok && k.buffers.iter().any(|b| b.name == name));
        if !known {
            let hint = if RESERVED.contains(&name.as_str()) { " here".to_string() } else { String::new() };
            return Some(Diagnostic::error(
                e.span,
                format!(
                    "unknown name `{name}`{hint} (allowed: {}, declared params{})",
                    allowed.join(", "),
                    if buffers_ok { " and buffers" } else { "" }
                ),
            ));
        }
    }
    None
}

/// Splits a list's items at commas outside parentheses (`[1, min(2, 3)]`).
pub(super) fn split_items(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (k, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&body[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    if !body[start..].trim().is_empty() || !out.is_empty() {
        out.push(&body[start..]);
    }
    out
}

/// A launch dimension: `256`, `16x16`, `(16,16)` or `(4, 4, 2)`.
fn dims(line: &Line, text: &str, what: &str, fill: u32) -> Result<[u32; 3], Diagnostic> {
    let inner = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(text);
    let parts: Vec<&str> = if inner.contains(',') { inner.split(',').collect() } else { inner.split(['x', 'X']).collect() };
    if parts.is_empty() || parts.len() > 3 {
        return Err(line.error(text, format!("`{what}` is one to three sizes: `256`, `16x16` or `(16,16)`")));
    }
    let mut out = [fill; 3];
    for (d, p) in parts.iter().enumerate() {
        out[d] = p.trim().parse().map_err(|_| line.error(text, format!("`{what}={text}`: `{}` is not a whole number", p.trim())))?;
    }
    Ok(out)
}

/// `//@ launch grid=G block=B [block_idx=I] [warp=K]`.
fn launch(line: &Line, rest: &str) -> Result<LaunchDecl, Diagnostic> {
    // `(16, 16)` may hold spaces: join what is inside parentheses before splitting items.
    let mut items: Vec<&str> = Vec::new();
    let (mut depth, mut start) = (0i32, None);
    for (k, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth == 0 {
            if let Some(s) = start.take() {
                items.push(&rest[s..k]);
            }
        } else if start.is_none() {
            start = Some(k);
        }
    }
    if let Some(s) = start {
        items.push(&rest[s..]);
    }
    let mut l = LaunchDecl { grid: [1; 3], block: [32, 1, 1], block_idx: [0; 3], warp_idx: 0, shared: None };
    let mut block_idx = None;
    for item in items {
        let (key, v) = item
            .split_once('=')
            .ok_or_else(|| line.error(item, "expected `grid=G`, `block=B`, `shared=BYTES`, `block_idx=I` or `warp=K`"))?;
        match key {
            "grid" => l.grid = dims(line, v, key, 1)?,
            "block" => l.block = dims(line, v, key, 1)?,
            "block_idx" => block_idx = Some((dims(line, v, key, 0)?, item)),
            "warp" => l.warp_idx = v.parse().map_err(|_| line.error(item, format!("`warp={v}`: a warp number, from 0")))?,
            "shared" => {
                let bytes: u32 = v.parse().map_err(|_| line.error(item, format!("`shared={v}`: the dynamic shared memory in bytes")))?;
                // 227 KiB is the most a block of an H100 may take.
                if bytes > 227 * 1024 {
                    return Err(line.error(item, format!("`shared={bytes}`: a block has at most 232448 bytes of shared memory")));
                }
                l.shared = Some(bytes);
            }
            _ => return Err(line.error(key, format!("unknown launch setting `{key}` (known: grid, block, shared, block_idx, warp)"))),
        }
    }
    if l.block.contains(&0) || l.grid.contains(&0) {
        return Err(line.error(rest, "launch sizes start at 1"));
    }
    if l.block_threads() > 1024 || l.block.iter().any(|&b| b > 1024) || l.block[2] > 64 {
        return Err(line.error(rest, format!("a block has at most 1024 threads (this one has {}), z at most 64", l.block_threads())));
    }
    if l.grid[0] > i32::MAX as u32 || l.grid[1] > 65_535 || l.grid[2] > 65_535 {
        return Err(line.error(rest, "the grid is at most 2147483647 x 65535 x 65535 blocks"));
    }
    if let Some((idx, at)) = block_idx {
        // A single number counts blocks in x-fastest order.
        let idx = if !at.contains(['x', 'X', ',']) {
            let n = idx[0] as u64;
            [
                (n % l.grid[0] as u64) as u32,
                (n / l.grid[0] as u64 % l.grid[1] as u64) as u32,
                (n / (l.grid[0] as u64 * l.grid[1] as u64)) as u32,
            ]
        } else {
            idx
        };
        if (0..3).any(|d| idx[d] >= l.grid[d]) {
            return Err(line.error(
                at,
                format!("block {}x{}x{} is outside the grid {}x{}x{}", idx[0], idx[1], idx[2], l.grid[0], l.grid[1], l.grid[2]),
            ));
        }
        l.block_idx = idx;
    }
    Ok(l)
}

fn header(line: &Line, kw: &str, rest: &str, k: &mut Kernel) -> Result<(), Diagnostic> {
    let rest_t = rest.trim();
    match kw {
        "warp" => {
            let w: u32 =
                rest_t.parse().map_err(|_| line.error(rest_t, format!("`//@ warp` takes a width 1-{MAX_WARP}, found `{rest_t}`")))?;
            if !(1..=MAX_WARP).contains(&w) {
                return Err(line.error(rest_t, format!("warp width {w} is outside 1-{MAX_WARP}")));
            }
            k.warp_width = w;
        }
        "param" => {
            let (name, value) = split_assign(rest_t).ok_or_else(|| line.error(rest_t, "expected `//@ param name = default`"))?;
            let name = name.trim();
            // `t`, `i` and `W` too: a C kernel may name its parameters so (its binding reads
            // them as inputs), though the header's expressions read them as the lane, the
            // element and the width.
            if !is_ident(name) {
                return Err(line.error(name, format!("`{name}` cannot be a param name")));
            }
            if k.params.iter().any(|p| p.name == name) {
                return Err(line.error(name, format!("param `{name}` is declared twice")));
            }
            let default = line.expr(value.trim())?;
            if let Some(d) = check_names(&default, k, &["W"], false) {
                return Err(d);
            }
            k.params.push(ParamDecl { name: name.to_string(), default, auto: false, float: false });
        }
        "reg" => {
            let (target, value) = split_assign(rest_t).ok_or_else(|| line.error(rest_t, "expected `//@ reg R5 = expression`"))?;
            let target_t = target.trim();
            let t = if let Some(r) = crate::asm::parse_register(target_t) {
                InitTarget::Reg(r)
            } else if let Some(p) = crate::asm::parse_predicate(target_t) {
                InitTarget::Pred(p)
            } else {
                return Err(line.error(target_t, format!("`{target_t}` is not a register (R0-R254) or predicate (P0-P6)")));
            };
            if matches!(t, InitTarget::Reg(Reg::RZ) | InitTarget::Pred(Pred::PT)) {
                return Err(line.error(target_t, "RZ and PT cannot be initialised"));
            }
            let value = line.expr(value.trim())?;
            if let Some(d) = check_names(&value, k, &["t", "W"], true) {
                return Err(d);
            }
            k.regs.push(RegInit { target: t, value, binds: false });
        }
        "buffer" => {
            // name: type[len] (= init)?
            let (name, spec) =
                rest_t.split_once(':').ok_or_else(|| line.error(rest_t, "expected `//@ buffer name: i32[len] = expression`"))?;
            let name = name.trim();
            if !is_ident(name) {
                return Err(line.error(name, format!("`{name}` cannot be a buffer name")));
            }
            if k.buffers.iter().any(|b| b.name == name) || k.params.iter().any(|p| p.name == name) {
                return Err(line.error(name, format!("`{name}` is already declared")));
            }
            let (ty_len, init) = match split_assign(spec) {
                Some((a, b)) => (a.trim(), Some(b.trim())),
                None => (spec.trim(), None),
            };
            let open = ty_len.find('[').ok_or_else(|| line.error(ty_len, "expected a type and length like `i32[32]`"))?;
            let ty = ty_len[..open].trim();
            let elem = ElemType::from_name(ty).ok_or_else(|| {
                line.error(ty, format!("unknown element type `{ty}` (known: i8, u8, i16, u16, i32, u32, f32, i64, u64, f64)"))
            })?;
            let len_txt = ty_len[open + 1..].strip_suffix(']').ok_or_else(|| line.error(ty_len, "expected `]` after the length"))?;
            let len = line.expr(len_txt.trim())?;
            if let Some(d) = check_names(&len, k, &["W"], false) {
                return Err(d);
            }
            let init = match init {
                Some(txt) if txt.starts_with('[') => {
                    let body = txt
                        .strip_prefix('[')
                        .and_then(|t| t.strip_suffix(']'))
                        .ok_or_else(|| line.error(txt, "expected `]` to close the list"))?;
                    let mut items = Vec::new();
                    for item in split_items(body) {
                        let e = line.expr(item.trim())?;
                        if let Some(d) = check_names(&e, k, &["W"], false) {
                            return Err(d);
                        }
                        items.push(e);
                    }
                    Some(BufferInit::List(items))
                }
                Some(txt) if txt.starts_with('"') => {
                    if elem.bytes() != 1 {
                        return Err(
                            line.error(txt, format!("a text fills a buffer of bytes (`u8` or `i8`), and `{name}` holds {}", elem.name()))
                        );
                    }
                    let bytes = text_bytes(txt).map_err(|(at, msg)| line.error(&txt[at..], msg))?;
                    Some(BufferInit::Text { written: txt.to_string(), bytes, span: line.span_of(txt) })
                }
                Some(txt) => {
                    let e = line.expr(txt)?;
                    if let Some(d) = check_names(&e, k, &["i", "W"], false) {
                        return Err(d);
                    }
                    Some(BufferInit::Expr(e))
                }
                None => None,
            };
            k.buffers.push(BufferDecl {
                name: name.to_string(),
                elem,
                len,
                init,
                auto: false,
                shared: false,
                declared: None,
                sizing: Sizing::Given,
                shape: Vec::new(),
            });
        }
        "launch" => {
            k.launch = Some(launch(line, rest_t)?);
            k.launch_at = line.span_of(rest_t);
        }
        "kernel" => {
            // A template kernel's instance names its arguments: `reduce6<256>`.
            let name = rest_t.split_once('<').map_or(rest_t, |(n, args)| if args.trim_end().ends_with('>') { n.trim_end() } else { "" });
            if !is_ident(name) {
                return Err(line.error(
                    rest_t,
                    "`//@ kernel` takes the name of a `__global__` function (a template's with its arguments: `reduce6<256>`)",
                ));
            }
            k.kernel_name = Some((rest_t.to_string(), line.span_of(rest_t)));
        }
        "model" => {
            k.model = Some(ModelKind::choose(rest_t).map_err(|m| line.error(rest_t, m))?);
        }
        "preset" => {
            choice::preset(rest_t).map_err(|m| line.error(rest_t, m))?;
            k.preset = Some(rest_t.to_string());
        }
        "stack" => {
            let mut cfg = StackConfig::default();
            for item in rest_t.split_whitespace() {
                let (key, v) = item.split_once('=').ok_or_else(|| line.error(item, "expected `capacity=N`, `chunk=N` or `limit=N`"))?;
                let max = if key == "limit" { MAX_STACK_LIMIT } else { 4096 };
                let v: u32 = v
                    .parse()
                    .ok()
                    .filter(|v| (1..=max).contains(v))
                    .ok_or_else(|| line.error(item, format!("`{key}` must be a number 1-{max}")))?;
                match key {
                    "capacity" => cfg.capacity = v,
                    "chunk" => cfg.chunk = v,
                    "limit" => cfg.limit = v,
                    _ => return Err(line.error(key, format!("unknown stack setting `{key}` (known: capacity, chunk, limit)"))),
                }
            }
            if cfg.chunk > cfg.capacity {
                return Err(line.error(rest_t, "the spill chunk cannot be larger than the stack capacity"));
            }
            k.stack = Some(cfg);
        }
        "ifconvert" => {
            k.if_convert = Some(match rest_t {
                "on" => true,
                "off" => false,
                _ => return Err(line.error(rest_t, format!("`//@ ifconvert` takes `on` or `off`, found `{rest_t}`"))),
            });
        }
        "fmad" => {
            k.fmad = Some(match rest_t {
                "on" => true,
                "off" => false,
                _ => {
                    return Err(
                        line.error(rest_t, format!("`//@ fmad` takes `on` (nvcc's default, `--fmad=true`) or `off`, found `{rest_t}`"))
                    )
                }
            });
        }
        "excerpt" if rest_t.is_empty() => k.excerpt = true,
        "excerpt" => return Err(line.error(rest_t, "`//@ excerpt` takes nothing after it")),
        "title" => k.title = Some(rest_t.to_string()),
        "about" => k.about.push(rest_t.to_string()),
        _ => unreachable!("keyword checked by the caller"),
    }
    Ok(())
}

/// Parses a kernel file: its header lines, then the listing (header lines are comments to the
/// assembler), or, for CUDA C, the compiled kernel for the header's model.
pub fn parse_kernel(text: &str) -> (Kernel, Vec<Diagnostic>) {
    parse_kernel_with(text, &super::SourceOptions::default())
}

/// `parse_kernel`, with choices that override the header for compiling C (the target follows
/// the model the front end runs).
pub fn parse_kernel_with(text: &str, opts: &super::SourceOptions) -> (Kernel, Vec<Diagnostic>) {
    let mut k = Kernel { warp_width: 32, ..Kernel::default() };
    let mut diags = Vec::new();
    let mut raw_notes = Vec::new();
    if text.len() > super::MAX_KERNEL_BYTES {
        let msg =
            format!("this kernel is {} KiB; warpscope reads kernels of up to {} KiB", text.len() / 1024, super::MAX_KERNEL_BYTES / 1024);
        diags.push(Diagnostic::error(Span::new(1, 1, 1), msg));
        return (k, diags);
    }
    for (idx, raw) in text.lines().enumerate() {
        let Some(body) = raw.trim_start().strip_prefix("//@") else { continue };
        let line = Line { no: idx as u32 + 1, text: raw };
        let body_t = body.trim_start();
        let kw_len = body_t.find(|c: char| c.is_whitespace()).unwrap_or(body_t.len());
        let kw = &body_t[..kw_len];
        if !HEADERS.contains(&kw) {
            let shown = if kw.is_empty() { body_t } else { kw };
            diags.push(line.error(
                if shown.is_empty() { raw.trim() } else { shown },
                format!("unknown header `//@ {kw}` (known: {})", HEADERS.join(", ")),
            ));
            continue;
        }
        if kw == "note" {
            match note::parse(&line, &body_t[kw_len..]) {
                Ok(n) => raw_notes.push(n),
                Err(d) => diags.push(d),
            }
            continue;
        }
        if let Err(d) = header(&line, kw, &body_t[kw_len..], &mut k) {
            diags.push(d);
        }
    }
    if let Some(l) = k.launch {
        if l.warp_idx >= l.warps(k.warp_width) {
            let msg = format!("`warp={}`: a block of {} threads has warps 0-{}", l.warp_idx, l.block_threads(), l.warps(k.warp_width) - 1);
            diags.push(Diagnostic::error(k.launch_at, msg));
            k.launch = Some(LaunchDecl { warp_idx: 0, ..l });
        }
    }
    if let Some(name) = &opts.kernel {
        k.kernel_name = Some((name.clone(), Span::new(1, 1, 1)));
    }
    crate::input::read(text, &mut k, opts, &mut diags);
    // Notes name the kernel's own labels and addresses; STRUCT then moves them to the copy that
    // keeps the block's name.
    k.notes = note::resolve(raw_notes, &k.program, &mut diags);
    if opts.structural.unwrap_or(k.model == Some(crate::model::ModelKind::Struct)) && !diags.iter().any(Diagnostic::is_error) {
        crate::structure::restructure(&mut k, &mut diags);
    }
    diags.sort_by_key(|d| (d.span.line, d.span.col));
    (k, diags)
}
