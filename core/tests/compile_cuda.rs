//! CUDA C as courses write it, pasted whole: includes, `#define`s, file-scope constants, host
//! code and several kernels; the launch's built-ins; `__shared__` arrays; automatic inputs for
//! parameters without header lines. Each kernel runs, and its memory is checked against values
//! computed here.

use warpscope_core::kernel::expr::Value;
use warpscope_core::kernel::{parse_kernel, Kernel};
use warpscope_core::machine::Space;
use warpscope_core::session::RunRequest;
use warpscope_core::sim::StopReason;
use warpscope_core::{launch, Diagnostic, LaunchOptions, Severity};

fn load(text: &str) -> (Kernel, Vec<Diagnostic>) {
    let (k, diags) = parse_kernel(text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    (k, diags)
}

/// Runs `text` to its end and returns each buffer's words by name.
fn run(text: &str) -> Vec<(String, Vec<u32>)> {
    let (k, _) = load(text);
    let mut sim = launch(&k, &LaunchOptions::default()).expect("launches");
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let m = &sim.state().machine.memory;
    m.buffers.iter().zip(&m.words).map(|(b, w)| (b.name.clone(), w.clone())).collect()
}

fn buffer<'a>(bufs: &'a [(String, Vec<u32>)], name: &str) -> &'a [u32] {
    &bufs.iter().find(|b| b.0 == name).unwrap_or_else(|| panic!("no buffer `{name}`")).1
}

const VECTOR_ADD: &str = r#"#include <cstdio>
#include <cuda_runtime.h>

#define N 32
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

const float SCALE = 2.0f;

// c = a + b, one thread per element
__global__ void vecAdd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = SCALE * (a[i] + b[i]);
    }
}

int main(void) {
    float h_a[N], h_b[N], h_c[N];
    for (int i = 0; i < N; i++) { h_a[i] = i; h_b[i] = 2 * i; }
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc(&d_a, N * sizeof(float)));
    vecAdd<<<1, N>>>(d_a, d_b, d_c, N);
    printf("c[1] = %f\n", h_c[1]);
    return 0;
}
"#;

#[test]
fn a_whole_course_file_runs_as_pasted() {
    let (k, diags) = load(VECTOR_ADD);
    let notes: Vec<&Diagnostic> = diags.iter().filter(|d| d.severity == Severity::Info).collect();
    assert!(notes.iter().any(|d| d.message.contains("host code skipped (`main`)") && d.span.line == 17), "{notes:#?}");
    // Every parameter got an input: three buffers of 32 elements (0, 1, 2, ...) and n = 32.
    assert!(k.buffers.iter().all(|b| b.auto));
    assert!(k.params.iter().any(|p| p.name == "n" && p.auto));
    let bufs = run(VECTOR_ADD);
    let c: Vec<f32> = buffer(&bufs, "c").iter().map(|w| f32::from_bits(*w)).collect();
    let want: Vec<f32> = (0..32).map(|i| 2.0 * (i as f32 + i as f32)).collect();
    assert_eq!(c, want);
}

#[test]
fn the_launch_gives_the_warp_its_threads() {
    // Block 8x8 of a 3x2 grid; warp 1 of block (2, 1) holds threads 32-63: rows y = 4..8.
    let text = "//@ launch grid=3x2 block=(8, 8) block_idx=2x1 warp=1\n\
        __global__ void where(int* tx, int* ty, int* bx, int* by, int* dims) {\n\
            int t = threadIdx.y * blockDim.x + threadIdx.x - 32;\n\
            tx[t] = threadIdx.x; ty[t] = threadIdx.y; bx[t] = blockIdx.x; by[t] = blockIdx.y;\n\
            dims[t] = gridDim.x * 1000 + gridDim.y * 100 + blockDim.x * 10 + blockDim.y + threadIdx.z + blockIdx.z;\n\
        }\n";
    let bufs = run(text);
    for t in 0..32u32 {
        assert_eq!(buffer(&bufs, "tx")[t as usize], t % 8);
        assert_eq!(buffer(&bufs, "ty")[t as usize], 4 + t / 8);
        assert_eq!(buffer(&bufs, "bx")[t as usize], 2);
        assert_eq!(buffer(&bufs, "by")[t as usize], 1);
        assert_eq!(buffer(&bufs, "dims")[t as usize], 3288);
    }
    // Buffers made for the launch hold one element per thread of the whole launch.
    assert_eq!(buffer(&bufs, "tx").len(), 6 * 64);
}

#[test]
fn a_partial_last_warp_has_fewer_lanes() {
    let text = "//@ launch block=40 warp=1\n__global__ void k(int* a) { a[threadIdx.x] = 7; }\n";
    let (k, _) = load(text);
    assert_eq!(k.lanes(), 8);
    let bufs = run(text);
    let a = buffer(&bufs, "a");
    assert!(a[..32].iter().all(|&w| w == a[0]) && a[0] != 7 || a[0] == 0, "threads 0-31 are another warp: untouched");
    assert!(a[32..40].iter().all(|&w| w == 7));
}

const REDUCE: &str = r#"
#define BLOCK 32
#define TILE 4
__global__ void reduce(const int* in, int* out) {
    __shared__ int sdata[BLOCK];
    __shared__ float grid[TILE][TILE + 1];
    __shared__ int count;
    unsigned tid = threadIdx.x;
    sdata[tid] = in[tid];
    grid[tid / 8][tid % 5] = 1.5f;
    if (tid == 0) count = 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    atomicAdd(&count, 1);
    __syncthreads();
    if (tid == 0) { out[0] = sdata[0]; out[1] = count; out[2] = (int)(grid[3][4] * 2.0f); }
}
"#;

