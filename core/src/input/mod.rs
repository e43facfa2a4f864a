//! Input languages: each turns a kernel file's text into the same `Program`, with each
//! instruction's source line and located diagnostics. The `//@` header lines (inputs, model,
//! notes) are common to every language and read by `kernel`; a language reads the rest.
//!
//! The language is chosen by content (`detect`: the first language in `LANGUAGES` that claims
//! the text; the listing takes whatever no other claims), or named explicitly (`--input` on the
//! CLI, `RunRequest::input`).
//!
//! To add a language: a module in this folder implementing `Language`, a variant of `InputKind`
//! with its name, and its entry in `LANGUAGES`. Nothing outside this folder changes.

pub(crate) mod c;
mod listing;
pub mod ptx;
mod sass;

pub use sass::{device_kernel, looks_like_sass, DeviceSass};

use alloc::string::String;
use alloc::vec::Vec;

use crate::compile::Target;
use crate::diag::Diagnostic;
use crate::kernel::Kernel;

/// Choices a front end makes for reading a kernel; `None` falls back to the kernel's header
/// (and for `input`, to what the text looks like).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SourceOptions {
    pub input: Option<InputKind>,
    /// The code C compiles to (the chosen model's target).
    pub target: Option<Target>,
    pub if_convert: Option<bool>,
    /// Which kernel of the file runs (a C `__global__` function or a PTX `.entry`), over the
    /// header's `//@ kernel` (the CLI's `--entry`).
    pub kernel: Option<alloc::string::String>,
    /// The model runs blocks by their place in the layout (thread frontiers): PTX's blocks are
    /// laid out in reverse post order, as the thread-frontier compiler lays them out, since
    /// nvcc may put a block after the join it leads to.
    pub frontiers: Option<bool>,
    /// The model runs the structural transform's output (STRUCT); `None`: when the kernel's
    /// `//@ model` is `struct`.
    pub structural: Option<bool>,
}

/// Code a language generated from the source (C's compiled listing), beside the program.
#[derive(Clone, PartialEq, Debug)]
pub struct CompiledSource {
    pub target: Target,
    pub if_convert: bool,
    /// The generated assembly, for showing beside the source.
    pub listing: String,
    /// For each instruction, its line in `listing` (the program's own `lines` are source lines).
    pub listing_lines: Vec<u32>,
    /// Every `__global__` kernel of the file (`//@ kernel NAME` picks one).
    pub kernels: Vec<String>,
    /// The C variables and where each lives.
    pub vars: Vec<crate::compile::VarInfo>,
    /// The input language (C, or PTX translated).
    pub input: InputKind,
    /// For PTX with `.loc` line information: each instruction's line in the CUDA source
    /// (0 where none is known), and that source's file name (`.file`).
    pub cuda_lines: Vec<u32>,
    pub cuda_file: Option<String>,
    /// The function that runs as a PTX or SASS text names it (mangled), for lining up the PTX
    /// pasted beside a SASS kernel (`ptx::beside`); `None` for C and listings.
    pub entry: Option<String>,
    /// The kernel that runs, as `kernels` names it (C's, or PTX's and SASS's demangled).
    pub running: Option<String>,
}

/// The input languages warpscope reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum InputKind {
    /// SASS-style assembly as the papers list it (warpscope's own dialect).
    Listing,
    /// CUDA C: a `__global__` kernel, compiled for the chosen model's target.
    C,
    /// PTX as nvcc writes it: one `.entry`, with reconvergence placed for the chosen model.
    Ptx,
    /// Real SASS as `cuobjdump -sass` and `nvdisasm` print it (sm_75 to sm_120).
    Sass,
}

impl InputKind {
    pub const ALL: &'static [InputKind] = &[InputKind::Listing, InputKind::C, InputKind::Ptx, InputKind::Sass];

    pub fn name(self) -> &'static str {
        match self {
            InputKind::Listing => "listing",
            InputKind::C => "c",
            InputKind::Ptx => "ptx",
            InputKind::Sass => "sass",
        }
    }
}

/// One input language.
pub trait Language: Sync {
    fn kind(&self) -> InputKind;
    /// True when `text` is written in this language (only asked of languages before the listing).
    fn detects(&self, text: &str) -> bool;
    /// Reads the text into `k.program` (and `k.compiled` for generated code), binding whatever
    /// the language's inputs need to `k`'s header inputs; every problem goes into `diags`.
    fn read(&self, text: &str, k: &mut Kernel, opts: &SourceOptions, diags: &mut Vec<Diagnostic>);
}

/// Every language, in the order `detect` asks them: SASS before PTX (a dump has a `.target`
/// line); the listing, which claims any text, last.
const LANGUAGES: &[&dyn Language] = &[&sass::Sass, &ptx::Ptx, &c::C, &listing::Listing];

/// The language `text` is written in.
pub fn detect(text: &str) -> InputKind {
    LANGUAGES.iter().find(|l| l.detects(text)).map_or(InputKind::Listing, |l| l.kind())
}

/// Reads `text` as `opts.input`, or as the language it is detected to be.
pub fn read(text: &str, k: &mut Kernel, opts: &SourceOptions, diags: &mut Vec<Diagnostic>) {
    let kind = opts.input.unwrap_or_else(|| detect(text));
    if let Some(lang) = LANGUAGES.iter().find(|l| l.kind() == kind) {
        lang.read(text, k, opts, diags);
    }
}
