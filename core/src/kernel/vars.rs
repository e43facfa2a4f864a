//! A C kernel's variables by name: which are in scope at a source line, and what each holds in
//! a lane (read from its register and typed by its C type). Front ends show these beside the
//! raw registers, so a student reads `sum = 42` rather than `R7 0x0000002a`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::compile::ast::{Scalar, Ty};
use crate::compile::VarInfo;
use crate::isa::Reg;
use crate::machine::Machine;

/// One variable's value in one lane.
#[derive(Clone, PartialEq, Debug)]
pub struct VarValue {
    pub name: String,
    /// Its C type (`int`, `float*`).
    pub ty: String,
    pub reg: u8,
    /// Where it is held: `R7`, or `R7:R8` for a 64-bit value (a register pair).
    pub held_in: String,
    /// The value as C would print it; a pointer also names the element it points at.
    pub value: String,
}

/// The variables in scope at `line` (innermost last), with their values in `lane`. A name
/// declared twice in nested scopes shows once: the inner one, which is the one C sees.
pub fn variables_at(vars: &[VarInfo], m: &Machine, lane: u32, line: u32) -> Vec<VarValue> {
    let live: Vec<&VarInfo> = vars.iter().filter(|v| v.first_line <= line && line <= v.last_line).collect();
    let mut out: Vec<VarValue> = Vec::new();
    for v in live.iter().rev() {
        if out.iter().any(|o| o.name == v.name) {
            continue;
        }
        if let Ty::Vector(s, n) = v.ty {
            // `{x, y, z, w}` from its registers in a row, each as its component type shows.
            let last = v.reg as u32 + n as u32 - 1;
            let parts: Vec<String> = (0..n).map(|k| show(m, Ty::Scalar(s), m.reg(lane, Reg(v.reg.saturating_add(k))) as u64)).collect();
            let held_in = format!("R{}-R{last}", v.reg);
            out.push(VarValue {
                name: v.name.clone(),
                ty: v.type_name.clone(),
                reg: v.reg,
                held_in,
                value: format!("{{{}}}", parts.join(", ")),
            });
            continue;
        }
        let hi = if v.ty.wide() { m.reg(lane, Reg(v.reg.saturating_add(1))) } else { 0 };
        let bits = (hi as u64) << 32 | m.reg(lane, Reg(v.reg)) as u64;
        let held_in = if v.ty.wide() { format!("R{}:R{}", v.reg, v.reg as u32 + 1) } else { format!("R{}", v.reg) };
        out.push(VarValue { name: v.name.clone(), ty: v.type_name.clone(), reg: v.reg, held_in, value: show(m, v.ty, bits) });
    }
    out.reverse();
    out
}

