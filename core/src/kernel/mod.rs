//! The kernel-file format: a kernel's text with its inputs in `//@` header lines, one
//! self-contained text used by the examples, the CLI, the tests and permalinks.
//!
//! ```text
//! //@ warp 32
//! //@ param n = 2
//! //@ reg R5 = t < 32 - n ? 32 : 32 - (t - (31 - n))
//! //@ buffer limits: i32[32] = i < 32 - n ? 32 : 32 - (i - (31 - n))
//! //@ model kepler
//! ```
//! `//@ note` lines (`note`) tie walkthrough captions to steps, events of the run or instructions.
//! `parse_kernel` never fails: it returns the kernel and every diagnostic, located.
//! `instantiate` evaluates the inputs for given parameter values and builds the machine;
//! `inputs` lists them for a front end and `set_header` edits their lines in the text.

pub mod expr;
mod header;
pub mod inputs;
mod instance;
mod note;
pub mod vars;

pub use crate::input::{CompiledSource, SourceOptions};
pub(crate) use header::is_buffer_name;
pub use header::{parse_kernel, parse_kernel_with};
pub use inputs::{inputs, set_header, HeaderEdit, HeaderKey, HeaderLine, KernelInputs};
pub use instance::{highest_register, instantiate, param_defaults, takes_float, Instance};
pub use note::{Note, NoteEvent, NoteTarget, MAX_JOIN_NOTES};

use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::Span;
use crate::isa::{Pred, Reg};
use crate::machine::{ElemType, Sizing};
use crate::model::{ModelKind, StackConfig};
use crate::program::Program;
use expr::Expr;

/// The largest kernel file read (a paper's listing is a few KiB; this leaves room for generated
/// code while keeping a pasted file or a link from freezing the page).
pub const MAX_KERNEL_BYTES: usize = 256 * 1024;

/// An expression from a header line, with where it starts in the file.
#[derive(Clone, PartialEq, Debug)]
pub struct LocatedExpr {
    pub expr: Expr,
    pub span: Span,
    /// The source text, to turn an error's byte offset into a column.
    pub text: String,
}

impl LocatedExpr {
    /// The span of `len` bytes at byte `offset` of the expression, in line/column terms.
    pub fn span_at(&self, offset: usize, len: usize) -> Span {
        span_within(self.span, &self.text, offset, len)
    }
}

/// The span of bytes `offset..offset + len` of `text`, which itself stands at `span`.
fn span_within(span: Span, text: &str, offset: usize, len: usize) -> Span {
    let chars = |r: core::ops::Range<usize>| text.get(r).map_or(0, |p| p.chars().count()) as u32;
    Span::new(span.line, span.col.saturating_add(chars(0..offset)), chars(offset..offset + len).max(1))
}

#[derive(Clone, PartialEq, Debug)]
pub struct ParamDecl {
    pub name: String,
    pub default: LocatedExpr,
    /// Made for a C kernel's scalar parameter that has no `//@ param` line.
    pub auto: bool,
    /// Bound to a float kernel parameter (C's `float a`): it takes any number. Any other param
    /// takes a fraction only where its default is one (`//@ param a = 2.5`).
    pub float: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InitTarget {
    Reg(Reg),
    Pred(Pred),
    /// A 64-bit value in a register pair (`reg` low, `reg + 1` high), as `elem` stores it.
    Wide {
        reg: Reg,
        elem: ElemType,
    },
}

/// `//@ reg R5 = expr`: each lane's initial value, with `t` the lane index.
#[derive(Clone, PartialEq, Debug)]
pub struct RegInit {
    pub target: InitTarget,
    pub value: LocatedExpr,
    /// Made by a front end to pass an input to its register (a C parameter's buffer address or
    /// value, a `__shared__` array's address): every name in it is an input, even `t`, `i` or
    /// `W`, which a C kernel may name its parameters.
    pub binds: bool,
}

/// `//@ buffer name: i32[len] = expr`: a global array, element `i` initialised by `expr`.
#[derive(Clone, PartialEq, Debug)]
pub struct BufferDecl {
    pub name: String,
    pub elem: ElemType,
    pub len: LocatedExpr,
    pub init: Option<BufferInit>,
    /// Made for a C kernel's pointer parameter that has no `//@ buffer` line.
    pub auto: bool,
    /// A `__shared__` variable of a C kernel: the block's shared memory.
    pub shared: bool,
    /// The qualifier of the variable it holds (`__constant__`, `__device__`, `__shared__`;
    /// PTX's `.global`, `.const`, ...), whose declaration fixes its length; `None` for a
    /// parameter's buffer or a header's own.
    pub declared: Option<&'static str>,
    /// Where its length comes from (a fault past its end says what to change).
    pub sizing: Sizing,
    /// A C array's dimensions after its first, as `Buffer::shape`.
    pub shape: Vec<u32>,
}

impl BufferDecl {
    /// Local memory: each lane's frame side by side, so every warp has its own copy.
    pub fn per_thread(&self) -> bool {
        self.declared == Some(".local")
    }
}

/// How a buffer's elements start: an expression of the element index `i`, or a list.
#[derive(Clone, PartialEq, Debug)]
pub enum BufferInit {
    Expr(LocatedExpr),
    /// `= [1, 3, 5]`: element k is the k-th value; the rest are 0.
    List(Vec<LocatedExpr>),
    /// `= "some text"` (a byte buffer's): element k is the text's k-th byte; the rest are 0.
    Text {
        /// As written, quotes and escapes included.
        written: String,
        bytes: Vec<u8>,
        span: Span,
    },
}

impl BufferInit {
    /// Where the values are written (none for an empty list).
    pub fn span(&self) -> Option<Span> {
        match self {
            BufferInit::Expr(e) => Some(e.span),
            BufferInit::List(items) => items.first().map(|e| e.span),
            BufferInit::Text { span, .. } => Some(*span),
        }
    }
}

/// `//@ launch grid=G block=B`: the launch the kernel belongs to, and which of its warps runs
/// (one warp of one block: the others do not run).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LaunchDecl {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// The block whose warp runs.
    pub block_idx: [u32; 3],
    /// The warp of that block that runs (its lanes are threads `warp_idx * W ..`).
    pub warp_idx: u32,
    /// The dynamic shared memory in bytes (the host launch's third argument, `<<<g, b, bytes>>>`):
    /// what an `extern __shared__` array holds; `None`: a thread's element per thread.
    pub shared: Option<u32>,
}

