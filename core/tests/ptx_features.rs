//! nvcc's PTX of kernels written to use what the teaching corpus does not
//! (`core/tests/fixtures/ptx/features.cu`, compiled by `scripts/nvcc.sh check`): a `.func` called
//! with `.param` passing, local memory, a `float4` load, 64-bit arithmetic with `mul.hi.s64`,
//! 8- and 16-bit values, inline `asm` reading `%lanemask_*`, a dense `switch`, a call only some
//! lanes make that returns from inside a loop, lanes leaving early, and eight entries
//! in one module picked by `//@ kernel`, `__constant__` and `__device__` variables, and a failed
//! `assert` (`__assertfail`), 64-bit atomics and warp reductions (`redux.sync`). Each runs under every model with inputs given by
//! header lines, and its output is checked against the kernel written again in Rust.

use std::path::Path;

use warpscope_core::launch;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{RunChoices, RunRequest};
use warpscope_core::sim::StopReason;

fn ptx() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ptx/features.ptx")).unwrap()
}

/// Runs entry `kernel` of the module with `headers` above it under `model`; the bytes of buffer
/// `out`.
fn run(kernel: &str, headers: &str, out: &str, model: ModelKind) -> Vec<u8> {
    run_source(kernel, headers, &ptx(), out, model)
}

