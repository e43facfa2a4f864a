//! A kernel of a program's SASS dump (`cuobjdump -sass` of its executable), as the program's
//! launches run it in place of warpscope's compile of the C (`crate::host`): the code the GPU
//! ran, so counts can be held to Nsight Compute's. The launch sets the constant-bank words as
//! the driver does: its sizes, and the arguments `main` passed.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::bank::{Bank, Word};
use super::{architecture, display_name, lower, syntax, translate, with_callees, Translated};
use crate::diag::{has_errors, Diagnostic};
use crate::program::Program;

/// A kernel of the dump, translated once; each launch sets its registers.
#[derive(Clone, Debug)]
pub struct DeviceSass {
    pub program: Program,
    /// The registers a warp needs (every one the program names).
    pub registers: u32,
    /// The static shared memory the dump says the kernel declares (bytes), when it says.
    pub shared_declared: Option<u32>,
    /// Whether the kernel touches shared memory.
    pub uses_shared: bool,
    bank: Bank,
    /// Each constant-bank word the kernel reads (byte offset) and its register.
    consts: Vec<(u32, u8)>,
    /// Each parameter's byte offset in the parameter area and its size.
    params: Vec<(u32, u32)>,
}

/// Kernel `name` (as C names it: `reduce0`, or mangled) of the dump `text`, or why it cannot
/// run: the problems, located in the dump.
pub fn device_kernel(text: &str, name: &str) -> Result<DeviceSass, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let dump = syntax::parse(text, &mut diags);
    if has_errors(&diags) {
        return Err(errors(diags));
    }
    let Some(kernel) = dump.functions.iter().find(|f| f.name == name || display_name(f.name) == name) else {
        let known: Vec<String> = dump.functions.iter().map(|f| display_name(f.name)).collect();
        let known = if known.is_empty() { String::from("none") } else { known.join(", ") };
        let message = format!("the SASS has no kernel `{name}` (its functions: {known}): dump the program's own executable");
        return Err(alloc::vec![Diagnostic::error(crate::diag::Span::new(1, 1, 1), message)]);
    };
    let Some(f) = with_callees(&dump, kernel, &mut diags) else { return Err(errors(diags)) };
    let Some((bank, arch)) = architecture(&dump, &f, &mut diags) else { return Err(errors(diags)) };
    if lower::local_frame(&f).is_some() {
        let message = "the kernel uses local memory (`LDL`/`STL`): a program's kernels from SASS do not run it yet; drop the SASS to run warpscope's compile of the C";
        return Err(alloc::vec![Diagnostic::error(f.span, message)]);
    }
    let Some(Translated { program, listing, places, params }) = translate(&dump, &f, (bank, &arch), None, &mut diags) else {
        return Err(errors(diags));
    };
    let uses_shared = f.instrs.iter().any(|i| matches!(i.opcode(), "LDS" | "STS" | "ATOMS"));
    let shared_declared = dump.shared.iter().find(|(n, _)| *n == f.name).map(|&(_, bytes)| bytes.saturating_sub(bank.shared));
    // Every register named, a 64-bit read's second word and every constant word's register.
    let named = crate::kernel::highest_register(&listing.text) + 2;
    let consts = places.consts.values().map(|&r| r as u32 + 1).max().unwrap_or(0);
    let registers = named.max(consts).min(255);
    Ok(DeviceSass {
        program,
        registers,
        shared_declared,
        uses_shared,
        bank,
        consts: places.consts.iter().map(|(&off, &reg)| (off, reg)).collect(),
        params: params.iter().map(|p| (p.offset, p.bytes)).collect(),
    })
}

/// The errors among `diags` (a dump's notes say nothing of why it cannot run).
fn errors(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.retain(Diagnostic::is_error);
    diags
}

impl DeviceSass {
    /// How many parameters the kernel takes.
    pub fn param_count(&self) -> usize {
        self.params.len()
    }

    /// Each register a launch sets before the first instruction, with its value: the launch's
    /// sizes, and each parameter's words from `args` (parameter k's words as `main` passed
    /// them; a pointer's high word, which warpscope's 32-bit addresses leave out, is 0).
    pub fn launch_registers(&self, grid: [u32; 3], block: [u32; 3], args: &[&[u32]]) -> Result<Vec<(u8, u32)>, String> {
        if args.len() != self.params.len() {
            return Err(format!("the SASS kernel takes {} parameters and the launch passes {}", self.params.len(), args.len()));
        }
        let mut out = Vec::with_capacity(self.consts.len());
        for &(off, reg) in &self.consts {
            let value = match self.bank.word(off) {
                Some(Word::Special(name)) => match super::bank::launch_size(name) {
                    (true, axis) => grid[axis],
                    (false, axis) => block[axis],
                },
                Some(Word::Param(at)) => match self.params.iter().position(|&(p, bytes)| (p..p + bytes).contains(&at)) {
                    Some(k) => args[k].get(((at - self.params[k].0) / 4) as usize).copied().unwrap_or(0),
                    None => 0,
                },
                // The stack top, the descriptor and the local window: warpscope's addresses
                // need none of them.
                _ => 0,
            };
            out.push((reg, value));
        }
        Ok(out)
    }
}
