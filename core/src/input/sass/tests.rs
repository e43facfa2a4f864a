//! The reader end to end on nvcc's SASS (more in `core/tests/sass.rs`).

use super::*;
use crate::kernel::parse_kernel;

const VECTOR_ADD_SM90: &str = "
	code for sm_90
		Function : _Z6vecAddPKfS0_Pfi
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   S2UR UR4, SR_CTAID.X ;
        /*0030*/                   LDC R9, c[0x0][RZ] ;
        /*0040*/                   IMAD R9, R9, UR4, R0 ;
        /*0050*/                   ULDC UR4, c[0x0][0x228] ;
        /*0060*/                   ISETP.GE.AND P0, PT, R9, UR4, PT ;
        /*0070*/               @P0 EXIT ;
        /*0080*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0090*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*00a0*/                   LDC.64 R4, c[0x0][0x218] ;
        /*00b0*/                   LDC.64 R6, c[0x0][0x220] ;
        /*00c0*/                   IMAD.WIDE R2, R9, 0x4, R2 ;
        /*00d0*/                   LDG.E R3, desc[UR4][R2.64] ;
        /*00e0*/                   IMAD.WIDE R4, R9, 0x4, R4 ;
        /*00f0*/                   LDG.E R4, desc[UR4][R4.64] ;
        /*0100*/                   IMAD.WIDE R6, R9, 0x4, R6 ;
        /*0110*/                   FADD R9, R4, R3 ;
        /*0120*/                   STG.E desc[UR4][R6.64], R9 ;
        /*0130*/                   EXIT ;
        /*0140*/                   BRA 0x140;
";

#[test]
fn nvcc_sm90_vector_add_runs_under_volta() {
    let text =
        format!("//@ model volta\n//@ buffer arg0: f32[32] = i\n//@ buffer arg1: f32[32] = 2 * i\n//@ param arg3 = 20\n{VECTOR_ADD_SM90}");
    let (k, d) = parse_kernel(&text);
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    assert_eq!(k.compiled.as_ref().unwrap().input, InputKind::Sass);
    let mut sim = crate::launch(&k, &Default::default()).unwrap();
    assert_eq!(sim.run_to_end(), crate::sim::StopReason::Exited);
    let out = sim.state().machine.memory.buffer("arg2").expect("the output buffer").1.to_vec();
    let want: Vec<u32> = (0..32).map(|i| if i < 20 { (3.0 * i as f32).to_bits() } else { (i as f32).to_bits() }).collect();
    assert_eq!(out, want);
}

/// The same kernel with its 64-bit addresses made by `LEA`/`LEA.HI.X` (each a short sequence
/// here): the sequences count as the instructions the GPU issues, so both forms issue as many
/// warp instructions as the dump has instructions on the path.
#[test]
fn a_sequence_counts_as_one_warp_instruction() {
    let lea = VECTOR_ADD_SM90
        .replace("        /*00c0*/                   IMAD.WIDE R2, R9, 0x4, R2 ;\n", "        /*00c0*/                   LEA R2, P1, R9, R2, 0x2 ;\n        /*00c8*/                   LEA.HI.X.SX32 R3, R9, R3, 0x2, P1 ;\n")
        .replace("/*00c8*/", "/*00c4*/");
    assert_ne!(lea, VECTOR_ADD_SM90);
    let count = |sass: &str| {
        let (k, d) =
            parse_kernel(&format!("//@ model volta\n//@ buffer arg0: f32[32] = i\n//@ buffer arg1: f32[32]\n//@ param arg3 = 32\n{sass}"));
        assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
        let machine_instrs = k.program.len();
        let mut sim = crate::launch(&k, &Default::default()).unwrap();
        assert_eq!(sim.run_to_end(), crate::sim::StopReason::Exited);
        let m = &sim.state().metrics;
        (m.warp_instructions, m.steps, machine_instrs)
    };
    let (plain, plain_steps, _) = count(VECTOR_ADD_SM90);
    let (with_lea, lea_steps, lea_len) = count(&lea);
    // The 20 instructions before the padding, each once (`@P0 EXIT` exits no lane).
    assert_eq!(plain, 20);
    assert_eq!(plain_steps, 20);
    assert_eq!(with_lea, plain + 1, "one SASS instruction more (two in place of one IMAD.WIDE)");
    assert!(lea_steps > with_lea && lea_len > 20, "the sequences are stepped through one machine instruction at a time");
}

