use super::*;
use crate::isa::{Op, Pc};
use alloc::format;
use alloc::string::String;

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

/// The one op a single listing line decodes to (no diagnostics).
fn op_of(line: &str) -> Op {
    let (p, d) = assemble(&format!("{line}\n"));
    assert!(d.is_empty(), "{line}: {d:?}");
    p.instrs[0].op
}

/// The first diagnostic's message for a line that must not assemble.
fn error_of(line: &str) -> String {
    let (_, d) = assemble(&format!("{line}\n"));
    assert!(!d.is_empty(), "{line} assembled");
    d[0].message.clone()
}

#[test]
fn special_registers_of_the_launch() {
    use crate::isa::{Axis, Reg, SpecialReg};
    let sr = |s: &str| match op_of(&format!("S2R R1, {s}")) {
        Op::S2r { dst: Reg(1), sr } => sr,
        op => panic!("{op:?}"),
    };
    assert_eq!(sr("SR_TID.X"), SpecialReg::Tid(Axis::X));
    assert_eq!(sr("SR_TID_X"), SpecialReg::Tid(Axis::X));
    assert_eq!(sr("SR_TID.Z"), SpecialReg::Tid(Axis::Z));
    assert_eq!(sr("SR_NTID.Y"), SpecialReg::Ntid(Axis::Y));
    assert_eq!(sr("SR_CTAID.X"), SpecialReg::Ctaid(Axis::X));
    assert_eq!(sr("SR_NCTAID.Z"), SpecialReg::Nctaid(Axis::Z));
    assert_eq!(sr("SR_LANEID"), SpecialReg::LaneId);
    assert!(error_of("S2R R1, SR_TID.W").contains("SR_NCTAID"));
}

#[test]
fn warp_wide_instructions_decode() {
    use crate::isa::{Pred, PredSrc, ReduxOp, Reg, ShflMode, Src, VoteMode};
    let r = Src::reg;
    assert_eq!(op_of("REDUX.MAX.S32 R1, R2"), Op::Redux { op: ReduxOp::Max { signed: true }, dst: Reg(1), src: Reg(2) });
    assert_eq!(op_of("REDUX.MIN R1, R2"), Op::Redux { op: ReduxOp::Min { signed: false }, dst: Reg(1), src: Reg(2) });
    assert_eq!(
        op_of("SHFL.DOWN P0, R1, R2, 0x1, 0x1f"),
        Op::Shfl { mode: ShflMode::Down, pred: Pred(0), dst: Reg(1), a: r(Reg(2)), b: Src::Imm(1), c: Src::Imm(0x1f), mask: None }
    );
    assert_eq!(
        op_of("SHFL.BFLY PT, R1, R2, R3, R4, R5"),
        Op::Shfl { mode: ShflMode::Bfly, pred: Pred::PT, dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), c: r(Reg(4)), mask: Some(r(Reg(5))) }
    );
    assert!(matches!(
        op_of("SHFL.IDX PT, R1, R2, 0x0, 0x1f, 0xffffffff"),
        Op::Shfl { mode: ShflMode::Idx, mask: Some(Src::Imm(u32::MAX)), .. }
    ));
    assert!(matches!(op_of("SHFL.UP PT, R1, R2, 0x1, 0x0"), Op::Shfl { mode: ShflMode::Up, .. }));
    assert_eq!(
        op_of("VOTE.ALL R1, P2, !P3, 0xff"),
        Op::Vote {
            mode: VoteMode::All,
            dst: Reg(1),
            pred: Pred(2),
            src: PredSrc { pred: Pred(3), negated: true },
            mask: Some(Src::Imm(0xff))
        }
    );
    assert_eq!(op_of("VOTE.ANY R1, PT, PT"), Op::Vote { mode: VoteMode::Any, dst: Reg(1), pred: Pred::PT, src: PredSrc::TRUE, mask: None });
    assert!(matches!(op_of("VOTE.EQ RZ, P0, P1"), Op::Vote { mode: VoteMode::Eq, dst: Reg::RZ, .. }));
    assert!(error_of("SHFL R1, R2, 0x1, 0x1f").contains(".IDX"));
    assert!(error_of("SHFL.DOWN R1, R2, 0x1, 0x1f, 0x0").contains("predicate"));
    assert!(error_of("SHFL.DOWN P0, R1, R2, 0x1").contains("5 or 6"));
    assert!(error_of("VOTE.ALL P0, R1, P1").contains("register"));
    assert!(error_of("VOTE R1, P0, P1").contains(".ALL"));
}

