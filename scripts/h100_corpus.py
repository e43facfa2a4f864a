# Runs each corpus kernel's cubin on the GPU with warpscope's automatic inputs (one block of 32
# threads; every buffer 32 elements 0,1,2,...; every scalar 32 unless overridden) and dumps
# every buffer's bytes as hex, for checking the Rust references in core/tests/corpus/.
# Through the CUDA driver API (ctypes, no toolkit needed on the GPU machine). How it was run:
#   here:   for f in examples/corpus/*.cu; do nvcc -O3 -arch=sm_90 -cubin -o scratch/cubin/$(basename $f .cu).cubin $f; done
#           (nvcc from `bash scripts/nvcc.sh`)
#   device: python3 scripts/h100_corpus.py   (with scratch/ carried; writes $OUT/h100.json)
#   here:   the JSON becomes examples/corpus/h100.txt, one line per buffer (see its header).
import ctypes, json, os, struct, sys
cu = ctypes.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0:
        s = ctypes.c_char_p(); cu.cuGetErrorString(r, ctypes.byref(s))
        raise RuntimeError(f"{what}: {r} {s.value}")
ck(cu.cuInit(0), "init")
dev = ctypes.c_int(); ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "dev")
ctx = ctypes.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "ctx"); ck(cu.cuCtxSetCurrent(ctx), "set")
P = lambda t: "*" + t
SPEC = {
 "atomic_min_max_cas": [("in", P("i32")), ("stats", P("i32"))],
 "binary_search": [("sorted", P("i32")), ("keys", P("i32")), ("found", P("i32")), ("n", "i32")],
 "bit_intrinsics": [("in", P("i32")), ("log2_floor", P("i32")), ("lowest_bit", P("i32")), ("reversed", P("u32")), ("ones", P("i32"))],
 "bitonic_sort_step": [("values", P("i32")), ("j", "i32"), ("k", "i32")],
 "collatz_steps": [("start", P("u32")), ("steps", P("i32"))],
 "div_mod_variable": [("in", P("i32")), ("quot", P("i32")), ("rem", P("i32")), ("bucket", P("u32")), ("width", "i32")],
 "divergent_odd_even": [("in", P("i32")), ("out", P("i32"))],
 "double_precision": [("n", "i32"), ("a", "f64"), ("x", P("f64")), ("y", P("f64"))],
 "grid_stride_loop": [("x", P("f32")), ("partial", P("f32")), ("n", "i32")],
 "histogram_global_atomic": [("data", P("i32")), ("bins", P("i32")), ("n", "i32")],
 "histogram_shared_bins": [("data", P("u32")), ("bins", P("u32")), ("n", "i32")],
 "index_types": [("in", P("i32")), ("gathered", P("i32")), ("left", P("i32")), ("scaled_hi", P("i32")), ("n", "u64")],
 "math_functions": [("x", P("f32")), ("clamped", P("f32")), ("root", P("f32")), ("bin", P("f32")), ("weight", P("f32")), ("dist", P("i32"))],
 "matmul_shared_tile": [("A", P("f32")), ("B", P("f32")), ("C", P("f32"))],
 "matrix_add_2d": [("A", P("i32")), ("B", P("i32")), ("C", P("i32")), ("rows", "i32"), ("cols", "i32")],
 "reduce_interleaved_divergent": [("g_idata", P("i32")), ("g_odata", P("i32"))],
 "reduce_interleaved_strided": [("g_idata", P("i32")), ("g_odata", P("i32"))],
 "reduce_sequential": [("g_idata", P("i32")), ("g_odata", P("i32"))],
 "reduce_warp_unrolled": [("g_idata", P("i32")), ("g_odata", P("i32"))],
 "saxpy": [("n", "i32"), ("a", "f32"), ("x", P("f32")), ("y", P("f32"))],
 "scan_hillis_steele": [("g_idata", P("f32")), ("g_odata", P("f32")), ("n", "i32")],
 "stencil_1d_halo": [("in", P("i32")), ("out", P("i32")), ("n", "i32")],
 "stream_compact_ballot": [("in", P("i32")), ("out", P("i32")), ("count", P("i32"))],
 "switch_lane": [("in", P("i32")), ("out", P("i32"))],
 "transpose_shared_tile": [("in", P("f32")), ("out", P("f32"))],
 "vector_add": [("A", P("f32")), ("B", P("f32")), ("C", P("f32")), ("n", "i32")],
 "vote_any_all": [("in", P("i32")), ("flags", P("i32"))],
 "warp_allreduce_xor": [("in", P("f32")), ("sum_out", P("f32")), ("max_out", P("f32"))],
 "warp_reduce_shfl_down": [("in", P("i32")), ("out", P("i32"))],
 "warp_scan_shfl_up": [("in", P("i32")), ("inclusive", P("i32")), ("exclusive", P("i32"))],
 "warp_sync_shared": [("in", P("i32")), ("out", P("i32"))],
}
CASES = {
 "histogram_global_atomic": [{}, {"n": 10}], "histogram_shared_bins": [{}, {"n": 13}],
 "bitonic_sort_step": [{"j": j, "k": k} for j, k in [(1, 2), (2, 4), (1, 4), (4, 8), (8, 16), (16, 32)]],
 "binary_search": [{}, {"n": 20}, {"n": 1}, {"n": 0}], "vector_add": [{}, {"n": 20}],
 "saxpy": [{}, {"n": 16, "a": 2}], "grid_stride_loop": [{}, {"n": 10}],
 "div_mod_variable": [{}, {"width": 5}, {"width": -3}], "index_types": [{}, {"n": 20}],
 "matrix_add_2d": [{}, {"rows": 4, "cols": 8}],
}
ENTRIES = {'atomic_min_max_cas': '_Z12atomic_statsPKiPi', 'binary_search': '_Z6searchPKiS0_Pii', 'bit_intrinsics': '_Z4bitsPKiPiS1_PjS1_', 'bitonic_sort_step': '_Z17bitonic_sort_stepPiii', 'collatz_steps': '_Z7collatzPKjPi', 'div_mod_variable': '_Z7div_modPKiPiS1_Pji', 'divergent_odd_even': '_Z16divergent_branchPKiPi', 'double_precision': '_Z11daxpy_thirdidPKdPd', 'grid_stride_loop': '_Z14sum_of_squaresPKfPfi', 'histogram_global_atomic': '_Z9histogramPKiPii', 'histogram_shared_bins': '_Z16histogram_sharedPKjPji', 'index_types': '_Z11index_typesPKiPiS1_S1_m', 'math_functions': '_Z9transformPKfPfS1_S1_S1_Pi', 'matmul_shared_tile': '_Z12matmul_tiledPKfS0_Pf', 'matrix_add_2d': '_Z7mat_addPKiS0_Piii', 'reduce_interleaved_divergent': '_Z18reduce_interleavedPKiPi', 'reduce_interleaved_strided': '_Z14reduce_stridedPKiPi', 'reduce_sequential': '_Z17reduce_sequentialPKiPi', 'reduce_warp_unrolled': '_Z20reduce_warp_unrolledPKiPi', 'saxpy': '_Z5saxpyifPKfPf', 'scan_hillis_steele': '_Z14scan_inclusivePKfPfi', 'stencil_1d_halo': '_Z10stencil_1dPKiPii', 'stream_compact_ballot': '_Z22compact_multiples_of_3PKiPiS1_', 'switch_lane': '_Z14switch_on_lanePKiPi', 'transpose_shared_tile': '_Z14transpose_tilePKfPf', 'vector_add': '_Z6vecAddPKfS0_Pfi', 'vote_any_all': '_Z4votePKiPi', 'warp_allreduce_xor': '_Z14warp_allreducePKfPfS1_', 'warp_reduce_shfl_down': '_Z8warp_sumPKiPi', 'warp_scan_shfl_up': '_Z9warp_scanPKiPiS1_', 'warp_sync_shared': '_Z11rotate_leftPKiPi'}
PACK = {"i32": ("i", ctypes.c_int32), "u32": ("I", ctypes.c_uint32), "f32": ("f", ctypes.c_float), "f64": ("d", ctypes.c_double), "u64": ("Q", ctypes.c_uint64)}
out = {}
for name, spec in SPEC.items():
    img = open(f"scratch/cubin/{name}.cubin", "rb").read()
    mod = ctypes.c_void_p(); ck(cu.cuModuleLoadData(ctypes.byref(mod), img), f"{name} load")
    entry = ENTRIES[name]
    fn = ctypes.c_void_p(); ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, entry.encode()), f"{name} fn")
    runs = []
    for params in CASES.get(name, [{}]):
        args, keep, bufs = [], [], {}
        for pname, t in spec:
            if t.startswith("*"):
                f, _ = PACK[t[1:]]
                data = struct.pack("<32" + f, *[(float(i) if f in "fd" else i) for i in range(32)])
                d = ctypes.c_uint64(); ck(cu.cuMemAlloc_v2(ctypes.byref(d), len(data)), "alloc")
                ck(cu.cuMemcpyHtoD_v2(d, data, len(data)), "htod")
                bufs[pname] = (d, len(data)); v = ctypes.c_uint64(d.value)
            else:
                f, ct = PACK[t]
                val = params.get(pname, 32)
                v = ct(float(val) if f in "fd" else val)
            keep.append(v)
        arr = (ctypes.c_void_p * len(keep))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in keep])
        ck(cu.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, None, arr, None), f"{name} launch")
        ck(cu.cuCtxSynchronize(), f"{name} sync")
        res = {}
        for pname, (d, n) in bufs.items():
            b = ctypes.create_string_buffer(n); ck(cu.cuMemcpyDtoH_v2(b, d, n), "dtoh"); res[pname] = b.raw.hex()
            cu.cuMemFree_v2(d)
        runs.append({"params": params, "buffers": res})
    out[name] = runs
os.makedirs(os.environ.get("OUT", "."), exist_ok=True)
json.dump(out, open(os.path.join(os.environ.get("OUT", "."), "h100.json"), "w"), indent=1)
print("ran", sum(len(v) for v in out.values()), "launches of", len(out), "kernels")
