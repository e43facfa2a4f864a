//! The C library as a course's `main()` uses it, where its results must be glibc's: `rand` and
//! `srand`, whose sequence fills the inputs a program then checks and prints.

/// glibc's `random()` (`rand()` is the same generator): the additive feedback generator of
/// degree 31 (its `TYPE_3`), seeded by `srand`'s Park-Miller sequence, the first 310 outputs
/// discarded. Each output is `r[i] = r[i - 31] + r[i - 3]` (mod 2^32), shifted right by one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rand {
    /// The last 34 values of `r`, oldest first; `next` is where the newest goes.
    r: [u32; 34],
    next: usize,
}

/// `RAND_MAX` on glibc.
pub const RAND_MAX: u32 = 0x7fff_ffff;

impl Default for Rand {
    /// The generator before any `srand`, which C defines as after `srand(1)`.
    fn default() -> Rand {
        Rand::seeded(1)
    }
}

impl Rand {
    /// The generator after `srand(seed)` (a seed of 0 counts as 1, as glibc's does).
    pub fn seeded(seed: u32) -> Rand {
        let mut r = [0u32; 34];
        r[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            // 16807 * r[i - 1] mod (2^31 - 1), by Schrage's method on the seed as a signed
            // 32-bit value, exactly as glibc computes it.
            let word = r[i - 1] as i32 as i64;
            let (hi, lo) = (word / 127_773, word % 127_773);
            let mut next = 16_807 * lo - 2_836 * hi;
            if next < 0 {
                next += 2_147_483_647;
            }
            r[i] = next as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = Rand { r, next: 0 };
        for _ in 34..344 {
            g.step();
        }
        g
    }

    /// The next `r`, kept in the ring.
    fn step(&mut self) -> u32 {
        let at = |back: usize| (self.next + 34 - back) % 34;
        let value = self.r[at(31)].wrapping_add(self.r[at(3)]);
        self.r[self.next] = value;
        self.next = (self.next + 1) % 34;
        value
    }

    /// `rand()`: the next value, from 0 to `RAND_MAX`.
    pub fn rand(&mut self) -> u32 {
        self.step() >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first values glibc's `rand()` gives, unseeded (as after `srand(1)`) and after
    /// `srand(42)`, `srand(0)` and a seed above 2^31 (negative as glibc's `int32_t`), as a
    /// Linux build printed them (gcc and glibc on this machine).
    #[test]
    fn rand_gives_glibcs_sequence() {
        let first = |mut g: Rand, n: usize| -> alloc::vec::Vec<u32> { (0..n).map(|_| g.rand()).collect() };
        assert_eq!(
            first(Rand::default(), 10),
            [1804289383, 846930886, 1681692777, 1714636915, 1957747793, 424238335, 719885386, 1649760492, 596516649, 1189641421]
        );
        assert_eq!(first(Rand::seeded(42), 3), [71876166, 708592740, 1483128881]);
        assert_eq!(first(Rand::seeded(0), 2), first(Rand::seeded(1), 2));
        assert_eq!(first(Rand::seeded(4_000_000_000), 2), [1111130805, 1380198982]);
    }
}
