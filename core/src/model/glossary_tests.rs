//! The glossary covers what each model shows: every example (C compiled for every target) and a
//! listing of the instructions no example runs go through every model, and each entry kind on a
//! stack and each control instruction issued must have a term naming that model; each term
//! naming a model must be met there.

use alloc::string::String;
use alloc::vec::Vec;
use std::collections::BTreeSet;

use super::*;
use crate::compile::Target;
use crate::isa::Op;
use crate::kernel::{parse_kernel_with, SourceOptions};
use crate::model::Reconvergence;
use crate::{launch, LaunchOptions};

/// The glossary's word for a control instruction; `None` for the data path. No `_` arm: a new
/// op does not compile until it is placed here (and given words if it is control flow).
fn control_word(op: &Op) -> Option<&'static str> {
    Some(match op {
        Op::Ssy { .. } => "SSY",
        Op::Sync => "SYNC",
        Op::Bra { .. } => "BRA",
        Op::Pbk { .. } => "PBK",
        Op::Brk => "BRK",
        Op::Pcnt { .. } => "PCNT",
        Op::Cont => "CONT",
        Op::Cal { .. } => "CAL",
        Op::Ret => "RET",
        Op::Exit => "EXIT",
        Op::Bssy { .. } => "BSSY",
        Op::Bsync { .. } => "BSYNC",
        Op::Break { .. } => "BREAK",
        Op::BmovRead { .. } | Op::BmovWrite { .. } => "BMOV",
        Op::Warpsync { .. } => "WARPSYNC",
        Op::Yield => "YIELD",
        Op::BarSync { red: None, .. } => "BAR.SYNC",
        Op::BarSync { red: Some(_), .. } => "BAR.RED",
        Op::B2r { .. }
        | Op::Iadd { .. }
        | Op::Iadd3 { .. }
        | Op::Iscadd { .. }
        | Op::Imul { .. }
        | Op::Imad { .. }
        | Op::Isetp { .. }
        | Op::Fadd { .. }
        | Op::Fmul { .. }
        | Op::Ffma { .. }
        | Op::Fsetp { .. }
        | Op::Mov { .. }
        | Op::Sel { .. }
        | Op::Lop { .. }
        | Op::Lop3 { .. }
        | Op::Shl { .. }
        | Op::Shr { .. }
        | Op::S2r { .. }
        | Op::Cs2r { .. }
        | Op::Ld { .. }
        | Op::St { .. }
        | Op::Atom { .. }
        | Op::I2f { .. }
        | Op::F2i { .. }
        | Op::Mufu { .. }
        | Op::Frnd { .. }
        | Op::Popc { .. }
        | Op::Flo { .. }
        | Op::Brev { .. }
        | Op::Imnmx { .. }
        | Op::Fmnmx { .. }
        | Op::Idiv { .. }
        | Op::Shfl { .. }
        | Op::Vote { .. }
        | Op::Redux { .. }
        | Op::Iadd3X { .. }
        | Op::ImadWide { .. }
        | Op::Shf { .. }
        | Op::Cvt { .. }
        | Op::Dadd { .. }
        | Op::Dmul { .. }
        | Op::Ddiv { .. }
        | Op::Dfma { .. }
        | Op::Dsetp { .. }
        | Op::Dmnmx { .. }
        | Op::Printf { .. }
        | Op::Host { .. }
        | Op::Fdiv { .. }
        | Op::Fchk { .. }
        | Op::Psetp { .. }
        | Op::Plop3 { .. }
        | Op::Bfe { .. }
        | Op::Bfi { .. }
        | Op::Prmt { .. }
        | Op::Fns { .. }
        | Op::Idp { .. }
        | Op::Sgxt { .. }
        | Op::Match { .. }
        | Op::Trap
        | Op::Nop => return None,
    })
}

