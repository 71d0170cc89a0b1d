"""Simulations across processes and Ray: the worker cap, a Ray rulespec starts listens on
loopback only, a running cluster is joined without a CPU count, and Ray errors are one line."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime.analysis import simulate as sim
from support import MINI


class FakeRay:
    """What RayExecutor asks of the `ray` module, recorded; remote tasks run in-process."""

    def __init__(self, running: bool = False, fail: str | None = None):
        self.running, self.fail = running, fail
        self.inits: list[dict] = []
        self.stopped = False

    def is_initialized(self) -> bool:
        return self.running

    def init(self, **kwargs) -> None:
        import os
        kwargs["cluster support"] = os.environ.get("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")
        if self.fail:
            raise ConnectionError(self.fail + "\nmore lines of Ray's own")
        if kwargs.get("address") not in (None, "local") and "num_cpus" in kwargs:
            raise ValueError("When connecting to an existing cluster, num_cpus must not be provided.")
        self.inits.append(kwargs)
        self.running = True

    def remote(self, function):
        class Task:
            @staticmethod
            def remote(*args):
                return function(*args)
        return Task

    def get(self, ref):
        return ref

    def shutdown(self) -> None:
        self.stopped, self.running = True, False


def test_a_ray_of_its_own_listens_on_loopback_and_stops_after(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.delenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", raising=False)
    ray = FakeRay()
    runner = sim.RayExecutor(3, ray_module=ray)
    (kwargs,) = ray.inits
    assert kwargs["address"] == "local" and kwargs["_node_ip_address"] == "127.0.0.1"
    assert kwargs["num_cpus"] == 3 and kwargs["include_dashboard"] is False
    assert kwargs["cluster support"] == "0"  # what makes Ray on Linux listen on loopback only
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in __import__("os").environ
    runner.close()
    assert ray.stopped


@pytest.mark.parametrize("how", ["env", "argument"])
def test_a_running_cluster_is_joined_without_a_cpu_count_and_left_running(monkeypatch, how):
    monkeypatch.setenv("RAY_ADDRESS", "ray://head:10001") if how == "env" else None
    ray = FakeRay()
    runner = sim.RayExecutor(8, address=None if how == "env" else "ray://head:10001", ray_module=ray)
    (kwargs,) = ray.inits
    assert kwargs == {"address": "ray://head:10001", "log_to_driver": False, "cluster support": None}
    runner.close()
    assert not ray.stopped


def test_an_initialised_ray_is_used_as_it_is():
    ray = FakeRay(running=True)
    sim.RayExecutor(4, ray_module=ray).close()
    assert ray.inits == [] and not ray.stopped


def test_a_ray_that_cannot_start_is_one_line(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with pytest.raises(RuntimeError) as caught:
        sim.RayExecutor(2, ray_module=FakeRay(fail="could not bind port"))
    assert str(caught.value) == "cannot start Ray: could not bind port"


def test_the_worker_cap():
    assert sim.choose_workers(1, 100, 1, cpus=2) == (1, None)
    assert sim.choose_workers(999, 2, 1, cpus=64) == (1, "--workers 999 capped at 1 (1 batch of up to 25 games)")
    assert sim.choose_workers(999, 1000, 2, cpus=2) == (4, "--workers 999 capped at 4 (2 CPUs x 2)")
    assert sim.choose_workers(50, 1000, 2, executor="ray", cpus=2) == (50, None)  # a cluster's CPUs
    assert sim.choose_workers(999, 1000, 2, executor="ray", cpus=2)[0] == 80


def test_simulate_caps_the_workers_and_says_so():
    result = CliRunner().invoke(main, ["simulate", str(MINI), "--games", "2", "--workers", "999",
                                       "--backend", "interpreted", "--json"])
    assert result.exit_code == 0, result.output
    assert "note: --workers 999 capped at 1" in result.stderr
    data = __import__("json").loads(result.stdout)
    assert data["workers"] == 1 and data["workers_asked"] == 999


def _descendants() -> set[int]:
    """This process's descendants, from /proc (Linux)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _listening(pids: set[int]) -> set[str]:
    lines = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True).stdout.splitlines()
    return {line.split()[3].rsplit(":", 1)[0] for line in lines
            if any(f"pid={pid}," in line for pid in pids)}


@pytest.mark.slow
def test_a_real_ray_listens_on_loopback_and_runs_the_same_games_as_one_process(monkeypatch):
    pytest.importorskip("ray")
    if not shutil.which("ss") or not os.path.isdir("/proc"):
        pytest.skip("needs Linux's /proc and ss")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    from rulespec.compiler.backends.engine import ProgramRef
    ref = [ProgramRef(str(MINI), (), "interpreted")]
    local = sim.simulate(ref, 6, 1, ("random", "random"), {}, sim.LocalExecutor(1), batch_size=2)
    runner = sim.RayExecutor(2)
    bound = _listening(_descendants())
    assert bound and bound <= {"127.0.0.1", "[::ffff:127.0.0.1]", "[::1]"}, bound
    remote = sim.simulate(ref, 6, 1, ("random", "random"), {}, runner, batch_size=2)
    assert local == remote
