//! Itanium C++ names as nvcc writes kernels (`_Z7vec_addPKfS0_Pfi`) back to what the user wrote
//! (`vec_add(const float*, const float*, float*, int)`), and each parameter's type, which PTX
//! does not keep (a pointer is a `.u64`). Enough of the scheme for kernels: namespaces, builtin
//! types, pointers, references, qualifiers, substitutions, template arguments and the template
//! parameters (`T_`) a template kernel's parameters are written in. Anything else leaves the
//! name as it is.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A parameter type as the mangled name gives it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParamType {
    /// As C++ writes it: `const float*`.
    pub text: String,
    /// Pointer levels (`float**` is 2).
    pub pointers: u32,
    /// The builtin type under the pointers, by its C name (`float`, `int`, `unsigned int`...).
    pub base: Option<&'static str>,
}

/// A demangled function name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Demangled {
    /// The function's name with its namespaces and template arguments: `ns::kernel<4>`.
    pub name: String,
    pub params: Vec<ParamType>,
}

impl Demangled {
    /// `vec_add(const float*, float*, int)`.
    pub fn signature(&self) -> String {
        let params: Vec<&str> = self.params.iter().map(|p| p.text.as_str()).collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

/// The demangled form of `mangled`, or `None` when it is not an Itanium name this reads.
pub fn demangle(mangled: &str) -> Option<Demangled> {
    let rest = mangled.strip_prefix("_Z")?;
    let mut d = Reader { s: rest.as_bytes(), at: 0, subs: Vec::new(), targs: Vec::new() };
    let (name, templated) = d.name()?;
    if templated {
        // A template function's mangling gives its return type first.
        d.ty()?;
    }
    let mut params = Vec::new();
    while d.at < d.s.len() {
        if d.s[d.at] == b'.' {
            break; // `_Z3fooi.cold`-like suffixes.
        }
        params.push(d.ty()?);
    }
    if params.len() == 1 && params[0].text == "void" {
        params.clear();
    }
    Some(Demangled { name, params })
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
    /// Substitution candidates (`S_`, `S0_`...), as type values.
    subs: Vec<ParamType>,
    /// The function's template arguments, which `T_`, `T0_`... name in its parameters
    /// (`_Z5scaleILi3EfEvPT0_PKS0_i`: `float*`, `const float*`).
    targs: Vec<ParamType>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn number(&mut self) -> Option<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        core::str::from_utf8(&self.s[start..self.at]).ok()?.parse().ok()
    }
    fn source_name(&mut self) -> Option<String> {
        let n = self.number()?;
        let s = self.s.get(self.at..self.at + n)?;
        self.at += n;
        Some(String::from_utf8_lossy(s).to_string())
    }

    /// The function name; true when it ends in template arguments.
    fn name(&mut self) -> Option<(String, bool)> {
        if self.eat(b'N') {
            let mut parts: Vec<String> = Vec::new();
            let mut templated = false;
            while !self.eat(b'E') {
                if self.peek() == Some(b'I') {
                    // The template's name (with its scopes) is a substitution candidate.
                    self.subs.push(ParamType { text: parts.join("::"), pointers: 0, base: None });
                    let args = self.template_args()?;
                    let last = parts.last_mut()?;
                    last.push_str(&args);
                    templated = true;
                    continue;
                }
                // Each enclosing scope is one too (`ns` of `ns::kernel`).
                if !parts.is_empty() && !templated {
                    self.subs.push(ParamType { text: parts.join("::"), pointers: 0, base: None });
                }
                templated = false;
                parts.push(self.source_name()?);
            }
            return Some((parts.join("::"), templated));
        }
        let mut name = self.source_name()?;
        if self.peek() == Some(b'I') {
            // An unscoped template name is a substitution candidate (`S_`).
            self.subs.push(ParamType { text: name.clone(), pointers: 0, base: None });
            name.push_str(&self.template_args()?);
            return Some((name, true));
        }
        Some((name, false))
    }

    fn template_args(&mut self) -> Option<String> {
        self.eat(b'I');
        let mut args = Vec::new();
        self.targs.clear();
        while !self.eat(b'E') {
            if self.eat(b'L') {
                // A literal: a type then its value (`Li4E`, `Lb1E`, `Ln3E` for -3).
                let ty = self.ty()?;
                let neg = self.eat(b'n');
                let v = self.number()?;
                self.eat(b'E');
                args.push(match ty.text.as_str() {
                    "bool" => String::from(if v != 0 { "true" } else { "false" }),
                    _ => format!("{}{v}", if neg { "-" } else { "" }),
                });
                self.targs.push(ty);
            } else {
                let ty = self.ty()?;
                args.push(ty.text.clone());
                self.targs.push(ty);
            }
        }
        Some(format!("<{}>", args.join(", ")))
    }

    fn ty(&mut self) -> Option<ParamType> {
        let c = self.peek()?;
        if let Some(base) = builtin(c) {
            self.at += 1;
            return Some(ParamType { text: base.to_string(), pointers: 0, base: Some(base) });
        }
        let t = match c {
            b'P' | b'R' | b'O' => {
                self.at += 1;
                let inner = self.ty()?;
                let sym = if c == b'P' {
                    "*"
                } else if c == b'R' {
                    "&"
                } else {
                    "&&"
                };
                ParamType { text: format!("{}{sym}", inner.text), pointers: inner.pointers + u32::from(c == b'P'), base: inner.base }
            }
            b'K' | b'V' | b'r' => {
                self.at += 1;
                let inner = self.ty()?;
                let q = if c == b'K' {
                    "const"
                } else if c == b'V' {
                    "volatile"
                } else {
                    "__restrict__"
                };
                // `PKf`: const float*; the qualifier goes in front of a plain type.
                let text = if inner.pointers == 0 { format!("{q} {}", inner.text) } else { format!("{} {q}", inner.text) };
                ParamType { text, ..inner }
            }
            b'S' => {
                self.at += 1;
                let k = if self.eat(b'_') {
                    0
                } else {
                    let start = self.at;
                    while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() && c != b'_') {
                        self.at += 1;
                    }
                    let n = usize::from_str_radix(core::str::from_utf8(&self.s[start..self.at]).ok()?, 36).ok()? + 1;
                    self.eat(b'_').then_some(())?;
                    n
                };
                return self.subs.get(k).cloned();
            }
            // A template parameter: `T_` the first, `T0_` the second...
            b'T' => {
                self.at += 1;
                let k = if self.eat(b'_') {
                    0
                } else {
                    let n = self.number()? + 1;
                    self.eat(b'_').then_some(())?;
                    n
                };
                self.targs.get(k).cloned()?
            }
            b'N' | b'0'..=b'9' => {
                let (name, _) = self.name()?;
                ParamType { text: name, pointers: 0, base: None }
            }
            _ => return None,
        };
        self.subs.push(t.clone());
        Some(t)
    }
}

