// Microbenchmarks that calibrate warpscope's H100 timing model (core/data/h100_timing.txt).
//
// Build and run on an H100 (calibration/h100/run.sh does both and dumps the SASS):
//   nvcc -O3 -arch=sm_90 -o micro micro.cu && ./micro > raw.csv
//
// Every kernel runs as one block of one warp, like the report in reference/h100: thread t reads
// its parameters from in[t] and in[32 + t], the timed body sits between two clock64() reads,
// and thread 0's stop - start is the measurement (median of REPS launches after WARM more).
// Each kernel is measured at two or more sizes (x), so per-instruction costs come from
// differences and the clock's own overhead cancels. Inline PTX keeps the chains as written:
// ptxas turns each line into one SASS instruction (run.sh keeps the SASS to check).

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1);} } while (0)

#define X2(m) m m
#define X4(m) X2(m) X2(m)
#define X8(m) X4(m) X4(m)
#define X16(m) X8(m) X8(m)
#define X32(m) X16(m) X16(m)
#define X64(m) X32(m) X32(m)

typedef void (*kern_t)(const int*, float*, long long*, int*);

// The loads of p, q and o finish before the timed region: a (never taken) trap waits for them.
#define PROLOGUE                                  \
  int tid = threadIdx.x;                          \
  int p = in[tid], q = in[32 + tid];              \
  float o = out[tid];                             \
  (void)p; (void)q; (void)o;
#define SETTLE if (p + q + __float_as_int(o) == 0x7ffffff0) __trap(); __syncthreads();
#define START SETTLE long long start = clock64();
#define STOP                                      \
  long long stop = clock64();                     \
  __syncthreads();                                \
  timer[2 * tid] = start;                         \
  timer[2 * tid + 1] = stop;

// ---------------------------------------------------------------- dependent chains
// A chain of N dependent instructions of one class: (T(64) - T(32)) / 32 is its latency.
#define CHAIN_F(name, N, op)                                                        \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE float x = o, y = __int_as_float(p), z = __int_as_float(q);      \
    START X##N(op) STOP out[tid] = x + y + z; }
#define CHAIN_I(name, N, op)                                                        \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE int a = __float_as_int(o), b = p, c = q, d = p ^ q, e = p + q;   \
    START X##N(op) STOP out[tid] = __int_as_float(a + b + c + d + e); }
#define CHAIN_D(name, N, op)                                                        \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE double x = o, y = p, z = q;                                     \
    START X##N(op) STOP out[tid] = (float)(x + y + z); }

#define FADD asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define FMUL asm volatile("mul.f32 %0, %0, %1;" : "+f"(x) : "f"(y));
#define FFMA asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(z));
#define MUFU asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
#define IADD asm volatile("add.s32 %0, %0, %1;" : "+r"(a) : "r"(b));
#define IMAD asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(a) : "r"(b), "r"(c));
#define LOP3 asm volatile("lop3.b32 %0, %0, %1, %2, 0x6c;" : "+r"(a) : "r"(b), "r"(c)); \
             asm volatile("lop3.b32 %0, %0, %1, %2, 0x6c;" : "+r"(a) : "r"(d), "r"(e));
#define SHF  asm volatile("shf.l.wrap.b32 %0, %0, %0, %1;" : "+r"(a) : "r"(b));
#define POPC asm volatile("popc.b32 %0, %0;" : "+r"(a));
#define I2F  asm volatile("{ .reg .f32 t; cvt.rn.f32.s32 t, %0; cvt.rzi.s32.f32 %0, t; }" : "+r"(a));
#define SETP asm volatile("{ .reg .pred q; setp.lt.s32 q, %0, %1; selp.s32 %0, %2, %1, q; }" : "+r"(a) : "r"(b), "r"(c));
#define DADD asm volatile("add.f64 %0, %0, %1;" : "+d"(x) : "d"(y));
#define DFMA asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(y), "d"(z));

