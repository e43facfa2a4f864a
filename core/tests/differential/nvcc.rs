//! NVIDIA's nvcc for the differential test: found where `scripts/nvcc.sh` installs it (or at
//! `$NVCC`), run once on one file holding every generated kernel (one nvcc call costs about half
//! a second, most of it start-up), and its PTX cut back into one text per kernel: nvcc's own
//! text, with the header and only that kernel's entry and functions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags the PTX fixtures use too.
pub const FLAGS: [&str; 4] = ["-O3", "-arch=sm_90", "-ptx", "-o"];

/// nvcc's path: `$NVCC`, else the pinned one `scripts/nvcc.sh` installs under `.tools/nvcc`.
pub fn find() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("NVCC") {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("NVCC={} is not a file", p.display())) };
    }
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.tools/nvcc/lib");
    let found = std::fs::read_dir(&lib)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("site-packages/nvidia/cu13/bin/nvcc"))
        .find(|p| p.is_file());
    found.ok_or_else(|| {
        format!(
            "nvcc is not installed (looked in {}): run `bash scripts/nvcc.sh`, which installs NVIDIA's nvcc 13.5 into .tools/nvcc \
             (scripts/setup-test.sh does it too), then run this test again; NVCC=/path/to/nvcc uses another",
            lib.display()
        )
    })
}

/// Compiles each `(name, text)` to PTX, in one nvcc call for all of them. When nvcc refuses
/// some, the kernels its errors point at are compiled alone (for their own messages) and the
/// others together again. The results are in the kernels' order.
pub fn compile_all(nvcc: &Path, dir: &Path, kernels: &[(String, String)]) -> Vec<Result<String, String>> {
    std::fs::create_dir_all(dir).expect("a directory for nvcc's files");
    let mut results: Vec<Option<Result<String, String>>> = kernels.iter().map(|_| None).collect();
    let mut batch: Vec<usize> = (0..kernels.len()).collect();
    while !batch.is_empty() {
        // Each kernel's first line in the file, to tell whose line an error is on.
        let mut starts = Vec::new();
        let mut all = String::new();
        for &k in &batch {
            starts.push(all.lines().count() + 1);
            all += &kernels[k].1;
            all.push('\n');
        }
        match compile(nvcc, dir, "all", &all) {
            Ok(ptx) => {
                let mut parts = split(&ptx);
                for &k in &batch {
                    let name = &kernels[k].0;
                    results[k] = Some(parts.remove(name).ok_or_else(|| format!("nvcc's PTX has no entry for `{name}`")));
                }
                break;
            }
            Err(why) => {
                let mut bad: Vec<usize> = error_lines(&why, "all.cu").map(|line| starts.partition_point(|&s| s <= line) - 1).collect();
                bad.dedup();
                if bad.is_empty() {
                    // No line to blame: each alone.
                    bad = (0..batch.len()).collect();
                }
                for &b in &bad {
                    let k = batch[b];
                    results[k] = Some(compile(nvcc, dir, &kernels[k].0, &kernels[k].1));
                }
                batch = batch.iter().enumerate().filter(|(b, _)| !bad.contains(b)).map(|(_, &k)| k).collect();
            }
        }
    }
    results.into_iter().map(|r| r.expect("every kernel compiled")).collect()
}

/// The lines of `file` nvcc's messages put errors on (`all.cu(120): error: ...`).
fn error_lines<'a>(messages: &'a str, file: &'a str) -> impl Iterator<Item = usize> + 'a {
    messages.lines().filter_map(move |l| {
        let rest = &l[l.find(&format!("{file}("))? + file.len() + 1..];
        let (line, after) = rest.split_once(')')?;
        after.starts_with(": error").then(|| line.parse().ok()).flatten()
    })
}

