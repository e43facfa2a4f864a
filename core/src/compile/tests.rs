use super::*;
use alloc::string::ToString;

fn listing(src: &str, target: Target) -> String {
    let (out, diags) = compile(src, CompileOptions { target, if_convert: false, kernel: None, fmad: true, host: false });
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    out.expect("compiled").listing
}

#[test]
fn if_else_gets_ssy_and_sync() {
    let src = "__global__ void k(int* a) {\n  int t = threadIdx.x;\n  if (t < 5) a[t] = 1; else a[t] = 2;\n  a[t] = a[t] + 1;\n}\n";
    let l = listing(src, Target::Kepler);
    std::println!("{l}");
    assert!(l.contains("SSY"));
    assert!(l.contains("SYNC"));
    let v = listing(src, Target::Volta);
    std::println!("{v}");
    assert!(v.contains("BSSY B0"));
    assert!(v.contains("BSYNC B0"));
    let p = listing(src, Target::Plain);
    assert!(!p.contains("SSY") && !p.contains("SYNC"));
}

#[test]
fn errors_are_located() {
    let (out, diags) = compile("__global__ void k(long double* a) {}\n", CompileOptions::default());
    assert!(out.is_none());
    assert_eq!(diags[0].span.line, 1);
    assert!(diags[0].message.contains("`long double` is not supported"), "{}", diags[0].message.to_string());
}

#[test]
fn a_double_atomic_cuda_lacks_is_an_error_pointing_at_atomiccas() {
    let src = "__global__ void k(double* a) {\n    atomicMax(a, 1.5);\n}\n";
    let (out, diags) = compile(src, CompileOptions::default());
    assert!(out.is_none());
    assert_eq!((diags[0].span.line, diags[0].span.col), (2, 5));
    assert!(diags[0].message.contains("`atomicMax` on a `double`: CUDA has only `atomicAdd`"), "{}", diags[0].message);
    let l = listing("__global__ void k(double* a, long long* b) {\n    atomicAdd(a, 1.5);\n    atomicMin(b, -2LL);\n}\n", Target::Volta);
    assert!(l.contains("ATOM.E.ADD.F64") && l.contains("ATOM.E.MIN.S64"), "{l}");
}

#[test]
fn division_by_zero_is_a_located_error_and_by_a_variable_one_instruction() {
    let src = "__global__ void k(int* a) {\n    int t = threadIdx.x;\n    a[t] = t / 0;\n}\n";
    let (out, diags) = compile(src, CompileOptions::default());
    assert!(out.is_none());
    let zero = diags.iter().find(|d| d.message.contains("division by zero")).expect("a division-by-zero error");
    assert_eq!((zero.span.line, zero.span.col), (3, 12), "at the division `t / 0`");
    let l = listing("__global__ void k(int* a, unsigned* b) {\n    int t = threadIdx.x;\n    a[t] = 100 % (t + 1);\n    b[t] = b[t] / (unsigned)(t + 1);\n}\n", Target::Kepler);
    assert!(l.contains("IREM.S32") && l.contains("IDIV.U32"), "{l}");
}

#[test]
fn a_kernel_with_more_live_values_than_registers_is_a_located_error() {
    // 300 values all live until the sum at the end: more than R0-R254 hold.
    let mut src = alloc::string::String::from("__global__ void k(int* a) {\n    int t = threadIdx.x;\n");
    for i in 0..300 {
        src += &alloc::format!("    int v{i} = a[t + {i}];\n");
    }
    let sum: alloc::vec::Vec<_> = (0..300).map(|i| alloc::format!("v{i}")).collect();
    src += &alloc::format!("    a[t] = {};\n}}\n", sum.join(" + "));
    let (out, diags) = compile(&src, CompileOptions::default());
    assert!(out.is_none());
    let d = diags.iter().find(|d| d.message.contains("out of registers")).expect("an out-of-registers error");
    assert!(d.span.line >= 3, "located in the kernel: {:?}", d.span);
}

#[test]
fn nesting_just_under_the_limit_compiles_on_a_test_thread_stack() {
    let n = parse::MAX_DEPTH as usize - 10;
    let kernel = |body: String| format!("__global__ void k(int* a) {{ {body} }}\n");
    for src in [
        kernel(format!("a[0] = {}1{};", "(".repeat(n / 2), ")".repeat(n / 2))),
        kernel(format!("{} a[0] = 1; {}", "{".repeat(n / 5), "}".repeat(n / 5))),
        kernel(format!("a[0] = 1{};", " + 1".repeat(n))),
        kernel(format!("a[0] = {}1;", "- ".repeat(n / 2))),
    ] {
        for target in Target::ALL {
            listing(&src, *target);
        }
    }
}