#[test]
fn bit_min_max_math_and_division_decode() {
    use crate::isa::{MufuFn, PredSrc, Reg, Round, Src};
    let r = Src::reg;
    assert_eq!(op_of("POPC R1, R2"), Op::Popc { dst: Reg(1), src: r(Reg(2)) });
    assert_eq!(op_of("BREV R1, 0x1"), Op::Brev { dst: Reg(1), src: Src::Imm(1) });
    assert_eq!(op_of("FLO.U32 R1, R2"), Op::Flo { dst: Reg(1), src: r(Reg(2)), signed: false, shift: false });
    assert_eq!(op_of("FLO.S32.SH R1, R2"), Op::Flo { dst: Reg(1), src: r(Reg(2)), signed: true, shift: true });
    assert!(error_of("FLO R1, R2").contains(".U32"));
    assert_eq!(op_of("IMNMX R1, R2, R3, PT"), Op::Imnmx { dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), signed: true, p: PredSrc::TRUE });
    assert!(matches!(op_of("IMNMX.U32 R1, R2, R3, !PT"), Op::Imnmx { signed: false, p: PredSrc { negated: true, .. }, .. }));
    assert!(matches!(op_of("FMNMX R1, R2, 1.5, !P0"), Op::Fmnmx { b: Src::Imm(b), .. } if b == 1.5f32.to_bits()));
    for (m, f) in [
        ("RCP", MufuFn::Rcp),
        ("RSQ", MufuFn::Rsq),
        ("SQRT", MufuFn::Sqrt),
        ("EX2", MufuFn::Ex2),
        ("LG2", MufuFn::Lg2),
        ("SIN", MufuFn::Sin),
        ("COS", MufuFn::Cos),
    ] {
        assert_eq!(op_of(&format!("MUFU.{m} R1, R2")), Op::Mufu { func: f, dst: Reg(1), src: r(Reg(2)) });
    }
    assert!(error_of("MUFU.TANH R1, R2").contains(".RSQ"));
    for (m, mode) in [("", Round::Even), (".FLOOR", Round::Floor), (".CEIL", Round::Ceil), (".TRUNC", Round::Trunc)] {
        assert_eq!(op_of(&format!("FRND{m} R1, R2")), Op::Frnd { mode, dst: Reg(1), src: r(Reg(2)) });
    }
    assert_eq!(op_of("IDIV.S32 R1, R2, R3"), Op::Idiv { dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), signed: true, rem: false, wide: false });
    assert_eq!(
        op_of("IREM.U32 R1, R2, 0x7"),
        Op::Idiv { dst: Reg(1), a: r(Reg(2)), b: Src::Imm(7), signed: false, rem: true, wide: false }
    );
    assert_eq!(op_of("IREM.S64 R2, R4, R6"), Op::Idiv { dst: Reg(2), a: r(Reg(4)), b: r(Reg(6)), signed: true, rem: true, wide: true });
    assert_eq!(op_of("DDIV R2, R4, R6"), Op::Ddiv { dst: Reg(2), a: r(Reg(4)), b: r(Reg(6)) });
    assert!(error_of("IDIV.S32 R1, R2, 1.5").contains("integer"));
}

