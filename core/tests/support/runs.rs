//! Every model once per value of the policy it reads: the runs a test repeats a kernel under.

use warpscope_core::model::about::Policy;
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder};

/// Every model, once per value of the policy it reads: (model, path order, schedule, label).
pub fn runs() -> Vec<(ModelKind, Option<&'static str>, Option<&'static str>, String)> {
    let mut v = Vec::new();
    for &model in ModelKind::ALL {
        match model.policy() {
            Some(Policy::PathOrder) => {
                for o in PathOrder::ALL {
                    v.push((model, Some(o.name()), None, format!("{} (path order {})", model.name(), o.name())));
                }
            }
            Some(Policy::Schedule) => {
                for s in GroupOrder::ALL {
                    v.push((model, None, Some(s.name()), format!("{} (schedule {})", model.name(), s.name())));
                }
            }
            None => v.push((model, None, None, model.name().to_string())),
        }
    }
    v
}
