//@ title Divergent call in C
//@ about Lanes with a positive input call a device function that is not inlined: CAL pushes a CALL
//@ about token, the callee runs with only those lanes (its loop diverges again), and RET parks each
//@ about lane until all have returned; then the CALL token brings them back after the call.
//@ warp 32
//@ param n = 3
//@ buffer a: i32[32] = i % 4 - 1
//@ buffer out: i32[32]
//@ model kepler
__device__ int poly(int x, int n) {
    int s = 0;
    for (int i = 0; i < n + x; i++) {
        s = s * x + i;
    }
    return s;
}

__global__ void divergent_call(int* a, int* out, int n) {
    int t = threadIdx.x;
    int s = a[t];
    if (s > 0) {
        s = poly(s, n);
    }
    out[t] = s;
}
