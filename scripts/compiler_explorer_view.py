"""What Compiler Explorer's PTX pane shows for nvcc's output with its default filters on
(comments, directives, library code; `--trim` adds horizontal whitespace), following its PTX
parser (compiler-explorer lib/parsers/asm-parser-ptx.ts, 2025): comment and empty lines go,
line comments are cut, directives go except `.visible`, `.extern .func`, `.global` data and the
entry's `.param` list, lines inside braces are re-indented with tabs, labels are not indented.
Used to make the fixtures in core/tests/fixtures/compiler_explorer/ (we cannot reach godbolt.org
from here). Usage: python3 scripts/compiler_explorer_view.py [--trim] FILE.ptx"""
import re
import sys

trim = "--trim" in sys.argv
path = [a for a in sys.argv[1:] if a != "--trim"][0]
out = []
in_extern = seen_close = False
in_impl = False
fn_depth = 0
brace = 0
for line in open(path).read().split("\n"):
    if re.match(r"^\s*\.extern\s+\.func", line):
        in_extern, seen_close = True, False
    elif in_extern and re.match(r"^\s*\)\s*$", line):
        seen_close = True
    if re.match(r"^\s*\{", line):
        fn_depth += 1
        if fn_depth == 1:
            in_impl = True
    elif re.match(r"^\s*\}", line):
        fn_depth -= 1
        if fn_depth == 0:
            in_impl = False
    if in_extern:
        if seen_close and re.match(r"^\s*;\s*$", line):
            in_extern = seen_close = False
        continue
    if re.match(r"^\s*//", line) or re.match(r"^\s*$", line):
        continue
    k = line.find("//")
    if k > 0:
        line = line[:k].rstrip()
    if re.match(r"^\s*\..*$", line):
        keep = (re.match(r"^\s*\.extern\s+\.func", line) or re.match(r"^\s*\.visible", line)
                or re.match(r"^\s*\.global\s+\.align\s+\d+\s+\.(b|u|s|f)\d+", line)
                or (re.match(r"^\s*\.param", line) and not in_impl))
        if not keep:
            continue
    shown = line
    if re.match(r"^\s*\$?[a-zA-Z_][a-zA-Z0-9_]*:.*$", line):
        shown = line.strip()
    else:
        level = brace - 1 if re.match(r"^\s*\}", line) else brace
        if level > 0:
            shown = "\t" * max(0, level) + line.strip()
    if re.match(r"^\s*\{", line):
        brace += 1
    elif re.match(r"^\s*\}", line):
        brace -= 1
    if trim:
        if not shown.strip():
            shown = ""
        else:
            tabs = len(shown) - len(shown.lstrip("\t"))
            rest = re.sub(r"\s+", " ", shown[tabs:].replace("\t", " "))
            shown = "  " * tabs + rest
    out.append(shown)
print("\n".join(out))