#[test]
fn shared_arrays_live_in_shared_buffers() {
    let (k, _) = load(REDUCE);
    let shared: Vec<&str> = k.buffers.iter().filter(|b| b.shared).map(|b| b.name.as_str()).collect();
    assert_eq!(shared, ["sdata", "grid", "count"]);
    let listing = &k.compiled.as_ref().unwrap().listing;
    assert!(listing.contains("STS") && listing.contains("LDS") && listing.contains("ATOMS"), "{listing}");
    let (k2, _) = load(REDUCE);
    let mut sim = launch(&k2, &LaunchOptions::default()).unwrap();
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let m = &sim.state().machine.memory;
    assert!(m.buffers.iter().filter(|b| b.space == Space::Shared).count() == 3);
    let out = &m.buffer("out").unwrap().1;
    assert_eq!(out[0], (0..32).sum::<u32>());
    assert_eq!(out[1], 32);
    assert_eq!(out[2], 3, "grid[3][4] holds 1.5: tids 24 and 29 write it (tid / 8 == 3, tid % 5 == 4)");
}

#[test]
fn a_header_line_sizes_a_shared_array_and_gives_it_no_values() {
    // `extern __shared__` takes its size from the launch's third argument, which a header gives:
    // the header's buffer is the shared array (one buffer, in shared memory), not a second one.
    let kernel = "__global__ void rev(float* d) {\n    extern __shared__ float s[];\n    s[2 * threadIdx.x] = d[threadIdx.x];\n    \
        __syncthreads();\n    d[threadIdx.x] = s[2 * (31 - threadIdx.x)];\n}\n";
    let text = format!("//@ buffer d: f32[32] = i\n//@ buffer s: f32[64]\n{kernel}");
    let bufs = run(&text);
    assert_eq!(bufs.iter().filter(|b| b.0 == "s").map(|b| b.1.len()).collect::<Vec<_>>(), [64]);
    assert!(buffer(&bufs, "d").iter().enumerate().all(|(i, w)| f32::from_bits(*w) == (31 - i) as f32));
    let (k, _) = load(&text);
    assert!(k.buffers.iter().any(|b| b.name == "s" && b.shared));
    // Without it the array holds an element a thread, too few here: the fault names it.
    let (k, _) = load(&format!("//@ buffer d: f32[32] = i\n{kernel}"));
    let end = launch(&k, &LaunchOptions::default()).unwrap().run_to_end();
    assert!(matches!(&end, StopReason::Fault { message, .. } if message.contains("past the end of shared `s`")), "{end:?}");
    // Shared memory starts unwritten: values on its line are an error there.
    let (_, diags) = parse_kernel(&format!("//@ buffer s: f32[64] = i\n{kernel}"));
    let error = diags.iter().find(|d| d.is_error()).map(|d| (d.span.line, d.message.as_str()));
    assert!(error.is_some_and(|(line, m)| line == 1 && m.contains("gives its size, not its values")), "{diags:?}");
}

#[test]
fn math_functions_of_floats_are_their_float_overloads() {
    // PMPP's merge: `ceil((float)(m + n) / threads)`; n-body: `sqrt(dx * dx + ...)`; CUDA's
    // headers overload C's double functions for float arguments, so these run as `ceilf`, `sqrtf`...
    let text = "__global__ void k(float* a, int* c) {\n    int t = threadIdx.x;\n    float x = a[t];\n    \
        c[t] = (int)ceil(x / 4.0f) + (int)floor(x / 3.0f);\n    a[t] = sqrt(x) + fabs(x - 16.0f) + fma(x, 2.0f, 1.0f);\n}\n";
    let bufs = run(&format!("//@ buffer a: f32[32] = i\n//@ buffer c: i32[32]\n{text}"));
    for t in 0..32 {
        let x = t as f32;
        assert_eq!(buffer(&bufs, "c")[t] as i32, (x / 4.0).ceil() as i32 + (x / 3.0).floor() as i32, "lane {t}");
        let got = f32::from_bits(buffer(&bufs, "a")[t]);
        let want = x.sqrt() + (x - 16.0).abs() + x.mul_add(2.0, 1.0);
        assert!((got - want).abs() <= want.abs() * 1e-6, "lane {t}: {got} against {want}");
    }
}

