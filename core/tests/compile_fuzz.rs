//! The compiler never panics: mangled examples, token soup and deep nesting all come back as
//! located diagnostics (or a program), for every target, with and without if-conversion.

use proptest::prelude::*;
use warpscope_core::compile::{compile, CompileOptions, Target};

/// The examples and the teaching corpus (whole course files: host code, macros, shared
/// memory, warp intrinsics).
fn sources() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<String> = [root.clone(), root.join("corpus")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    v.sort();
    v
}

fn check(text: &str) {
    let lines = text.lines().count() as u32 + 1;
    for &target in Target::ALL {
        for if_convert in [false, true] {
            let (out, diags) = compile(text, CompileOptions { target, if_convert, kernel: None, fmad: true, host: false });
            for d in &diags {
                assert!(d.span.line >= 1 && d.span.line <= lines, "{d} outside the text:\n{text}");
            }
            if out.is_none() {
                assert!(diags.iter().any(|d| d.is_error()), "no program and no error:\n{text}");
            }
        }
    }
}

const SOUP: &[&str] = &[
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case 1:",
    "default:",
    "break;",
    "continue;",
    "return",
    "goto L;",
    "L:",
    "{",
    "}",
    "(",
    ")",
    ";",
    "int",
    "float",
    "unsigned",
    "bool",
    "x",
    "a[t]",
    "t",
    "=",
    "+=",
    "++",
    "&&",
    "||",
    "?",
    ":",
    "<",
    "/",
    "%",
    "1",
    "0.5f",
    "threadIdx.x",
    "atomicCAS(a, 0, 1)",
    "f(",
    ",",
    "__syncthreads()",
    "*",
    "&",
    "!",
    "~",
    "<<",
    "0xffffffff",
    "double",
    "\"s\"",
    "@",
    "\n#define M 4\n",
    "\n#define F(a, b) ((a) < (b) ? (a) : b)\n",
    "F(",
    "M",
    "\n#if M > 2\n",
    "\n#else\n",
    "\n#endif\n",
    "\n#include <cstdio>\n",
    "__shared__ int s[4];",
    "__shared__ float g[2][3];",
    "extern __shared__ int e[];",
    "s[1]",
    "g[1][2]",
    "&s[0]",
    "blockIdx.y",
    "gridDim.z",
    "warpSize",
    "__shfl_down_sync(0xffffffff, x, 1)",
    "__shfl_sync(0xffff, x, 3, 16)",
    "__ballot_sync(~0u, x)",
    "__any_sync(0xffffffff, x < 3)",
    "__activemask()",
    "__syncwarp()",
    "atomicMax(&s[0], 1)",
    "atomicSub(a, 2)",
    "__popc(x)",
    "__ffs(x)",
    "sqrtf(x)",
    "expf(1.5f)",
    "min(x, 1)",
    "x % t",
    "const int K = 3;",
    "}\nint main() { k<<<1, 32>>>(0); printf(\"%d\\n\", 1); }\n__global__ void k2(int* a) {",
    "template <int B>",
    "'c'",
    "10ULL",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mangled_examples(pick in any::<prop::sample::Index>(), cuts in prop::collection::vec((any::<prop::sample::Index>(), 0usize..12, 0usize..SOUP.len()), 1..6)) {
        let all = sources();
        let mut text = all[pick.index(all.len())].clone();
        for (at, len, insert) in cuts {
            let mut k = at.index(text.len() + 1);
            while !text.is_char_boundary(k) { k -= 1; }
            let mut end = (k + len).min(text.len());
            while !text.is_char_boundary(end) { end -= 1; }
            text.replace_range(k..end, SOUP[insert]);
        }
        check(&text);
    }

    #[test]
    fn token_soup(words in prop::collection::vec(0usize..SOUP.len(), 0..80)) {
        let body: Vec<&str> = words.iter().map(|&w| SOUP[w]).collect();
        check(&format!("__global__ void k(int* a) {{\n{}\n}}\n", body.join(" ")));
    }
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep_expr = format!("__global__ void k(int* a) {{ a[0] = {}1{}; }}\n", "(".repeat(5000), ")".repeat(5000));
    let deep_blocks = format!("__global__ void k(int* a) {{ {} a[0] = 1; {} }}\n", "{".repeat(5000), "}".repeat(5000));
    let deep_unary = format!("__global__ void k(int* a) {{ a[0] = {}1; }}\n", "-".repeat(5000));
    for text in [deep_expr, deep_blocks, deep_unary] {
        let (out, diags) = compile(&text, CompileOptions::default());
        assert!(out.is_none());
        assert!(diags.iter().any(|d| d.message.contains("nested more than")), "{diags:?}");
    }
}

#[test]
fn every_problem_is_named_and_located() {
    let cases: &[(&str, &str, u32)] = &[
        ("__global__ void k(int* a) {\n  long short x = 1;\n}\n", "`short` takes no `long` or `double`", 2),
        ("__global__ void k(int* a) {\n  unsigned signed char x = 1;\n}\n", "`signed` or `unsigned`, not both", 2),
        ("__global__ void k(int* a) {\n  char int x = 1;\n}\n", "`char int` is not a type", 2),
        ("__global__ void k(int* a) {\n  short char x = 1;\n}\n", "`char` after `short`", 2),
        ("__constant__ int w[1024][1024][2];\n__global__ void k(int* a) {\n  a[0] = w[0][0][0];\n}\n", "holds at most 1048576", 1),
        ("__global__ void k(int* a) {\n  a[0] = atomicAdd(&a[1], 0.5) + ~1.5;\n}\n", "`~` does not apply", 2),
        ("__global__ void k(int* a) {\n  a[0] = foo(1);\n}\n", "unknown function `foo`", 2),
        ("__global__ void k(int* a) {\n  a[0] = y;\n}\n", "unknown variable `y`", 2),
        ("__global__ void k(int* a) {\n  a[0] = a[1] % 0;\n}\n", "division by zero", 2),
        ("__device__ int f(int x) { return f(x); }\n__global__ void k(int* a) {\n  a[0] = f(1);\n}\n", "recursion", 1),
        ("__global__ void k(int* a) {\n  goto nowhere;\n}\n", "no label `nowhere`", 2),
        ("__global__ void k(int* a) {\n  break;\n}\n", "`break` outside", 2),
        ("__global__ void k(int* a) {\n  int x = threadIdx.w;\n}\n", "fields `x`, `y` and `z`", 2),
        ("__global__ void k(int* a) {\n  __shared__ int s[4][4];\n  a[0] = s[1];\n}\n", "index every one", 3),
        ("#if 1\n__global__ void k(int* a) {\n}\n", "no `#endif`", 1),
        ("__global__ void k(int* a) {\n}\n__global__ void k2(int* a) {\n  a[0] = @;\n}\n", "`@`", 4),
        ("__global__ void k(int* a) {\n  int x = 1\n  a[0] = x;\n}\n", "expected `;`", 3),
        ("__device__ int f(int x) { return x; }\n", "no `__global__` kernel", 1),
        ("__global__ void k(int* a) {\n  __shared__ int s = 1;\n}\n", "cannot have an initialiser", 2),
    ];
    for (text, want, line) in cases {
        let (out, diags) = compile(text, CompileOptions::default());
        assert!(out.is_none(), "{text}");
        let d = diags.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("no error for {text}"));
        assert!(d.message.contains(want), "`{}` does not say `{want}`", d.message);
        assert_eq!(d.span.line, *line, "{text}: {d}");
    }
}
