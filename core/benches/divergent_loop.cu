//@ title Divergent loop (the per-model benchmark)
//@ about Each lane runs its own trip count (10,000 + 70 x lane + n), and inside the loop a branch
//@ about on (i + lane) mod 3 splits the warp every iteration: divergence on every trip, lanes
//@ about leaving one by one at the end. About 290,000 warp instructions per run under kepler.
//@ warp 32
//@ param n = 0
//@ buffer trips: i32[32] = 10000 + 70 * i + n
//@ buffer out: f32[32]
__global__ void divergent_loop(int* trips, float* out) {
    int t = threadIdx.x;
    float sum = 0.0f;
    int limit = trips[t];
    for (int i = 0; i < limit; i++) {
        if ((i + t) % 3 == 0) {
            sum += 1.5f;
        } else {
            sum = sum * 0.999f + 0.25f;
        }
    }
    out[t] = sum;
}
