// Single-precision math functions from the CUDA math library.
// A small feature transform: centre the value, clamp it, take the magnitude's
// square root, bin it with floorf, and weight it with a Gaussian. The integer
// distance uses abs.
__global__ void transform(const float* x, float* clamped, float* root, float* bin, float* weight, int* dist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i] - 15.5f;

    clamped[i] = fminf(fmaxf(v, -8.0f), 8.0f);
    root[i] = sqrtf(fabsf(v));
    bin[i] = floorf(x[i] / 4.0f);
    weight[i] = expf(-(v * v) / 32.0f);
    dist[i] = abs(i - 16);
}
