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
    /// A program's launch: the host line of the launch whose inputs these are (set by `main()`,
    /// not by the page), and the device memory as the launch found it.
    pub set_by_main: Option<u32>,
    pub device: Vec<crate::program::DeviceBufferRow>,
    /// Every argument `main` passed (a pointer as its address), in the kernel's order.
    pub arguments: Vec<ArgumentRow>,
}

#[derive(Serialize, TS)]
pub struct ArgumentRow {
    pub name: String,
    pub value: f64,
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
        InputsView {
            buffers,
            params,
            launch: k.launch,
            width: k.width,
            kernels: k.kernels,
            kernel: k.kernel,
            kernel_line: k.kernel_line,
            set_by_main: None,
            device: Vec::new(),
            arguments: Vec::new(),
        }
    }

    /// A program's launch from line `line`: its params as `main` passed them, the device's
    /// buffers as the launch found them (`memory`), and no made-up inputs.
    pub fn of_program(kernel: &Kernel, memory: &Memory, params: &[(String, Value)], line: u32) -> InputsView {
        let mut v = InputsView::new(kernel, memory, params);
        v.buffers.clear();
        v.set_by_main = Some(line);
        v.device = crate::program::device_buffers(memory);
        v.arguments = params.iter().map(|(name, value)| ArgumentRow { name: name.clone(), value: value.as_f64() }).collect();
        v
    }
}
