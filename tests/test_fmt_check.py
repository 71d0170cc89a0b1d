"""`rulespec fmt --check` over the repository's specs: every spec folder stays formatted.

A folder is left out only while someone else was changing it when the specs
were formatted; it says why, and goes back in once it is formatted.
"""

from __future__ import annotations

from click.testing import CliRunner

from rulespec.compiler.cli import main
from support import REPO

LEFT_OUT: dict[str, str] = {}


def spec_folders() -> list[str]:
    found = [p for root in ("spec", "tests/specs") for p in sorted((REPO / root).iterdir())
             if p.is_dir() and any(p.rglob("*.rules"))]
    return [str(p.relative_to(REPO)) for p in found]


def test_every_spec_folder_is_formatted():
    folders = [str(REPO / f) for f in spec_folders() if f not in LEFT_OUT]
    assert any(f.endswith("twilight_struggle") for f in folders)
    result = CliRunner().invoke(main, ["fmt", "--check", *folders])
    assert result.exit_code == 0, f"{result.output}\nformat them with: rulespec fmt <folder>"


def test_a_folder_left_out_exists():
    assert set(LEFT_OUT) <= set(spec_folders()), "a folder left out is gone: drop it from LEFT_OUT"
