//@ title Double loop in C (Bialas & Strzelecki, Listing 2)
//@ about The paper's nested loops with per-lane limits M = N (Table I), compiled here. The inner
//@ about loop's SSY runs once per outer iteration, so even with no divergence (n = 0) there are
//@ about 33 pushes; with n divergent lanes the pushes grow as n(65 - n)/2 + 33 (Figure 5).
//@ warp 32
//@ param n = 2
//@ buffer limits: i32[32] = i < 32 - n ? 32 : 32 - (i - (31 - n))
//@ buffer out: f32[32]
//@ model kepler
//@ preset kepler
__global__ void double_loop(int* limits, float* out) {
    int t = threadIdx.x;
    int M = limits[t];
    int N = limits[t];
    float sum = 0.0f;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            sum += 1.3333f;
        }
        sum += 2.3333f;
    }
    out[t] = sum;
}
