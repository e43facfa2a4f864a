//! Whole programs run as a GPU machine runs them, against values computed here independently.

use alloc::format;
use alloc::string::String;

use super::libc::Rand;
use super::{run_program, ProgramEnd, ProgramRun};
use crate::launch::LaunchOptions;

fn run(src: &str) -> ProgramRun {
    match run_program(src, &LaunchOptions::default()) {
        Ok(r) => r,
        Err(d) => panic!("{d:?}"),
    }
}

const SQUARES: &str = r#"
#include <stdio.h>
#include <stdlib.h>
__global__ void square(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i] + 1;
}
int main() {
    int n = 1000;
    int *h = (int *)malloc(n * sizeof(int));
    srand(7);
    for (int i = 0; i < n; i++) h[i] = rand() % 1000;
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    dim3 block(128);
    dim3 grid((n + block.x - 1) / block.x);
    square<<<grid, block>>>(d_in, d_out, n);
    cudaMemcpy(h, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    int last = 0;
    cudaMemcpy(&last, d_out + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum %lld last %d\n", sum, last);
    return sum % 7;
}
"#;

#[test]
fn a_program_runs_its_launch_on_the_device_and_prints_what_main_prints() {
    let r = run(SQUARES);
    let mut g = Rand::seeded(7);
    let values: alloc::vec::Vec<i64> = (0..1000).map(|_| (g.rand() % 1000) as i64).collect();
    let sum: i64 = values.iter().map(|v| v * v + 1).sum();
    let last = values[999] * values[999] + 1;
    assert_eq!(r.stdout, format!("sum {sum} last {last}\n"));
    assert_eq!(r.end, ProgramEnd::Exited((sum % 7) as i32), "`return` from main is the exit status");
    assert_eq!(r.launches.len(), 1);
    assert_eq!((r.launches[0].grid, r.launches[0].block), ([8, 1, 1], [128, 1, 1]));
}

#[test]
fn device_printf_waits_for_a_synchronisation_and_is_lost_without_one() {
    let src = |sync: &str| {
        format!(
            "#include <stdio.h>\n__global__ void k() {{ printf(\"gpu %d\\n\", threadIdx.x); }}\nint main() {{\n printf(\"a\\n\");\n k<<<1, 2>>>();\n printf(\"b\\n\");\n {sync}\n printf(\"c\\n\");\n return 0;\n}}\n"
        )
    };
    let synced = run(&src("cudaDeviceSynchronize();"));
    assert_eq!(synced.stdout, "a\nb\ngpu 0\ngpu 1\nc\n");
    let lost = run(&src(""));
    assert_eq!(lost.stdout, "a\nb\nc\n");
    assert!(lost.notes.iter().any(|n| n.message.contains("never shown")), "{:?}", lost.notes);
}

#[test]
fn mistakes_a_gpu_hides_are_named_at_their_lines() {
    // The pointers of a copy swapped: an error code, and why at the line.
    let swapped =
        "int main() {\n int *d; int h[1];\n cudaMalloc(&d, 4);\n int e = cudaMemcpy(d, d, 4, cudaMemcpyDeviceToHost);\n return e;\n}\n";
    assert_eq!(run(swapped).end, ProgramEnd::Exited(1), "the destination is device memory, not the host memory the kind says");
    let swapped = "#include <stdlib.h>\nint main() {\n int *d;\n int *h = (int *)malloc(4);\n cudaMalloc(&d, 4);\n int e = cudaMemcpy(d, h, 4, cudaMemcpyDeviceToHost);\n return e;\n}\n";
    let r = run(swapped);
    assert_eq!(r.end, ProgramEnd::Exited(1), "cudaErrorInvalidValue");
    assert!(r.notes.iter().any(|n| n.span.line == 6 && n.message.contains("swapped")), "{:?}", r.notes);
    // A device pointer dereferenced on the host: the host faults at that line.
    let deref = "int main() {\n int *d;\n cudaMalloc(&d, 4);\n int x = d[0];\n return x;\n}\n";
    match run(deref).end {
        ProgramEnd::Failed { line, message } => assert!(line == 4 && message.contains("segmentation fault"), "{line}: {message}"),
        e => panic!("{e:?}"),
    }
    // A block too large does not run; cudaGetLastError says so.
    let big = "__global__ void k(int *a) { a[threadIdx.x] = 1; }\nint main() {\n int *d;\n cudaMalloc(&d, 8192);\n k<<<1, 2048>>>(d);\n return cudaGetLastError();\n}\n";
    let r = run(big);
    assert_eq!(r.end, ProgramEnd::Exited(9), "cudaErrorInvalidConfiguration");
    assert!(r.launches.is_empty());
    // A loop that never ends stops at the step limit, at its line.
    let endless = "int main() {\n int i = 0;\n while (i >= 0) { i = i * 1; }\n return 0;\n}\n";
    let opts = LaunchOptions { step_limit: 10_000, ..LaunchOptions::default() };
    match run_program(endless, &opts).map(|r| r.end) {
        Ok(ProgramEnd::Failed { line, message }) => assert!(line == 3 && message.contains("step limit"), "{line}: {message}"),
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_file_without_main_is_told_so() {
    let errs = run_program("__global__ void k(int *a) { a[0] = 1; }\n", &LaunchOptions::default()).unwrap_err();
    assert!(errs.iter().any(|d| d.message.contains("no `main`")), "{errs:?}");
    let _ = String::new();
}

#[test]
fn cpp_host_code_runs_vectors_new_and_cout_as_a_linux_build_prints_them() {
    let src = r#"
#include <iostream>
#include <vector>
using namespace std;
int main() {
    std::vector<int> v;
    for (int i = 0; i < 5; i++) v.push_back(i * i);
    std::vector<float> w(3, 0.5f);
    w.resize(4);
    vector<int> copy = v;
    copy[0] = 100;
    float *p = new float[2]();
    p[1] = 1e7f;
    std::cout << "sizes " << v.size() << " " << w.size() << " " << copy.size() << std::endl;
    std::cout << v[0] << "," << v.back() << " " << copy[0] << " " << w[0] << " " << w[3] << " " << p[0] << " " << p[1] << endl;
    std::cout << 'x' << " " << true << " " << (v.empty() ? "empty" : "full") << " 100%" << std::endl;
    std::cerr << "to stderr " << -3 << std::endl;
    delete[] p;
    return v.size();
}
"#;
    let r = run(src);
    assert_eq!(r.stdout, "sizes 5 4 5\n0,16 100 0.5 0 0 1e+07\nx 1 full 100%\n");
    assert_eq!(r.stderr, "to stderr -3\n");
    assert_eq!(r.end, ProgramEnd::Exited(5));
}

#[test]
fn host_arrays_strings_symbols_and_managed_memory() {
    let src = r#"
#include <stdio.h>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { fprintf(stderr, "%s at line %d\n", cudaGetErrorString(e), __LINE__); return 1; } } while (0)
__device__ int d_total;
__constant__ int c_scale[2];
__global__ void add(int *data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { data[i] *= c_scale[1]; atomicAdd(&d_total, data[i]); }
}
int main() {
    int counts[3][2] = {{1, 2}, {3}};
    int scale[2] = {7, 3};
    int *m;
    CHECK(cudaMallocManaged(&m, 6 * sizeof(int)));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++) m[r * 2 + c] = counts[r][c];
    CHECK(cudaMemcpyToSymbol(c_scale, scale, sizeof(scale)));
    add<<<2, 4>>>(m, 6);
    CHECK(cudaDeviceSynchronize());
    int total = -1;
    CHECK(cudaMemcpyFromSymbol(&total, d_total, sizeof(int)));
    printf("%s: m = %d %d %d %d, total %d\n", total == 18 ? "right" : "wrong", m[0], m[1], m[2], m[3], total);
    puts(cudaGetErrorName(cudaGetLastError()));
    CHECK(cudaMemcpy(m, scale, 4, cudaMemcpyHostToDevice));
    CHECK(cudaFree(scale));
    return 0;
}
"#;
    let r = run(src);
    assert_eq!(r.stdout, "right: m = 3 6 9 0, total 18\ncudaSuccess\n");
    assert_eq!(r.stderr, "invalid argument at line 25\n", "a host array is not `cudaFree`'s (managed memory copies either way)");
    assert_eq!(r.end, ProgramEnd::Exited(1));
}

#[test]
fn limits_are_stated_at_their_lines() {
    let cases = [
        ("#include <iostream>\nint main() {\n std::cout << std::setw(4) << 1;\n}\n", 3, "iostream formatting"),
        ("#include <vector>\nint f(std::vector<int> v) { return 0; }\nint main() { return 0; }\n", 2, "by reference"),
        ("#include <vector>\nint main() {\n std::vector<int> v;\n v.insert(1);\n}\n", 4, "iterators"),
        ("int main() {\n FILE *f = fopen(\"x\", \"w\");\n}\n", 2, "files are not supported"),
        ("int main() {\n cudaStream_t s;\n}\n", 2, "streams are not supported"),
    ];
    for (src, line, says) in cases {
        let errs = run_program(src, &LaunchOptions::default()).unwrap_err();
        assert!(errs.iter().any(|d| d.span.line == line && d.message.contains(says)), "{src}: {errs:?}");
    }
    let timed = "int main() {\n cudaEvent_t a, b;\n cudaEventCreate(&a);\n cudaEventCreate(&b);\n cudaEventRecord(a);\n cudaEventRecord(b, 0);\n cudaEventSynchronize(b);\n float ms = -1;\n cudaEventElapsedTime(&ms, a, b);\n return ms == 0.0f ? 0 : 1;\n}\n";
    let r = run(timed);
    assert_eq!(r.end, ProgramEnd::Exited(0), "no launch between the events: no time");
    assert!(r.notes.iter().any(|n| n.span.line == 9 && n.message.contains("simulated")), "{:?}", r.notes);
}

#[test]
fn a_braced_row_fills_its_row_and_zeros_the_rest_as_c_does() {
    // Rows shorter than the row: each braced row starts a row (before, the values ran on into
    // the next row). Values without braces fill on in order; braces around one value are it.
    let src = "#include <stdio.h>\nint main() {\n int a[3][4] = {{1}, {2, 3}, {4, 5, 6, 7}};\n int b[2][2][3] = {{{1}, {2, 3}}, {4, 5, 6, 7}};\n int c[][2] = {{1}, 2, 3, {4}};\n int d[2] = {{8}, 9};\n for (int r = 0; r < 3; r++) for (int k = 0; k < 4; k++) printf(\"%d\", a[r][k]);\n printf(\" \");\n for (int i = 0; i < 12; i++) printf(\"%d\", b[i / 6][i / 3 % 2][i % 3]);\n printf(\" %d%d%d%d%d%d %d %d%d\\n\", c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], (int)sizeof(c), d[0], d[1]);\n return 0;\n}\n";
    assert_eq!(run(src).stdout, "100023004567 100230456700 102340 24 89\n");
    let too_long = "int main() {\n int a[2][2] = {{1, 2, 3}, {4}};\n return a[0][0];\n}\n";
    let errs = run_program(too_long, &LaunchOptions::default()).unwrap_err();
    assert!(errs.iter().any(|d| d.span.line == 2 && d.message.contains("this row has 3 values; it holds 2")), "{errs:?}");
}

#[test]
fn a_declaration_mixes_arrays_pointers_and_const_sizes() {
    let src = "#include <stdio.h>\nint main() {\n const int n = 4;\n int h[n], *p = h, total = 0;\n for (int i = 0; i < n; i++) p[i] = i + 1;\n for (int i = 0; i < n; i++) total += h[i];\n int n2 = n * 2;\n printf(\"%d %d %d\\n\", total, (int)sizeof(h), n2);\n return 0;\n}\n";
    assert_eq!(run(src).stdout, "10 16 8\n");
}

#[test]
fn device_memory_past_sixteen_mebibytes_keeps_clear_of_shared_memory() {
    // Three buffers of 8 MiB: the third starts past the shared window's start.
    let src = "#include <stdio.h>\n__global__ void k(float *a, float *b, float *c) {\n __shared__ float s[32];\n s[threadIdx.x] = threadIdx.x;\n __syncthreads();\n c[threadIdx.x] = s[31 - threadIdx.x] + b[threadIdx.x];\n}\nint main() {\n int n = 2 << 20;\n float *a, *b, *c, r[32];\n cudaMalloc(&a, n * 4);\n cudaMalloc(&b, n * 4);\n cudaMalloc(&c, n * 4);\n k<<<1, 32>>>(a, b, c);\n cudaMemcpy(r, c, sizeof(r), cudaMemcpyDeviceToHost);\n printf(\"%.0f %.0f %d\\n\", r[0], r[31], cudaGetLastError());\n return 0;\n}\n";
    assert_eq!(run(src).stdout, "31 0 0\n");
}