CHAIN_F(fadd_32, 32, FADD) CHAIN_F(fadd_64, 64, FADD)
CHAIN_F(fmul_32, 32, FMUL) CHAIN_F(fmul_64, 64, FMUL)
CHAIN_F(ffma_32, 32, FFMA) CHAIN_F(ffma_64, 64, FFMA)
CHAIN_F(mufu_32, 32, MUFU) CHAIN_F(mufu_64, 64, MUFU)
CHAIN_I(iadd_32, 32, IADD) CHAIN_I(iadd_64, 64, IADD)
CHAIN_I(imad_32, 32, IMAD) CHAIN_I(imad_64, 64, IMAD)
CHAIN_I(lop3_16, 16, LOP3) CHAIN_I(lop3_32, 32, LOP3)
CHAIN_I(shf_32, 32, SHF)   CHAIN_I(shf_64, 64, SHF)
CHAIN_I(popc_32, 32, POPC) CHAIN_I(popc_64, 64, POPC)
CHAIN_I(i2f_16, 16, I2F)   CHAIN_I(i2f_32, 32, I2F)
CHAIN_I(setp_16, 16, SETP) CHAIN_I(setp_32, 32, SETP)
CHAIN_D(dadd_32, 32, DADD) CHAIN_D(dadd_64, 64, DADD)
CHAIN_D(dfma_32, 32, DFMA) CHAIN_D(dfma_64, 64, DFMA)

// ---------------------------------------------------------------- issue rate
// Eight independent chains interleaved: when the latency is hidden, (T(64) - T(32)) / 256 is the
// issue interval of the class.
#define IND_F(name, N, OPX)                                                         \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE float y = __int_as_float(p), z = __int_as_float(q);                    \
    float x0 = o, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7; \
    START X##N(OPX(x0) OPX(x1) OPX(x2) OPX(x3) OPX(x4) OPX(x5) OPX(x6) OPX(x7)) STOP \
    out[tid] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + z; }
#define IND_I(name, N, OPX)                                                         \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE int b = p, c = q;                                                      \
    int x0 = __float_as_int(o), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7; \
    START X##N(OPX(x0) OPX(x1) OPX(x2) OPX(x3) OPX(x4) OPX(x5) OPX(x6) OPX(x7)) STOP \
    out[tid] = __int_as_float(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + c); }
#define FADDX(v) asm volatile("add.f32 %0, %0, %1;" : "+f"(v) : "f"(y));
#define MUFUX(v) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(v));
#define IADDX(v) asm volatile("add.s32 %0, %0, %1;" : "+r"(v) : "r"(b));
#define IMADX(v) asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(v) : "r"(b), "r"(c));
IND_F(fadd_ind_4, 4, FADDX) IND_F(fadd_ind_8, 8, FADDX)
IND_F(mufu_ind_4, 4, MUFUX) IND_F(mufu_ind_8, 8, MUFUX)
IND_I(iadd_ind_4, 4, IADDX) IND_I(iadd_ind_8, 8, IADDX)
IND_I(imad_ind_4, 4, IMADX) IND_I(imad_ind_8, 8, IMADX)

// ---------------------------------------------------------------- memory: pointer chases
// mem[0..4096) holds a chase with a 32-word stride (a new 128-byte line each step), in L2 since
// the host wrote it (plain, .nc and .cg loads all take L2's latency: no L1 hit was seen); a chase
// over mem + (1 << 22) words with a 64 KiB stride, fresh for every launch and after a 256 MiB
// write that flushes L2, misses both caches.
#define CHASE(name, N, LD, BASE)                                                    \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE const int* m = mem + (BASE); int a = p;                                \
    START X##N(asm volatile(LD : "+r"(a) : "l"(m));) STOP out[tid] = __int_as_float(a); }
#define LD_CA "{ .reg .u64 t; mul.wide.s32 t, %0, 4; add.u64 t, t, %1; ld.global.u32 %0, [t]; }"
#define LD_NC "{ .reg .u64 t; mul.wide.s32 t, %0, 4; add.u64 t, t, %1; ld.global.nc.u32 %0, [t]; }"
#define LD_CG "{ .reg .u64 t; mul.wide.s32 t, %0, 4; add.u64 t, t, %1; ld.global.cg.u32 %0, [t]; }"
CHASE(ldg_l1_8, 8, LD_CA, 0) CHASE(ldg_l1_16, 16, LD_CA, 0)
CHASE(ldg_nc_8, 8, LD_NC, 0) CHASE(ldg_nc_16, 16, LD_NC, 0)
CHASE(ldg_l2_8, 8, LD_CG, 0) CHASE(ldg_l2_16, 16, LD_CG, 0)
// DRAM: q is this launch's fresh region; no warm-up pass reaches it.
#define CHASE_COLD(name, N)                                                         \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE const int* m = mem + q; int a = p;                                     \
    START X##N(asm volatile(LD_CG : "+r"(a) : "l"(m));) STOP out[tid] = __int_as_float(a); }
