//! The instructions PTX lowers to (`PSETP`, `BFE`, `BFI`, `PRMT`, `SGXT`, `MATCH`, `FDIV`, the
//! rounding and saturation modifiers, `F2I`'s roundings, the unordered comparisons, the lane
//! masks and `SR_WARPID`, byte and halfword memory, 64-bit atomics, `BPT.TRAP`), assembled and
//! run end to end through the one run path under every model and policy: every lane's results
//! against values computed here, and a trap stopping every model at its line.

use warpscope_core::launch;
use warpscope_core::model::about::Policy;
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder};
use warpscope_core::session::{Outcome, OutcomeKind, RunChoices, RunRequest};
use warpscope_core::sim::{Sim, StopReason};

/// Each lane stores its results in `out[lane + 8 * slot]`.
const LISTING: &str = "\
//@ warp 8
//@ launch grid=1 block=32 warp=1
//@ buffer out: u32[136] = 0
//@ buffer bytes: u32[6] = i * 0x04040404 + 0x83828180
//@ buffer sums: u64[1] = 0
//@ reg R20 = out + 4 * t
//@ reg R21 = bytes
//@ reg R22 = sums
S2R R0, SR_LANEID;
S2R R1, SR_WARPID;
STG [R20], R1;
S2R R2, SR_LTMASK;
STG [R20+0x20], R2;
LOP.AND R3, R0, 0x1;
ISETP.NE.AND P0, PT, R3, RZ, PT;
ISETP.LT.AND P1, PT, R0, 0x4, PT;
PSETP.XOR P2, P0, P1;
SEL R4, 0x1, RZ, P2;
STG [R20+0x40], R4;
BFE.S32 R5, R0, 0x1, 0x2;
STG [R20+0x60], R5;
BFI R6, R0, 0xff00ff00, 0x8, 0x4;
STG [R20+0x80], R6;
PRMT R7, R0, 0xd740, R6;
STG [R20+0xa0], R7;
SGXT R8, R0, 0x2;
STG [R20+0xc0], R8;
LOP.AND R3, R0, 0x3;
MATCH.ANY R9, R3, 0xff;
STG [R20+0xe0], R9;
MATCH.ALL P3, R10, R1, 0xff;
SEL R10, R10, RZ, P3;
STG [R20+0x100], R10;
I2F R11, R0;
FDIV R11, R11, 3.0;
STG [R20+0x120], R11;
FADD.RP R12, R11, 1e-30;
STG [R20+0x140], R12;
F2I.S32.FLOOR R13, -R11;
STG [R20+0x160], R13;
@P0 MUFU.SQRT R14, -1.0;
FSETP.NEU.AND P4, PT, R14, R14, PT;
FSETP.NE.OR P4, PT, R14, R14, P4;
SEL R15, 0x1, RZ, P4;
STG [R20+0x180], R15;
IADD R18, R21, R0;
LDG.E.S8 R17, [R18];
STG [R20+0x1a0], R17;
ISCADD R23, R0, R21, 0x1;
LD.U16 R19, [R23];
STG [R20+0x1c0], R19;
STG.E.U8 [R18+0x10], R0;
MOV R26, R0;
IADD R27, R0, 0x1;
ATOM.ADD.64 R24, [R22], R26;
MOV R30, 0x1000001;
IADD R30, R30, R0;
I2F.F32.S32.RZ R29, R30;
STG [R20+0x1e0], R29;
FFMA.SAT R31, R11, 0.5, 0.5;
STG [R20+0x200], R31;
ISETP.GT.AND P6, PT, R0, 0x100, PT;
@P6 BPT.TRAP;
EXIT;
";

