use alloc::string::{String, ToString};
use alloc::vec;

use super::*;

/// Made by the app's TypeScript encoder before decoding moved here (the browser's
/// CompressionStream): links already shared must keep opening.
const FROM_THE_JS_ENCODER: &str = "#v1.TZBBb8IwDIX_SvVOmxTEgJ2igXbZYfcdJg2EQupCRJpkjgtMqP99CqLdbpb9nv09X3GCnikIXQQa0-lrJU48VS-u3VeZ7fJSxUDMkZfGE8vD7HG1DkV3Npyq53V4-3z_WAcoJMOmzdBXBOhFr9DGmjw0Uh3bMmfKJNCh814hCyXouYI3gW4MNrbJMJUFg_MUvRgoZHuguvMEDY5dqCccdy6gV8hnKnuuYPruKEspbyDQKFANxxb6SUEi9OLOlKG_cKTkibEZwEpzo5CTdyPkGKkveFnuZRZjj4PGNVsbw4n4n0sO28g18Rh25P8Lv_WuHS6VZ5Gws9CwP9ZTRumY3DHVo6Rx-678B7s8adx-jv4X&embed=cfg,lanes";

fn error_of(fragment: &str) -> String {
    match decode(fragment) {
        Decoded::Error(m) => m,
        other => panic!("{fragment:.60}: expected an error, got {other:?}"),
    }
}

fn pack(json: &str) -> String {
    format!("#v1.{}", base64url::encode(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6)))
}

#[test]
fn a_link_from_the_old_encoder_opens_with_every_field() {
    let Decoded::Ok(link) = decode(FROM_THE_JS_ENCODER) else { panic!("does not decode") };
    assert_eq!(link.text, "//@ title <img src=x onerror=alert(1)>\n//@ warp 4\nEXIT\n");
    assert_eq!(link.params.get("n"), Some(&3.0));
    assert_eq!((link.choices.model.as_deref(), link.choices.preset.as_deref(), link.step, link.lane), (Some("pdom"), None, 2, 1));
    let compare = link.compare.as_ref().unwrap();
    assert_eq!(
        (compare.model.as_deref(), compare.schedule.as_deref(), compare.path_order.as_deref()),
        (Some("volta"), Some("round-robin"), None)
    );
    // Made before the compare choice had a preset: the compared model takes the main run's.
    assert_eq!(compare.preset, None);
    let sweep = link.sweep.as_ref().unwrap();
    assert_eq!((sweep.request.to, sweep.request.models.clone(), sweep.metric.as_str()), (3, vec![String::from("kepler")], "cycles"));
    assert_eq!(link.figure.as_deref(), Some("bs-fig2"));
    assert_eq!(link.embed, Some(vec![String::from("cfg"), String::from("lanes")]));
    // Made before links carried a PTX kernel's CUDA source.
    assert_eq!(link.cuda, None);
}

#[test]
fn encode_then_decode_is_the_same_link() {
    let mut link = Link::of_text("__global__ void k() {}\n<script>alert('x')</script> & \u{1F600}");
    link.params.insert("n".into(), -7.0);
    link.choices.if_convert = Some(false);
    link.choices.warp_scheduler = Some("lrr".into());
    link.choices.launch = Some(2);
    link.choices.block = Some([7, 1, 0]);
    link.step = 12345;
    link.warp = Some(5);
    link.compare = Some(RunChoices { path_order: Some("taken".into()), preset: Some("h100".into()), ..RunChoices::of_model("tf-stack") });
    link.compare_text = Some("__global__ void other() {}".into());
    let fragment = encode(&link);
    assert!(fragment.starts_with("#v1.") && fragment.bytes().all(|b| b.is_ascii_alphanumeric() || b"#._-".contains(&b)));
    assert_eq!(decode(&fragment), Decoded::Ok(alloc::boxed::Box::new(link.clone())));
    assert_eq!(decode(&fragment[1..]), Decoded::Ok(alloc::boxed::Box::new(link)), "the # is optional");
    assert_eq!(decode(""), Decoded::None);
    assert_eq!(decode("#"), Decoded::None);
}

