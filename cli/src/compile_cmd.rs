//! `warpscope compile FILE --target T`: the code the compiler generates for a C kernel, or
//! the translation of a PTX one (nvcc's, with `--nvcc`), reconvergence placed for the target.

use std::path::Path;
use std::process::ExitCode;

use warpscope_core::compile::Target;
use warpscope_core::kernel::SourceOptions;

use crate::load::read_kernel;

pub fn compile(path: &Path, target: Option<&str>, if_convert: Option<bool>, entry: Option<String>, nvcc: bool) -> Result<ExitCode, String> {
    let target = match target {
        Some(t) => Some(Target::from_name(t).ok_or_else(|| {
            let known: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
            format!("unknown target `{t}` (known: {})", known.join(", "))
        })?),
        None => None,
    };
    let opts = SourceOptions { target, if_convert, kernel: entry.clone(), ..SourceOptions::default() };
    let kernel = if nvcc {
        let text = crate::link_arg::read_source(path)?;
        let (ptx, _) = crate::nvcc::ptx_of(path, &text, entry.as_deref())?;
        let (kernel, diags) = warpscope_core::kernel::parse_kernel_with(&ptx, &opts);
        let shown = crate::load::render(&crate::nvcc::ptx_name(path), &ptx, &diags);
        if diags.iter().any(|d| d.is_error()) {
            return Err(shown.trim_end().to_string());
        }
        eprint!("{shown}");
        kernel
    } else {
        read_kernel(path, &opts)?.1
    };
    let Some(c) = kernel.compiled else {
        return Err(format!("{}: not a C or PTX kernel: assembly files run as they are", path.display()));
    };
    out!("{}", c.listing.trim_end());
    Ok(ExitCode::SUCCESS)
}