/// The glossary's word for a data-path instruction that has one: the warp-wide, bit, math and
/// shared-memory instructions (plain arithmetic, moves and global loads need none). No `_` arm.
fn data_word(op: &Op) -> Option<&'static str> {
    use crate::isa::{NumType, Space};
    Some(match op {
        Op::B2r { .. } => "B2R",
        Op::Shfl { .. } => "SHFL",
        Op::Vote { .. } => "VOTE",
        Op::Redux { .. } => "REDUX",
        Op::Plop3 { .. } => "PLOP3",
        Op::Popc { .. } => "POPC",
        Op::Flo { .. } => "FLO",
        Op::Brev { .. } => "BREV",
        Op::Imnmx { .. } => "IMNMX",
        Op::Fmnmx { .. } => "FMNMX",
        Op::Mufu { .. } => "MUFU",
        Op::Frnd { .. } => "FRND",
        Op::Idiv { rem: false, .. } => "IDIV",
        Op::Idiv { rem: true, .. } => "IREM",
        Op::Atom { space: Space::Global | Space::Generic, .. } => "ATOM",
        Op::Atom { space: Space::Shared, .. } => "ATOMS",
        Op::Ld { space: Space::Shared, .. } => "LDS",
        Op::St { space: Space::Shared, .. } => "STS",
        Op::Iadd3 { .. } => "IADD3",
        Op::Iadd3X { .. } => "IADD3.X",
        Op::ImadWide { .. } => "IMAD.WIDE",
        Op::Shf { .. } => "SHF",
        Op::Dadd { .. } => "DADD",
        Op::Dmul { .. } => "DMUL",
        Op::Ddiv { .. } => "DDIV",
        Op::Dfma { .. } => "DFMA",
        Op::Dsetp { .. } => "DSETP",
        Op::Dmnmx { .. } => "DMNMX",
        Op::I2f { .. } | Op::Cvt { from: NumType::S32 | NumType::U32 | NumType::S64 | NumType::U64, .. } => "I2F",
        Op::F2i { .. } | Op::Cvt { to: NumType::S32 | NumType::U32 | NumType::S64 | NumType::U64, .. } => "F2I",
        Op::Cvt { .. } => "F2F",
        Op::Printf { .. } => "PRINTF",
        Op::Fdiv { .. } => "FDIV",
        Op::Fchk { .. } => "FCHK",
        Op::Psetp { .. } => "PSETP",
        Op::Bfe { .. } => "BFE",
        Op::Bfi { .. } => "BFI",
        Op::Prmt { .. } => "PRMT",
        Op::Fns { .. } => "FNS",
        Op::Idp { .. } => "IDP",
        Op::Sgxt { .. } => "SGXT",
        Op::Match { .. } => "MATCH",
        Op::Trap => "BPT.TRAP",
        Op::Ld { space: Space::Global | Space::Generic, .. }
        | Op::St { space: Space::Global | Space::Generic, .. }
        | Op::Iadd { .. }
        | Op::Iscadd { .. }
        | Op::Imul { .. }
        | Op::Imad { .. }
        | Op::Isetp { .. }
        | Op::Fadd { .. }
        | Op::Fmul { .. }
        | Op::Ffma { .. }
        | Op::Fsetp { .. }
        | Op::Mov { .. }
        | Op::Sel { .. }
        | Op::Lop { .. }
        | Op::Lop3 { .. }
        | Op::Shl { .. }
        | Op::Shr { .. }
        | Op::S2r { .. }
        | Op::Cs2r { .. }
        | Op::Nop
        | Op::Host { .. }
        | Op::Ssy { .. }
        | Op::Sync
        | Op::Bra { .. }
        | Op::Pbk { .. }
        | Op::Brk
        | Op::Pcnt { .. }
        | Op::Cont
        | Op::Cal { .. }
        | Op::Ret
        | Op::Exit
        | Op::Bssy { .. }
        | Op::Bsync { .. }
        | Op::Break { .. }
        | Op::BmovRead { .. }
        | Op::BmovWrite { .. }
        | Op::Warpsync { .. }
        | Op::Yield
        | Op::BarSync { .. } => return None,
    })
}

/// Every word `data_word` gives: all must be met in the runs below.
const DATA_WORDS: &[&str] = &[
    "SHFL",
    "VOTE",
    "REDUX",
    "PLOP3",
    "POPC",
    "FLO",
    "BREV",
    "IMNMX",
    "FMNMX",
    "MUFU",
    "FRND",
    "IDIV",
    "IREM",
    "ATOM",
    "ATOMS",
    "LDS",
    "STS",
    "IADD3",
    "IADD3.X",
    "IMAD.WIDE",
    "SHF",
    "DADD",
    "DMUL",
    "DDIV",
    "DFMA",
    "DSETP",
    "DMNMX",
    "I2F",
    "F2I",
    "F2F",
    "PRINTF",
    "FDIV",
    "FCHK",
    "PSETP",
    "BFE",
    "BFI",
    "PRMT",
    "FNS",
    "IDP",
    "SGXT",
    "MATCH",
    "BPT.TRAP",
    "B2R",
];