#[test]
fn a_ptx_kernel_keeps_its_cuda_source_and_a_link_without_one_reads_as_before() {
    let mut link = Link::of_text(".version 8.5\n.target sm_90\n.visible .entry k()\n{\n\tret;\n}\n");
    link.cuda = Some("__global__ void k() {\n  // \u{fc}\n}\n".into());
    let fragment = encode(&link);
    assert_eq!(decode(&fragment), Decoded::Ok(alloc::boxed::Box::new(link.clone())));
    // Unset, the field is left out of the JSON, so a link without CUDA source is written as before.
    let plain = read::to_json(&Link::of_text("EXIT"));
    assert!(!plain.contains("cuda"), "{plain}");
    let Decoded::Ok(old) = decode(&pack("{\"v\": 1, \"text\": \"EXIT\"}")) else { panic!() };
    assert_eq!(*old, Link::of_text("EXIT"));
    let Decoded::Ok(null) = decode(&pack("{\"v\": 1, \"text\": \"EXIT\", \"cuda\": null}")) else { panic!() };
    assert_eq!(null.cuda, None);
}

#[test]
fn a_sass_kernel_keeps_its_ptx_beside_its_cuda_source() {
    let mut link = Link::of_text("\tcode for sm_90\n\t\tFunction : _Z1kv\n        /*0000*/                   EXIT ;\n");
    link.cuda = Some("__global__ void k() {}\n".into());
    link.ptx = Some(".version 9.0\n.target sm_90\n.visible .entry _Z1kv()\n{\n\tret;\n}\n".into());
    assert_eq!(decode(&encode(&link)), Decoded::Ok(alloc::boxed::Box::new(link)));
    assert!(!read::to_json(&Link::of_text("EXIT")).contains("ptx"));
    // All three as large as a kernel warpscope opens still read; a larger PTX is refused.
    let all = format!("{{\"v\": 1, \"text\": \"{0}\", \"cuda\": \"{0}\", \"ptx\": \"{0}\"}}", "x".repeat(MAX_KERNEL_BYTES));
    assert!(matches!(decode(&pack(&all)), Decoded::Ok(_)));
    let big = format!("{{\"v\": 1, \"text\": \"\", \"ptx\": \"{}\"}}", "x".repeat(MAX_KERNEL_BYTES + 1));
    assert!(error_of(&pack(&big)).contains("PTX is 256 KiB"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"ptx\": []}")).contains("PTX is malformed"));
}

#[test]
fn each_kind_of_broken_link_says_what_is_wrong() {
    assert!(error_of("#hello").contains("not a warpscope permalink"));
    assert!(error_of("#v.abc").contains("not a warpscope permalink"));
    assert!(error_of("#v2.abc").contains("format v2"));
    assert!(error_of("#v99999999999999999999.abc").contains("cannot read"));
    assert!(error_of("#v1.!!!").contains("not valid base64url"));
    assert!(error_of("#v1.").contains("not valid base64url"));
    // Copied short at a length no encoder makes.
    let whole = encode(&Link::of_text("NOP\nEXIT\n"));
    let body = whole.strip_prefix("#v1.").unwrap();
    let short = (1..body.len()).rev().find(|n| n % 4 == 1).unwrap();
    assert!(error_of(&format!("#v1.{}", &body[..short])).contains("cut short"), "{}", error_of(&format!("#v1.{}", &body[..short])));
    let good = encode(&Link::of_text("EXIT"));
    for cut in 1..8 {
        assert!(error_of(&good[..good.len() - cut]).contains("corrupted"), "cut {cut}");
    }
    assert!(error_of(&good[..good.len() - 4]).contains("corrupted or truncated"));
    assert!(error_of(&pack("[1, 2]")).contains("does not hold a saved state"));
    assert!(error_of(&pack("{\"v\": 2, \"text\": \"\"}")).contains("newer version of warpscope (format 2)"));
    for v in ["0", "\"1\"", "null", "-1"] {
        assert!(error_of(&pack(&format!("{{\"v\": {v}, \"text\": \"\"}}"))).contains("format number is malformed"), "v = {v}");
    }
    assert!(error_of(&pack("{\"text\": \"\"}")).contains("format number is malformed (none"));
    assert!(error_of(&pack("{\"v\": 1}")).contains("kernel text is missing"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"params\": {\"n\": \"3\"}}")).contains("params are malformed"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"step\": -1}")).contains("step or lane"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"step\": 1e300}")).contains("step or lane"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"compare\": 3}")).contains("compare choice"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"compareText\": 3}")).contains("other kernel compared"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"compare\": {\"model\": \"volta\", \"preset\": 7}}")).contains("compare choice"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"sweep\": {\"request\": {\"param\": \"n\"}}}")).contains("lack \"from\""));
    let bad_models = "{\"v\": 1, \"text\": \"\", \"sweep\": {\"request\": {\"param\": \"n\", \"from\": 0, \"to\": 1, \"models\": 5}, \"metric\": \"cycles\"}}";
    assert!(error_of(&pack(bad_models)).contains("sweep setting is malformed"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"cuda\": 3}")).contains("CUDA source is malformed"));
    assert!(error_of(&pack("{\"v\": 1, \"text\": \"\", \"warpScheduler\": 2}")).contains("warp scheduler is malformed"));
    for block in ["[1, 2]", "[1, -2, 0]", "\"7\"", "[1, 2, 4294967296]"] {
        assert!(
            error_of(&pack(&format!("{{\"v\": 1, \"text\": \"\", \"block\": {block}}}"))).contains("block choice is malformed"),
            "{block}"
        );
    }
}

