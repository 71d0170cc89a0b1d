"""Fingerprints of seeded games, to show that a spec rewrite plays the same games.

    python docs/same_games.py GAME [--seeds N] [--backend generated|interpreted]
                              [--agents A[;B...]] [--variants all|none|V,W] > before.json
    ... change the spec, then the same command > after.json ...
    python docs/same_games.py --compare before.json after.json

Run it from the checkout whose spec you want (it imports compiler/ and runtime/ from the
current folder). For the base game and each variant alone (`--variants all`, the default),
each agent set (default: the spec's balance bot's policy on every seat, and random) and
seeds 1..N, it plays a game and keeps one digest of its choices, log, winner, reason and
tracks, and the choices alone (so a difference shows whether the moves or only the words
changed). `--compare` lists the games whose digests differ, and exits 1 if any does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))


def fingerprints(game: str, seeds: int, backend: str, agent_sets: list[str], variants: str) -> dict:
    from rulespec.compiler.cli.base import load, program as load_program
    from rulespec.runtime.analysis.fingerprints import fingerprints as of_program

    base = load(game)
    folder = Path(base.folder) / "variants"
    if variants == "all":
        names = sorted(p.stem for p in folder.glob("*.rules")) if folder.is_dir() else []
    elif variants == "none":
        names = []
    else:
        names = [v for v in variants.split(",") if v]
    out: dict[str, dict] = {}
    for variant in [None, *names]:
        loaded = base if variant is None else load(game, (variant,))
        out.update(of_program(load_program(loaded, backend, None), agent_sets, seeds, f"{variant or 'base'} "))
    return out


def compare(before_file: str, after_file: str) -> int:
    before = json.loads(Path(before_file).read_text())
    after = json.loads(Path(after_file).read_text())
    differ = [k for k in before if k in after and before[k] != after[k]]
    moves = [k for k in differ if before[k]["choices"] != after[k]["choices"]]
    missing = sorted(set(before) ^ set(after))
    for key in differ:
        print(f"differs: {key} ({'moves' if key in moves else 'log or end only'})")
    for key in missing:
        print(f"only in one: {key}")
    print(f"{len(before)} games before, {len(after)} after: {len(differ)} differ "
          f"({len(moves)} in their moves), {len(missing)} in one only")
    return 1 if differ or missing else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"]:
        return compare(argv[1], argv[2])
    game, rest = argv[0], argv[1:]
    opts = {"--seeds": "20", "--backend": "generated", "--agents": "policy;random",
            "--variants": "all"}
    while rest:
        flag, value, *rest = rest
        if flag not in opts:
            sys.exit(f"unknown option {flag}")
        opts[flag] = value
    result = fingerprints(game, int(opts["--seeds"]), opts["--backend"],
                          opts["--agents"].split(";"), opts["--variants"])
    print(json.dumps(result, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
