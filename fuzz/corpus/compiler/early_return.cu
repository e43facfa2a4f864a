//@ title Early return in C
//@ about Lanes whose input is zero return at once: EXIT takes them out of the warp and out of every
//@ about token, so the rest of the kernel runs with fewer lanes and they never come back.
//@ warp 32
//@ param n = 4
//@ buffer a: i32[32] = i % 3
//@ buffer out: i32[32]
//@ model kepler
__global__ void early_return(int* a, int* out, int n) {
    int t = threadIdx.x;
    if (a[t] == 0) {
        return;
    }
    int s = 0;
    for (int i = 0; i < n; i++) {
        s = s + a[t] * i;
    }
    out[t] = s;
}
