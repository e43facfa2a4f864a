//! A launch from a program's host code: the kernel compiled from the same file, run on the
//! device memory the program holds, with the arguments `main` passed in the launch's registers.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::compile::ast::{Space as CSpace, Ty};
use crate::compile::{compile, CompileOptions, Compiled, MemoryArray};
use crate::grid::{LaunchParts, Launcher, WarpMaker};
use crate::input::DeviceSass;
use crate::isa::Reg;
use crate::kernel::expr::Value;
use crate::kernel::{Kernel, LaunchDecl};
use crate::launch::LaunchOptions;
use crate::machine::{ElemType, Machine, Memory, Sizing, Space};
use crate::program::Program;

/// A program's launches run as the GPU it is checked against (an H100) runs them, unless the
/// run chooses another model.
pub const DEFAULT_MODEL: crate::model::ModelKind = crate::model::ModelKind::Volta;

/// The warp width of a host program's launches.
pub const WARP: u32 = 32;

/// A program's code: its CUDA C, and the SASS nvcc built from it when the run is given it
/// (`cuobjdump -sass` of the executable), whose kernels then run in place of warpscope's
/// compile of the C, so counts are the GPU's code's.
#[derive(Clone, Copy, Debug)]
pub struct Code<'a> {
    pub cuda: &'a str,
    pub sass: Option<&'a str>,
}

impl<'a> Code<'a> {
    /// The C alone: its kernels as warpscope compiles them.
    pub fn cuda(cuda: &'a str) -> Code<'a> {
        Code { cuda, sass: None }
    }
}

/// A kernel as the program's launches run it: compiled once per name (its parameters and
/// arrays are the C's), and its code the SASS's when the program has one.
pub struct DeviceKernel {
    pub compiled: Compiled,
    nregs: u32,
    sass: Option<DeviceSass>,
}

impl DeviceKernel {
    /// `name` (a template instance `k<256>` too) compiled from `code`'s C for `opts`' model,
    /// with its SASS's code when `code` has SASS.
    pub fn compile(code: Code, name: &str, opts: &LaunchOptions) -> Result<DeviceKernel, String> {
        let target = opts.model.unwrap_or(DEFAULT_MODEL).compile_target();
        let options = CompileOptions { target, kernel: Some(name.to_string()), ..CompileOptions::default() };
        let (out, diags) = compile(code.cuda, options);
        let Some(compiled) = out else {
            let first = diags.iter().find(|d| d.severity == crate::diag::Severity::Error);
            return Err(first.map_or_else(|| format!("`{name}` did not compile"), |d| format!("line {}: {}", d.span.line, d.message)));
        };
        let nregs = (crate::kernel::highest_register(&compiled.listing) + 4).min(255);
        let Some(text) = code.sass else { return Ok(DeviceKernel { compiled, nregs, sass: None }) };
        let sass = crate::input::device_kernel(text, name).map_err(|d| match d.first() {
            Some(e) => format!("its SASS (line {} of the dump): {}", e.span.line, e.message),
            None => format!("`{name}`'s SASS cannot run"),
        })?;
        if sass.param_count() != compiled.params.len() {
            return Err(format!(
                "`{name}` takes {} parameters in the C and {} in the SASS: is the dump of this program?",
                compiled.params.len(),
                sass.param_count()
            ));
        }
        Ok(DeviceKernel { compiled, nregs: sass.registers, sass: Some(sass) })
    }

    /// The launcher of one launch: `words` are the launch's argument registers as `main`
    /// passed them (each parameter's in order), `device` the program's device memory, which
    /// the launch takes (its `__device__` variables are added once and kept by name).
    pub fn launcher(&self, decl: LaunchDecl, words: &[u32], device: Memory, opts: &LaunchOptions) -> Result<Launcher, String> {
        match &self.sass {
            Some(sass) => self.sass_launcher(sass, decl, words, device, opts),
            None => self.c_launcher(decl, words, device, opts),
        }
    }

