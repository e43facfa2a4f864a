//! A link's JSON, read field by field so that a malformed link says which part is wrong (a
//! generic parser error names a column of text nobody sees), and written with unset fields left
//! out.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};

use serde_json::{Map, Value};

use super::{Link, SweepChoice, VERSION};
use crate::kernel::MAX_KERNEL_BYTES;
use crate::session::RunChoices;

pub fn to_json(link: &Link) -> String {
    let mut v = serde_json::to_value(link).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.retain(|_, x| !x.is_null());
        if let Some(Value::Object(c)) = map.get_mut("compare") {
            c.retain(|_, x| !x.is_null());
        }
        map.insert("v".into(), VERSION.into());
    }
    v.to_string()
}

type Read<T> = Result<T, String>;

fn opt_string(r: &Map<String, Value>, key: &str, what: &str) -> Read<Option<String>> {
    match r.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("the {what} is malformed")),
    }
}

fn count(r: &Map<String, Value>, key: &str) -> Read<u64> {
    match r.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => v.as_u64().ok_or_else(|| String::from("the step or lane is malformed")),
    }
}

/// The run choices of a link (`what`: where they are, for the message).
fn run_choices(r: &Map<String, Value>, what: &str) -> Read<RunChoices> {
    let flag = |key: &str, name: &str| match r.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(format!("the {name} choice{what} is malformed")),
    };
    let if_convert = flag("ifConvert", "if-convert")?;
    Ok(RunChoices {
        model: opt_string(r, "model", &format!("model{what}"))?,
        preset: opt_string(r, "preset", &format!("preset{what}"))?,
        if_convert,
        path_order: opt_string(r, "pathOrder", &format!("path order{what}"))?,
        schedule: opt_string(r, "schedule", &format!("schedule{what}"))?,
        warp_scheduler: opt_string(r, "warpScheduler", &format!("warp scheduler{what}"))?,
        one_warp: flag("oneWarp", "one-warp")?,
        launch: match r.get("launch") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().filter(|&k| k < 1 << 20).ok_or_else(|| format!("the launch choice{what} is malformed"))? as u32),
        },
        kernel_only: flag("kernelOnly", "kernel-only")?,
        block: match r.get("block") {
            None | Some(Value::Null) => None,
            Some(v) => Some(block_idx(v).ok_or_else(|| format!("the block choice{what} is malformed"))?),
        },
    })
}

/// A block index: three whole numbers.
fn block_idx(v: &Value) -> Option<[u32; 3]> {
    let items = v.as_array().filter(|a| a.len() == 3)?;
    let mut out = [0u32; 3];
    for (o, x) in out.iter_mut().zip(items) {
        *o = u32::try_from(x.as_u64()?).ok()?;
    }
    Some(out)
}

/// Compare mode's partner: a model's name (the first links), or its choices with the model set.
fn compare_choices(x: Option<&Value>) -> Read<Option<RunChoices>> {
    let malformed = || String::from("the compare choice is malformed");
    match x {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(model)) => Ok(Some(RunChoices::of_model(model))),
        Some(Value::Object(c)) => {
            let choices = run_choices(c, " of the compare choice")?;
            choices.model.is_some().then_some(Some(choices)).ok_or_else(malformed)
        }
        Some(_) => Err(malformed()),
    }
}

/// A sweep's key as named today: links made before run choices were one type spelled three
/// of them in snake_case.
fn current_key(key: &str) -> &str {
    match key {
        "if_convert" => "ifConvert",
        "path_order" => "pathOrder",
        _ => key,
    }
}

