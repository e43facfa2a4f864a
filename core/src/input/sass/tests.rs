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
