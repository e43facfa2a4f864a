//! A kernel's inputs as plain data for front ends (`inputs`), and the text edit that sets or
//! removes one `//@` line (`set_header`). The text stays the one source of truth: a front end
//! that edits an input writes its header line through `set_header` and reads the kernel again.
//!
//! `HeaderLine`'s `Display` is the one formatter of these lines; it writes what `header` reads,
//! so `HeaderLine::of(&inputs(&parse(line)))` gives the line back (tested below).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::{BufferInit, Kernel};
use crate::machine::ElemType;

/// A buffer as the kernel declares it, or as it was made for a C parameter.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BufferInput {
    pub name: String,
    pub elem: ElemType,
    /// The length as written (an expression of params and `W`), or the one made.
    pub len: String,
    /// The initialiser as written: an expression of `i`, a list `[1, 2, 3]`, or empty (zeros).
    pub init: String,
    /// Made for a C pointer parameter (or a `__shared__` variable) with no `//@ buffer` line.
    pub auto: bool,
    /// A `__shared__` variable: its size comes from its declaration.
    pub shared: bool,
    /// The qualifier of the variable it holds (`__constant__`, `__device__`, `__shared__`, PTX's
    /// `.global`...), whose declaration fixes its length; `None` for a parameter's buffer.
    pub declared: Option<String>,
    /// The line it comes from: its `//@ buffer` line, or for one made, the C declaration.
    pub line: u32,
}

/// A scalar input (`//@ param`), declared or made for a C parameter.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ParamInput {
    pub name: String,
    /// The default as written (an expression), or the one made.
    pub default: String,
    pub auto: bool,
    /// Its `//@ param` line, or for one made, the C parameter's line.
    pub line: u32,
}

/// The launch the running warp belongs to (declared, or one block of one warp).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LaunchInput {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub block_idx: [u32; 3],
    pub warp_idx: u32,
    /// The dynamic shared memory in bytes (`shared=`), if given.
    pub shared: Option<u32>,
    /// The `//@ launch` line; `None` when the launch is the default.
    pub line: Option<u32>,
    /// The running warp's lanes are threads `first_thread ..` of its block, `lanes` of them.
    pub first_thread: u32,
    pub lanes: u32,
}

/// Everything a kernel reads from outside: the panel's rows.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KernelInputs {
    pub buffers: Vec<BufferInput>,
    pub params: Vec<ParamInput>,
    pub launch: LaunchInput,
    /// The warp width (`//@ warp`).
    pub width: u32,
    /// The `__global__` functions of a C file, in order (empty for a listing).
    pub kernels: Vec<String>,
    /// The one that runs: `//@ kernel`'s, else the first.
    pub kernel: Option<String>,
    /// The `//@ kernel` line, if any.
    pub kernel_line: Option<u32>,
}

/// A kernel's inputs, read from the parsed kernel (declared and made alike).
pub fn inputs(k: &Kernel) -> KernelInputs {
    let buffers = k
        .buffers
        .iter()
        .map(|b| BufferInput {
            name: b.name.clone(),
            elem: b.elem,
            len: b.len.text.clone(),
            init: match &b.init {
                None => String::new(),
                Some(BufferInit::Expr(e)) => e.text.clone(),
                Some(BufferInit::List(items)) => list_text(items.iter().map(|e| e.text.as_str())),
                Some(BufferInit::Text { written, .. }) => written.clone(),
            },
            auto: b.auto,
            shared: b.shared,
            declared: b.declared.map(String::from),
            line: b.len.span.line,
        })
        .collect();
    let params = k
        .params
        .iter()
        .map(|p| ParamInput { name: p.name.clone(), default: p.default.text.clone(), auto: p.auto, line: p.default.span.line })
        .collect();
    let l = k.launch();
    let launch = LaunchInput {
        grid: l.grid,
        block: l.block,
        block_idx: l.block_idx,
        warp_idx: l.warp_idx,
        shared: l.shared,
        line: k.launch.map(|_| k.launch_at.line),
        first_thread: l.warp_idx * k.warp_width,
        lanes: l.lanes(k.warp_width),
    };
    let kernels = k.compiled.as_ref().map_or(Vec::new(), |c| c.kernels.clone());
    // A template kernel's instance (`reduce6<256>`) is its template's entry in the list.
    let listed = |n: &String| if kernels.contains(n) { n.clone() } else { n.split('<').next().unwrap_or(n).trim().to_string() };
    let kernel = k.kernel_name.as_ref().map(|(n, _)| listed(n)).or_else(|| kernels.first().cloned());
    KernelInputs { buffers, params, launch, width: k.warp_width, kernels, kernel, kernel_line: k.kernel_name.as_ref().map(|(_, s)| s.line) }
}

