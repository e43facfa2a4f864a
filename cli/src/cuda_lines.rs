//! For PTX with `.loc` line information: each instruction's CUDA line, and that line's text when
//! the CUDA file the PTX names (`.file`) lies beside the PTX file (or one folder up, as the
//! gallery keeps `examples/ptx/X.ptx` and `examples/X.cu`).

use std::path::Path;

use warpscope_core::isa::Pc;
use warpscope_core::kernel::Kernel;

pub struct CudaLines {
    lines: Vec<u32>,
    text: Option<Vec<String>>,
}

impl CudaLines {
    /// The kernel's CUDA lines, if it is PTX with `.loc`; the source text if found beside `path`.
    pub fn of(path: &Path, kernel: &Kernel) -> Option<CudaLines> {
        let c = kernel.compiled.as_ref()?;
        if c.cuda_lines.iter().all(|&l| l == 0) {
            return None;
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let text = c.cuda_file.as_deref().and_then(|name| {
            let base = Path::new(name).file_name()?;
            let up = dir.parent().unwrap_or(dir);
            [dir.join(name), dir.join(base), up.join(base)].iter().find_map(|p| std::fs::read_to_string(p).ok())
        });
        Some(CudaLines { lines: c.cuda_lines.clone(), text: text.map(|t| t.lines().map(|l| l.trim().to_string()).collect()) })
    }

    /// `cuda 14: if (t < 5) {` for the instruction at `pc` (without the text when the source
    /// was not found); `None` where the PTX gives no line.
    pub fn at(&self, pc: Pc) -> Option<String> {
        let line = *self.lines.get(pc.index()).filter(|&&l| l > 0)?;
        Some(match self.text.as_ref().and_then(|t| t.get(line as usize - 1)) {
            Some(src) => format!("cuda {line}: {src}"),
            None => format!("cuda {line}"),
        })
    }

    /// The lowest and highest CUDA line of the instructions `start..end`.
    pub fn range(&self, start: Pc, end: Pc) -> Option<(u32, u32)> {
        let lines = self.lines.get(start.index()..end.index())?.iter().copied().filter(|&l| l > 0);
        let (lo, hi) = lines.fold((u32::MAX, 0), |(lo, hi), l| (lo.min(l), hi.max(l)));
        (hi > 0).then_some((lo, hi))
    }
}
