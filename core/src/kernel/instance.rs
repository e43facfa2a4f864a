//! Evaluates a kernel's inputs for given parameter values and builds the initial machine.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::expr::{Env, ExprError, Value};
use super::{BufferInit, InitTarget, Kernel, LocatedExpr, ParamDecl};
use crate::diag::{Diagnostic, Span};
use crate::isa::Reg;
use crate::machine::{ElemType, Launch, Machine, Memory, Space};

/// Largest buffer, in elements: keeps a typo like `i32[1e9]` from exhausting memory.
pub const MAX_BUFFER_LEN: i64 = 1 << 20;
/// The most elements all buffers together may hold (16 MiB): each checkpoint clones them.
pub const MAX_MEMORY_WORDS: i64 = 1 << 22;

/// A kernel ready to run: the machine with its inputs, and the parameter values used.
#[derive(Clone, PartialEq, Debug)]
pub struct Instance {
    pub machine: Machine,
    /// Each param's value: an integer, or a float for a float kernel parameter (`//@ param a = 2.5`).
    pub params: Vec<(String, Value)>,
}

struct Vars<'a> {
    params: &'a [(String, Value)],
    buffers: &'a [(String, u32)],
    lane: Option<i64>,
    elem: Option<i64>,
    width: i64,
    /// Whether `t`, `i` and `W` mean the lane, the element and the width (not in a front end's
    /// binding of an input: `RegInit::binds`).
    reserved: bool,
}

impl Env for Vars<'_> {
    fn lookup(&self, name: &str) -> Option<Value> {
        match name {
            // The lane and the element where there is one; else an input so named, if any.
            "t" if self.reserved && self.lane.is_some() => self.lane.map(Value::Int),
            "i" if self.reserved && self.elem.is_some() => self.elem.map(Value::Int),
            "W" if self.reserved => Some(Value::Int(self.width)),
            _ => self
                .params
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| *v)
                .or_else(|| self.buffers.iter().find(|(n, _)| n == name).map(|(_, b)| Value::Int(*b as i64))),
        }
    }
}

fn located(e: &LocatedExpr, err: ExprError, context: &str) -> Diagnostic {
    Diagnostic::error(e.span_at(err.offset, err.len), format!("{}{}", context, err.message))
}

fn eval(e: &LocatedExpr, vars: &Vars, context: &str) -> Result<Value, Diagnostic> {
    e.expr.eval(vars).map_err(|err| located(e, err, context))
}

fn eval_int(e: &LocatedExpr, vars: &Vars, what: &str) -> Result<i64, Diagnostic> {
    match eval(e, vars, "")? {
        Value::Int(v) => Ok(v),
        Value::Float(_) => Err(Diagnostic::error(e.span, format!("{what} must be an integer, not a float"))),
    }
}

fn store_bits(elem: ElemType, v: Value) -> u32 {
    store_wide(elem, v) as u32
}

/// A value as an element's bits (64 of them; a 32-bit type uses the low word).
fn store_wide(elem: ElemType, v: Value) -> u64 {
    match (elem, v) {
        (ElemType::F32, Value::Int(x)) => (x as f32).to_bits() as u64,
        (ElemType::F32, Value::Float(f)) => (f as f32).to_bits() as u64,
        (ElemType::F64, Value::Int(x)) => (x as f64).to_bits(),
        (ElemType::F64, Value::Float(f)) => f.to_bits(),
        (_, Value::Int(x)) => x as u64,
        (_, Value::Float(f)) => f as i64 as u64,
    }
}

/// Why an integer `v` does not fit an element of `elem`, if it does not. A width's signed and
/// unsigned ranges are both accepted (`-1` in a `u8` is 255, as C converts it); past both, the
/// value would lose bits.
fn out_of_range(elem: ElemType, v: Value) -> Option<String> {
    let Value::Int(x) = v else { return None };
    let bits = match elem {
        ElemType::I8 | ElemType::U8 => 8,
        ElemType::I16 | ElemType::U16 => 16,
        ElemType::I32 | ElemType::U32 => 32,
        _ => return None,
    };
    let (lo, hi) = (-(1i64 << (bits - 1)), (1i64 << bits) - 1);
    let signed = matches!(elem, ElemType::I8 | ElemType::I16 | ElemType::I32);
    let (min, max) = if signed { (lo, (1i64 << (bits - 1)) - 1) } else { (0, hi) };
    (!(lo..=hi).contains(&x)).then(|| format!("{x} does not fit {} ({min} to {max})", elem.name()))
}