#[test]
fn atomics_and_shared_memory_decode() {
    use crate::isa::{Address, AtomOp, Reg, Space, Src, Width};
    let at = |line: &str| match op_of(line) {
        Op::Atom { op, space, .. } => (op, space),
        op => panic!("{op:?}"),
    };
    assert_eq!(at("ATOM.ADD R1, [R2], R3"), (AtomOp::Add, Space::Generic));
    assert_eq!(at("ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R1, [R2], R3"), (AtomOp::AddF32, Space::Global));
    assert_eq!(at("ATOMG.MIN R1, [R2], R3"), (AtomOp::Min { signed: true }, Space::Global));
    assert_eq!(at("ATOM.MAX.U32 R1, [R2], R3"), (AtomOp::Max { signed: false }, Space::Generic));
    assert_eq!(at("ATOMS.AND R1, [R2], R3"), (AtomOp::And, Space::Shared));
    assert_eq!(at("ATOMS.OR R1, [R2], R3"), (AtomOp::Or, Space::Shared));
    assert_eq!(at("ATOMS.XOR R1, [R2], R3"), (AtomOp::Xor, Space::Shared));
    assert_eq!(at("ATOM.INC R1, [R2], R3"), (AtomOp::Inc, Space::Generic));
    assert_eq!(at("ATOMS.DEC R1, [R2], R3"), (AtomOp::Dec, Space::Shared));
    assert_eq!(at("ATOMS.CAS R1, [R2], R3, R4"), (AtomOp::Cas, Space::Shared));
    assert_eq!(at("ATOMS.EXCH R1, [R2], R3"), (AtomOp::Exch, Space::Shared));
    assert!(matches!(op_of("ATOM.ADD.F32 R1, [R2], 1.5"), Op::Atom { b: Src::Imm(b), .. } if b == 1.5f32.to_bits()));
    assert!(error_of("ATOM.MIN.F32 R1, [R2], R3").contains(".F32"));
    assert!(error_of("ATOMS.SUB R1, [R2], R3").contains(".INC"));
    let addr = Address { base: Reg(2), offset: 8 };
    assert_eq!(op_of("LDS R1, [R2+0x8]"), Op::Ld { dst: Reg(1), addr, width: Width::W32, space: Space::Shared });
    assert_eq!(op_of("LDS.U32.64 R4, [R2+0x8]"), Op::Ld { dst: Reg(4), addr, width: Width::W64, space: Space::Shared });
    assert_eq!(op_of("STS [R2+0x8], R1"), Op::St { src: Reg(1), addr, width: Width::W32, space: Space::Shared });
    assert_eq!(op_of("STG.E [R2+0x8], R1"), Op::St { src: Reg(1), addr, width: Width::W32, space: Space::Global });
}

