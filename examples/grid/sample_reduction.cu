// Origin: written for warpscope after NVIDIA's cuda-samples, Samples/2_Concepts_and_Techniques/reduction (BSD-3-Clause; its reduce4, not its text): two elements added on load, sequential addressing in shared memory with cooperative groups' block sync, the last warp by a tile's shfl_down; the sample's -n=16384 with 256 threads, 32 blocks; its SharedMemory<T> struct template, with the specialisation for double, gives the dynamic shared memory.
//@ title CUDA samples' reduction #4: a block sum, its last warp by shuffles
//@ about Each block sums 512 elements: shared memory halves the active threads each step (a
//@ about barrier between steps), then the first warp finishes with a tile's shfl_down, no
//@ about barrier needed inside a warp.
//@ launch grid=32 block=256 shared=1024
//@ buffer g_idata: i32[16384] = i % 7 - 3
//@ buffer g_odata: i32[32]
//@ param n = 16384
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The dynamic shared memory as an array of T: one extern array cannot be declared with two
// types, so a struct template's conversion operator casts one.
template <class T>
struct SharedMemory {
    __device__ inline operator T*() {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
    __device__ inline operator const T*() const {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
};

// Doubles get their own array, aligned for them.
template <>
struct SharedMemory<double> {
    __device__ inline operator double*() {
        extern __shared__ double __smem_d[];
        return (double*)__smem_d;
    }
    __device__ inline operator const double*() const {
        extern __shared__ double __smem_d[];
        return (double*)__smem_d;
    }
};

template <class T, unsigned int blockSize>
__global__ void reduce4(const T* g_idata, T* g_odata, unsigned int n) {
    cg::thread_block cta = cg::this_thread_block();
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    cg::sync(cta);
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
        cg::sync(cta);
    }
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    if (cta.thread_rank() < 32) {
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = tile32.size() / 2; offset > 0; offset /= 2) mySum += tile32.shfl_down(mySum, offset);
    }
    if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}

template __global__ void reduce4<int, 256>(const int*, int*, unsigned int);