#[test]
fn the_idioms_of_course_files_read_as_nvcc_reads_them() {
    // <climits>/<cfloat> and nvcc's own macros, named casts, a declaration of several constants,
    // `__launch_bounds__` before the return type, two increments in a `for`, pointer casts and
    // bit casts (the Programming Guide's atomicCAS loop for a float maximum).
    let text = r#"#include <climits>
#include <cfloat>
__constant__ float lo, hi = 2.5f;
__device__ float atomicMaxFloat(float* addr, float v) {
    int* p = (int*)addr;
    int old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
__global__ __launch_bounds__(256) void k(int* a, unsigned* u, float* f, float* m) {
    int t = threadIdx.x;
    int s = 0;
    for (int i = 0, j = 10; i < j; i++, j--) s += i;
    a[t] = s + static_cast<int>(f[t] * hi) + (INT_MAX - 2147483647) + (__CUDA_ARCH__ >= 700);
    u[t] = *((unsigned*)&a[t]) + UINT_MAX;
    f[t] = FLT_MAX / 2.0f + lo;
    atomicMaxFloat(m, (float)(t % 7) + 0.5f);
}
"#;
    let bufs = run(&format!("//@ buffer f: f32[32] = i\n//@ buffer m: f32[1]\n//@ buffer lo: f32[1] = [0]\n{text}"));
    for t in 0..32 {
        let a = (0..5).sum::<i32>() + (t as f32 * 2.5) as i32 + 1;
        assert_eq!(buffer(&bufs, "a")[t] as i32, a, "lane {t}");
        assert_eq!(buffer(&bufs, "u")[t], (a as u32).wrapping_add(u32::MAX), "lane {t}");
        assert_eq!(f32::from_bits(buffer(&bufs, "f")[t]), f32::MAX / 2.0, "lane {t}");
    }
    assert_eq!(f32::from_bits(buffer(&bufs, "m")[0]), 6.5);
}

#[test]
fn reference_parameters_give_the_callers_variable_its_value_back() {
    // A course's LCG keeps its state through references, one function's passed on to another;
    // a swap of two elements; a `const` reference bound to a value or a `__constant__`.
    let text = "__constant__ int bias[1] = {100};\n\
        __device__ unsigned next(unsigned int &state) { state = 1664525u * state + 1013904223u; return state; }\n\
        __device__ float uniform(unsigned int &state) { return (next(state) >> 8) * (1.0f / 16777216.0f); }\n\
        __device__ void swap(int& a, int& b) { int t = a; a = b; b = t; }\n\
        __device__ int plus(const int &x, const int &y) { return x + y; }\n\
        __device__ float halved(const float &x) { return x * 0.5f; }\n\
        __global__ void k(unsigned* s, float* u, int* v, int* w, int* big) {\n    int t = threadIdx.x;\n    \
        int b = 16777217 + 2 * t;\n    halved(b);\n    big[t] = b;\n    \
        unsigned state = t;\n    u[t] = uniform(state);\n    uniform(state);\n    s[t] = state;\n    \
        if (t % 2 == 0) swap(v[t], v[t + 1]);\n    w[t] = plus(t * 2, bias[0]);\n}\n";
    let header = "//@ buffer v: i32[33] = i\n";
    for &model in warpscope_core::model::ModelKind::ALL {
        let bufs = run(&format!("//@ model {}\n{header}{text}", model.name()));
        let lcg = |x: u32| x.wrapping_mul(1664525).wrapping_add(1013904223);
        for t in 0..32u32 {
            assert_eq!(buffer(&bufs, "s")[t as usize], lcg(lcg(t)), "lane {t} under {}", model.name());
            assert_eq!(f32::from_bits(buffer(&bufs, "u")[t as usize]), (lcg(t) >> 8) as f32 / 16777216.0, "lane {t}");
            assert_eq!(buffer(&bufs, "v")[t as usize], t ^ 1, "lane {t}: swapped with its neighbour");
            assert_eq!(buffer(&bufs, "w")[t as usize], 2 * t + 100, "lane {t}");
            // An `int` bound to a `const float&` is a converted copy: the variable keeps its value.
            assert_eq!(buffer(&bufs, "big")[t as usize], 16777217 + 2 * t, "lane {t}");
        }
    }
    // A kernel's parameter comes from the host: a reference is an error at it.
    let (_, d) = parse_kernel("__global__ void k(int &x) { x = 1; }\n");
    let e = d.iter().find(|d| d.is_error()).expect("an error");
    assert!(e.message.contains("a kernel's parameter cannot be a reference"), "{e:?}");
    assert_eq!((e.span.line, e.span.col), (1, 23));
}

#[test]
fn match_and_reduce_intrinsics_run_under_every_model() {
    let text = "__global__ void k(unsigned* m, int* s, int* lo, unsigned* o, unsigned* half) {\n    int t = threadIdx.x;\n    \
        m[t] = __match_any_sync(0xffffffff, t / 8);\n    s[t] = __reduce_add_sync(0xffffffff, t);\n    \
        lo[t] = __reduce_min_sync(0xffffffff, t - 10);\n    o[t] = __reduce_or_sync(0xffffffff, 1u << (t % 4));\n    \
        if (t < 16) half[t] = __reduce_max_sync(0x0000ffff, (unsigned)t);\n}\n";
    for &model in warpscope_core::model::ModelKind::ALL {
        let (k, _) = load(&format!("//@ model {}\n{text}", model.name()));
        let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited, "under {}", model.name());
        let mem = &sim.state().machine.memory;
        let words = |n: &str| mem.buffer(n).unwrap().1.to_vec();
        for t in 0..32u32 {
            assert_eq!(words("m")[t as usize], 0xffu32 << (t / 8 * 8), "lane {t} under {}", model.name());
            assert_eq!(words("s")[t as usize], 496, "lane {t} under {}", model.name());
            assert_eq!(words("lo")[t as usize] as i32, -10, "lane {t} under {}", model.name());
            assert_eq!(words("o")[t as usize], 15, "lane {t} under {}", model.name());
            if t < 16 {
                assert_eq!(words("half")[t as usize], 15, "lane {t} under {}", model.name());
            }
        }
    }
}

#[test]
fn float_division_is_ieees_and_fdividef_the_fast_one() {
    // nvcc's `/` is correctly rounded (9.0f / 5.0f is 1.8f; x * rcp(5) is 1.8000001f).
    let text = "//@ buffer a: f32[32] = i * 3 + 1\n//@ buffer b: f32[32] = i + 5\n//@ buffer q: f32[32]\n//@ buffer h: f32[32]\n\
        __global__ void k(const float* a, const float* b, float* q, float* h) {\n    int t = threadIdx.x;\n    \
        q[t] = a[t] / b[t];\n    h[t] = a[t] / 8.0f;\n}\n";
    let bufs = run(text);
    for t in 0..32 {
        let (a, b) = ((t * 3 + 1) as f32, (t + 5) as f32);
        assert_eq!(f32::from_bits(buffer(&bufs, "q")[t]), a / b, "lane {t}");
        assert_eq!(f32::from_bits(buffer(&bufs, "h")[t]), a / 8.0, "lane {t}");
    }
    let (k, _) = load(text);
    let listing = &k.compiled.as_ref().unwrap().listing;
    assert!(listing.contains("FDIV") && listing.contains("FMUL") && !listing.contains("MUFU"), "{listing}");
    let (k, _) = load("__global__ void k(float* a) { a[0] = __fdividef(a[1], a[2]); }\n");
    assert!(k.compiled.as_ref().unwrap().listing.contains("MUFU.RCP"));
}

