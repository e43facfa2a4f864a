// Origin: written for warpscope after Rodinia's bfs (University of Virginia, BSD-style licence; its Kernel, not its text): one level of breadth-first search, a thread per node of the frontier (a bool mask), its edges walked from a struct Node's start and count; 1,000 nodes in blocks of 512 as its host program launches them, a ring with chords.
//@ title Rodinia's BFS, one level: each frontier node walks its own edges
//@ about Threads whose node is not on the frontier skip the loop; those that are walk as many
//@ about edges as their node has, so lanes leave the loop at different trips.
//@ launch grid=2 block=512
//@ buffer g_graph_nodes: i32[2000] = i % 2 == 0 ? (i / 2) * 3 : 1 + (i / 2) % 3
//@ buffer g_graph_edges: i32[3000] = ((i / 3) + 1 + (i % 3) * 97) % 1000
//@ buffer g_graph_mask: u8[1000] = i % 9 == 0
//@ buffer g_updating_graph_mask: u8[1000]
//@ buffer g_graph_visited: u8[1000] = i % 9 == 0 || i % 4 == 1
//@ buffer g_cost: i32[1000] = i % 9 == 0 ? 2 : -1
//@ param no_of_nodes = 1000
#define MAX_THREADS_PER_BLOCK 512

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(Node* g_graph_nodes, int* g_graph_edges, bool* g_graph_mask, bool* g_updating_graph_mask,
                       bool* g_graph_visited, int* g_cost, int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}
