// Origin: Sanders and Kandrot, "CUDA by Example" (2010), chapter 9, hist_gpu_shmem_atomics.cu: 256 bins per block in shared memory, a grid-stride loop over bytes, then one global atomic per bin; 8192 bytes over 4 blocks of 256 threads.
//@ title Histogram with shared bins (CUDA by Example): atomics across warps and blocks
//@ about Every warp of a block adds into the block's shared bins with atomicAdd, a barrier, then
//@ about each thread adds one bin into the global histogram, again with atomicAdd.
//@ launch grid=4 block=256
//@ buffer buffer: u8[8192] = (i * 37 + i / 256) % 256
//@ buffer histo: u32[256]
//@ param size = 8192
__global__ void histo_kernel(const unsigned char* buffer, long size, unsigned int* histo) {
    __shared__ unsigned int temp[256];
    temp[threadIdx.x] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd(&temp[buffer[i]], 1);
        i += offset;
    }
    __syncthreads();
    atomicAdd(&histo[threadIdx.x], temp[threadIdx.x]);
}