/// As `run`, on `source` (the module, or a C file) in place of nvcc's PTX.
fn run_source(kernel: &str, headers: &str, source: &str, out: &str, model: ModelKind) -> Vec<u8> {
    let text = format!("//@ kernel {kernel}\n{headers}{source}");
    let req = RunRequest {
        text,
        choices: RunChoices { model: Some(model.name().to_string()), ..RunChoices::default() },
        ..RunRequest::default()
    };
    let r = req.resolve();
    let errors: Vec<_> = r.all_diagnostics().into_iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{kernel}: {errors:?}");
    let mut sim = launch(&r.kernel, &r.options).expect("launch");
    assert_eq!(sim.run_to_end(), StopReason::Exited, "{kernel} under {}", model.name());
    let (_, words) = sim.state().machine.memory.buffer(out).unwrap_or_else(|| panic!("no buffer {out}"));
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn every_model(kernel: &str, headers: &str, out: &str, want: &[u8]) {
    for &m in ModelKind::ALL {
        let got = run(kernel, headers, out, m);
        assert_eq!(&got[..want.len()], want, "{kernel} under {}", m.name());
    }
}

fn i32s(v: impl IntoIterator<Item = i32>) -> Vec<u8> {
    v.into_iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn a_called_func_with_param_passing() {
    let pick = |x: i32, y: i32| if x < y { x * 3 } else { y - x };
    let want = i32s((0..32).map(|i| pick(i * 3 - 40, 16) + pick(i, 7)));
    every_model("calls", "//@ buffer arg0: i32[32] = i * 3 - 40\n//@ buffer arg1: i32[32]\n", "arg1", &want);
}

#[test]
fn local_memory_one_copy_per_lane() {
    let want = i32s((0..32).map(|i| {
        let x = (i * 7) % 11;
        let a: Vec<i32> = (0..8).map(|k| x * k + i).collect();
        a[(x & 7) as usize]
    }));
    every_model("local_array", "//@ buffer arg0: i32[32] = (i * 7) % 11\n//@ buffer arg1: i32[32]\n", "arg1", &want);
}

#[test]
fn a_float4_load() {
    let v = |k: usize| k as f32 * 0.5;
    let want: Vec<u8> =
        (0..32).flat_map(|i| (v(4 * i) + v(4 * i + 1) * 2.0 + v(4 * i + 2) * 3.0 + v(4 * i + 3) * 4.0).to_le_bytes()).collect();
    every_model("vectors", "//@ buffer arg0: f32[128] = i * 0.5\n//@ buffer arg1: f32[32]\n", "arg1", &want);
    // The same kernel in C, compiled by warpscope (a `float4` in four registers), computes the same.
    assert_eq!(c_kernel("vectors", "//@ buffer in: f32[128] = i * 0.5\n//@ buffer out: f32[32]\n", "out"), want);
}

/// Kernel `name` of `features.cu` in C, compiled by warpscope and run with `headers`: the bytes
/// of buffer `out`.
fn c_kernel(name: &str, headers: &str, out: &str) -> Vec<u8> {
    let cu = include_str!("fixtures/ptx/features.cu");
    let from = cu.find(&format!("__global__ void {name}(")).unwrap();
    let kernel = &cu[from..from + cu[from..].find("\n}\n").unwrap() + 3];
    let r = RunRequest { text: format!("{headers}{kernel}"), ..RunRequest::default() }.resolve();
    assert!(r.all_diagnostics().iter().all(|d| !d.is_error()), "{:?}", r.all_diagnostics());
    let mut sim = launch(&r.kernel, &r.options).expect("launch");
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let (_, words) = sim.state().machine.memory.buffer(out).unwrap_or_else(|| panic!("no buffer {out}"));
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn sixty_four_bit_arithmetic() {
    let input = |i: i64| i * 123_456_789 - 1_000_000_000;
    let s = 5i64;
    let want: Vec<u8> = (0..32i64)
        .flat_map(|i| {
            let x = input(i).wrapping_mul(1_000_003).wrapping_sub(i.wrapping_mul(input((i + 1) & 31)));
            let y = x.wrapping_shl((s & 63) as u32) ^ (x >> ((s + i) & 31));
            let u = (x as u64) >> (i & 15);
            (x.min(y) + (u % 97) as i64 + x / 7).to_le_bytes()
        })
        .collect();
    every_model(
        "wide",
        "//@ buffer arg0: i64[32] = i * 123456789 - 1000000000\n//@ buffer arg1: i64[32]\n//@ param arg2 = 5\n",
        "arg1",
        &want,
    );
}

#[test]
fn eight_and_sixteen_bit_values() {
    let byte = |j: i32| ((j * 37 + 11) & 255) as u8;
    let want: Vec<u8> = (0..32)
        .flat_map(|i| {
            let s = (byte(i) as i16).wrapping_mul(3).wrapping_sub((i * 5) as i16);
            (if s < 0 { -s } else { s }).to_le_bytes()
        })
        .collect();
    // `const unsigned char*` and `short*` in the mangled name: byte and halfword buffers.
    every_model("narrow", "//@ buffer arg0: u8[32] = i * 37 + 11\n//@ buffer arg1: i16[32]\n", "arg1", &want);
    let ptx = format!("//@ kernel narrow\n{}", ptx());
    let r = RunRequest { text: ptx, ..RunRequest::default() }.resolve();
    let elems: Vec<_> = r.kernel.buffers.iter().map(|b| (b.name.as_str(), b.elem.name())).collect();
    // And the module's variables: `.align 4 .b8 weights[12]` holds ints, printf's and assert's
    // strings (`.align 1 .b8`) are bytes.
    assert_eq!(
        elems,
        [
            ("arg0", "u8"),
            ("arg1", "i16"),
            ("weights", "i32"),
            ("visits", "u32"),
            ("__unnamed_1", "u8"),
            ("_str", "u8"),
            ("_str_1", "u8"),
            // `extern __shared__ double s[]`, through a register that holds its address: the
            // `.f64` accesses say its elements.
            ("s", "f64")
        ]
    );
}

#[test]
fn inline_asm_reads_lane_masks() {
    let want = i32s((0..32).map(|t| t * 100 + 1));
    every_model("lanemask", "//@ buffer arg0: u32[32]\n", "arg0", &want);
}

#[test]
fn a_dense_switch() {
    let want = i32s((0..32).map(|i| match (i * 5 + 3) & 7 {
        0 => i,
        1 => i * 7,
        2 => i ^ 5,
        3 => -i,
        4 => i << 3,
        5 => i + 100,
        6 => i * i,
        _ => 42,
    }));
    every_model("dense_switch", "//@ buffer arg0: i32[32] = i * 5 + 3\n//@ buffer arg1: i32[32]\n", "arg1", &want);
}

#[test]
fn the_entries_are_named_for_the_picker() {
    let r = RunRequest { text: ptx(), ..RunRequest::default() }.resolve();
    let names = r.kernel.compiled.as_ref().map(|c| c.kernels.clone()).unwrap_or_default();
    assert_eq!(
        names,
        [
            "calls",
            "local_array",
            "vectors",
            "wide",
            "narrow",
            "lanemask",
            "dense_switch",
            "divergent_call",
            "constant_weights",
            "asserts",
            "text_histogram",
            "greyscale",
            "reverse_doubles",
            "wide_atomics",
            "warp_reductions"
        ]
    );
    let note = r.all_diagnostics().into_iter().find(|d| d.message.contains("entries")).map(|d| d.message.clone());
    assert_eq!(note.as_deref(), Some("this PTX has 15 entries: running `calls` (choose another with `//@ kernel local_array`)"));
}

#[test]
fn a_divergent_call_and_early_exits() {
    let steps = |mut x: i32| {
        let mut n = 0;
        while x != 1 {
            x = if x & 1 != 0 { 3 * x + 1 } else { x / 2 };
            n += 1;
            if n > 50 {
                return -1;
            }
        }
        n
    };
    let input = |i: i32| (i * 5) % 13 + 1;
    let want = i32s((0..32).map(|i| if input(i) == 7 { -5 } else { (if i & 1 == 1 { steps(input(i)) } else { 0 }) + 1 }));
    every_model("divergent_call", "//@ buffer arg0: i32[32] = (i * 5) % 13 + 1\n//@ buffer arg1: i32[32] = -5\n", "arg1", &want);
}

/// A hand-written module: what nvcc rarely writes for teaching kernels but PTX users do.
const HAND: &str = r#"
.version 8.5
.target sm_90
.address_size 64

.visible .entry hand(.param .u64 out, .param .u32 n)
{
    .reg .pred %p<6>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<4>;
ts: .branchtargets L0, L1, L2;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %laneid;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    rem.u32 %r2, %r1, 3;
    brx.idx %r2, ts;
L0:
    mov.u32 %r3, 100;
    bra.uni DONE;
L1:
    mov.u32 %r3, 200;
    bra.uni DONE;
L2:
    mov.u32 %r3, 300;
DONE:
    // Bit fields: bits 4..11 of 0xABCD1234 are 0x23.
    bfe.u32 %r4, 0xABCD1234, 4, 8;
    bfi.b32 %r5, %r1, 0, 8, 4;
    prmt.b32 %r6, 0x33221100, 0x77665544, 0x4510;
    add.s32 %r3, %r3, %r4;
    add.s32 %r3, %r3, %r5;
    // Votes and matches over the whole warp.
    and.b32 %r7, %r1, 1;
    setp.eq.u32 %p1|%p2, %r7, 0;
    vote.sync.uni.pred %p3, %p1, -1;
    selp.u32 %r8, 1, 0, %p3;
    activemask.b32 %r9;
    match.any.sync.b32 %r10, %r7, -1;
    popc.b32 %r11, %r10;
    cnot.b32 %r12, %r7;
    setp.lt.and.u32 %p4, %r1, 16, %p2;
    selp.u32 %r13, 1000, 0, %p4;
    add.s32 %r3, %r3, %r13;
    // A 64-bit min and compare.
    cvt.s64.s32 %rd4, %r1;
    sub.s64 %rd5, 10, %rd4;
    min.s64 %rd6, %rd5, %rd4;
    cvt.u32.u64 %r14, %rd6;
    add.s32 %r3, %r3, %r14;
    st.global.u32 [%rd3], %r3;
    st.global.u32 [%rd3+128], %r6;
    st.global.u32 [%rd3+256], %r9;
    add.s32 %r15, %r11, %r8;
    add.s32 %r15, %r15, %r12;
    st.global.u32 [%rd3+384], %r15;
    setp.eq.u32 %p5, %r1, 31;
    @%p5 trap;
    ret;
}
"#;

#[test]
fn hand_written_ptx() {
    for &m in ModelKind::ALL {
        let text = format!("//@ buffer out: u32[128]\n{HAND}");
        let req = RunRequest {
            text,
            choices: RunChoices { model: Some(m.name().to_string()), ..RunChoices::default() },
            ..RunRequest::default()
        };
        let r = req.resolve();
        let errors: Vec<_> = r.all_diagnostics().into_iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let mut sim = launch(&r.kernel, &r.options).expect("launch");
        let stop = sim.run_to_end();
        // Lane 31 traps: the run stops with the error, after the other lanes stored.
        assert!(matches!(stop, StopReason::Fault { .. }), "{} ends {stop:?}", m.name());
        assert!(format!("{stop:?}").contains("trap"), "{stop:?}");
        let (_, w) = sim.state().machine.memory.buffer("out").unwrap();
        for t in 0..32u32 {
            let branch = [100, 200, 300][(t % 3) as usize];
            let bfi = (t & 0xf) << 8;
            let low16 = if t < 16 && t % 2 == 1 { 1000 } else { 0 };
            let min = (10 - t as i64).min(t as i64);
            let want = (branch + 0x23 + bfi + low16) as i64 + min;
            assert_eq!(w[t as usize], want as u32, "lane {t} under {}", m.name());
            // Selector 0x4510 picks bytes 0, 1, 5, 4 of {b:a}.
            assert_eq!(w[32 + t as usize], 0x4455_1100, "prmt, lane {t}");
            // The lanes running together: all of them (under mimd, those that gather there).
            assert_eq!(w[64 + t as usize], 0xffff_ffff, "activemask, lane {t} under {}", m.name());
            // 16 lanes share each parity; the vote is not uniform; cnot of the parity.
            assert_eq!(w[96 + t as usize], 16 + u32::from(t % 2 == 0), "match/vote/cnot, lane {t}");
        }
    }
}

/// A predicate live across a call keeps its value: the callee's predicates are other ones
/// (functions share P0-P5, so callers are given registers after their callees).
#[test]
fn a_predicate_survives_a_call() {
    let module = r#"
.version 8.5
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 x)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    setp.gt.s32 %p1, %r1, 10;
    selp.b32 %r2, 1, 2, %p1;
    st.param.b32 [r], %r2;
    ret;
}
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %laneid;
    setp.lt.u32 %p1, %r1, 5;
    {
    .param .b32 a;
    st.param.b32 [a], %r1;
    .param .b32 ret;
    call.uni (ret), f, (a);
    ld.param.b32 %r2, [ret];
    }
    selp.b32 %r3, 100, 200, %p1;
    add.s32 %r4, %r3, %r2;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}
"#;
    for &m in ModelKind::ALL {
        let req = RunRequest {
            text: format!("//@ buffer out: i32[32]\n{module}"),
            choices: RunChoices { model: Some(m.name().to_string()), ..RunChoices::default() },
            ..RunRequest::default()
        };
        let r = req.resolve();
        assert!(r.ok(), "{:?}", r.all_diagnostics());
        let mut sim = launch(&r.kernel, &r.options).expect("launch");
        assert_eq!(sim.run_to_end(), StopReason::Exited);
        let (_, w) = sim.state().machine.memory.buffer("out").unwrap();
        let want: Vec<u32> = (0..32).map(|t| (if t < 5 { 100 } else { 200 }) + if t > 10 { 1 } else { 2 }).collect();
        assert_eq!(w, &want[..], "under {}", m.name());
    }
}

