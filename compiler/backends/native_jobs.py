"""Native builds as commands need them: the one home of "is this package's native build ready, and
if not, start one".

A command that runs games (simulate, bench, tune, balance, worth, play, serve) calls prepare()
with the generated package it is about to import. RULESPEC_NATIVE says what happens when the
package's native build (compiler/backends/native.py) is not in the cache:

- unset or 1 (the default): a detached child process builds it in the background, at the lowest
  CPU priority, into the cache (atomically, as `rulespec compile --native` does); this run uses
  the Python engine and says so in one line on stderr; a later run finds the build and uses it.
- wait: the build is made first (or a background build of it awaited), then this run uses it.
- 0: nothing native at all: no build started, none loaded.

In the cache's native/jobs/ folder, a job (one package's modules and the runtime's, keyed by
their sources, so by spec hash) holds a lock file while it builds: two commands never build the
same thing twice, and a lock held by a process that died is free again (flock). Background
builds take turns machine-wide (build.lock). A build that fails leaves NAME.failed with its
one-line reason, and is not tried again by commands (`rulespec compile --native` tries again).
Where no build can be
made (no Cython, no C compiler) the note says so once per cache, and the Python engine runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

from rulespec.compiler.backends import native
from rulespec.runtime.home import cache_root
from rulespec.runtime.native import RUNTIME_MODULES, digest, runtime_build_path

ENV = "RULESPEC_NATIVE"
_RESTARTED = "RULESPEC_NATIVE_RESTARTED"  # set on a run re-executed after a wait (never loops)
# CPU a build costs, to say "about N min" (measured 2026-12-07 on the 2-core machine: the
# runtime's nine modules 41 s; a generated module about 3 s plus 0.22 s per KB of its source,
# so the biggest shipped spec's two modules about 106 s, a small test spec's 6 s).
RUNTIME_CPU_S = 41.0
MODULE_CPU_S, MODULE_CPU_S_PER_KB = 3.0, 0.22

_asked: str | None = None  # RULESPEC_NATIVE as the run began (python_this_run() sets it to 0)
_said: set[str] = set()  # what this process said (lines, or games): once a run


def mode() -> str:
    """What RULESPEC_NATIVE asks of this run: "off", "wait" or "background"."""
    value = (_asked if _asked is not None else os.environ.get(ENV, "1")).strip().lower()
    return "off" if value == "0" else "wait" if value == "wait" else "background"


# ------------------------------------------------------------------ what a package's build is


def _sources(package: Path) -> dict[str, Path]:
    return {m: package / f"{m}.py" for m in native.MODULES if (package / f"{m}.py").is_file()}


def targets(package: Path) -> list[Path]:
    """The builds a package runs natively on: its hot modules' and the runtime's."""
    made = [native.module_build_path(m, f) for m, f in _sources(Path(package)).items()]
    return made + [runtime_build_path(m) for m in RUNTIME_MODULES]


def ready(package: Path) -> bool:
    """Whether every build the package runs natively on is in the cache."""
    return all(path.is_file() for path in targets(package))


def loads_natively(package: Path) -> bool:
    """Whether this process imports the package as its native build (the builds are there and
    the process's runtime state is its native build, which they are compiled against)."""
    sources = _sources(Path(package))
    return bool(sources) and native.native_modules(Path(package)) == list(sources)


def running_natively(program) -> bool:
    """Whether a loaded generated program runs as its native build in this process."""
    package = type(program).__module__
    found = [getattr(sys.modules.get(f"{package}.{m}"), "__file__", None) or "" for m in native.MODULES]
    return any(found) and all(f.endswith(native.SUFFIX) for f in found if f)


def cpu_estimate(package: Path) -> float:
    """Seconds of CPU the builds still missing cost, about."""
    missing = {p for p in targets(package) if not p.is_file()}
    seconds = sum(MODULE_CPU_S + MODULE_CPU_S_PER_KB * f.stat().st_size / 1000
                  for m, f in _sources(Path(package)).items()
                  if native.module_build_path(m, f) in missing)
    return seconds + (RUNTIME_CPU_S if any(p.name.startswith("runtime.") for p in missing) else 0.0)


def shown_cpu(seconds: float) -> str:
    return f"about {round(seconds / 60)} min of CPU" if seconds >= 90 else f"about {max(5, round(seconds, -1)):.0f} s of CPU"


def jobs() -> Path:
    return cache_root() / "native" / "jobs"


def job_name(package: Path) -> str:
    """A job's name: the package's game (its folder's name up to the hash) and its builds' keys."""
    return f"{Path(package).name.split('-')[0]}-{digest(*(p.name for p in targets(package)))[:16]}"


def failure(package: Path) -> str | None:
    """The one-line reason the package's build failed before, or None."""
    try:
        return (jobs() / f"{job_name(package)}.failed").read_text(encoding="utf-8").strip() or "no reason given"
    except OSError:
        return None


# ------------------------------------------------------------------ locks


@contextlib.contextmanager
def locked(path: Path, wait: bool) -> Iterator[bool]:
    """Hold an exclusive lock on a file (True), or False at once when another holds it and wait is off."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # releases the lock


def building(package: Path) -> bool:
    """Whether some process holds the package's job lock (building it, or queued to)."""
    with locked(jobs() / f"{job_name(package)}.lock", wait=False) as free:
        return not free


# ------------------------------------------------------------------ building


def build_now(package: Path, background: bool = False) -> str | None:
    """Make the package's native build here and now (waiting for one under way); the reason it
    failed, or None. A failure leaves its marker; a success removes an old one. A background
    build whose game was asked for again since, with other sources (an edit), gives up its turn."""
    package = Path(package)
    name = job_name(package)
    try:
        asked = (jobs() / f"{name}.lock").stat().st_mtime if background else 0.0
    except OSError:
        asked = 0.0
    with locked(jobs() / f"{name}.lock", wait=not background) as mine:
        if not mine:
            return None  # a background build that found another under way leaves it to that one
        if ready(package):
            return None
        with machine_turn() if background else contextlib.nullcontext():
            if ready(package) or (background and _superseded(name, asked)):
                return None
            try:
                native.build_native(package)
            except native.NativeError as err:
                reason = str(err)
            except Exception as err:  # noqa: BLE001 - a build's every failure is kept, in one line
                reason = f"the native build failed: {type(err).__name__}: {err}"
            else:
                (jobs() / f"{name}.failed").unlink(missing_ok=True)
                return None
    reason = " / ".join(line.strip() for line in reason.splitlines() if line.strip())[:500]
    (jobs() / f"{name}.failed").write_text(reason + "\n", encoding="utf-8")
    return reason


def _superseded(name: str, asked: float) -> bool:
    """Whether a build of the same game with other sources was asked for after this one."""
    game = name.rsplit("-", 1)[0]
    return any(p.name != f"{name}.lock" and p.stat().st_mtime > asked for p in jobs().glob(f"{game}-*.lock"))


@contextlib.contextmanager
def machine_turn() -> Iterator[None]:
    """One background build at a time on this machine (each compiles with both cores). A build
    someone waits for (compile --native, RULESPEC_NATIVE=wait) takes no turn: behind a
    low-priority build on a busy machine it would wait far longer than it builds."""
    with locked(jobs() / "build.lock", wait=True):
        yield


def start_background(package: Path) -> subprocess.Popen:
    """Start a detached child that builds the package into the cache; its process."""
    log = jobs() / f"{job_name(package)}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    (jobs() / f"{job_name(package)}.lock").touch()  # when it was asked for (_superseded)
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", __name__, str(Path(package).resolve())],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=out, close_fds=True,
                                start_new_session=True, env={**os.environ, ENV: "1"})


