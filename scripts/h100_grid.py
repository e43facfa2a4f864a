# The whole-launch kernels of examples/grid on a real GPU: for each, a host program that fills
# its buffers as its `//@ buffer` lines say (their expressions over the element `i` are C),
# launches it as `//@ launch` says with its `//@ param` values, and prints every buffer's bytes
# as hex. core/tests/grid.rs checks warpscope's whole launch against what the H100 printed.
#   here:   python3 scripts/h100_grid.py build   (nvcc from `bash scripts/nvcc.sh`; writes scratch/grid/)
#   device: bash scratch/grid/run.sh              (with scratch/grid carried; writes $OUT/h100.txt)
#   here:   that file becomes examples/grid/h100.txt
import os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRID = os.path.join(ROOT, "examples/grid")
OUT = os.path.join(ROOT, "scratch/grid")
C_BYTES = {"i32": 4, "u32": 4, "f32": 4, "u8": 1, "i8": 1, "i16": 2, "u16": 2, "f64": 8, "i64": 8, "u64": 8}
C_TYPE = {"i32": "int", "u32": "unsigned int", "f32": "float", "u8": "unsigned char", "i8": "signed char",
          "i16": "short", "u16": "unsigned short", "f64": "double", "i64": "long long", "u64": "unsigned long long"}


def dims(text):
    nums = [int(x) for x in re.findall(r"\d+", text)]
    return (nums + [1, 1])[:3]