/// `P2R` keeps predicates in a register's bits (here byte 1, `.B1`, over `a`'s other bits) and
/// `R2P` sets them back from one: each lane's predicates from its index, through a register,
/// out again (`SEL`), match the index's bits.
#[test]
fn predicates_go_into_a_register_and_back() {
    let sass = "
	code for sm_90
		Function : _Z1kPi
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;
        /*0020*/                   LOP3.LUT P2, RZ, R0, 0x4, RZ, 0xc0, !PT ;
        /*0030*/                   MOV R5, 0xffffffff ;
        /*0040*/                   P2R.B1 R4, PR, R5, 0x5 ;
        /*0050*/                   R2P PR, R0, 0x6 ;
        /*0060*/                   SEL R6, RZ, 0x2, !P1 ;
        /*0070*/                   SEL R7, RZ, 0x4, !P2 ;
        /*0080*/                   IADD3 R6, R6, R7, RZ ;
        /*0090*/                   LDC.64 R2, c[0x0][0x210] ;
        /*00a0*/                   IMAD.WIDE R2, R0, 0x8, R2 ;
        /*00b0*/                   STG.E desc[UR4][R2.64], R4 ;
        /*00c0*/                   STG.E desc[UR4][R2.64+0x4], R6 ;
        /*00d0*/                   EXIT ;
";
    let (k, d) = parse_kernel(&format!("//@ model volta\n//@ buffer arg0: u32[64]\n{sass}"));
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    let mut sim = crate::launch(&k, &Default::default()).unwrap();
    assert_eq!(sim.run_to_end(), crate::sim::StopReason::Exited);
    let out = sim.state().machine.memory.buffer("arg0").unwrap().1.to_vec();
    for t in 0..32u32 {
        // Bits 8 (P0) and 10 (P2) from the predicates, the rest R5's ones.
        let want = !0x500u32 | ((t & 1) << 8) | ((t & 4) >> 2 << 10);
        assert_eq!(out[2 * t as usize], want, "lane {t}: P2R");
        // R2P's P1 and P2 are bits 1 and 2 of the index: R6 = 2 * P1 + 4 * P2.
        assert_eq!(out[2 * t as usize + 1], t & 6, "lane {t}: R2P");
    }
}

/// `BMOV.32.CLEAR R2, B0` saves barrier B0 (its lanes, as a mask) and empties it (`BMOV.32 R6,
/// B0` reads it empty); `BMOV.32 B0, R2` puts it back (read again: the 32 lanes the `BSSY`
/// armed), so the lanes still meet at `BSYNC B0`: the vote after it sees all 32.
#[test]
fn a_barrier_saved_in_a_register_and_restored_still_joins_the_lanes() {
    let sass = "
	code for sm_90
		Function : _Z1kPi
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   LDC.64 R4, c[0x0][0x210] ;
        /*0020*/                   IMAD.WIDE R4, R0, 0x10, R4 ;
        /*0030*/                   BSSY B0, 0xe0 ;
        /*0040*/                   LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;
        /*0050*/              @!P0 BRA 0xd0 ;
        /*0060*/                   BMOV.32.CLEAR R2, B0 ;
        /*0070*/                   BMOV.32 R6, B0 ;
        /*0080*/                   STG.E desc[UR4][R4.64], R2 ;
        /*0090*/                   STG.E desc[UR4][R4.64+0x4], R6 ;
        /*00a0*/                   BMOV.32 B0, R2 ;
        /*00b0*/                   BMOV.32 R6, B0 ;
        /*00c0*/                   STG.E desc[UR4][R4.64+0x8], R6 ;
        /*00d0*/                   BSYNC B0 ;
        /*00e0*/                   VOTE.ANY R3, PT, PT ;
        /*00f0*/                   STG.E desc[UR4][R4.64+0xc], R3 ;
        /*0100*/                   EXIT ;
";
    let (k, d) = parse_kernel(&format!("//@ model volta\n//@ buffer arg0: u32[128]\n{sass}"));
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    let mut sim = crate::launch(&k, &Default::default()).unwrap();
    assert_eq!(sim.run_to_end(), crate::sim::StopReason::Exited);
    let out = sim.state().machine.memory.buffer("arg0").unwrap().1.to_vec();
    for t in 0..32usize {
        let odd = |v: u32| if t % 2 == 1 { v } else { 0 };
        assert_eq!(out[4 * t..4 * t + 3], [odd(u32::MAX), 0, odd(u32::MAX)], "lane {t}: saved, cleared, restored");
        assert_eq!(out[4 * t + 3], u32::MAX, "lane {t}: the lanes together after BSYNC");
    }
}

