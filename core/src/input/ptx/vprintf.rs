//! `printf` in PTX: nvcc packs the arguments into the local depot, stores the format string's
//! address (`$str`, a `.global` byte array) in the call's first `.param` and the buffer's in its
//! second, and calls `vprintf`. Each call runs as `PRINTF "format", [buffer]`: the format is
//! found by following the first `.param`'s value back to the `$str` it names.
//!
//! A failed `assert` calls `__assertfail(message, file, line, function, char size)` with strings
//! found the same way: it runs as a `PRINTF` of CUDA's line ("k.cu:5: void k(int *): Assertion
//! `i < n` failed.") and a trap.

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
        let text = match (call.opcode(), super::call_target(call)) {
            ("call", Some("vprintf")) => format_of(m, &all[..k], call),
            ("call", Some("__assertfail")) => assertion_of(m, &all[..k], call),
            _ => continue,
        };
        let found = text.and_then(|text| {
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
    match passed(call) {
        [fmt, buf] => Some([*fmt, *buf]),
        _ => None,
    }
}

/// The `.param` names a call passes (its last list: `call f, (param0, param1);`).
fn passed<'c, 'a>(call: &'c Instr<'a>) -> &'c [&'a str] {
    call.operands.iter().rev().find_map(|o| if let P::List(v) = o { Some(v.as_slice()) } else { None }).unwrap_or(&[])
}

fn format_of(m: &Module, before: &[&Instr], call: &Instr) -> Result<String, String> {
    let [fmt, _] = args(call).ok_or_else(|| String::from("`vprintf` takes a format and a buffer"))?;
    string_at(m, before, call, fmt)
        .ok_or_else(|| String::from("`printf`'s format: no `$str` whose address reaches this call's first argument"))
}

/// CUDA's line for a failed `assert`, as a format (its `%` doubled).
fn assertion_of(m: &Module, before: &[&Instr], call: &Instr) -> Result<String, String> {
    let [message, file, line, function, ..] = passed(call) else {
        return Err(String::from("`__assertfail` takes a message, a file, a line and a function"));
    };
    let text = |p| string_at(m, before, call, p).unwrap_or_default();
    let line = match stored(before, call, line) {
        Some(P::Int(n)) => format!("{n}"),
        _ => String::from("?"),
    };
    let text = format!("{}:{line}: {}: Assertion `{}` failed.\n", text(file), text(function), text(message));
    Ok(text.replace('%', "%%"))
}

/// The value the call's `.param` `param` was given (`st.param.b64 [param0+0], %rd3`).
fn stored<'m, 'a>(before: &[&'m Instr<'a>], call: &Instr, param: &str) -> Option<&'m P<'a>> {
    before
        .iter()
        .rev()
        .find(|i| i.opcode() == "st" && i.scope == call.scope && matches!(i.operands.first(), Some(P::Addr { base, .. }) if *base == param))
        .and_then(|i| i.operands.get(1))
}

/// The string whose address the call's `.param` `param` holds: back through moves and address
/// conversions to the symbol (`mov.u64 %rd14, $str; cvta.global.u64 %rd15, %rd14`).
fn string_at(m: &Module, before: &[&Instr], call: &Instr, param: &str) -> Option<String> {
    let mut value = stored(before, call, param);
    for _ in 0..8 {
        match value {
            Some(P::Name(sym)) => {
                let v = m.globals.iter().find(|v| v.name == *sym)?;
                let bytes: Vec<u8> = v.init.iter().map(|o| if let P::Int(x) = o { *x as u8 } else { 0 }).take_while(|b| *b != 0).collect();
                return Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            Some(P::Reg(r)) => {
                let def = before.iter().rev().find(|i| matches!(i.opcode(), "mov" | "cvta") && i.operands.first() == Some(&P::Reg(r)));
                value = def.and_then(|i| i.operands.get(1));
            }
            _ => break,
        }
    }
    None
}