/// Every word `control_word` gives, and the pop bit: all must be met in the runs below.
const CONTROL_WORDS: &[&str] = &[
    "SSY", "SYNC", ".S", "BRA", "PBK", "BRK", "PCNT", "CONT", "CAL", "RET", "EXIT", "BSSY", "BSYNC", "BREAK", "BMOV", "WARPSYNC", "YIELD",
    "BAR.SYNC", "BAR.RED",
];

/// What no example runs: YIELD under a token stack, WARPSYNC, a barrier every lane reaches, a
/// convergence barrier saved and restored (BMOV), and the newer data-path instructions (the shared-memory ones guarded off: no buffer is shared).
const RARE: &str = "//@ warp 4\n//@ buffer out: i32[4] = 0\n//@ reg R10 = out\nYIELD;\nBAR.SYNC 0x0;\nBAR.RED.POPC 0x0, PT;\nB2R.RESULT R17;\nWARPSYNC 0xf;\n\
    S2R R0, SR_LANEID;\nSHFL.BFLY PT, R1, R0, 0x1, 0x1f, 0xf;\nVOTE.ANY R2, P0, PT, 0xf;\nPOPC R3, R2;\nFLO.U32 R4, R2;\n\
    BREV R5, R2;\nFNS R5, R2, R0, 0x1;\nIDP.4A.S8.U8 R5, R2, R0, R5;\nIMNMX R6, R0, 0x2, PT;\nFMNMX R7, R0, 1.5, !PT;\nMUFU.SQRT R8, 4.0;\nFRND.FLOOR R8, R8;\nIDIV.S32 R9, R0, 0x2;\n\
    IREM.U32 R9, R0, 0x2;\nATOM.ADD R11, [R10], 0x1;\n@!PT ATOMS.ADD R11, [R10], 0x1;\n@!PT LDS R11, [R10];\n\
    @!PT STS [R10], R11;\nIADD3 R12, P1, R0, -R1, RZ;\nIADD3.X R13, R0, ~R1, RZ, P1, !PT;\nIMAD.WIDE R12, R0, 0x4, R12;\n\
    SHF.L.U64.HI R13, R12, 0x3, R13;\nI2F.F64 R14, R0;\nDADD R14, R14, 0.5;\nDMUL R14, R14, R14;\nDDIV R14, R14, 2.0;\nDFMA R14, R14, 2.0, R14;\n\
    DSETP.GT.AND P1, PT, R14, 1.0, PT;\nDMNMX R14, R14, 1.0, P1;\nF2F.F32.F64 R8, R14;\nF2I.S64.F64.TRUNC R12, R14;\nPRINTF \"%d %f\\n\", R13, R14;\n\
    FDIV R8, R8, 3.0;\nFCHK P3, R8, 3.0;\nPSETP.AND P2, P1, !PT;\nBFE.U32 R15, R0, 0x1, 0x2;\nBFI R15, R0, R15, 0x4, 0x4;\n\
    PRMT R15, R0, 0x3210, R15;\nSGXT R15, R15, 0x4;\nMATCH.ANY R15, R0, 0xf;\nREDUX.SUM R15, R0;\nPLOP3.LUT P3, PT, P1, P2, !PT, 0x80, 0x0;\n@!PT BPT.TRAP;\n\
    BSSY B1, done;\nBMOV.32.CLEAR R16, B1;\nBMOV.32 B1, R16;\nBSYNC B1;\ndone:\nEXIT;\n";

fn examples() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu" || x == "sass"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out.push(("rare".into(), RARE.into()));
    out
}

/// (model name, word) pairs met in the runs: entry words on stacks, instruction words issued.
#[derive(Default)]
struct Met {
    entries: BTreeSet<(&'static str, &'static str)>,
    instructions: BTreeSet<(&'static str, &'static str)>,
    missing: Vec<String>,
}

impl Met {
    fn stack(&mut self, model: ModelKind, stack: &[crate::model::StackEntry]) {
        for e in stack {
            let empty = e.mask.is_empty();
            self.entries.insert((model.name(), e.kind.word(empty)));
            if e.kind.term(model, empty).is_none() {
                self.missing.push(std::format!("{}: entry {}", model.name(), e.kind.word(empty)));
            }
        }
    }
}

