//! `PRINTF "format", args...`: the format is a string; each directive takes, in order, a string
//! (`%s`) or a register. The registers are consecutive from the first: a `%f`, `%ld` or `%p`
//! argument is a register pair written by its first register (`R9` for `R9:R10`).
//! `PRINTF "format", [Ra]` reads the arguments from a buffer at the address in Ra, laid out as
//! real SASS lays them out for `vprintf`: each argument aligned to its size.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{err, Args, At, DecodeError};
use crate::isa::*;
use crate::printf::{ArgKind, Format, MAX_WORDS};

/// The instruction (its id still 0: the assembler numbers the formats) and its format.
pub(super) fn decode(a: &Args) -> Result<(Op, Format), DecodeError> {
    let Some(super::Operand::Str(text)) = a.ops.first() else {
        let at = if a.ops.is_empty() { At::Mnemonic } else { At::Operand(0) };
        return err(at, "`PRINTF` starts with its format, a string in double quotes");
    };
    let probe = Format::new(text, Vec::new());
    let kinds: Vec<ArgKind> = probe.specs().map(|s| s.kind()).collect();
    if let [_, super::Operand::Mem { .. }] = a.ops[..] {
        return from_buffer(a, text, &kinds);
    }
    if kinds.len() != a.ops.len() - 1 {
        let at = if a.ops.len() > kinds.len() + 1 { At::Operand(kinds.len() + 1) } else { At::Operand(0) };
        return err(at, format!("the format has {} directive(s), and {} argument(s) follow it", kinds.len(), a.ops.len() - 1));
    }
    let mut strings = Vec::new();
    let mut base: Option<Reg> = None;
    let mut words = 0usize;
    for (k, kind) in kinds.iter().enumerate() {
        let i = k + 1;
        match (kind, &a.ops[i]) {
            (ArgKind::Str, super::Operand::Str(s)) => strings.push(String::from(s.as_str())),
            (ArgKind::Str, _) => return a.wrong(i, "a string (`%s` prints a string literal)"),
            (_, _) => {
                let reg = a.reg(i)?;
                let first = *base.get_or_insert(reg);
                if reg.is_zero() || reg.0 as usize != first.0 as usize + words {
                    let want = first.0 as usize + words;
                    return err(
                        At::Operand(i),
                        format!(
                            "`PRINTF`'s arguments sit in consecutive registers from the first: expected R{want} here (a `%f`, `%ld` or `%p` argument takes two)"
                        ),
                    );
                }
                words += kind.words();
            }
        }
    }
    if words > MAX_WORDS {
        return err(At::Mnemonic, format!("`PRINTF` passes at most {MAX_WORDS} argument words, this one {words}"));
    }
    if base.is_some_and(|b| b.0 as usize + words > Reg::RZ.0 as usize) {
        return err(At::Operand(a.ops.len() - 1), "the arguments run past R254");
    }
    let op = Op::Printf { id: 0, base: base.unwrap_or(Reg::RZ), words: words as u8, buffer: 0 };
    Ok((op, Format::new(text, strings)))
}

/// `PRINTF "format", [Ra]`: which words of the buffer hold the arguments (a bit each).
fn from_buffer(a: &Args, text: &str, kinds: &[ArgKind]) -> Result<(Op, Format), DecodeError> {
    let addr = a.mem(1)?;
    if addr.offset != 0 {
        return err(At::Operand(1), "`PRINTF`'s buffer is the address in a register, without an offset");
    }
    let mut layout = 0u32;
    let mut at = 0usize;
    for kind in kinds {
        if *kind == ArgKind::Str {
            return err(At::Operand(0), "a `%s` argument in a buffer (a pointer to a string) is not run yet");
        }
        let words = kind.words();
        at = at.next_multiple_of(words);
        if at + words > 32 {
            return err(At::Operand(0), "`PRINTF`'s buffer holds at most 128 bytes of arguments");
        }
        for w in at..at + words {
            layout |= 1 << w;
        }
        at += words;
    }
    let words: usize = kinds.iter().map(|k| k.words()).sum();
    if words > MAX_WORDS {
        return err(At::Mnemonic, format!("`PRINTF` passes at most {MAX_WORDS} argument words, this one {words}"));
    }
    // A format without arguments reads nothing: the register form.
    let op = Op::Printf { id: 0, base: addr.base, words: words as u8, buffer: layout };
    Ok((op, Format::new(text, Vec::new())))
}
