//! The kernel-file headers (`//@ ...`): inputs evaluate per lane / element, problems come back
//! as diagnostics located at the exact line and column, and no text makes the front end panic.

use proptest::prelude::*;
use warpscope_core::diag::Diagnostic;
use warpscope_core::isa::Reg;
use warpscope_core::kernel::expr::Value;
use warpscope_core::kernel::{instantiate, parse_kernel};
use warpscope_core::machine::{Machine, FIRST_BASE, SEGMENT};
use warpscope_core::{launch, LaunchOptions};

/// Parses a kernel that must have no diagnostics and instantiates it with `overrides`.
fn machine(src: &str, overrides: &[(&str, i64)]) -> Machine {
    let (k, d) = parse_kernel(src);
    assert!(d.is_empty(), "{src:?}: {d:?}");
    let ov: Vec<(String, Value)> = overrides.iter().map(|(n, v)| (n.to_string(), Value::Int(*v))).collect();
    instantiate(&k, &ov).unwrap_or_else(|e| panic!("{src:?}: {e:?}")).machine
}

/// The single parse diagnostic of `src` (exactly one is expected).
fn parse_error(src: &str) -> Diagnostic {
    let (_, d) = parse_kernel(src);
    assert_eq!(d.len(), 1, "{src:?}: {d:?}");
    assert!(d[0].is_error(), "{d:?}");
    d[0].clone()
}

/// Asserts line, column and that the message contains every one of `words`.
fn assert_at(d: &Diagnostic, line: u32, col: u32, words: &[&str]) {
    assert_eq!((d.span.line, d.span.col), (line, col), "{d:?}");
    for w in words {
        assert!(d.message.contains(w), "{w:?} not in {:?}", d.message);
    }
}

const TABLE_I: &str = "//@ param n = 2\n//@ reg R5 = t < 32 - n ? 32 : 32 - (t - (31 - n))\nNOP\n";

#[test]
fn table_i_limits_per_lane() {
    // Bialas & Strzelecki Table I at n = 2: only the last n lanes stop early.
    let m = machine(TABLE_I, &[]);
    assert_eq!(m.width, 32);
    for t in 0..29 {
        assert_eq!(m.reg(t, Reg(5)), 32, "lane {t}");
    }
    assert_eq!([29, 30, 31].map(|t| m.reg(t, Reg(5))), [32, 31, 30]);
    // An override replaces the default: n = 5 makes lanes 27..31 count 31 down to 27.
    let m = machine(TABLE_I, &[("n", 5)]);
    assert_eq!([26, 27, 28, 31].map(|t| m.reg(t, Reg(5))), [32, 31, 30, 27]);
}