#[test]
fn sixty_four_bit_forms_decode() {
    use crate::isa::{Cmp, NumType, Pred, PredSrc, Reg, Src};
    let r = Src::reg;
    assert_eq!(op_of("IADD3 R1, R2, R3, RZ"), Op::Iadd3 { dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), c: r(Reg::RZ), carry: Pred::PT });
    assert_eq!(op_of("IADD3 R1, P0, R2, R3, RZ"), Op::Iadd3 { dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), c: r(Reg::RZ), carry: Pred(0) });
    assert_eq!(op_of("IADD3 R1, P0, PT, R2, -R3, RZ"), op_of("IADD3 R1, P0, R2, -R3, RZ"));
    let x = Op::Iadd3X {
        dst: Reg(1),
        carry: Pred::PT,
        a: r(Reg(2)),
        b: r(Reg(3)),
        c: r(Reg::RZ),
        invert: [false, true, false],
        carry_in: PredSrc { pred: Pred(0), negated: false },
    };
    assert_eq!(op_of("IADD3.X R1, R2, ~R3, RZ, P0"), x);
    assert_eq!(op_of("IADD3.X R1, R2, ~R3, RZ, P0, !PT"), x);
    assert_eq!(op_of("IADD3.X R1, PT, R2, ~R3, RZ, P0, !PT"), x);
    assert!(error_of("IADD3 R1, P0, P1, R2, R3, RZ").contains("PT"));
    assert!(error_of("IADD3.X R1, R2, R3, RZ, P0, P1").contains("!PT"));
    assert_eq!(op_of("IMAD.WIDE R2, R0, 0x4, R4"), Op::ImadWide { dst: Reg(2), a: r(Reg(0)), b: Src::Imm(4), c: r(Reg(4)), signed: true });
    assert!(matches!(op_of("IMAD.WIDE.U32 R2, R0, R1, RZ"), Op::ImadWide { signed: false, .. }));
    assert_eq!(
        op_of("SHF.L.U64.HI R1, R2, 0x3, R3"),
        Op::Shf { dst: Reg(1), lo: r(Reg(2)), shift: Src::Imm(3), hi: r(Reg(3)), left: true, signed: false, wide: true, high: true }
    );
    assert!(matches!(op_of("SHF.R.S32.HI R1, RZ, R4, R3"), Op::Shf { left: false, signed: true, wide: false, high: true, .. }));
    assert!(error_of("SHF.U64 R1, R2, R3, R4").contains(".L or .R"));
    assert!(error_of("SHF.L R1, R2, R3, R4").contains(".U64"));
    assert_eq!(op_of("DADD R2, R4, -R6"), Op::Dadd { dst: Reg(2), a: r(Reg(4)), b: Src::Reg { reg: Reg(6), negated: true } });
    assert_eq!(op_of("DMUL R2, R4, 0.5"), Op::Dmul { dst: Reg(2), a: r(Reg(4)), b: Src::Imm((0.5f64.to_bits() >> 32) as u32) });
    assert!(error_of("DMUL R2, R4, 0.1").contains("register pair"));
    assert!(matches!(op_of("DFMA R2, R4, R6, R8"), Op::Dfma { .. }));
    assert!(matches!(op_of("DSETP.GE.AND P0, PT, R2, R4, PT"), Op::Dsetp { cmp: Cmp::Ge, dst: Pred(0), .. }));
    assert!(matches!(op_of("DMNMX R2, R4, R6, !P0"), Op::Dmnmx { p: PredSrc { negated: true, .. }, .. }));
    let cvt = |line: &str| match op_of(line) {
        Op::Cvt { from, to, .. } => (from, to),
        op => panic!("{line}: {op:?}"),
    };
    assert_eq!(cvt("F2F.F64.F32 R2, R1"), (NumType::F32, NumType::F64));
    assert_eq!(cvt("F2F.F32.F64 R1, R2"), (NumType::F64, NumType::F32));
    assert_eq!(cvt("I2F.F64 R2, R1"), (NumType::S32, NumType::F64));
    assert_eq!(cvt("I2F.F64.U32 R2, R1"), (NumType::U32, NumType::F64));
    assert_eq!(cvt("I2F.F64.S64 R2, R4"), (NumType::S64, NumType::F64));
    assert_eq!(cvt("I2F.F32.S64 R1, R4"), (NumType::S64, NumType::F32));
    assert_eq!(cvt("I2F.U64 R1, R4"), (NumType::U64, NumType::F32));
    assert_eq!(cvt("F2I.F64.TRUNC R1, R2"), (NumType::F64, NumType::S32));
    assert_eq!(cvt("F2I.S64.F64.TRUNC R4, R2"), (NumType::F64, NumType::S64));
    assert_eq!(cvt("F2I.U64.F64.TRUNC R4, R2"), (NumType::F64, NumType::U64));
    assert_eq!(cvt("F2I.S64.TRUNC R4, R1"), (NumType::F32, NumType::S64));
    assert!(matches!(op_of("I2F.U32 R1, R2"), Op::I2f { signed: false, .. }), "32-bit conversions keep their ops");
    assert!(matches!(op_of("F2I.TRUNC R1, R2"), Op::F2i { signed: true, .. }));
    assert!(error_of("F2F.F32.F32 R1, R2").contains("F2F"));
    assert!(error_of("I2F.S32.U32 R1, R2").contains("more than one"));
}

