//! A seeded generator of CUDA-C kernels inside the subset warpscope's compiler and nvcc share,
//! for the differential test (`ptx_differential.rs`). One seed gives one whole `.cu` file (one
//! `__global__` kernel, sometimes `__device__` helpers) and the inputs both runs get, as `//@`
//! lines. The kernels diverge on lane-dependent conditions and loop bounds, and use warp
//! intrinsics, barriers and the shared array only where all 32 lanes are converged (the kernel's
//! top level before any `return`). Nothing they do is undefined (see `range.rs`): nvcc is free to
//! exploit undefined behaviour, and then the two compiles could rightly differ.

use std::collections::BTreeSet;

use super::range::{invariant, Range};
use super::stmt::{Ctx, LoopFrame};

/// splitmix64: small, seedable, and the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The element types the kernels use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Elem {
    Int,
    Uns,
    Float,
}

impl Elem {
    pub const ALL: [Elem; 3] = [Elem::Int, Elem::Uns, Elem::Float];
    pub fn c_name(self) -> &'static str {
        match self {
            Elem::Int => "int",
            Elem::Uns => "unsigned",
            Elem::Float => "float",
        }
    }
    /// The `//@ buffer` element type.
    pub fn header(self) -> &'static str {
        match self {
            Elem::Int => "i32",
            Elem::Uns => "u32",
            Elem::Float => "f32",
        }
    }
}

/// The launch: warpscope runs one warp (`warp`) of one block (`block_idx`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Launch {
    pub grid: u32,
    pub block: u32,
    pub block_idx: u32,
    pub warp: u32,
}

impl Launch {
    const CHOICES: [Launch; 4] = [
        Launch { grid: 1, block: 32, block_idx: 0, warp: 0 },
        Launch { grid: 2, block: 32, block_idx: 1, warp: 0 },
        Launch { grid: 1, block: 64, block_idx: 0, warp: 1 },
        Launch { grid: 4, block: 64, block_idx: 2, warp: 1 },
    ];
    fn first_index(self) -> u32 {
        self.block_idx * self.block + self.warp * 32
    }
    /// `blockIdx.x * blockDim.x + threadIdx.x` over the warp's lanes.
    pub fn index_range(self) -> Range {
        let f = self.first_index() as f64;
        Range::int(f, f + 31.0)
    }
    pub fn thread_range(self) -> Range {
        let f = (self.warp * 32) as f64;
        Range::int(f, f + 31.0)
    }
    /// The `//@ launch` line, none for the default launch.
    fn header(self) -> Option<String> {
        (self != Launch::CHOICES[0])
            .then(|| format!("//@ launch grid={} block={} block_idx={} warp={}", self.grid, self.block, self.block_idx, self.warp))
    }
}

/// A name in scope: the lane's index, loop counters and params read only, locals written.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Elem,
    pub r: Range,
    pub mutable: bool,
}

/// A buffer the kernel reads, with the range of its contents.
#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
    pub elem: Elem,
    pub len: u32,
    pub r: Range,
}

/// A `__device__` function the code may call.
#[derive(Clone, Debug)]
pub struct Helper {
    pub name: String,
    pub params: Vec<Elem>,
    pub ret: Elem,
    /// It has a `return` before its last statement (or calls a helper that has).
    pub returns_early: bool,
}

/// What a kernel parameter is given, the same in both runs.
#[derive(Clone, PartialEq, Debug)]
pub enum ParamKind {
    /// A buffer and its initialiser (a `//@ buffer` expression over the element index `i`).
    Buffer {
        elem: Elem,
        len: u32,
        init: Option<String>,
    },
    Scalar {
        value: i64,
    },
}

#[derive(Clone, PartialEq, Debug)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    /// The declaration in the kernel's signature.
    decl: String,
}

/// One generated kernel file.
#[derive(Clone, PartialEq, Debug)]
pub struct Kernel {
    pub seed: u64,
    pub name: String,
    pub launch: Launch,
    /// In signature order: the PTX run names them `arg0`, `arg1`, ...
    pub params: Vec<Param>,
    /// The CUDA source: helpers and the kernel, no `//@` lines.
    pub source: String,
    /// What the kernel uses (for the summary).
    pub features: BTreeSet<&'static str>,
}

impl Kernel {
    /// The whole `.cu` file: the inputs by the C parameters' names, then the source. nvcc reads
    /// the `//@` lines as comments, so the same text goes to both compilers.
    pub fn c_text(&self) -> String {
        self.headers(|_, p| p.name.clone()) + &self.source
    }