#[test]
fn a_float_parameter_takes_a_float_param() {
    // NVIDIA's saxpy, as its blog writes it: `a` is a float scalar.
    let saxpy = "__global__ void saxpy(int n, float a, float *x, float *y) {\n    \
        int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = a * x[i] + y[i];\n}\n";
    let y = |text: &str, params: &[(&str, f64)]| {
        let mut req = RunRequest { text: text.to_string(), ..RunRequest::default() };
        req.params = params.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let r = req.resolve();
        assert!(r.ok(), "{:?}", r.all_diagnostics());
        let mut sim = launch(&r.kernel, &r.options).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited);
        let words = sim.state().machine.memory.buffer("y").unwrap().1.to_vec();
        words.into_iter().map(f32::from_bits).collect::<Vec<f32>>()
    };
    let header = "//@ buffer x: f32[32] = i\n//@ buffer y: f32[32] = 1\n";
    let got = y(&format!("{header}//@ param a = 2.5\n{saxpy}"), &[]);
    assert!(got.iter().enumerate().all(|(i, v)| *v == 2.5 * i as f32 + 1.0), "{got:?}");
    // The page's value (a JS number) wins; a float parameter takes one without a //@ param
    // line of a float, an integer parameter refuses a fraction, at its name.
    let got = y(&format!("{header}{saxpy}"), &[("a", -0.25), ("n", 4.0)]);
    assert!(got.iter().enumerate().all(|(i, v)| *v == if i < 4 { -0.25 * i as f32 + 1.0 } else { 1.0 }), "{got:?}");
    let got = y(&format!("//@ param a = 2\n{header}{saxpy}"), &[("a", 0.5)]);
    assert!(got.iter().enumerate().all(|(i, v)| *v == 0.5 * i as f32 + 1.0), "{got:?}");
    let r = RunRequest { text: format!("{header}{saxpy}"), params: [("n".to_string(), 4.75)].into(), ..RunRequest::default() }.resolve();
    let d = &r.all_diagnostics()[0];
    assert!(d.message.starts_with("param n = 4.75 is not an integer"), "{d:?}");
    assert_eq!(d.span.line, 3, "{d:?}");
    // So does launching with one directly.
    let (k, _) = parse_kernel(&format!("{header}{saxpy}"));
    let options = LaunchOptions { params: vec![("n".to_string(), Value::Float(4.75))], ..LaunchOptions::default() };
    let e = launch(&k, &options).err().expect("an error");
    assert!(e[0].message.contains("param `n` = 4.75: an integer param takes a whole number"), "{e:?}");
    // A float where a length needs an integer is an error at the use.
    let (k, _) = parse_kernel(&format!("//@ param a = 2.5\n//@ buffer x: f32[a]\n//@ buffer y: f32[32]\n{saxpy}"));
    let e = launch(&k, &LaunchOptions::default()).err().expect("an error");
    assert!(e.iter().any(|d| d.span.line == 2 && d.message.contains("must be an integer, not a float")), "{e:?}");
}

#[test]
fn several_kernels_run_the_first_or_the_one_named() {
    let two = "__global__ void first(int* a) { a[threadIdx.x] = 1; }\n__global__ void second(int* a) { a[threadIdx.x] = 2; }\n";
    assert_eq!(buffer(&run(two), "a")[5], 1);
    assert_eq!(buffer(&run(&format!("//@ kernel second\n{two}")), "a")[5], 2);
    let (_, diags) = parse_kernel(&format!("//@ kernel third\n{two}"));
    let e = diags.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(e.span.line, 1);
    assert!(e.message.contains("kernels: first, second"), "{}", e.message);
}

#[test]
fn division_math_and_bits_by_any_value() {
    let text = r#"
__global__ void k(int* q, int* r, float* f, unsigned* bits) {
    int t = threadIdx.x;
    int d = t - 16;
    q[t] = d != 0 ? 1000 / d : 0;
    r[t] = d != 0 ? -1000 % d : 0;
    f[t] = sqrtf((float)t) + fabsf(-1.5f) + fminf(2.0f, (float)t) + floorf(t * 0.5f);
    bits[t] = __popc(t) + (__clz(t) << 8) + (__ffs(t) << 16) + (min(t, 20) << 24);
}
"#;
    let bufs = run(text);
    for t in 0..32i32 {
        let d = t - 16;
        assert_eq!(buffer(&bufs, "q")[t as usize] as i32, if d != 0 { 1000 / d } else { 0 });
        assert_eq!(buffer(&bufs, "r")[t as usize] as i32, if d != 0 { -1000 % d } else { 0 });
        let want = (t as f32).sqrt() + 1.5 + 2f32.min(t as f32) + (t as f32 * 0.5).floor();
        assert_eq!(f32::from_bits(buffer(&bufs, "f")[t as usize]), want, "t = {t}");
        let u = t as u32;
        let ffs = if u == 0 { 0 } else { u.trailing_zeros() + 1 };
        assert_eq!(buffer(&bufs, "bits")[t as usize], u.count_ones() + (u.leading_zeros() << 8) + (ffs << 16) + ((t.min(20) as u32) << 24));
    }
}

#[test]
fn a_nan_compares_as_c_says() {
    // Odd lanes hold NaN: C's `!=` and a float's truth are true for it, every other comparison
    // false (the compiler writes `FSETP.NEU`/`DSETP.NEU` for them, the ordered forms for the rest).
    // A fraction is true too.
    let text = r#"
__global__ void k(int* out, int* wide) {
    int t = threadIdx.x;
    float v = sqrtf((float)(t % 2 == 0 ? t : -t));
    double d = v;
    out[t] = (v != v) + 2 * (v == v) + 4 * (v < 1.0f) + 8 * (v >= 1.0f) + 16 * (v ? 1 : 0) + 32 * (v * 0.25f ? 1 : 0);
    wide[t] = (d != d) + 2 * (d == d) + 4 * (d < 1.0) + 8 * (d >= 1.0) + 16 * (d ? 1 : 0) + 32 * (d * 0.25 ? 1 : 0);
}
"#;
    let bufs = run(text);
    for t in 0..32u32 {
        let v = if t % 2 == 0 { (t as f32).sqrt() } else { f32::NAN };
        #[allow(clippy::eq_op)]
        let want = (v != v) as u32 + 2 * (v == v) as u32 + 4 * (v < 1.0) as u32 + 8 * (v >= 1.0) as u32 + 48 * (v != 0.0) as u32;
        assert_eq!(buffer(&bufs, "out")[t as usize], want, "t = {t}");
        assert_eq!(buffer(&bufs, "wide")[t as usize], want, "t = {t} (double)");
    }
}

