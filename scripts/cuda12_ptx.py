#!/usr/bin/env python3
"""CUDA 12's PTX of a teaching kernel, through NVRTC 12.9 (the library form of nvcc 12.9's
device compiler; PyPI has no nvcc 12 driver). PTX from CUDA 12 differs from CUDA 13's in ways a
reader must take: `.version 8.8`, a `.section .debug_str` block with -lineinfo, other register
numbering. NVRTC compiles device code only, so the kernel's host code (`int main` and the
`#include` lines) is cut first.

    cuda12_ptx.py LIBNVRTC FILE.cu > FILE.ptx
"""
import ctypes
import re
import sys


def device_only(text: str) -> str:
    """The file without #include lines and without `main` (host code up to its closing brace)."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("#include"):
            out.append("\n")  # keep the line numbers, so .loc names the file's own lines
        elif skipping or re.match(r"^int\s+main\s*\(", line):
            skipping = line.rstrip() != "}"
            out.append("\n")
        else:
            out.append(line)
    return "".join(out)


def main() -> int:
    lib = ctypes.CDLL(sys.argv[1])
    path = sys.argv[2]
    name = path.rsplit("/", 1)[-1]
    src = device_only(open(path, encoding="utf-8").read()).encode()
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), src, name.encode(), 0, None, None) != 0:
        print(f"{path}: nvrtcCreateProgram failed", file=sys.stderr)
        return 1
    # As scripts/nvcc.sh compiles (-O3 is NVRTC's default), with line information.
    opts = [b"-arch=compute_90", b"-lineinfo", b"-default-device"]
    status = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    if status != 0:
        print(f"{path}: {log.value.decode()}", file=sys.stderr)
        return 1
    lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetPTX(prog, ptx)
    sys.stdout.write(ptx.value.decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
