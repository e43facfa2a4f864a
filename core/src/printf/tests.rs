use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};

use super::*;

/// `fmt` printed with 32-bit words.
fn p(fmt: &str, words: &[u32]) -> String {
    Format::new(fmt, Vec::new()).render(words)
}
/// `fmt` with one 64-bit argument.
fn p64(fmt: &str, v: u64) -> String {
    p(fmt, &[v as u32, (v >> 32) as u32])
}
fn pf(fmt: &str, x: f64) -> String {
    p64(fmt, x.to_bits())
}

const INTS: [i32; 12] = [0, 1, -1, 7, -42, 255, 4096, 65535, -65536, 123_456_789, i32::MAX, i32::MIN];
const FLOATS: [f64; 12] = [0.0, 1.0, -1.0, 0.5, 0.125, 2.5, core::f64::consts::PI, -1234.5678, 1e-7, 6.02e23, 99.995, 1.1f32 as f64];

#[test]
fn integers_match_rust_where_c_agrees() {
    for v in INTS {
        let w = v as u32;
        assert_eq!(p("%d", &[w]), format!("{v}"));
        assert_eq!(p("%i", &[w]), format!("{v}"));
        assert_eq!(p("%8d|", &[w]), format!("{v:>8}|"));
        assert_eq!(p("%-8d|", &[w]), format!("{v:<8}|"));
        assert_eq!(p("%08d", &[w]), format!("{v:08}"));
        assert_eq!(p("%+d", &[w]), format!("{v:+}"));
        assert_eq!(p("%u", &[w]), format!("{w}"));
        assert_eq!(p("%x", &[w]), format!("{w:x}"));
        assert_eq!(p("%X", &[w]), format!("{w:X}"));
        assert_eq!(p("%o", &[w]), format!("{w:o}"));
        assert_eq!(p("%10x", &[w]), format!("{w:>10x}"));
        if w != 0 {
            // Rust writes `0x0` for zero; C writes `0` (below).
            assert_eq!(p("%#x", &[w]), format!("{w:#x}"));
        }
        let l = v as i64 * 3;
        assert_eq!(p64("%ld", l as u64), format!("{l}"));
        assert_eq!(p64("%lld", l as u64), format!("{l}"));
        assert_eq!(p64("%lu", l as u64), format!("{}", l as u64));
        assert_eq!(p64("%llx", l as u64), format!("{:x}", l as u64));
    }
}

#[test]
fn integers_where_c_differs_from_rust() {
    assert_eq!(p("%#x", &[0]), "0");
    assert_eq!(p("%#o", &[8]), "010");
    assert_eq!(p("%#o", &[0]), "0");
    assert_eq!(p("%#X", &[255]), "0XFF");
    assert_eq!(p("% d", &[5]), " 5");
    assert_eq!(p("% d", &[(-5i32) as u32]), "-5");
    assert_eq!(p("%.0d", &[0]), "");
    assert_eq!(p("%5.3d", &[7]), "  007");
    assert_eq!(p("%-5.3d|", &[(-7i32) as u32]), "-007 |");
    assert_eq!(p("%05.3d", &[7]), "  007", "a precision turns off `0`");
    assert_eq!(p("%hd", &[70_000]), "4464");
    assert_eq!(p("%hhd", &[200]), "-56");
    assert_eq!(p("%hu", &[65_537]), "1");
    assert_eq!(p("%hhx", &[0x1ff]), "ff");
    assert_eq!(p("%zu", &[7, 0]), "7");
}

#[test]
fn floats_match_rust_where_c_agrees() {
    for x in FLOATS {
        assert_eq!(pf("%f", x), format!("{x:.6}"));
        assert_eq!(pf("%lf", x), format!("{x:.6}"));
        assert_eq!(pf("%.3f", x), format!("{x:.3}"));
        assert_eq!(pf("%.0f", x), format!("{x:.0}"));
        assert_eq!(pf("%12.2f|", x), format!("{x:>12.2}|"));
        assert_eq!(pf("%-12.2f|", x), format!("{x:<12.2}|"));
        assert_eq!(pf("%012.3f", x), format!("{x:012.3}"));
        assert_eq!(pf("%+.1f", x), format!("{x:+.1}"));
    }
}

#[test]
fn floats_where_c_differs_from_rust() {
    // Exponents: a sign and at least two digits.
    assert_eq!(pf("%e", 123_456.0), "1.234560e+05");
    assert_eq!(pf("%E", 0.000_123), "1.230000E-04");
    assert_eq!(pf("%.2e", 6.02e23), "6.02e+23");
    assert_eq!(pf("%.0e", 5.0), "5e+00");
    assert_eq!(pf("%#.0e", 5.0), "5.e+00");
    assert_eq!(pf("%e", 1e-300), "1.000000e-300");
    assert_eq!(pf("%12.3e|", -1.5), "  -1.500e+00|");
    // %g: %f or %e by the exponent, trailing zeros removed.
    assert_eq!(pf("%g", 100_000.0), "100000");
    assert_eq!(pf("%g", 1e6), "1e+06");
    assert_eq!(pf("%g", 0.0001), "0.0001");
    assert_eq!(pf("%g", 0.000_01), "1e-05");
    assert_eq!(pf("%g", core::f64::consts::PI), "3.14159");
    assert_eq!(pf("%g", 0.0), "0");
    assert_eq!(pf("%g", 9.999_999_5), "10");
    assert_eq!(pf("%.3g", 1234.5), "1.23e+03");
    assert_eq!(pf("%.0g", 0.5), "0.5");
    assert_eq!(pf("%#g", 1.0), "1.00000");
    assert_eq!(pf("%G", 1e-10), "1E-10");
    assert_eq!(pf("%g", 2.5), "2.5");
    // Signs, infinities and NaN as glibc prints them.
    assert_eq!(pf("%f", -0.0), "-0.000000");
    assert_eq!(pf("%f", f64::INFINITY), "inf");
    assert_eq!(pf("%F", f64::NEG_INFINITY), "-INF");
    assert_eq!(pf("%05f", f64::INFINITY), "  inf");
    assert_eq!(pf("%f", f64::NAN), "nan");
    assert_eq!(pf("%f", -f64::NAN), "-nan");
    assert_eq!(pf("%+e", 1.0), "+1.000000e+00");
    assert_eq!(pf("% f", 1.0), " 1.000000");
    assert_eq!(pf("%#.0f", 3.0), "3.");
    // Ties round to even on the exact binary value, as glibc does.
    assert_eq!(pf("%.2f", 0.125), "0.12");
    assert_eq!(pf("%.0f", 2.5), "2");
    // A float argument is promoted to double: it prints the float's value.
    assert_eq!(pf("%f", 1.1f32 as f64), "1.100000");
    assert_eq!(pf("%.10f", 1.1f32 as f64), "1.1000000238");
}

