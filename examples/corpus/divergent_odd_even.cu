// Branch divergence: odd and even threads take different paths.
// In the first kernel the two sides of the branch split every warp in half and run
// one after the other. The second does the same work but branches on the warp
// index, so all threads of a warp agree and no warp diverges (it needs blocks of
// at least two warps to do both halves).
__global__ void divergent_branch(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 2) {
        out[i] = 3 * in[i] + 1;
    } else {
        out[i] = in[i] / 2;
    }
}

__global__ void warp_aligned_branch(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x / warpSize) % 2) {
        out[i] = 3 * in[i] + 1;
    } else {
        out[i] = in[i] / 2;
    }
}
