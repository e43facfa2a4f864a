//! PTX shown beside the SASS it was compiled to. Real SASS and its PTX share nothing but the CUDA
//! lines both name (`nvdisasm -g`'s `//## File ..., line N`, PTX's `.loc`), so the PTX lines of a
//! SASS instruction are the kernel's PTX instructions from the same CUDA line.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::syntax::{self, Function, Instr, Module};
use super::{call_target, demangle, instrs, kernel_file, line_in};

/// Each PTX line of the kernel (and of the functions it calls) with its CUDA line, and what kept
/// the rest from lining up.
#[derive(Clone, PartialEq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Beside {
    /// PTX lines holding an instruction with a CUDA line of the SASS's file, ascending...
    pub ptx_lines: Vec<u32>,
    /// ...and that CUDA line, for each.
    pub cuda_lines: Vec<u32>,
    /// The PTX kernel matched with the SASS's (its demangled name).
    pub kernel: Option<String>,
    pub problem: Option<BesideProblem>,
}

/// Why the PTX does not line up with the SASS, in words a user can act on.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BesideProblem {
    pub kind: BesideProblemKind,
    pub message: String,
    /// The PTX line it is about, if one.
    pub line: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum BesideProblemKind {
    /// The SASS has no line information (`cuobjdump -sass`, `nvdisasm` without `-g`).
    SassHasNoLines,
    /// The text is not PTX.
    NotPtx,
    /// The PTX has a syntax error (what parsed still lines up).
    Unreadable,
    /// No `.entry` of the SASS kernel's name.
    OtherKernel,
    /// The kernel has no `.loc` lines.
    NoLoc,
    /// Its `.loc` lines name another `.cu` file than the SASS's.
    OtherFile,
}

fn problem(kind: BesideProblemKind, message: String, line: Option<u32>) -> Option<BesideProblem> {
    Some(BesideProblem { kind, message, line })
}

/// Lines up `ptx` with a SASS kernel: `kernel` is its function's name as the dump gives it
/// (mangled), `cuda_file` the file its `-g` lines name (`None`: it has none).
pub fn beside(ptx: &str, kernel: &str, cuda_file: Option<&str>) -> Beside {
    use BesideProblemKind as K;
    let mut out = Beside::default();
    let Some(sass_file) = cuda_file else {
        out.problem = problem(K::SassHasNoLines, "This SASS has no line information, so no PTX line can be matched to its instructions: compile with nvcc -lineinfo -cubin and disassemble with nvdisasm -g (cuobjdump -sass prints no lines).".into(), None);
        return out;
    };
    if !syntax::looks_like_ptx(ptx) {
        out.problem = problem(
            K::NotPtx,
            "This is not PTX (it has no .version, .target or .entry line): paste what nvcc -ptx -lineinfo writes for the same .cu file."
                .into(),
            None,
        );
        return out;
    }
    let (m, diags) = syntax::parse(ptx);
    let shown = |name: &str| demangle(name).map_or_else(|| name.to_string(), |d| d.name);
    let Some(entry) = m.functions.iter().find(|f| f.entry && f.name == kernel) else {
        let entries: Vec<String> = m.functions.iter().filter(|f| f.entry).map(|f| format!("`{}`", shown(f.name))).collect();
        let has = if entries.is_empty() { String::from("no kernel") } else { format!("the kernels {}", entries.join(", ")) };
        out.problem = problem(
            K::OtherKernel,
            format!("This PTX has {has}, not `{}`, the kernel of the SASS: paste the PTX of the same kernel.", shown(kernel)),
            None,
        );
        return out;
    };
    out.kernel = Some(shown(entry.name));
    let funcs = reachable(&m, entry);
    let mut located: Vec<&Instr> = funcs.iter().flat_map(|f| instrs(f)).filter(|i| i.cuda_line > 0).collect();
    located.sort_unstable_by_key(|i| i.span.line);
    let base = |p: &str| p.rsplit(['/', '\\']).next().unwrap_or(p).to_string();
    let file_of = |n: u32| m.files.iter().find(|(k, _)| *k == n).map(|(_, name)| base(name));
    let same_file = m.files.iter().find(|(_, name)| base(name) == base(sass_file)).map(|(n, _)| *n);
    for i in &located {
        let line = same_file.map_or(0, |f| line_in(i, f));
        if line > 0 {
            out.ptx_lines.push(i.span.line);
            out.cuda_lines.push(line);
        }
    }
    let error = diags.iter().find(|d| d.is_error());
    out.problem = if let Some(d) = error {
        problem(K::Unreadable, format!("Line {}: {} (the lines before it still line up).", d.span.line, d.message), Some(d.span.line))
    } else if located.is_empty() {
        problem(K::NoLoc, format!("This PTX has no .loc line information for `{}`: compile it with nvcc -ptx -lineinfo (in Compiler Explorer, add -lineinfo).", shown(entry.name)), Some(entry.span.line))
    } else if out.ptx_lines.is_empty() {
        let named = located.first().and_then(|i| file_of(kernel_file(i))).unwrap_or_else(|| String::from("another file"));
        problem(
            K::OtherFile,
            format!("This PTX was compiled from {named}, the SASS from {}: paste the PTX of the same .cu file.", base(sass_file)),
            None,
        )
    } else {
        None
    };
    out
}

