// After Rodinia's bfs (Harish & Narayanan, "Accelerating large graph algorithms on the GPU using CUDA"): two kernels per level over a CSR graph with frontier masks, the host looping until no vertex changes.
#include <stdio.h>
#include <stdlib.h>

__global__ void bfsKernel(const int *rowStart, const int *edges, int *mask, int *updating,
                          const int *visited, int *cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = 0;
        for (int e = rowStart[tid]; e < rowStart[tid + 1]; e++) {
            int id = edges[e];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = 1;
            }
        }
    }
}

__global__ void bfsKernel2(int *mask, int *updating, int *visited, int *over, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = 1;
        visited[tid] = 1;
        *over = 1;
        updating[tid] = 0;
    }
}

static unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int main()
{
    const int n = 2000;
    int *rowStart = (int *)malloc((n + 1) * sizeof(int));
    // Degrees 1 to 6, so the neighbour loop's trip count differs per thread.
    int m = 0;
    for (int v = 0; v < n; v++) {
        rowStart[v] = m;
        m += 1 + hash32(v) % 6;
    }
    rowStart[n] = m;
    int *edges = (int *)malloc(m * sizeof(int));
    for (int e = 0; e < m; e++)
        edges[e] = hash32(e + 7777) % n;
    int *mask = (int *)calloc(n, sizeof(int));
    int *visited = (int *)calloc(n, sizeof(int));
    int *cost = (int *)malloc(n * sizeof(int));
    for (int v = 0; v < n; v++)
        cost[v] = -1;
    mask[0] = 1;
    visited[0] = 1;
    cost[0] = 0;

    int *d_rowStart, *d_edges, *d_mask, *d_updating, *d_visited, *d_cost, *d_over;
    cudaMalloc(&d_rowStart, (n + 1) * sizeof(int));
    cudaMalloc(&d_edges, m * sizeof(int));
    cudaMalloc(&d_mask, n * sizeof(int));
    cudaMalloc(&d_updating, n * sizeof(int));
    cudaMalloc(&d_visited, n * sizeof(int));
    cudaMalloc(&d_cost, n * sizeof(int));
    cudaMalloc(&d_over, sizeof(int));
    cudaMemcpy(d_rowStart, rowStart, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_edges, edges, m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_mask, mask, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_updating, 0, n * sizeof(int));
    cudaMemcpy(d_visited, visited, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_cost, cost, n * sizeof(int), cudaMemcpyHostToDevice);

    const int block = 128;
    const int grid = (n + block - 1) / block;
    int levels = 0;
    int over;
    do {
        over = 0;
        cudaMemcpy(d_over, &over, sizeof(int), cudaMemcpyHostToDevice);
        bfsKernel<<<grid, block>>>(d_rowStart, d_edges, d_mask, d_updating, d_visited, d_cost, n);
        bfsKernel2<<<grid, block>>>(d_mask, d_updating, d_visited, d_over, n);
        cudaMemcpy(&over, d_over, sizeof(int), cudaMemcpyDeviceToHost);
        levels++;
    } while (over);

    cudaMemcpy(cost, d_cost, n * sizeof(int), cudaMemcpyDeviceToHost);
    int reached = 0, deepest = 0;
    long long costSum = 0;
    for (int v = 0; v < n; v++) {
        if (cost[v] >= 0) {
            reached++;
            costSum += cost[v];
        }
        if (cost[v] > deepest)
            deepest = cost[v];
    }
    printf("%d vertices, %d edges, %d levels (%d launches), %d reached, deepest %d, cost sum %lld\n",
           n, m, levels, 2 * levels, reached, deepest, costSum);
    cudaFree(d_rowStart);
    cudaFree(d_edges);
    cudaFree(d_mask);
    cudaFree(d_updating);
    cudaFree(d_visited);
    cudaFree(d_cost);
    cudaFree(d_over);
    free(rowStart);
    free(edges);
    free(mask);
    free(visited);
    free(cost);
    return 0;
}
