#!/usr/bin/env python3
"""Issue 49: ncu's source pages of a program of many launches, cut to what the tests read.

    python3 scripts/ncu_trim.py DIR PROG

Each DIR/PROG.source.N.csv (one launch's `ncu --page source --print-source sass --csv`) keeps
its kernel line, the columns Address, Source and the three instruction counts, the kernel's
first row and every row executed (ncu prints the page twice: the second copy goes). The page of
every launch together, DIR/PROG.source.csv, goes when the per-launch pages are there: it holds
nothing else. ncu's raw page (PROG.raw.csv) is kept whole.
"""
import csv
import glob
import os
import sys

KEEP = ["Address", "Source", "Instructions Executed", "Thread Instructions Executed",
        "Predicated-On Thread Instructions Executed"]


def trim(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    kernel, header = rows[0], rows[1]
    cols = [header.index(name) for name in KEEP]
    executed = header.index("Instructions Executed")
    body = []
    for row in rows[2:]:
        if row and row[0] == "Kernel Name":
            break
        if not body or row[executed].replace(",", "").strip() not in ("", "0"):
            body.append([row[c] for c in cols])
    with open(path, "w", newline="") as f:
        out = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
        # ncu ends the kernel line with a comma; kept, so the file reads as ncu's does.
        f.write(",".join('"%s"' % k for k in kernel[:2]) + ",\n")
        out.writerow(KEEP)
        out.writerows(body)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    directory, prog = sys.argv[1], sys.argv[2]
    pages = sorted(glob.glob(os.path.join(directory, f"{prog}.source.[0-9]*.csv")))
    if not pages:
        sys.exit(f"ncu_trim: no {prog}.source.N.csv in {directory}")
    for page in pages:
        trim(page)
    whole = os.path.join(directory, f"{prog}.source.csv")
    if os.path.exists(whole):
        os.remove(whole)
    print(f"{len(pages)} pages of {prog} trimmed")


if __name__ == "__main__":
    main()
