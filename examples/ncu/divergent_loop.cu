// Written for warpscope: a loop whose trip count differs per thread (from a table, then the Collatz steps of each thread's number), the pattern that keeps a warp's finished lanes waiting.
#include <stdio.h>
#include <stdlib.h>

// Each thread runs trips[i] rounds of a small recurrence.
__global__ void tableTrips(const int *trips, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = i;
    for (int k = 0; k < trips[i]; k++)
        x = (x * 5 + k) % 1009;
    out[i] = x;
}

// Each thread counts the Collatz steps of start + i: a data-dependent while loop with a
// branch inside.
__global__ void collatzSteps(int start, int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int x = start + i;
    int s = 0;
    while (x != 1) {
        if (x & 1)
            x = 3 * x + 1;
        else
            x = x / 2;
        s++;
    }
    steps[i] = s;
}

int main()
{
    const int n = 1000;
    const int start = 27;
    int *h_trips = (int *)malloc(n * sizeof(int));
    int *h_out = (int *)malloc(n * sizeof(int));
    int *h_steps = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h_trips[i] = (i * 7 + 3) % 37;
    int *d_trips, *d_out, *d_steps;
    cudaMalloc(&d_trips, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_steps, n * sizeof(int));
    cudaMemcpy(d_trips, h_trips, n * sizeof(int), cudaMemcpyHostToDevice);
    tableTrips<<<(n + 127) / 128, 128>>>(d_trips, d_out, n);
    collatzSteps<<<(n + 127) / 128, 128>>>(start, d_steps, n);
    cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_steps, d_steps, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    int longest = 0;
    for (int i = 0; i < n; i++) {
        int x = i;
        for (int k = 0; k < h_trips[i]; k++)
            x = (x * 5 + k) % 1009;
        if (h_out[i] != x)
            wrong++;
        unsigned int c = start + i;
        int s = 0;
        while (c != 1) {
            c = (c & 1) ? 3 * c + 1 : c / 2;
            s++;
        }
        if (h_steps[i] != s)
            wrong++;
        if (s > longest)
            longest = s;
    }
    printf("out[%d] = %d, steps[0] = %d, longest %d, %d wrong: %s\n", n - 1, h_out[n - 1], h_steps[0], longest, wrong, wrong == 0 ? "PASSED" : "FAILED");
    cudaFree(d_trips);
    cudaFree(d_out);
    cudaFree(d_steps);
    free(h_trips);
    free(h_out);
    free(h_steps);
    return 0;
}