fn list_text<'a>(items: impl Iterator<Item = &'a str>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(", "))
}

/// One input header line, as fields.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "header", rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum HeaderLine {
    /// `//@ buffer name: f32[len] = init` (no `= init` when `init` is empty).
    Buffer { name: String, elem: ElemType, len: String, init: String },
    /// `//@ param name = value`.
    Param { name: String, value: String },
    /// `//@ launch grid=G block=B shared=BYTES block_idx=I warp=K` (no dynamic shared memory, a
    /// zero block index or warp is left out).
    Launch { grid: [u32; 3], block: [u32; 3], shared: Option<u32>, block_idx: [u32; 3], warp_idx: u32 },
    /// `//@ kernel name`.
    Kernel { name: String },
}

/// Which header line an edit is about: a buffer's or param's by name, or the one launch or kernel line.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "header", rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum HeaderKey {
    Buffer { name: String },
    Param { name: String },
    Launch,
    Kernel,
}

/// Set a header line (replacing the one with its key, or adding it), or remove every line of a
/// key: the input goes back to automatic (or the default launch, or the first kernel).
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum HeaderEdit {
    Set(HeaderLine),
    Remove(HeaderKey),
}

impl HeaderLine {
    pub fn key(&self) -> HeaderKey {
        match self {
            HeaderLine::Buffer { name, .. } => HeaderKey::Buffer { name: name.clone() },
            HeaderLine::Param { name, .. } => HeaderKey::Param { name: name.clone() },
            HeaderLine::Launch { .. } => HeaderKey::Launch,
            HeaderLine::Kernel { .. } => HeaderKey::Kernel,
        }
    }

    /// The line a kernel's inputs hold for `key` (a made input's line as it would be written).
    pub fn of(inputs: &KernelInputs, key: &HeaderKey) -> Option<HeaderLine> {
        Some(match key {
            HeaderKey::Buffer { name } => {
                let b = inputs.buffers.iter().find(|b| &b.name == name && !b.shared)?;
                HeaderLine::Buffer { name: b.name.clone(), elem: b.elem, len: b.len.clone(), init: b.init.clone() }
            }
            HeaderKey::Param { name } => {
                let p = inputs.params.iter().find(|p| &p.name == name)?;
                HeaderLine::Param { name: p.name.clone(), value: p.default.clone() }
            }
            HeaderKey::Launch => {
                let l = inputs.launch;
                HeaderLine::Launch { grid: l.grid, block: l.block, shared: l.shared, block_idx: l.block_idx, warp_idx: l.warp_idx }
            }
            HeaderKey::Kernel => HeaderLine::Kernel { name: inputs.kernel.clone()? },
        })
    }
}

/// A field's text on one line: a line break would end the header and start kernel text.
fn one_line(s: &str) -> String {
    s.trim().replace(['\r', '\n'], " ")
}

/// `256`, `16x16` or `4x4x2`, as `dims` in `header` reads them.
fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => format!("{x}"),
        [x, y, 1] => format!("{x}x{y}"),
        [x, y, z] => format!("{x}x{y}x{z}"),
    }
}

