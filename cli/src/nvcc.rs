//! `--nvcc`: a CUDA file compiled by NVIDIA's nvcc, when one is installed, and its PTX run in
//! place of warpscope's own compile. The file's `//@` lines go above the PTX, with each C
//! parameter's name changed to the position PTX binds it by (`a` to `arg0`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where nvcc is: `$NVCC`, `nvcc` on the PATH, `$CUDA_HOME/bin`, `/usr/local/cuda/bin`, or the
/// copy `scripts/nvcc.sh` installs under `.tools/nvcc` (looked for from the working directory up).
pub fn find() -> Result<PathBuf, String> {
    let mut tried: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("NVCC") {
        tried.push(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH") {
        tried.extend(std::env::split_paths(&path).map(|d| d.join("nvcc")));
    }
    if let Some(home) = std::env::var_os("CUDA_HOME") {
        tried.push(PathBuf::from(home).join("bin/nvcc"));
    }
    tried.push(PathBuf::from("/usr/local/cuda/bin/nvcc"));
    let mut dir = std::env::current_dir().ok();
    while let Some(d) = dir {
        if let Ok(entries) = std::fs::read_dir(d.join(".tools/nvcc/lib")) {
            for e in entries.flatten() {
                tried.push(e.path().join("site-packages/nvidia/cu13/bin/nvcc"));
            }
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    tried.into_iter().find(|p| p.is_file()).ok_or_else(|| {
        String::from(
            "--nvcc: no nvcc found (looked at $NVCC, the PATH, $CUDA_HOME/bin, /usr/local/cuda/bin and .tools/nvcc); \
             install the CUDA toolkit, or run `bash scripts/nvcc.sh` in a warpscope checkout (NVIDIA's nvcc from PyPI, no GPU needed)",
        )
    })
}

/// How diagnostics name the PTX of `path` (it is not on disk, and its lines are not the file's).
pub fn ptx_name(path: &Path) -> String {
    format!("<nvcc's PTX of {}>", path.display())
}

/// nvcc's PTX of the CUDA file at `path` (`-O3 -arch=sm_90 -lineinfo`), with the file's `//@`
/// lines above it, renamed for PTX's positional parameters. Returns the text and the renaming.
pub fn ptx_of(path: &Path, text: &str, entry: Option<&str>) -> Result<(String, Vec<(String, String)>), String> {
    let nvcc = find()?;
    let out = std::env::temp_dir().join(format!("warpscope-nvcc-{}.ptx", std::process::id()));
    let run = Command::new(&nvcc)
        .args(["-O3", "-arch=sm_90", "-lineinfo", "-ptx", "-o"])
        .arg(&out)
        // CUDA whatever the file's name (nvcc goes by the extension, and refuses `.txt`).
        .args(["-x", "cu"])
        .arg(path)
        .output()
        .map_err(|e| format!("--nvcc: could not run {}: {e}", nvcc.display()))?;
    if !run.status.success() {
        return Err(format!(
            "--nvcc: {} failed on {}:\n{}",
            nvcc.display(),
            path.display(),
            String::from_utf8_lossy(&run.stderr).trim_end()
        ));
    }
    let ptx = std::fs::read_to_string(&out).map_err(|e| format!("--nvcc: no PTX written: {e}"))?;
    let _ = std::fs::remove_file(&out);
    let names = kernel_params(text, entry);
    let renames: Vec<(String, String)> = names.iter().enumerate().map(|(k, n)| (n.clone(), format!("arg{k}"))).collect();
    let mut combined = String::new();
    for line in text.lines().filter(|l| l.trim_start().starts_with("//@")) {
        combined.push_str(&rename_header(line, &renames));
        combined.push('\n');
    }
    combined.push_str(&ptx);
    Ok((combined, renames))
}

/// The parameter names of the `__global__` function `entry` (`--entry`, else the file's
/// `//@ kernel`, else the first; a template instance's by its template's name), read from its
/// signature.
fn kernel_params(text: &str, entry: Option<&str>) -> Vec<String> {
    let header = text.lines().find_map(|l| l.trim_start().strip_prefix("//@")?.trim_start().strip_prefix("kernel ").map(str::trim));
    // `reduce<256>` names the template `reduce`.
    let entry = entry.or(header).map(|e| e.split('<').next().unwrap_or(e).trim());
    let mut rest = text;
    while let Some(at) = rest.find("__global__") {
        rest = &rest[at + "__global__".len()..];
        let Some(open) = rest.find('(') else { break };
        let name = rest[..open].split(|c: char| !c.is_alphanumeric() && c != '_').rfind(|s| !s.is_empty()).unwrap_or("");
        let Some(close) = rest[open..].find(')') else { break };
        if entry.is_some_and(|e| e != name) {
            continue;
        }
        let list = &rest[open + 1..open + close];
        return list
            .split(',')
            .filter_map(|p| p.split(|c: char| !c.is_alphanumeric() && c != '_').rfind(|s| !s.is_empty()))
            .filter(|n| *n != "void")
            .map(String::from)
            .collect();
    }
    Vec::new()
}

/// `//@ buffer a: f32[8]` with `a` renamed to `arg0`; other lines as they are.
fn rename_header(line: &str, renames: &[(String, String)]) -> String {
    let body = line.trim_start().trim_start_matches("//@").trim_start();
    for kw in ["buffer", "param"] {
        let Some(after) = body.strip_prefix(kw) else { continue };
        let after = after.trim_start();
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if let Some((_, new)) = renames.iter().find(|(old, _)| *old == name) {
            return format!("//@ {kw} {new}{}", &after[name.len()..]);
        }
        // A vector by value's component (`c_x` of `uchar4 c`) follows its parameter.
        let component = name.rsplit_once('_').filter(|(_, c)| matches!(*c, "x" | "y" | "z" | "w"));
        if let Some((stem, c)) = component {
            if let Some((_, new)) = renames.iter().find(|(old, _)| old == stem) {
                return format!("//@ {kw} {new}_{c}{}", &after[name.len()..]);
            }
        }
    }
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renamed_by_position() {
        let src = "//@ buffer a: f32[8]\n//@ param n = 8\n__global__ void k(const float* __restrict__ a, int n) {}\n";
        let names = kernel_params(src, None);
        assert_eq!(names, ["a", "n"]);
        let renames: Vec<(String, String)> = names.iter().enumerate().map(|(k, n)| (n.clone(), format!("arg{k}"))).collect();
        assert_eq!(rename_header("//@ buffer a: f32[8]", &renames), "//@ buffer arg0: f32[8]");
        assert_eq!(rename_header("//@ param n = 8", &renames), "//@ param arg1 = 8");
        assert_eq!(rename_header("//@ model volta", &renames), "//@ model volta");
        assert_eq!(kernel_params("__global__ void a(int x) {}\n__global__ void b(int y, int z) {}", Some("b")), ["y", "z"]);
        // The file's `//@ kernel` chooses when `--entry` does not, a template instance by its
        // template's name: not the file's first kernel.
        let two =
            "//@ kernel b<4>\n//@ buffer z: i32[4]\n__global__ void a(int* x) {}\ntemplate <int N>\n__global__ void b(int y, int* z) {}\n";
        assert_eq!(kernel_params(two, None), ["y", "z"]);
        assert_eq!(kernel_params(two, Some("a")), ["x"]);
    }
}
