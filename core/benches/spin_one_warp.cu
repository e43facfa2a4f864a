// A loop of iters rounds per thread, one warp alone (benches/launch.rs).
//@ launch grid=1 block=32
//@ buffer out: i32[32]
//@ param iters = 120000
__global__ void spin(int* out, int iters) {
    int acc = 0;
    for (int k = 0; k < iters; k++) acc += k ^ threadIdx.x;
    out[threadIdx.x] = acc;
}