CHASE_COLD(ldg_dram_8, 8) CHASE_COLD(ldg_dram_16, 16)
// Shared memory: a chase through 32 words.
#define CHASE_SHARED(name, N)                                                       \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE __shared__ int s[64]; s[tid] = (tid + 1) & 31; s[32 + tid] = 0;        \
    int a = p;                                                                      \
    START X##N(a = *(volatile int*)&s[a];) STOP out[tid] = __int_as_float(a); }
CHASE_SHARED(lds_16, 16) CHASE_SHARED(lds_32, 32)

// ---------------------------------------------------------------- control flow
// Rolled loop of p uniform trips around one FADD (the report's 29 cycles per iteration).
__global__ void loop_fadd(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
#pragma unroll 1
  for (int i = 0; i < p; i++) x += 1.3333f;
  STOP out[tid] = x; }
// Rolled loop whose body is a chain of 8 dependent FADDs: the body, not the branch, sets the pace.
__global__ void loop_fadd8(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o, y = __int_as_float(q);
  START
#pragma unroll 1
  for (int i = 0; i < p; i++) { X8(FADD) }
  STOP out[tid] = x; }
// Blocks of 8 FADDs, each skipped by a uniform branch on p (taken when p != 0): x blocks.
#define SKIP8 asm volatile("{ .reg .pred t; setp.ne.s32 t, %2, 0; @t bra.uni L%=; add.f32 %0, %0, %1; add.f32 %0, %0, %1; add.f32 %0, %0, %1; add.f32 %0, %0, %1; add.f32 %0, %0, %1; add.f32 %0, %0, %1; add.f32 %0, %0, %1; add.f32 %0, %0, %1; L%=: }" : "+f"(x) : "f"(y), "r"(p));
__global__ void bra_uniform_8(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o, y = 1.0f;
  START X8(SKIP8) STOP out[tid] = x; }
__global__ void bra_uniform_16(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o, y = 1.0f;
  START X16(SKIP8) STOP out[tid] = x; }
// if/else on lanes < p with s FADDs a side (uniform when p is 0 or 32).
#define FA asm volatile("add.f32 %0, %0, 0f3F800347;" : "+f"(x));
#define FB asm volatile("add.f32 %0, %0, 0f3F7FF972;" : "+f"(x));
__global__ void ifelse_16(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START if (tid < p) { X16(FA) } else { X16(FB) } STOP out[tid] = x; }
__global__ void ifelse_32(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START if (tid < p) { X32(FA) } else { X32(FB) } STOP out[tid] = x; }
__global__ void ifonly_32(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START if (tid < p) { X32(FA) } STOP out[tid] = x; }
// Straight line of the same FADDs, for the branch's own cost.
__global__ void straight_32(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START X32(FA) STOP out[tid] = x; }
// Loop with per-lane trip counts p: each distinct count below the maximum is one divergent exit.
// (loop_fadd with lane patterns; listed again under its own name for the harness.)
// Barriers.
__global__ void bar_8(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE START X8(__syncthreads();) STOP }
__global__ void bar_16(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE START X16(__syncthreads();) STOP }
// The clock's own cost: two reads with nothing between.
__global__ void clock_only(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE START STOP }


// ---------------------------------------------------------------- more classes
// S2R of the 32-bit clock: each link reads it (S2R SR_CLOCKLO) and adds it, so the chain waits
// for the S2R's result (other special registers would be read once: ptxas reuses the value).
#define S2RL asm volatile("{ .reg .u32 t; mov.u32 t, %%clock; add.s32 %0, %0, t; }" : "+r"(a));
CHAIN_I(s2r_16, 16, S2RL) CHAIN_I(s2r_32, 32, S2RL)
// SHFL and VOTE chains.
#define SHFL asm volatile("shfl.sync.idx.b32 %0, %0, %1, 31, -1;" : "+r"(a) : "r"(c));
#define VOTE asm volatile("{ .reg .pred q; setp.ne.s32 q, %0, 0; vote.sync.ballot.b32 %0, q, -1; }" : "+r"(a));
CHAIN_I(shfl_16, 16, SHFL) CHAIN_I(shfl_32, 32, SHFL)
CHAIN_I(vote_16, 16, VOTE) CHAIN_I(vote_32, 32, VOTE)
// Independent DADDs and independent loads (an issue interval each).
#define IND_D(name, N)                                                              \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE double y = p; double x0 = o, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7; \
    START X##N(DADDX(x0) DADDX(x1) DADDX(x2) DADDX(x3) DADDX(x4) DADDX(x5) DADDX(x6) DADDX(x7)) STOP \
    out[tid] = (float)(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7); }
