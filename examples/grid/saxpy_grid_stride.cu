// Origin: Mark Harris, "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops" (NVIDIA developer blog, 2013), saxpy; n = 1000 over 2 blocks of 128 threads, so each thread takes about four elements.
//@ title SAXPY with a grid-stride loop: fewer threads than elements
//@ about The launch has 256 threads for 1000 elements: each thread strides by the grid's size,
//@ about and the last warp's lanes leave the loop one round early.
//@ launch grid=2 block=128
//@ buffer x: f32[1000] = i % 13
//@ buffer y: f32[1000] = i % 5 - 2
//@ param n = 1000
//@ param a = 2.0
__global__ void saxpy(int n, float a, const float* x, float* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