def lowest_priority() -> None:
    """Nice 19, for this process and the compilers it starts, and for the session's autogroup:
    where the kernel groups by session (autogroup), a new session competes with the command's as
    an equal whatever its processes' nice. (Not the idle class: on a machine never idle, a build
    a `RULESPEC_NATIVE=wait` command waits for would never end.)"""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text("19")


def _child(package: Path) -> int:
    """The background build: at the lowest priority, so the commands running keep the CPU."""
    import resource
    lowest_priority()
    there = ready(package)
    reason = build_now(package, background=True)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = ("already built" if there else reason or f"built ({used.ru_utime + used.ru_stime:.0f} s of CPU)"
            if ready(package) or reason else "not built: another process builds it, or a newer edit of it")
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {package}: {done}", flush=True)
    return 0


# ------------------------------------------------------------------ what a command does


def prepare(package: Path, game: str, say: Callable[[str], None]) -> bool:
    """Before a command imports `package` (of `game`): whether this run uses its native build.
    Otherwise the build is started, awaited or skipped as RULESPEC_NATIVE says (say() gets the
    one line to show), and this run, its worker processes too, uses the Python engine."""
    package = Path(package)
    if mode() == "off" or not _sources(package):
        return False
    if loads_natively(package):
        return True
    why = native.available()
    if why is not None:
        _say_unavailable(why, say)
        return python_this_run()
    try:
        return _prepare(package, game, say)
    except OSError as err:  # a cache it cannot write: the Python engine, as without a compiler
        once(say, f"the native build of {game}'s package cannot be made in the cache ({err.strerror or err});"
                   f" the package runs as pure Python")
        return python_this_run()


