//! Constant bank 3: the module's `__constant__` variables. A dump holds their reads
//! (`c[0x3][0x8]`, `c[0x3][R25+0x4]`) but neither their names nor their values, so the header
//! gives them: each `//@ buffer` line that binds no parameter is one, laid in the bank in the
//! order written, each at the next multiple of its element's size, as nvcc lays a file's
//! `__constant__` variables in the order it declares them. A read becomes a load from the
//! variable's buffer, whose base a register holds from the launch.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::kernel::expr::{Value, VarEnv};
use crate::kernel::{param_defaults, Kernel};

/// One `__constant__` variable: its buffer, its byte range in the bank, and the register that
/// holds its buffer's base.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConstVar {
    pub name: String,
    pub offset: u32,
    pub bytes: u32,
    pub reg: u8,
}

/// `c[0x3][R25+0x4]`: the register (`None` for `c[0x3][0x8]`), the byte offset and whether the
/// operand is negated; `None` when the operand is no bank-3 read.
pub fn operand(text: &str) -> Option<(Option<&str>, u32, bool)> {
    let t = text.trim();
    let negated = t.starts_with('-');
    let inner = t.trim_start_matches('-').strip_prefix("c[0x3][")?.strip_suffix(']')?;
    let mut reg = None;
    let mut offset = 0u32;
    for part in inner.split('+').map(str::trim) {
        match part.strip_prefix("0x") {
            Some(h) => offset = offset.checked_add(u32::from_str_radix(h, 16).ok()?)?,
            None if part == "RZ" => {}
            None => reg = Some(part),
        }
    }
    Some((reg, offset, negated))
}

/// The bank's variables: the header's buffers that bind no parameter (`argK`) nor size the
/// shared or local memory (`shared`, `local`), none made for the kernel, with registers from
/// `first`. A length the defaults do not make
/// a whole number counts as 0.
pub fn layout(k: &Kernel, first: u8) -> Vec<ConstVar> {
    let defaults: Vec<(String, Value)> = param_defaults(k).into_iter().map(|(n, v)| (n, v.unwrap_or(Value::Int(0)))).collect();
    let vars: Vec<(&str, Value)> = defaults.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let env = VarEnv { vars: &vars };
    let mut out = Vec::new();
    let mut at = 0u32;
    let own = |name: &str| is_param_name(name) || matches!(name, "shared" | "local");
    for b in k.buffers.iter().filter(|b| !b.auto && !b.shared && !own(&b.name)) {
        let len = match b.len.expr.eval(&env) {
            Ok(Value::Int(n)) => u32::try_from(n).unwrap_or(0),
            _ => 0,
        };
        let size = b.elem.bytes();
        at = at.next_multiple_of(size);
        let Some(reg) = first.checked_add(out.len() as u8) else { break };
        out.push(ConstVar { name: b.name.clone(), offset: at, bytes: len.saturating_mul(size), reg });
        at = at.saturating_add(len.saturating_mul(size));
    }
    out
}

fn is_param_name(name: &str) -> bool {
    name.strip_prefix("arg").is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
}

/// The variable a read at `offset` lies in, or why there is none. With an index register
/// (`indexed`), the last variable starting at or before it: the register adds an element's
/// offset to the array the immediate names (`F[k + 2]` is `c[0x3][R5+0x8]`), and a read
/// past its end faults at run time, naming it.
pub fn var_at<'v>(vars: &'v [ConstVar], text: &str, offset: u32, indexed: bool) -> Result<&'v ConstVar, String> {
    if vars.is_empty() {
        return Err(format!(
            "`{text}` reads constant bank 3, the kernel's `__constant__` variables, which a dump does not print: give each as a `//@ buffer NAME: T[N] = values` line, in the order the .cu declares them (or paste its CUDA C or PTX, which name them)"
        ));
    }
    let found = if indexed {
        vars.iter().rfind(|v| v.offset <= offset)
    } else {
        vars.iter().find(|v| v.offset <= offset && offset < v.offset + v.bytes.max(1))
    };
    found.ok_or_else(|| {
        let known: Vec<String> = vars.iter().map(|v| format!("`{}` at 0x{:x}-0x{:x}", v.name, v.offset, v.offset + v.bytes)).collect();
        format!(
            "`{text}` reads byte 0x{offset:x} of constant bank 3, where none of the header's `__constant__` variables lies ({}): give them all, in the order the .cu declares them",
            known.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_name_a_register_and_an_offset() {
        assert_eq!(operand("c[0x3][0x8]"), Some((None, 8, false)));
        assert_eq!(operand("-c[0x3][R25+0x4]"), Some((Some("R25"), 4, true)));
        assert_eq!(operand("c[0x3][R2]"), Some((Some("R2"), 0, false)));
        assert_eq!(operand("c[0x0][0x210]"), None);
    }

    #[test]
    fn variables_lie_in_header_order_each_aligned_to_its_element() {
        let text = "//@ param n = 3\n//@ buffer arg0: f32[4]\n//@ buffer a: f32[1]\n//@ buffer d: f64[n]\n//@ buffer c: u8[2]\nEXIT\n";
        let (k, diags) = crate::kernel::parse_kernel(text);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let vars = layout(&k, 230);
        let got: Vec<(&str, u32, u32, u8)> = vars.iter().map(|v| (v.name.as_str(), v.offset, v.bytes, v.reg)).collect();
        assert_eq!(got, [("a", 0, 4, 230), ("d", 8, 24, 231), ("c", 32, 2, 232)]);
        assert_eq!(var_at(&vars, "c[0x3][0x10]", 0x10, false).map(|v| v.name.as_str()), Ok("d"));
        assert!(var_at(&vars, "c[0x3][0x4]", 4, false).unwrap_err().contains("`a` at 0x0-0x4, `d` at 0x8-0x20"));
        // An array's element past an index register: the array the offset starts in.
        assert_eq!(var_at(&vars, "c[0x3][R2+0x4]", 4, true).map(|v| v.name.as_str()), Ok("a"));
        assert_eq!(var_at(&vars, "c[0x3][R2+0x40]", 0x40, true).map(|v| v.name.as_str()), Ok("c"));
        assert!(var_at(&[], "c[0x3][0x0]", 0, false).unwrap_err().contains("`//@ buffer NAME: T[N] = values`"));
    }
}