#[test]
fn constant_memory_and_a_device_counter() {
    let headers = "//@ buffer arg0: i32[32] = i + 1\n//@ buffer arg1: i32[32]\n";
    every_model("constant_weights", headers, "arg1", &i32s((0..32).map(|i| (i + 1) * [1, 10, 100][i as usize % 3])));
    // `.const weights` starts as its initialiser says, `.global visits` at zero; every lane adds one.
    every_model("constant_weights", headers, "weights", &i32s([1, 10, 100]));
    every_model("constant_weights", headers, "visits", &i32s([32]));
}

#[test]
fn a_header_buffer_takes_the_place_of_a_memory_variable() {
    // `//@ buffer weights` (what Kernel inputs writes to edit a `__constant__`) gives `.const
    // weights` its values: the kernel reads them, and no second buffer is made.
    let headers = "//@ buffer weights: i32[3] = [2, 20, 200]\n//@ buffer arg0: i32[32] = i + 1\n//@ buffer arg1: i32[32]\n";
    every_model("constant_weights", headers, "arg1", &i32s((0..32).map(|i| (i + 1) * [2, 20, 200][i as usize % 3])));
    let text = format!("//@ kernel constant_weights\n{headers}{}", ptx());
    let r = RunRequest { text, ..RunRequest::default() }.resolve();
    let names: Vec<_> = r.kernel.buffers.iter().map(|b| b.name.as_str()).filter(|n| n.starts_with("weights")).collect();
    assert_eq!(names, ["weights"]);
    // nvcc's `__constant__ float coef;`: scalar, read by name, so its type is known.
    let scale = ".version 9.5\n.target sm_90\n.address_size 64\n.const .align 4 .f32 coef;\n\
        .visible .entry _Z5scalePf(.param .u64 _Z5scalePf_param_0)\n{\n.reg .f32 %f<4>;\n.reg .b32 %r<2>;\n.reg .b64 %rd<5>;\n\
        ld.param.u64 %rd1, [_Z5scalePf_param_0];\ncvta.to.global.u64 %rd2, %rd1;\nld.const.f32 %f1, [coef];\n\
        mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.f32 %f2, [%rd4];\n\
        mul.f32 %f3, %f1, %f2;\nst.global.f32 [%rd4], %f3;\nret;\n}\n";
    let r = RunRequest { text: format!("//@ buffer coef: f32[1] = [2.5]\n//@ buffer arg0: f32[32] = i\n{scale}"), ..RunRequest::default() }
        .resolve();
    let mut sim = launch(&r.kernel, &r.options).expect("launch");
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let (_, words) = sim.state().machine.memory.buffer("arg0").unwrap();
    assert!(words.iter().enumerate().all(|(i, w)| f32::from_bits(*w) == i as f32 * 2.5), "{words:?}");
    // A header of other elements is an error at the declaration.
    let r = RunRequest { text: format!("//@ buffer coef: i32[1]\n{scale}"), ..RunRequest::default() }.resolve();
    let error = r.all_diagnostics().into_iter().find(|d| d.is_error()).map(|d| (d.span.line, d.message.clone()));
    assert!(error.as_ref().is_some_and(|(line, m)| *line == 5 && m.contains("`//@ buffer coef` holds i32 elements")), "{error:?}");
}

