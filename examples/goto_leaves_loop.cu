//@ title goto out of nested loops in C (unstructured flow)
//@ about A goto that leaves two loops at once. The branches of both loops and the goto all have
//@ about their immediate post-dominator at `done`, so the kepler code has one SSY for the whole
//@ about tangle and lanes only reconverge at the end: unstructured flow costs reconvergence, as
//@ about the thread-frontier paper shows. STRUCT (model struct) cuts both loops, which the goto leaves by a second edge: a guard register and one latch each (cut1.test, cut2.test), a dispatch after them, 225 warp instructions against pdom's 165.
//@ warp 32
//@ param n = 4
//@ buffer a: i32[512] = (i * 7 + 3) % 11 - 1
//@ buffer out: i32[32]
//@ model kepler
__global__ void goto_out(int* a, int* out, int n) {
    int t = threadIdx.x;
    int s = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            int v = a[(i * n + j) * 32 + t];
            if (v == 0) {
                goto done;
            }
            s = s + v;
        }
        s = s ^ i;
    }
done:
    out[t] = s;
}