#[test]
fn characters_strings_pointers_and_percent() {
    assert_eq!(p("%c%c", &[72, 105]), "Hi");
    assert_eq!(p("%-3c|%3c", &[65, 66]), "A  |  B");
    assert_eq!(p("%c", &[0x141]), "A", "converted to unsigned char");
    let f = Format::new("[%s] [%.2s] [%5s] [%-5s]", vec!["abc".into(), "abc".into(), "ab".into(), "ab".into()]);
    assert_eq!(f.render(&[]), "[abc] [ab] [   ab] [ab   ]");
    assert_eq!(p64("%p", 0x1000), "0x1000");
    assert_eq!(p64("%p", 0), "(nil)");
    assert_eq!(p("100%% sure", &[]), "100% sure");
    assert_eq!(p("no args\n", &[]), "no args\n");
    assert_eq!(p("%d %d", &[1]), "1 0", "missing words read as zero");
}

#[test]
fn argument_kinds_follow_the_directives() {
    let f = Format::new("%d %f %s %ld %c %p %hd", vec!["x".into()]);
    let kinds: Vec<ArgKind> = f.specs().map(Spec::kind).collect();
    use ArgKind::*;
    assert_eq!(kinds, [Word, Pair, Str, Pair, Word, Pair, Word]);
    assert_eq!(f.words(), 9);
}

#[test]
fn directives_it_cannot_print_stay_text_with_a_problem() {
    for (fmt, shown, says) in [
        ("a %y b", "a %y b", "conversion `y`"),
        ("%*d", "%*d", "`*`"),
        ("%.*f", "%.*f", "`*`"),
        ("50%", "50%", "ends inside"),
        ("%a", "%a", "hexadecimal"),
        ("%n", "%n", "%n"),
        ("%Lf", "%Lf", "long double"),
        ("%é", "%é", "conversion `é`"),
    ] {
        let (_, problems) = parse_format(fmt);
        assert_eq!(problems.len(), 1, "{fmt}");
        assert!(problems[0].message.contains(says), "{fmt}: {}", problems[0].message);
        assert_eq!(p(fmt, &[1, 2]), shown);
    }
    assert_eq!(parse_format("%5.2f %%").1, []);
}

#[test]
fn quoting_round_trips() {
    for s in ["thread %d: sum = %f\n", "tab\there \"q\" back\\slash", "bell\u{7} nul\0 del\u{7f}", "ünï ✓", ""] {
        let q = quote(s);
        assert!(!q[1..q.len() - 1].contains(['\n', '\t']), "{q}");
        assert_eq!(unquote(&q).as_deref(), Ok(s), "{q}");
    }
    assert_eq!(quote("a\nb"), "\"a\\nb\"");
    assert!(unquote("\"bad \\q\"").unwrap_err().contains("\\q"));
    assert!(unquote("\"open").is_err());
    assert!(unquote("\"a\"b\"").is_err());
    assert!(unquote("\"\\x4\"").is_err());
}

#[test]
fn the_log_tags_steps_shares_chunks_and_cuts_at_its_cap() {
    let mut log = OutputLog::default();
    log.push(3, 0, &[1, 2]);
    log.push(5, 0, &[3, 4]);
    log.seal(7);
    let copy = log.clone();
    log.push(1, 1, &[]);
    log.seal(9);
    let steps: Vec<(u64, u8)> = log.records().map(|r| (r.step, r.lane)).collect();
    assert_eq!(steps, [(7, 3), (7, 5), (9, 1)]);
    assert_eq!(copy.len(), 2, "a checkpoint keeps what it had");
    assert_eq!(log.records().nth(1).map(|r| r.args().to_vec()), Some(vec![3, 4]));
    for k in 0..MAX_RECORDS as u64 {
        log.push(0, 0, &[k as u32]);
        log.seal(10 + k);
    }
    assert_eq!(log.len(), MAX_RECORDS);
    assert_eq!(log.truncated_at(), Some(10 + MAX_RECORDS as u64 - 3));
    assert!(log.clone_bytes() < 100 * core::mem::size_of::<Printed>(), "full chunks are shared");
    let formats = [Format::new("%d %d\n", Vec::new()), Format::new("hi\n", Vec::new())];
    let shown = lines(&formats, &log);
    assert_eq!(shown.len(), MAX_RECORDS + 1);
    assert_eq!(shown[0], OutputLine { step: 7, lane: Some(3), text: "1 2\n".to_string() });
    assert_eq!(shown[2].text, "hi\n");
    let last = shown.last().unwrap();
    assert_eq!((last.lane, last.step), (None, 10 + MAX_RECORDS as u64 - 3));
    assert!(last.text.contains("truncated"));
}