#[test]
fn dynamic_shared_memory_of_doubles_sized_by_a_header() {
    let reversed: Vec<u8> = (0..32).rev().flat_map(|i| (i as f64 * 1.5).to_le_bytes()).collect();
    // Without a header line the `extern` array has room for a 16-byte element a thread.
    every_model("reverse_doubles", "//@ buffer arg0: f64[32] = i * 1.5\n", "arg0", &reversed);
    // `//@ buffer s` sizes it (in any elements: nvcc declares it in bytes); too small, it faults there.
    every_model("reverse_doubles", "//@ buffer arg0: f64[32] = i * 1.5\n//@ buffer s: f64[32]\n", "arg0", &reversed);
    let text = format!("//@ kernel reverse_doubles\n//@ buffer s: f64[16]\n{}", ptx());
    let r = RunRequest { text, ..RunRequest::default() }.resolve();
    let mut sim = launch(&r.kernel, &r.options).expect("launch");
    let end = sim.run_to_end();
    assert!(matches!(&end, StopReason::Fault { message, .. } if message.contains("past the end of shared `s`")), "{end:?}");
    // Shared memory has no values to give.
    let text = format!("//@ kernel reverse_doubles\n//@ buffer s: f64[32] = i\n{}", ptx());
    let r = RunRequest { text, ..RunRequest::default() }.resolve();
    let error = r.all_diagnostics().into_iter().find(|d| d.is_error()).map(|d| (d.span.line, d.message.clone()));
    assert!(error.as_ref().is_some_and(|(line, m)| *line == 2 && m.contains("gives its size, not its values")), "{error:?}");
}