#define DADDX(v) asm volatile("add.f64 %0, %0, %1;" : "+d"(v) : "d"(y));
IND_D(dadd_ind_4, 4) IND_D(dadd_ind_8, 8)
#define LDX(v, k) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(mem + 32 * (k)));
#define IND_LD(name, N)                                                             \
  __global__ void name(const int* in, float* out, long long* timer, int* mem) {     \
    PROLOGUE int v[N]; for (int i = 0; i < N; i++) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v[i]) : "l"(mem + 32 * i)); \
    START _Pragma("unroll") for (int i = 0; i < N; i++) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v[i]) : "l"(mem + 32 * i)); STOP \
    int s = 0; for (int i = 0; i < N; i++) s += v[i]; out[tid] = __int_as_float(s); }
IND_LD(ldg_ind_16, 16) IND_LD(ldg_ind_32, 32)


// ---------------------------------------------------------------- instruction fetch
// The rolled loop of loop_fadd with k FADDs ahead of it, so it sits at each of the 8 places in
// a 128-byte block: whether the loop crosses into the next block changes its cost per trip.
#define PADDED(k)                                                                   \
  __global__ void loop_pad##k(const int* in, float* out, long long* timer, int* mem) { \
    PROLOGUE float x = o, w = __int_as_float(q);                             \
    _Pragma("unroll") for (int j = 0; j < k; j++) asm volatile("add.f32 %0, %0, %0;" : "+f"(w)); \
    START                                                                           \
    _Pragma("unroll 1") for (int i = 0; i < p; i++) x += 1.3333f;                   \
    STOP out[tid] = x + w; }
PADDED(0) PADDED(1) PADDED(2) PADDED(3) PADDED(4) PADDED(5) PADDED(6) PADDED(7)

// ---------------------------------------------------------------- timelines
// Every lane reads the clock at points of the code and keeps them: timer[8 * t + j].
#define CLK(j) T[j] = clock64();
#define TIMELINE_END                                                                \
  __syncthreads(); for (int j = 0; j < 8; j++) timer[8 * tid + j] = T[j];
// if/else on lanes < p, 16 FADDs a side: 0 before, 1/2 entering/leaving side A, 3/4 side B, 5 after.
__global__ void tl_ifelse(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; long long T[8] = {0};
  SETTLE CLK(0)
  if (tid < p) { CLK(1) X16(FA) CLK(2) } else { CLK(3) X16(FB) CLK(4) }
  CLK(5) out[tid] = x; TIMELINE_END }
// if only: 0 before, 1/2 entering/leaving the side, 5 after.
__global__ void tl_ifonly(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; long long T[8] = {0};
  SETTLE CLK(0)
  if (tid < p) { CLK(1) X16(FA) CLK(2) }
  CLK(5) out[tid] = x; TIMELINE_END }
// A rolled loop of p trips whose lanes read the clock as they leave (1), then after it (5).
__global__ void tl_loop(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; long long T[8] = {0};
  SETTLE CLK(0)
#pragma unroll 1
  for (int i = 0; ; i++) { x += 1.3333f; if (i + 1 >= p) { CLK(1) break; } }
  CLK(5) out[tid] = x; TIMELINE_END }

// ---------------------------------------------------------------- BSSY/BSYNC chains (run 6)
// nvcc's unrolled loops end in chains of `ISETP; BSSY; @!P BRA` into BSYNC: these take them apart.
// k ifs in a row on q, each around 16 FADDs: skipped when q = 0 (BSSY, a taken BRA, BSYNC; ptxas
// hoists the ISETPs above them), run when q = 2000.
#define IFQ(c) if (q > (c)) { X16(FA) }
__global__ void seqif_1(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START IFQ(1) STOP out[tid] = x; }
__global__ void seqif_2(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START IFQ(1) IFQ(2) STOP out[tid] = x; }
__global__ void seqif_4(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START IFQ(1) IFQ(2) IFQ(3) IFQ(4) STOP out[tid] = x; }
__global__ void seqif_8(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START IFQ(1) IFQ(2) IFQ(3) IFQ(4) IFQ(5) IFQ(6) IFQ(7) IFQ(8) STOP out[tid] = x; }
// The same, each condition on the bits of x, which the if before it may have changed: the ISETP
// follows the BSYNC before it, then BSSY and the BRA it resolves (the unrolled loops' tails).
// x starts at 0.0: skipped when q = 0, run when q = 0x7f000000.
#define DEPQ if (__float_as_int(x) < q) { X16(FA) }
__global__ void depif_1(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START DEPQ STOP out[tid] = x; }
__global__ void depif_2(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START DEPQ DEPQ STOP out[tid] = x; }
__global__ void depif_4(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START DEPQ DEPQ DEPQ DEPQ STOP out[tid] = x; }
__global__ void depif_8(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; START DEPQ DEPQ DEPQ DEPQ DEPQ DEPQ DEPQ DEPQ STOP out[tid] = x; }
// A rolled loop inside an if (one BSSY region, like the unrolled loops' remainder loop): lanes
// with q = 0 skip it and wait at the BSYNC while the others leave the loop at their own trips.
__global__ void parked_loop(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
  if (q != 0) {
#pragma unroll 1
    for (int i = 0; i < p; i++) x += 1.3333f;
  }
  STOP out[tid] = x; }
