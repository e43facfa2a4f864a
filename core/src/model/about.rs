//! What each model is, in words for students, and the facts a front end shows about it: which
//! policy choice it reads, whether its stack spills, whether its entries form a stack whose top
//! runs, what its depth counts, which family it belongs to, and a short legend label for each kind
//! of entry in its control state (what an entry means is its glossary term: `glossary`). Asked of
//! the model here, so the page, the CLI and the docs say the same thing.

use super::{EntryKind, ModelKind, TokenKind};

/// A choice of the engine's that only some models read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Policy {
    /// PDOM stacks: which side of a split runs first.
    PathOrder,
    /// Volta: which group of lanes runs.
    Schedule,
}

/// A model as a front end describes it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelAbout {
    pub name: &'static str,
    /// One line: what the model is and where it comes from.
    pub summary: &'static str,
    /// A few words, for a side of the compare view.
    pub short: &'static str,
    /// What the stack panel lists for this model.
    pub stack_title: &'static str,
    /// What the depth series counts for this model.
    pub depth: &'static str,
    /// Which of the engine's policy choices this model reads.
    pub policy: Option<Policy>,
    /// An on-chip stack that spills to memory past its capacity (so capacity means something).
    pub spills: bool,
    /// The entries form a stack whose top runs (not a set of lane groups).
    pub stack: bool,
    /// The model compare mode puts beside this one when it opens: the scheme it is usually
    /// contrasted with.
    pub partner: ModelKind,
    /// The family of schemes it belongs to, in a few words (the help groups the glossary by it).
    pub family: &'static str,
}

impl ModelKind {
    /// Which policy choice the model reads, if any.
    pub fn policy(self) -> Option<Policy> {
        match self {
            ModelKind::Pdom | ModelKind::PdomSsy | ModelKind::Struct => Some(Policy::PathOrder),
            ModelKind::Volta => Some(Policy::Schedule),
            _ => None,
        }
    }

    /// The family of reconvergence schemes the model belongs to.
    pub fn family(self) -> &'static str {
        match self {
            ModelKind::Kepler => "token stack (Fermi to Pascal)",
            ModelKind::Pdom | ModelKind::PdomSsy | ModelKind::Struct => "post-dominator stacks (GPGPU-Sim, course notes, STRUCT)",
            ModelKind::TfStack | ModelKind::TfSandy => "thread frontiers (Diamos et al.)",
            ModelKind::Volta => "convergence barriers (Volta to Hopper)",
            ModelKind::Mimd => "every lane on its own (the MIMD reference)",
        }
    }

    /// The model described for a front end.
    pub fn about(self) -> ModelAbout {
        let (summary, short, stack_title, depth, partner) = match self {
            ModelKind::Kepler => (
                "Fermi/Kepler token stack: SSY/SYNC, .S, PBK/BRK, PCNT/CONT and CAL/RET tokens (the paper's model)",
                "Fermi/Kepler token stack: SSY, DIV, BRK tokens",
                "token stack",
                "tokens",
                ModelKind::Volta,
            ),
            ModelKind::Pdom => (
                "GPGPU-Sim's immediate-post-dominator stack: each path runs until the branch's post-dominator (from the CFG)",
                "post-dominator stack (GPGPU-Sim): paths meet at the ipdom",
                "PDOM stack",
                "entries",
                ModelKind::TfStack,
            ),
            ModelKind::PdomSsy => (
                "the PDOM stack driven by the compiler's SSY instructions, as in the course notes",
                "PDOM stack driven by the compiler's SSY (course notes)",
                "PDOM stack (SSY)",
                "entries",
                ModelKind::Pdom,
            ),
            ModelKind::Struct => (
                "STRUCT: copies and cuts remove the unstructured control flow (Zhang and D'Hollander, Wu et al.), then the PDOM stack runs the result",
                "structural transform, then the PDOM stack",
                "PDOM stack (structured code)",
                "entries",
                ModelKind::Pdom,
            ),
            ModelKind::TfStack => (
                "thread frontiers on a sorted stack: the lowest pc runs, lanes join where they first meet (Diamos et al. 5.2)",
                "thread frontiers: a sorted stack, the lowest pc runs",
                "thread frontier, by priority",
                "distinct pcs",
                ModelKind::Pdom,
            ),
            ModelKind::TfSandy => (
                "thread frontiers with a pc per lane and one warp pc; a conservative branch may issue with no lane (Sandy Bridge, 5.1)",
                "thread frontiers: a pc per lane and one warp pc (Sandy Bridge)",
                "lane pcs and the warp pc",
                "distinct pcs",
                ModelKind::TfStack,
            ),
            ModelKind::Volta => (
                "Volta to Hopper: a pc per lane and 16 convergence barriers (BSSY/BSYNC); a scheduler picks the group that runs",
                "a pc per lane and convergence barriers (Volta to Hopper)",
                "lane groups and convergence barriers",
                "armed barrier registers",
                ModelKind::Kepler,
            ),
            ModelKind::Mimd => (
                "every lane on its own, one instruction of one lane per step: the reference for the fewest fetches",
                "every lane on its own: the reference",
                "lane pcs",
                "distinct pcs",
                ModelKind::Pdom,
            ),
        };
        ModelAbout {
            name: self.name(),
            summary,
            short,
            stack_title,
            depth,
            policy: self.policy(),
            spills: self == ModelKind::Kepler,
            stack: matches!(self, ModelKind::Kepler | ModelKind::Pdom | ModelKind::PdomSsy | ModelKind::Struct),
            partner,
            family: self.family(),
        }
    }
}

