//! `cg::reduce` and a coalesced group's shuffles by rank: the code they compile to, through
//! small device functions placed before the file's code.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{closing, ident, snippet, tile_lanes, Kind, Rewriter};
use crate::compile::lex::Token;
use crate::diag::Span;

/// The lane of the `n`-th (from 1) set bit of `m` at or above `lane`, or `lane` itself when
/// there is none: a coalesced group's `shfl` and `shfl_down` source (what CUDA's `__fns` gives).
pub(super) const NTH_UP: (&str, &str) = (
    "__cg_nth_up",
    "__device__ int __cg_nth_up(unsigned m, int lane, int n) { unsigned rest = m & (0xffffffffu << lane); \
     for (int i = 1; i < n; i++) rest &= rest - 1u; return rest != 0u ? __ffs(rest) - 1 : lane; }",
);
/// The same at or below `lane`, counting down: `shfl_up`'s source.
pub(super) const NTH_DOWN: (&str, &str) = (
    "__cg_nth_down",
    "__device__ int __cg_nth_down(unsigned m, int lane, int n) { unsigned rest = m & (0xffffffffu >> (31 - lane)); \
     for (int i = 1; i < n; i++) rest &= rest != 0u ? ~(0x80000000u >> __clz(rest)) : 0u; return rest != 0u ? 31 - __clz(rest) : lane; }",
);

impl Rewriter {
    /// `helper`'s name, its definition kept to be placed before the code.
    pub(super) fn helper(&mut self, (name, code): (&str, &str)) -> String {
        self.helpers.entry(name.to_string()).or_insert_with(|| code.to_string());
        name.to_string()
    }

    /// `cg::reduce(g, value, op<T>())` over a tile, as nvcc compiles it: a whole warp's 32-bit
    /// integer sum, minimum, maximum or bitwise fold is one `__reduce_*_sync` (`REDUX`, sm_80
    /// on); a smaller tile or another type folds in `log2 n` butterfly steps of `shfl_xor`, so
    /// every lane gets it.
    pub(super) fn reduce(&mut self, kind: Kind, args: &[Vec<Token>], span: Span) -> Vec<Token> {
        let op = args.get(2).and_then(|a| {
            let name = ident(a.first())?;
            let (open, close) = (1, closing(a, 1)?);
            let ty: Vec<&str> = a[open + 1..close - 1].iter().filter_map(|t| ident(Some(t))).collect();
            Some((name, ty.join(" ")))
        });
        let Kind::Tile(n) = kind else {
            self.error(
                span,
                format!(
                    "cooperative groups' `reduce` over a `{}` is not supported: reduce over a `thread_block_tile<N>`",
                    kind.type_name()
                ),
            );
            return snippet("0", span);
        };
        let known = ["plus", "less", "greater", "bit_and", "bit_or", "bit_xor"];
        let Some((op, ty)) = op.filter(|(op, ty)| known.contains(op) && !ty.is_empty()) else {
            self.error(span, "cooperative groups' `reduce` takes a group, a value and one of `plus<T>()`, `less<T>()`, `greater<T>()`, `bit_and<T>()`, `bit_or<T>()`, `bit_xor<T>()`".into());
            return snippet("0", span);
        };
        let (_, mask) = tile_lanes(n);
        let redux = match op {
            "plus" => "add",
            "less" => "min",
            "greater" => "max",
            other => &other[4..],
        };
        // The call's text before and after the value, which goes in as written.
        let (call, close) = if n == 32 && matches!(ty.as_str(), "int" | "unsigned" | "unsigned int") {
            (format!("__reduce_{redux}_sync({mask}, ({ty})("), String::from("))"))
        } else {
            let step = match op {
                "plus" => "v + o",
                "less" => "o < v ? o : v",
                "greater" => "v < o ? o : v",
                "bit_and" => "v & o",
                "bit_or" => "v | o",
                _ => "v ^ o",
            };
            let name = format!("__cg_reduce_{op}_{}_{n}", ty.replace(' ', "_"));
            let code = format!(
                "__device__ {ty} {name}({ty} v, unsigned mask) {{ for (int i = {}; i > 0; i /= 2) {{ {ty} o = __shfl_xor_sync(mask, v, i, {n}); v = {step}; }} return v; }}",
                n / 2
            );
            self.helper((&name, &code));
            (format!("{name}(({ty})("), format!("), {mask})"))
        };
        let mut out = snippet(&call, span);
        out.extend(args[1].iter().cloned());
        out.extend(snippet(&close, span));
        out
    }
}
