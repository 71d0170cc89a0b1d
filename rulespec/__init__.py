"""rulespec: board and card game rules as data.

The one top-level import name. Its subpackages are the repository's own folders:
`rulespec.compiler` is compiler/, `rulespec.runtime` runtime/, `rulespec.generated`
generated/; the shipped specs (spec/) and the designer's docs (docs/) ride along as data.
A wheel lays them inside this package (setup.py maps them); in a checkout they stay where
the repository keeps them, and the line below lets this package find them there.
`python -m rulespec` runs the command line (compiler/cli/).
"""

from pathlib import Path as _Path

_checkout = _Path(__file__).resolve().parent.parent
if not (_Path(__file__).parent / "compiler").is_dir() and (_checkout / "compiler" / "__init__.py").is_file():
    __path__.append(str(_checkout))  # type: ignore[name-defined]  # a package's __path__