#[test]
fn printf_from_a_buffer_reads_each_argument_at_its_alignment() {
    // vprintf's layout: an int in word 0, a double in words 2-3 (word 1 is padding), a char
    // (an int) in word 4, a long long in words 6-7.
    let (p, d) = assemble("PRINTF \"%d %f %c %lld\\n\", [R6]\n");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(p.instrs[0].op, Op::Printf { id: 0, base: crate::isa::Reg(6), words: 6, buffer: 0b1101_1101 });
    assert!(error_of("PRINTF \"%s\", [R6]").contains("%s"));
    assert!(error_of("PRINTF \"%d\", [R6+0x4]").contains("offset"));
}

#[test]
fn printf_reads_its_format_and_consecutive_registers() {
    let src = "PRINTF \"thread %d: sum = %f\\n\", R8, R9\n@!P0 PRINTF \"%s=%5.2f, %s\", \"x\", R4, \"end\"\nPRINTF \"hello\\n\"\nPRINTF \"thread %d: sum = %f\\n\", R2, R3\n";
    let (p, d) = assemble(src);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(p.instrs[0].op, Op::Printf { id: 0, base: crate::isa::Reg(8), words: 3, buffer: 0 });
    assert_eq!(p.instrs[1].op, Op::Printf { id: 1, base: crate::isa::Reg(4), words: 2, buffer: 0 });
    assert_eq!(p.instrs[2].op, Op::Printf { id: 2, base: crate::isa::Reg::RZ, words: 0, buffer: 0 });
    assert_eq!(p.instrs[3].op, Op::Printf { id: 0, base: crate::isa::Reg(2), words: 3, buffer: 0 }, "one entry per distinct format");
    assert_eq!(p.formats.len(), 3);
    assert_eq!(p.formats[0].text, "thread %d: sum = %f\n");
    assert_eq!(p.formats[1].strings, ["x", "end"]);
    assert_eq!(p.instrs[1].text, "@!P0 PRINTF \"%s=%5.2f, %s\", \"x\", R4, \"end\"");
    // The text written is the text read: a listing re-assembles to the same program.
    let again: String = p.instrs.iter().map(|i| format!("{}\n", i.text)).collect();
    let (q, d) = assemble(&again);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!((q.instrs, q.formats), (p.instrs, p.formats));
}

#[test]
fn printf_refusals_are_located() {
    for (src, col, says) in [
        ("PRINTF R1", 8, "format"),
        ("PRINTF", 1, "format"),
        ("PRINTF \"%d %d\", R1", 8, "2 directive(s), and 1"),
        ("PRINTF \"%d\", R1, R2", 18, "1 directive(s), and 2"),
        ("PRINTF \"%d %f %d\", R1, R2, R3", 28, "expected R4"),
        ("PRINTF \"%d\", RZ", 14, "consecutive"),
        ("PRINTF \"%s\", R1", 14, "a string"),
        ("PRINTF \"%d\", \"x\"", 14, "a register"),
        ("PRINTF \"bad \\q\"", 8, "escape"),
        ("PRINTF \"open", 8, "unterminated"),
        ("PRINTF \"%f%f%f%f%f%f%f%f%f\", R1, R3, R5, R7, R9, R11, R13, R15, R17", 1, "at most 16"),
    ] {
        let (_, d) = assemble(src);
        assert_eq!(d.len(), 1, "{src}: {d:?}");
        assert!(d[0].message.contains(says), "{src}: {}", d[0].message);
        assert_eq!(d[0].span.col, col, "{src}: {}", d[0].message);
    }
}

