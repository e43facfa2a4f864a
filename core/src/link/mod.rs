//! Permalinks: `#v1.<base64url(deflate-raw(JSON))>`, optionally followed by `&embed=cfg,lanes`.
//!
//! Links come from strangers, so `decode` takes any text and answers with a `Link` or a message
//! a user can act on; it never panics, and every size is bounded before work is done on it (the
//! fragment's length, the unpacked size, the kernel text). Fields added after v1 first shipped
//! (if-convert, policies, compare and its preset, sweep, figure, the CUDA source, the PTX, the
//! warp scheduler) are optional and
//! left out when unset, so older links still read and the format stays v1.

mod base64url;
mod read;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::kernel::MAX_KERNEL_BYTES;
use crate::session::RunChoices;
use crate::sweep::SweepRequest;

pub const VERSION: u32 = 1;
/// The longest JSON a link may unpack to: the largest kernel, CUDA source, PTX and kernel compared plus room
/// for the settings.
pub const MAX_UNPACKED_BYTES: usize = 4 * MAX_KERNEL_BYTES + 64 * 1024;
/// The longest fragment read: the largest unpacked JSON even if it did not compress at all.
pub const MAX_FRAGMENT_CHARS: usize = MAX_UNPACKED_BYTES / 3 * 4 + 1024;

/// Everything a permalink holds: the kernel, its inputs, the models and where the player is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Link {
    pub text: String,
    pub params: BTreeMap<String, f64>,
    /// Model, preset and policies (`None`: the kernel's `//@` headers, then the defaults).
    #[serde(flatten)]
    pub choices: RunChoices,
    /// Compare mode: the run beside the main one. Its model is always set; its policies unset
    /// are the defaults, its preset unset is the main run's (so both columns' cycles use the
    /// same costs), and it if-converts and schedules warps as the main run does.
    pub compare: Option<RunChoices>,
    /// Compare mode with two kernels: the text of the one beside the main one (`None`: the main
    /// kernel), run under the compare choice with its own `//@` inputs; at most `MAX_KERNEL_BYTES`.
    pub compare_text: Option<String>,
    pub step: u64,
    pub lane: u64,
    /// A whole launch: the warp of the block on screen in focus (`None`: the launch's `warp=`).
    pub warp: Option<u64>,
    /// Panel names shown in embed mode (the app keeps the ones it knows).
    pub embed: Option<Vec<String>>,
    pub sweep: Option<SweepChoice>,
    /// An id in `examples/figures.json`.
    pub figure: Option<String>,
    /// For a PTX kernel: the CUDA source it was compiled from (its `.loc` lines point into it), as
    /// pasted in the app's CUDA source tab; at most `MAX_KERNEL_BYTES`.
    pub cuda: Option<String>,
    /// For a SASS kernel: the PTX it was compiled from, as pasted in the app's PTX tab (lined up
    /// by CUDA line, `input::ptx::beside`); at most `MAX_KERNEL_BYTES`.
    pub ptx: Option<String>,
}

/// A sweep on screen: its request, the metric plotted and the measured series beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepChoice {
    pub request: SweepRequest,
    pub metric: String,
    pub measured: Option<MeasuredChoice>,
}

/// One series of a bundled measurements file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MeasuredChoice {
    pub file: String,
    pub build: String,
    pub kernel: String,
    pub pattern: String,
}

impl Link {
    /// A link to `text` at step 0 with every choice left to the kernel.
    pub fn of_text(text: &str) -> Link {
        Link {
            text: text.into(),
            params: BTreeMap::new(),
            choices: RunChoices::default(),
            compare: None,
            compare_text: None,
            step: 0,
            lane: 0,
            warp: None,
            embed: None,
            sweep: None,
            figure: None,
            cuda: None,
            ptx: None,
        }
    }
}

/// What a fragment held.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    /// No fragment: not a link at all.
    None,
    Ok(alloc::boxed::Box<Link>),
    /// Why the link cannot be opened, in words for the person who clicked it.
    Error(String),
}

/// The fragment (with `#`) for `link`.
pub fn encode(link: &Link) -> String {
    let json = read::to_json(link);
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    format!("#v{VERSION}.{}", base64url::encode(&packed))
}

/// Reads a location fragment (with or without `#`).
pub fn decode(fragment: &str) -> Decoded {
    let hash = fragment.strip_prefix('#').unwrap_or(fragment);
    if hash.is_empty() {
        return Decoded::None;
    }
    if hash.len() > MAX_FRAGMENT_CHARS {
        return Decoded::Error(format!(
            "This link is too long ({} characters; warpscope reads links of up to {MAX_FRAGMENT_CHARS}).",
            hash.len()
        ));
    }
    match decode_body(hash) {
        Ok(link) => Decoded::Ok(alloc::boxed::Box::new(link)),
        Err(message) => Decoded::Error(message),
    }
}

fn decode_body(hash: &str) -> Result<Link, String> {
    let mut parts = hash.split('&');
    let body = parts.next().unwrap_or("");
    let Some((version, data)) = body.strip_prefix('v').and_then(|b| b.split_once('.')) else {
        return Err("This link is not a warpscope permalink (it should start with #v1.).".into());
    };
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return Err("This link is not a warpscope permalink (it should start with #v1.).".into());
    }
    if version.parse::<u32>().ok() != Some(VERSION) {
        let shown: String = version.chars().take(12).collect();
        return Err(format!("This link uses format v{shown}, which this version of warpscope cannot read (it reads v{VERSION})."));
    }
    let Some(packed) = base64url::decode(data).filter(|b| !b.is_empty()) else {
        // Good characters, but a length no encoder makes: a link copied short.
        // (`get`: the last character may be any, and several bytes long.)
        let cut = data.len() % 4 == 1 && data.get(..data.len() - 1).and_then(base64url::decode).is_some();
        return Err(if cut {
            "This link is corrupted: it was cut short, its data stopping partway through a character. Copy the whole link.".into()
        } else {
            "This link is corrupted: its data is not valid base64url.".into()
        });
    };
    let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_UNPACKED_BYTES).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            format!("This link unpacks to more than {} KiB, more than any kernel warpscope opens.", MAX_UNPACKED_BYTES / 1024)
        } else {
            String::from("This link is corrupted or truncated: its data does not unpack.")
        }
    })?;
    let json = core::str::from_utf8(&raw).map_err(|_| "This link is corrupted or truncated: its data does not unpack.")?;
    let mut link = read::from_json(json).map_err(|why| format!("This link cannot be opened: {why}."))?;
    for extra in parts {
        if let Some(list) = extra.strip_prefix("embed=") {
            let list = list.replace("%2C", ",").replace("%2c", ",");
            link.embed = Some(list.split(',').map(|p| String::from(p.trim())).filter(|p| !p.is_empty()).collect());
        }
    }
    Ok(link)
}

#[cfg(test)]
mod tests;
