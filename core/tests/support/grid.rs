//! The whole-launch kernels of `examples/grid`: their files, nvcc's code of them under their
//! `//@` lines, a launch of either, and the H100's printed buffers.

use std::path::Path;

use warpscope_core::block::WarpScheduler;
use warpscope_core::grid::{run_launch, LaunchRun};
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::model::ModelKind;
use warpscope_core::LaunchOptions;

/// `examples/grid/NAME`.
pub fn example(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/grid").join(name)).unwrap()
}

/// The whole launch of `text` under `model` and `scheduler`; it must compile.
pub fn launch(text: &str, model: ModelKind, scheduler: WarpScheduler) -> LaunchRun {
    let (k, d) = parse_kernel_with(text, &SourceOptions { target: Some(model.compile_target()), ..SourceOptions::default() });
    assert!(d.iter().all(|d| !d.is_error()), "{model:?}: {d:?}");
    run_launch(&k, &LaunchOptions { model: Some(model), warp_scheduler: scheduler, ..LaunchOptions::default() }).unwrap()
}

/// The kernel's parameter names, in order, from its `__global__` signature (so a kernel the C
/// front end refuses has them too).
pub fn params(source: &str) -> Vec<String> {
    let sig = source.split("__global__ void ").nth(1).expect("a kernel");
    let list = &sig[sig.find('(').unwrap() + 1..sig.find(')').unwrap()];
    list.split(',').map(|p| p.trim().rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap().to_string()).collect()
}

/// nvcc's code of the C example `file` (`ptx/NAME.ptx` or `sass/NAME.sm_90.sass`, written by
/// scripts/nvcc.sh and scripts/sass.sh) under the example's `//@` lines, its parameters renamed
/// to their positions (`argK`), as the CLI's `--nvcc` writes them.
pub fn compiled(file: &str, kind: &str) -> String {
    let source = example(file);
    let names = params(&source);
    let mut text = String::new();
    for line in source.lines().filter(|l| l.starts_with("//@")) {
        let mut words: Vec<String> = line.split(' ').map(String::from).collect();
        if matches!(words.get(1).map(String::as_str), Some("buffer" | "param")) {
            let name = words[2].trim_end_matches(':').to_string();
            if let Some(k) = names.iter().position(|p| *p == name) {
                words[2] = words[2].replacen(&name, &format!("arg{k}"), 1);
            }
        }
        text += &(words.join(" ") + "\n");
    }
    let stem = file.trim_end_matches(".cu");
    let body = match kind {
        "ptx" => format!("ptx/{stem}.ptx"),
        _ => format!("sass/{stem}.sm_90.sass"),
    };
    // SASS names no shared array's size: the window is a word per thread unless a line gives
    // it, as the reader's message says (the transpose's padded tile takes 32 x 33 words).
    if kind == "sass" && stem == "transpose_tiled" {
        text += "//@ buffer shared: f32[1056]\n";
    }
    text + &example(&body)
}

/// What scripts/h100_grid.py printed on the H100 for `file`: each buffer's name and bytes (hex,
/// or a large buffer's `fnv:HEX`).
pub fn h100_buffers(file: &str) -> Vec<(String, String)> {
    example("h100/h100.txt")
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("{file} ")))
        .map(|l| {
            let (name, hex) = l.split_once(' ').unwrap();
            (name.to_string(), hex.to_string())
        })
        .collect()
}

/// Buffer `name` of `run` as scripts/h100_grid.py prints one: its bytes in hex, or for a large
/// buffer (`hashed`) its 64-bit FNV-1a hash (`fnv:HEX`).
pub fn printed(run: &LaunchRun, name: &str, hashed: bool) -> String {
    let (b, words) = run.memory.buffer(name).unwrap_or_else(|| panic!("no buffer {name}"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take(b.size() as usize).collect();
    if hashed {
        let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
        return format!("fnv:{h:016x}");
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