#[test]
fn ptx_support_instructions_decode() {
    use crate::isa::{BoolOp, MatchMode, Pred, PredSrc, PrmtMode, Reg, Src};
    let r = Src::reg;
    let p = |pred: u8, negated: bool| PredSrc { pred: Pred(pred), negated };
    assert_eq!(op_of("PSETP.AND P1, !P2, PT"), Op::Psetp { op: BoolOp::And, dst: Pred(1), a: p(2, true), b: PredSrc::TRUE });
    assert_eq!(op_of("PSETP.XOR PT, P0, !PT"), Op::Psetp { op: BoolOp::Xor, dst: Pred::PT, a: p(0, false), b: p(7, true) });
    assert!(matches!(op_of("PSETP.OR P0, P1, P2"), Op::Psetp { op: BoolOp::Or, .. }));
    assert!(error_of("PSETP P0, P1, P2").contains(".AND"));
    assert!(error_of("PSETP.AND R0, P1, P2").contains("predicate"));
    assert_eq!(op_of("BFE.S32 R1, R2, 0x8, R3"), Op::Bfe { dst: Reg(1), a: r(Reg(2)), pos: Src::Imm(8), len: r(Reg(3)), signed: true });
    assert!(matches!(op_of("BFE.U32 R1, R2, R4, 0x4"), Op::Bfe { signed: false, .. }));
    assert!(error_of("BFE R1, R2, 0x8, 0x4").contains(".U32"));
    assert_eq!(
        op_of("BFI R1, R2, R3, 0x4, R5"),
        Op::Bfi { dst: Reg(1), insert: r(Reg(2)), base: r(Reg(3)), pos: Src::Imm(4), len: r(Reg(5)) }
    );
    assert!(error_of("BFI R1, R2, R3, 0x4").contains("5"));
    assert_eq!(
        op_of("PRMT R1, R2, 0x3210, R3"),
        Op::Prmt { dst: Reg(1), a: r(Reg(2)), sel: Src::Imm(0x3210), b: r(Reg(3)), mode: PrmtMode::Generic }
    );
    for (m, mode) in [
        ("F4E", PrmtMode::F4e),
        ("B4E", PrmtMode::B4e),
        ("RC8", PrmtMode::Rc8),
        ("ECL", PrmtMode::Ecl),
        ("ECR", PrmtMode::Ecr),
        ("RC16", PrmtMode::Rc16),
    ] {
        assert!(matches!(op_of(&format!("PRMT.{m} R1, R2, R4, RZ")), Op::Prmt { mode: got, .. } if got == mode), "{m}");
    }
    assert_eq!(op_of("SGXT R1, R2, 0x8"), Op::Sgxt { dst: Reg(1), a: r(Reg(2)), bits: Src::Imm(8), signed: true });
    assert!(matches!(op_of("SGXT.U32 R1, R2, R3"), Op::Sgxt { signed: false, .. }));
    assert_eq!(
        op_of("MATCH.ANY R1, R2"),
        Op::Match { mode: MatchMode::Any, pred: Pred::PT, dst: Reg(1), src: r(Reg(2)), wide: false, mask: None }
    );
    assert_eq!(
        op_of("MATCH.ALL.U64 P1, R1, R2, 0xffffffff"),
        Op::Match { mode: MatchMode::All, pred: Pred(1), dst: Reg(1), src: r(Reg(2)), wide: true, mask: Some(Src::Imm(u32::MAX)) }
    );
    assert!(matches!(op_of("MATCH.ANY.U32 R1, R2, R3"), Op::Match { wide: false, mask: Some(_), .. }));
    assert!(error_of("MATCH R1, R2").contains(".ANY"));
    assert!(error_of("MATCH.ALL R1, R2").contains("predicate"));
    assert_eq!(op_of("BPT.TRAP 0x1"), Op::Trap);
    assert_eq!(op_of("@P0 BPT.TRAP"), Op::Trap);
    assert!(error_of("BPT R1").contains("BPT.TRAP"));
}

