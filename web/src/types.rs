//! The TypeScript declarations of every value the page reads from or hands to the facade,
//! generated from the Rust types (ts-rs), so `www` never copies a shape by hand. The committed
//! file is `www/src/generated/engine.ts`; `web/tests/types.rs` fails when it is stale
//! (`UPDATE_TYPES=1 cargo test -p warpscope-web --test types` rewrites it), and `tsc` checks
//! every use of it in the build.

use ts_rs::{Config, TS};
use warpscope_core::counters::Counts;
use warpscope_core::grid::{Totals, WarpDoing, WarpNow};
use warpscope_core::input::ptx::{Beside, BesideProblem, BesideProblemKind};
use warpscope_core::isa::AccessKind;
use warpscope_core::kernel::inputs::{HeaderEdit, HeaderKey, HeaderLine, LaunchInput};
use warpscope_core::link::{Link, MeasuredChoice, SweepChoice};
use warpscope_core::machine::ElemType;
use warpscope_core::model::{ModelAbout, ModelKind, Policy, StackConfig, Term, TermKind};
use warpscope_core::printf::OutputLine;
use warpscope_core::sanitize::{Finding, Side, Tool};
use warpscope_core::session::check::CheckReport;
use warpscope_core::session::counters::{CounterName, RunCounts};
use warpscope_core::session::{Outcome, OutcomeKind, Progress, RunChoices, RunRequest, StackChoice, StaleParams};
use warpscope_core::sim::{LaneState, PointMetrics};
use warpscope_core::structure::TransformCounts;
use warpscope_core::sweep::measured::{Fit, FitRow, MeasuredSet};
use warpscope_core::sweep::{Series, Split, SweepPoint, SweepRequest};
use warpscope_core::Severity;

use crate::exchange::ExchangeView;
use crate::inputs::{ArgumentRow, BufferRow, InputsView, ParamRow};
use crate::link::DecodedView;
use crate::memory::{AccessView, BufferView, CellTouchView, MemoryView};
use crate::program::{DeviceBufferRow, ProgramLaunch, ProgramNote, ProgramView};
use crate::sweep::{MetricInfo, Prepared};
use crate::views::*;
use crate::LoadOptions;

/// The file's text: one `export type` per type, in dependency-free order (TypeScript does not
/// care), numbers for Rust's 64-bit integers (serde-wasm-bindgen sends them as numbers).
pub fn typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust types by web/src/types.rs (ts-rs): do not edit.\n\
         // UPDATE_TYPES=1 cargo test -p warpscope-web --test types rewrites it.\n\n",
    );
    macro_rules! export {
        ($($t:ty),* $(,)?) => {$(
            out += &format!("export {}\n\n", <$t as TS>::decl(&cfg));
        )*};
    }
    export!(
        // core
        Severity,
        ModelKind,
        ModelAbout,
        TransformCounts,
        Policy,
        Term,
        TermKind,
        StackConfig,
        LaneState,
        AccessKind,
        ElemType,
        Outcome,
        OutcomeKind,
        Progress,
        PointMetrics,
        Totals,
        WarpNow,
        WarpDoing,
        RunRequest,
        StackChoice,
        StaleParams,
        SweepRequest,
        Split,
        Series,
        SweepPoint,
        MeasuredSet,
        Fit,
        FitRow,
        Link,
        RunChoices,
        SweepChoice,
        OutputLine,
        MeasuredChoice,
        LaunchInput,
        HeaderLine,
        HeaderKey,
        HeaderEdit,
        Beside,
        BesideProblem,
        BesideProblemKind,
        CheckReport,
        Counts,
        RunCounts,
        CounterName,
        Finding,
        Side,
        Tool,
        // facade views
        LoadOptions,
        DiagnosticView,
        ParamView,
        LoadResult,
        ProgramView,
        ProgramNote,
        ProgramLaunch,
        DeviceBufferRow,
        ArgumentRow,
        LaunchView,
        BlockSummary,
        LaneView,
        StackEntryView,
        VarView,
        ExchangeView,
        RegView,
        PredView,
        WaitView,
        LastView,
        TimingView,
        StateView,
        InstrView,
        BlockView,
        LineRange,
        EdgeView,
        CfgView,
        MetricsView,
        MetricsPair,
        NoteView,
        CompiledView,
        ReportView,
        Prepared<'static>,
        MetricInfo,
        DecodedView,
        MemoryView,
        BufferView,
        AccessView,
        CellTouchView,
        InputsView,
        BufferRow,
        ParamRow,
    );
    out.trim_end().to_string() + "\n"
}
