// A vector add over 2^20 threads (4096 blocks of 256), the whole launch (benches/launch.rs).
//@ launch grid=4096 block=256
//@ buffer A: f32[1048576] = i % 100
//@ buffer B: f32[1048576] = i % 7
//@ buffer C: f32[1048576]
//@ param n = 1048576
__global__ void vecAdd(const float* A, const float* B, float* C, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) C[i] = A[i] + B[i];
}