#[test]
fn refusals_say_what_to_change() {
    let cases: &[(&str, &str)] = &[
        ("template <int B> __global__ void k(int* a) {}\n", "`k` needs its template argument `B`"),
        // `__constant__` and `__device__` variables: read-only, sized and initialised by constants.
        ("__constant__ float c[4];\n__global__ void k(float* a) { c[1] = a[0]; }\n", "`c` is `__constant__`: a kernel only reads it"),
        ("__constant__ int c[2];\n__global__ void k(int* a) { c[0]++; }\n", "`c` is `__constant__`"),
        (
            "__constant__ int c[2] = {1, 2, 3};\n__global__ void k(int* a) { a[0] = c[0]; }\n",
            "`c` holds 2 element(s) but the initialiser gives 3",
        ),
        ("__device__ int c[2] = {1, n};\n__global__ void k(int* a) { a[0] = c[0]; }\n", "initial values are constants"),
        ("__constant__ int c[];\n__global__ void k(int* a) { a[0] = c[0]; }\n", "give its size"),
        ("__global__ void k(int* a) { __constant__ int c[2]; a[0] = c[0]; }\n", "declared at file scope"),
        ("__global__ void k(int* a) { a[0] = __shfl_sync(0xffffffff, 1, 0, 3); }\n", "power of two"),
        ("__global__ void k(float* a) { atomicMax(&a[0], 1.0f); }\n", "`int` or `unsigned`"),
        // A misspelt built-in is an unknown name with the likely one, not a struct.
        ("__global__ void k(int* a) { a[0] = gridDm.x; }\n", "unknown name `gridDm`: did you mean `gridDim`?"),
        ("__global__ void k(int* a) { a[0] = threadIdy.x; }\n", "did you mean `threadIdx`?"),
        ("__global__ void k(int* a) { a[0] = point.x; }\n", "unknown variable `point`"),
        // C's double functions on doubles: their float versions are built in.
        ("__global__ void k(int* a) { a[0] = (int)ceil(a[1] / 16.0); }\n", "`ceil` of a `double` is C's double-precision function"),
        ("__global__ void k(double* a) { a[0] = sqrt(a[1]); }\n", "use `sqrtf`"),
        ("__global__ void k(float* a) { a[0] = fma(a[1], 2.0f); }\n", "`fma` takes 3 argument(s)"),
    ];
    for (text, want) in cases {
        let (_, diags) = parse_kernel(text);
        let e = diags.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("no error for {text}"));
        assert!(e.message.contains(want), "{text}: `{}` does not say `{want}`", e.message);
    }
}

#[test]
fn long_long_and_double_hold_64_bits_in_register_pairs() {
    let text = r#"
__global__ void wide(long long* s, unsigned long long* u, double* d, int* c, float* f) {
    int t = threadIdx.x;
    long long a = (long long)(t - 16) * 3000000000LL;   // crosses 2^32 both ways
    long long b = 0x100000000LL + t;
    s[t] = a + b - (a >> 3) * 7 + (b << 29) - a / (t + 1) + a % 1000000007LL + s[31 - t];
    unsigned long long x = 0xffffffffffffffffull - (unsigned long long)t * 123456789123ull;
    u[t] = x / 3 + (x >> 60) + (x ^ (x << 17)) % 1000003u;
    double y = t * 0.1 - 1.5;
    d[t] = y * y / 3.0 + (double)a * 1e-9 - (double)(float)y;
    c[t] = (a < b) + 2 * (a <= -a) + 4 * (x > (unsigned long long)b) + 8 * (y >= 0.5) + 16 * (a == a) + 32 * (b != b);
    f[t] = (float)(y * 2.0) + (float)(long long)y;
}
"#;
    let (k, _) = load(text);
    let listing = &k.compiled.as_ref().unwrap().listing;
    for op in [
        "IADD3",
        "IADD3.X",
        "IMAD.WIDE.U32",
        "SHF.R.S64",
        "SHF.L.U64.HI",
        "IDIV.S64",
        "IREM.U64",
        "DMUL",
        "DDIV",
        "DSETP",
        "F2F.F32.F64",
        "I2F.F64.S64",
        "LD.E.64",
        "ST.E.64",
    ] {
        assert!(listing.contains(op), "no {op} in\n{listing}");
    }
    for model in warpscope_core::model::ModelKind::ALL {
        let (k, _) = warpscope_core::kernel::parse_kernel_with(
            text,
            &warpscope_core::kernel::SourceOptions { target: Some(model.compile_target()), ..Default::default() },
        );
        let opts = LaunchOptions { model: Some(*model), ..LaunchOptions::default() };
        let mut sim = launch(&k, &opts).expect("launches");
        assert_eq!(sim.run_to_end(), StopReason::Exited, "{model:?}");
        let m = &sim.state().machine.memory;
        let pairs = |name: &str| -> Vec<u64> { m.buffer(name).unwrap().1.chunks(2).map(|w| (w[1] as u64) << 32 | w[0] as u64).collect() };
        let (sv, uv, dv) = (pairs("s"), pairs("u"), pairs("d"));
        for t in 0..32i64 {
            let a = (t - 16) * 3_000_000_000;
            let b = 0x1_0000_0000 + t;
            let want_s = a
                .wrapping_add(b)
                .wrapping_sub((a >> 3) * 7)
                .wrapping_add(b << 29)
                .wrapping_sub(a / (t + 1))
                .wrapping_add(a % 1_000_000_007)
                + (31 - t);
            assert_eq!(sv[t as usize] as i64, want_s, "s[{t}] under {model:?}");
            let x = u64::MAX - (t as u64) * 123_456_789_123;
            assert_eq!(uv[t as usize], x / 3 + (x >> 60) + (x ^ (x << 17)) % 1_000_003, "u[{t}]");
            let y = (t as f64).mul_add(0.1, -1.5);
            // nvcc contracts the product the add reads (`a * 1e-9 + q` is one DFMA).
            let want_d = (a as f64).mul_add(1e-9, y * y / 3.0) - (y as f32) as f64;
            assert_eq!(f64::from_bits(dv[t as usize]), want_d, "d[{t}]");
            let want_c = (a < b) as i32 + 2 * (a <= -a) as i32 + 4 * (x > b as u64) as i32 + 8 * (y >= 0.5) as i32 + 16;
            assert_eq!(m.buffer("c").unwrap().1[t as usize] as i32, want_c, "c[{t}]");
            let want_f = (y * 2.0) as f32 + (y as i64) as f32;
            assert_eq!(f32::from_bits(m.buffer("f").unwrap().1[t as usize]), want_f, "f[{t}]");
        }
    }
}

