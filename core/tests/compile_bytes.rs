//! Bytes and halfwords in CUDA C, as courses use them: `unsigned char` images and text,
//! `char`, `short`, `uint8_t`. Values live widened in registers and are narrowed when assigned;
//! memory holds them packed, four or two to a word. Each kernel's results are computed here.

use warpscope_core::kernel::{parse_kernel, Kernel};
use warpscope_core::machine::{Elem, ElemType};
use warpscope_core::sim::{Sim, Status, StopReason};
use warpscope_core::{launch, LaunchOptions};

fn load(text: &str) -> Kernel {
    let (k, diags) = parse_kernel(text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    k
}

fn run_with(text: &str, params: &[(&str, i64)]) -> Sim {
    let opts = LaunchOptions { params: params.iter().map(|(n, v)| (n.to_string(), (*v).into())).collect(), ..LaunchOptions::default() };
    let mut sim = launch(&load(text), &opts).expect("launches");
    sim.run_to_end();
    sim
}

/// Buffer `name`'s elements as integers.
fn ints(sim: &Sim, name: &str) -> Vec<i64> {
    let (b, words) = sim.state().machine.memory.buffer(name).unwrap_or_else(|| panic!("no buffer `{name}`"));
    b.values(words)
        .map(|e| match e {
            Elem::I32(v) => v as i64,
            Elem::U32(v) => v as i64,
            e => panic!("`{name}` holds {e:?}"),
        })
        .collect()
}

/// PMPP's text histogram (chapter 9): the text in a byte buffer, letters counted in bins of four.
const TEXT_HISTOGRAM: &str = r#"//@ buffer data: u8[48] = "programming massively parallel processors"
//@ buffer histo: u32[7] = 0
//@ launch grid=1 block=32
__global__ void histo_kernel(char *data, unsigned int length, unsigned int *histo) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int stride = blockDim.x * gridDim.x;
    for (unsigned int k = i; k < length; k += stride) {
        int alphabet_position = data[k] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) {
            atomicAdd(&histo[alphabet_position / 4], 1);
        }
    }
}
"#;

#[test]
fn a_text_in_a_byte_buffer_is_counted_letter_by_letter() {
    let text = b"programming massively parallel processors";
    let sim = run_with(TEXT_HISTOGRAM, &[("length", text.len() as i64)]);
    assert_eq!(sim.state().status, Status::Exited);
    let mut want = vec![0i64; 7];
    for c in text {
        if c.is_ascii_lowercase() {
            want[((c - b'a') / 4) as usize] += 1;
        }
    }
    assert_eq!(ints(&sim, "histo"), want);
    // The text is the buffer's first bytes; the rest are zeros. `char*` made it signed bytes.
    let data = ints(&sim, "data");
    assert_eq!(data.len(), 48);
    assert!(data[..text.len()].iter().zip(text).all(|(&a, &b)| a == b as i64));
    assert!(data[text.len()..].iter().all(|&b| b == 0));
    let (b, _) = sim.state().machine.memory.buffer("data").unwrap();
    assert_eq!(b.elem, ElemType::U8, "the header's type is kept");
}

/// PMPP's colour-to-greyscale (chapter 3): three bytes a pixel in, one out.
const GREYSCALE: &str = r#"//@ buffer Pin: u8[96] = i * 7
//@ launch grid=1 block=32
#define CHANNELS 3
__global__ void colorToGreyscaleConversion(unsigned char *Pout, unsigned char *Pin, int width, int height) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) {
        int greyOffset = row * width + col;
        int rgbOffset = greyOffset * CHANNELS;
        unsigned char r = Pin[rgbOffset];
        unsigned char g = Pin[rgbOffset + 1];
        unsigned char b = Pin[rgbOffset + 2];
        Pout[greyOffset] = 0.21f * r + 0.71f * g + 0.07f * b;
    }
}
"#;