    /// The launcher of warpscope's compile of the C.
    fn c_launcher(&self, decl: LaunchDecl, words: &[u32], mut device: Memory, opts: &LaunchOptions) -> Result<Launcher, String> {
        let c = &self.compiled;
        let mut first = Machine::new(WARP, self.nregs, Memory::default());
        let (args, params) = split_args(c, words)?;
        for (p, value) in c.params.iter().zip(args) {
            for (k, w) in value.iter().enumerate() {
                for lane in 0..WARP {
                    first.set_reg(lane, Reg(p.reg + k as u8), *w);
                }
            }
        }
        for a in &c.arrays {
            let base = place_array(a, &decl, &mut device)?;
            for lane in 0..WARP {
                first.set_reg(lane, Reg(a.reg), base);
            }
        }
        Ok(launcher_of(c.program.clone(), first, decl, params, device, opts))
    }

    /// The launcher of the SASS's code: the constant bank's words in their registers, and the
    /// block's shared memory one buffer `shared` (the SASS addresses it by offset), as large as
    /// the dump says, else as the C's `__shared__` arrays, with the launch's dynamic bytes after.
    fn sass_launcher(
        &self,
        sass: &DeviceSass,
        decl: LaunchDecl,
        words: &[u32],
        mut device: Memory,
        opts: &LaunchOptions,
    ) -> Result<Launcher, String> {
        let c = &self.compiled;
        let (args, params) = split_args(c, words)?;
        let registers = sass.launch_registers(decl.grid, decl.block, &args)?;
        let mut first = Machine::new(WARP, self.nregs, Memory::default());
        for (reg, value) in registers {
            for lane in 0..WARP {
                first.set_reg(lane, Reg(reg), value);
            }
        }
        if sass.uses_shared {
            let declared = sass.shared_declared.unwrap_or_else(|| static_shared_bytes(c));
            let words = (declared + decl.shared.unwrap_or(0)).div_ceil(4).max(1);
            device.add_elements(Space::Shared, "shared", ElemType::I32, words, alloc::vec![0; words as usize]);
            if let Some(b) = device.buffers.last_mut() {
                b.sizing = Sizing::Declared;
            }
        }
        Ok(launcher_of(sass.program.clone(), first, decl, params, device, opts))
    }
}

/// The launch of `program` from its first warp's machine (`first`: the registers every warp
/// starts with) on the program's device memory, run as the H100 runs it unless `opts` say.
fn launcher_of(
    program: Program,
    first: Machine,
    decl: LaunchDecl,
    params: Vec<(String, Value)>,
    device: Memory,
    opts: &LaunchOptions,
) -> Launcher {
    let config = opts.config_for(&Kernel { model: Some(DEFAULT_MODEL), ..Kernel::default() });
    let maker = WarpMaker { first, width: WARP, grid: decl.grid, block: decl.block, per_thread: Vec::new() };
    let parts = LaunchParts { program, config, decl, scheduler: opts.warp_scheduler, params };
    Launcher::from_parts(parts, maker, device)
}

/// A launch's arguments: each parameter's words, and each as the inputs panel shows it.
type Args<'w> = (Vec<&'w [u32]>, Vec<(String, Value)>);

/// `words` (the launch's argument registers) split per parameter of `c`.
fn split_args<'w>(c: &Compiled, words: &'w [u32]) -> Result<Args<'w>, String> {
    let mut args = Vec::new();
    let mut shown_params = Vec::new();
    let mut at = 0usize;
    for p in &c.params {
        let n = p.ty.registers() as usize;
        let Some(value) = words.get(at..at + n) else { return Err(format!("`{}` got too few arguments", c.kernel)) };
        args.push(value);
        shown_params.push((p.name.clone(), shown(p.ty, value)));
        at += n;
    }
    Ok((args, shown_params))
}