/// Two bugs the PTX differential test found (core/tests/differential/mod.rs, bugs 1 and 7): a
/// float literal as an arm of `?:` selected with `SEL`, and a comparison as the first arm of a
/// branching `?:`, which made the whole expression a `bool` and cut the other arm to 0 or 1.
#[test]
fn conditional_expressions_keep_their_arms() {
    let float_arm = "//@ buffer a: f32[32] = i\n//@ buffer out: f32[32]\n__global__ void k(float* out, const float* a) {\n    float x = a[threadIdx.x];\n    out[threadIdx.x] = x < 3.0f ? 1.5f : x;\n}\n";
    let got = run(float_arm);
    let want: Vec<u32> = (0..32).map(|i| if i < 3 { 1.5f32 } else { i as f32 }.to_bits()).collect();
    assert_eq!(buffer(&got, "out"), &want[..]);
    let bool_arm = "//@ buffer out: i32[32]\n__global__ void k(int* out) {\n    int i = threadIdx.x;\n    unsigned u = 100u + i;\n    out[i] = (i > 100) ? (i > 200) : (int)(u / 3u);\n}\n";
    let got = run(bool_arm);
    let want: Vec<u32> = (0..32).map(|i| (100 + i) / 3).collect();
    assert_eq!(buffer(&got, "out"), &want[..]);
}

/// A kernel whose parameters and shared array are named as the header's expressions name the
/// lane, the element and the width.
const RESERVED_NAMES: &str = r#"__global__ void heat(const float* t, float* out, int i, int W) {
    __shared__ float s[32];
    int k = threadIdx.x;
    s[k] = t[k] * 2.0f;
    __syncthreads();
    if (k < i) out[k] = s[31 - k] + W;
}
__global__ void named(int* t) {
    __shared__ int i[32];
    i[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    t[threadIdx.x] = i[31 - threadIdx.x];
}
"#;

#[test]
fn c_inputs_named_t_i_or_w_run_as_renamed_ones_do() {
    // The reference: the same kernels with every such name spelt otherwise.
    let renamed = RESERVED_NAMES
        .replace("const float* t", "const float* temp")
        .replace("= t[k]", "= temp[k]")
        .replace("int i, int W", "int lim, int width")
        .replace("k < i", "k < lim")
        .replace("+ W;", "+ width;")
        .replace("__shared__ int i[32]", "__shared__ int sh[32]")
        .replace("i[threadIdx.x] =", "sh[threadIdx.x] =")
        .replace("= i[31", "= sh[31")
        .replace("int* t)", "int* res)")
        .replace("t[threadIdx.x] = sh", "res[threadIdx.x] = sh");
    assert!(!renamed.contains(" t[") && !renamed.contains("int i") && !renamed.contains("int W"), "{renamed}");
    let words = |text: &str| run(text).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
    let heat = words(RESERVED_NAMES);
    assert_eq!(heat, words(&renamed));
    // Buffer `t` holds its index (auto), `i` and `W` are the thread count, 32: every lane wrote.
    let out: Vec<f32> = heat[1].iter().map(|w| f32::from_bits(*w)).collect();
    assert_eq!(out[..4], [62.0 + 32.0, 60.0 + 32.0, 58.0 + 32.0, 56.0 + 32.0]);
    let second = |text: &str| words(&format!("//@ kernel named\n{text}"));
    let named = second(RESERVED_NAMES);
    assert_eq!(named, second(&renamed));
    assert_eq!(named[0][..3], [93, 90, 87]);
    // Their `//@` lines, as the Kernel inputs panel writes them, declare them and are read.
    let set = run(&format!("//@ param i = 2\n//@ buffer t: f32[32] = 100 + i\n{RESERVED_NAMES}"));
    let out: Vec<f32> = buffer(&set, "out").iter().map(|w| f32::from_bits(*w)).collect();
    assert_eq!(out[..3], [262.0 + 32.0, 260.0 + 32.0, 2.0]);
}

#[test]
fn the_host_launch_is_named_as_not_read_unless_the_header_gives_one() {
    let text = "__global__ void k(int* a) { a[threadIdx.x] = 1; }\nint main() {\n    dim3 b(16, 16);\n    k<<<4, b>>>(0);\n}\n";
    let (_, diags) = load(text);
    let note = diags.iter().find(|d| d.message.contains("is not read")).unwrap_or_else(|| panic!("{diags:#?}"));
    assert_eq!((note.span.line, note.span.col, note.span.len), (4, 6, 10), "{note:?}");
    assert!(note.message.contains("`<<<4, b>>>`") && note.message.contains("one block of 32 threads"), "{}", note.message);
    // Another kernel's launch whose name ends in this one's is not it.
    let (_, diags) = load(&text.replace("k<<<4, b>>>(0);", "mk<<<4, b>>>(0);"));
    assert!(diags.iter().all(|d| !d.message.contains("is not read")), "{diags:#?}");
    let (_, diags) = load(&format!("//@ launch grid=4 block=16x16\n{text}"));
    assert!(diags.iter().all(|d| !d.message.contains("is not read")), "{diags:#?}");
}

/// Lanes read the shared word the thread `63 - tid` wrote: in a block of 64, warp 0's lanes
/// read words warp 1 writes.
const OTHER_WARPS: &str = r#"//@ launch block=64
__global__ void mirror(int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
"#;

#[test]
fn a_shared_read_no_lane_of_the_warp_wrote_is_a_warning_at_the_array() {
    let warnings_of = |text: &str| {
        let (k, _) = load(text);
        let mut sim = launch(&k, &LaunchOptions::default()).expect("launches");
        assert_eq!(sim.run_to_end(), StopReason::Exited);
        warpscope_core::session::run_warnings(&k, &sim.state().machine)
    };
    let w = warnings_of(OTHER_WARPS);
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0].severity, Severity::Warning);
    assert_eq!(w[0].span.line, 3, "at the __shared__ declaration: {w:?}");
    assert!(w[0].message.starts_with("lane 0 read shared `s[63]` before any lane of this warp wrote it"), "{}", w[0].message);
    // What the warp reads of its own writes is no warning; nor is a global input.
    assert!(warnings_of(&OTHER_WARPS.replace("s[63 - threadIdx.x]", "s[31 - threadIdx.x]")).is_empty());
    assert!(warnings_of(&OTHER_WARPS.replace("s[63 - threadIdx.x]", "out[63 - threadIdx.x]")).is_empty());
}

