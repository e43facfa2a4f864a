//! The checks (`crate::sanitize`) on a resolved request: every launch of its program, each from
//! what `main` gave it, or its kernel's launch alone. The CLI's `check` and the page's Problems
//! panel both come here.

use alloc::string::String;
use alloc::vec::Vec;

use super::request::Resolved;
use crate::model::ModelKind;
use crate::sanitize::{check_kernel, check_program, Finding};

/// What the checks found on a run, and what they could not check.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckReport {
    /// The model the launches ran under: racecheck's rule for lanes of one warp is its.
    pub model: ModelKind,
    pub findings: Vec<Finding>,
    /// Launches not checked, and why (their inputs were not kept; the kernel does not launch).
    pub unchecked: Vec<String>,
}

/// Every check on `r`'s run.
pub fn check(r: &Resolved) -> CheckReport {
    let (findings, unchecked) = match &r.program {
        Some(p) => check_program(p.code(), &p.run.launches, &r.options),
        None => match check_kernel(&r.kernel, &r.options) {
            Ok(found) => (found, Vec::new()),
            Err(d) => (Vec::new(), d.into_iter().map(|d| d.message).collect()),
        },
    };
    CheckReport { model: r.model, findings, unchecked }
}
