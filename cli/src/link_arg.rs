//! A permalink where a kernel file is expected: `warpscope run 'https://…/#v1.…'` runs what the
//! link shows, decoded by the same core code as the app, with a clear message for a broken link.

use std::path::Path;

use warpscope_core::link::{decode, Decoded, Link};

/// The link `arg` holds, if it is one (a `#v…` fragment, alone or at the end of a URL) and
/// not the name of an existing file; `Err` says why a link cannot be opened.
pub fn link_in(arg: &Path) -> Option<Result<Link, String>> {
    let s = arg.to_str()?;
    let at = s.find("#v")?;
    if arg.exists() {
        return None;
    }
    Some(match decode(&s[at..]) {
        Decoded::Ok(link) => Ok(*link),
        Decoded::Error(message) => Err(message),
        Decoded::None => Err("the link is empty".into()),
    })
}

/// The kernel text of a file, or of the link given in its place.
pub fn read_source(path: &Path) -> Result<String, String> {
    match link_in(path) {
        Some(link) => link.map(|l| l.text),
        None => std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display())),
    }
}