/// The bytes of the C's fixed-size `__shared__` arrays, each aligned to its element.
fn static_shared_bytes(c: &Compiled) -> u32 {
    let mut bytes = 0u32;
    for a in c.arrays.iter().filter(|a| a.space == CSpace::Shared && !a.dims.contains(&None)) {
        let elem = crate::input::c::elem_type(a.elem).bytes() * a.width as u32;
        let count: u32 = a.dims.iter().flatten().product();
        bytes = bytes.next_multiple_of(elem.max(1)) + elem * count;
    }
    bytes
}

/// A param's value as the inputs panel shows it.
fn shown(ty: Ty, words: &[u32]) -> Value {
    let lo = words.first().copied().unwrap_or(0);
    let wide = (words.get(1).copied().unwrap_or(0) as u64) << 32 | lo as u64;
    match ty {
        Ty::Scalar(crate::compile::ast::Scalar::Float) => Value::Float(f32::from_bits(lo) as f64),
        Ty::Scalar(crate::compile::ast::Scalar::Double) => Value::Float(f64::from_bits(wide)),
        Ty::Scalar(crate::compile::ast::Scalar::Int) => Value::Int(lo as i32 as i64),
        Ty::Scalar(crate::compile::ast::Scalar::Long) => Value::Int(wide as i64),
        t if t.wide() => Value::Int(wide as i64),
        _ => Value::Int(lo as i64),
    }
}

/// Where array `a` is in `device`: a `__shared__` one added for this launch (an `extern` one
/// sized by the launch's dynamic shared bytes), a `__device__` or `__constant__` one found by
/// name, or added with its initial values the first time.
fn place_array(a: &MemoryArray, decl: &LaunchDecl, device: &mut Memory) -> Result<u32, String> {
    let elem = crate::input::c::elem_type(a.elem);
    let per = elem.bytes() * a.width as u32;
    if a.space == CSpace::Shared {
        let fixed: u32 = a.dims.iter().flatten().product();
        let open = decl.shared.unwrap_or(0) / (per * fixed).max(1);
        let count = a.len(open) * a.width as u32;
        let base = device.add_elements(Space::Shared, &a.name, elem, count, alloc::vec![0; elem.words_for(count as u64) as usize]);
        if let Some(b) = device.buffers.last_mut() {
            b.sizing = if a.dims.contains(&None) { Sizing::Launch } else { Sizing::Declared };
            b.shape = a.shape();
        }
        return Ok(base);
    }
    Ok(global_array(a, device))
}

/// Where `__device__` or `__constant__` array `a` is in `device`: found by name, or added with
/// its initial values the first time (by a launch or a symbol copy).
pub(super) fn global_array(a: &MemoryArray, device: &mut Memory) -> u32 {
    let elem = crate::input::c::elem_type(a.elem);
    if let Some((b, _)) = device.buffer(&a.name) {
        return b.base;
    }
    let count = a.len(1) * a.width as u32;
    let base = device.add_elements(Space::Global, &a.name, elem, count, initial_words(a, elem, count));
    if let Some(b) = device.buffers.last_mut() {
        b.sizing = Sizing::Declared;
        b.shape = a.shape();
    }
    base
}

/// Array `a`'s `count` elements of `elem` as its initialiser gives them (the rest zero), packed
/// in memory's words: a `__device__` array's, and a host array's each time its declaration runs.
pub(super) fn initial_words(a: &MemoryArray, elem: ElemType, count: u32) -> Vec<u32> {
    let bits = (0..count as usize).map(|i| match a.init.as_ref().and_then(|v| v.get(i)) {
        Some(&(x, _)) if elem == ElemType::F32 => (x as f32).to_bits() as u64,
        Some(&(x, _)) if elem == ElemType::F64 => x.to_bits(),
        Some(&(x, _)) => x as i64 as u64,
        None => 0,
    });
    elem.pack(bits)
}
