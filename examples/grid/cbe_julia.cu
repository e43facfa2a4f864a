// Origin: written for warpscope after CUDA by Example's julia_gpu.cu (J. Sanders and E. Kandrot, NVIDIA, 2010, its licence's terms; its kernel, not its text): a Julia set with the book's cuComplex struct (a constructor, magnitude2, operator* and operator+), a block of one thread per pixel as the book launches it; a 24 x 24 image instead of 1000 x 1000.
//@ title CUDA by Example's Julia set: a struct with a constructor and operators
//@ about The book's first GPU image: a block of one thread per pixel, so no warp ever diverges (each
//@ about holds one lane), and every pixel iterates z = z * z + c with cuComplex's own operators
//@ about until it escapes or 200 trips pass. The struct's member functions are functions of their
//@ about own here: see CAL cuComplex::operator* in the code.
//@ launch grid=(24, 24) block=1
//@ buffer ptr: u8[2304]
#define DIM 24

struct cuComplex {
    float r;
    float i;
    __device__ cuComplex(float a, float b) : r(a), i(b) {}
    __device__ float magnitude2(void) { return r * r + i * i; }
    __device__ cuComplex operator*(const cuComplex& a) {
        return cuComplex(r * a.r - i * a.i, i * a.r + r * a.i);
    }
    __device__ cuComplex operator+(const cuComplex& a) { return cuComplex(r + a.r, i + a.i); }
};

__device__ int julia(int x, int y) {
    const float scale = 1.5;
    float jx = scale * (float)(DIM / 2 - x) / (DIM / 2);
    float jy = scale * (float)(DIM / 2 - y) / (DIM / 2);

    cuComplex c(-0.8, 0.156);
    cuComplex a(jx, jy);

    int i = 0;
    for (i = 0; i < 200; i++) {
        a = a * a + c;
        if (a.magnitude2() > 1000)
            return 0;
    }
    return 1;
}

__global__ void kernel(unsigned char* ptr) {
    // A block per pixel: blockIdx is the pixel.
    int x = blockIdx.x;
    int y = blockIdx.y;
    int offset = x + y * gridDim.x;

    int juliaValue = julia(x, y);
    ptr[offset * 4 + 0] = 255 * juliaValue;
    ptr[offset * 4 + 1] = 0;
    ptr[offset * 4 + 2] = 0;
    ptr[offset * 4 + 3] = 255;
}
