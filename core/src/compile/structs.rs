//! Structs and classes as kernels write them: Rodinia's `struct Node` array, a complex number
//! with a constructor and operators, a particle of `float3`s. A value of one is a row of
//! registers, field after field (a 64-bit field a pair, a vector one per component), as nvcc's
//! code holds a struct it has broken into scalars; in memory it has C's layout, each field at
//! its alignment. Member functions are functions of their own (`cuComplex::operator*`) whose
//! first parameter is the object, `this`: a reference when they change a field, so the
//! caller's object gets the fields back.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Scalar, StructRef, Ty};
use crate::diag::{Diagnostic, Span};

/// A field: its name, type, first register in the row and byte offset in memory.
#[derive(Clone, PartialEq, Debug)]
pub struct Field {
    pub name: String,
    pub ty: Ty,
    pub reg: u8,
    pub byte: u32,
}

/// A member function: its C++ name (`magnitude2`, `operator*`, `operator float*`), the
/// function it compiles to, how many parameters it takes besides `this`, and for a conversion
/// operator the type it converts to.
#[derive(Clone, PartialEq, Debug)]
pub struct Method {
    pub name: String,
    pub func: String,
    pub params: usize,
    /// Its parameters' types (besides `this`), for choosing among overloads.
    pub param_tys: Vec<Ty>,
    /// How many arguments a call must give (the rest have defaults).
    pub least: usize,
    pub ret: Ty,
    pub converts_to: Option<Ty>,
}

impl Method {
    /// Whether a call with `n` arguments can call it.
    pub fn takes(&self, n: usize) -> bool {
        (self.least..=self.params).contains(&n)
    }
}

/// How well arguments of types `args` fit parameters `params`: `None` when one cannot convert
/// (a struct to another type, a pointer to a number), else a score, higher for more exact fits.
pub fn fit(params: &[Ty], args: &[Ty]) -> Option<u32> {
    let mut score = 0;
    for (p, a) in params.iter().zip(args) {
        score += match (p, a) {
            _ if p == a => 2,
            // A struct parameter takes only its own struct.
            (Ty::Struct(_), _) => return None,
            (Ty::Scalar(_), Ty::Scalar(_)) => 1,
            (p, a) if p.is_pointer() && a.is_pointer() => 1,
            // A struct converts only by its conversion operator, which the call then finds.
            (_, Ty::Struct(_)) => 0,
            _ => return None,
        };
    }
    Some(score)
}

#[derive(Clone, PartialEq, Debug)]
pub struct StructDef {
    pub name: String,
    /// `struct` or `class`, as the file says.
    pub kind: &'static str,
    pub fields: Vec<Field>,
    pub methods: Vec<Method>,
    /// Its constructors (`Method::name` is the struct's).
    pub ctors: Vec<Method>,
    pub span: Span,
    pub r: StructRef,
}

/// One scalar (or pointer) of a value's row: its register, its byte offset and its type.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Leaf {
    pub reg: u8,
    pub byte: u32,
    pub ty: Ty,
}

/// The file's structs, by `StructRef::id`.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Structs {
    defs: Vec<StructDef>,
    /// Other names of a struct: a typedef's tag (`typedef struct node { } Node;`).
    aliases: Vec<(String, StructRef)>,
    /// Operators defined outside structs (`cuComplex operator+(cuComplex a, cuComplex b)`):
    /// the operator, the function and its parameters' types.
    operators: Vec<(String, String, Vec<Ty>)>,
}

/// No structs: what lowering sees where a file defines none.
pub static NO_STRUCTS: Structs = Structs { defs: Vec::new(), aliases: Vec::new(), operators: Vec::new() };

fn align_up(n: u32, to: u32) -> u32 {
    n.div_ceil(to.max(1)) * to.max(1)
}