#[test]
fn atomics_on_64_bit_values_work_on_register_pairs() {
    let x = |t: u64| t as f64 * 0.75;
    let sum: f64 = (0..32).map(x).sum();
    let mut want = vec![sum.to_bits(), sum.to_bits(), (24 * 1_000_000_000_000i64) as u64, 32 << 33];
    // atomicMin's old values, in lane order: each lane finds the one before it stored.
    let mut min = u64::MAX;
    let mut olds = Vec::new();
    for t in 0..32 {
        olds.push(min);
        min = min.min(0xFFFF_FFFF_0000_0000 + 31 - t);
    }
    want.push(min);
    want.extend(olds);
    let bytes: Vec<u8> = want.iter().flat_map(|v| v.to_le_bytes()).collect();
    let headers = "//@ buffer arg0: u64[37] = 0\n//@ buffer arg1: f64[32] = i * 0.75\n";
    // Unsigned min starts at all ones; the signed max at the smallest long long.
    let headers = headers.replace("= 0", "= i == 4 ? -1 : i == 2 ? -(1 << 62) * 2 : 0");
    every_model("wide_atomics", &headers, "arg0", &bytes);
    // warpscope's C compiler reads the same source to the same values.
    c_every_model("wide_atomics", &headers.replace("arg0", "out").replace("arg1", "x"), "out", &bytes);
}