    /// nvcc's PTX with the same inputs, named by position as the PTX reader names them.
    pub fn ptx_text(&self, ptx: &str) -> String {
        self.headers(|k, _| format!("arg{k}")) + ptx
    }

    fn headers(&self, name: impl Fn(usize, &Param) -> String) -> String {
        let mut out = format!("// warpscope differential kernel, seed {} (core/tests/differential/gen.rs)\n", self.seed);
        if let Some(l) = self.launch.header() {
            out += &l;
            out.push('\n');
        }
        for (k, p) in self.params.iter().enumerate() {
            let line = match &p.kind {
                ParamKind::Buffer { elem, len, init: Some(init) } => {
                    format!("//@ buffer {}: {}[{len}] = {init}", name(k, p), elem.header())
                }
                ParamKind::Buffer { elem, len, init: None } => format!("//@ buffer {}: {}[{len}]", name(k, p), elem.header()),
                ParamKind::Scalar { value } => format!("//@ param {} = {value}", name(k, p)),
            };
            out += &line;
            out.push('\n');
        }
        out
    }
}

/// The generator's state while it writes one kernel.
pub struct Gen {
    pub rng: Rng,
    pub launch: Launch,
    pub vars: Vec<Var>,
    pub inputs: Vec<Input>,
    pub helpers: Vec<Helper>,
    /// How many of `helpers` the code being written may call (a helper calls only earlier ones).
    pub callable: usize,
    /// The shared array's element type and the range of what the warp last stored in it.
    pub shared: Option<(Elem, Range)>,
    pub features: BTreeSet<&'static str>,
    pub text: String,
    pub indent: usize,
    /// Statements left to write.
    pub budget: i32,
    pub fresh: u32,
    /// No `return` written yet: at the kernel's top level every lane is here.
    pub converged: bool,
    pub in_helper: Option<Elem>,
    pub out: Option<(String, Elem)>,
    /// The counter buffer, its element type and the one atomic operation used on it (one
    /// commutative operation, so the final counts do not depend on the order lanes run).
    pub counter: Option<(String, Elem, &'static str)>,
    pub shared_elem: Option<Elem>,
    /// The loops around the code being written, innermost last.
    pub frames: Vec<LoopFrame>,
    /// The helper being written returns early somewhere.
    pub diverges: bool,
    /// How deep in blocks, loop conditions, `?:` arms and `&&`/`||` right sides the code being
    /// written is: above 0, the lanes there may be apart.
    pub nesting: u32,
    pub cfg: Config,
}

/// Choices about what to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Config {
    /// Steer around the bugs of warpscope this test has found (the known bugs of `mod.rs`), so that what it
    /// checks is the PTX side. `DIFF_KNOWN_BUGS=1` turns this off, to see whether they are fixed.
    pub avoid_known_bugs: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config { avoid_known_bugs: true }
    }
}

/// Every buffer holds a power of two elements, more than the highest index of the launch.
fn buffer_len(launch: Launch) -> u32 {
    (launch.index_range().hi as u32 + 1).next_power_of_two()
}

/// A `//@ buffer` initialiser over the element index and the values it gives (computed here
/// the same way, all intermediate values non-negative).
fn init_formula(rng: &mut Rng, elem: Elem, len: u32) -> (String, Range) {
    let a = rng.range(1, 97);
    let b = rng.range(0, 1000);
    let (m, c) = match (elem, rng.below(3)) {
        (Elem::Uns, 0) => (4_294_967_296, 0),
        (Elem::Float, _) => {
            let m = rng.range(2, 129);
            (m, rng.range(0, m))
        }
        (_, 0) => {
            let m = rng.range(2, 64);
            (m, rng.range(0, m))
        }
        (_, 1) => {
            let m = rng.range(2, 5000);
            (m, rng.range(0, m))
        }
        _ => {
            let m = rng.range(2, 1 << 31);
            (m, rng.range(0, m / 2))
        }
    };
    // An unsigned buffer holds no negative values.
    let c = if elem == Elem::Uns { 0 } else { c };
    let a = if m > 5000 { a * rng.range(1, 50_000_000) } else { a };
    let values = (0..len as i64).map(|i| ((i * a + b) % m - c) as f64);
    match elem {
        Elem::Float => {
            let r = Range::of(values.map(|v| v / 4.0), 2);
            (format!("((i * {a} + {b}) % {m} - {c}) * 0.25"), r)
        }
        _ if c == 0 => (format!("(i * {a} + {b}) % {m}"), Range::of(values, 0)),
        _ => (format!("(i * {a} + {b}) % {m} - {c}"), Range::of(values, 0)),
    }
}