#[test]
fn an_image_of_bytes_becomes_grey() {
    let sim = run_with(GREYSCALE, &[("width", 30), ("height", 1)]);
    assert_eq!(sim.state().status, Status::Exited);
    let pin: Vec<u8> = (0..96).map(|i| (i * 7) as u8).collect();
    let want: Vec<i64> = (0..32)
        .map(|o| {
            if o >= 30 {
                // Not written: the index its made buffer started with.
                return o as i64;
            }
            let [r, g, b] = [pin[3 * o], pin[3 * o + 1], pin[3 * o + 2]].map(|x| x as f32);
            (0.21f32 * r + 0.71f32 * g + 0.07f32 * b) as u8 as i64
        })
        .collect();
    assert_eq!(ints(&sim, "Pout"), want);
    let listing = &load(GREYSCALE).compiled.expect("compiled").listing;
    assert!(listing.contains("LD.E.U8") && listing.contains("ST.E.U8"), "{listing}");
}

#[test]
fn narrowing_wraps_and_arithmetic_promotes_as_c_says() {
    let text = r#"//@ buffer out: i32[256]
//@ launch grid=1 block=32
__global__ void k(int *out) {
    int t = threadIdx.x;
    unsigned char c = 250 + t;       // wraps past 255
    c += 10;                         // computed in int, narrowed again
    signed char s = 120 + t;         // wraps to negative
    short h = 32760 + t * 1000;
    unsigned short u = -t;
    char neg = -t;
    out[t * 8 + 0] = c;
    out[t * 8 + 1] = s;
    out[t * 8 + 2] = h;
    out[t * 8 + 3] = u;
    out[t * 8 + 4] = c << 4;         // an int: no wrap
    out[t * 8 + 5] = (unsigned char)(t * 37) + (short)(t * 5000);
    out[t * 8 + 6] = neg >> 1;       // arithmetic shift of a signed char
    out[t * 8 + 7] = sizeof(char) * 100 + sizeof(unsigned short) * 10 + sizeof(uint8_t);
}
"#;
    let sim = run_with(text, &[]);
    assert_eq!(sim.state().status, Status::Exited);
    let got = ints(&sim, "out");
    for t in 0..32i64 {
        let c = ((250 + t) as u8).wrapping_add(10);
        let want = [
            c as i64,
            (120 + t) as i8 as i64,
            (32760 + t * 1000) as i16 as i64,
            (-t) as u16 as i64,
            (c as i64) << 4,
            (t * 37) as u8 as i64 + (t * 5000) as i16 as i64,
            ((-t) as i8 >> 1) as i64,
            121, // 1, 2 and 1 bytes
        ];
        assert_eq!(&got[t as usize * 8..t as usize * 8 + 8], &want, "lane {t}");
    }
}

#[test]
fn shared_bytes_and_halfwords_pack_into_words() {
    let text = r#"//@ launch grid=1 block=32
__global__ void k(const unsigned short *in, unsigned char *out) {
    __shared__ unsigned char tile[32];
    __shared__ short halves[32];
    int t = threadIdx.x;
    tile[t] = in[t] >> 2;
    halves[t] = -in[t];
    __syncthreads();
    out[t] = tile[31 - t] + (halves[t] & 1);
}
"#;
    let sim = run_with(text, &[]);
    assert_eq!(sim.state().status, Status::Exited);
    // `in` was made for the parameter: element i holds i.
    let want: Vec<i64> = (0..32i32).map(|t| ((31 - t) >> 2) as i64 + ((-(t as i16)) & 1) as i64).collect();
    assert_eq!(ints(&sim, "out"), want);
    let memory = &sim.state().machine.memory;
    let tile = memory.buffers.iter().find(|b| b.name == "tile").expect("a shared buffer");
    assert_eq!((tile.elem, tile.elements(), tile.len), (ElemType::U8, 32, 8), "32 bytes in 8 words");
}