fn show(m: &Machine, ty: Ty, bits: u64) -> String {
    let word = bits as u32;
    match ty {
        Ty::Scalar(Scalar::Long) => format!("{}", bits as i64),
        Ty::Scalar(Scalar::ULong) => format!("{bits}"),
        Ty::Scalar(Scalar::Double) => format!("{}", f64::from_bits(bits)),
        Ty::Scalar(Scalar::Int | Scalar::Short) => format!("{}", word as i32),
        Ty::Scalar(Scalar::Unsigned | Scalar::UShort) => format!("{word}"),
        // A character shows as one too (`97 'a'`), as a debugger shows it.
        Ty::Scalar(Scalar::Char | Scalar::UChar) => crate::machine::byte_text(word as i32),
        Ty::Scalar(Scalar::Float) => format!("{}", f32::from_bits(word)),
        Ty::Scalar(Scalar::Bool) => String::from(if word != 0 { "true" } else { "false" }),
        Ty::Ptr(_) | Ty::VecPtr(..) | Ty::StructPtr(_) => match m.memory.element_at(word) {
            Some((name, index)) => format!("{word:#x} (&{name}[{index}])"),
            None => format!("{word:#x}"),
        },
        // A struct's fields are variables of their own (`a.r`).
        Ty::Void | Ty::Vector(..) | Ty::Struct(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{ElemType, Memory};
    use alloc::vec;

    fn var(name: &str, ty: Ty, reg: u8, lines: (u32, u32)) -> VarInfo {
        VarInfo { name: name.into(), ty, type_name: ty.name().into(), reg, func: "k".into(), first_line: lines.0, last_line: lines.1 }
    }

    #[test]
    fn in_scope_variables_typed_with_the_inner_name_winning() {
        let mut mem = Memory::default();
        let a = mem.add("a", ElemType::I32, vec![0; 8]);
        let mut m = Machine::new(4, 8, mem);
        m.set_reg(2, Reg(1), (-3i32) as u32);
        m.set_reg(2, Reg(2), 1.5f32.to_bits());
        m.set_reg(2, Reg(3), a + 12);
        m.set_reg(2, Reg(4), 9);
        let vars = [
            var("p", Ty::Ptr(Scalar::Int), 3, (1, 20)),
            var("x", Ty::INT, 1, (2, 10)),
            var("f", Ty::FLOAT, 2, (3, 4)),
            var("x", Ty::UNSIGNED, 4, (5, 6)),
        ];
        let at = |line| variables_at(&vars, &m, 2, line).into_iter().map(|v| format!("{}={}", v.name, v.value)).collect::<Vec<_>>();
        assert_eq!(at(3), ["p=0x100c (&a[3])", "x=-3", "f=1.5"]);
        assert_eq!(at(5), ["p=0x100c (&a[3])", "x=9"]);
        assert_eq!(at(15), ["p=0x100c (&a[3])"]);
    }

    #[test]
    fn bytes_show_their_character_and_pointers_into_byte_buffers_their_element() {
        let mut mem = Memory::default();
        let text = mem.add_elements(crate::machine::Space::Global, "text", ElemType::U8, 6, ElemType::U8.pack([104, 105, 0, 0, 0, 0]));
        let mut m = Machine::new(1, 8, mem);
        m.set_reg(0, Reg(1), 104);
        m.set_reg(0, Reg(2), (-3i32) as u32);
        m.set_reg(0, Reg(3), text + 5);
        m.set_reg(0, Reg(4), 65535);
        let vars = [
            var("c", Ty::Scalar(Scalar::UChar), 1, (1, 9)),
            var("s", Ty::Scalar(Scalar::Char), 2, (1, 9)),
            var("p", Ty::Ptr(Scalar::UChar), 3, (1, 9)),
            var("h", Ty::Scalar(Scalar::UShort), 4, (1, 9)),
        ];
        let shown: Vec<String> = variables_at(&vars, &m, 0, 2).into_iter().map(|v| format!("{} {}={}", v.ty, v.name, v.value)).collect();
        assert_eq!(shown, ["unsigned char c=104 'h'", "char s=-3", "unsigned char* p=0x1005 (&text[5])", "unsigned short h=65535"]);
    }

    #[test]
    fn a_vector_shows_its_components_from_its_row_of_registers() {
        let mut mem = Memory::default();
        let px = mem.add_elements(crate::machine::Space::Global, "px", ElemType::U8, 8, ElemType::U8.pack([0; 8]));
        let mut m = Machine::new(1, 12, mem);
        for (k, v) in [104u32, 105, 0, 255].into_iter().enumerate() {
            m.set_reg(0, Reg(2 + k as u8), v);
        }
        m.set_reg(0, Reg(6), 1.5f32.to_bits());
        m.set_reg(0, Reg(7), (-2.0f32).to_bits());
        m.set_reg(0, Reg(8), px + 4);
        let vars = [
            var("rgba", Ty::Vector(Scalar::UChar, 4), 2, (1, 9)),
            var("v", Ty::Vector(Scalar::Float, 2), 6, (1, 9)),
            var("p", Ty::VecPtr(Scalar::UChar, 4), 8, (1, 9)),
        ];
        let shown: Vec<String> =
            variables_at(&vars, &m, 0, 2).into_iter().map(|v| format!("{} {}={} in {}", v.ty, v.name, v.value, v.held_in)).collect();
        assert_eq!(
            shown,
            ["uchar4 rgba={104 'h', 105 'i', 0, 255} in R2-R5", "float2 v={1.5, -2} in R6-R7", "uchar4* p=0x1004 (&px[4]) in R8"]
        );
    }
}

#[cfg(test)]
mod compiled_tests {
    use crate::kernel::parse_kernel;

    /// A `for` variable lives through its body, which is lowered before the loop's step line.
    #[test]
    fn scopes_cover_their_bodies() {
        let (k, _) =
            parse_kernel("__global__ void k(int* a) {\n  int v = 1;\n  for (int i = 0; i < 4; i++)\n    v += i;\n  a[0] = v;\n}\n");
        let vars = &k.compiled.unwrap().vars;
        let lines = |name: &str| vars.iter().find(|v| v.name == name).map(|v| (v.first_line, v.last_line)).unwrap();
        assert_eq!(lines("i"), (3, 4));
        assert_eq!(lines("v").0, 2);
        assert!(lines("v").1 >= 5);
        assert_eq!(lines("a"), (1, 5));
    }
}