impl LaunchDecl {
    pub fn block_threads(&self) -> u32 {
        self.block.iter().product()
    }
    /// Threads in the whole launch (a buffer made for a pointer parameter holds one per thread).
    pub fn threads(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product::<u64>() * self.block_threads() as u64
    }
    /// How many warps of width `w` a block has (the last may be partial).
    pub fn warps(&self, w: u32) -> u32 {
        self.block_threads().div_ceil(w.max(1))
    }
    /// Lanes of the running warp: `w`, or fewer in a block's last, partial warp.
    pub fn lanes(&self, w: u32) -> u32 {
        self.block_threads().saturating_sub(self.warp_idx * w).min(w)
    }
}

#[derive(Clone, PartialEq, Debug, Default)]
pub struct Kernel {
    /// Lanes per warp (`//@ warp`): a width, not which warp runs (that is `LaunchDecl::warp_idx`).
    pub warp_width: u32,
    /// `//@ launch`; without it a C kernel runs one block of one warp.
    pub launch: Option<LaunchDecl>,
    /// Where the `//@ launch` line is.
    pub launch_at: Span,
    /// `//@ kernel NAME`: which `__global__` kernel of a C file runs.
    pub kernel_name: Option<(String, Span)>,
    pub params: Vec<ParamDecl>,
    pub regs: Vec<RegInit>,
    pub buffers: Vec<BufferDecl>,
    pub model: Option<ModelKind>,
    pub preset: Option<String>,
    pub stack: Option<StackConfig>,
    pub title: Option<String>,
    pub about: Vec<String>,
    pub notes: Vec<Note>,
    /// `//@ ifconvert on|off`: predicate short branches when compiling C.
    pub if_convert: Option<bool>,
    /// `//@ fmad on|off`: fuse float multiply-adds when compiling C, as nvcc's `--fmad` (on
    /// unless the kernel says off).
    pub fmad: Option<bool>,
    /// The model the code's own architecture has, where its reader knows it (real SASS of sm_75
    /// and later: volta, whose convergence barriers it uses), with where it was read: the
    /// default when neither the user nor `//@ model` chooses one.
    pub arch_model: Option<(ModelKind, String, crate::diag::Span)>,
    /// `//@ excerpt`: the listing is part of a kernel (the papers' listings stop at their timing
    /// read), so lanes that run past its last instruction exit instead of faulting.
    pub excerpt: bool,
    /// For a C kernel: the generated code and how it maps back to the source.
    pub compiled: Option<CompiledSource>,
    /// For STRUCT: the program before the structural transform and how the one that runs maps
    /// back to it (`program` is then the transformed one).
    pub structured: Option<alloc::sync::Arc<crate::structure::Structured>>,
    pub program: Program,
}

impl Kernel {
    /// The launch: declared, or one block of one warp.
    pub fn launch(&self) -> LaunchDecl {
        self.launch.unwrap_or(LaunchDecl { grid: [1; 3], block: [self.warp_width, 1, 1], block_idx: [0; 3], warp_idx: 0, shared: None })
    }
    /// Whether the launch has more than one warp: the CLI, sweeps and compare run it whole.
    pub fn several_warps(&self) -> bool {
        self.launch().threads() > self.warp_width as u64
    }
    /// Lanes of the warp that runs (fewer than `warp` in a partial last warp of a block).
    pub fn lanes(&self) -> u32 {
        self.launch().lanes(self.warp_width)
    }

    /// The declared parameters with their default values (defaults that fail to evaluate are 0).
    pub fn param_names(&self) -> impl Iterator<Item = &str> {
        self.params.iter().map(|p| p.name.as_str())
    }
}
