// Origin: written for warpscope after NVIDIA's cuda-samples, Samples/0_Introduction/vectorAdd (BSD-3-Clause; its kernel and launch, not its text): 50,000 elements in blocks of 256, so the last of 196 blocks has 80 threads with work; the sample's random inputs are fixed patterns here.
//@ title CUDA samples' vectorAdd: 196 blocks, the last one mostly idle
//@ about The sample's launch as its host program makes it: (50000 + 255) / 256 = 196 blocks of
//@ about 256 threads. Every warp runs the same short path except the last block's, where the
//@ about bounds check turns most lanes off.
//@ launch grid=196 block=256 block_idx=195
//@ buffer A: f32[50000] = (i % 97) * 0.25
//@ buffer B: f32[50000] = (i % 89) * 0.5
//@ buffer C: f32[50000]
//@ param numElements = 50000
__global__ void vectorAdd(const float* A, const float* B, float* C, int numElements) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) {
        C[i] = A[i] + B[i] + 0.0f;
    }
}
