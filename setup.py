"""The wheel's layout: one top-level import name, `rulespec`.

The repository keeps its folders at its root (rulespec/, compiler/, runtime/, generated/,
spec/, docs/); the wheel lays them inside the `rulespec` package, so an installed rulespec
claims no other name and ships the five games and the docs a new designer is pointed to.
Everything else about the project is in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup

HERE = Path(__file__).parent
# package -> folder; code folders are found with their subpackages, data folders whole.
CODE = {"rulespec": "rulespec", "rulespec.compiler": "compiler", "rulespec.runtime": "runtime",
        "rulespec.generated": "generated"}
DATA = {"rulespec.spec": "spec", "rulespec.docs": "docs"}
DATA_FILES = ("*.lark", "*.j2", "*.html", "*.css", "*.js", "*.pxd", "*.pyx", "FORMAT", "*.md", "*.rules",
              "*.png", "*.json", "*.txt")
SKIP = {"__pycache__", "history"}


def matches(path: Path) -> bool:
    return any(path.match(pattern) for pattern in DATA_FILES)


def data_of(folder: Path, whole: bool) -> list[str]:
    """The data files of the package in `folder`: its own and, for a code package, those of
    its subfolders that are no package themselves (templates/, static/)."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and matches(path):
            found.append(path.name)
        elif path.is_dir() and path.name not in SKIP and not whole and not (path / "__init__.py").is_file():
            found += [f"{path.name}/{inner}" for inner in data_of(path, whole)]
    return found


packages, package_dir, package_data = [], {}, {}
for package, root in {**CODE, **DATA}.items():
    whole = package in DATA  # every folder of a data root is a package of its own
    for path in [HERE / root, *sorted(p for p in (HERE / root).rglob("*") if p.is_dir())]:
        parts = path.relative_to(HERE / root).parts
        if SKIP.intersection(parts) or not (whole or (path / "__init__.py").is_file()):
            continue
        name = ".".join((package, *parts))
        packages.append(name)
        package_dir[name] = path.relative_to(HERE).as_posix()
        if data := data_of(path, whole):
            package_data[name] = data

setup(packages=packages, package_dir=package_dir, package_data=package_data)
