//! `printf` in PTX: nvcc packs the arguments into the local depot, stores the format string's
//! address (`$str`, a `.global` byte array) in the call's first `.param` and the buffer's in its
//! second, and calls `vprintf`. Each call runs as `PRINTF "format", [buffer]`: the format is
//! found by following the first `.param`'s value back to the `$str` it names.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::instrs;
use super::syntax::{Function, Instr, Module, Operand as P};

/// The formats of a function's `vprintf` calls: the strings (the function's string table) and,
/// by the call's line, its format's index or why it has none.
#[derive(Default)]
pub struct Formats {
    pub strings: Vec<String>,
    pub by_line: BTreeMap<u32, Result<u16, String>>,
}

pub fn formats(m: &Module, f: &Function) -> Formats {
    let mut out = Formats::default();
    let all: Vec<&Instr> = instrs(f).collect();
    for (k, call) in all.iter().enumerate() {
        if call.opcode() != "call" || super::call_target(call) != Some("vprintf") {
            continue;
        }
        let found = format_of(m, &all[..k], call).and_then(|text| {
            let at = out.strings.iter().position(|s| *s == text).unwrap_or(out.strings.len());
            if at == out.strings.len() {
                out.strings.push(text);
            }
            u16::try_from(at).map_err(|_| String::from("more than 65536 printf formats"))
        });
        out.by_line.insert(call.span.line, found);
    }
    out
}

/// The `.param` names a `vprintf` call passes: the format's and the buffer's.
pub fn args<'a>(call: &Instr<'a>) -> Option<[&'a str; 2]> {
    let lists: Vec<&Vec<&'a str>> = call.operands.iter().filter_map(|o| if let P::List(v) = o { Some(v) } else { None }).collect();
    match lists.last()?.as_slice() {
        [fmt, buf] => Some([*fmt, *buf]),
        _ => None,
    }
}

fn format_of(m: &Module, before: &[&Instr], call: &Instr) -> Result<String, String> {
    let [fmt, _] = args(call).ok_or_else(|| String::from("`vprintf` takes a format and a buffer"))?;
    let stored = before
        .iter()
        .rev()
        .find(|i| i.opcode() == "st" && i.scope == call.scope && matches!(i.operands.first(), Some(P::Addr { base, .. }) if *base == fmt))
        .and_then(|i| i.operands.get(1));
    // Back through moves and address conversions to the symbol (`mov.u64 %rd14, $str;
    // cvta.global.u64 %rd15, %rd14`).
    let mut value = stored;
    for _ in 0..8 {
        match value {
            Some(P::Name(sym)) => {
                let v = m.globals.iter().find(|v| v.name == *sym).ok_or_else(|| format!("`{sym}` is not a global of this PTX"))?;
                let bytes: Vec<u8> = v.init.iter().map(|o| if let P::Int(x) = o { *x as u8 } else { 0 }).take_while(|b| *b != 0).collect();
                return Ok(String::from_utf8_lossy(&bytes).into_owned());
            }
            Some(P::Reg(r)) => {
                let def = before.iter().rev().find(|i| matches!(i.opcode(), "mov" | "cvta") && i.operands.first() == Some(&P::Reg(r)));
                value = def.and_then(|i| i.operands.get(1));
            }
            _ => break,
        }
    }
    Err(String::from("`printf`'s format: no `$str` whose address reaches this call's first argument"))
}
