//! The syntax tree of the CUDA-C subset. Every node keeps its span, so later passes can name
//! the construct at fault and the code generator can map instructions back to source lines.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::Span;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scalar {
    /// `char` and `signed char` (CUDA's `char` is signed), `unsigned char`, `short` and
    /// `unsigned short`: held widened in a 32-bit register, and narrowed when stored or
    /// assigned; in arithmetic they are `int`s, as C promotes them.
    Char,
    UChar,
    Short,
    UShort,
    Int,
    Unsigned,
    Float,
    Bool,
    /// `long long` (and `long`, 64 bits as on Linux): a register pair, low word first.
    Long,
    /// `unsigned long long`, `size_t`.
    ULong,
    Double,
}

impl Scalar {
    /// 64 bits: held in a register pair, 8 bytes in memory.
    pub fn wide(self) -> bool {
        matches!(self, Scalar::Long | Scalar::ULong | Scalar::Double)
    }
    pub fn float(self) -> bool {
        matches!(self, Scalar::Float | Scalar::Double)
    }
    /// An integer type whose values are read unsigned.
    pub fn unsigned(self) -> bool {
        matches!(self, Scalar::Unsigned | Scalar::ULong | Scalar::Bool | Scalar::UChar | Scalar::UShort)
    }
    /// A byte or halfword type: its bits and whether it is signed.
    pub fn narrow(self) -> Option<(u32, bool)> {
        match self {
            Scalar::Char => Some((8, true)),
            Scalar::UChar => Some((8, false)),
            Scalar::Short => Some((16, true)),
            Scalar::UShort => Some((16, false)),
            _ => None,
        }
    }
    /// The type it has in arithmetic: a byte or halfword is promoted to `int` (every value of
    /// theirs is one), others are themselves.
    pub fn promoted(self) -> Scalar {
        if self.narrow().is_some() {
            Scalar::Int
        } else {
            self
        }
    }
    /// How a load or store moves it when it is narrower than a word: its bits and whether the
    /// load sign-extends. A `bool` is a byte in memory, as in CUDA, though a register holds it
    /// as 0 or 1 (so it is not `narrow`: a value becomes a `bool` by comparing with zero).
    pub fn stored_narrow(self) -> Option<(u32, bool)> {
        match self {
            Scalar::Bool => Some((8, false)),
            s => s.narrow(),
        }
    }
    /// Bytes in memory.
    pub fn bytes(self) -> u32 {
        match self.stored_narrow() {
            Some((bits, _)) => bits / 8,
            None if self.wide() => 8,
            None => 4,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    Void,
    Scalar(Scalar),
    /// A pointer to global memory holding elements of this type.
    Ptr(Scalar),
    /// One of CUDA's vector types (`float4`, `uchar4`, `int2`): 1 to 4 components `.x`, `.y`,
    /// `.z`, `.w` of a 32-bit or narrower scalar, held in as many registers in a row, and in
    /// memory one after another.
    Vector(Scalar, u8),
    /// A pointer to elements of a vector type (`uchar4*`).
    VecPtr(Scalar, u8),
    /// A struct or class the file defines, held in a row of registers, field after field
    /// (`structs::Structs` has its fields; the row's length and the bytes are here, so a
    /// type's size needs no table).
    Struct(StructRef),
    /// A pointer to elements of a struct (`Node*`).
    StructPtr(StructRef),
}

/// A struct type: its index in the file's `structs::Structs`, the registers a value of it
/// takes, and its size and alignment in memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StructRef {
    pub id: u16,
    pub regs: u8,
    pub align: u8,
    /// Kept to 16 bits so a `Ty` stays 8 bytes (a struct fits 200 registers, far below).
    pub bytes: u16,
}

/// The vector types' names: `uchar4` is `(UChar, 4)`. The first seven are the ones the C
/// compiler has (`VECTOR_NAMES` follows their order); the 64-bit ones are only read, from PTX's and
/// SASS's mangled names.
const VECTOR_BASES: [(&str, Scalar); 12] = [
    ("char", Scalar::Char),
    ("uchar", Scalar::UChar),
    ("short", Scalar::Short),
    ("ushort", Scalar::UShort),
    ("int", Scalar::Int),
    ("uint", Scalar::Unsigned),
    ("float", Scalar::Float),
    ("double", Scalar::Double),
    ("long", Scalar::Long),
    ("longlong", Scalar::Long),
    ("ulong", Scalar::ULong),
    ("ulonglong", Scalar::ULong),
];

/// The components' names, in order.
const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// Every vector type's name and its pointer's, by base and width.
#[rustfmt::skip]
const VECTOR_NAMES: [[(&str, &str); 4]; 7] = [
    [("char1", "char1*"), ("char2", "char2*"), ("char3", "char3*"), ("char4", "char4*")],
    [("uchar1", "uchar1*"), ("uchar2", "uchar2*"), ("uchar3", "uchar3*"), ("uchar4", "uchar4*")],
    [("short1", "short1*"), ("short2", "short2*"), ("short3", "short3*"), ("short4", "short4*")],
    [("ushort1", "ushort1*"), ("ushort2", "ushort2*"), ("ushort3", "ushort3*"), ("ushort4", "ushort4*")],
    [("int1", "int1*"), ("int2", "int2*"), ("int3", "int3*"), ("int4", "int4*")],
    [("uint1", "uint1*"), ("uint2", "uint2*"), ("uint3", "uint3*"), ("uint4", "uint4*")],
    [("float1", "float1*"), ("float2", "float2*"), ("float3", "float3*"), ("float4", "float4*")],
];

/// The scalar and width a vector type's name spells (`double2` is `(Double, 2)`), 64-bit ones
/// included; `None` for any other word.
pub fn vector_parts(word: &str) -> Option<(Scalar, u8)> {
    let (base, width) = word.split_at(word.len().checked_sub(1).filter(|_| word.ends_with(|c: char| c.is_ascii_digit()))?);
    let width = width.parse::<u8>().ok().filter(|w| (1..=4).contains(w))?;
    VECTOR_BASES.iter().find(|(n, _)| *n == base).map(|&(_, s)| (s, width))
}

/// What a vector type's name says to the C compiler: `float4` is `Ok((Float, 4))`; a vector of
/// 64-bit values (`double2`, `longlong2`) is `Err` with why; `None` for any other word.
pub fn vector_of(word: &str) -> Option<Result<(Scalar, u8), alloc::string::String>> {
    vector_parts(word).map(|(s, n)| match s.wide() {
        false => Ok((s, n)),
        true => {
            Err(alloc::format!("`{word}` is not supported: vectors of 64-bit values are not (vectors of 32-bit and narrower ones are)"))
        }
    })
}

/// A vector component's index by name (`.x` is 0).
pub fn component(name: &str) -> Option<u8> {
    COMPONENTS.iter().position(|c| *c == name).map(|i| i as u8)
}

/// A component's name by index (`3` is `w`).
pub fn component_name(k: u8) -> &'static str {
    COMPONENTS[k as usize % 4]
}

