//! The assembler: listing text to a `Program` plus located diagnostics. It never fails.
//!
//! Two passes: every line is split and decoded (collecting addresses and labels), then code
//! targets are resolved against addresses (hex, as in the papers' listings) or labels.

mod build;
mod decode;
mod line;
mod operand;

pub use build::Builder;
pub use decode::OPCODES;
pub(crate) use line::is_label_char;
pub use operand::Operand;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::diag::{Diagnostic, Span};
use crate::isa::{Guard, Instruction, Op, Pc, Pred};
use crate::printf::Format;
use crate::program::Program;
use decode::{At, TargetRef};
use line::{split_line, Piece};
pub(crate) use operand::parse_operand;
pub(crate) use operand::parse_special;

/// Reads a register name (`R5`, `RZ`), for header lines.
pub fn parse_register(s: &str) -> Option<crate::isa::Reg> {
    operand::parse_reg(s)
}

/// Reads a predicate name (`P0`-`P6`, `PT`), for header lines.
pub fn parse_predicate(s: &str) -> Option<Pred> {
    match parse_operand(s) {
        Ok(Operand::Pred { pred, negated: false }) => Some(pred),
        _ => None,
    }
}

/// Column (1-based, in characters) of a byte offset within a line.
fn col_of(line: &str, byte: usize) -> u32 {
    line.get(..byte).map_or(1, |p| p.chars().count() as u32 + 1)
}

fn span_of(line_no: u32, line: &str, piece: Piece) -> Span {
    Span::new(line_no, col_of(line, piece.start), piece.text.chars().count().max(1) as u32)
}

fn parse_guard(text: &str) -> Result<Option<Guard>, String> {
    let body = &text[1..];
    let (negated, name) = match body.strip_prefix('!') {
        Some(n) => (true, n),
        None => (false, body),
    };
    match parse_operand(name) {
        Ok(Operand::Pred { pred, negated: false }) if pred == Pred::PT && !negated => Ok(None),
        Ok(Operand::Pred { pred, negated: false }) => Ok(Some(Guard { pred, negated })),
        _ => Err(format!("bad guard `{text}`: expected @P0-@P6, @PT or a negation like @!P0")),
    }
}

struct Fixup {
    pc: usize,
    target: TargetRef,
    span: Span,
}

/// Assembles listing text. Lines starting with `//` (including `//@` headers) are comments.
pub fn assemble(src: &str) -> (Program, Vec<Diagnostic>) {
    let mut prog = Program::default();
    let mut diags = Vec::new();
    let mut fixups = Vec::new();
    let mut labels: BTreeMap<String, (Pc, Span)> = BTreeMap::new();
    // Addresses of lines that failed to decode: targets to them are not reported twice.
    let mut failed_addrs = Vec::new();
    let mut next_addr: Option<u32> = None;

    for (idx, text) in src.lines().enumerate() {
        let line_no = idx as u32 + 1;
        let parts = match split_line(text) {
            Ok(p) => p,
            Err(e) => {
                let len = text.get(e.start..e.start + e.len).map_or(1, |s| s.chars().count().max(1)) as u32;
                diags.push(Diagnostic::error(Span::new(line_no, col_of(text, e.start), len), e.message));
                continue;
            }
        };
        for l in &parts.labels {
            let span = span_of(line_no, text, *l);
            let pc = Pc(prog.len() as u32);
            if let Some((_, first)) = labels.get(l.text) {
                diags.push(Diagnostic::error(span, format!("label `{}` is already defined on line {}", l.text, first.line)));
            } else {
                labels.insert(l.text.to_string(), (pc, span));
                prog.labels.push((l.text.to_string(), pc));
            }
        }
        let Some(mnemonic) = parts.mnemonic else {
            if let Some((_, piece)) = parts.address {
                diags.push(Diagnostic::warning(span_of(line_no, text, piece), "address comment with no instruction"));
            }
            continue;
        };
        let addr = match (parts.address, next_addr) {
            (Some((a, piece)), Some(n)) if a < n => {
                let prev = n.saturating_sub(8);
                diags.push(Diagnostic::error(
                    span_of(line_no, text, piece),
                    format!("address {a:#06x} is not after the previous instruction's {prev:#06x}"),
                ));
                n
            }
            (Some((a, _)), _) => a,
            (None, n) => n.unwrap_or(0),
        };
        next_addr = Some(addr.saturating_add(8));
        match assemble_one(line_no, text, &parts, mnemonic, &mut prog.formats, &mut prog.calls) {
            Ok((instr, target)) => {
                if let Some((target, span)) = target {
                    fixups.push(Fixup { pc: prog.len(), target, span });
                }
                prog.instrs.push(instr);
                prog.addrs.push(addr);
                prog.lines.push(line_no);
            }
            Err(d) => {
                failed_addrs.push(addr);
                diags.push(d);
            }
        }
    }
    for f in fixups {
        let resolved = match &f.target {
            TargetRef::Addr(a) => {
                prog.pc_of_addr(*a).ok_or_else(|| (!failed_addrs.contains(a)).then(|| format!("no instruction at address {a:#06x}")))
            }
            TargetRef::Label(l) => labels.get(l).map(|(pc, _)| *pc).ok_or_else(|| Some(format!("unknown label `{l}`"))),
        };
        match resolved {
            Ok(pc) => prog.instrs[f.pc].op.set_target(pc),
            Err(Some(msg)) => diags.push(Diagnostic::error(f.span, msg)),
            Err(None) => {}
        }
    }
    diags.sort_by_key(|d| (d.span.line, d.span.col));
    (prog, diags)
}

