//@ title Single loop in C (Bialas & Strzelecki, Listing 1)
//@ about The paper's single-loop kernel, compiled here. Lane t loops M(t) times (Table I): with
//@ about n = 2, lanes 30 and 31 stop early. The compiler puts SSY before the loop's guard, at the
//@ about immediate post-dominator of both loop branches, so each iteration in which lanes leave
//@ about pushes a DIV token and the pop at the loop's exit pops them all: n + 1 pushes (Figure 3).
//@ warp 32
//@ param n = 2
//@ buffer limits: i32[32] = i < 32 - n ? 32 : 32 - (i - (31 - n))
//@ buffer out: f32[32]
//@ model kepler
//@ preset kepler
__global__ void single_loop(int* limits, float* out) {
    int t = threadIdx.x;
    int M = limits[t];
    float sum = 0.0f;
    for (int i = 0; i < M; i++) {
        sum += 1.3333f;
    }
    out[t] = sum;
}
