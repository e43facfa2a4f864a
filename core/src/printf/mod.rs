//! Device `printf`: the formats a program holds, the output a run prints, and C's formatting.
//!
//! Real GPUs call `vprintf` with the arguments packed into a buffer in local memory; the host
//! formats the buffer after the kernel ends. warpscope keeps one `PRINTF` instruction (the
//! listing stays readable): its arguments sit in consecutive registers, each executing lane
//! appends a record (lane, format id, argument words) to the machine's `OutputLog`, the step
//! that printed tags it, and the text is made only when a front end shows it (`lines`), by the
//! pure formatter in `render`.

mod log;
mod render;
mod spec;

pub use log::{OutputLog, Printed, MAX_RECORDS, MAX_WORDS};
pub use spec::{parse as parse_format, ArgKind, Conv, FormatProblem, Length, Piece, Spec};

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// One `PRINTF`'s format, kept in the program's table and named by the instruction's id.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Format {
    /// The format as written (escapes read).
    pub text: String,
    pub pieces: Vec<Piece>,
    /// The string literals the `%s` directives print, in order.
    pub strings: Vec<String>,
}

impl Format {
    /// A format and its `%s` strings; directives it cannot print stay text (see `parse_format`).
    pub fn new(text: &str, strings: Vec<String>) -> Format {
        Format { text: String::from(text), pieces: parse_format(text).0, strings }
    }

    /// The directives, in order.
    pub fn specs(&self) -> impl Iterator<Item = &Spec> + '_ {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Spec(s) => Some(s),
            Piece::Text(_) => None,
        })
    }

    /// Register words the arguments take.
    pub fn words(&self) -> usize {
        self.specs().map(|s| s.kind().words()).sum()
    }

    /// The text printed for these argument words (missing words read as zero).
    pub fn render(&self, args: &[u32]) -> String {
        let mut out = String::new();
        let mut words = args.iter().copied();
        let mut word = move || words.next().unwrap_or(0);
        let mut strings = self.strings.iter();
        for piece in &self.pieces {
            let s = match piece {
                Piece::Text(t) => {
                    out.push_str(t);
                    continue;
                }
                Piece::Spec(s) => s,
            };
            let bits = match s.kind() {
                ArgKind::Str => {
                    render::string(&mut out, s, strings.next().map_or("", String::as_str));
                    continue;
                }
                ArgKind::Word => word() as u64,
                ArgKind::Pair => {
                    let lo = word() as u64;
                    lo | (word() as u64) << 32
                }
            };
            match s.conv {
                Conv::Char => render::character(&mut out, s, bits as u32),
                Conv::Ptr => render::pointer(&mut out, s, bits),
                c if c.is_float() => render::float(&mut out, s, f64::from_bits(bits)),
                _ => render::integer(&mut out, s, bits),
            }
        }
        out
    }
}

/// A format as a listing writes it: in double quotes, with `\\`, `\"`, `\n`, `\t`, `\r` and
/// `\xHH` (exactly two digits) for other control characters; the assembler reads it back.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Reads a string `quote` wrote (the whole operand, quotes included).
pub fn unquote(operand: &str) -> Result<String, String> {
    let inner = operand
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .filter(|_| operand.len() >= 2)
        .ok_or_else(|| format!("`{operand}` is not a string in double quotes"))?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            return Err(String::from("a `\"` inside a string is written `\\\"`"));
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('a') => out.push('\u{7}'),
            Some(c @ ('\\' | '"' | '\'')) => out.push(c),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                let v = u8::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 2)
                    .ok_or_else(|| format!("`\\x{hex}`: write two hex digits after `\\x`"))?;
                out.push(char::from(v));
            }
            Some(c) => return Err(format!("unknown escape `\\{c}` (known: \\n \\t \\r \\0 \\a \\\\ \\\" \\xHH)")),
            None => return Err(String::from("a string cannot end with `\\`")),
        }
    }
    Ok(out)
}

/// One printed record as a front end shows it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OutputLine {
    /// The step that printed it (1 for the first instruction run).
    pub step: u64,
    /// The lane that printed it; `None` for the note that the output was cut short.
    pub lane: Option<u32>,
    /// What it printed, as C would (with its own `\n`, if it has one).
    pub text: String,
}

/// One record as text.
pub fn line(formats: &[Format], r: &Printed) -> OutputLine {
    let text = formats.get(r.id as usize).map_or_else(String::new, |f| f.render(r.args()));
    OutputLine { step: r.step, lane: Some(r.lane as u32), text }
}

/// The note that ends a log cut short at `step`.
pub fn truncation_line(step: u64) -> OutputLine {
    let text = format!(
        "output truncated: warpscope keeps the first {MAX_RECORDS} printf records of a run (a GPU's printf buffer also drops what does not fit)\n"
    );
    OutputLine { step, lane: None, text }
}

/// Every record of a log as text, in the order printed, and the truncation note last.
pub fn lines(formats: &[Format], log: &OutputLog) -> Vec<OutputLine> {
    let mut out: Vec<OutputLine> = log.records().map(|r| line(formats, r)).collect();
    out.extend(log.truncated_at().map(truncation_line));
    out
}

impl OutputLine {
    /// `[step 12, lane 3] thread 3: sum = 6`: the text without its final newline, later lines
    /// of a text with several indented.
    pub fn tagged(&self) -> String {
        let text = self.text.strip_suffix('\n').unwrap_or(&self.text).replace('\n', "\n    ");
        match self.lane {
            Some(lane) => format!("[step {}, lane {lane}] {text}", self.step),
            None => format!("[step {}] {text}", self.step),
        }
    }
}

#[cfg(test)]
mod tests;
