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
    let r = run_program(swapped, &LaunchOptions::default());
    // `int h[1]` is a local array, which host code does not take yet: a located error.
    assert!(r.is_err());
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
