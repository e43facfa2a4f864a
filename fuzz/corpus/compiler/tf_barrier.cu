//@ title Thread frontiers, Figure 2: a barrier before the post-dominator
//@ about Even lanes may "throw" (goto done, skipping the barrier); the exception never happens, so
//@ about every lane reaches __syncthreads(). But the goto puts the immediate post-dominator of the
//@ about first branch at `done`, after the barrier: PDOM and the token stack run the even lanes to
//@ about the barrier alone while the odd lanes wait on the stack, and the warp deadlocks (Figure 2a).
//@ about Thread frontiers run the odd side next and meet at the barrier (Figure 2b); Volta's
//@ about per-thread scheduling also gets there. Compare pdom with tf-stack.
//@ warp 8
//@ buffer data: i32[8] = i + 1
//@ buffer out: i32[8]
//@ model pdom
//@ ifconvert off
__global__ void barrier_exception(int* data, int* out) {
    int t = threadIdx.x;
    int v = data[t];
    if (t % 2 == 0) {
        if (v < 0) goto done;   // the exception: never thrown
        v = v * 10;
    } else {
        v = v + 100;
    }
    __syncthreads();
    out[t] = v;
done:
    out[t] = out[t] + 1;
}
