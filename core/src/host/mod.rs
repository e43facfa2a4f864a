//! A whole CUDA program's host side (issue 47, under way): what `main()` runs beside the grid.
//! So far: the C library's pseudo-random numbers as glibc makes them (`libc`), so a course's
//! inputs filled with `rand()` are the ones its Linux build fills.

pub mod libc;