/// What lane `l` stores in each slot.
fn expected(l: u32) -> Vec<u32> {
    let third = l as f32 / 3.0;
    let rp = if l == 0 { 1e-30f32 } else { f32::from_bits(third.to_bits() + 1) };
    let sign2 = |v: u32| ((v << 30) as i32 >> 30) as u32;
    let byte = |k: u32| 0x80 + k;
    vec![
        1,
        (1 << l) - 1,
        ((l % 2 == 1) != (l < 4)) as u32,
        sign2(l >> 1 & 3),
        0xff00_ff00 & !0xf00 | (l & 0xf) << 8,
        // PRMT a = l, b = the BFI result 0xff00f000 | l << 8: byte 0 (l), byte 4 (0), byte 7
        // (0xff), and byte 5's sign (0xf0 | l: negative).
        0xffff_0000 | l,
        sign2(l & 3),
        (0..8).filter(|k| k % 4 == l % 4).fold(0, |a, k| a | 1 << k),
        0xff,
        third.to_bits(),
        rp.to_bits(),
        (-third).floor() as i32 as u32,
        (l % 2 == 1) as u32,
        byte(l) as u8 as i8 as i32 as u32,
        byte(2 * l) | byte(2 * l + 1) << 8,
        (((16_777_217 + l) & !1) as f32).to_bits(),
        (third * 0.5 + 0.5).min(1.0).to_bits(),
    ]
}

/// Every model with every policy value it reads.
fn runs() -> Vec<(ModelKind, Option<&'static str>, Option<&'static str>)> {
    let mut out = Vec::new();
    for &model in ModelKind::ALL {
        match model.about().policy {
            Some(Policy::PathOrder) => out.extend(PathOrder::ALL.iter().map(|p| (model, Some(p.name()), None))),
            Some(Policy::Schedule) => out.extend(GroupOrder::ALL.iter().map(|s| (model, None, Some(s.name())))),
            _ => out.push((model, None, None)),
        }
    }
    out
}

fn run(text: &str, model: ModelKind, path_order: Option<&str>, schedule: Option<&str>) -> (Sim, StopReason) {
    let req = RunRequest {
        text: text.to_string(),
        choices: RunChoices {
            model: Some(model.name().to_string()),
            path_order: path_order.map(String::from),
            schedule: schedule.map(String::from),
            ..RunChoices::default()
        },
        ..RunRequest::default()
    };
    let r = req.resolve();
    assert!(r.ok(), "{:?}", r.all_diagnostics());
    let mut sim = launch(&r.kernel, &r.options).expect("launches");
    let stop = sim.run_to_end();
    (sim, stop)
}

#[test]
fn every_new_instruction_runs_under_every_model() {
    for (model, order, schedule) in runs() {
        let what = format!("{} {order:?} {schedule:?}", model.name());
        let (sim, stop) = run(LISTING, model, order, schedule);
        assert_eq!(stop, StopReason::Exited, "{what}");
        let memory = &sim.state().machine.memory;
        let out = memory.buffer("out").unwrap().1;
        for l in 0..8 {
            for (slot, want) in expected(l).into_iter().enumerate() {
                assert_eq!(out[l as usize + 8 * slot], want, "{what}: lane {l} slot {slot}");
            }
        }
        // Every lane stored its own byte into words 4 and 5, whatever order they ran in.
        assert_eq!(&memory.buffer("bytes").unwrap().1[4..], [0x0302_0100, 0x0706_0504], "{what}");
        let sums = memory.buffer("sums").unwrap().1;
        assert_eq!((sums[0], sums[1]), (28, 36), "{what}: the 64-bit atomic adds l and (l + 1) << 32");
    }
}

#[test]
fn a_trap_stops_every_model_at_its_line() {
    let text = "//@ warp 4\nS2R R0, SR_LANEID;\nISETP.EQ.AND P0, PT, R0, 0x2, PT;\n@P0 BPT.TRAP;\nEXIT;\n";
    for (model, order, schedule) in runs() {
        let (sim, stop) = run(text, model, order, schedule);
        let StopReason::Fault { pc, message, .. } = &stop else { panic!("{}: {stop:?}", model.name()) };
        assert_eq!(pc.0, 2, "{}", model.name());
        assert!(message.starts_with("the kernel executed `trap` at line 4: lane 2 ran `@P0 BPT.TRAP`"), "{}: {message}", model.name());
        let outcome = Outcome::of(&sim, &stop);
        assert_eq!((outcome.kind, outcome.line), (OutcomeKind::Fault, Some(4)), "{}", model.name());
        assert!(outcome.summary.contains("aborts the whole kernel"), "{}", outcome.summary);
    }
}