/// As `every_model`, for warpscope's C compiler's reading of kernel `kernel` of `features.cu`
/// (from its definition to the end of the file).
fn c_every_model(kernel: &str, headers: &str, out: &str, want: &[u8]) {
    let cu = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ptx/features.cu")).unwrap();
    let source = &cu[cu.find(&format!("__global__ void {kernel}(")).unwrap()..];
    for &m in ModelKind::ALL {
        let got = run_source(kernel, headers, source, out, m);
        assert_eq!(&got[..want.len()], want, "C under {}", m.name());
    }
}

#[test]
fn warp_reductions_combine_the_lanes_of_their_mask() {
    let sum: i32 = (0..32).map(|t| t * t).sum();
    let half_max = |lo: i32| (lo..lo + 16).map(|t| t * 7 % 11).max().unwrap();
    let and = (0..32).fold(!0u32, |a, t| a & !(1u32 << (t % 8)));
    let or = (0..32).fold(0u32, |a, t| a | t);
    let xor = (0..32).fold(0u32, |a, t| a ^ t);
    let want = i32s(
        (0..32)
            .map(|_| sum)
            .chain((0..32).map(|_| 5 - 31))
            .chain((0..32).map(|t| half_max(if t < 16 { 0 } else { 16 })))
            .chain((0..32).map(|_| (and ^ or ^ xor) as i32)),
    );
    every_model("warp_reductions", "//@ buffer arg0: i32[128]\n", "arg0", &want);
    c_every_model("warp_reductions", "//@ buffer out: i32[128]\n", "out", &want);
}