const CONSTANT_MASK: &str = r#"#define MASK_WIDTH 5
// The mask is the same for every thread: constant memory, set once by the host.
__constant__ float M[MASK_WIDTH] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
__device__ int hits;
__device__ unsigned int hist[4];

__global__ void convolution_1D(const float *N, float *P, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = 0;
    int start = i - (MASK_WIDTH / 2);
    for (int j = 0; j < MASK_WIDTH; j++) {
        if (start + j >= 0 && start + j < width) {
            Pvalue += N[start + j] * M[j];
        }
    }
    P[i] = Pvalue;
    atomicAdd(&hits, 1);
    atomicAdd(&hist[i % 4], 1u);
}

int main() {
    float h_M[MASK_WIDTH] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
    cudaMemcpyToSymbol(M, h_M, MASK_WIDTH * sizeof(float));
    return 0;
}
"#;

#[test]
fn constant_and_device_variables_are_buffers_their_declarations_fill() {
    let bufs = run(CONSTANT_MASK);
    let mask = [0.1f32, 0.2, 0.4, 0.2, 0.1];
    assert_eq!(buffer(&bufs, "M"), mask.map(f32::to_bits), "the initialiser's values, as floats");
    let n: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let p: Vec<f32> = buffer(&bufs, "P").iter().map(|w| f32::from_bits(*w)).collect();
    for (i, got) in p.iter().enumerate() {
        let want: f32 = (0..5)
            .map(|j| i as i32 - 2 + j)
            .filter(|k| (0..32).contains(k))
            .map(|k| n[k as usize] * mask[(k - i as i32 + 2) as usize])
            .sum();
        assert!((got - want).abs() <= 1e-5 * want.abs().max(1.0), "P[{i}] = {got}, want {want}");
    }
    // `__device__` variables start at zero, as C's static storage does, and every lane counted.
    assert_eq!(buffer(&bufs, "hits"), [32]);
    assert_eq!(buffer(&bufs, "hist"), [8, 8, 8, 8]);
}

#[test]
fn a_constant_without_an_initialiser_holds_its_index_until_the_header_gives_values() {
    let text = "__constant__ int c[4];\n__global__ void k(int* a) { a[threadIdx.x] = c[threadIdx.x % 4]; }\n";
    let (k, _) = load(text);
    let inputs = warpscope_core::kernel::inputs::inputs(&k);
    let c = inputs.buffers.iter().find(|b| b.name == "c").expect("a row for `c`");
    assert_eq!((c.auto, c.len.as_str(), c.init.as_str(), c.declared.as_deref()), (true, "4", "i", Some("__constant__")));
    assert_eq!(&buffer(&run(text), "a")[..8], [0, 1, 2, 3, 0, 1, 2, 3]);
    // What the Kernel inputs panel writes when its values are edited: the header's buffer.
    let edited = format!("//@ buffer c: i32[4] = [7, 8, 9, 10]\n{text}");
    assert_eq!(&buffer(&run(&edited), "a")[..5], [7, 8, 9, 10, 7]);
    let (_, diags) = parse_kernel(&format!("//@ buffer c: f32[4]\n{text}"));
    assert!(
        diags.iter().any(|d| d.is_error() && d.message.contains("`c` is `__constant__ int` but `//@ buffer c` holds f32")),
        "{diags:#?}"
    );
}

#[test]
fn assert_trap_ldg_mul24_and_sizeof_run_as_cuda_runs_them() {
    let text = r#"#include <assert.h>
__global__ void k(int* out, int n) {
    __shared__ float tile[4][8];
    int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    assert(i < n % 40);
    tile[0][0] = 1;
    out[i] = __ldg(&out[i]) * 100 + sizeof(int) + sizeof(tile) + sizeof out[0] + sizeof(double*)
        + __umul24(0x1000001u, 3) + __mul24(-2, 0xffffff);
    if (n == 79 && i < 7) __trap();
}
"#;
    // 4 + 128 + 4 + 8, the low 24 bits of 0x1000001 times 3, and -2 times -1 (0xffffff read as 24 signed bits).
    let want: Vec<u32> = (0..32).map(|i| i * 100 + 144 + 3 + 2).collect();
    assert_eq!(buffer(&run(&format!("//@ param n = 39\n{text}")), "out"), want);
    let stop_and_output = |n: u32| {
        let (k, _) = load(&format!("//@ param n = {n}\n{text}"));
        let mut sim = launch(&k, &LaunchOptions::default()).expect("launches");
        let stop = sim.run_to_end();
        (stop, warpscope_core::printf::lines(&sim.program().formats, &sim.state().machine.output))
    };
    // Lanes 30 and 31 fail the assertion (line 6 of the file, under its header line): each prints
    // CUDA's line, then the kernel traps.
    let (stop, out) = stop_and_output(30);
    let says = "lanes 30-31 failed `assert(i < n % 40)` at line 6: each printed CUDA's line (in Output)";
    assert!(matches!(&stop, StopReason::Fault { message, .. } if message.contains(says)), "{stop:?}");
    let texts: Vec<&str> = out.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "line 6: block: [0,0,0], thread: [30,0,0] Assertion `i < n % 40` failed.\n",
            "line 6: block: [0,0,0], thread: [31,0,0] Assertion `i < n % 40` failed.\n"
        ]
    );
    let (stop, out) = stop_and_output(79);
    assert!(
        out.is_empty() && matches!(&stop, StopReason::Fault { message, .. } if message.contains("lanes 0-6 ran `BPT.TRAP`")),
        "{stop:?}"
    );
}

