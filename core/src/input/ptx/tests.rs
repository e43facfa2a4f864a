//! The PTX reader end to end: text in, a program that runs, under every target.

use alloc::string::String;
use alloc::vec::Vec;

use crate::compile::Target;
use crate::diag::Diagnostic;
use crate::input::{read, InputKind, SourceOptions};
use crate::kernel::Kernel;

pub(super) const VEC_ADD: &str = include_str!("../../../../examples/corpus/ptx/vector_add.ptx");

fn translate(text: &str, target: Target) -> (Kernel, Vec<Diagnostic>) {
    let mut k = Kernel::default();
    let mut d = Vec::new();
    read(text, &mut k, &SourceOptions { input: Some(InputKind::Ptx), target: Some(target), ..SourceOptions::default() }, &mut d);
    (k, d)
}

#[test]
fn nvcc_output_translates_for_every_target() {
    for &t in Target::ALL {
        let (k, d) = translate(VEC_ADD, t);
        let errors: Vec<&Diagnostic> = d.iter().filter(|x| x.is_error()).collect();
        assert!(errors.is_empty(), "{t:?}: {errors:?}\n{}", k.compiled.as_ref().map_or(String::new(), |c| c.listing.clone()));
        assert!(!k.program.is_empty());
    }
}

/// Names and initial values that the header's expressions write otherwise: `$`-names, a name
/// the header reserves (`t` is the thread index), NaN, the infinities, the smallest integer.
#[test]
fn memory_variables_with_names_and_values_the_header_spells_otherwise() {
    let text = r#".version 8.5
.target sm_90
.address_size 64
.global .align 8 .f64 $vals[4] = {0d7FF8000000000000, 0dFFF0000000000000, 0d7FF0000000000000, 1e300};
.global .align 8 .s64 t[1] = {-9223372036854775808};
.visible .entry k()
{
	.reg .b64 %rd<4>;
	.reg .f64 %fd<2>;
	mov.u64 %rd1, $vals;
	mov.u64 %rd2, t;
	ld.global.f64 %fd1, [%rd1];
	st.global.f64 [%rd1+8], %fd1;
	ld.global.s64 %rd3, [%rd2];
	st.global.s64 [%rd2], %rd3;
	ret;
}
"#;
    let (k, d) = translate(text, Target::Volta);
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    let names: Vec<&str> = k.buffers.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["_vals", "t_2"]);
    if let Err(e) = crate::kernel::instantiate(&k, &[]) {
        panic!("the initial values evaluate: {e:?}");
    }
}

#[test]
fn a_declared_name_that_is_no_ptx_name_is_an_error_where_it_stands() {
    let text = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .b8 a.b[4];\n\tret;\n}\n";
    let (_, d) = translate(text, Target::Volta);
    let e = d.iter().find(|x| x.is_error()).expect("an error");
    assert_eq!((e.span.line, e.span.col), (6, 14), "{e}");
    assert!(e.message.contains("not a PTX name"), "{e}");
}
