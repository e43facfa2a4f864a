"""The //@ lines above a gallery PTX file: the C example's, with each kernel parameter renamed to
the position PTX binds it by (`a` to `arg0`), and a title and note of the PTX's own.
Usage: python3 scripts/ptx_gallery_header.py examples/NAME.cu  (prints the lines)."""
import re
import sys

path = sys.argv[1]
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
print(f"//@ title {title}: nvcc's PTX")
print(f"//@ about `nvcc -O3 -arch=sm_90 -lineinfo -ptx {name}`, pasted as it is. PTX has no reconvergence "
      "instructions: warpscope places them for the chosen model (the listing marks them as inserted). "
      "Compare with the C example: nvcc unrolls loops of known trip count, turns short branches into "
      "selects (if-conversion), and hoists and merges loads, so its graph can have fewer branches.")
for line in text.splitlines():
    m = re.match(r"^\s*//@\s*(\w+)\s*(.*)$", line)
    if not m or m.group(1) in ("title", "about", "kernel", "ifconvert", "note"):
        continue
    key, rest = m.groups()
    if key in ("buffer", "param"):
        n = re.match(r"(\w+)(.*)$", rest)
        if n and n.group(1) in rename:
            rest = rename[n.group(1)] + n.group(2)
    print(f"//@ {key} {rest}")
