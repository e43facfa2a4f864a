//! One run path for every front door. The CLI, the wasm facade, the sweep and report workers
//! and permalinks all build a `RunRequest`, `resolve` it (one place reads model, preset, policy,
//! input and param choices and refuses bad ones with located messages), launch it, and describe
//! its end with one `Outcome`. A recorded run's life (chunked loading, stop, seek, replay, the
//! report, where its `//@ note` captions show) is a `Recording`; the facade only forwards to it.

pub mod captions;
pub mod check;
pub mod choice;
mod choices;
pub mod counters;
mod launch_recording;
mod outcome;
pub mod program;
mod recording;
mod request;
mod warnings;

pub use captions::Captions;
pub use choice::Named;
pub use choices::RunChoices;
pub use launch_recording::{LaunchRecording, WarpCode};
pub use outcome::{Outcome, OutcomeKind};
pub use recording::{Loaded, Progress, Recording, Until};
pub use request::{
    recorded_step_limit, stack_problem, ChoiceError, Field, ParamValue, Resolved, RunRequest, StackChoice, StaleParams, MAX_RECORDED_STEPS,
    MIN_STEP_LIMIT,
};
pub use warnings::{launch_warnings, run_warnings};

#[cfg(test)]
mod tests;
