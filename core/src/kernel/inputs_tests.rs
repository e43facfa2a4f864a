use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::kernel::parse_kernel;

const VECTOR_ADD: &str = "__global__ void add(const float* a, const float* b, float* c, int n) {\n    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) c[i] = a[i] + b[i];\n}\n";

const TWO_KERNELS: &str = "__global__ void first(int* a) { a[threadIdx.x] = 1; }\n\
    __global__ void second(int* a) { a[threadIdx.x] = 2; }\n";

fn parsed(text: &str) -> KernelInputs {
    let (k, d) = parse_kernel(text);
    assert!(!d.iter().any(|d| d.is_error()), "{text:?}: {d:?}");
    inputs(&k)
}

fn buffer(name: &str, elem: ElemType, len: &str, init: &str) -> HeaderLine {
    HeaderLine::Buffer { name: name.into(), elem, len: len.into(), init: init.into() }
}

fn set(text: &str, line: HeaderLine) -> String {
    set_header(text, &HeaderEdit::Set(line))
}

#[test]
fn every_header_line_reads_back_as_written() {
    let lines = vec![
        buffer("a", ElemType::I32, "32", "i"),
        buffer("b", ElemType::U32, "W * 2", "i < 4 ? 1 : 0"),
        buffer("c", ElemType::F32, "8", ""),
        buffer("d", ElemType::I64, "3", "[1, -2, 3]"),
        buffer("e", ElemType::U64, "2", "[min(2, 3), 7]"),
        buffer("f", ElemType::F64, "4", "i * 0.5"),
        HeaderLine::Param { name: "n".into(), value: "16".into() },
        HeaderLine::Param { name: "m".into(), value: "W - 1".into() },
        HeaderLine::Launch { grid: [1, 1, 1], block: [32, 1, 1], shared: None, block_idx: [0; 3], warp_idx: 0 },
        HeaderLine::Launch { grid: [2, 1, 1], block: [64, 1, 1], shared: Some(1024), block_idx: [1, 0, 0], warp_idx: 1 },
        HeaderLine::Launch { grid: [4, 3, 1], block: [16, 16, 1], shared: None, block_idx: [2, 1, 0], warp_idx: 3 },
        HeaderLine::Launch { grid: [2, 2, 2], block: [8, 4, 2], shared: None, block_idx: [1, 1, 1], warp_idx: 0 },
        HeaderLine::Launch { grid: [3, 2, 1], block: [32, 1, 1], shared: None, block_idx: [2, 0, 0], warp_idx: 0 },
    ];
    for line in lines {
        let text = alloc::format!("{line}\nEXIT;\n");
        let back = HeaderLine::of(&parsed(&text), &line.key());
        assert_eq!(back.as_ref(), Some(&line), "{text:?}");
        // Written again, the line is the same text.
        assert_eq!(back.unwrap().to_string(), line.to_string());
    }
    let kernel = HeaderLine::Kernel { name: "second".into() };
    let text = alloc::format!("{kernel}\n{TWO_KERNELS}");
    assert_eq!(HeaderLine::of(&parsed(&text), &HeaderKey::Kernel), Some(kernel));
}

#[test]
fn lists_are_written_as_read_and_fields_stay_on_their_line() {
    assert_eq!(buffer("a", ElemType::I32, "3", "[1,2,  3]").to_string(), "//@ buffer a: i32[3] = [1, 2, 3]");
    assert_eq!(HeaderLine::Param { name: "n".into(), value: " 5\n EXIT;".into() }.to_string(), "//@ param n = 5  EXIT;");
    let launch = HeaderLine::Launch { grid: [2, 1, 1], block: [64, 1, 1], shared: None, block_idx: [0; 3], warp_idx: 1 };
    assert_eq!(launch.to_string(), "//@ launch grid=2 block=64 warp=1");
}

#[test]
fn a_header_less_c_kernel_lists_its_made_inputs() {
    let k = parsed(VECTOR_ADD);
    let names: Vec<(&str, bool, &str, &str)> =
        k.buffers.iter().map(|b| (b.name.as_str(), b.auto, b.len.as_str(), b.init.as_str())).collect();
    assert_eq!(names, [("a", true, "32", "i"), ("b", true, "32", "i"), ("c", true, "32", "i")]);
    assert_eq!(k.buffers[2].elem, ElemType::F32);
    assert_eq!((k.params[0].name.as_str(), k.params[0].default.as_str(), k.params[0].auto), ("n", "32", true));
    assert_eq!(
        k.launch,
        LaunchInput {
            grid: [1; 3],
            block: [32, 1, 1],
            block_idx: [0; 3],
            warp_idx: 0,
            shared: None,
            line: None,
            first_thread: 0,
            lanes: 32
        }
    );
    assert_eq!((k.kernels.clone(), k.kernel.clone(), k.kernel_line), (vec!["add".to_string()], Some("add".to_string()), None));
    // A made input's line is the C parameter's.
    assert!(k.buffers.iter().all(|b| b.line == 1));
}

