#!/usr/bin/env python3
"""Draws docs/timing/*.svg: each H100 report kernel's measured cycles against the timing model's
prediction (core/tests/golden/h100_timed.csv, written by core/tests/timing.rs), with the residual
under it, and the calibration runs' errors (calibration/h100/residuals.csv). Plain SVG, no
plotting library: python3 scripts/timing-plots.py"""
import csv
import os

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "docs", "timing")
W, H, PAD_L, PAD_R, TOP, MAIN_H, GAP, RES_H, BOTTOM = 640, 400, 70, 20, 40, 220, 30, 70, 40


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def ticks(lo, hi, n=5):
    span = hi - lo or 1
    step = 10 ** len(str(int(span / n))) / 10
    for m in (1, 2, 5, 10):
        if span / (step * m) <= n:
            step *= m
            break
    t = (lo // step) * step
    out = []
    while t <= hi + 1e-9:
        if t >= lo - 1e-9:
            out.append(t)
        t += step
    return out


def kernel_plot(name, rows, param):
    xs = [r[0] for r in rows]
    ys = [v for r in rows for v in (r[1], r[2])]
    lo, hi = min(ys), max(ys)
    lo, hi = lo - 0.05 * (hi - lo or 1), hi + 0.05 * (hi - lo or 1)
    errs = [r[3] for r in rows]
    elim = max(5.0, max(abs(e) for e in errs) * 1.1)
    x0, x1 = min(xs), max(xs)
    px = lambda x: PAD_L + (x - x0) / ((x1 - x0) or 1) * (W - PAD_L - PAD_R)
    py = lambda y: TOP + MAIN_H - (y - lo) / (hi - lo) * MAIN_H
    rtop = TOP + MAIN_H + GAP
    pr = lambda e: rtop + RES_H / 2 - e / elim * RES_H / 2
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{PAD_L}" y="20" font-size="14" font-weight="bold">{esc(name)}: H100 against the timing model (nothing fitted)</text>']
    for t in ticks(lo, hi):
        s.append(f'<line x1="{PAD_L}" x2="{W - PAD_R}" y1="{py(t):.1f}" y2="{py(t):.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{PAD_L - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{int(t)}</text>')
    s.append(f'<text x="16" y="{TOP + MAIN_H / 2}" transform="rotate(-90 16 {TOP + MAIN_H / 2})" text-anchor="middle">cycles (thread 0)</text>')
    line = " ".join(f"{px(r[0]):.1f},{py(r[2]):.1f}" for r in rows)
    s.append(f'<polyline points="{line}" fill="none" stroke="#1f6fb2" stroke-width="2"/>')
    for r in rows:
        s.append(f'<circle cx="{px(r[0]):.1f}" cy="{py(r[1]):.1f}" r="3" fill="black"/>')
    s.append(f'<line x1="{PAD_L}" x2="{W - PAD_R}" y1="{pr(0):.1f}" y2="{pr(0):.1f}" stroke="#999"/>')
    for e in (-5, 5):
        if abs(e) <= elim:
            s.append(f'<line x1="{PAD_L}" x2="{W - PAD_R}" y1="{pr(e):.1f}" y2="{pr(e):.1f}" stroke="#e0a000" stroke-dasharray="4 3"/>')
            s.append(f'<text x="{PAD_L - 6}" y="{pr(e) + 4:.1f}" text-anchor="end">{e:+d} %</text>')
    s.append(f'<text x="16" y="{rtop + RES_H / 2}" transform="rotate(-90 16 {rtop + RES_H / 2})" text-anchor="middle">error</text>')
    for r in rows:
        s.append(f'<rect x="{px(r[0]) - 3:.1f}" y="{min(pr(0), pr(r[3])):.1f}" width="6" height="{abs(pr(r[3]) - pr(0)):.1f}" fill="#1f6fb2"/>')
    for t in ticks(x0, x1, 8):
        s.append(f'<text x="{px(t):.1f}" y="{H - BOTTOM + 18}" text-anchor="middle">{int(t)}</text>')
    s.append(f'<text x="{(PAD_L + W - PAD_R) / 2}" y="{H - 6}" text-anchor="middle">{param}</text>')
    s.append(f'<text x="{W - PAD_R}" y="{TOP - 6}" text-anchor="end"><tspan fill="black">● measured</tspan>  <tspan fill="#1f6fb2">— model (h100-timed)</tspan></text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    by_kernel = {}
    with open(os.path.join(ROOT, "core/tests/golden/h100_timed.csv")) as f:
        for r in csv.DictReader(f):
            by_kernel.setdefault(r["kernel"], []).append((int(r["x"]), float(r["measured"]), float(r["predicted"]), float(r["error_percent"])))
    for name, rows in by_kernel.items():
        param = "k (lanes below k take the branch)" if name.startswith("branch") else "n (Table I: lanes that leave early)"
        with open(os.path.join(OUT, f"{name}.svg"), "w") as f:
            f.write(kernel_plot(name, rows, param))
    # The calibration runs: error of each, fitted and held out.
    with open(os.path.join(ROOT, "calibration/h100/residuals.csv")) as f:
        runs = list(csv.DictReader(f))
    bar, top = 16, 30
    h = top + bar * len(runs) + 30
    mid, scale = 330, 6.0
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" font-family="sans-serif" font-size="11">',
         f'<rect width="{W}" height="{h}" fill="white"/>',
         '<text x="10" y="18" font-size="14" font-weight="bold">Calibration runs: model minus H100, % (blue fitted, orange held out)</text>']
    for e in (-20, -10, -5, 0, 5, 10, 20):
        x = mid + e * scale
        s.append(f'<line x1="{x}" x2="{x}" y1="{top}" y2="{h - 24}" stroke="{"#999" if e == 0 else "#eee"}"/>')
        s.append(f'<text x="{x}" y="{h - 10}" text-anchor="middle">{e:+d}</text>')
    for i, r in enumerate(runs):
        y = top + i * bar
        e = max(-50.0, min(50.0, float(r["error_percent"])))
        color = "#1f6fb2" if r["run"] == "fitted" else "#e07000"
        label = f'{r["kernel"]} {r["pattern"]} {r["x"]}'
        s.append(f'<text x="{mid - 175}" y="{y + 11}" text-anchor="end">{esc(label)}</text>')
        s.append(f'<rect x="{min(mid, mid + e * scale):.1f}" y="{y + 3}" width="{abs(e * scale):.1f}" height="{bar - 6}" fill="{color}"/>')
        s.append(f'<text x="{W - 8}" y="{y + 11}" text-anchor="end">{float(r["error_percent"]):+.1f} %</text>')
    s.append("</svg>")
    with open(os.path.join(OUT, "calibration.svg"), "w") as f:
        f.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