impl Structs {
    /// Lays out a struct of these fields and adds it: each field at its alignment, the size a
    /// multiple of the widest one's, as C and nvcc lay it out.
    /// `min_align` is what `__align__(n)` asks for (1 otherwise).
    pub fn define(
        &mut self,
        name: &str,
        kind: &'static str,
        fields: &[(String, Ty, Span)],
        min_align: u32,
        span: Span,
    ) -> Result<StructRef, Diagnostic> {
        if self.by_name(name).is_some() {
            return Err(Diagnostic::error(span, format!("`{name}` is defined twice")));
        }
        let (mut byte, mut reg, mut align) = (0u32, 0u32, min_align.max(1));
        let mut out: Vec<Field> = Vec::new();
        for (fname, ty, fspan) in fields {
            if out.iter().any(|f| f.name == *fname) {
                return Err(Diagnostic::error(*fspan, format!("`{name}` has two fields named `{fname}`")));
            }
            let Some(size) = ty.size_of() else {
                return Err(Diagnostic::error(*fspan, format!("a field cannot be `{}`", self.name_of(*ty))));
            };
            byte = align_up(byte, ty.align());
            out.push(Field { name: fname.clone(), ty: *ty, reg: reg as u8, byte });
            byte += size as u32;
            reg += ty.registers() as u32;
            if byte > 0x8000 {
                return Err(Diagnostic::error(*fspan, format!("`{name}` is too large (over 32 KiB)")));
            }
            align = align.max(ty.align());
            if reg > 200 {
                return Err(Diagnostic::error(*fspan, format!("`{name}` is too large to hold in registers (over 200 words)")));
            }
        }
        let r = StructRef { id: self.defs.len() as u16, regs: reg as u8, align: align as u8, bytes: align_up(byte, align).max(1) as u16 };
        self.defs.push(StructDef { name: String::from(name), kind, fields: out, methods: Vec::new(), ctors: Vec::new(), span, r });
        Ok(r)
    }

    pub fn by_name(&self, name: &str) -> Option<StructRef> {
        let alias = || self.aliases.iter().find(|a| a.0 == name).map(|a| a.1);
        self.defs.iter().find(|d| d.name == name).map(|d| d.r).or_else(alias)
    }

    pub fn alias(&mut self, name: &str, r: StructRef) {
        self.aliases.push((String::from(name), r));
    }

    pub fn def(&self, r: StructRef) -> Option<&StructDef> {
        self.defs.get(r.id as usize)
    }

    pub fn def_mut(&mut self, r: StructRef) -> Option<&mut StructDef> {
        self.defs.get_mut(r.id as usize)
    }

    pub fn field(&self, r: StructRef, name: &str) -> Option<&Field> {
        self.def(r)?.fields.iter().find(|f| f.name == name)
    }

    /// A type's name as the file spells it (`cuComplex`, `Node*`).
    pub fn name_of(&self, ty: Ty) -> String {
        let named = |r: StructRef| self.def(r).map_or(String::from("struct"), |d| d.name.clone());
        match ty {
            Ty::Struct(r) => named(r),
            Ty::StructPtr(r) => format!("{}*", named(r)),
            t => String::from(t.name()),
        }
    }

    /// The scalars and pointers a value of `ty` is made of, in order (a struct's fields'
    /// recursively, a vector's components).
    pub fn leaves(&self, ty: Ty) -> Vec<Leaf> {
        let mut out = Vec::new();
        self.leaves_into(ty, 0, 0, &mut out);
        out
    }

    fn leaves_into(&self, ty: Ty, reg: u8, byte: u32, out: &mut Vec<Leaf>) {
        match ty {
            Ty::Vector(s, n) => {
                out.extend((0..n).map(|k| Leaf { reg: reg + k, byte: byte + k as u32 * s.bytes(), ty: Ty::Scalar(s) }));
            }
            Ty::Struct(r) => {
                for f in self.def(r).map(|d| d.fields.as_slice()).unwrap_or(&[]) {
                    self.leaves_into(f.ty, reg + f.reg, byte + f.byte, out);
                }
            }
            Ty::Void => {}
            t => out.push(Leaf { reg, byte, ty: t }),
        }
    }

    /// A struct's fields as variables to show (`a.r`, `p.pos`), each with its register offset:
    /// nested structs are opened, vectors kept whole.
    pub fn shown_fields(&self, ty: Ty, prefix: &str) -> Vec<(String, Ty, u8)> {
        let mut out = Vec::new();
        self.shown_into(ty, prefix, 0, &mut out);
        out
    }

    fn shown_into(&self, ty: Ty, prefix: &str, reg: u8, out: &mut Vec<(String, Ty, u8)>) {
        match ty {
            Ty::Struct(r) => {
                for f in self.def(r).map(|d| d.fields.as_slice()).unwrap_or(&[]) {
                    self.shown_into(f.ty, &format!("{prefix}.{}", f.name), reg + f.reg, out);
                }
            }
            t => out.push((String::from(prefix), t, reg)),
        }
    }

