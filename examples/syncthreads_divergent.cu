//@ title __syncthreads() inside divergent code in C (barrier deadlock)
//@ about Only lanes 0-15 reach the barrier; lanes 16-31 wait on the reconvergence stack for the
//@ about other side to finish, so they can never arrive. A token stack cannot run the two sides
//@ about at once: the run stops with a deadlock at BAR.SYNC. Thread frontiers deadlock too (the
//@ about barrier really is inside one side). Under pdom, mimd and volta (whose if gets no BSYNC:
//@ about its join only exits, as nvcc writes it) the else side exits; exited lanes count as arrived.
//@ warp 32
//@ buffer out: i32[32]
//@ model kepler
__global__ void sync_in_branch(int* out) {
    int t = threadIdx.x;
    if (t < 16) {
        out[t] = t;
        __syncthreads();
        out[t] = out[t] + out[(t + 1) & 15];
    } else {
        out[t] = -t;
    }
}
