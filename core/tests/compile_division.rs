//! Integer division and remainder by constants compile to multiply-high sequences (no divide
//! instruction exists): for any dividend and any nonzero divisor, signed and unsigned, the
//! results equal Rust's wrapping `/` and `%` (C's truncating division).

use proptest::prelude::*;
use warpscope_core::kernel::parse_kernel;
use warpscope_core::sim::StopReason;
use warpscope_core::{launch, LaunchOptions};

fn int_literal(v: i32) -> String {
    if v == i32::MIN {
        "(-2147483647 - 1)".into()
    } else {
        format!("({v})")
    }
}

fn check(k1: i32, k2: i32, d: i32, du: u32) {
    let text = format!(
        "//@ buffer out: i32[64]\n//@ buffer uout: u32[64]\n__global__ void k(int* out, unsigned* uout) {{\n    int t = threadIdx.x;\n    int x = t * {} + {};\n    unsigned u = (unsigned)x;\n    out[t] = x / {d};\n    out[t + 32] = x % {d};\n    uout[t] = u / {du}u;\n    uout[t + 32] = u % {du}u;\n}}\n",
        int_literal(k1),
        int_literal(k2),
        d = int_literal(d),
    );
    let (k, diags) = parse_kernel(&text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}\n{text}");
    let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let words = &sim.state().machine.memory.words;
    for t in 0..32i32 {
        let x = t.wrapping_mul(k1).wrapping_add(k2);
        let u = x as u32;
        let t = t as usize;
        assert_eq!(words[0][t] as i32, x.wrapping_div(d), "{x} / {d}");
        assert_eq!(words[0][t + 32] as i32, x.wrapping_rem(d), "{x} % {d}");
        assert_eq!(words[1][t], u / du, "{u} / {du}");
        assert_eq!(words[1][t + 32], u % du, "{u} % {du}");
    }
}

#[test]
fn divisors_at_the_edges() {
    for d in [1, -1, 2, 3, 5, 7, 10, 100, 641, -3, -8, i32::MAX, i32::MIN, i32::MIN + 1, 1 << 30, 3 << 29] {
        for (k1, k2) in [(1, 0), (-1, 0), (1, i32::MIN), (0x0fff_ffff, 12345), (-0x7fff_fff1, i32::MAX)] {
            check(k1, k2, d, d.unsigned_abs().max(1));
        }
    }
    for du in [3u32, 7, 0x8000_0001, u32::MAX, 0xffff_fffe, 1 << 31, 641] {
        check(1, -5, 3, du);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_constant(k1 in any::<i32>(), k2 in any::<i32>(), d in any::<i32>().prop_filter("nonzero", |d| *d != 0), du in 1u32..) {
        check(k1, k2, d, du);
    }
}