// Its timeline: each lane's clock as it leaves the loop (1), then after the if (5).
__global__ void tl_parked(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; long long T[8] = {0};
  SETTLE CLK(0)
  if (q != 0) {
#pragma unroll 1
    for (int i = 0; ; i++) { x += 1.3333f; if (i + 1 >= p) { CLK(1) break; } }
  }
  CLK(5) out[tid] = x; TIMELINE_END }
// Held out, measured after the model's rule for parked lanes (docs/timing.md) to test it: a
// rolled loop that some lanes skip (p = 0), 16 ("join", "early") or 8 ("join_few",
// "early_few"), while x lanes leave it after more trips than the rest ("join*") or fewer
// ("early*"). The rule adds a switch and a BSYNC where lanes parked at the BSYNC (the lanes
// that skip, when they are not fewer than those that loop, or the many that leave the loop
// before the few) join a group that blocks there: "join*" at x >= 2, "early" at every x,
// "early_few" never.
__global__ void join_loop(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
#pragma unroll 1
  for (int i = 0; i < p; i++) x = x * 0.999f + 0.5f;
  STOP out[tid] = x; }
// A loop with nvcc's default unrolling (a x16 loop, a x8 block, a x4 loop, a remainder loop,
// each in its own BSSY region), p uniform trips or Table I's lanes: the shape of the report's
// single_loop with an FFMA body. Held out.
__global__ void unr_ffma(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START for (int i = 0; i < p; i++) x = x * 0.999f + 0.5f; STOP out[tid] = x; }
// The same inside a rolled loop of 4 trips (the report's double_loop shape). Held out.
__global__ void unr_ffma_outer(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
#pragma unroll 1
  for (int j = 0; j < 4; j++) { for (int i = 0; i < p; i++) x = x * 0.999f + 0.5f; x += 0.25f; }
  STOP out[tid] = x; }
// Timeline of five dependent ifs: the clock after each (points 1 to 4, then 5).
__global__ void tl_depif(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; long long T[8] = {0};
  SETTLE CLK(0) DEPQ CLK(1) DEPQ CLK(2) DEPQ CLK(3) DEPQ CLK(4) DEPQ CLK(5)
  out[tid] = x; TIMELINE_END }
// Timeline of the three-way branch: 0 before, 1/2 side A, 3/4 side B, 6/7 side C, 5 after.
__global__ void tl_threeway(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; long long T[8] = {0};
  SETTLE CLK(0)
  if (tid < p) { CLK(1) X16(FA) CLK(2) } else if (tid < q) { CLK(3) X32(FB) CLK(4) } else { CLK(6) X8(FA) X8(FB) CLK(7) }
  CLK(5) out[tid] = x; TIMELINE_END }

// ---------------------------------------------------------------- held-out kernels
// Not used by the fit; predicted from their SASS and compared.
// Three-way branch on the lane, sides of different lengths.
__global__ void hold_threeway(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
  if (tid < p) { X16(FA) } else if (tid < q) { X32(FB) } else { X8(FA) X8(FB) }
  STOP out[tid] = x; }
// A rolled loop with a divergent if inside (lanes below q take it).
__global__ void hold_loop_if(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
#pragma unroll 1
  for (int i = 0; i < p; i++) { if (tid < q) { X8(FA) } x += 0.5f; }
  STOP out[tid] = x; }
// Nested rolled loops with a break on a lane-dependent condition.
__global__ void hold_nested_break(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
#pragma unroll 1
  for (int i = 0; i < p; i++) {
#pragma unroll 1
    for (int j = 0; j < 8; j++) { if (j * 4 + i > q) break; x += 1.25f; }
    x *= 0.75f;
  }
  STOP out[tid] = x; }
// Integer and float mix in a loop with nvcc's default unrolling.
__global__ void hold_mixed_unrolled(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o; int a = q;
  START
  for (int i = 0; i < p; i++) { x = x * 1.0001f + (float)a; a = (a * 3) ^ i; }
  STOP out[tid] = x + a; }

