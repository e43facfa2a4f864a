use super::*;
use crate::isa::{Op, Pc};

const LISTING3: &str = "\
1\t/*0060*/\tISETP.LT.AND P0, PT, R5, 0x1, PT;
2\t\t• • •
3\t/*00e0*/\tSSY 0x128;
4\t/*00e8*/\t@P0 BRA 0x120;
5\t/*00f0*/\tNOP;
6\t/*00f8*/\tNOP;
7\t/*0100*/\tIADD R4, R4, 0x1;
8\t/*0108*/\tFADD32I R0, R0, 1.3332999944686889648;
9\t/*0110*/\tISETP.LT.AND P0, PT, R4, R5, PT;
10\t/*0118*/\t@P0 BRA 0x100;
11\t/*0120*/\tNOP.S;
12\t/*0128*/\tS2R R5, SR_CLOCKHI;
";

#[test]
fn listing3_as_printed() {
    let (p, d) = assemble(LISTING3);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(p.len(), 11);
    assert_eq!(p.addrs[1], 0xe0);
    assert_eq!(p.instrs[1].op, Op::Ssy { target: Pc(10) });
    assert_eq!(p.instrs[2].op, Op::Bra { target: Pc(9), uniform: false });
    assert_eq!(p.instrs[8].op, Op::Bra { target: Pc(5), uniform: false });
    assert!(p.instrs[9].pop);
    assert_eq!(p.instrs[2].text, "@P0 BRA 0x120");
    assert_eq!(p.lines[1], 3);
}

#[test]
fn labels_and_course_note_targets() {
    let src = "SSY `(RECONV)\n@!P1 BRA EVEN\nFADD R4, R1, 10\nSYNC\nEVEN: FADD R4, R1, -10\nSYNC\nRECONV:\nEXIT\n";
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(p.instrs[0].op, Op::Ssy { target: Pc(6) });
    assert_eq!(p.instrs[1].op, Op::Bra { target: Pc(4), uniform: false });
    assert!(p.instrs[2].guard.is_none());
    assert_eq!(p.addrs, [0, 8, 16, 24, 32, 40, 48]);
}

#[test]
fn unknown_opcode_is_located_and_named() {
    let (_, d) = assemble("NOP\n   FOO R1, R2\n");
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].span.line, d[0].span.col, d[0].span.len), (2, 4, 3));
    assert!(d[0].message.contains("`FOO`"), "{}", d[0].message);
}

#[test]
fn bad_operand_is_located_and_named() {
    let (_, d) = assemble("IADD R1, R2, P0\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].span.col, 14);
    assert!(d[0].message.contains("operand 3"), "{}", d[0].message);
    let (_, d) = assemble("IADD R1, R999, 1\n");
    assert_eq!(d[0].span.col, 10);
    assert!(d[0].message.contains("R999"));
}

#[test]
fn missing_targets_and_labels() {
    let (_, d) = assemble("/*0000*/ BRA 0x18;\n/*0008*/ BRA NOWHERE;\n");
    assert_eq!(d.len(), 2);
    assert!(d[0].message.contains("0x0018"), "{}", d[0].message);
    assert!(d[1].message.contains("NOWHERE"));
}

#[test]
fn gaps_and_decreasing_addresses() {
    let (p, d) = assemble("/*0010*/ NOP;\n/*0040*/ BRA 0x10;\n");
    assert!(d.is_empty());
    assert_eq!(p.instrs[1].op, Op::Bra { target: Pc(0), uniform: false });
    let (_, d) = assemble("/*0040*/ NOP;\n/*0010*/ NOP;\n");
    assert!(d[0].message.contains("not after"));
}

#[test]
fn pop_bit_on_control_instruction_is_rejected() {
    let (_, d) = assemble("BRA.S 0x0\n");
    assert!(d[0].message.contains(".S"));
}

#[test]
fn unknown_modifier_is_named() {
    let (_, d) = assemble("IADD.X R1, R1, R2\n");
    assert!(d[0].message.contains("`.X`"), "{}", d[0].message);
}

#[test]
fn every_supported_form_assembles() {
    let src = "\
ISETP.GE.U32.OR P1, PT, R2, 0x10, !P0
ISETP.NE.AND P2, R1, RZ, PT
FSETP.GT.AND P0, PT, R3, 0.5, PT
IADD3 R1, R2, -R3, 0x4
ISCADD R1, R2, R3, 0x2
IMUL.HI.U32 R1, R2, R3
IMAD R1, R2, 0x4, R3
IMAD.MOV.U32 R1, RZ, RZ, R2
FFMA R1, R2, R3, -R4
FMUL R1, R2, 2
MOV32I R1, 0x3f800000
MOV R1, R2, 0xf
SEL R1, R2, R3, !P1
LOP.AND R1, R2, ~R3
LOP3.LUT R1, R2, R3, R4, 0xe8, !PT
LOP3.XOR R1, R2, R3
SHL R1, R2, 0x3
SHR.U32 R1, R2, R3
S2R R0, SR_TID.X
S2R R0, SR_LANEID
CS2R R4, SR_CLOCKLO
LDG.E R1, [R2+0x4]
ST.E.64 [R8], R4
BAR.SYNC 0x0
L: PBK L2
PCNT L
@P0 BRK
@!P0 CONT
CAL F
BSSY B0, L2
BSYNC B0
BREAK B1
WARPSYNC 0xffffffff
YIELD
L2: EXIT
F: RET
";
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{d:#?}");
    assert_eq!(p.len(), 36);
}