#[test]
fn a_sweep_saved_with_snake_case_choices_keeps_them() {
    let old = "{\"v\": 1, \"text\": \"\", \"sweep\": {\"request\": {\"param\": \"n\", \"from\": 0, \"to\": 3, \"if_convert\": true, \
               \"path_order\": \"fall-through\", \"schedule\": \"lowest-pc\"}, \"metric\": \"cycles\"}}";
    let Decoded::Ok(link) = decode(&pack(old)) else { panic!("does not decode") };
    let choices = &link.sweep.as_ref().unwrap().request.choices;
    assert_eq!(
        (choices.if_convert, choices.path_order.as_deref(), choices.schedule.as_deref()),
        (Some(true), Some("fall-through"), Some("lowest-pc"))
    );
}

#[test]
fn sizes_are_bounded_before_work_is_done() {
    let long = format!("#v1.{}", "A".repeat(MAX_FRAGMENT_CHARS));
    assert!(error_of(&long).contains("too long"));
    // A deflate bomb: a few KiB that would unpack to 50 MB.
    let bomb = format!("{{\"v\": 1, \"text\": \"{}\"}}", " ".repeat(50 << 20));
    let packed = pack(&bomb);
    assert!(packed.len() < 100_000, "{}", packed.len());
    assert!(error_of(&packed).contains("unpacks to more than"));
    let big_kernel = format!("{{\"v\": 1, \"text\": \"{}\"}}", "x".repeat(MAX_KERNEL_BYTES + 1));
    assert!(error_of(&pack(&big_kernel)).contains("more than the"));
    // A kernel and its CUDA source may each be as large as a kernel warpscope opens, not more.
    let both = format!("{{\"v\": 1, \"text\": \"{0}\", \"cuda\": \"{0}\"}}", "x".repeat(MAX_KERNEL_BYTES));
    assert!(matches!(decode(&pack(&both)), Decoded::Ok(_)));
    let big_cuda = format!("{{\"v\": 1, \"text\": \"\", \"cuda\": \"{}\"}}", "x".repeat(MAX_KERNEL_BYTES + 1));
    assert!(error_of(&pack(&big_cuda)).contains("CUDA source is 256 KiB"));
}

#[test]
fn unknown_fields_and_embed_junk_are_ignored() {
    let json = "{\"v\": 1, \"text\": \"EXIT\", \"future\": [1], \"embed\": [\"cfg\", 3, \"<b>\"]}";
    let Decoded::Ok(link) = decode(&pack(json)) else { panic!() };
    assert_eq!(link.embed, Some(vec!["cfg".to_string(), "<b>".to_string()]));
    let Decoded::Ok(link) = decode(&format!("{}&embed=cfg%2Clanes&other=1", pack(json))) else { panic!() };
    assert_eq!(link.embed, Some(vec!["cfg".to_string(), "lanes".to_string()]));
}