#[test]
fn a_constant_variable_in_bank_3_is_read_from_the_headers_buffer() {
    // A `__constant__` word (`LDC R16, c[0x3][0x4]`, `scale`'s) where the vector add reads `b`'s
    // address: with the header's variables each lane adds it to `a[i]`.
    let text = VECTOR_ADD_SM90.replace("LDC.64 R4, c[0x0][0x218] ;", "LDC R16, c[0x3][0x4] ;");
    let (_, d) = parse_kernel(&format!("//@ model volta\n{text}"));
    let e = d.iter().find(|x| x.is_error()).expect("an error without them");
    let line = text.lines().position(|l| l.contains("c[0x3]")).unwrap() as u32 + 2;
    assert_eq!(e.span.line, line, "{e:?}");
    assert!(e.message.contains("reads constant bank 3, the kernel's `__constant__` variables"), "{}", e.message);
    assert!(e.message.contains("give each as a `//@ buffer NAME: T[N] = values` line"), "{}", e.message);
    // Past the variables given: an error naming them.
    let (_, d) = parse_kernel(&format!("//@ model volta\n//@ buffer bias: i32[1] = [9]\n{text}"));
    let e = d.iter().find(|x| x.is_error()).expect("an error past them");
    assert!(
        e.message.contains("byte 0x4 of constant bank 3, where none of the header's `__constant__` variables lies (`bias` at 0x0-0x4)"),
        "{}",
        e.message
    );
    let (k, d) = parse_kernel(&format!("//@ model volta\n//@ buffer bias: i32[1] = [9]\n//@ buffer scale: i32[1] = [7]\n{text}"));
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    let mut sim = crate::launch(&k, &crate::LaunchOptions::default()).unwrap();
    sim.run_to_end();
    assert_eq!(sim.state().machine.reg(0, Reg(16)), 7, "lane 0's R16 holds `scale`");
}

#[test]
fn a_struct_passed_by_value_is_refused_at_the_function_naming_it() {
    // `twice(Vec v, float* out)`: the mangled name gives `Vec`, not its bytes, so `out`'s offset
    // is unknown (bound by guess, it read `v.x` and the kernel faulted at address 0).
    let text = "\tcode for sm_90\n\t\tFunction : _Z5twice3VecPf\n        /*0000*/                   LDC R1, c[0x0][0x28] ;\n        /*0010*/                   EXIT ;\n";
    let (_, d) = parse_kernel(&format!("//@ model volta\n{text}"));
    let e = d.iter().find(|x| x.is_error()).expect("an error");
    assert_eq!(e.span.line, 3, "{e:?}");
    assert!(e.message.contains("parameter 0 of `twice` is `Vec` passed by value (a struct or vector)"), "{}", e.message);
}

/// A kernel that keeps all seven predicates live beside uniform predicates: each `UPk` has a
/// place of its own in the machine (issue 46: such a kernel was refused).
#[test]
fn seven_predicates_and_uniform_predicates_together() {
    let mut dump = String::from("//@ buffer arg0: i32[32]\n\tcode for sm_90\n\t\tFunction : _Z1kPi\n");
    let mut lines = alloc::vec![String::from("S2R R0, SR_TID.X"), String::from("ULDC UR4, c[0x0][0x0]"), String::from("MOV R2, RZ")];
    lines.extend((0..7).map(|p| format!("ISETP.GT.AND P{p}, PT, R0, {p:#x}, PT")));
    lines.push(String::from("UISETP.GE.AND UP0, UPT, UR4, 0x20, UPT"));
    lines.push(String::from("UISETP.LT.AND UP1, UPT, UR4, 0x20, UPT"));
    lines.extend((0..7).map(|p| format!("@P{p} IADD3 R2, R2, 0x1, RZ")));
    for l in ["USEL UR5, 0x64, URZ, UP0", "USEL UR6, 0x3e8, URZ, UP1", "IADD3 R2, R2, UR5, UR6", "LDC.64 R4, c[0x0][0x210]"] {
        lines.push(String::from(l));
    }
    for l in ["IMAD.WIDE R4, R0, 0x4, R4", "ULDC.64 UR8, c[0x0][0x208]", "STG.E desc[UR8][R4.64], R2", "EXIT", "BRA 0x0"] {
        lines.push(String::from(l));
    }
    for (k, l) in lines.iter().enumerate() {
        dump += &format!("        /*{:04x}*/                   {l} ;\n", 16 * k);
    }
    let (k, d) = parse_kernel(&dump);
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    let mut sim = crate::launch(&k, &Default::default()).unwrap();
    assert_eq!(sim.run_to_end(), crate::sim::StopReason::Exited);
    let m = &sim.state().machine;
    let want: Vec<u32> = (0..32).map(|t: u32| t.min(7) + 100).collect();
    assert_eq!(m.memory.words[0], want);
    assert_eq!(format!("{}", crate::isa::Pred::uniform(1).unwrap()), "UP1");
}

/// `cuobjdump -sass` of an executable prints each fatbin entry's header, its PTX's too, after
/// the functions (`Fatbin ptx code:`, `compressed`, `identifier = ...`): none of it is code.
#[test]
fn an_executables_fatbin_headers_are_passed_over() {
    let ptx_header = "\n\nFatbin ptx code:\n================\narch = sm_90\ncode version = [9,5]\ncompressed\nidentifier = /tmp/k.cu\n";
    let text = format!(
        "//@ model volta\n//@ buffer arg0: f32[32] = i\n//@ buffer arg1: f32[32]\n//@ param arg3 = 20\n{VECTOR_ADD_SM90}{ptx_header}"
    );
    let (k, d) = parse_kernel(&text);
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    assert_eq!(k.program.len(), 20);
}
