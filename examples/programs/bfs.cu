// warpscope's own course program (written for warpscope, after Rodinia's bfs and Harish & Narayanan's level-synchronous BFS): a host loop of launches until no vertex changes
#include <stdio.h>
#include <stdlib.h>

#define DEGREE 3

__device__ int d_changed;

__global__ void bfsLevel(const int *edges, int *cost, int level, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || cost[v] != level)
        return;
    for (int e = 0; e < DEGREE; e++) {
        int w = edges[v * DEGREE + e];
        if (cost[w] == -1) {
            cost[w] = level + 1;
            d_changed = 1;
        }
    }
}

int main()
{
    const int n = 3000;
    int *edges = (int *)malloc(n * DEGREE * sizeof(int));
    int *cost = (int *)malloc(n * sizeof(int));
    srand(5);
    for (int v = 0; v < n; v++) {
        edges[v * DEGREE] = (v + 1) % n;
        for (int e = 1; e < DEGREE; e++)
            edges[v * DEGREE + e] = rand() % n;
        cost[v] = -1;
    }
    cost[0] = 0;

    int *d_edges, *d_cost;
    cudaMalloc(&d_edges, n * DEGREE * sizeof(int));
    cudaMalloc(&d_cost, n * sizeof(int));
    cudaMemcpy(d_edges, edges, n * DEGREE * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_cost, cost, n * sizeof(int), cudaMemcpyHostToDevice);

    int level = 0;
    int changed;
    do {
        changed = 0;
        cudaMemcpyToSymbol(d_changed, &changed, sizeof(int));
        bfsLevel<<<(n + 127) / 128, 128>>>(d_edges, d_cost, level, n);
        cudaMemcpyFromSymbol(&changed, d_changed, sizeof(int));
        level++;
    } while (changed);

    cudaMemcpy(cost, d_cost, n * sizeof(int), cudaMemcpyDeviceToHost);
    int counts[32] = {0};
    int deepest = 0;
    for (int v = 0; v < n; v++) {
        if (cost[v] >= 0 && cost[v] < 32)
            counts[cost[v]]++;
        if (cost[v] > deepest)
            deepest = cost[v];
    }
    printf("%d launches, deepest level %d\n", level, deepest);
    for (int l = 0; l <= deepest; l++)
        printf("level %2d: %d vertices\n", l, counts[l]);
    free(edges);
    free(cost);
    return 0;
}