/// One nvcc call: `dir/NAME.cu` to `dir/NAME.ptx`.
pub fn compile(nvcc: &Path, dir: &Path, name: &str, text: &str) -> Result<String, String> {
    let cu = dir.join(format!("{name}.cu"));
    let ptx = dir.join(format!("{name}.ptx"));
    std::fs::write(&cu, text).map_err(|e| format!("writing {}: {e}", cu.display()))?;
    let out = Command::new(nvcc).args(FLAGS).arg(&ptx).arg(&cu).output().map_err(|e| format!("running {}: {e}", nvcc.display()))?;
    if !out.status.success() {
        return Err(format!("nvcc failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    std::fs::read_to_string(&ptx).map_err(|e| format!("reading {}: {e}", ptx.display()))
}

/// The kernel a mangled name in `text` belongs to: `_Z6k17_f0i` is `k17_f0`, a helper of
/// `k17`; `_ZZ3k17PiE2sh` is the `sh` declared in `k17`.
fn owner(text: &str) -> Option<String> {
    text.match_indices("_Z").find_map(|(at, _)| {
        let rest = &text[at + 2..];
        let rest = rest.strip_prefix('Z').unwrap_or(rest);
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let len: usize = digits.parse().ok()?;
        let ident = rest.get(digits.len()..digits.len() + len)?;
        Some(ident.split('_').next().unwrap_or(ident).to_string())
    })
}

/// Cuts a PTX file into one text per kernel: the header (`.version`, `.target`,
/// `.address_size` and the comments before them), then the kernel's own items in file order:
/// its entry, its functions and their declarations, and the comment lines that name them
/// (`// .globl`, nvcc's notes on demoted shared variables). Blank lines and comments that name
/// no kernel go with the item after them; items that name none go to every kernel.
pub fn split(ptx: &str) -> BTreeMap<String, String> {
    let mut header = String::new();
    // (owner, text); an item's owner is read from its code, a comment's from the comment.
    let mut items: Vec<(Option<String>, String)> = Vec::new();
    let mut pending = String::new();
    let mut current: Option<String> = None;
    let mut depth = 0i32;
    let code_of = |line: &str| line.split("//").next().unwrap_or("").trim().to_string();
    let owner_of = |item: &str| item.lines().find_map(|l| owner(&code_of(l)));
    for line in ptx.lines() {
        let code = code_of(line);
        if let Some(item) = current.as_mut() {
            item.push_str(line);
            item.push('\n');
            depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            if depth <= 0 && (code.ends_with('}') || code.ends_with(';')) {
                let item = current.take().expect("an item is open");
                items.push((owner_of(&item), item));
                depth = 0;
            }
            continue;
        }
        if code.is_empty() {
            match owner(line) {
                Some(k) => items.push((Some(k), std::mem::take(&mut pending) + line + "\n")),
                None => {
                    pending.push_str(line);
                    pending.push('\n');
                }
            }
        } else if [".version", ".target", ".address_size"].iter().any(|d| code.starts_with(d)) {
            header += &std::mem::take(&mut pending);
            header.push_str(line);
            header.push('\n');
        } else {
            let mut item = std::mem::take(&mut pending);
            item.push_str(line);
            item.push('\n');
            depth = code.matches('{').count() as i32 - code.matches('}').count() as i32;
            if depth <= 0 && (code.ends_with(';') || code.ends_with('}')) {
                items.push((owner_of(&item), item));
                depth = 0;
            } else {
                current = Some(item);
            }
        }
    }
    let mut kernels: BTreeMap<String, String> = BTreeMap::new();
    for (owner, _) in &items {
        if let Some(k) = owner {
            kernels.entry(k.clone()).or_insert_with(|| header.clone());
        }
    }
    for (owner, item) in &items {
        for (k, text) in kernels.iter_mut() {
            if owner.as_ref().is_none_or(|o| o == k) {
                text.push_str(item);
            }
        }
    }
    for text in kernels.values_mut() {
        text.push_str(&pending);
    }
    kernels
}

/// nvcc's real SASS of every kernel for `arch` (`sm_90`): one cubin of them all (`-O3 -cubin`),
/// `cuobjdump -sass` of it, cut into one dump per kernel (`Function : _Z3k17Pi` ... up to the
/// next), each under the dump's `code for sm_90` line, without the encoding-only lines. A kernel's helpers are in its own
/// function (whole-program compilation inlines them or places them after its code).
pub fn compile_sass(nvcc: &Path, dir: &Path, arch: &str, kernels: &[(String, String)]) -> Result<BTreeMap<String, String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let all: String = kernels.iter().map(|(_, text)| format!("{text}\n")).collect();
    let cu = dir.join("all_sass.cu");
    let cubin = dir.join("all_sass.cubin");
    std::fs::write(&cu, all).map_err(|e| format!("writing {}: {e}", cu.display()))?;
    let out = Command::new(nvcc)
        .args(["-O3", &format!("-arch={arch}"), "-cubin", "-o"])
        .arg(&cubin)
        .arg(&cu)
        .output()
        .map_err(|e| format!("running {}: {e}", nvcc.display()))?;
    if !out.status.success() {
        return Err(format!("nvcc failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    let cuobjdump = nvcc.with_file_name("cuobjdump");
    let out = Command::new(&cuobjdump).arg("-sass").arg(&cubin).output().map_err(|e| format!("running {}: {e}", cuobjdump.display()))?;
    if !out.status.success() {
        return Err(format!("cuobjdump failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    let dump = String::from_utf8_lossy(&out.stdout);
    let mut per_kernel: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in dump.lines() {
        if let Some(name) = line.trim().strip_prefix("Function : ") {
            current = owner(name.trim());
            if let Some(k) = &current {
                per_kernel.entry(k.clone()).or_insert_with(|| format!("\tcode for {arch}\n"));
            }
        }
        // The encoding-only lines (half of cuobjdump's text) are left out, so a long kernel
        // stays within warpscope's 256 KiB input limit; the reader takes both forms.
        if line.trim_start().starts_with("/* 0x") {
            continue;
        }
        if let Some(text) = current.as_ref().and_then(|k| per_kernel.get_mut(k)) {
            text.push_str(line);
            text.push('\n');
        }
    }
    Ok(per_kernel)
}
