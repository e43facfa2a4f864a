//! One warp's exchanges as CUDA defines them, over the 32 lanes' values as they stood before
//! the instruction (every lane reads, then every lane gets its result): the reference kernels
//! call these where the CUDA kernel calls the intrinsic with a full mask.

pub const WARP: usize = 32;

/// `__shfl_down_sync(FULL, v, d)`: lane l gets lane l + d's value, or its own past the warp.
pub fn shfl_down<T: Copy>(v: &[T; WARP], d: usize) -> [T; WARP] {
    std::array::from_fn(|l| if l + d < WARP { v[l + d] } else { v[l] })
}

/// `__shfl_up_sync(FULL, v, d)`: lane l gets lane l - d's value, or its own below lane d.
pub fn shfl_up<T: Copy>(v: &[T; WARP], d: usize) -> [T; WARP] {
    std::array::from_fn(|l| if l >= d { v[l - d] } else { v[l] })
}

/// `__shfl_xor_sync(FULL, v, m)`: lane l gets lane l ^ m's value.
pub fn shfl_xor<T: Copy>(v: &[T; WARP], m: usize) -> [T; WARP] {
    std::array::from_fn(|l| v[(l ^ m) % WARP])
}

/// `__shfl_sync(FULL, v, src)`: every lane gets lane src's value.
pub fn shfl<T: Copy>(v: &[T; WARP], src: usize) -> [T; WARP] {
    [v[src % WARP]; WARP]
}

/// `__ballot_sync(mask, p)`: bit l set where lane l is in the mask and its predicate holds.
pub fn ballot(mask: u32, p: &[bool; WARP]) -> u32 {
    (0..WARP).filter(|&l| mask >> l & 1 == 1 && p[l]).fold(0, |b, l| b | 1 << l)
}

/// `__any_sync(mask, p)`, as every lane of the mask sees it.
pub fn any(mask: u32, p: &[bool; WARP]) -> bool {
    ballot(mask, p) != 0
}

/// `__all_sync(mask, p)`, as every lane of the mask sees it.
pub fn all(mask: u32, p: &[bool; WARP]) -> bool {
    ballot(mask, p) == mask
}