def _prepare(package: Path, game: str, say: Callable[[str], None]) -> bool:
    failed = failure(package)
    if mode() == "wait" and failed is None:
        once(say, f"waiting for the native build of {game}'s package, being made in the background"
                   if building(package) else f"making the native build of {game}'s package first"
                   f" ({shown_cpu(cpu_estimate(package))}), as RULESPEC_NATIVE=wait asks")
        failed = build_now(package)
        if failed is None:
            return loads_natively(package) or _restart(package)
    if failed is not None:
        once(say, f"the native build of {game}'s package failed ({failed}); the package runs as pure Python"
                   f" (`rulespec compile --native` tries again)")
        return python_this_run()
    if ready(package):  # built as this run began: its runtime was imported before the build was there
        return python_this_run()
    if not building(package):
        start_background(package)
    once(say, f"the native build of {game}'s package is being built in the background"
               f" ({shown_cpu(cpu_estimate(package))}); until it is ready the package runs as pure Python",
         key=game)
    return python_this_run()


def _restart(package: Path) -> bool:
    """The builds are made but this process imported the runtime before they were: run the
    command again in a fresh process, which imports them (once: never a loop)."""
    if os.environ.get(_RESTARTED) or not ready(package) or not _command_line():
        return python_this_run()
    sys.stdout.flush()
    sys.stderr.flush()
    os.environ[_RESTARTED] = "1"
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
    return False  # not reached


def _command_line() -> bool:
    """Whether this process is the `rulespec` command itself (not a test calling it in-process)."""
    main = getattr(sys.modules.get("__main__"), "__spec__", None)
    return Path(sys.argv[0]).name == "rulespec" or (main is not None and main.name.startswith("rulespec."))


def python_this_run() -> bool:
    """This process and its workers run the Python engine (a build finishing mid-run changes
    nothing): RULESPEC_NATIVE=0 from here on, what was asked kept for the other packages."""
    global _asked
    if _asked is None:
        _asked = os.environ.get(ENV, "1")
    os.environ[ENV] = "0"
    return False


def once(say: Callable[[str], None], line: str, key: str | None = None) -> None:
    """Say a line once a run (once a game, with key: simulate's two variant sets are one game)."""
    if (key or line) not in _said:
        _said.add(key or line)
        say(line)


def _say_unavailable(why: str, say: Callable[[str], None]) -> None:
    """No native build can be made here: said once per cache (and again when the reason changes)."""
    marker = jobs() / "unavailable"
    try:
        if marker.read_text(encoding="utf-8").strip() == why:
            return
    except OSError:
        pass
    once(say, f"no native engine here ({why}); the Python engine runs")
    with contextlib.suppress(OSError):
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(why + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(_child(Path(sys.argv[1])))
