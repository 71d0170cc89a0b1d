#!/usr/bin/env python
"""black's CPU time on each piece of a game's package: on the text as the generator emits it,
and on black's own output (the floor a generator emitting black's style could reach).

    PYTHONPATH=. python docs/black_cost.py twilight_struggle     (docs/history/BENCHMARKS-journal.md, the edit loop)
"""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

import black

from rulespec.compiler.backends.codegen.format import prefer_double_quotes, split
from rulespec.compiler.backends.codegen.render import MODULES, PENDING, VIEWS, environment
from rulespec.compiler.backends.codegen.view import ViewBuilder
from rulespec.compiler.frontend.loader import load_spec


def main(game: str) -> None:
    views = ViewBuilder(load_spec(Path("spec") / game).model).build()
    mode = black.Mode()
    # (module, changed by black) -> pieces, lines, lines over 88, seconds as emitted, in black's form
    rows: dict[tuple[str, bool], list[float]] = collections.defaultdict(lambda: [0, 0, 0, 0.0, 0.0])
    for name, template in MODULES.items():
        text = environment().get_template(template).render(fingerprint=PENDING, **views[VIEWS[name]])
        for piece in split(text.split(f"# Fingerprint: {PENDING}\n")[1], name):
            source = prefer_double_quotes(piece.text)
            start = time.process_time()
            formatted = black.format_str(source, mode=mode)
            middle = time.process_time()
            black.format_str(formatted, mode=mode)
            row = rows[(name, formatted != source)]
            row[0] += 1
            row[1] += source.count("\n")
            row[2] += sum(len(line) > 88 for line in source.splitlines())
            row[3] += middle - start
            row[4] += time.process_time() - middle
    print(f"{'module':14} {'changed':8} {'pieces':>6} {'lines':>7} {'>88':>5} {'as emitted':>10}"
          f" {'in black form':>13}")
    for (name, changed), (pieces, lines, long, emitted, settled) in sorted(rows.items()):
        print(f"{name:14} {str(changed):8} {pieces:6} {lines:7} {long:5} {emitted:9.2f}s {settled:12.2f}s")
    print(f"{'all':23} {sum(r[0] for r in rows.values()):6} {'':13} {sum(r[3] for r in rows.values()):9.2f}s"
          f" {sum(r[4] for r in rows.values()):12.2f}s")


if __name__ == "__main__":
    main(sys.argv[1])
