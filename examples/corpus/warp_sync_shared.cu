// Exchanging values through shared memory inside one warp, with __syncwarp.
// Each lane writes its value, then reads its neighbour's. Without the __syncwarp
// between the write and the read, a lane running ahead could read a slot its
// neighbour has not written yet: since Volta, lanes of a warp are not guaranteed
// to run in lockstep.
__global__ void rotate_left(const int* in, int* out) {
    __shared__ int buf[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;

    buf[lane] = in[i] * in[i];
    __syncwarp();
    out[i] = buf[(lane + 1) % 32];
}