fn vector_name(s: Scalar, n: u8) -> (&'static str, &'static str) {
    let base = VECTOR_BASES[..VECTOR_NAMES.len()].iter().position(|(_, b)| *b == s).unwrap_or(0);
    VECTOR_NAMES[base][(n.clamp(1, 4) - 1) as usize]
}

impl Ty {
    pub const INT: Ty = Ty::Scalar(Scalar::Int);
    pub const UNSIGNED: Ty = Ty::Scalar(Scalar::Unsigned);
    pub const FLOAT: Ty = Ty::Scalar(Scalar::Float);
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);
    pub const LONG: Ty = Ty::Scalar(Scalar::Long);
    pub const ULONG: Ty = Ty::Scalar(Scalar::ULong);
    pub const DOUBLE: Ty = Ty::Scalar(Scalar::Double);

    pub fn name(self) -> &'static str {
        const NAMES: [(Scalar, &str, &str); 11] = [
            (Scalar::Int, "int", "int*"),
            (Scalar::Char, "char", "char*"),
            (Scalar::UChar, "unsigned char", "unsigned char*"),
            (Scalar::Short, "short", "short*"),
            (Scalar::UShort, "unsigned short", "unsigned short*"),
            (Scalar::Unsigned, "unsigned", "unsigned*"),
            (Scalar::Float, "float", "float*"),
            (Scalar::Bool, "bool", "bool*"),
            (Scalar::Long, "long long", "long long*"),
            (Scalar::ULong, "unsigned long long", "unsigned long long*"),
            (Scalar::Double, "double", "double*"),
        ];
        let find = |s: Scalar| NAMES.iter().find(|n| n.0 == s).copied().unwrap_or(NAMES[0]);
        match self {
            Ty::Void => "void",
            Ty::Scalar(s) => find(s).1,
            Ty::Ptr(s) => find(s).2,
            Ty::Vector(s, n) => vector_name(s, n).0,
            Ty::VecPtr(s, n) => vector_name(s, n).1,
            // Its own name is in the file's table: `Structs::name_of`.
            Ty::Struct(_) => "struct",
            Ty::StructPtr(_) => "struct*",
        }
    }

    /// What a pointer points at: the scalar and how many of it an element holds (1 but for a
    /// vector type's; `float1*` too is a vector's).
    pub fn pointee(self) -> Option<(Scalar, u8)> {
        match self {
            Ty::Ptr(s) => Some((s, 1)),
            Ty::VecPtr(s, n) => Some((s, n)),
            _ => None,
        }
    }

    pub fn is_pointer(self) -> bool {
        self.pointee().is_some() || matches!(self, Ty::StructPtr(_))
    }

    /// The type of what a pointer points at (`uchar4` for `uchar4*`).
    pub fn pointee_ty(self) -> Option<Ty> {
        match self {
            Ty::Ptr(s) => Some(Ty::Scalar(s)),
            Ty::VecPtr(s, n) => Some(Ty::Vector(s, n)),
            Ty::StructPtr(r) => Some(Ty::Struct(r)),
            _ => None,
        }
    }

    /// A pointer to elements of this type (`Node*` for `Node`).
    pub fn pointer_to(self) -> Option<Ty> {
        match self {
            Ty::Scalar(s) => Some(Ty::Ptr(s)),
            Ty::Vector(s, n) => Some(Ty::VecPtr(s, n)),
            Ty::Struct(r) => Some(Ty::StructPtr(r)),
            _ => None,
        }
    }

    /// Bytes its values align to in memory: a scalar's size, a `float2` 8 and a `float4` 16
    /// (CUDA aligns the vectors of 2 and 4), a `float3` its component's, a struct its widest field's.
    pub fn align(self) -> u32 {
        match self {
            Ty::Scalar(s) => s.bytes(),
            Ty::Vector(s, 2 | 4) => s.bytes() * self.registers() as u32,
            Ty::Vector(s, _) => s.bytes(),
            Ty::Struct(r) => r.align as u32,
            _ => 8,
        }
    }

    /// Registers a value of it takes: 2 for a 64-bit value, one per component for a vector.
    pub fn registers(self) -> u8 {
        match self {
            Ty::Vector(_, n) => n,
            Ty::Struct(r) => r.regs,
            t if t.wide() => 2,
            _ => 1,
        }
    }

    /// A 64-bit value (a register pair).
    pub fn wide(self) -> bool {
        matches!(self, Ty::Scalar(s) if s.wide())
    }

    /// `sizeof`: its bytes in CUDA (`void` has none).
    pub fn size_of(self) -> Option<u64> {
        match self {
            Ty::Void => None,
            Ty::Scalar(s) => Some(s.bytes() as u64),
            Ty::Ptr(_) | Ty::VecPtr(..) | Ty::StructPtr(_) => Some(8),
            Ty::Vector(s, n) => Some(s.bytes() as u64 * n as u64),
            Ty::Struct(r) => Some(r.bytes as u64),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A binary operator as written: `&&` and `||` short-circuit, the others are `BinOp`s.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Infix {
    Op(BinOp),
    Logical { and: bool },
}

/// C's binary operators with their precedence (higher binds tighter; `?:` binds below all).
#[rustfmt::skip]
pub const INFIX: [(&str, Infix, u8); 18] = {
    use BinOp::*;
    use Infix::{Logical as L, Op};
    [
        ("||", L { and: false }, 1), ("&&", L { and: true }, 2), ("|", Op(BitOr), 3), ("^", Op(BitXor), 4),
        ("&", Op(BitAnd), 5), ("==", Op(Eq), 6), ("!=", Op(Ne), 6), ("<", Op(Lt), 7), ("<=", Op(Le), 7),
        (">", Op(Gt), 7), (">=", Op(Ge), 7), ("<<", Op(Shl), 8), (">>", Op(Shr), 8), ("+", Op(Add), 9),
        ("-", Op(Sub), 9), ("*", Op(Mul), 10), ("/", Op(Div), 10), ("%", Op(Rem), 10),
    ]
};

impl Infix {
    /// The operator a token spells, with its precedence.
    pub fn from_symbol(p: &str) -> Option<(Infix, u8)> {
        INFIX.iter().find(|i| i.0 == p).map(|i| (i.1, i.2))
    }
    fn entry(self) -> (&'static str, u8) {
        INFIX.iter().find(|i| i.1 == self).map_or(("?", 0), |i| (i.0, i.2))
    }
    pub fn symbol(self) -> &'static str {
        self.entry().0
    }
    pub fn prec(self) -> u8 {
        self.entry().1
    }
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        Infix::Op(self).symbol()
    }
    pub fn prec(self) -> u8 {
        Infix::Op(self).prec()
    }

    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

/// The launch's built-in variables (`threadIdx.y`, `blockIdx.x`, ...; the field is 0 for x, 1
/// for y, 2 for z) and `laneid`, each read from its special register.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    ThreadIdx(u8),
    BlockIdx(u8),
    BlockDim(u8),
    GridDim(u8),
    LaneId,
}

