// Origin: the CUDA C++ Programming Guide, "Synchronization Functions": __syncthreads_count, __syncthreads_and and __syncthreads_or, each a barrier that also counts or tests a condition over every thread of the block; 4 blocks of 192 threads (6 warps).
//@ title Block-wide votes: __syncthreads_count, _and, _or
//@ about Each is a barrier (BAR.RED) that also reduces a condition over every thread of the
//@ about block; thread 0 of each block writes the three results.
//@ launch grid=4 block=192
//@ buffer values: i32[768] = (i * 7919) % 1000
//@ buffer counts: i32[12]
//@ param threshold = 900
__global__ void block_votes(const int* values, int* counts, int threshold) {
    int v = values[blockIdx.x * blockDim.x + threadIdx.x];
    int above = __syncthreads_count(v > threshold);
    int all_positive = __syncthreads_and(v > 0);
    int any_zero = __syncthreads_or(v == 0);
    if (threadIdx.x == 0) {
        counts[3 * blockIdx.x] = above;
        counts[3 * blockIdx.x + 1] = all_positive;
        counts[3 * blockIdx.x + 2] = any_zero;
    }
}
