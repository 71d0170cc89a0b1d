"""An installed rulespec, as a user gets it: one import name, the games it ships playable from
any folder, and nothing written into the installation or into a checkout's generated/.

The wheel is built from this checkout and installed into a fresh venv without its
dependencies; those come from the test's own environment through a path file (its
site-packages is added as a plain path, so the checkout's editable install is not seen).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from support import REPO

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    # a copy, so the build's own folders (build/, *.egg-info) never land in the checkout
    source = tmp_path_factory.mktemp("source") / "rulespec"
    if (REPO / ".git").exists():  # the files git knows, as they are in the working tree
        files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, check=True,
                               capture_output=True, text=True).stdout.split()
        for name in files:
            if (REPO / name).is_file():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / name, source / name)
    else:  # an unpacked source archive
        shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
            ".venv", ".rulespec-cache", "__pycache__", "build", "*.egg-info", "reports"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(out), str(source)], check=True, capture_output=True, text=True)
    return next(out.glob("rulespec-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; its bin/ folder."""
    env = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(env)
    site = next((env / "lib").glob("python*/site-packages"))
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install",
                    "-q", "--no-deps", str(wheel)], check=True, capture_output=True, text=True)
    return env


def test_the_wheel_adds_one_import_name_and_ships_the_games_and_docs(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"rulespec"}
    for game in ("twilight_struggle", "heldenhain", "risk_balance_of_power", "terraforming_mars",
                 "the_fox_in_the_forest"):
        assert any(n.startswith(f"rulespec/spec/{game}/tests/") for n in names)
        assert f"rulespec/generated/{game}/rules.py" in names
    assert "rulespec/docs/FIRST_GAME.md" in names
    assert "rulespec/compiler/frontend/grammar.lark" in names


def _snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_an_installed_rulespec_plays_its_games_and_a_new_one_from_an_empty_folder(installed: Path, tmp_path):
    site = next((installed / "lib").glob("python*/site-packages"))
    before = _snapshot(site)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("RULESPEC_CACHE", "PYTHONPATH")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path), RULESPEC_NATIVE="0")
    rulespec = str(installed / "bin" / "rulespec")

    def run(*args: str) -> str:
        done = subprocess.run([rulespec, *args], cwd=work, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
        return done.stdout

    assert "FIRST_GAME.md" in run("new", "my_game")
    run("check", "my_game")
    run("test", "my_game")
    run("play", "my_game", "--seed", "3")
    run("compile", "my_game")
    run("play", "twilight_struggle", "--seed", "7", "--agents", "random,random")
    run("simulate", "the_fox_in_the_forest", "--games", "6")
    run("new", "fox", "--from", "the_fox_in_the_forest")
    run("test", "fox")
    assert _snapshot(site) == before, "running rulespec changed its installation"
    assert (tmp_path / "cache" / "rulespec").is_dir()  # the designer's builds went to the user's cache


def test_a_copy_of_a_shipped_spec_compiles_beside_generated_without_touching_it(tmp_path):
    copy = tmp_path / "elsewhere" / "heldenhain"
    shutil.copytree(REPO / "spec" / "heldenhain", copy)
    before = _snapshot(REPO / "generated")
    env = {**os.environ, "RULESPEC_CACHE": str(tmp_path / "cache"), "RULESPEC_NATIVE": "0"}
    done = subprocess.run([sys.executable, "-m", "rulespec", "compile", str(copy)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "cache" in done.stdout
    assert _snapshot(REPO / "generated") == before
