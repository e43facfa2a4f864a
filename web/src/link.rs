//! Permalinks for the page: the core's codec, so a link from a stranger is read by the same
//! fuzzed, size-bounded code the CLI reads a link with (`warpscope run LINK`).

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::link::{self, Decoded, Link};
use wasm_bindgen::prelude::*;

use crate::to_js;

#[derive(Serialize, TS)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum DecodedView {
    None,
    Ok { link: Box<Link> },
    Error { message: String },
}

/// Reads a location fragment: `{kind: 'none'}`, `{kind: 'ok', link}` or `{kind: 'error', message}`.
#[wasm_bindgen]
pub fn decode_link(fragment: &str) -> Result<JsValue, JsError> {
    to_js(&match link::decode(fragment) {
        Decoded::None => DecodedView::None,
        Decoded::Ok(link) => DecodedView::Ok { link },
        Decoded::Error(message) => DecodedView::Error { message },
    })
}

/// The fragment (with `#`) for a link object of the shape `decode_link` returns.
#[wasm_bindgen]
pub fn encode_link(value: JsValue) -> Result<String, JsError> {
    let link: Link = serde_wasm_bindgen::from_value(value)?;
    Ok(link::encode(&link))
}