// A divergent loop whose lanes leave after their own trip counts, with 4 FADDs a trip.
__global__ void hold_loop4(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
#pragma unroll 1
  for (int i = 0; i < p; i++) { x = x * 1.01f + 0.5f; x = x * 0.99f + 0.25f; }
  STOP out[tid] = x; }
// A switch on lane % 4.
__global__ void hold_switch4(const int* in, float* out, long long* timer, int* mem) {
  PROLOGUE float x = o;
  START
  switch (tid % p) { case 0: X16(FA) break; case 1: X8(FB) break; case 2: X16(FB) X8(FA) break; default: X4(FA) }
  STOP out[tid] = x; }

// ---------------------------------------------------------------- host
struct Case { const char* name; kern_t f; const char* pattern; int x; };

static const int REPS = 64, WARM = 4;

// Lane inputs for a pattern: in[t] = p, in[32 + t] = q.
static void inputs(const char* pat, int x, int launch, int* in) {
  for (int t = 0; t < 32; t++) {
    int p = 0, q = 0;
    if (!strcmp(pat, "fixed")) { p = 0x3f800000 + 7; q = 0x3f7ff972; }          // y ~ 1.0, z ~ 1.0
    else if (!strcmp(pat, "int")) { p = 3 + t; q = 7 * t + 1; }
    else if (!strcmp(pat, "chase")) { p = 0; q = 0; }
    else if (!strcmp(pat, "cold")) { p = 0; q = (1 << 22) + launch * (1 << 18); }
    else if (!strcmp(pat, "uniform")) { p = x; q = x; }
    else if (!strcmp(pat, "lanes_lt_k")) { p = x; q = 0; }
    else if (!strcmp(pat, "table1")) { p = (t < 32 - x) ? 32 : 32 - (t - (31 - x)); q = 0; }
    else if (!strcmp(pat, "groups")) { p = t == 0 ? 32 : 32 - (t % (x + 1 > 1 ? x + 1 : 1)); if (x == 0) p = 32; q = 0; }
    else if (!strcmp(pat, "three")) { p = x; q = x + 8; }
    else if (!strcmp(pat, "loop_if")) { p = 16; q = x; }
    else if (!strcmp(pat, "break")) { p = 8; q = x + (t & 7); }
    else if (!strcmp(pat, "mixed")) { p = x; q = t; }
    else if (!strcmp(pat, "q")) { p = 0; q = x; }
    else if (!strcmp(pat, "parked")) { p = 4 + (t > 31 - x ? t - (31 - x) : 0); q = t >= 16; }
    else if (!strcmp(pat, "unparked")) { p = 4 + (t > 31 - x ? t - (31 - x) : 0); q = 1; }
    else if (!strcmp(pat, "join")) { p = t < 16 ? 0 : 4 + (t > 31 - x ? t - (31 - x) : 0); }
    else if (!strcmp(pat, "join_few")) { p = t < 8 ? 0 : 4 + (t > 31 - x ? t - (31 - x) : 0); }
    else if (!strcmp(pat, "early")) { p = t < 16 ? 0 : 8 - (t > 31 - x ? t - (31 - x) : 0); }
    else if (!strcmp(pat, "early_few")) { p = t < 8 ? 0 : 8 - (t > 31 - x ? t - (31 - x) : 0); }
    in[t] = p; in[32 + t] = q;
  }
}