#[test]
fn float_rounding_and_conversions_decode() {
    use crate::isa::{FloatMode, NumType, Reg, Round, Src};
    let r = Src::reg;
    let mode = |round, ftz, sat| FloatMode { round, ftz, sat };
    assert_eq!(op_of("FADD R1, R2, R3"), Op::Fadd { dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), mode: FloatMode::RN });
    assert_eq!(op_of("FADD.RM R1, R2, R3"), Op::Fadd { dst: Reg(1), a: r(Reg(2)), b: r(Reg(3)), mode: mode(Round::Floor, false, false) });
    assert!(
        matches!(op_of("FMUL.RP.FTZ R1, R2, R3"), Op::Fmul { mode, .. } if mode == FloatMode { round: Round::Ceil, ftz: true, sat: false })
    );
    assert!(
        matches!(op_of("FMUL32I.SAT R1, R2, 2.0"), Op::Fmul { mode, .. } if mode == FloatMode { round: Round::Even, ftz: false, sat: true })
    );
    assert!(
        matches!(op_of("FFMA.RZ.SAT R1, R2, R3, R4"), Op::Ffma { mode, .. } if mode == FloatMode { round: Round::Trunc, ftz: false, sat: true })
    );
    assert!(matches!(op_of("FFMA.RN R1, R2, R3, R4"), Op::Ffma { mode: FloatMode::RN, .. }));
    assert_eq!(op_of("FDIV R1, R2, 3.0"), Op::Fdiv { dst: Reg(1), a: r(Reg(2)), b: Src::Imm(3f32.to_bits()), mode: FloatMode::RN });
    assert!(
        matches!(op_of("FDIV.RZ.FTZ R1, R2, R3"), Op::Fdiv { mode, .. } if mode == FloatMode { round: Round::Trunc, ftz: true, sat: false })
    );
    assert!(error_of("FADD.RM.RP R1, R2, R3").contains("`.RP`"), "one rounding");
    let f2i = |line: &str| match op_of(line) {
        Op::F2i { signed, round, .. } => (signed, round),
        op => panic!("{line}: {op:?}"),
    };
    assert_eq!(f2i("F2I R1, R2"), (true, Round::Trunc), "TRUNC stays the default");
    assert_eq!(f2i("F2I.S32.TRUNC R1, R2"), (true, Round::Trunc));
    assert_eq!(f2i("F2I.U32.FLOOR.NTZ R1, R2"), (false, Round::Floor));
    assert_eq!(f2i("F2I.CEIL R1, R2"), (true, Round::Ceil));
    assert_eq!(f2i("F2I.U32.F32.ROUND R1, R2"), (false, Round::Even));
    assert!(matches!(op_of("I2F.F32.S32.RZ R1, R2"), Op::I2f { signed: true, round: Round::Trunc, .. }));
    assert!(matches!(op_of("I2F.U32 R1, R2"), Op::I2f { signed: false, round: Round::Even, .. }));
    let cvt = |line: &str| match op_of(line) {
        Op::Cvt { from, to, round, .. } => (from, to, round),
        op => panic!("{line}: {op:?}"),
    };
    assert_eq!(cvt("F2I.S64.F64.FLOOR R4, R2"), (NumType::F64, NumType::S64, Round::Floor));
    assert_eq!(cvt("F2I.U32.F64.ROUND R1, R2"), (NumType::F64, NumType::U32, Round::Even));
    assert_eq!(cvt("F2I.S64.CEIL R4, R1"), (NumType::F32, NumType::S64, Round::Ceil));
    assert_eq!(cvt("F2F.F32.F64.RM R1, R2"), (NumType::F64, NumType::F32, Round::Floor));
    assert_eq!(cvt("F2F.F32.F64 R1, R2"), (NumType::F64, NumType::F32, Round::Even));
    assert_eq!(cvt("I2F.F32.S64.RP R1, R4"), (NumType::S64, NumType::F32, Round::Ceil));
    assert!(error_of("F2I.S32.RM R1, R2").contains("`.RM`"), "F2I spells its rounding .FLOOR");
}

#[test]
fn unordered_comparisons_are_for_floats_only() {
    use crate::isa::Cmp;
    for (m, cmp) in [
        ("LTU", Cmp::Ltu),
        ("LEU", Cmp::Leu),
        ("GTU", Cmp::Gtu),
        ("GEU", Cmp::Geu),
        ("EQU", Cmp::Equ),
        ("NEU", Cmp::Neu),
        ("NUM", Cmp::Num),
        ("NAN", Cmp::Nan),
    ] {
        assert!(matches!(op_of(&format!("FSETP.{m}.AND P0, PT, R1, R2, PT")), Op::Fsetp { cmp: c, .. } if c == cmp), "{m}");
        assert!(matches!(op_of(&format!("DSETP.{m}.OR P0, PT, R2, R4, P1")), Op::Dsetp { cmp: c, .. } if c == cmp), "{m}");
        let e = error_of(&format!("ISETP.{m}.AND P0, PT, R1, R2, PT"));
        assert!(e.contains("never NaN") && e.contains(&format!("`.{m}`")) && e.contains("FSETP"), "{e}");
    }
    assert!(error_of("FSETP.AND P0, PT, R1, R2, PT").contains(".NEU"));
    assert!(!error_of("ISETP.AND P0, PT, R1, R2, PT").contains(".NEU"));
}

