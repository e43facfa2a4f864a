//! How a kernel runs, as one value: every choice a user names besides the kernel, its inputs
//! and the run's limits. The CLI's flags, a run request, a permalink (and its compare partner) and
//! a sweep's fixed choices all hold a `RunChoices`, so a new choice is added here once and every
//! front door carries it; each name is read by `choice::Named` when the run resolves.

use alloc::string::String;
use alloc::vec::Vec;

use super::choice::{self, Named};
use super::request::{ChoiceError, Field};
use crate::block::WarpScheduler;
use crate::model::{GroupOrder, ModelKind, PathOrder};

/// Whether a name is a known one, or the message saying it is not.
type NameCheck = fn(&str) -> Result<(), String>;

/// Choices by name; `None` falls back to the kernel's `//@` header, then to the default. Field
/// names are a permalink's (camelCase).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunChoices {
    /// The reconvergence model (`kepler`, `pdom`, `volta` ...).
    pub model: Option<String>,
    /// The cost preset (`kepler`, `h100`, `h100-timed` ...).
    pub preset: Option<String>,
    /// For C kernels: if-convert short branches.
    pub if_convert: Option<bool>,
    /// PDOM stacks: `taken` or `fall-through` first.
    pub path_order: Option<String>,
    /// Volta: which group of a warp's lanes runs (`model::GroupOrder`: `h100`, `lowest-pc`,
    /// `round-robin`).
    pub schedule: Option<String>,
    /// A whole launch: which warp of a block issues next (`gto`, `lrr` or `random`).
    pub warp_scheduler: Option<String>,
    /// Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
    /// ran (its shared-memory reads see what the inputs put there, not other warps' writes);
    /// unset or false: a launch of several warps runs whole.
    pub one_warp: Option<bool>,
    /// A file with `main()` runs whole, and its launch number `launch` (from 0; unset: the
    /// first) is the run shown; `kernel_only` runs the kernel alone, with the `//@` inputs.
    pub launch: Option<u32>,
    pub kernel_only: Option<bool>,
    /// A program's launch: the block the views show (unset: the first, or the one where the
    /// launch failed). A kernel run alone names its block in its `//@ launch` line.
    pub block: Option<[u32; 3]>,
}

impl RunChoices {
    /// Only the model chosen.
    pub fn of_model(model: &str) -> RunChoices {
        RunChoices { model: Some(model.into()), ..RunChoices::default() }
    }

    /// These choices, with `under`'s where these leave one unset (command-line flags over a
    /// permalink's; compare's partner over the main run's).
    pub fn over(self, under: &RunChoices) -> RunChoices {
        let or = |a: Option<String>, b: &Option<String>| a.or_else(|| b.clone());
        RunChoices {
            model: or(self.model, &under.model),
            preset: or(self.preset, &under.preset),
            if_convert: self.if_convert.or(under.if_convert),
            path_order: or(self.path_order, &under.path_order),
            schedule: or(self.schedule, &under.schedule),
            warp_scheduler: or(self.warp_scheduler, &under.warp_scheduler),
            one_warp: self.one_warp.or(under.one_warp),
            launch: self.launch.or(under.launch),
            kernel_only: self.kernel_only.or(under.kernel_only),
            block: self.block.or(under.block),
        }
    }

    /// Every name given that is not a known one, with the words every front door uses.
    pub fn problems(&self) -> Vec<ChoiceError> {
        let checks: [(Field, &Option<String>, NameCheck); 5] = [
            (Field::Model, &self.model, |v| ModelKind::choose(v).map(drop)),
            (Field::Preset, &self.preset, |v| choice::preset(v).map(drop)),
            (Field::PathOrder, &self.path_order, |v| PathOrder::choose(v).map(drop)),
            (Field::Schedule, &self.schedule, |v| GroupOrder::choose(v).map(drop)),
            (Field::WarpScheduler, &self.warp_scheduler, |v| WarpScheduler::choose(v).map(drop)),
        ];
        checks
            .into_iter()
            .filter_map(|(field, value, check)| {
                let value = value.as_ref()?;
                check(value).err().map(|message| ChoiceError { field, value: value.clone(), message })
            })
            .collect()
    }

    /// The model named, if it is a known one.
    pub fn model_kind(&self) -> Option<ModelKind> {
        self.model.as_deref().and_then(ModelKind::from_name)
    }
    pub fn path_order_or_default(&self) -> PathOrder {
        self.path_order.as_deref().and_then(PathOrder::from_name).unwrap_or_default()
    }
    pub fn group_order_or_default(&self) -> GroupOrder {
        self.schedule.as_deref().and_then(GroupOrder::from_name).unwrap_or_default()
    }
    pub fn warp_scheduler_or_default(&self) -> WarpScheduler {
        self.warp_scheduler.as_deref().and_then(WarpScheduler::from_name).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_choices_win_over_the_ones_beneath() {
        let flags = RunChoices { schedule: Some("lowest-pc".into()), ..RunChoices::of_model("volta") };
        let link = RunChoices { preset: Some("h100".into()), warp_scheduler: Some("lrr".into()), ..RunChoices::of_model("pdom") };
        let both = flags.over(&link);
        assert_eq!(both.model.as_deref(), Some("volta"));
        assert_eq!(both.preset.as_deref(), Some("h100"));
        assert_eq!(both.schedule.as_deref(), Some("lowest-pc"));
        assert_eq!(both.warp_scheduler_or_default(), WarpScheduler::Lrr);
    }

    #[test]
    fn every_unknown_name_is_a_problem_of_its_own_field() {
        let bad = RunChoices { warp_scheduler: Some("fifo".into()), path_order: Some("taken".into()), ..RunChoices::of_model("fermi2") };
        let fields: Vec<Field> = bad.problems().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, [Field::Model, Field::WarpScheduler]);
        assert!(bad.problems()[1].message.contains("gto, lrr, random"), "{}", bad.problems()[1].message);
    }
}