/// The highest `Rn` a text names (at most 254).
pub fn highest_register(text: &str) -> u32 {
    let b = text.as_bytes();
    let mut max = 0u32;
    for (pos, _) in text.match_indices('R') {
        let before_ok = pos == 0 || !(b[pos - 1].is_ascii_alphanumeric() || b[pos - 1] == b'_');
        let digits: String = text[pos + 1..].chars().take_while(|c| c.is_ascii_digit()).collect();
        if before_ok && !digits.is_empty() {
            if let Ok(n) = digits.parse::<u32>() {
                max = max.max(n.min(254));
            }
        }
    }
    max
}

/// The highest register a program or its inputs name, plus room for wide loads and `CS2R` pairs.
fn registers_needed(k: &Kernel) -> u32 {
    let mut max = 0u32;
    let mut scan = |text: &str| max = max.max(highest_register(text));
    k.program.instrs.iter().for_each(|i| scan(&i.text));
    // A translation may show the source's own text (real SASS's `UR4`, `c[0x0][0x210]`); its
    // listing names the machine's registers.
    if let Some(c) = &k.compiled {
        scan(&c.listing);
    }
    for r in &k.regs {
        match r.target {
            InitTarget::Reg(reg) => max = max.max(reg.0 as u32),
            InitTarget::Wide { reg, .. } => max = max.max(reg.0 as u32 + 1),
            _ => {}
        }
    }
    (max + 4).min(255)
}

/// Each param's default value (`None` if its expression fails), for front ends' inputs.
pub fn param_defaults(k: &Kernel) -> Vec<(String, Option<Value>)> {
    let mut params: Vec<(String, Value)> = Vec::new();
    let mut out = Vec::new();
    for p in &k.params {
        let vars = Vars { params: &params, buffers: &[], lane: None, elem: None, width: k.warp_width as i64, reserved: true };
        let v = eval(&p.default, &vars, "").ok();
        params.push((p.name.clone(), v.unwrap_or(Value::Int(0))));
        out.push((p.name.clone(), v));
    }
    out
}

/// Whether a param takes a fraction: a float kernel parameter's does, and one whose default is a
/// float; any other counts something (a loop's trips, a length) and takes a whole number.
pub fn takes_float(p: &ParamDecl, default: Option<Value>) -> bool {
    p.float || matches!(default, Some(Value::Float(_)))
}

