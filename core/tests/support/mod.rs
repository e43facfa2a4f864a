//! Helpers more than one test uses.

#![allow(dead_code)] // each test uses some of the helpers

pub mod grid;
pub mod kernels;
pub mod runs;