type Assembled = (Instruction, Option<(TargetRef, Span)>);

fn assemble_one(
    line_no: u32,
    text: &str,
    parts: &line::LineParts,
    mnemonic: Piece,
    formats: &mut Vec<Format>,
    calls: &mut Vec<String>,
) -> Result<Assembled, Diagnostic> {
    let guard = match parts.guard {
        Some(g) => parse_guard(g.text).map_err(|m| Diagnostic::error(span_of(line_no, text, g), m))?,
        None => None,
    };
    let mut ops = Vec::with_capacity(parts.operands.len());
    for piece in &parts.operands {
        let op = parse_operand(piece.text).map_err(|m| Diagnostic::error(span_of(line_no, text, *piece), m))?;
        ops.push(op);
    }
    let decoded = decode::decode(mnemonic.text, &ops).map_err(|e| {
        let piece = match e.at {
            At::Mnemonic => mnemonic,
            At::Operand(i) => parts.operands.get(i).copied().unwrap_or(mnemonic),
        };
        Diagnostic::error(span_of(line_no, text, piece), e.message)
    })?;
    let target = decoded.target.map(|(t, i)| (t, span_of(line_no, text, parts.operands[i])));
    let mut op = decoded.op;
    intern_format(decoded.format, &mut op, formats).map_err(|m| Diagnostic::error(span_of(line_no, text, mnemonic), m))?;
    intern_call(decoded.call, &mut op, calls).map_err(|m| Diagnostic::error(span_of(line_no, text, mnemonic), m))?;
    // The instruction as written, from the guard (or mnemonic) to the last operand.
    let start = parts.guard.unwrap_or(mnemonic).start;
    let end = parts.operands.last().map_or(mnemonic.start + mnemonic.text.len(), |o| o.start + o.text.len());
    let shown = text.get(start..end).unwrap_or(mnemonic.text).to_string();
    Ok((Instruction { guard, op, pop: decoded.pop, text: shown }, target))
}

/// Gives a `PRINTF` its format's id: one table entry per distinct format (with its `%s`
/// strings).
fn intern_format(format: Option<Format>, op: &mut Op, formats: &mut Vec<Format>) -> Result<(), &'static str> {
    if let (Some(format), Op::Printf { id, .. }) = (format, op) {
        let k = formats.iter().position(|f| *f == format).unwrap_or(formats.len());
        *id = u16::try_from(k).map_err(|_| "more than 65536 distinct `PRINTF` formats")?;
        if k == formats.len() {
            formats.push(format);
        }
    }
    Ok(())
}

/// Gives a `HOST` its call's id: one table entry per distinct name.
fn intern_call(call: Option<String>, op: &mut Op, calls: &mut Vec<String>) -> Result<(), &'static str> {
    if let (Some(call), Op::Host { id, .. }) = (call, op) {
        let k = calls.iter().position(|c| *c == call).unwrap_or(calls.len());
        *id = u16::try_from(k).map_err(|_| "more than 65536 distinct `HOST` calls")?;
        if k == calls.len() {
            calls.push(call);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