/// Evaluates params (defaults, with `overrides` applied), buffers and initial registers.
pub fn instantiate(k: &Kernel, overrides: &[(String, Value)]) -> Result<Instance, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for (name, _) in overrides {
        if !k.params.iter().any(|p| &p.name == name) {
            let declared: Vec<&str> = k.param_names().collect();
            let list = if declared.is_empty() { "none".to_string() } else { declared.join(", ") };
            errors.push(Diagnostic::error(Span::default(), format!("unknown param `{name}` (declared: {list})")));
        }
    }
    let width = k.warp_width as i64;
    let mut params: Vec<(String, Value)> = Vec::new();
    for p in &k.params {
        let vars = Vars { params: &params, buffers: &[], lane: None, elem: None, width, reserved: true };
        let default = eval(&p.default, &vars, &format!("param `{}`: ", p.name));
        let value = match (overrides.iter().rev().find(|(n, _)| *n == p.name), default) {
            (Some((_, Value::Float(f))), default) if !takes_float(p, default.as_ref().ok().copied()) => {
                let msg = format!("param `{}` = {f}: an integer param takes a whole number", p.name);
                errors.push(Diagnostic::error(p.default.span, msg));
                Value::Int(0)
            }
            (Some((_, v)), _) => *v,
            (None, Ok(v)) => v,
            (None, Err(d)) => {
                errors.push(d);
                Value::Int(0)
            }
        };
        params.push((p.name.clone(), value));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut memory = Memory::default();
    let mut bases: Vec<(String, u32)> = Vec::new();
    let mut total = 0;
    for b in &k.buffers {
        let vars = Vars { params: &params, buffers: &[], lane: None, elem: None, width, reserved: true };
        let len = match eval_int(&b.len, &vars, "a buffer length") {
            Ok(n) if (0..=MAX_BUFFER_LEN).contains(&n) && total + b.elem.words_for(n as u64) as i64 > MAX_MEMORY_WORDS => {
                let msg = format!(
                    "buffer `{}` brings the buffers to {} words; together they may hold {MAX_MEMORY_WORDS} (64-bit elements take two, four bytes one)",
                    b.name,
                    total + b.elem.words_for(n as u64) as i64
                );
                errors.push(Diagnostic::error(b.len.span, msg));
                break;
            }
            Ok(n) if (0..=MAX_BUFFER_LEN).contains(&n) => {
                total += b.elem.words_for(n as u64) as i64;
                n
            }
            Ok(n) => {
                errors.push(Diagnostic::error(b.len.span, format!("buffer `{}` has length {n}; lengths are 0-{MAX_BUFFER_LEN}", b.name)));
                continue;
            }
            Err(d) => {
                errors.push(d);
                continue;
            }
        };
        let mut bits = Vec::with_capacity(len as usize);
        let list_len = match &b.init {
            Some(BufferInit::List(items)) => items.len() as i64,
            Some(BufferInit::Text { bytes, .. }) => bytes.len() as i64,
            _ => 0,
        };
        if list_len > len {
            let at = match &b.init {
                Some(BufferInit::List(items)) => items[len as usize].span,
                Some(BufferInit::Text { span, .. }) => *span,
                _ => b.len.span,
            };
            let what = if matches!(b.init, Some(BufferInit::Text { .. })) { "its text has" } else { "its list has" };
            errors.push(Diagnostic::error(at, format!("buffer `{}` holds {len} elements but {what} {list_len}", b.name)));
            continue;
        }
        for i in 0..len {
            let (e, elem) = match &b.init {
                Some(BufferInit::Expr(e)) => (Some(e), Some(i)),
                Some(BufferInit::List(items)) => (items.get(i as usize), None),
                Some(BufferInit::Text { bytes, .. }) => {
                    bits.push(bytes.get(i as usize).copied().unwrap_or(0) as u64);
                    continue;
                }
                None => (None, None),
            };
            let v = match e {
                Some(e) => {
                    let vars = Vars { params: &params, buffers: &[], lane: None, elem, width, reserved: true };
                    match eval(e, &vars, &format!("element i={i} of `{}`: ", b.name)) {
                        Ok(v) => v,
                        Err(d) => {
                            errors.push(d);
                            break;
                        }
                    }
                }
                None => Value::Int(0),
            };
            // A value written by hand that the element cannot hold is a typo; an expression
            // over `i` wraps, as C converts (`i * 37` into bytes).
            let listed = matches!(b.init, Some(BufferInit::List(_)));
            if let (Some(why), Some(e), true) = (out_of_range(b.elem, v), e, listed) {
                errors.push(Diagnostic::error(e.span, format!("element i={i} of `{}`: {why}", b.name)));
                break;
            }
            bits.push(store_wide(b.elem, v));
        }
        let space = if b.shared { Space::Shared } else { Space::Global };
        let base = memory.add_elements(space, &b.name, b.elem, len as u32, b.elem.pack(bits));
        if let Some(added) = memory.buffers.last_mut() {
            added.sizing = b.sizing;
            added.shape = b.shape.clone();
        }
        bases.push((b.name.clone(), base));
    }
    let lanes = k.lanes();
    let mut machine = Machine::new(lanes, registers_needed(k), memory);
    let l = k.launch();
    machine.launch = Launch { grid: l.grid, block: l.block, block_idx: l.block_idx, first_thread: l.warp_idx * k.warp_width };
    for r in &k.regs {
        for lane in 0..lanes {
            let vars = Vars { params: &params, buffers: &bases, lane: Some(lane as i64), elem: None, width, reserved: !r.binds };
            match eval(&r.value, &vars, &format!("lane t={lane}: ")) {
                Ok(v) => match r.target {
                    InitTarget::Reg(reg) => {
                        machine.set_reg(lane, reg, store_bits(if v.is_float() { ElemType::F32 } else { ElemType::I32 }, v))
                    }
                    InitTarget::Pred(p) => machine.set_pred(lane, p, v.as_f64() != 0.0),
                    InitTarget::Wide { reg, elem } => {
                        let bits = store_wide(elem, v);
                        machine.set_reg(lane, reg, bits as u32);
                        machine.set_reg(lane, Reg(reg.0.saturating_add(1)), (bits >> 32) as u32);
                    }
                },
                Err(d) => {
                    errors.push(d);
                    break;
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(Instance { machine, params })
    } else {
        Err(errors)
    }
}
