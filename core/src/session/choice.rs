//! Choices a user names: a model, a cost preset, a path order, a schedule, an input language.
//! Each is read from its name here, and only here, so every front door (the CLI's flags, the
//! page's selects, a permalink, a sweep, a `//@` header) accepts the same names and refuses an
//! unknown one with the same words.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::block::WarpScheduler;
use crate::input::InputKind;
use crate::model::{GroupOrder, ModelKind, PathOrder};
use crate::sim::CostModel;

/// A choice with a fixed set of names.
pub trait Named: Sized + Copy + 'static {
    /// What the choice is, for messages: `model`, `path order`, ...
    const WHAT: &'static str;
    /// Every value, in the order lists show them.
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;

    fn from_name(name: &str) -> Option<Self> {
        Self::all().iter().copied().find(|v| v.name() == name)
    }
    /// Every name, in list order.
    fn names() -> Vec<&'static str> {
        Self::all().iter().map(|v| v.name()).collect()
    }
    /// Every name, comma-separated.
    fn known() -> String {
        Self::names().join(", ")
    }
    /// The value called `name`, or the message every front door gives for an unknown one.
    fn choose(name: &str) -> Result<Self, String> {
        Self::from_name(name).ok_or_else(|| unknown(Self::WHAT, name, &Self::known()))
    }
}

/// `unknown model `x` chosen (known: a, b)`.
pub fn unknown(what: &str, name: &str, known: &str) -> String {
    format!("unknown {what} `{name}` chosen (known: {known})")
}

/// The cost preset called `name`.
pub fn preset(name: &str) -> Result<CostModel, String> {
    CostModel::preset(name).ok_or_else(|| unknown("cost preset", name, &CostModel::known_presets()))
}

impl Named for ModelKind {
    const WHAT: &'static str = "model";
    fn all() -> &'static [Self] {
        ModelKind::ALL
    }
    fn name(self) -> &'static str {
        ModelKind::name(self)
    }
}

impl Named for PathOrder {
    const WHAT: &'static str = "path order";
    fn all() -> &'static [Self] {
        PathOrder::ALL
    }
    fn name(self) -> &'static str {
        PathOrder::name(self)
    }
}

impl Named for GroupOrder {
    const WHAT: &'static str = "schedule";
    fn all() -> &'static [Self] {
        GroupOrder::ALL
    }
    fn name(self) -> &'static str {
        GroupOrder::name(self)
    }
}

impl Named for WarpScheduler {
    const WHAT: &'static str = "warp scheduler";
    fn all() -> &'static [Self] {
        WarpScheduler::ALL
    }
    fn name(self) -> &'static str {
        WarpScheduler::name(self)
    }
}

impl Named for InputKind {
    const WHAT: &'static str = "input language";
    fn all() -> &'static [Self] {
        InputKind::ALL
    }
    fn name(self) -> &'static str {
        InputKind::name(self)
    }
}
