// Origin: warpscope's own lesson, the escape-time Mandelbrot kernel as CUDA courses write it (a thread per pixel, iterate z = z^2 + c until |z| > 2); a 32 x 32 image in a 2 x 2 grid of 16 x 16 blocks.
//@ title Mandelbrot: every pixel its own loop count, and nvcc's fused multiply-adds
//@ about Each thread iterates its pixel until it escapes or reaches max_iter: neighbours in a warp
//@ about leave the loop at different trips, so the warp runs as long as its slowest lane. The
//@ about counts are the H100's only because the compile fuses a*b + c into one FFMA, rounded
//@ about once, as nvcc does by default (`//@ fmad off` is nvcc's --fmad=false: some pixels then
//@ about iterate a different number of times).
//@ note step 1: Block (0, 1), warp 0: pixels just above the real axis, x from -2 to -0.5, some inside the set (256 trips) and some escaping after a few. Watch its lanes: each leaves the loop when its pixel escapes, and the warp keeps issuing until its last lane is done.
//@ launch grid=(2, 2) block=(16, 16) block_idx=(0, 1)
//@ buffer iters: i32[1024]
//@ param width = 32
//@ param max_iter = 256
//@ param x_min = -2.0
//@ param y_min = -1.5
//@ param step = 0.1
__global__ void mandelbrot(int* iters, int width, int max_iter, float x_min, float y_min, float step) {
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    float cx = x_min + px * step;
    float cy = y_min + py * step;
    float x = 0.0f;
    float y = 0.0f;
    int i = 0;
    while (i < max_iter && x * x + y * y <= 4.0f) {
        float xt = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = xt;
        i++;
    }
    iters[py * width + px] = i;
}
