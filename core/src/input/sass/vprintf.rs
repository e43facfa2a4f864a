//! `printf` in real SASS: nvcc packs the arguments into a buffer in local memory (R6 holds its
//! address), loads the format string's address (R4:R5) and `vprintf`'s from constant bank 4,
//! and calls `vprintf` through a register (`CALL.ABS.NOINC R8`). The format's text is in the
//! cubin's data, which only nvdisasm's whole-cubin output prints (`.nv.constant4` names the
//! symbol at each address slot, `.nv.global.init` holds the bytes); each call runs as
//! `PRINTF "format", [R6]`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

use super::syntax::{Dump, Function, Instr};

/// Each register call's format by its address, or why it has none.
pub fn formats(f: &Function, dump: &Dump) -> BTreeMap<u32, Result<String, String>> {
    let mut out = BTreeMap::new();
    for (k, i) in f.instrs.iter().enumerate() {
        if i.opcode() == "CALL" && i.mnemonic.contains(".ABS") && i.operands.first().is_some_and(|o| o.starts_with('R')) {
            out.insert(i.addr, format_of(f, dump, k, i));
        }
    }
    out
}

fn format_of(f: &Function, dump: &Dump, call: usize, i: &Instr) -> Result<String, String> {
    let shown = format!("{} {}", i.mnemonic, i.operands.join(", "));
    if dump.bank4.is_empty() {
        return Err(format!(
            "`{shown}` calls through a register: in nvcc's code, `printf`'s call of `vprintf`, whose format strings are in the cubin's data, which `cuobjdump -sass` and `nvdisasm -c` do not print: paste the output of `nvdisasm` on the whole cubin (without -c)"
        ));
    }
    if !dump.bank4.iter().any(|(_, s)| *s == "vprintf") {
        return Err(format!("`{shown}` calls through a register (a function pointer): not run yet"));
    }
    // The latest read of a format string's address before the call, in the same block.
    for j in (0..call).rev() {
        let before = &f.instrs[j];
        if matches!(before.opcode(), "BRA" | "CALL" | "EXIT" | "RET" | "BRX" | "JMX") {
            break;
        }
        for o in &before.operands {
            let Some(off) = o.trim().strip_prefix("c[0x4][0x").and_then(|r| r.strip_suffix(']')) else { continue };
            let Ok(off) = u32::from_str_radix(off, 16) else { continue };
            let Some((_, sym)) = dump.bank4.iter().find(|(at, _)| *at == off) else { continue };
            if let Some((_, bytes)) = dump.data.iter().find(|(name, _)| name == sym) {
                let text = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
                return Ok(String::from_utf8_lossy(text).into_owned());
            }
        }
        if f.labels.iter().any(|&(_, at)| at == j) {
            break;
        }
    }
    Err(format!("`{shown}`: no format string's address (`c[0x4][...]`, a `$str` of the dump's data) is read before this call of `vprintf`"))
}