#[test]
fn warp_width_and_w_follow_the_header() {
    let m = machine("//@ warp 8\n//@ reg R1 = W - t\nNOP\n", &[]);
    assert_eq!(m.width, 8);
    assert_eq!((0..8).map(|t| m.reg(t, Reg(1))).collect::<Vec<_>>(), [8, 7, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn buffers_store_typed_bits_and_give_aligned_bases() {
    let src = "//@ buffer a: f32[4] = i * 0.5\n//@ buffer c: i32[3] = i - 1\n//@ reg R1 = a + 4*t\n//@ reg R2 = c\nNOP\n";
    let m = machine(src, &[]);
    let (a, words) = m.memory.buffer("a").expect("buffer a");
    assert_eq!(words, [0.0f32, 0.5, 1.0, 1.5].map(f32::to_bits));
    // Ints store two's complement, so -1 is all ones.
    assert_eq!(m.memory.buffer("c").unwrap().1, [u32::MAX, 0, 1]);
    assert_eq!(a.base, FIRST_BASE);
    for t in 0..32 {
        assert_eq!(m.reg(t, Reg(1)), a.base + 4 * t, "lane {t}");
    }
    let c_base = m.reg(0, Reg(2));
    assert_eq!(c_base % SEGMENT, 0, "buffer c at {c_base:#x} is not segment aligned");
    assert!(c_base >= a.base + 16, "buffers overlap");
    assert_eq!(m.memory.load(c_base), Some(u32::MAX));
}

#[test]
fn buffer_length_comes_from_a_param_and_its_override() {
    let src = "//@ param n = 3\n//@ buffer b: i32[n]\nNOP\n";
    assert_eq!(machine(src, &[]).memory.buffer("b").unwrap().1, [0, 0, 0]);
    assert_eq!(machine(src, &[("n", 5)]).memory.buffer("b").unwrap().0.len, 5);
    assert_eq!(machine(src, &[("n", 0)]).memory.buffer("b").unwrap().1.len(), 0);
}

#[test]
fn header_errors_are_located() {
    assert_at(&parse_error("NOP\n//@ wrap 32\n"), 2, 5, &["unknown header", "wrap"]);
    assert_at(&parse_error("//@ warp 0\nNOP\n"), 1, 10, &["0", "1-64"]);
    assert_at(&parse_error("//@ warp 65\nNOP\n"), 1, 10, &["65", "1-64"]);
    // An unclosed `(` is located at the `(`, counted from the line's start, not the expression's.
    assert_at(&parse_error("//@ reg R5 = (t + 1\nNOP\n"), 1, 14, &["`(`", "`)`"]);
    assert_at(&parse_error("  //@   reg   R5 =   (t + 1\nNOP\n"), 1, 22, &["never closed"]);
    assert_at(&parse_error("//@ reg R999 = 1\nNOP\n"), 1, 9, &["R999"]);
    assert_at(&parse_error("//@ reg X1 = 1\nNOP\n"), 1, 9, &["X1"]);
    assert_at(&parse_error("//@ reg RZ = 1\nNOP\n"), 1, 9, &["RZ"]);
    assert_at(&parse_error("//@ param n = 1\n//@ param n = 2\nNOP\n"), 2, 11, &["`n`", "twice"]);
    assert_at(&parse_error("//@ buffer a: i128[4]\nNOP\n"), 1, 15, &["i128", "i8, u8, i16, u16, i32, u32, f32, i64, u64, f64"]);
    assert_at(&parse_error("//@ buffer a: i32[4] = \"ab\"\nNOP\n"), 1, 24, &["a text fills a buffer of bytes", "holds i32"]);
    assert_at(&parse_error("//@ buffer a: u8[4] = \"a\\qb\"\nNOP\n"), 1, 25, &["unknown escape"]);
    assert_at(&parse_error("//@ buffer a: u8[4] = \"ab\nNOP\n"), 1, 23, &["expected `\"` to close the text"]);
    assert_at(&parse_error("//@ model nope\nNOP\n"), 1, 11, &["nope", "kepler"]);
    assert_at(&parse_error("//@ preset fermi\nNOP\n"), 1, 12, &["fermi", "maxwell"]);
    assert_at(&parse_error("//@ stack capacity=4 chunk=8\nNOP\n"), 1, 11, &["chunk", "capacity"]);
    assert_at(&parse_error("//@ stack depth=4\nNOP\n"), 1, 11, &["depth"]);
}

#[test]
fn unknown_names_are_located_on_their_expression() {
    // The span starts at the expression (col 14) and must cover the unknown name (cols 18-19).
    let d = parse_error("//@ reg R5 = t + zz\nNOP\n");
    assert_eq!(d.span.line, 1);
    assert!(d.span.col <= 18 && d.span.col + d.span.len >= 20, "{d:?}");
    assert!(d.message.contains("`zz`"), "{d:?}");
    // `t` is per lane: a param default cannot use it; `i` is only for buffer elements.
    assert_at(&parse_error("//@ param n = t\nNOP\n"), 1, 15, &["`t`"]);
    assert_at(&parse_error("//@ reg R1 = i\nNOP\n"), 1, 14, &["`i`"]);
    // Params are known only once declared.
    assert_at(&parse_error("//@ reg R1 = n\n//@ param n = 1\nNOP\n"), 1, 14, &["`n`"]);
}

#[test]
fn a_value_an_element_cannot_hold_is_an_error_at_its_expression() {
    let error = |src: &str, overrides: &[(&str, i64)]| {
        let (k, d) = parse_kernel(src);
        assert!(d.is_empty(), "{d:?}");
        let ov: Vec<(String, Value)> = overrides.iter().map(|(n, v)| (n.to_string(), Value::Int(*v))).collect();
        let e = instantiate(&k, &ov).expect_err(src);
        assert_eq!(e.len(), 1, "{e:?}");
        e[0].clone()
    };
    // 300 listed for a byte would keep only 44: a typo. The span is the value's.
    assert_at(&error("//@ buffer a: u8[3] = [1, 300, 2]\nNOP\n", &[]), 1, 27, &["element i=1 of `a`", "300 does not fit u8 (0 to 255)"]);
    assert_at(
        &error("//@ buffer a: i16[4] = [0, -40000]\nNOP\n", &[]),
        1,
        28,
        &["element i=1 of `a`", "-40000 does not fit i16 (-32768 to 32767)"],
    );
    assert_at(&error("//@ buffer a: i32[1] = [1 << 32]\nNOP\n", &[]), 1, 25, &["4294967296 does not fit i32"]);
    // A param in a listed value, too, when an override pushes it past the type.
    assert_at(&error("//@ param n = 1\n//@ buffer a: u8[1] = [n]\nNOP\n", &[("n", 256)]), 2, 24, &["256 does not fit u8"]);
    // An expression over `i` wraps, as C converts: `i * 100` into bytes.
    let m = machine("//@ buffer a: u8[4] = i * 100\nNOP\n", &[]);
    assert_eq!(m.memory.buffer("a").unwrap().1, [u32::from_le_bytes([0, 100, 200, 44])]);
    // A width's other signedness is its bits, as C converts: -1 is a u8's 255, 255 an i8's -1.
    let m = machine("//@ buffer a: u8[2] = [-1, 255]\n//@ buffer b: i8[1] = [255]\n//@ buffer c: u32[1] = [-1]\nNOP\n", &[]);
    let word = |name| m.memory.buffer(name).expect(name).1[0];
    assert_eq!([word("a"), word("b"), word("c")], [0xffff, 0xff, 0xffff_ffff]);
}

#[test]
fn expression_messages_quote_the_input_verbatim() {
    // Regression: the shift of "column N" in messages also rewrote user text quoted in them.
    let d = parse_error("//@ reg R5 = 1 column 5\nNOP\n");
    assert_at(&d, 1, 16, &["trailing input `column 5`"]);
}

#[test]
fn a_huge_column_number_in_the_input_does_not_panic() {
    // Regression: shifting "column 4294967295" by the expression's offset overflowed a u32.
    let d = parse_error("//@ reg R5 = 1 column 4294967295\nNOP\n");
    assert_eq!((d.span.line, d.span.col), (1, 16), "{d:?}");
}

#[test]
fn evaluation_errors_name_the_lane_and_the_operator() {
    let (k, d) = parse_kernel("//@ reg R5 = 1 / t\nNOP\n");
    assert!(d.is_empty(), "{d:?}");
    let e = instantiate(&k, &[]).unwrap_err();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_at(&e[0], 1, 16, &["t=0", "division by zero"]);
    // A buffer element names its index.
    let (k, _) = parse_kernel("//@ buffer a: i32[4] = 8 % (i - 2)\nNOP\n");
    let e = instantiate(&k, &[]).unwrap_err();
    assert_at(&e[0], 1, 26, &["i=2", "`a`"]);
}

#[test]
fn unknown_override_is_an_error_naming_it() {
    let (k, _) = parse_kernel(TABLE_I);
    let e = instantiate(&k, &[("m".into(), Value::Int(3))]).unwrap_err();
    assert!(e.iter().any(|d| d.message.contains("`m`") && d.message.contains("n")), "{e:?}");
    let (k, _) = parse_kernel("NOP\n");
    let e = instantiate(&k, &[("m".into(), Value::Int(3))]).unwrap_err();
    assert!(e[0].message.contains("`m`") && e[0].message.contains("none"), "{e:?}");
}

#[test]
fn buffer_lengths_are_bounded() {
    for len in ["-1", "(1 << 20) + 1", "2.5"] {
        let (k, d) = parse_kernel(&format!("//@ buffer a: i32[{len}]\nNOP\n"));
        assert!(d.is_empty(), "{d:?}");
        let e = instantiate(&k, &[]).unwrap_err();
        assert_eq!(e[0].span.line, 1, "{len}: {e:?}");
    }
}

/// Parses; if clean, instantiates, launches and runs with a small step limit. Must not panic.
fn exercise(src: &str) {
    let (k, d) = parse_kernel(src);
    for x in &d {
        // Every located diagnostic points at a line that exists.
        assert!(x.span.line as usize <= src.lines().count().max(1), "{x:?} in {src:?}");
    }
    if d.iter().any(Diagnostic::is_error) {
        return;
    }
    let _ = instantiate(&k, &[]);
    if let Ok(mut sim) = launch(&k, &LaunchOptions { step_limit: 10_000, ..Default::default() }) {
        let _ = sim.run_to_end();
    }
}

/// Header keywords, expression and assembly fragments: strings built from them reach deep
/// into the header parser, the evaluator and the simulator, unlike random text.
const FRAGMENTS: &[&str] = &[
    "//@ ",
    "//@",
    "warp",
    "param",
    "reg",
    "buffer",
    "model",
    "preset",
    "stack",
    "title",
    "about",
    " ",
    "  ",
    "\t",
    "\n",
    "\n",
    "=",
    "==",
    "[",
    "]",
    ":",
    "?",
    "(",
    ")",
    ",",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "<",
    "&&",
    "!",
    "~",
    "0",
    "1",
    "2",
    "7",
    "32",
    "64",
    "65",
    "-1",
    "0x10",
    "0.5",
    "1e3",
    "99999999999999999999",
    "n",
    "t",
    "i",
    "W",
    "a",
    "b",
    "R0",
    "R1",
    "R5",
    "R254",
    "R999",
    "RZ",
    "P0",
    "PT",
    "X1",
    "i32",
    "f32",
    "u32",
    "i64",
    "min",
    "abs",
    "int",
    "float",
    "kepler",
    "maxwell",
    "capacity=",
    "chunk=",
    "BRA",
    "SSY",
    "SYNC",
    "NOP",
    "NOP.S",
    "EXIT",
    "BAR.SYNC",
    "BRK",
    "PBK",
    "L:",
    "L",
    "@P0 ",
    "@!P0 ",
    "/*0060*/",
    "/*0128*/",
    "0x128",
    "0x10",
    "IADD R4, R4, 0x1;",
    "ISETP.LT.AND P0, PT, R4, R5, PT;",
    "LD R2, [R1];",
    "ST [R1], R4;",
    "S2R R0, SR_TID.X;",
    "`(.L_x_0)",
    ".L_x_0:",
    "é",
    "• • •",
];

fn kernel_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60).prop_map(|v| v.concat())
}

/// Well-formed headers and a body of real instructions branching to labels that exist, so
/// most cases get through the parser and run: loops, divergence, stack faults, deadlocks.
fn structured_text() -> impl Strategy<Value = String> {
    let warp = prop_oneof![Just(String::new()), (1u32..=64).prop_map(|w| format!("//@ warp {w}\n"))];
    let reg = (0u8..6, prop::sample::select(&["t", "n - t", "t % 3", "t < n ? 1 : 0", "a + 4*t", "W - 1 - t", "float(t) * 0.5"][..]))
        .prop_map(|(r, e)| format!("//@ reg R{r} = {e}\n"));
    let stack = prop::sample::select(&["", "//@ stack capacity=2 chunk=1\n", "//@ stack capacity=3 chunk=3\n"][..]);
    let instr = prop::sample::select(
        &[
            "ISETP.LT.AND P0, PT, R0, R1, PT",
            "ISETP.GE.AND P1, PT, R0, 0x3, PT",
            "IADD R0, R0, 0x1",
            "IADD R1, R1, -0x1",
            "SSY L1",
            "SSY L2",
            "PBK L2",
            "@P0 BRA L0",
            "@!P0 BRA L3",
            "@P1 BRA L1",
            "@P0 BRA L3",
            "BRA L0",
            "NOP.S",
            "SYNC",
            "BRK",
            "@P0 BRK",
            "BAR.SYNC",
            "LD R2, [R3]",
            "ST [R3], R0",
            "@P0 EXIT",
            "S2R R0, SR_TID.X",
            "FADD R4, R4, 1.5",
        ][..],
    );
    (warp, -2i64..40, prop::collection::vec(reg, 0..4), stack, prop::collection::vec(instr, 1..14)).prop_map(|(w, n, regs, st, body)| {
        let mut s = format!("{w}//@ param n = {n}\n//@ buffer a: i32[W] = i\n{}{st}L3: ", regs.concat());
        for i in body {
            s += i;
            s += ";\n";
        }
        s + "L0: NOP.S;\nL1: SYNC;\nL2: EXIT;\n"
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC*") {
        exercise(&src);
    }

    #[test]
    fn header_fragments_never_panic(src in kernel_text()) {
        exercise(&src);
    }

    #[test]
    fn structured_kernels_never_panic(src in structured_text()) {
        exercise(&src);
    }
}

#[test]
fn notes_tie_captions_to_steps_events_and_instructions() {
    use warpscope_core::isa::Pc;
    use warpscope_core::kernel::{NoteEvent, NoteTarget};
    let src = "//@ note step 0: start\n//@ note step 0: second line\n//@ note step 3: later\n//@ note L: at the loop\n//@ note 0x0008: by address\n//@ note div 2: split\n//@ note join 1: together\n//@ note .L_x: dotted label\nNOP\nL: NOP\n.L_x: NOP\n";
    let (k, d) = parse_kernel(src);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(k.notes.len(), 7, "consecutive lines with one target join: {:?}", k.notes);
    assert_eq!(k.notes[0].text, "start\nsecond line");
    let targets: Vec<NoteTarget> = k.notes.iter().map(|n| n.target).collect();
    assert_eq!(
        targets,
        [
            NoteTarget::Step(0),
            NoteTarget::Step(3),
            NoteTarget::Instr(Pc(1)),
            NoteTarget::Instr(Pc(1)),
            NoteTarget::Event(NoteEvent::Div, 2),
            NoteTarget::Event(NoteEvent::Join, 1),
            NoteTarget::Instr(Pc(2)),
        ]
    );
    assert_eq!((k.notes[4].span.line, k.notes[4].span.col, k.notes[4].span.len), (6, 10, 5), "a note knows where its target is written");
    // Where they show is decided against a run: `session::captions`.
}

#[test]
fn a_bad_note_target_is_a_located_error() {
    let cases: &[(&str, u32, &[&str])] = &[
        ("//@ note 0x0100: nowhere\nNOP\n", 10, &["no instruction"]),
        ("//@ note step x: bad\nNOP\n", 15, &["`x`", "step number"]),
        ("//@ note div 0: bad\nNOP\n", 14, &["count from 1", "`div 1` is the first divergence"]),
        ("//@ note spill x: bad\nNOP\n", 16, &["`x` is not a count", "`spill 1` is the first spill"]),
        ("//@ note reconverge -1: bad\nNOP\n", 21, &["`-1` is not a count"]),
        ("//@ note diverge 1: bad\nNOP\n", 10, &["unknown note target `diverge`", "`div N`", "`join N`", "`exit N`"]),
        ("//@ note div: bad\nNOP\n", 10, &["`div` needs a count"]),
        ("//@ note nowhere: bad\nNOP\n", 10, &["no instruction has the label `nowhere`"]),
        ("//@ note no colon here\nNOP\n", 10, &["expected `//@ note <target>: text`"]),
    ];
    for (src, col, words) in cases {
        let d = parse_error(src);
        assert_at(&d, 1, *col, words);
    }
    // A label of an event's name is a label.
    let (k, d) = parse_kernel("//@ note div: the label\ndiv: NOP\n");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(k.notes[0].target, warpscope_core::kernel::NoteTarget::Instr(warpscope_core::isa::Pc(0)));
}

#[test]
fn joins_are_bounded_so_placing_them_stays_one_cheap_pass() {
    use warpscope_core::kernel::MAX_JOIN_NOTES;
    let mut src: String = (1..=MAX_JOIN_NOTES + 1).map(|n| format!("//@ note join {n}: j\n")).collect();
    src += "//@ note join 1: again\nNOP\n";
    let (k, d) = parse_kernel(&src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].span.line as usize, MAX_JOIN_NOTES + 1);
    assert!(d[0].message.contains(&format!("at most {MAX_JOIN_NOTES} different joins")), "{}", d[0].message);
    assert_eq!(k.notes.len(), MAX_JOIN_NOTES + 1, "a join already named may be named again");
}

#[test]
fn buffers_together_are_bounded_with_a_located_error() {
    let mut text = String::new();
    for i in 0..5 {
        text += &format!("//@ buffer b{i}: i32[1048576]\n");
    }
    text += "EXIT\n";
    let (k, d) = parse_kernel(&text);
    assert!(d.is_empty(), "{d:?}");
    let Err(errors) = instantiate(&k, &[]) else { panic!("over the limit") };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].span.line, 5, "the buffer that passes the limit");
    assert!(errors[0].message.contains("together they may hold 4194304"), "{}", errors[0].message);
}

#[test]
fn an_oversized_kernel_file_is_refused_at_line_1() {
    let text = format!("EXIT\n{}", "// padding\n".repeat(30_000));
    let (_, d) = parse_kernel(&text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].message.contains("warpscope reads kernels of up to 256 KiB"), "{}", d[0].message);
}

#[test]
fn an_input_named_t_or_w_cannot_be_reached_from_a_reg_line_and_says_so() {
    // Declaring one is fine (a C kernel may name its parameters so) ...
    let m = machine("//@ buffer t: i32[4] = i + 1\n//@ param W = 3\n//@ reg R1 = 32 - 1\nNOP\n", &[]);
    assert_eq!(m.memory.buffer("t").map(|b| b.1.to_vec()), Some(vec![1, 2, 3, 4]));
    // ... but a reg line that names it gets the lane or the width, and is told so.
    let d = parse_error("//@ buffer t: i32[4]\n//@ reg R1 = t + 4\nNOP\n");
    assert_at(&d, 2, 14, &["`t`", "the lane", "rename"]);
    let d = parse_error("//@ param W = 3\n//@ reg R1 = W\nNOP\n");
    assert_at(&d, 2, 14, &["`W`", "the warp width"]);
}
