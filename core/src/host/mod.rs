//! A whole CUDA program's host side: `main()` compiled by the project's own C compiler and run
//! on a one-lane host machine beside the grid (`run`), its `HOST` calls served by `calls`, its
//! launches run on the whole-launch engine (`device`), the C library's pseudo-random numbers
//! as glibc makes them (`libc`), so a program prints what its Linux build prints on a GPU.

mod calls;
mod cuda;
mod device;
mod launch;
pub mod libc;
mod printf_order;
mod run;
mod text;
mod vectors;

pub use device::{Code, DEFAULT_MODEL};
pub use run::{relaunch, run_program, run_program_code, HostLaunch, LaunchInputs, ProgramEnd, ProgramRun};

#[cfg(test)]
mod tests;