fn sweep_choice(x: Option<&Value>) -> Read<Option<SweepChoice>> {
    let Some(x) = x.filter(|x| !x.is_null()) else { return Ok(None) };
    let malformed = || String::from("the sweep settings are malformed");
    let Some(request) = x.get("request").and_then(Value::as_object) else { return Err(malformed()) };
    for key in ["param", "from", "to"] {
        if !request.contains_key(key) {
            return Err(format!("the sweep settings lack \"{key}\""));
        }
    }
    // Unset optional fields take the request's defaults, as the app's own settings do.
    let set: Map<String, Value> =
        request.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (String::from(current_key(k)), v.clone())).collect();
    let request = serde_json::from_value(Value::Object(set)).map_err(|e| format!("the sweep setting is malformed ({e})"))?;
    let metric = x.get("metric").and_then(Value::as_str).ok_or("the sweep metric is malformed")?;
    let measured = match x.get("measured") {
        None | Some(Value::Null) => None,
        Some(m) => Some(serde_json::from_value(m.clone()).map_err(|_| "the sweep's measured series is malformed")?),
    };
    Ok(Some(SweepChoice { request, metric: metric.into(), measured }))
}

pub fn from_json(json: &str) -> Read<Link> {
    let v: Value = serde_json::from_str(json).map_err(|_| "it does not hold a saved state")?;
    let Value::Object(r) = v else { return Err("it does not hold a saved state".into()) };
    match r.get("v").and_then(Value::as_u64) {
        Some(v) if v == VERSION as u64 => {}
        Some(v) if v > VERSION as u64 => return Err(format!("it was made by a newer version of warpscope (format {v})")),
        _ => {
            let shown: String = r.get("v").map_or(String::from("none"), |v| v.to_string()).chars().take(20).collect();
            return Err(format!("its format number is malformed ({shown}; this version reads {VERSION})"));
        }
    }
    let text = r.get("text").and_then(Value::as_str).ok_or("the kernel text is missing")?;
    if text.len() > MAX_KERNEL_BYTES {
        return Err(format!("its kernel is {} KiB, more than the {} KiB warpscope opens", text.len() / 1024, MAX_KERNEL_BYTES / 1024));
    }
    let params = match r.get("params") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(Value::Object(p)) => p
            .iter()
            .map(|(k, v)| v.as_f64().filter(|f| f.is_finite()).map(|f| (k.clone(), f)))
            .collect::<Option<_>>()
            .ok_or("the params are malformed")?,
        Some(_) => return Err("the params are malformed".into()),
    };
    let cuda = opt_string(&r, "cuda", "CUDA source")?;
    if let Some(cuda) = cuda.as_ref().filter(|c| c.len() > MAX_KERNEL_BYTES) {
        return Err(format!("its CUDA source is {} KiB, more than the {} KiB warpscope opens", cuda.len() / 1024, MAX_KERNEL_BYTES / 1024));
    }
    let ptx = opt_string(&r, "ptx", "PTX")?;
    if let Some(ptx) = ptx.as_ref().filter(|c| c.len() > MAX_KERNEL_BYTES) {
        return Err(format!("its PTX is {} KiB, more than the {} KiB warpscope opens", ptx.len() / 1024, MAX_KERNEL_BYTES / 1024));
    }
    let compare_text = opt_string(&r, "compareText", "other kernel compared")?;
    if let Some(other) = compare_text.as_ref().filter(|c| c.len() > MAX_KERNEL_BYTES) {
        return Err(format!(
            "the kernel it compares with is {} KiB, more than the {} KiB warpscope opens",
            other.len() / 1024,
            MAX_KERNEL_BYTES / 1024
        ));
    }
    let embed = match r.get("embed") {
        Some(Value::Array(names)) => Some(names.iter().filter_map(|n| n.as_str().map(String::from)).collect()),
        _ => None,
    };
    Ok(Link {
        text: text.into(),
        params,
        choices: run_choices(&r, "")?,
        compare: compare_choices(r.get("compare"))?,
        compare_text,
        step: count(&r, "step")?,
        lane: count(&r, "lane")?,
        warp: match r.get("warp") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or("the focused warp is malformed")?),
        },
        embed,
        sweep: sweep_choice(r.get("sweep"))?,
        figure: opt_string(&r, "figure", "figure")?,
        cuda,
        ptx,
    })
}