#[test]
fn set_adds_lines_at_line_one_of_a_header_less_file_and_they_take_over() {
    let text = set(VECTOR_ADD, buffer("c", ElemType::F32, "100", "i"));
    let text = set(&text, HeaderLine::Param { name: "n".into(), value: "50".into() });
    assert_eq!(text, alloc::format!("//@ buffer c: f32[100] = i\n//@ param n = 50\n{VECTOR_ADD}"));
    let k = parsed(&text);
    let c = k.buffers.iter().find(|b| b.name == "c").unwrap();
    assert_eq!((c.auto, c.len.as_str(), c.line), (false, "100", 1));
    assert_eq!((k.params[0].auto, k.params[0].default.as_str(), k.params[0].line), (false, "50", 2));
    // Removing both lines gives the file back, byte for byte.
    let back = set_header(&text, &HeaderEdit::Remove(HeaderKey::Param { name: "n".into() }));
    let back = set_header(&back, &HeaderEdit::Remove(HeaderKey::Buffer { name: "c".into() }));
    assert_eq!(back, VECTOR_ADD);
}

#[test]
fn set_goes_after_the_top_headers_and_replaces_a_line_where_it_is() {
    let text = "//@ title Sum\n// a comment\n\n//@ param n = 4\nint x;\n//@ launch grid=1 block=32\n__global__ void k() {}\n";
    assert_eq!(
        set(text, HeaderLine::Param { name: "m".into(), value: "2".into() }),
        "//@ title Sum\n// a comment\n\n//@ param n = 4\n//@ param m = 2\nint x;\n//@ launch grid=1 block=32\n__global__ void k() {}\n"
    );
    // A line in the middle of the file is replaced in place, its indentation kept.
    let middle = "//@ param n = 4\nEXIT;\n   //@  launch grid=1 block=32 // old\nNOP;\n";
    let launch = HeaderLine::Launch { grid: [2, 1, 1], block: [64, 1, 1], shared: None, block_idx: [0; 3], warp_idx: 1 };
    assert_eq!(set(middle, launch), "//@ param n = 4\nEXIT;\n   //@ launch grid=2 block=64 warp=1\nNOP;\n");
    assert_eq!(set(text, HeaderLine::Param { name: "n".into(), value: "n0".into() }).lines().nth(3), Some("//@ param n = n0"));
}

#[test]
fn set_keeps_crlf_and_a_missing_last_line_break() {
    let crlf = "//@ param n = 4\r\n__global__ void k(int* a) {}\r\n";
    let out = set(crlf, buffer("a", ElemType::I32, "8", "0"));
    assert_eq!(out, "//@ param n = 4\r\n//@ buffer a: i32[8] = 0\r\n__global__ void k(int* a) {}\r\n");
    assert_eq!(set(crlf, HeaderLine::Param { name: "n".into(), value: "5".into() }), crlf.replace('4', "5"));
    assert_eq!(set_header(&out, &HeaderEdit::Remove(HeaderKey::Buffer { name: "a".into() })), crlf);
    // A file of header lines only, with no break after the last.
    assert_eq!(set("//@ param n = 4", HeaderLine::Param { name: "m".into(), value: "1".into() }), "//@ param n = 4\n//@ param m = 1");
    assert_eq!(set("", HeaderLine::Kernel { name: "k".into() }), "//@ kernel k\n");
}

#[test]
fn remove_takes_every_line_of_its_key_and_nothing_else() {
    let text = "//@ kernel a\n//@ buffer ab: i32[4]\n//@ buffer a: i32[4]\n//@ param a = 1\nEXIT;\n//@ kernel b\n";
    assert_eq!(
        set_header(text, &HeaderEdit::Remove(HeaderKey::Kernel)),
        "//@ buffer ab: i32[4]\n//@ buffer a: i32[4]\n//@ param a = 1\nEXIT;\n"
    );
    assert_eq!(
        set_header(text, &HeaderEdit::Remove(HeaderKey::Buffer { name: "a".into() })),
        "//@ kernel a\n//@ buffer ab: i32[4]\n//@ param a = 1\nEXIT;\n//@ kernel b\n"
    );
    // The last kernel line is the one the parser reads: a set replaces it.
    assert_eq!(set(text, HeaderLine::Kernel { name: "c".into() }).lines().last(), Some("//@ kernel c"));
    assert_eq!(set_header("EXIT;\n", &HeaderEdit::Remove(HeaderKey::Launch)), "EXIT;\n");
}

#[test]
fn the_launch_and_kernel_choice_show_in_the_inputs() {
    let text = set(TWO_KERNELS, HeaderLine::Kernel { name: "second".into() });
    let text = set(&text, HeaderLine::Launch { grid: [2, 1, 1], block: [64, 1, 1], shared: None, block_idx: [0; 3], warp_idx: 1 });
    let k = parsed(&text);
    assert_eq!((k.kernel.as_deref(), k.kernel_line, k.kernels.len()), (Some("second"), Some(1), 2));
    assert_eq!(
        k.launch,
        LaunchInput {
            grid: [2, 1, 1],
            block: [64, 1, 1],
            block_idx: [0; 3],
            warp_idx: 1,
            shared: None,
            line: Some(2),
            first_thread: 32,
            lanes: 32
        }
    );
    // The made buffer holds one element per thread of the launch.
    assert_eq!(k.buffers[0].len, "128");
}