int main() {
  std::vector<Case> cases;
  auto add = [&](const char* n, kern_t f, const char* pat, int x) { cases.push_back({n, f, pat, x}); };
#define PAIR(base, a, b, pat) add(#base "_" #a, base##_##a, pat, a); add(#base "_" #b, base##_##b, pat, b);
  PAIR(fadd, 32, 64, "fixed") PAIR(fmul, 32, 64, "fixed") PAIR(ffma, 32, 64, "fixed") PAIR(mufu, 32, 64, "fixed")
  PAIR(iadd, 32, 64, "int") PAIR(imad, 32, 64, "int") PAIR(lop3, 16, 32, "int") PAIR(shf, 32, 64, "int")
  PAIR(popc, 32, 64, "int") PAIR(i2f, 16, 32, "int") PAIR(setp, 16, 32, "int")
  PAIR(dadd, 32, 64, "int") PAIR(dfma, 32, 64, "int")
  PAIR(fadd_ind, 4, 8, "fixed") PAIR(mufu_ind, 4, 8, "fixed") PAIR(iadd_ind, 4, 8, "int") PAIR(imad_ind, 4, 8, "int")
  PAIR(ldg_l1, 8, 16, "chase") PAIR(ldg_nc, 8, 16, "chase") PAIR(ldg_l2, 8, 16, "chase") PAIR(ldg_dram, 8, 16, "cold") PAIR(lds, 16, 32, "chase")
  PAIR(bar, 8, 16, "fixed")
  for (int m : {0, 1, 2, 8, 16, 32, 64}) add("loop_fadd", loop_fadd, "uniform", m);
  for (int n = 0; n < 32; n++) add("loop_fadd", loop_fadd, "table1", n);
  for (int d = 0; d < 32; d++) add("loop_fadd", loop_fadd, "groups", d);
  for (int m : {0, 1, 8, 16, 32}) add("loop_fadd8", loop_fadd8, "uniform", m);
  for (int t : {0, 1}) { add("bra_uniform_8", bra_uniform_8, "uniform", t); add("bra_uniform_16", bra_uniform_16, "uniform", t); }
  for (int k : {0, 1, 8, 16, 17, 31, 32}) {
    add("ifelse_16", ifelse_16, "lanes_lt_k", k); add("ifelse_32", ifelse_32, "lanes_lt_k", k);
    add("ifonly_32", ifonly_32, "lanes_lt_k", k);
  }
  add("straight_32", straight_32, "fixed", 32);
  add("clock_only", clock_only, "fixed", 0);
  for (int k : {0, 4, 8, 16, 24, 32}) add("hold_threeway", hold_threeway, "three", k);
  for (int k : {0, 1, 16, 31, 32}) add("hold_loop_if", hold_loop_if, "loop_if", k);
  for (int k : {0, 8, 16, 24, 40}) add("hold_nested_break", hold_nested_break, "break", k);
  for (int m : {0, 5, 16, 31, 32, 37}) add("hold_mixed_unrolled", hold_mixed_unrolled, "mixed", m);
  PAIR(s2r, 16, 32, "int") PAIR(shfl, 16, 32, "int") PAIR(vote, 16, 32, "int") PAIR(dadd_ind, 4, 8, "int") PAIR(ldg_ind, 16, 32, "chase")
  for (int n : {0, 1, 8, 16, 31}) add("hold_loop4", hold_loop4, "table1", n);
  for (int k : {1, 2, 3, 4}) add("hold_switch4", hold_switch4, "uniform", k);
  for (int k : {0, 1, 16, 31, 32}) { add("tl_ifelse", tl_ifelse, "lanes_lt_k", k); add("tl_ifonly", tl_ifonly, "lanes_lt_k", k); }
  for (int n : {0, 1, 2, 31}) add("tl_loop", tl_loop, "table1", n);
  for (int q : {0, 2000}) { add("seqif_1", seqif_1, "q", q); add("seqif_2", seqif_2, "q", q); add("seqif_4", seqif_4, "q", q); add("seqif_8", seqif_8, "q", q); }
  for (int q : {0, 0x7f000000}) {
    add("depif_1", depif_1, "q", q); add("depif_2", depif_2, "q", q); add("depif_4", depif_4, "q", q); add("depif_8", depif_8, "q", q);
    add("tl_depif", tl_depif, "q", q);
  }
  for (int k : {0, 1, 2, 4, 8}) {
    add("parked_loop", parked_loop, "parked", k); add("parked_loop", parked_loop, "unparked", k);
    add("tl_parked", tl_parked, "parked", k);
  }
  for (const char* pat : {"join", "join_few", "early", "early_few"})
    for (int k : {1, 2, 3, 6}) add("join_loop", join_loop, pat, k);
  for (int m = 0; m <= 40; m++) add("unr_ffma", unr_ffma, "uniform", m);
  for (int n = 0; n < 32; n++) add("unr_ffma", unr_ffma, "table1", n);
  for (int m : {0, 1, 3, 4, 8, 12, 16, 20, 32}) add("unr_ffma_outer", unr_ffma_outer, "uniform", m);
  for (int n : {0, 1, 8, 22, 31}) add("unr_ffma_outer", unr_ffma_outer, "table1", n);
  for (int k : {0, 4, 16, 24}) add("tl_threeway", tl_threeway, "three", k);
  {
    kern_t pads[8] = {loop_pad0, loop_pad1, loop_pad2, loop_pad3, loop_pad4, loop_pad5, loop_pad6, loop_pad7};
    const char* names[8] = {"loop_pad0", "loop_pad1", "loop_pad2", "loop_pad3", "loop_pad4", "loop_pad5", "loop_pad6", "loop_pad7"};
    for (int k = 0; k < 8; k++) for (int m : {32, 64}) add(names[k], pads[k], "uniform", m);
  }

  int *d_in, *d_mem; float* d_out; long long* d_timer;
  const size_t mem_words = (size_t)1 << 28;  // 1 GiB: cold chases use a fresh quarter-MiB region per launch
  CK(cudaMalloc(&d_in, 64 * sizeof(int)));
  CK(cudaMalloc(&d_out, 64 * sizeof(float)));
  CK(cudaMalloc(&d_timer, 256 * sizeof(long long)));
  CK(cudaMalloc(&d_mem, mem_words * sizeof(int)));
  const size_t flush_bytes = (size_t)256 << 20;  // four times L2
  char* d_flush; CK(cudaMalloc(&d_flush, flush_bytes));
  // The warm chase: word i*32 -> (i+1)*32 over 4096 words (128 lines); the cold one: 64 KiB steps.
  std::vector<int> h(4096 + 64);
  for (int i = 0; i < 4096; i++) h[i] = (i % 32 == 0) ? (i + 32) % 4096 : 0;
  CK(cudaMemcpy(d_mem, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  {
    std::vector<int> cold((size_t)1 << 18);
    // Offsets are relative to m = mem + q: step k reads word k * 16384 (64 KiB) and leads on.
    for (int k = 0; k < 16; k++) cold[(size_t)k * 16384] = (k + 1) * 16384;
    for (int l = 0; l < (REPS + WARM); l++)
      for (int k = 0; k < 16; k++) {
        size_t at = ((size_t)1 << 22) + (size_t)l * (1 << 18) + (size_t)k * 16384;
        int v = (k + 1) * 16384;
        if (k == 15) v = 0;
        CK(cudaMemcpy(d_mem + at, &v, sizeof(int), cudaMemcpyHostToDevice));
      }
  }
  CK(cudaDeviceSetLimit(cudaLimitStackSize, 1024));
  printf("kernel,pattern,x,t0_min,t0_median,t0_max,reps\n");
  for (auto& c : cases) {
    std::vector<long long> t0;
    struct P3 { int l, j; long long v; };
    std::vector<P3> tls;
    CK(cudaMemset(d_timer, 0, 256 * sizeof(long long)));
    for (int r = 0; r < REPS + WARM; r++) {
      int hin[64]; inputs(c.pattern, c.x, r, hin);
      CK(cudaMemcpy(d_in, hin, sizeof hin, cudaMemcpyHostToDevice));
      CK(cudaMemset(d_out, 0, 64 * sizeof(float)));
      if (!strcmp(c.pattern, "cold")) CK(cudaMemset(d_flush, r & 0xff, flush_bytes));
      c.f<<<1, 32>>>(d_in, d_out, d_timer, d_mem);
      CK(cudaGetLastError());
      long long ht[256];
      CK(cudaMemcpy(ht, d_timer, sizeof ht, cudaMemcpyDeviceToHost));
      bool tl = !strncmp(c.name, "tl_", 3);
      if (tl) {
        // Timeline: every lane's reads, relative to lane 0's first; thread 0's window is 0 to 5.
        if (r >= WARM) {
          t0.push_back(ht[5] - ht[0]);
          for (int l = 0; l < 32; l++)
            for (int j = 0; j < 8; j++) tls.push_back({l, j, ht[8 * l + j] ? ht[8 * l + j] - ht[0] : -1});
        }
      } else if (r >= WARM) t0.push_back(ht[1] - ht[0]);
    }
    std::sort(t0.begin(), t0.end());
    long long med = t0[t0.size() / 2];
    printf("%s,%s,%d,%lld,%lld,%lld,%d\n", c.name, c.pattern, c.x, t0.front(), med, t0.back(), REPS);
    // Each timeline point's median over the launches, to stderr as `timeline,kernel,pattern,x,lane,point,cycles`.
    for (int l = 0; l < 32 && !tls.empty(); l++)
      for (int j = 0; j < 8; j++) {
        std::vector<long long> v;
        for (auto& e : tls) if (e.l == l && e.j == j && e.v >= 0) v.push_back(e.v);
        if (v.empty()) continue;
        std::sort(v.begin(), v.end());
        fprintf(stderr, "timeline,%s,%s,%d,%d,%d,%lld\n", c.name, c.pattern, c.x, l, j, v[v.size() / 2]);
      }
    fflush(stdout);
  }
  return 0;
}