def harness(name, source):
    heads = [l[4:].strip() for l in source.splitlines() if l.startswith("//@ ")]
    launch = next(h for h in heads if h.startswith("launch "))
    grid_given = re.search(r"grid=(\([^)]*\)|\d+)", launch)
    grid = dims(grid_given.group(1)) if grid_given else [1, 1, 1]
    block = dims(re.search(r"block=(\([^)]*\)|\d+)", launch).group(1))
    shared = re.search(r"shared=(\d+)", launch)
    shared = f", {shared.group(1)}" if shared else ""
    buffers = {}
    for h in heads:
        m = re.match(r"buffer (\w+): (\w+)\[(\d+)\](?: = (.*))?$", h)
        if m:
            buffers[m.group(1)] = (m.group(2), int(m.group(3)), m.group(4) or "0")
    params = dict(re.match(r"param (\w+) = (.*)$", h).groups() for h in heads if h.startswith("param "))
    sig = re.search(r"__global__ void (\w+)\(([^)]*)\)", source)
    kernel, args = sig.group(1), [a.strip() for a in sig.group(2).split(",")]
    # A template kernel launches the instance the file instantiates (`template __global__ void
    # reduce4<256>(...)`).
    inst = re.search(r"template __global__ void (\w+<[^>]*>)\(([^)]*)\)", source)
    if inst:
        kernel = inst.group(1)
        # Its parameters' types as the instance has them (`const int*` for a template's `const T*`).
        types = [t.strip() for t in inst.group(2).split(",")]
        names = [re.search(r"(\w+)$", a).group(1) for a in args]
        args = [f"{ty} {name}" for ty, name in zip(types, names)]
    lines = [f'#include "{name}.cu"', "#include <cstdio>", "int main() {"]
    call = []
    for a in args:
        pname = re.search(r"(\w+)$", a).group(1)
        if pname in buffers:
            ty, n, init = buffers[pname]
            c = C_TYPE[ty]
            lines += [f"  {c}* h_{pname} = new {c}[{n}];",
                      f"  for (long long i = 0; i < {n}; i++) h_{pname}[i] = ({c})({init});",
                      f"  {c}* d_{pname}; cudaMalloc(&d_{pname}, {n} * sizeof({c}));",
                      f"  cudaMemcpy(d_{pname}, h_{pname}, {n} * sizeof({c}), cudaMemcpyHostToDevice);"]
            # Cast to the parameter's own type (a `Node*` buffer is filled as its words).
            call.append(f"({a[:a.rindex(pname)].strip()})d_{pname}")
        else:
            call.append(f"({a.rsplit(' ', 1)[0].replace('const ', '')})({params[pname]})")
    lines.append(f"  {kernel}<<<dim3({grid[0]}, {grid[1]}, {grid[2]}), dim3({block[0]}, {block[1]}, {block[2]}){shared}>>>({', '.join(call)});")
    lines.append('  cudaError_t e = cudaDeviceSynchronize(); if (e != cudaSuccess) { printf("error %s\\n", cudaGetErrorString(e)); return 1; }')
    for pname, (ty, n, _) in buffers.items():
        c = C_TYPE[ty]
        lines += [f"  cudaMemcpy(h_{pname}, d_{pname}, {n} * sizeof({c}), cudaMemcpyDeviceToHost);",
                  f'  printf("{name}.cu {pname} ");']
        if n * int(C_BYTES[ty]) > 65536:
            # A large buffer as its 64-bit FNV-1a hash (`fnv:HEX`), which the test computes too.
            lines += ["  { unsigned long long h = 14695981039346656037ull;",
                      f"    for (size_t k = 0; k < {n} * sizeof({c}); k++) {{ h ^= ((unsigned char*)h_{pname})[k]; h *= 1099511628211ull; }}",
                      '    printf("fnv:%016llx\\n", h); }']
        else:
            lines += [f"  for (size_t k = 0; k < {n} * sizeof({c}); k++) printf(\"%02x\", ((unsigned char*)h_{pname})[k]);",
                      '  printf("\\n");']
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def build():
    nvcc = subprocess.check_output(["bash", os.path.join(ROOT, "scripts/nvcc.sh")], text=True).strip()
    os.makedirs(OUT, exist_ok=True)
    names = sorted(f[:-3] for f in os.listdir(GRID) if f.endswith(".cu"))
    for name in names:
        source = open(os.path.join(GRID, name + ".cu")).read()
        with open(os.path.join(OUT, name + ".main.cu"), "w") as f:
            f.write(harness(name, source))
        subprocess.check_call([nvcc, "-O3", "-arch=sm_90", "-I", GRID, "-o", os.path.join(OUT, name), os.path.join(OUT, name + ".main.cu")])
    with open(os.path.join(OUT, "run.sh"), "w") as f:
        f.write("set -e\ncd \"$(dirname \"$0\")\"\n: > \"$OUT/h100.txt\"\n")
        f.write("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > \"$OUT/gpu.txt\"\n")
        for name in names:
            f.write(f"./{name} >> \"$OUT/h100.txt\"\n")
        # ncu's instruction counts of each launch, and compute-sanitizer's race and sync checks,
        # where the machine has them.
        f.write("PATH=$PATH:/usr/local/cuda/bin:$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | tail -1)\n")
        f.write(": > \"$OUT/ncu.csv\"; : > \"$OUT/sanitizer.txt\"\n")
        f.write("command -v ncu >/dev/null || echo 'no ncu' >> \"$OUT/ncu.csv\"\n")
        f.write("command -v compute-sanitizer >/dev/null || echo 'no compute-sanitizer' >> \"$OUT/sanitizer.txt\"\n")
        for name in names:
            f.write(f"command -v ncu >/dev/null && ncu --csv --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__sass_branch_targets_threads_divergent.sum ./{name} 2>&1 | grep -v '^{name}.cu ' | sed 's/^/{name},/' >> \"$OUT/ncu.csv\" || true\n")
            f.write(f"for tool in racecheck synccheck memcheck; do command -v compute-sanitizer >/dev/null && compute-sanitizer --tool $tool ./{name} 2>&1 | grep -v '^{name}.cu ' | sed \"s/^/{name} $tool: /\" >> \"$OUT/sanitizer.txt\" || true; done\n")
    print(f"built {len(names)} programs in {OUT}")


if __name__ == "__main__" and sys.argv[1:] == ["build"]:
    build()
