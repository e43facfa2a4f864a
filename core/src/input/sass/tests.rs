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
