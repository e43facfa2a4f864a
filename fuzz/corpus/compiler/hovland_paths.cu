//@ title Hovland: cycles against the number of divergent paths (Figures 3 and 5)
//@ about A switch on a per-lane selector with 32 cases of equal work (Hovland, Branch Performance on
//@ about the Tesla Architecture, Section 5). layout 0: lanes 0 .. paths-1 each take their own case
//@ about and the rest the default (Figure 3: the number of divergent branches). layout 1: paths
//@ about groups of neighbouring lanes (by 16 for 2 paths, by 8 for 4); layout 2: the same paths
//@ about scattered, lane t takes case t % paths (Figure 5). Every path runs on its own, so the time
//@ about grows with the number of paths, not with which lanes take them.
//@ warp 32
//@ param paths = 4
//@ param layout = 0
//@ buffer sel: i32[32] = layout == 0 ? (i < paths ? i : 99) : (layout == 1 ? i * paths / 32 : i % paths)
//@ buffer out: i32[32]
//@ model kepler
//@ preset tesla
//@ ifconvert off
__global__ void hovland_paths(int* sel, int* out) {
    int t = threadIdx.x;
    int v = t;
    switch (sel[t]) {
    case 0:
        v = v * 3 + 1;
        v = v ^ (v >> 2);
        break;
    case 1:
        v = v * 3 + 2;
        v = v ^ (v >> 2);
        break;
    case 2:
        v = v * 3 + 3;
        v = v ^ (v >> 2);
        break;
    case 3:
        v = v * 3 + 4;
        v = v ^ (v >> 2);
        break;
    case 4:
        v = v * 3 + 5;
        v = v ^ (v >> 2);
        break;
    case 5:
        v = v * 3 + 6;
        v = v ^ (v >> 2);
        break;
    case 6:
        v = v * 3 + 7;
        v = v ^ (v >> 2);
        break;
    case 7:
        v = v * 3 + 8;
        v = v ^ (v >> 2);
        break;
    case 8:
        v = v * 3 + 9;
        v = v ^ (v >> 2);
        break;
    case 9:
        v = v * 3 + 10;
        v = v ^ (v >> 2);
        break;
    case 10:
        v = v * 3 + 11;
        v = v ^ (v >> 2);
        break;
    case 11:
        v = v * 3 + 12;
        v = v ^ (v >> 2);
        break;
    case 12:
        v = v * 3 + 13;
        v = v ^ (v >> 2);
        break;
    case 13:
        v = v * 3 + 14;
        v = v ^ (v >> 2);
        break;
    case 14:
        v = v * 3 + 15;
        v = v ^ (v >> 2);
        break;
    case 15:
        v = v * 3 + 16;
        v = v ^ (v >> 2);
        break;
    case 16:
        v = v * 3 + 17;
        v = v ^ (v >> 2);
        break;
    case 17:
        v = v * 3 + 18;
        v = v ^ (v >> 2);
        break;
    case 18:
        v = v * 3 + 19;
        v = v ^ (v >> 2);
        break;
    case 19:
        v = v * 3 + 20;
        v = v ^ (v >> 2);
        break;
    case 20:
        v = v * 3 + 21;
        v = v ^ (v >> 2);
        break;
    case 21:
        v = v * 3 + 22;
        v = v ^ (v >> 2);
        break;
    case 22:
        v = v * 3 + 23;
        v = v ^ (v >> 2);
        break;
    case 23:
        v = v * 3 + 24;
        v = v ^ (v >> 2);
        break;
    case 24:
        v = v * 3 + 25;
        v = v ^ (v >> 2);
        break;
    case 25:
        v = v * 3 + 26;
        v = v ^ (v >> 2);
        break;
    case 26:
        v = v * 3 + 27;
        v = v ^ (v >> 2);
        break;
    case 27:
        v = v * 3 + 28;
        v = v ^ (v >> 2);
        break;
    case 28:
        v = v * 3 + 29;
        v = v ^ (v >> 2);
        break;
    case 29:
        v = v * 3 + 30;
        v = v ^ (v >> 2);
        break;
    case 30:
        v = v * 3 + 31;
        v = v ^ (v >> 2);
        break;
    case 31:
        v = v * 3 + 32;
        v = v ^ (v >> 2);
        break;
    default:
        v = v * 3 + 1;
        v = v ^ (v >> 2);
    }
    out[t] = v;
}