impl Special {
    /// How many distinct specials there are (the lowering keeps one register slot for each).
    pub const COUNT: usize = 13;

    /// The built-in a name and field spell (`blockIdx`, `y`).
    pub fn from_member(base: &str, field: &str) -> Option<Special> {
        let dim = ["x", "y", "z"].iter().position(|f| *f == field)? as u8;
        Some(match base {
            "threadIdx" => Special::ThreadIdx(dim),
            "blockIdx" => Special::BlockIdx(dim),
            "blockDim" => Special::BlockDim(dim),
            "gridDim" => Special::GridDim(dim),
            _ => return None,
        })
    }

    pub fn index(self) -> usize {
        match self {
            Special::ThreadIdx(d) => d as usize,
            Special::BlockIdx(d) => 3 + d as usize,
            Special::BlockDim(d) => 6 + d as usize,
            Special::GridDim(d) => 9 + d as usize,
            Special::LaneId => 12,
        }
    }

    pub fn all() -> impl Iterator<Item = Special> {
        (0..3u8)
            .flat_map(|d| [Special::ThreadIdx(d), Special::BlockIdx(d), Special::BlockDim(d), Special::GridDim(d)])
            .chain([Special::LaneId])
    }

    /// The special register it reads (`SR_CTAID.Y`).
    pub fn register(self) -> &'static str {
        const DIMS: [[&str; 3]; 4] = [
            ["SR_TID.X", "SR_TID.Y", "SR_TID.Z"],
            ["SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z"],
            ["SR_NTID.X", "SR_NTID.Y", "SR_NTID.Z"],
            ["SR_NCTAID.X", "SR_NCTAID.Y", "SR_NCTAID.Z"],
        ];
        match self {
            Special::ThreadIdx(d) => DIMS[0][d as usize % 3],
            Special::BlockIdx(d) => DIMS[1][d as usize % 3],
            Special::BlockDim(d) => DIMS[2][d as usize % 3],
            Special::GridDim(d) => DIMS[3][d as usize % 3],
            Special::LaneId => "SR_LANEID",
        }
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    /// In C at most 32 bits; a header expression's integers have 64.
    Int {
        value: u64,
        unsigned: bool,
    },
    /// In C a `float`; header expressions compute in `f64`.
    Float(f64),
    Bool(bool),
    Var(String),
    Special(Special),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `&&` (true) or `||` (false): evaluated with real short-circuit branches.
    Logical {
        and: bool,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` or `lhs op= rhs`.
    Assign {
        op: Option<BinOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `++x`, `x--`...: `inc` adds one, `prefix` yields the new value.
    IncDec {
        inc: bool,
        prefix: bool,
        target: Box<Expr>,
    },
    Index(Box<Expr>, Box<Expr>),
    Deref(Box<Expr>),
    AddrOf(Box<Expr>),
    Call {
        name: String,
        args: Vec<Expr>,
    },
    Cast(Ty, Box<Expr>),
    /// A vector's component (`v.x`) or a struct's field (`n.starting`; `p->f` is `(*p).f`).
    Member(Box<Expr>, String),
    /// `obj.name(args)`: a struct's member function, called on `obj` (boxed, so an `Expr`
    /// stays small: the parser's and lowering's frames hold many).
    Method(Box<MethodCall>),
    /// A struct's value made from `args`: by its constructor (`cuComplex(a, b)`,
    /// `cuComplex c(a, b);`), or field by field (`Node n = {1, 2};`, `braces`).
    Construct {
        ty: Ty,
        args: Vec<Expr>,
        braces: bool,
    },
    /// A string literal (adjacent ones joined): only `printf`'s format and `%s` arguments.
    Str(String),
}

#[derive(Clone, PartialEq, Debug)]
pub struct MethodCall {
    pub obj: Expr,
    pub name: String,
    pub args: Vec<Expr>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, PartialEq, Debug)]
pub enum StmtKind {
    /// `int a = 1, b;` declares each name in turn.
    Decl(Vec<(Ty, String, Span, Option<Expr>)>),
    Expr(Expr),
    Block(Vec<Stmt>),
    /// The parts of one declaration that are different statements, in the enclosing scope
    /// (`int h[64], *d;` in host code: an array in host memory, then a pointer).
    Seq(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        /// The increments, in order (`i++, j--`).
        step: Vec<Expr>,
        body: Box<Stmt>,
    },
    /// The body's statements with the case labels among them, in order (fall-through).
    Switch {
        value: Expr,
        body: Vec<SwitchItem>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(String),
    Label(String, Box<Stmt>),
    /// `__shared__ float s[32][33];`: an array in the block's shared memory.
    /// `__shared__ float a[4], b;`: one or more variables in the block's shared memory.
    Shared(Vec<MemoryDecl>),
    Empty,
}

/// A variable or array in memory rather than registers: `__shared__` (in a function or at file
/// scope), `__constant__` or `__device__` (file scope). A scalar has no dims; `extern
/// __shared__ s[]` has one dim of `None`, sized by the launch.
#[derive(Clone, PartialEq, Debug)]
pub struct MemoryDecl {
    pub space: Space,
    pub elem: Scalar,
    /// Components per element: 1, or a vector type's (`float3` is 3 `float`s), or a struct's
    /// scalars (`elem` all of them, or the words or bytes it spans).
    pub width: u8,
    /// The struct its elements are (`__shared__ Particle s[64]`).
    pub strukt: Option<StructRef>,
    pub name: String,
    pub dims: Vec<Option<u32>>,
    /// `= {1, 2, 3}` or `= 5` (not for `__shared__`): the first elements, in order.
    pub init: Option<Vec<Expr>>,
    pub span: Span,
}

/// Which memory a `MemoryDecl` lives in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Space {
    /// The block's shared memory (`LDS`/`STS`).
    Shared,
    /// `__constant__`: global memory the kernel only reads (the host writes it with
    /// `cudaMemcpyToSymbol`).
    Constant,
    /// `__device__` (or `__managed__`): global memory the kernel reads and writes.
    Global,
    /// An array in a program's host code (`int counts[32];`), in host memory.
    Host,
}

impl Space {
    /// The qualifier that declares it.
    pub fn qualifier(self) -> &'static str {
        match self {
            Space::Shared => "__shared__",
            Space::Constant => "__constant__",
            Space::Global => "__device__",
            Space::Host => "host",
        }
    }
}

