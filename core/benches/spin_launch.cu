// The same loop over 8 blocks of 256 threads: as many warp instructions as spin_one_warp.cu (benches/launch.rs).
//@ launch grid=8 block=256
//@ buffer out: i32[2048]
//@ param iters = 1875
__global__ void spin(int* out, int iters) {
    int acc = 0;
    for (int k = 0; k < iters; k++) acc += k ^ threadIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
