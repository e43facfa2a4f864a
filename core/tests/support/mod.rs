//! Helpers more than one test uses.

pub mod runs;