/// Generates the kernel for `seed`: the same seed always gives the same kernel.
pub fn generate(seed: u64) -> Kernel {
    generate_with(seed, Config::default())
}

pub fn generate_with(seed: u64, cfg: Config) -> Kernel {
    let mut rng = Rng::new(seed ^ 0x5eed_d1ff_0000_0000);
    let launch = *rng.pick(&Launch::CHOICES);
    let name = format!("k{seed}");
    let mut g = Gen {
        rng,
        launch,
        vars: Vec::new(),
        inputs: Vec::new(),
        helpers: Vec::new(),
        callable: 0,
        shared: None,
        features: BTreeSet::new(),
        text: String::new(),
        indent: 0,
        budget: 0,
        fresh: 0,
        converged: true,
        in_helper: None,
        out: None,
        counter: None,
        shared_elem: None,
        frames: Vec::new(),
        diverges: false,
        nesting: 0,
        cfg,
    };
    for k in 0..g.rng.below(3) {
        g.helper(&format!("{name}_f{k}"));
    }
    let params = g.params();
    g.kernel(&name, &params);
    Kernel { seed, name, launch, params, source: g.text, features: g.features }
}

impl Gen {
    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.text.push_str("    ");
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    pub fn fresh(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// The kernel's parameters: `out`, 0-2 input buffers, sometimes a counter buffer for
    /// atomics (1-3 pointers in all), and 0-2 `int` scalars, in a random order.
    fn params(&mut self) -> Vec<Param> {
        let len = buffer_len(self.launch);
        let mut params = Vec::new();
        let out = *self.rng.pick(&Elem::ALL);
        let init = self.rng.chance(60).then(|| init_formula(&mut self.rng, out, len).0);
        params.push(Param { name: "out".into(), kind: ParamKind::Buffer { elem: out, len, init }, decl: format!("{}* out", out.c_name()) });
        self.out = Some(("out".into(), out));
        let mut pointers = 1;
        if self.rng.chance(30) {
            let elem = if self.rng.chance(50) { Elem::Int } else { Elem::Uns };
            let ops: &[&str] = match elem {
                Elem::Int => &["atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicOr", "atomicXor", "atomicAnd"],
                _ => &["atomicAdd", "atomicMax", "atomicMin", "atomicOr", "atomicXor", "atomicAnd"],
            };
            let op = *self.rng.pick(ops);
            let init = if op == "atomicAnd" {
                Some("0 - 1".to_string())
            } else {
                self.rng.chance(50).then(|| init_formula(&mut self.rng, elem, 8).0)
            };
            params.push(Param {
                name: "cnt".into(),
                kind: ParamKind::Buffer { elem, len: 8, init },
                decl: format!("{}* cnt", elem.c_name()),
            });
            self.counter = Some(("cnt".into(), elem, op));
            pointers += 1;
        }
        for name in ["a", "b"] {
            if pointers == 3 || !self.rng.chance(if name == "a" { 85 } else { 50 }) {
                break;
            }
            pointers += 1;
            let elem = *self.rng.pick(&Elem::ALL);
            let (init, r) = init_formula(&mut self.rng, elem, len);
            let restrict = if self.rng.chance(40) { " __restrict__" } else { "" };
            self.inputs.push(Input { name: name.into(), elem, len, r });
            params.push(Param {
                name: name.into(),
                kind: ParamKind::Buffer { elem, len, init: Some(init) },
                decl: format!("const {}*{restrict} {name}", elem.c_name()),
            });
        }
        let first = self.launch.index_range().lo as i64;
        for name in ["n", "m"] {
            if !self.rng.chance(45) {
                break;
            }
            // Near the warp's indices, so `i < n` splits the warp.
            let value = if self.rng.chance(60) { self.rng.range(first - 4, first + 36) } else { self.rng.range(-10, 40) };
            self.vars.push(Var { name: name.into(), ty: Elem::Int, r: Range::int(value as f64, value as f64), mutable: false });
            params.push(Param { name: name.into(), kind: ParamKind::Scalar { value }, decl: format!("int {name}") });
        }
        // Fisher-Yates: the PTX side must find each parameter by its position.
        for k in (1..params.len()).rev() {
            let j = self.rng.below(k as u64 + 1) as usize;
            params.swap(k, j);
        }
        params
    }

    /// A `__device__` function of 1-3 scalar parameters: a few statements, then a return.
    fn helper(&mut self, name: &str) {
        let ret = *self.rng.pick(&Elem::ALL);
        let params: Vec<Elem> = (0..self.rng.range(1, 3)).map(|_| *self.rng.pick(&Elem::ALL)).collect();
        let noinline = self.rng.chance(50);
        self.features.insert(if noinline { "__noinline__ helpers" } else { "helpers" });
        let list: Vec<String> = params.iter().enumerate().map(|(k, t)| format!("{} p{k}", t.c_name())).collect();
        let attr = if noinline { "__device__ __noinline__" } else { "__device__" };
        self.line(&format!("{attr} {} {name}({}) {{", ret.c_name(), list.join(", ")));
        self.vars = params.iter().enumerate().map(|(k, &ty)| Var { name: format!("p{k}"), ty, r: invariant(ty), mutable: true }).collect();
        // Known bug 5 (mod.rs): a helper calling a helper can make pdom-ssy fault.
        self.callable = if self.cfg.avoid_known_bugs { 0 } else { self.helpers.len() };
        self.in_helper = Some(ret);
        self.budget = self.rng.range(2, 7) as i32;
        self.diverges = false;
        let ctx = Ctx { top: false, in_loop: false, loops: 0 };
        self.block(2, ctx);
        self.indent = 1;
        let e = self.expr(ret, 3);
        let e = self.fit(e, ret);
        self.line(&format!("return {};", e.text));
        self.indent = 0;
        self.line("}");
        self.vars.clear();
        self.in_helper = None;
        self.helpers.push(Helper { name: name.into(), params, ret, returns_early: self.diverges });
    }

    fn kernel(&mut self, name: &str, params: &[Param]) {
        let decls: Vec<&str> = params.iter().map(|p| p.decl.as_str()).collect();
        self.line(&format!("__global__ void {name}({}) {{", decls.join(", ")));
        self.indent = 1;
        self.callable = self.helpers.len();
        self.line("int i = blockIdx.x * blockDim.x + threadIdx.x;");
        let lane = if self.rng.chance(50) { "int lane = threadIdx.x % 32;" } else { "int lane = threadIdx.x & 31;" };
        self.line(lane);
        self.vars.push(Var { name: "i".into(), ty: Elem::Int, r: self.launch.index_range(), mutable: false });
        self.vars.push(Var { name: "lane".into(), ty: Elem::Int, r: Range::int(0.0, 31.0), mutable: false });
        if self.rng.chance(35) {
            let elem = *self.rng.pick(&Elem::ALL);
            self.line(&format!("__shared__ {} sh[{}];", elem.c_name(), self.launch.block));
            self.line("int wbase = (int)threadIdx.x - lane;");
            let w = (self.launch.warp * 32) as f64;
            self.vars.push(Var { name: "wbase".into(), ty: Elem::Int, r: Range::int(w, w), mutable: false });
            self.shared_elem = Some(elem);
        }
        for _ in 0..self.rng.range(2, 4) {
            self.declare(3);
        }
        if self.rng.chance(20) && self.vars.iter().any(|v| v.name == "n") {
            self.features.insert("early return");
            self.line("if (i >= n) return;");
            self.converged = false;
        }
        self.budget = self.rng.range(8, 28) as i32;
        let ctx = Ctx { top: true, in_loop: false, loops: 0 };
        while self.budget > 0 {
            self.stmt(3, ctx);
        }
        self.final_store();
        self.indent = 0;
        self.line("}");
    }

    /// Stores every local, folded into one value, so the result depends on all of them.
    fn final_store(&mut self) {
        let (out, elem) = self.out.clone().expect("a kernel has an output");
        let locals: Vec<Var> = self.vars.iter().filter(|v| v.mutable).cloned().collect();
        let mut parts = Vec::new();
        for (k, v) in locals.iter().enumerate() {
            let bits = match v.ty {
                Elem::Int => format!("(unsigned){}", v.name),
                Elem::Uns => v.name.clone(),
                // A variable's floats are multiples of 1/64 below 1024: times 64, whole numbers.
                Elem::Float => format!("(unsigned)(int)({} * 64.0f)", v.name),
            };
            parts.push(format!("{bits} * {}u", 2 * k + 1));
        }
        let hash = if parts.is_empty() { "0u".to_string() } else { parts.join(" ^ ") };
        let value = match elem {
            Elem::Int => format!("(int)({hash})"),
            Elem::Uns => hash,
            Elem::Float => format!("(float)(({hash}) & 0xffffu) * 0.5f"),
        };
        self.line(&format!("{out}[i] = {value};"));
    }
}
