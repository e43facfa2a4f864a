//! The kernel-inputs panel's view: the core's `KernelInputs`, with what the loaded run made of
//! them (each buffer's length and first values before step 1, each param's value). Formatting only.

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::kernel::expr::Value;
use warpscope_core::kernel::inputs::{BufferInput, LaunchInput, ParamInput};
use warpscope_core::kernel::{inputs, Kernel};
use warpscope_core::machine::Memory;

/// How many of a buffer's first elements the view shows.
pub const FIRST_VALUES: usize = 8;

#[derive(Serialize, TS)]
pub struct BufferRow {
    #[serde(flatten)]
    #[ts(flatten)]
    pub input: BufferInput,
    /// Elements the run's buffer holds (the length evaluated).
    pub elements: u32,
    /// Its first values as the run began, as the memory panel writes them.
    pub first: Vec<String>,
}

#[derive(Serialize, TS)]
pub struct ParamRow {
    #[serde(flatten)]
    #[ts(flatten)]
    pub input: ParamInput,
    /// The value the run used (a top-bar value or the default).
    pub value: Option<f64>,
}

#[derive(Serialize, TS)]
pub struct InputsView {
    pub buffers: Vec<BufferRow>,
    pub params: Vec<ParamRow>,
    pub launch: LaunchInput,
    pub width: u32,
    pub kernels: Vec<String>,
    pub kernel: Option<String>,
    pub kernel_line: Option<u32>,
}

impl InputsView {
    /// `memory`: the buffers as the run starts with them.
    pub fn new(kernel: &Kernel, memory: &Memory, params: &[(String, Value)]) -> InputsView {
        let k = inputs(kernel);
        let buffers = k
            .buffers
            .into_iter()
            .map(|input| {
                let (elements, first) = match memory.buffer(&input.name) {
                    Some((b, words)) => {
                        let first = b.values(words).take(FIRST_VALUES).map(|e| b.elem.shown(e)).collect();
                        (b.elements(), first)
                    }
                    None => (0, Vec::new()),
                };
                BufferRow { input, elements, first }
            })
            .collect();
        let params = k
            .params
            .into_iter()
            .map(|input| {
                let value = params.iter().find(|(n, _)| *n == input.name).map(|(_, v)| v.as_f64());
                ParamRow { input, value }
            })
            .collect();
        InputsView { buffers, params, launch: k.launch, width: k.width, kernels: k.kernels, kernel: k.kernel, kernel_line: k.kernel_line }
    }
}