#[test]
fn a_byte_past_the_end_is_a_fault_naming_the_element() {
    let text = r#"//@ buffer out: u8[30]
//@ launch grid=1 block=32
__global__ void k(unsigned char *out) {
    out[threadIdx.x] = 1;
}
"#;
    let mut sim = launch(&load(text), &LaunchOptions::default()).expect("launches");
    assert!(matches!(sim.run_to_end(), StopReason::Fault { .. }));
    let Status::Fault { message, .. } = &sim.state().status else { panic!("{:?}", sim.state().status) };
    assert!(message.contains("lane 30") && message.contains("past the end of `out`: element 30, and `out` holds 30"), "{message}");
}

#[test]
fn a_char_array_takes_a_string_and_an_open_size_its_initialiser_gives() {
    let text = r#"//@ buffer out: i32[32]
__constant__ char key[] = "warp";
__device__ unsigned char table[] = {1, 2, 250, 255};
__constant__ int grid[][2] = {{1, 2}, {3, 4}, {5}};
__global__ void k(int *out) {
    int t = threadIdx.x;
    char c = key[t % 5];
    if (t < 2) printf("%c%d\n", c, table[t + 2]);
    out[t] = c + table[t % 4] + grid[t % 3][1];
}
"#;
    let sim = run_with(text, &[]);
    assert_eq!(sim.state().status, Status::Exited);
    let memory = &sim.state().machine.memory;
    let count = |name: &str| memory.buffers.iter().find(|b| b.name == name).map(|b| (b.elem, b.elements()));
    assert_eq!(count("key"), Some((ElemType::I8, 5)), "four letters and the zero");
    assert_eq!(count("table"), Some((ElemType::U8, 4)));
    assert_eq!(count("grid"), Some((ElemType::I32, 6)), "three rows of two");
    let key = b"warp\0";
    let (table, second) = ([1i64, 2, 250, 255], [2i64, 4, 0]);
    let want: Vec<i64> = (0..32).map(|t| key[t % 5] as i64 + table[t % 4] + second[t % 3]).collect();
    assert_eq!(ints(&sim, "out"), want);
    let printed: Vec<String> = sim.output().into_iter().map(|l| l.text).collect();
    assert_eq!(printed, ["w250\n", "a255\n"]);
    let (_, diags) = parse_kernel("__constant__ int w[];\n__global__ void k(int *a) { a[0] = w[0]; }\n");
    assert!(
        diags.iter().any(|d| d.is_error() && d.message.contains("only the first dimension, and only with an initialiser")),
        "{diags:?}"
    );
}

#[test]
fn a_conditional_promotes_a_byte_arm_and_atomics_refuse_bytes() {
    let text = r#"//@ buffer d: u8[32] = 250 + i
//@ buffer out: i32[32]
__global__ void k(const unsigned char *d, int *out) {
    int t = threadIdx.x;
    out[t] = (t < 4) ? d[t] : -1;
}
"#;
    let sim = run_with(text, &[]);
    let want: Vec<i64> = (0..32).map(|t| if t < 4 { (250 + t) % 256 } else { -1 }).collect();
    assert_eq!(ints(&sim, "out"), want, "the -1 arm is not cut to a byte");
    let (_, diags) = parse_kernel("__global__ void k(unsigned char *h) {\n    atomicAdd(&h[threadIdx.x], 1);\n}\n");
    let e = diags.iter().find(|d| d.is_error()).expect("an error");
    assert!(e.message.contains("`atomicAdd` on a `unsigned char`") && e.span.line == 2, "{e:?}");
}

#[test]
fn an_unwritten_shared_byte_is_named_as_the_byte_read() {
    let text = r#"//@ buffer out: i32[32]
__global__ void k(int *out) {
    __shared__ unsigned char s[8];
    if (threadIdx.x == 0) s[4] = 1;
    __syncthreads();
    out[threadIdx.x] = s[6];
}
"#;
    let kernel = load(text);
    let mut sim = launch(&kernel, &LaunchOptions::default()).expect("launches");
    sim.run_to_end();
    let warned: Vec<String> = warpscope_core::session::run_warnings(&kernel, &sim.state().machine).into_iter().map(|d| d.message).collect();
    assert!(warned.iter().any(|w| w.contains("read shared `s[6]`")), "{warned:?}");
}
