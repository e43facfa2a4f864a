//! Analyses over a `Cfg` that the reconvergence models need: block priorities in reverse
//! post-order, back edges (loops), dominators, and post-dominators (where divergent paths
//! reconverge), and thread frontiers (where waiting lanes may be).
//!
//! All functions are pure and total: any graph `Cfg::from_edges` can build (empty, no entry,
//! unreachable blocks, no exits, infinite loops) gives an answer, never a panic. `reference`
//! holds slow set-based versions that the tests check the fast ones against.

pub mod dominators;
pub mod facts;
pub mod frontiers;
pub mod order;
pub mod post_dominators;
pub mod reference;

pub use dominators::{compute_dominators, DomTree};
pub use facts::{cfg_facts, BlockFacts, CfgFacts, EdgeFacts};
pub use frontiers::thread_frontiers;
pub use order::{back_edges, reverse_post_order, rpo_priorities};
pub use post_dominators::{compute_post_dominators, reconvergence_point, PostDom, PostDomTree};
