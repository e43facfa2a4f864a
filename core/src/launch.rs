//! Puts a kernel and run options together into a ready `Sim`: the one entry point the CLI,
//! the tests and the wasm facade share, so they choose models, presets and params alike.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::block::WarpScheduler;
use crate::diag::Diagnostic;
use crate::kernel::expr::Value;
use crate::kernel::{instantiate, Instance, Kernel};
use crate::model::{GroupOrder, ModelKind, PathOrder, StackConfig};
use crate::program::Program;
use crate::sim::{CostModel, Sim, SimConfig, DEFAULT_STEP_LIMIT};
use crate::structure::Structured;

/// Choices made by the caller; `None` falls back to the kernel's header, then the default.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchOptions {
    pub model: Option<ModelKind>,
    pub cost: Option<CostModel>,
    pub stack: Option<StackConfig>,
    pub path_order: PathOrder,
    pub group_order: GroupOrder,
    /// Which warp of a block issues next, in a whole launch.
    pub warp_scheduler: WarpScheduler,
    /// Param values by name (an integer, or a float for a float kernel parameter).
    pub params: Vec<(String, Value)>,
    pub step_limit: u64,
    pub record: bool,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            model: None,
            cost: None,
            stack: None,
            path_order: PathOrder::default(),
            group_order: GroupOrder::default(),
            warp_scheduler: WarpScheduler::default(),
            params: Vec::new(),
            step_limit: DEFAULT_STEP_LIMIT,
            record: true,
        }
    }
}

impl LaunchOptions {
    /// The configuration these options give for `kernel`.
    pub fn config_for(&self, kernel: &Kernel) -> SimConfig {
        let model = self.model.or(kernel.model).unwrap_or(ModelKind::Kepler);
        let cost = self
            .cost
            .or_else(|| kernel.preset.as_deref().and_then(CostModel::preset))
            .or_else(|| CostModel::preset(model.default_preset()))
            .unwrap_or_default();
        SimConfig {
            model,
            cost,
            stack: self.stack.or(kernel.stack).unwrap_or_default(),
            path_order: self.path_order,
            group_order: self.group_order,
            step_limit: self.step_limit,
            record: self.record,
            exit_at_end: kernel.excerpt,
            ..SimConfig::default()
        }
    }
}

/// What a run of a kernel steps: the program (STRUCT's transform of it, under STRUCT), the
/// configuration, the inputs and, under STRUCT, the transform.
pub struct Prepared {
    pub program: Program,
    pub config: SimConfig,
    pub instance: Instance,
    pub structured: Option<Arc<Structured>>,
}

/// The program, configuration and inputs of `kernel` under `opts`, its inputs evaluated for
/// `opts.params`. STRUCT runs the structural transform's program (made here if the kernel was
/// read for another model); every other model runs the program as read.
pub fn prepare(kernel: &Kernel, opts: &LaunchOptions) -> Result<Prepared, Vec<Diagnostic>> {
    let config = opts.config_for(kernel);
    if config.model == ModelKind::Struct && kernel.structured.is_none() && !kernel.program.is_empty() {
        // The machine needs room for the registers the transform's guards use.
        let mut k = kernel.clone();
        let mut diags = Vec::new();
        crate::structure::restructure(&mut k, &mut diags);
        return if diags.is_empty() { prepare(&k, opts) } else { Err(diags) };
    }
    let instance = instantiate(kernel, &opts.params)?;
    let structured = kernel.structured.clone().filter(|_| config.model == ModelKind::Struct);
    let program = match &structured {
        Some(s) => s.program.clone(),
        None => kernel.structured.as_ref().map_or(&kernel.program, |s| &s.original).clone(),
    };
    Ok(Prepared { program, config, instance, structured })
}

/// A simulator of the warp `kernel`'s launch names (`//@ launch block_idx= warp=`), alone.
pub fn launch(kernel: &Kernel, opts: &LaunchOptions) -> Result<Sim, Vec<Diagnostic>> {
    let p = prepare(kernel, opts)?;
    let sim = Sim::new(p.program, p.instance.machine, p.config);
    Ok(match p.structured {
        Some(s) => sim.restructured(s),
        None => sim,
    })
}
