//@ title Spin lock with atomicCAS in C (SIMT deadlock)
//@ about Every lane tries to take the lock. Lane 0's atomicCAS wins; the other 31 lanes loop. On a
//@ about token stack the warp runs the looping lanes first and keeps lane 0 waiting in a DIV token
//@ about until they leave the loop, which they never do. The warp's state soon repeats, so the run
//@ about stops with a deadlock naming the looping lanes and lane 0's entry (pdom and TF too). Under
//@ about volta the loop yields (as nvcc's sm_90 code does): lane 0, blocked at BSYNC B0 after the
//@ about loop, is released while the others yield, takes the counter, releases the lock and exits.
//@ warp 32
//@ buffer lock: i32[1]
//@ buffer counter: i32[1]
//@ model kepler
__global__ void spin_lock(int* lock, int* counter) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    counter[0] = counter[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
}