#[test]
fn sub_word_memory_and_wide_atomics_decode() {
    use crate::isa::{Address, AtomOp, Reg, Space, Src, Width};
    let addr = Address { base: Reg(2), offset: 1 };
    for (m, width) in [("U8", Width::U8), ("S8", Width::S8), ("U16", Width::U16), ("S16", Width::S16)] {
        assert_eq!(op_of(&format!("LDG.E.{m} R1, [R2+0x1]")), Op::Ld { dst: Reg(1), addr, width, space: Space::Global });
        assert_eq!(op_of(&format!("STS.{m} [R2+0x1], R1")), Op::St { src: Reg(1), addr, width, space: Space::Shared });
    }
    assert!(matches!(op_of("LD.U8.32 R1, [R2]"), Op::Ld { width: Width::U8, .. }));
    assert!(error_of("LD.U8.64 R1, [R2]").contains("two widths"));
    let at = |line: &str| match op_of(line) {
        Op::Atom { op, wide, b, .. } => (op, wide, b),
        op => panic!("{line}: {op:?}"),
    };
    let r4 = Src::reg(Reg(4));
    assert_eq!(at("ATOM.ADD.64 R2, [R6], R4"), (AtomOp::Add, true, r4));
    assert_eq!(at("ATOMG.E.EXCH.64.STRONG.GPU PT, R2, [R6], R4"), (AtomOp::Exch, true, r4));
    assert_eq!(at("ATOMS.MIN.S64 R2, [R6], R4"), (AtomOp::Min { signed: true }, true, r4));
    assert_eq!(at("ATOM.MIN.U64 R2, [R6], R4"), (AtomOp::Min { signed: false }, true, r4));
    assert_eq!(at("ATOM.MAX.S64 R2, [R6], R4"), (AtomOp::Max { signed: true }, true, r4));
    assert_eq!(at("ATOMS.MAX.U64 R2, [R6], R4"), (AtomOp::Max { signed: false }, true, r4));
    assert_eq!(at("ATOM.ADD.F64 R2, [R6], R4"), (AtomOp::AddF64, true, r4));
    assert!(matches!(op_of("ATOM.CAS.64 R2, [R6], R4, R8"), Op::Atom { op: AtomOp::Cas, wide: true, c: Src::Reg { .. }, .. }));
    assert_eq!(at("ATOM.ADD R2, [R6], R4"), (AtomOp::Add, false, r4));
    assert!(error_of("ATOM.INC.64 R2, [R6], R4").contains("32-bit"));
    assert!(error_of("ATOM.MIN.F64 R2, [R6], R4").contains(".ADD"));
}

#[test]
fn new_special_registers_decode() {
    use crate::isa::{Reg, SpecialReg};
    for (name, sr) in [
        ("SR_LTMASK", SpecialReg::LaneMaskLt),
        ("SR_LEMASK", SpecialReg::LaneMaskLe),
        ("SR_GTMASK", SpecialReg::LaneMaskGt),
        ("SR_GEMASK", SpecialReg::LaneMaskGe),
        ("SR_EQMASK", SpecialReg::LaneMaskEq),
        ("SR_WARPID", SpecialReg::WarpId),
    ] {
        assert_eq!(op_of(&format!("S2R R3, {name}")), Op::S2r { dst: Reg(3), sr }, "{name}");
    }
    assert!(error_of("S2R R1, SR_LTMASKS").contains("SR_LTMASK"));
}