    /// The member functions `name` of `r` a call of `args` arguments can call.
    pub fn methods(&self, r: StructRef, name: &str, args: usize) -> Vec<&Method> {
        self.def(r).map_or(Vec::new(), |d| d.methods.iter().filter(|m| m.name == name && m.takes(args)).collect())
    }

    /// The constructors a call of `args` arguments can call.
    pub fn ctors(&self, r: StructRef, args: usize) -> Vec<&Method> {
        self.def(r).map_or(Vec::new(), |d| d.ctors.iter().filter(|m| m.takes(args)).collect())
    }

    /// The member function `name` of `r` taking `args` arguments: the only one, or, of several,
    /// the one the argument types fit best (`args_tys`, when known).
    pub fn method(&self, r: StructRef, name: &str, args: usize) -> Option<&Method> {
        self.methods(r, name, args).into_iter().next()
    }

    /// The conversion operator to `to` (`operator float*()`).
    pub fn conversion(&self, r: StructRef, to: Ty) -> Option<&Method> {
        self.def(r)?.methods.iter().find(|m| m.converts_to == Some(to))
    }

    /// Adds an operator defined outside structs; returns the name its function takes (a second
    /// `operator+` is `operator+~2`).
    pub fn add_free_operator(&mut self, name: &str, params: Vec<Ty>) -> String {
        let taken = self.operators.iter().filter(|o| o.0 == name).count();
        let func = if taken == 0 { String::from(name) } else { format!("{name}~{}", taken + 1) };
        self.operators.push((String::from(name), func.clone(), params));
        func
    }

    /// The free operators `name` of `n` operands: each one's function and parameter types.
    pub fn free_operators(&self, name: &str, n: usize) -> Vec<(&str, &[Ty])> {
        self.operators.iter().filter(|(o, _, ps)| o == name && ps.len() == n).map(|(_, f, ps)| (f.as_str(), ps.as_slice())).collect()
    }

    /// The element type a buffer of these structs is shown in: their scalars' type when all
    /// fields share one (a `Node` of two `int`s is `int`s), else 32-bit words, or bytes for a
    /// struct whose size is not a multiple of four.
    pub fn buffer_scalar(&self, r: StructRef) -> Scalar {
        let leaves = self.leaves(Ty::Struct(r));
        match leaves.first().map(|l| l.ty) {
            Some(Ty::Scalar(s)) if leaves.iter().all(|l| l.ty == Ty::Scalar(s)) => s,
            _ if !r.bytes.is_multiple_of(4) => Scalar::UChar,
            _ => Scalar::Int,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span() -> Span {
        Span::new(1, 1, 1)
    }

    #[test]
    fn fields_lie_at_their_alignment_and_the_size_is_a_multiple_of_the_widest() {
        let mut s = Structs::default();
        let f = |n: &str, t: Ty| (String::from(n), t, span());
        let r = s
            .define("P", "struct", &[f("c", Ty::Scalar(Scalar::Char)), f("d", Ty::DOUBLE), f("v", Ty::Vector(Scalar::Float, 3))], 1, span())
            .unwrap();
        let d = s.def(r).unwrap();
        let at: Vec<(u32, u8)> = d.fields.iter().map(|f| (f.byte, f.reg)).collect();
        assert_eq!(at, [(0, 0), (8, 1), (16, 3)]);
        assert_eq!((r.bytes, r.align, r.regs), (32, 8, 6));
        let q = s.define("Q", "struct", &[f("a", Ty::FLOAT), f("b", Ty::Vector(Scalar::Float, 4))], 1, span()).unwrap();
        // `struct __align__(16) { float a, b, c; }` is 16 bytes.
        let a = s.define("A", "struct", &[f("a", Ty::FLOAT), f("b", Ty::FLOAT), f("c", Ty::FLOAT)], 16, span()).unwrap();
        assert_eq!((a.bytes, a.align), (16, 16));
        assert_eq!((q.bytes, q.align), (32, 16));
        let leaves: Vec<u32> = s.leaves(Ty::Struct(q)).iter().map(|l| l.byte).collect();
        assert_eq!(leaves, [0, 16, 20, 24, 28]);
    }
}
