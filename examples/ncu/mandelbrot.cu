// Written for warpscope, after the Mandelbrot kernels of course material (e.g. the CUDA by Example Julia set, ch. 4): one thread per pixel of a small image, an escape loop whose length differs per pixel.
#include <stdio.h>
#include <stdlib.h>

#define MAX_ITER 64

__global__ void mandelbrot(int *iters, int w, int h, float x0, float y0, float step)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h)
        return;
    float cr = x0 + px * step;
    float ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < MAX_ITER && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        k++;
    }
    iters[py * w + px] = k;
}

int main()
{
    const int w = 80, h = 48;
    int *h_iters = (int *)malloc(w * h * sizeof(int));
    int *d_iters;
    cudaMalloc(&d_iters, w * h * sizeof(int));
    dim3 block(16, 8);
    dim3 grid((w + 15) / 16, (h + 7) / 8);
    mandelbrot<<<grid, block>>>(d_iters, w, h, -2.0f, -1.2f, 0.05f);
    cudaMemcpy(h_iters, d_iters, w * h * sizeof(int), cudaMemcpyDeviceToHost);
    int inside = 0;
    long long total = 0;
    for (int i = 0; i < w * h; i++) {
        if (h_iters[i] == MAX_ITER)
            inside++;
        total += h_iters[i];
    }
    // A coarse picture: one character for 2x4 pixels.
    char line[w / 2 + 1];
    for (int y = 0; y < h; y += 4) {
        for (int x = 0; x < w; x += 2)
            line[x / 2] = h_iters[y * w + x] == MAX_ITER ? '#' : (h_iters[y * w + x] > 8 ? '+' : '.');
        line[w / 2] = 0;
        printf("%s\n", line);
    }
    printf("%dx%d pixels, %d inside, %lld iterations in all\n", w, h, inside, total);
    cudaFree(d_iters);
    free(h_iters);
    return 0;
}
