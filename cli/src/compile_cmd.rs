//! `warpscope compile FILE --target T`: the code the compiler generates for a C kernel.

use std::path::Path;
use std::process::ExitCode;

use warpscope_core::compile::Target;
use warpscope_core::kernel::SourceOptions;

use crate::load::read_kernel;

pub fn compile(path: &Path, target: Option<&str>, if_convert: Option<bool>) -> Result<ExitCode, String> {
    let target = match target {
        Some(t) => Some(Target::from_name(t).ok_or_else(|| {
            let known: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
            format!("unknown target `{t}` (known: {})", known.join(", "))
        })?),
        None => None,
    };
    let (_, kernel) = read_kernel(path, &SourceOptions { target, if_convert, ..SourceOptions::default() })?;
    let Some(c) = kernel.compiled else {
        return Err(format!("{}: not a C kernel (no `__global__` function): assembly files run as they are", path.display()));
    };
    out!("{}", c.listing.trim_end());
    Ok(ExitCode::SUCCESS)
}