impl EntryKind {
    /// A short legend label, one per kind family.
    pub fn label(self, empty: bool) -> &'static str {
        match self {
            EntryKind::Run if empty => "warp pc, no lane",
            EntryKind::Blocked(_) => "blocked at BSYNC",
            EntryKind::Barrier(_) => "barrier register",
            EntryKind::Token(TokenKind::Sync) => "sync point",
            EntryKind::Token(TokenKind::Div) => "not-taken side",
            EntryKind::Token(TokenKind::Break) => "break target",
            EntryKind::Token(TokenKind::Cont) => "continue target",
            EntryKind::Token(TokenKind::Call) => "return point",
            EntryKind::Reconv => "reconverges here",
            EntryKind::Path => "one side",
            EntryKind::Run => "issues next",
            EntryKind::Wait => "waiting",
            EntryKind::Yielded => "yielded",
            EntryKind::AtBarrier => "at a barrier",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_is_described_with_the_policy_it_reads_and_a_different_partner() {
        for &m in ModelKind::ALL {
            let a = m.about();
            assert!(a.summary.len() > 30, "{m:?}");
            assert_ne!(a.partner, m);
        }
        let reading = |p| ModelKind::ALL.iter().filter(|m| m.policy() == Some(p)).map(|m| m.name()).collect::<alloc::vec::Vec<_>>();
        assert_eq!(reading(Policy::PathOrder), ["pdom", "pdom-ssy", "struct"]);
        assert_eq!(reading(Policy::Schedule), ["volta"]);
        assert_eq!((ModelKind::TfStack.about().partner, ModelKind::Pdom.about().partner), (ModelKind::Pdom, ModelKind::TfStack));
    }

    #[test]
    fn every_entry_kind_has_a_legend_label() {
        let kinds = [
            EntryKind::Token(TokenKind::Sync),
            EntryKind::Token(TokenKind::Div),
            EntryKind::Token(TokenKind::Break),
            EntryKind::Token(TokenKind::Cont),
            EntryKind::Token(TokenKind::Call),
            EntryKind::Reconv,
            EntryKind::Path,
            EntryKind::Run,
            EntryKind::Wait,
            EntryKind::Yielded,
            EntryKind::AtBarrier,
        ];
        for k in kinds {
            assert_ne!(k.label(false), k.name(), "{k:?}");
        }
        assert_eq!(EntryKind::Run.label(true), "warp pc, no lane");
    }
}
