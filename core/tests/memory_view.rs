//! The memory view's facts on every example under every model: each step that issues a memory
//! instruction has an access, and the elements that step changes are among those it says it
//! writes (a load writes none).

use std::path::Path;

use warpscope_core::isa::Pc;
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::model::ModelKind;
use warpscope_core::{launch, LaunchOptions};

#[test]
fn every_step_s_writes_are_the_elements_it_changes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".cu") || n.ends_with(".sass"))
        .collect();
    names.sort();
    let mut accesses = 0;
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        for &model in ModelKind::ALL {
            let options = SourceOptions { target: Some(model.compile_target()), ..SourceOptions::default() };
            let (kernel, d) = parse_kernel_with(&text, &options);
            assert!(d.iter().all(|d| !d.is_error()), "{name}: {d:?}");
            let mut sim = launch(&kernel, &LaunchOptions { model: Some(model), step_limit: 400, ..LaunchOptions::default() }).unwrap();
            sim.run_to_end();
            let total = sim.steps();
            sim.seek(0);
            for t in 1..=total {
                let before = sim.state().machine.memory.words.clone();
                let pc = Pc(sim.timeline().record_at(t as usize - 1).unwrap().pc);
                sim.seek(t);
                let is_memory = sim.program().get(pc).is_some_and(|i| i.op.memory_use().is_some());
                let got = sim.step_access(t);
                assert_eq!(got.is_some(), is_memory, "{name} under {model:?}, step {t}");
                let Some(a) = got else { continue };
                accesses += 1;
                assert_eq!(a.pc, pc, "{name} under {model:?}, step {t}");
                assert_eq!(a.access.stray(), 0, "{name} under {model:?}, step {t}: {}", a.text);
                for (k, (old, new)) in before.iter().zip(&sim.state().machine.memory.words).enumerate() {
                    for i in (0..old.len()).filter(|&i| old[i] != new[i]) {
                        let written =
                            a.access.kind.writes() && a.cells.iter().any(|c| c.cell.buffer == k as u32 && c.cell.index == i as u32);
                        assert!(written, "{name} under {model:?}, step {t}: element {i} of buffer {k} changed; {}", a.text);
                    }
                }
            }
        }
    }
    assert!(accesses > 500, "only {accesses} accesses checked");
}
