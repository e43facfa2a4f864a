//! CUDA's vector types in C, as courses use them: `uchar4` pixels (CS344's greyscale),
//! `float2`/`float4` values, `make_float4`, `.x`/`.y`/`.z`/`.w`, pointers to them. A vector lives
//! in a row of registers, one component each, and in memory its components one after another.
//! Each kernel's results are computed here.

use warpscope_core::kernel::{parse_kernel, Kernel};
use warpscope_core::machine::Elem;
use warpscope_core::sim::{Sim, Status};
use warpscope_core::{launch, LaunchOptions};

fn load(text: &str) -> Kernel {
    let (k, diags) = parse_kernel(text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    k
}

fn run(text: &str) -> Sim {
    let mut sim = launch(&load(text), &LaunchOptions::default()).expect("launches");
    sim.run_to_end();
    assert_eq!(sim.state().status, Status::Exited, "{:?}", sim.state().status);
    sim
}

/// Buffer `name`'s elements, as f64.
fn values(sim: &Sim, name: &str) -> Vec<f64> {
    let (b, words) = sim.state().machine.memory.buffer(name).unwrap_or_else(|| panic!("no buffer `{name}`"));
    b.values(words)
        .map(|e| match e {
            Elem::I32(v) => v as f64,
            Elem::U32(v) => v as f64,
            Elem::F32(v) => v as f64,
            e => panic!("`{name}` holds {e:?}"),
        })
        .collect()
}

/// The first error of compiling `text`: its line, column and message.
fn error(text: &str) -> (u32, u32, String) {
    let (_, diags) = parse_kernel(text);
    let e = diags.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("no error in {text}"));
    (e.span.line, e.span.col, e.message.clone())
}

/// CS344's Problem Set 1, as the course hands it out (an 8x4 image, one block of 32 threads).
const GREYSCALE: &str = r#"//@ launch grid=1 block=(8,4)
//@ param numRows = 4
//@ param numCols = 8
//@ buffer rgbaImage: u8[128] = (i * 37 + 11) % 256
//@ buffer greyImage: u8[32]
__global__
void rgba_to_greyscale(const uchar4* const rgbaImage,
                       unsigned char* const greyImage,
                       int numRows, int numCols)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= numCols || y >= numRows) return;
  uchar4 rgba = rgbaImage[y * numCols + x];
  float channelSum = .299f * rgba.x + .587f * rgba.y + .114f * rgba.z;
  greyImage[y * numCols + x] = channelSum;
}
"#;

#[test]
fn cs344_greyscale_reads_each_pixel_as_a_uchar4() {
    let sim = run(GREYSCALE);
    let bytes: Vec<f32> = (0..128).map(|i| ((i * 37 + 11) % 256) as f32).collect();
    // As the GPU computes it: float products and sums in the kernel's order, then truncated.
    let want: Vec<f64> =
        (0..32).map(|p| ((0.299f32 * bytes[4 * p] + 0.587f32 * bytes[4 * p + 1]) + 0.114f32 * bytes[4 * p + 2]) as u8 as f64).collect();
    assert_eq!(values(&sim, "greyImage"), want);
    // The pixel's bytes load straight into the variable's row of four registers, no `MOV`s.
    let listing = listing(GREYSCALE);
    let loads: Vec<&str> = listing.lines().filter(|l| l.contains("LD.E.U8")).map(str::trim).collect();
    assert_eq!(loads.len(), 4, "{listing}");
    let regs: Vec<u32> = loads.iter().map(|l| l[9..].split(',').next().unwrap().trim_start_matches('R').parse().unwrap()).collect();
    assert_eq!(regs, [regs[0], regs[0] + 1, regs[0] + 2, regs[0] + 3], "{listing}");
    assert!(!listing.contains("MOV"), "{listing}");
}

fn listing(text: &str) -> String {
    load(text).compiled.expect("compiled").listing
}

#[test]
fn float_vectors_are_made_copied_passed_returned_and_stored_by_component() {
    let text = r#"//@ buffer a: f32[64] = i
//@ buffer out: f32[128]
__device__ float2 swap(float2 v) { return make_float2(v.y, v.x); }
__global__ void k(float2* a, float4* out) {
    int t = threadIdx.x;
    float2 v = a[t];
    float2 w = swap(v);
    w.x += 100.0f;
    float4 r = make_float4(w.x, w.y, v.x, 0);
    r.w = sizeof(float4) + sizeof(uchar3);
    if (t % 2) out[t / 2] = r; else out[t / 2 + 16].y = -1.0f;
}
"#;
    let out = values(&run(text), "out");
    for t in 0..32usize {
        let (x, y) = ((2 * t) as f64, (2 * t + 1) as f64);
        if t % 2 == 1 {
            assert_eq!(out[4 * (t / 2)..4 * (t / 2) + 4], [y + 100.0, x, x, 19.0], "lane {t}");
        } else {
            assert_eq!(out[4 * (t / 2 + 16) + 1], -1.0, "lane {t}");
        }
    }
}