/// The builtin type of a one-letter code.
fn builtin(c: u8) -> Option<&'static str> {
    Some(match c {
        b'v' => "void",
        b'b' => "bool",
        b'c' => "char",
        b'a' => "signed char",
        b'h' => "unsigned char",
        b's' => "short",
        b't' => "unsigned short",
        b'i' => "int",
        b'j' => "unsigned int",
        b'l' => "long",
        b'm' => "unsigned long",
        b'x' => "long long",
        b'y' => "unsigned long long",
        b'f' => "float",
        b'd' => "double",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(m: &str) -> String {
        demangle(m).map(|d| d.signature()).unwrap_or_else(|| String::from("?"))
    }

    #[test]
    fn kernels_as_nvcc_names_them() {
        assert_eq!(sig("_Z7vec_addPKfS0_Pfi"), "vec_add(const float*, const float*, float*, int)");
        assert_eq!(sig("_Z9histogramPKiPii"), "histogram(const int*, int*, int)");
        assert_eq!(sig("_Z6reducev"), "reduce()");
        assert_eq!(sig("_Z5saxpyifPKfPf"), "saxpy(int, float, const float*, float*)");
        assert_eq!(sig("_ZN2ns6kernelEPj"), "ns::kernel(unsigned int*)");
        assert_eq!(sig("_Z6kernelILi4EEvPf"), "kernel<4>(float*)");
        assert_eq!(sig("_Z4copyPdS_"), "copy(double*, double*)");
        assert_eq!(sig("_Z1kPyx"), "k(unsigned long long*, long long)");
        // A template's parameters name its arguments (`T0_`), and its name is substitution `S_`.
        assert_eq!(sig("_Z5scaleILi3EfEvPT0_PKS0_i"), "scale<3, float>(float*, const float*, int)");
        assert_eq!(sig("_Z6reduceILj256EEvPiS0_j"), "reduce<256>(int*, int*, unsigned int)");
        assert_eq!(sig("_ZN2ns4copyIdEEvPT_S2_"), "ns::copy<double>(double*, double*)");
        assert_eq!(demangle("vec_add"), None, "extern \"C\" names are not mangled");
        let d = demangle("_Z7vec_addPKfS0_Pfi").unwrap();
        assert_eq!(d.params[0].pointers, 1);
        assert_eq!(d.params[0].base, Some("float"));
        assert_eq!(d.params[3].base, Some("int"));
    }
}
