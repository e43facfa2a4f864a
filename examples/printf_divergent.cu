//@ title printf from both sides of a branch
//@ about Each lane sums 0.5 * i for i up to its index and prints the sum: even lanes from the if side,
//@ about odd lanes from the else side. The Output panel lists the lines up to the current step, each
//@ about with its lane and the step that printed it (click one to go there). The side the model runs
//@ about first prints first, each side's lanes in lane order, so the order of the lines changes with
//@ about the model and its path order, as it does on a GPU.
//@ warp 8
//@ buffer out: i32[8]
__global__ void printf_divergent(int* out) {
    int t = threadIdx.x;
    float sum = 0.0f;
    for (int i = 0; i <= t; i++) {
        sum += i * 0.5f;
    }
    if (t % 2 == 0) {
        printf("thread %d: sum = %f\n", t, sum);
    } else {
        printf("thread %d (odd): sum = %.2f\n", t, sum);
    }
    out[t] = t;
}