#[test]
fn pointers_to_vectors_step_by_whole_vectors_even_of_three() {
    // A `uchar3` is 3 bytes and a `float3` 12: indexing by a register multiplies (`IMAD`).
    let text = r#"//@ buffer c: u8[96] = i
//@ buffer f: f32[96] = i
//@ buffer out: i32[64]
__global__ void k(uchar3* c, float3* f, int2* out) {
    int t = threadIdx.x;
    uchar3 p = c[t];
    float3 q = *(f + t);
    int2* o = out + t;
    o->x = p.x + p.y + p.z;
    (*o).y = q.z;
}
"#;
    let sim = run(text);
    let out = values(&sim, "out");
    for t in 0..32 {
        assert_eq!(out[2 * t], (9 * t + 3) as f64, "lane {t}: bytes 3t..3t+2");
        assert_eq!(out[2 * t + 1], (3 * t + 2) as f64, "lane {t}: float 3t+2");
    }
    assert!(listing(text).contains("IMAD"), "a 3-byte step is not a shift");
}

#[test]
fn a_conditional_of_vectors_selects_every_component() {
    let text = r#"//@ buffer a: f32[64] = i
__global__ void k(float2* a) {
    int t = threadIdx.x;
    float2 v = a[t], w = make_float2(-1, -2);
    float2 r = t % 2 ? v : w;
    float2 s = t % 2 ? a[t] : make_float2(-3, -4);
    a[t] = make_float2(r.x + s.x, r.y + s.y);
}
"#;
    let a = values(&run(text), "a");
    for t in 0..32 {
        let want = if t % 2 == 1 { [2.0 * (2 * t) as f64, 2.0 * (2 * t + 1) as f64] } else { [-4.0, -6.0] };
        assert_eq!(a[2 * t..2 * t + 2], want, "lane {t}");
    }
}

#[test]
fn self_reference_one_wide_vectors_braces_sizeof_and_names_near_built_ins() {
    // A vector made from its own components is made apart before it is written.
    let text = r#"//@ buffer out: f32[64]
//@ buffer a: f32[32] = i
//@ buffer s: i32[32]
__global__ void k(float* out, float1* a, int* s, float4* f) {
    int i = threadIdx.x;
    float2 v = make_float2(i, 100 + i);
    v = make_float2(v.y, v.x);
    float1 w = a[i];
    out[2 * i] = v.x + a[i].x;
    out[2 * i + 1] = v.y + w.x;
    int2 blockId = {(int)blockIdx.x};
    blockId.y = 3;
    int3 z = {};
    s[i] = sizeof(f[0]) * 100 + sizeof(*f) + blockId.y + z.z;
}
"#;
    let sim = run(text);
    let out = values(&sim, "out");
    for i in 0..32 {
        assert_eq!(out[2 * i..2 * i + 2], [(100 + 2 * i) as f64, (2 * i) as f64], "lane {i}");
    }
    assert_eq!(values(&sim, "s"), vec![1619.0; 32]);
    let k = |body: &str| format!("__global__ void k(float1* a, float* o) {{\n    {body}\n}}\n");
    assert!(error(&k("o[0] = a[0] + 5;")).2.contains("`+` does not apply to `float1`"));
    assert!(error(&k("o[0] = blockIdy.x;")).2.contains("unknown name `blockIdy`: did you mean `blockIdx`?"));
    assert_eq!(error(&k("float2 v = {1, 2, 3};")), (2, 23, String::from("`float2` has 2 components: too many values")));
}

#[test]
fn vector_misuse_is_an_error_at_its_place() {
    let k = |body: &str| format!("__global__ void k(float4* a, float* o) {{\n    {body}\n}}\n");
    let cases: &[(&str, u32, &str)] = &[
        ("float4 b = a[0] + a[1];", 16, "`+` does not apply to `float4`"),
        ("o[0] = a[0].q;", 12, "`float4` has the components `.x`, `.y`, `.z`, `.w`, not `.q`"),
        ("float2 v = make_float2(1, 2); o[0] = v.z;", 42, "`float2` has 2 components: no `.z`"),
        ("int x = 1; o[0] = x.y;", 23, "`.y` needs a vector"),
        ("if (a[0]) o[0] = 1;", 9, "cannot convert `float4` to `int`"),
        ("a[0] = 5;", 5, "cannot convert `int` to `float4`"),
        ("float2 v = make_float2(1);", 16, "`make_float2` takes 2 argument(s), found 1"),
        ("printf(\"%f\", a[0]);", 18, "`printf` cannot print a `float4`"),
        ("double2 d;", 5, "`double2` is not supported"),
        ("o[0] = __ballot_sync(0xffffffff, a[0]);", 38, "`__ballot_sync` takes a condition, not a `float4`"),
    ];
    for (body, col, words) in cases {
        let (line, c, message) = error(&k(body));
        assert_eq!((line, c), (2, *col), "{body}: {message}");
        assert!(message.contains(words), "{body}: {message}");
    }
    // A vector by value is one param per component (`v_x`...), in its registers in a row.
    let (k, diags) = parse_kernel("//@ param v_x = 1.5\n//@ param v_w = -4\n//@ buffer o: f32[32]\n__global__ void k(float4 v, float* o) { o[threadIdx.x] = v.x + v.w * 10; }\n");
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    assert!(["v_x", "v_y", "v_z", "v_w"].iter().all(|n| names.contains(n)), "{names:?}");
    let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
    sim.run_to_end();
    assert_eq!(values(&sim, "o")[..2], [-38.5, -38.5]);
}
