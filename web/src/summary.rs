//! `Session.series`: the whole run's per-step depth, issued lanes and event bits as JS typed
//! arrays, written a piece at a time. Only one piece is ever in wasm memory, which never shrinks
//! (a whole 50 M-step series built there would stay as dead memory), and the step records are
//! read once for all three.

use js_sys::{Object, Reflect, Uint16Array, Uint8Array};
use warpscope_core::sim::StepRecord;
use wasm_bindgen::prelude::*;

/// Steps per piece.
const PIECE: usize = 64 << 10;

/// The depth series: bytes when the run's deepest stack fits in one.
enum Depth {
    Narrow(Uint8Array, Vec<u8>),
    Wide(Uint16Array, Vec<u16>),
}

pub(crate) struct SeriesWriter {
    depth: Depth,
    active: (Uint8Array, Vec<u8>),
    events: (Uint8Array, Vec<u8>),
    /// Where the next piece goes.
    at: u32,
}

impl SeriesWriter {
    /// For `len` steps whose deepest stack is `deepest` entries.
    pub(crate) fn new(len: usize, deepest: u64) -> SeriesWriter {
        let n = len as u32;
        let depth = if deepest <= u8::MAX as u64 {
            Depth::Narrow(Uint8Array::new_with_length(n), Vec::with_capacity(PIECE))
        } else {
            Depth::Wide(Uint16Array::new_with_length(n), Vec::with_capacity(PIECE))
        };
        let bytes = || (Uint8Array::new_with_length(n), Vec::with_capacity(PIECE));
        SeriesWriter { depth, active: bytes(), events: bytes(), at: 0 }
    }

    #[inline]
    pub(crate) fn push(&mut self, r: StepRecord) {
        match &mut self.depth {
            Depth::Narrow(_, piece) => piece.push(r.depth as u8),
            Depth::Wide(_, piece) => piece.push(r.depth),
        }
        self.active.1.push(r.mask.count_ones() as u8);
        // Every event bit is below 256 (checked where `EventBit` is declared).
        self.events.1.push(r.events as u8);
        if self.active.1.len() == PIECE {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let (at, end) = (self.at, self.at + self.active.1.len() as u32);
        match &mut self.depth {
            Depth::Narrow(out, piece) => {
                out.subarray(at, end).copy_from(piece);
                piece.clear();
            }
            Depth::Wide(out, piece) => {
                out.subarray(at, end).copy_from(piece);
                piece.clear();
            }
        }
        for (out, piece) in [&mut self.active, &mut self.events] {
            out.subarray(at, end).copy_from(piece);
            piece.clear();
        }
        self.at = end;
    }

    /// `{depth, active, events}`.
    pub(crate) fn finish(mut self) -> Result<JsValue, JsError> {
        self.flush();
        let depth: &JsValue = match &self.depth {
            Depth::Narrow(out, _) => out,
            Depth::Wide(out, _) => out,
        };
        let o = Object::new();
        for (name, v) in [("depth", depth), ("active", &self.active.0), ("events", &self.events.0)] {
            Reflect::set(&o, &name.into(), v).map_err(|_| JsError::new("the series object could not be built"))?;
        }
        Ok(o.into())
    }
}