/// Harris's reduction, kernel 6: template kernel and device function, launched by the host.
const REDUCE6: &str = include_str!("fixtures/c/reduce6.cu");

#[test]
fn template_kernels_and_functions_run_as_the_instance_named() {
    // A block of 64 (the unrolled warp reads `sdata[tid + 16]`, past 32 elements): its first warp
    // adds two elements a thread a trip, 0 + 1 + ... + 127, then reads the zeros of the warp
    // that does not run.
    let inputs = "//@ launch block=64\n//@ param n = 128\n//@ buffer g_idata: i32[128] = i\n//@ buffer g_odata: i32[1]\n";
    let without_host = REDUCE6.split("int main").next().unwrap();
    let named = format!("//@ kernel reduce6<32>\n{inputs}{without_host}");
    assert_eq!(buffer(&run(&named), "g_odata"), [8128]);
    // The host's launch (`reduce6<BLOCK>`, a `#define`) names the instance when the header does not.
    let host = format!("{inputs}{REDUCE6}");
    assert_eq!(buffer(&run(&host), "g_odata"), [8128]);
    let (k, diags) = load(&host);
    let c = k.compiled.as_ref().unwrap();
    assert_eq!(c.kernels, ["reduce6"], "the picker lists the template");
    assert!(c.listing.contains("CAL `(.L_fn_warpReduce_32_)"), "{}", c.listing);
    assert!(!diags.iter().any(|d| d.message.contains("kernels: running")), "{diags:#?}");

    // Type parameters and defaults; two instances of one template in one kernel.
    let text = r#"template <typename T>
__device__ T twice(T v) { return v + v; }
template <int SCALE = 3, typename T = float>
__global__ void k(T* out, int* iout) {
    int i = threadIdx.x;
    out[i] = twice<T>((T)i) * SCALE + twice<float>(0.25f);
    iout[i] = twice<int>(i);
}
"#;
    let (_, diags) = load(text);
    assert!(diags.iter().any(|d| d.message.contains("running `k<3, float>`, with its defaults")), "{diags:#?}");
    let bufs = run(text);
    assert_eq!(buffer(&bufs, "out")[..3], [0.5f32, 6.5, 12.5].map(f32::to_bits));
    assert_eq!(buffer(&bufs, "iout")[..3], [0, 2, 4]);
    let bufs = run(&format!("//@ kernel k<2, int>\n{}", text.replace("twice<float>(0.25f)", "0")));
    assert_eq!(buffer(&bufs, "out")[..3], [0, 4, 8]);
}

#[test]
fn a_call_without_template_arguments_deduces_them_from_its_arguments() {
    let text = r#"template <typename T>
__device__ T warpReduceSum(T val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}
template <typename T>
__device__ void store(T* out, int i, T v) { out[i] = v; }

__global__ void sums(const float* in, float* out, int* iout) {
    int i = threadIdx.x;
    float s = warpReduceSum(in[i]);
    int c = warpReduceSum(i);
    if (i == 0) { store(out, 0, s); store(iout, 0, c); }
}
"#;
    // nvcc's PTX of this file leaves the same (checked by hand: 496 and 496).
    let bufs = run(text);
    assert_eq!(buffer(&bufs, "out")[0], 496f32.to_bits());
    assert_eq!(buffer(&bufs, "iout")[0], 496);
    let (k, _) = load(text);
    let listing = &k.compiled.as_ref().unwrap().listing;
    for label in ["warpReduceSum_float_", "warpReduceSum_int_", "store_float_", "store_int_"] {
        assert!(listing.contains(&format!(".L_fn_{label}:")), "no instance {label} in\n{listing}");
    }
}

#[test]
fn template_mistakes_say_what_to_write() {
    let cases: &[(&str, &str)] = &[
        (
            REDUCE6.split("int main").next().unwrap(),
            "`reduce6` needs its template argument `blockSize`, which has no default: name it with `//@ kernel reduce6<...>`",
        ),
        (
            "template <int N> __device__ int f(int x) { return x * N; }\n__global__ void k(int* a) { a[0] = f<float>(1); }\n",
            "`f` takes 1 template argument(s): a constant",
        ),
        (
            "template <int N> __device__ int f(int x) { return x * N; }\n__global__ void k(int* a, int n) { a[0] = f<n>(1); }\n",
            "`f`'s template argument is a constant here",
        ),
        ("//@ kernel k<x y>\ntemplate <int N> __global__ void k(int* a) { a[0] = N; }\n", "each template argument is a number or a type"),
        (
            "template <typename T> __device__ T add(T a, T b) { return a + b; }\n__global__ void k(float* a) { a[0] = add(1, 2.5f); }\n",
            "`add`'s `T` is `int` by one argument and `float` by another",
        ),
        (
            "template <int N, typename T> __device__ T scale(T a) { return a * N; }\n__global__ void k(float* a) { a[0] = scale(a[1]); }\n",
            "`scale`'s template argument `N` does not follow from the call's arguments",
        ),
    ];
    for (text, want) in cases {
        let (_, diags) = parse_kernel(text);
        let e = diags.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("no error for {text}"));
        assert!(e.message.contains(want), "{text}: `{}` does not say `{want}`", e.message);
    }
}
