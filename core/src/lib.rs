//! warpscope-core: a `no_std` emulator of one GPU warp and its branch-reconvergence hardware.
//!
//! Layers, inner to outer: `isa` (decoded instructions) and `asm` (listing text to a `Program`),
//! `kernel` (the kernel-file format: headers with inputs), `cfg` and `analysis` (basic blocks,
//! dominators, post-dominators, priorities), `machine` (lanes, registers, memory, the data path),
//! `model` (reconvergence schemes behind one trait), `sim` (stepping, stop reasons, metrics, cost)
//! and `timeline` (recorded steps with checkpoints, so `seek` is exact and fast).
//! Nothing here does I/O, reads a clock or touches wasm or a DOM.
// `ts` only generates TypeScript declarations for the web front end; ts-rs's derive expects std's
// prelude, so that one feature builds with std. Every other build is no_std.
#![cfg_attr(not(feature = "ts"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(all(test, not(feature = "ts")))]
extern crate std;

pub mod analysis;
pub mod asm;
pub mod block;
pub mod cfg;
pub mod checks;
pub mod compile;
pub mod counters;
pub mod diag;
pub mod grid;
pub mod host;
pub mod input;
pub mod isa;
pub mod kernel;
pub mod launch;
#[cfg(feature = "link")]
pub mod link;
pub mod machine;
pub mod model;
pub mod printf;
pub mod program;
pub mod sanitize;
pub mod session;
pub mod sim;
pub mod structure;
pub mod sweep;
pub mod trace;

pub use diag::{Diagnostic, Severity, Span};
pub use launch::{launch, LaunchOptions};
pub use program::Program;
