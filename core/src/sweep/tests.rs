use super::*;
use alloc::vec;

const SINGLE_SASS: &str = include_str!("../../../examples/single_loop.sass");
const SINGLE_CU: &str = include_str!("../../../examples/single_loop.cu");
const DOUBLE_CU: &str = include_str!("../../../examples/double_loop.cu");

fn request(models: &[&str], presets: &[&str], to: i64) -> SweepRequest {
    SweepRequest {
        models: models.iter().map(|s| s.to_string()).collect(),
        presets: presets.iter().map(|s| s.to_string()).collect(),
        to,
        ..SweepRequest::default()
    }
}

fn all(s: &Sweep) -> Vec<SweepPoint> {
    (0..s.len()).map(|i| s.run(i)).collect()
}

#[test]
fn points_go_value_by_value_across_every_series() {
    let s = Sweep::new(SINGLE_SASS, &request(&["kepler", "pdom"], &["kepler", "maxwell"], 3)).unwrap();
    let labels: Vec<&str> = s.series().iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["kepler · kepler", "kepler · maxwell", "pdom · kepler", "pdom · maxwell"]);
    assert_eq!(s.len(), 16);
    assert_eq!(s.point(0), (0, 0));
    assert_eq!(s.point(5), (1, 1));
    let p = s.run(5);
    assert_eq!((p.series, p.x, p.stop.kind.name()), (1, 1, "exited"));
}

#[test]
fn the_kernel_header_picks_model_and_preset_when_the_request_does_not() {
    let s = Sweep::new(SINGLE_CU, &request(&[], &[], 0)).unwrap();
    assert_eq!(s.series()[0].label, "kepler · kepler");
    let s = Sweep::new(SINGLE_CU, &request(&["volta"], &[], 0)).unwrap();
    assert_eq!(s.series()[0].preset, "kepler", "the file's //@ preset wins over the model's default");
}

#[test]
fn requests_the_kernel_cannot_serve_are_errors() {
    let msg = |r: SweepRequest| Sweep::new(SINGLE_SASS, &r).err().unwrap()[0].message.clone();
    assert!(msg(SweepRequest { param: "m".into(), ..request(&[], &[], 3) }).contains("no param `m`"));
    assert!(msg(request(&["warp9"], &[], 3)).contains("unknown model `warp9`"));
    assert!(msg(request(&[], &["fermi"], 3)).contains("unknown cost preset `fermi`"));
    assert!(msg(SweepRequest { from: 5, to: 1, ..SweepRequest::default() }).contains("downwards"));
    assert!(msg(SweepRequest { from: 0, to: 1_000_000, ..SweepRequest::default() }).contains("narrow the range"));
    let broken = Sweep::new("//@ param n = 1\n  FROB R1;\n", &request(&[], &[], 1)).err().unwrap();
    assert_eq!(broken[0].span.line, 2, "kernel errors keep their location");
}

#[test]
fn split_makes_one_series_per_value() {
    let text = "//@ param n = 0\n//@ param k = 1\n  EXIT;\n";
    let r = SweepRequest { split: Some(Split { param: "k".into(), values: vec![1, 2] }), ..request(&[], &[], 1) };
    let s = Sweep::new(text, &r).unwrap();
    assert_eq!(s.series()[1].label, "kepler · kepler · k=2");
    assert_eq!(s.len(), 4);
}

#[test]
fn kepler_cycles_rise_32_per_divergent_lane_until_the_stack_spills() {
    let s = Sweep::new(SINGLE_SASS, &request(&["kepler"], &["kepler"], 16)).unwrap();
    let c: Vec<u64> = all(&s).iter().map(|p| p.metrics.cycles).collect();
    for n in 1..=15 {
        assert_eq!(c[n] - c[n - 1], 32, "n = {n}");
    }
    assert!(c[16] - c[15] > 32, "the 17th entry spills");
}

#[test]
fn double_loop_pushes_and_divergent_events_match_the_paper() {
    let s = Sweep::new(DOUBLE_CU, &request(&["kepler"], &["kepler"], 31)).unwrap();
    for p in all(&s) {
        let n = p.x as u64;
        assert_eq!(p.metrics.pushes, n * (65 - n) / 2 + 33, "n = {n}");
        assert_eq!(p.metrics.divergent_branches, n * (65 - n) / 2, "n = {n}");
    }
}

#[test]
fn volta_on_the_h100_preset_fits_the_measured_rolled_loops_exactly() {
    let data = measured::read_csv(include_str!("../../../examples/data/h100_loops.csv")).unwrap();
    for (text, kernel) in [(SINGLE_CU, "single_nounroll"), (DOUBLE_CU, "double_nounroll")] {
        let s = Sweep::new(text, &request(&["volta"], &["h100"], 31)).unwrap();
        let model: Vec<(i64, f64)> = all(&s).iter().map(|p| (p.x, p.metrics.cycles as f64)).collect();
        let set = data.iter().find(|d| d.build == "O3" && d.kernel == kernel && d.pattern == "table1").unwrap();
        let fit = measured::fit_base(&model, &set.points).unwrap();
        assert_eq!(fit.rows.len(), 32);
        for r in &fit.rows {
            assert_eq!(r.residual, 0.0, "{kernel} at n = {}: measured {} predicted {}", r.x, r.measured, r.predicted);
        }
    }
}

#[test]
fn runs_that_stop_early_say_why_and_where() {
    let text = "//@ param n = 0\nloop:\n  BRA loop;\n";
    let r = SweepRequest { step_limit: Some(100), ..request(&[], &[], 0) };
    let p = Sweep::new(text, &r).unwrap().run(0);
    assert_eq!(p.stop.kind.name(), "step_limit");
    assert!(p.stop.message.contains("100 steps"));
    assert_eq!(p.stop.line, Some(3));
}

#[test]
fn csv_has_one_row_per_point_and_the_fit_when_measured() {
    let s = Sweep::new(SINGLE_SASS, &request(&["kepler"], &["kepler", "maxwell"], 2)).unwrap();
    let points = all(&s);
    let csv = s.csv(&points, None);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "n,model,preset,cycles,warp_instructions,thread_instructions,simd_efficiency,pushes,pops,max_stack_depth,spills,fills,divergent_branches,steps,clock_window,stop_reason");
    assert_eq!(lines.len(), 7);
    assert!(lines[2].starts_with("0,kepler,maxwell,"), "{}", lines[2]);
    let measured = [(0, 1000.0), (1, 1032.0), (2, 1064.0)];
    let csv = s.csv(&points, Some(&measured));
    assert!(csv.lines().next().unwrap().ends_with(",measured,predicted,residual"));
    // Kepler adds 32 cycles per divergent lane, as "measured": no residual.
    assert!(csv.lines().nth(3).unwrap().ends_with(",1032,1032,0"), "{csv}");
}