impl fmt::Display for HeaderLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderLine::Buffer { name, elem, len, init } => {
                write!(f, "//@ buffer {}: {}[{}]", one_line(name), elem.name(), one_line(len))?;
                let init = one_line(init);
                // A list is written as the parser gives its items back: `[1, 2, 3]`.
                match init.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                    _ if init.is_empty() => Ok(()),
                    Some(body) => write!(f, " = {}", list_text(super::header::split_items(body).into_iter().map(str::trim))),
                    None => write!(f, " = {init}"),
                }
            }
            HeaderLine::Param { name, value } => write!(f, "//@ param {} = {}", one_line(name), one_line(value)),
            HeaderLine::Launch { grid, block, shared, block_idx, warp_idx } => {
                write!(f, "//@ launch grid={} block={}", dims(*grid), dims(*block))?;
                if let Some(bytes) = shared {
                    write!(f, " shared={bytes}")?;
                }
                // One number counts blocks along x: it is the index itself in a one-dimensional grid.
                match block_idx {
                    [0, 0, 0] => {}
                    [x, 0, 0] if grid[1..] == [1, 1] => write!(f, " block_idx={x}")?,
                    [x, y, 0] => write!(f, " block_idx={x}x{y}")?,
                    [x, y, z] => write!(f, " block_idx={x}x{y}x{z}")?,
                }
                if *warp_idx != 0 {
                    write!(f, " warp={warp_idx}")?;
                }
                Ok(())
            }
            HeaderLine::Kernel { name } => write!(f, "//@ kernel {}", one_line(name)),
        }
    }
}

/// The key of a header line of the text, read as `header` reads it; `None` for any other line.
fn key_of(line: &str) -> Option<HeaderKey> {
    let body = line.trim_start().strip_prefix("//@")?.trim_start();
    let kw_len = body.find(char::is_whitespace).unwrap_or(body.len());
    let (kw, rest) = (&body[..kw_len], body[kw_len..].trim());
    match kw {
        "buffer" => Some(HeaderKey::Buffer { name: rest.split_once(':')?.0.trim().to_string() }),
        "param" => Some(HeaderKey::Param { name: super::header::split_assign(rest)?.0.trim().to_string() }),
        "launch" => Some(HeaderKey::Launch),
        "kernel" => Some(HeaderKey::Kernel),
        _ => None,
    }
}

/// Each line's byte range: where it starts, where its text ends and where its line break ends.
fn line_ranges(text: &str) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let (end, next) = match text[start..].find('\n') {
            Some(k) => (start + k - usize::from(text[..start + k].ends_with('\r')), start + k + 1),
            None => (text.len(), text.len()),
        };
        out.push((start, end, next));
        start = next;
    }
    out
}

/// Where a new header line goes: after the last `//@` line of the file's top (the lines before
/// the first that is neither a header, a `//` comment nor blank), else before the first line.
fn insertion_point(text: &str, lines: &[(usize, usize, usize)]) -> usize {
    let mut at = 0;
    for &(start, end, next) in lines {
        let t = text[start..end].trim();
        if t.starts_with("//@") {
            at = next;
        } else if !(t.is_empty() || t.starts_with("//")) {
            break;
        }
    }
    at
}

/// `text` with one header edit made; every other byte stays as it was. A set replaces the last
/// line with its key (the one the parser reads last) or adds one where header lines go, ending
/// in the text's own line break; a remove takes out every line with its key.
pub fn set_header(text: &str, edit: &HeaderEdit) -> String {
    let lines = line_ranges(text);
    let key = match edit {
        HeaderEdit::Set(l) => l.key(),
        HeaderEdit::Remove(k) => k.clone(),
    };
    let matching: Vec<(usize, usize, usize)> =
        lines.iter().copied().filter(|&(s, e, _)| key_of(&text[s..e]).as_ref() == Some(&key)).collect();
    match edit {
        HeaderEdit::Remove(_) => {
            let mut out = String::with_capacity(text.len());
            let mut from = 0;
            for (s, _, next) in matching {
                out.push_str(&text[from..s]);
                from = next;
            }
            out.push_str(&text[from..]);
            out
        }
        HeaderEdit::Set(line) => {
            let line = line.to_string();
            if let Some(&(s, e, _)) = matching.last() {
                // Keep the old line's indentation.
                let indent = &text[s..s + (text[s..e].len() - text[s..e].trim_start().len())];
                return format!("{}{indent}{line}{}", &text[..s], &text[e..]);
            }
            let eol = if text.find('\n').is_some_and(|k| text[..k].ends_with('\r')) { "\r\n" } else { "\n" };
            let at = insertion_point(text, &lines);
            // A last header line without a line break gets one before the new line.
            let (before, after) = if at > 0 && !text[..at].ends_with('\n') { (eol, "") } else { ("", eol) };
            format!("{}{before}{line}{after}{}", &text[..at], &text[at..])
        }
    }
}

#[cfg(test)]
#[path = "inputs_tests.rs"]
mod tests;
