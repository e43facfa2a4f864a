"""The //@ lines above a gallery PTX file: the C example's, with each kernel parameter renamed to
the position PTX binds it by (`a` to `arg0`), and a title and note of the PTX's own. The note says
what differs from warpscope's own compile of the C in this example, from both run by the CLI
under the example's model with its inputs.
With `sass` last, the lines above nvcc's sm_90 SASS of the example instead, run under volta (the
model of the GPUs that run SASS; the C example's own model line is dropped).
Usage: python3 scripts/ptx_gallery_header.py examples/NAME.cu BODY WARPSCOPE [sass]  (prints the lines)."""
import json
import re
import subprocess
import sys
import tempfile

path, body_path, cli = sys.argv[1], sys.argv[2], sys.argv[3]
sass = sys.argv[4:] == ["sass"]
text = open(path).read()
name = path.rsplit("/", 1)[-1]
wanted = next((m.group(1) for m in re.finditer(r"^\s*//@\s*kernel\s+(\w+)", text, re.M)), None)
params = []
for m in re.finditer(r"__global__[^(]*?(\w+)\s*\(([^)]*)\)", text):
    if wanted is None or m.group(1) == wanted:
        params = [re.findall(r"\w+", p)[-1] for p in m.group(2).split(",") if re.findall(r"\w+", p)]
        break
rename = {p: f"arg{k}" for k, p in enumerate(params) if p != "void"}
title = next((m.group(1).strip() for m in re.finditer(r"^\s*//@\s*title\s+(.*)$", text, re.M)), name)
lines = []
for line in text.splitlines():
    m = re.match(r"^\s*//@\s*(\w+)\s*(.*)$", line)
    if not m or m.group(1) in ("title", "about", "kernel", "ifconvert", "note") or (sass and m.group(1) in ("model", "preset")):
        continue
    key, rest = m.groups()
    if key in ("buffer", "param"):
        n = re.match(r"(\w+)(.*)$", rest)
        if n and n.group(1) in rename:
            rest = rename[n.group(1)] + n.group(2)
    lines.append(f"//@ {key} {rest}")


def run(file_text: str, suffix: str, model: str | None = None) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=suffix) as f:
        f.write(file_text)
        f.flush()
        flags = ["--model", model] if model else []
        out = subprocess.run([cli, "run", f.name, "--json", *flags], capture_output=True, text=True, check=False)
    if not out.stdout:
        sys.exit(f"{path}: warpscope run failed: {out.stderr}")
    return json.loads(out.stdout)


def said(r: dict) -> str:
    d = r["divergent_branches"]
    branches = "no divergent branch" if d == 0 else f"{d} divergent branch{'es' if d != 1 else ''}"
    run = f"{r['warp_instructions']} warp instructions with {branches} (SIMD efficiency {round(100 * r['simd_efficiency'])} %)"
    kind = r["stop_reason"]["kind"]
    return run if kind == "exited" else f"{run}, then stops ({kind})"


if sass:
    lines.insert(0, "//@ model volta")
    sass_run = run("\n".join(lines) + "\n" + open(body_path).read(), ".sass")
    c_run = run(text, ".cu", "volta")
    print(f"//@ title {title}: nvcc's sm_90 SASS")
    body = open(body_path).read()
    # printf's formats are in the cubin's data: the whole cubin's code and two data sections.
    how = ("`nvdisasm -gi` (the code, bank 4 and the initialised globals, where printf's format strings are)"
           if ".nv.global.init" in body else "`nvdisasm -c -gi`, pasted as it is")
    print(f"//@ about `nvcc -O3 -arch=sm_90 -lineinfo -cubin {name}` then {how}: the code the "
          "GPU runs, with the convergence barriers ptxas placed (BSSY/BSYNC). Under volta with these inputs, "
          f"it runs {said(sass_run)}; warpscope's own compile of the C example runs {said(c_run)}.")
    for line in lines:
        print(line)
    sys.exit(0)
model = next((m.group(1) for m in re.finditer(r"^\s*//@\s*model\s+(\S+)", text, re.M)), "kepler")
ptx_run = run("\n".join(lines) + "\n" + open(body_path).read(), ".ptx")
c_run = run(text, ".cu")
print(f"//@ title {title}: nvcc's PTX")
print(f"//@ about `nvcc -O3 -arch=sm_90 -lineinfo -ptx {name}`, pasted as it is. PTX has no reconvergence "
      "instructions: warpscope places them for the chosen model (the listing marks them as inserted). "
      f"Under {model} with these inputs, nvcc's code runs {said(ptx_run)}; warpscope's own compile of "
      f"the C example runs {said(c_run)}. They differ where nvcc unrolls loops of known trip count, turns "
      "short branches into selects (if-conversion), and hoists and merges loads.")
for line in lines:
    print(line)