/// Runs every example under every model, C compiled for every target (so token and barrier code
/// meets every model too), a bounded number of steps each.
fn meet_everything() -> Met {
    let mut met = Met::default();
    let kernels = examples();
    for &model in ModelKind::ALL {
        for (name, text) in &kernels {
            let targets: &[Target] = if name.ends_with(".cu") { Target::ALL } else { &[Target::Plain] };
            for &target in targets {
                let (k, _) = parse_kernel_with(text, &SourceOptions { target: Some(target), ..SourceOptions::default() });
                let Ok(mut sim) =
                    launch(&k, &LaunchOptions { model: Some(model), step_limit: 3_000, record: false, ..LaunchOptions::default() })
                else {
                    continue;
                };
                met.stack(model, &sim.state().model.stack());
                while let Ok(issued) = sim.run_step() {
                    let instr = &sim.program().instrs[issued.pc.index()];
                    let pop = instr.pop && instr.op != Op::Sync;
                    for word in control_word(&instr.op).into_iter().chain(data_word(&instr.op)).chain(pop.then_some(".S")) {
                        met.instructions.insert((model.name(), word));
                    }
                    met.stack(model, &sim.state().model.stack());
                }
            }
        }
    }
    met
}

fn words_of(kind: TermKind) -> BTreeSet<(&'static str, &'static str)> {
    GLOSSARY
        .iter()
        .filter(|t| t.kind == kind)
        .flat_map(|t| t.models.iter().flat_map(move |m| t.words().map(move |w| (m.name(), w))))
        .collect()
}

#[test]
fn every_entry_and_control_instruction_a_model_shows_has_words_for_that_model() {
    let met = meet_everything();
    assert!(met.missing.is_empty(), "entries without a glossary term: {:?}", met.missing.iter().collect::<BTreeSet<_>>());
    let instruction_words = words_of(TermKind::Instruction);
    let unexplained: Vec<_> = met.instructions.difference(&instruction_words).collect();
    assert!(unexplained.is_empty(), "instructions run without a glossary term for their model: {unexplained:?}");
    // The runs met every control instruction, so the check above saw them all.
    let run: BTreeSet<&str> = met.instructions.iter().map(|&(_, w)| w).collect();
    let never: Vec<_> = CONTROL_WORDS.iter().chain(DATA_WORDS).filter(|w| !run.contains(*w)).collect();
    assert!(never.is_empty(), "no run issued {never:?}: add a listing that does");
    // And no term claims a model that never shows it.
    for t in GLOSSARY.iter().filter(|t| t.kind != TermKind::Idea) {
        let seen = if t.kind == TermKind::Entry { &met.entries } else { &met.instructions };
        for m in t.models {
            assert!(t.words().any(|w| seen.contains(&(m.name(), w))), "{} ({:?}) is never met under {}", t.term, t.kind, m.name());
        }
    }
}

#[test]
fn each_word_has_one_meaning_per_model_and_every_model_has_words() {
    for &m in ModelKind::ALL {
        let mut seen = BTreeSet::new();
        for t in m.glossary() {
            for w in t.words() {
                assert!(seen.insert((w, t.kind as u8)), "{w} ({:?}) has two terms under {}", t.kind, m.name());
            }
        }
        assert!(m.glossary().filter(|t| t.kind == TermKind::Entry).count() >= 2, "{} has no entry words", m.name());
    }
    for t in GLOSSARY {
        assert!(t.meaning.len() > 20 && !t.source.is_empty() && !t.models.is_empty(), "{}", t.term);
        let order: Vec<usize> = t.models.iter().map(|m| ModelKind::ALL.iter().position(|x| x == m).unwrap()).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{}: models out of ModelKind::ALL order", t.term);
    }
}

#[test]
fn an_entry_means_its_terms_words_with_its_own_barrier_number() {
    use crate::model::TokenKind;
    assert_eq!(
        EntryKind::Token(TokenKind::Div).meaning(ModelKind::Kepler, false),
        EntryKind::Token(TokenKind::Div).term(ModelKind::Kepler, false).unwrap().meaning
    );
    assert!(EntryKind::Blocked(12).meaning(ModelKind::Volta, false).contains("blocked at BSYNC B12 until every lane of barrier B12"));
    assert!(EntryKind::Barrier(3).meaning(ModelKind::Volta, false).contains("barrier register B3,"));
    assert!(EntryKind::Run.meaning(ModelKind::TfSandy, true).contains("warp pc here, no lane"));
    // The same kind, in two models' words.
    assert_ne!(EntryKind::Path.meaning(ModelKind::Pdom, false), EntryKind::Path.meaning(ModelKind::PdomSsy, false));
    assert_eq!(
        EntryKind::Token(TokenKind::Sync).meaning(ModelKind::Kepler, false),
        EntryKind::Token(TokenKind::Sync).meaning(ModelKind::PdomSsy, false)
    );
}