/// `entry` and every function it calls, directly or not.
fn reachable<'m, 'a>(m: &'m Module<'a>, entry: &'m Function<'a>) -> Vec<&'m Function<'a>> {
    let mut found = alloc::vec![entry];
    let mut at = 0;
    while at < found.len() {
        let callees: Vec<&str> = instrs(found[at]).filter(|i| i.opcode() == "call").filter_map(call_target).collect();
        for name in callees {
            if let Some(f) = m.functions.iter().find(|f| f.name == name && f.defined) {
                if !found.iter().any(|g| g.name == f.name) {
                    found.push(f);
                }
            }
        }
        at += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#"
.version 9.0
.target sm_90
.address_size 64
.file 1 "/home/me/if_else.cu"
.file 2 "/usr/include/cuda.h"

.func helper(.param .b32 x)
{
    .loc 1 3 5
    ret;
}

.visible .entry _Z1kPi(.param .u64 a)
{
    .reg .b32 %r<3>;
    .loc 1 8 3
    mov.u32 %r1, %tid.x;
    .loc 2 40 1
    add.s32 %r2, %r1, 1;
    .loc 2 50 1, function_name $L__info_string0, inlined_at 1 8 7
    add.s32 %r2, %r2, 1;
    .loc 1 9 3
    call helper, (%r1);
    ret;
}
"#;

    #[test]
    fn lines_up_the_kernel_and_its_callees_by_cuda_line_of_the_sass_file() {
        let b = beside(PTX, "_Z1kPi", Some("if_else.cu"));
        assert_eq!(b.problem, None);
        assert_eq!(b.kernel.as_deref(), Some("k"));
        // The callee's line 11 (CUDA 3); the kernel's lines 18 (8), 22 (cuda.h's, inlined at 8),
        // 24 and 25 (9); line 20 is cuda.h's alone.
        assert_eq!(b.ptx_lines, [11, 18, 22, 24, 25]);
        assert_eq!(b.cuda_lines, [3, 8, 8, 9, 9]);
    }

    #[test]
    fn says_what_keeps_the_ptx_from_lining_up() {
        let kind = |ptx: &str, kernel: &str, file: Option<&str>| beside(ptx, kernel, file).problem.map(|p| (p.kind, p.message));
        let (k, m) = kind(PTX, "_Z1kPi", None).unwrap();
        assert_eq!(k, BesideProblemKind::SassHasNoLines);
        assert!(m.contains("nvdisasm -g"), "{m}");
        let (k, m) = kind("__global__ void k(int *a) {}", "_Z1kPi", Some("if_else.cu")).unwrap();
        assert_eq!(k, BesideProblemKind::NotPtx);
        assert!(m.contains("-lineinfo"), "{m}");
        let (k, m) = kind(PTX, "_Z5otherPf", Some("if_else.cu")).unwrap();
        assert_eq!(k, BesideProblemKind::OtherKernel);
        assert!(m.contains("the kernels `k`, not `other`"), "{m}");
        let (k, m) = kind(PTX, "_Z1kPi", Some("saxpy.cu")).unwrap();
        assert_eq!(k, BesideProblemKind::OtherFile);
        assert!(m.contains("from if_else.cu, the SASS from saxpy.cu"), "{m}");
        let no_loc: String = PTX.lines().filter(|l| !l.contains(".loc")).collect::<Vec<_>>().join("\n");
        assert_eq!(kind(&no_loc, "_Z1kPi", Some("if_else.cu")).unwrap().0, BesideProblemKind::NoLoc);
        let broken = PTX.replacen("ret;", "ret", 1);
        let b = beside(&broken, "_Z1kPi", Some("if_else.cu"));
        assert_eq!(b.problem.as_ref().map(|p| p.kind), Some(BesideProblemKind::Unreadable), "{b:?}");
    }
}
