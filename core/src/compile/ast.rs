//! The syntax tree of the CUDA-C subset. Every node keeps its span, so later passes can name
//! the construct at fault and the code generator can map instructions back to source lines.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::Span;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scalar {
    Int,
    Unsigned,
    Float,
    Bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    Void,
    Scalar(Scalar),
    /// A pointer to global memory holding elements of this type.
    Ptr(Scalar),
}

impl Ty {
    pub const INT: Ty = Ty::Scalar(Scalar::Int);
    pub const UNSIGNED: Ty = Ty::Scalar(Scalar::Unsigned);
    pub const FLOAT: Ty = Ty::Scalar(Scalar::Float);
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);

    pub fn name(self) -> &'static str {
        match self {
            Ty::Void => "void",
            Ty::Scalar(Scalar::Int) => "int",
            Ty::Scalar(Scalar::Unsigned) => "unsigned",
            Ty::Scalar(Scalar::Float) => "float",
            Ty::Scalar(Scalar::Bool) => "bool",
            Ty::Ptr(Scalar::Int) => "int*",
            Ty::Ptr(Scalar::Unsigned) => "unsigned*",
            Ty::Ptr(Scalar::Float) => "float*",
            Ty::Ptr(Scalar::Bool) => "bool*",
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

/// `threadIdx.x`, `blockDim.x`, `laneid`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    ThreadIdx,
    BlockDim,
    LaneId,
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
        step: Option<Expr>,
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
    Empty,
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
}

#[derive(Clone, PartialEq, Debug)]
pub struct Function {
    pub name: String,
    pub kernel: bool,
    pub ret: Ty,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub span: Span,
}