/// A skipped piece of host code: where it is and the function it defines, if any.
#[derive(Clone, PartialEq, Debug)]
pub struct HostItem {
    pub span: Span,
    pub last_line: u32,
    pub name: Option<String>,
}

/// A whole source file: its device functions, file-scope `__shared__`, `__constant__` and
/// `__device__` variables and the host code that was skipped.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Unit {
    pub funcs: Vec<Function>,
    /// Function templates, instantiated where used (`template`).
    pub templates: Vec<super::template::TemplateDef>,
    pub memory: Vec<MemoryDecl>,
    pub host: Vec<HostItem>,
    /// The structs and classes it defines (their member functions are in `funcs`).
    pub structs: super::structs::Structs,
}

#[derive(Clone, PartialEq, Debug)]
pub enum SwitchItem {
    /// `case K:` (Some) or `default:` (None).
    Case(Option<i64>, Span),
    Stmt(Stmt),
}

#[derive(Clone, PartialEq, Debug)]
pub struct Param {
    pub ty: Ty,
    pub name: String,
    pub span: Span,
    /// A C++ reference (`unsigned int &state`): the caller's variable gets the value back.
    pub by_ref: bool,
    /// A default argument (`float scale = 1.0f`), which a call that leaves it out passes.
    pub default: Option<Expr>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Function {
    pub name: String,
    pub kernel: bool,
    /// Host code (`main` and the functions it calls), read only when compiling a whole program.
    pub host: bool,
    pub ret: Ty,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub span: Span,
}
