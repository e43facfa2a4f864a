//@ title A generated kernel (core/tests/compile_props.rs): nested switches that fall through, breaks and early returns, the transform's benchmark
//@ buffer out: i32[128]
__device__ int f(int a, int b) {
    int s = 0;
    for (int k = 0; k < (a & 3); k++) {
        s = s + b;
    }
    if (a > b) {
        return s - a;
    }
    return s + (b & 7);
}
__global__ void generated(int* out) {
    int t = threadIdx.x;
    int x0 = t;
    int x1 = t * 3 + 1;
    int x2 = 7;
    int x3 = 0;
    if ((1 - t) <= (x3 << 2)) {
        int d1 = 0;
        do {
            d1++;
            x1 += 3;
        } while (d1 < ((0 << 1) & 3));
        after1:
            ;
        if ((t == x0 ? t : x3) < 2) {
            out[t + 32] = x0;
            if ((t + x1) != f(6, x0)) {
                x0 = ((x3 % (3)) | (t == t ? 4 : 2));
                x1 = (9 - x3);
                x2 = (7 - (0 << 2));
            }
        } else {
            x3 += f(x1, 2);
        }
        x1 = ((x1 << 2) * x3);
    } else {
        if ((t > x2) || (!(t < t))) {
            int d2 = 0;
            do {
                d2++;
                x1 = ((0 | t) - (t << 1));
            } while (d2 < ((4 << 1) & 3));
            after2:
                ;
            x0 = (t * (9 >= t ? 5 : t));
            switch (x1 & 3) {
            case 0:
                out[t + 32] = t;
                x3 += t;
                x1 = (!(t <= t) ? (t | t) : x2);
                break;
            case 1:
                x2 = x3;
                break;
            case 2:
                x0 = (x2 < t ? f(x2, t) : (9 & t));
                break;
            default:
                x0 = ((5 & 0) << 1);
                x3 += (5 - t);
                break;
            }
        } else {
            if ((!(9 != x3)) && ((9 != 1) || (t <= t))) {
                out[t + 32] = f((5 / (10)), 1);
                out[t + 64] = ((6 - 4) | t);
                x0 = (t / (7));
            }
            for (int i3 = 0; i3 < (8 & 3) + 1; i3++) {
                x1 += t;
                x2 += t;
                x2 += x3;
            }
            after3:
            x3 = x3 + 1;
        }
    }
    switch ((x2 % (-8)) & 3) {
    case 0:
        int d4 = 0;
        do {
            d4++;
            if (((t == 7) && (8 > t)) || ((9 > x1) || (6 < x3))) {
                out[t + 64] = (x0 > 0 ? (t <= 0 ? t : t) : x0);
                out[t + 0] = ((7 + 7) | x1);
                x0 = 6;
            }
            switch ((0 - t) & 3) {
            case 0:
                x0 += (x1 != x0 ? x3 : t);
                out[t + 0] = (f(x1, t) | (2 >= x0 ? 1 : 6));
                x3 = f((t % (-3)), (7 ^ x3));
                break;
            case 1:
                out[t + 0] = ((t & t) - (x3 ^ x2));
                x3 = f((t * t), (t << 1));
                x2 = 3;
            case 2:
                x2 += f(x1, 5);
                break;
            default:
                x0 = (t | f(x1, 2));
                out[t + 0] = t;
                break;
            }
            int d5 = 0;
            do {
                d5++;
                x0 = (!(2 < t) ? 6 : 0);
            } while (d5 < (0 & 3));
            after5:
                ;
        } while (d4 < ((9 >= x0 ? x3 : t) & 3));
        after4:
            ;
        out[t + 64] = 1;
        switch (t & 3) {
        case 0:
            x2 = 4;
        case 1:
            for (int i6 = 0; i6 < ((t - x0) & 3) + 1; i6++) {
                out[t + 0] = t;
            }
            after6:
            x0 = x0 + 1;
            break;
        case 2:
            for (int i7 = 0; i7 < (2 & 3) + 1; i7++) {
                x2 = ((x1 - x3) + (1 << 1));
                out[t + 64] = ((6 / (10)) * 3);
            }
            after7:
            x0 = x0 + 1;
            break;
        default:
            for (int i8 = 0; i8 < ((t ^ 9) & 3) + 1; i8++) {
                out[t + 32] = (x3 | (x2 << 2));
            }
            after8:
            x2 = x2 + 1;
            x2 = ((t ^ t) % (4));
            break;
        }
    case 1:
        switch (2 & 3) {
        case 0:
            x0 = 3;
            for (int i9 = 0; i9 < ((9 << 2) & 3) + 1; i9++) {
                x3 += (2 * x1);
                x2 += t;
                x0 += (t | x0);
            }
            after9:
            x1 = x1 + 1;
            x0 = ((3 - x2) ^ x2);
            break;
        case 1:
        case 2:
            x3 = (0 != 6 ? t : (t << 0));
            for (int i10 = 0; i10 < ((x1 != 3 ? x3 : t) & 3) + 1; i10++) {
                out[t + 64] = (x2 & f(0, x0));
                x1 = (t > x0 ? (x1 % (7)) : f(5, 9));
                out[t + 0] = ((t ^ 4) & f(t, 1));
            }
            after10:
            x3 = x3 + 1;
            int d11 = 0;
            do {
                d11++;
                out[t + 0] = (t >= t ? (4 & 2) : x2);
            } while (d11 < ((t + 8) & 3));
            after11:
                ;
            break;
        default:
            switch (1 & 3) {
            case 0:
                x3 = ((x2 == t ? 0 : t) * f(t, x1));
                x3 = ((9 & t) / (10));
                out[t + 64] = x2;
            case 1:
                x1 += f(t, x3);
                x2 = ((3 << 1) | (x2 - 5));
                x2 = (t >= t ? f(0, t) : (4 < 2 ? t : x1));
            case 2:
                out[t + 32] = f(f(x1, t), (x3 & x2));
                x0 += (t & x2);
                x3 = ((x0 <= t ? 6 : 4) << 2);
            default:
                out[t + 64] = ((t <= x1) || (9 != x0) ? x3 : (4 - 9));
                break;
            }
            for (int i12 = 0; i12 < (x2 & 3) + 1; i12++) {
                out[t + 64] = (t & (x1 << 0));
                x0 = 7;
                x1 = (x2 >= 1 ? f(9, x2) : f(8, t));
            }
            after12:
            x0 = x0 + 1;
            break;
        }
    case 2:
        x0 = t;
        break;
    default:
        switch ((5 % (3)) & 3) {
        case 0:
            x2 = ((t % (3)) << 2);
            if (!(t == x2)) {
                x3 += (3 << 0);
            } else {
                out[t + 32] = x3;
            }
            break;
        case 1:
            switch ((t <= t ? 3 : t) & 3) {
            case 0:
                out[t + 0] = ((7 | x3) / (3));
                out[t + 0] = x2;
                out[t + 32] = 2;
                break;
            case 1:
                x0 += 0;
                break;
            case 2:
                x0 = ((x3 - x1) << 0);
                break;
            default:
                x1 = ((5 & t) % (-3));
                x1 += (t & x3);
                x2 += (x0 << 1);
            }
            if ((x0 & 9) >= f(7, x0)) {
                out[t + 32] = (x3 & 8);
                x3 = ((x2 / (-8)) << 0);
            } else {
                x0 = (x2 >= t ? x0 : (x1 ^ x0));
                x2 = (0 <= x1 ? (t > 0 ? 5 : t) : (x2 ^ x1));
                out[t + 64] = t;
            }
            break;
        case 2:
            break;
        default:
            if (!(9 <= 0)) {
                x0 = f((x1 % (10)), t);
                x1 = x0;
            }
            break;
        }
        x3 = ((x3 + x0) + 1);
        break;
    }
    out[t + 96] = x0 + x1 + x2 + x3;
}