#[test]
fn a_failed_assert_prints_cudas_line_and_traps() {
    for model in ModelKind::ALL.iter().copied() {
        let text = format!("//@ kernel asserts\n//@ buffer arg0: i32[32] = i\n//@ buffer arg1: i32[32]\n{}", ptx());
        let r = RunRequest {
            text,
            choices: RunChoices { model: Some(model.name().to_string()), ..RunChoices::default() },
            ..RunRequest::default()
        }
        .resolve();
        let mut sim = launch(&r.kernel, &r.options).expect("launch");
        let stop = sim.run_to_end();
        let StopReason::Fault { message, .. } = &stop else { panic!("{stop:?} under {}", model.name()) };
        let out = warpscope_core::printf::lines(&sim.program().formats, &sim.state().machine.output);
        let lanes: Vec<u32> = out.iter().filter_map(|l| l.lane).collect();
        assert_eq!(lanes, (20..32).collect::<Vec<_>>(), "under {}", model.name());
        // The first trap aborts the kernel: in lockstep lanes 20-31 trap together; MIMD takes one
        // lane a step, and lane 20 is first there.
        let trapped =
            if model == ModelKind::Mimd { "lane 20 failed `assert(in[i] < 20)`" } else { "lanes 20-31 failed `assert(in[i] < 20)`" };
        assert!(message.contains(trapped), "{}: {message}", model.name());
        for l in &out {
            assert_eq!(l.text, "features.cu:100: void asserts(const int *, int *): Assertion `in[i] < 20` failed.\n");
        }
    }
}

#[test]
fn byte_kernels_from_nvcc_count_and_convert_as_the_c_compiler_does() {
    let text = "programming massively parallel processors";
    let mut want = [0u32; 7];
    for c in text.bytes().filter(u8::is_ascii_lowercase) {
        want[((c - b'a') / 4) as usize] += 1;
    }
    let headers = format!("//@ buffer arg0: u8[48] = \"{text}\"\n//@ param arg1 = {}\n//@ buffer arg2: u32[7] = 0\n", text.len());
    every_model("text_histogram", &headers, "arg2", &want.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<_>>());
    // The same kernel in C, compiled by warpscope, counts the same.
    let headers = format!("//@ buffer data: u8[48] = \"{text}\"\n//@ param length = {}\n//@ buffer histo: u32[7] = 0\n", text.len());
    assert_eq!(c_kernel("text_histogram", &headers, "histo"), want.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<_>>());

    let pixel = |k: usize| (k * 7 % 256) as f32;
    let grey: Vec<u8> = (0..32).map(|i| (0.21f32 * pixel(3 * i) + 0.71f32 * pixel(3 * i + 1) + 0.07f32 * pixel(3 * i + 2)) as u8).collect();
    every_model("greyscale", "//@ buffer arg0: u8[32]\n//@ buffer arg1: u8[96] = i * 7\n//@ param arg2 = 32\n", "arg0", &grey);
}

/// ptxas fuses a `mul` and the `add` that reads it into one fma, rounded once, where neither
/// names a rounding (nvcc's PTX leaves such pairs where LLVM did not fuse them); `mul.rn` keeps
/// its product rounded. (1 + 2^-12)^2 - 1 is 2^-11 + 2^-24 fused and 2^-11 rounded first.
#[test]
fn a_multiply_and_add_fuse_unless_a_rounding_is_named() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry fused(.param .u64 p)\n{\n\
        .reg .f32 %f<6>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n\
        mov.f32 %f1, 0f3F800800;\nmul.f32 %f2, %f1, %f1;\nadd.f32 %f3, %f2, 0fBF800000;\nst.global.f32 [%rd2], %f3;\n\
        mul.rn.f32 %f4, %f1, %f1;\nadd.f32 %f5, %f4, 0fBF800000;\nst.global.f32 [%rd2+4], %f5;\nret;\n}\n";
    let got = run_source("fused", "//@ buffer p: f32[2]\n", ptx, "p", ModelKind::Volta);
    let want = [2f32.powi(-11) + 2f32.powi(-24), 2f32.powi(-11)];
    assert_eq!(got, want.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>());
}
