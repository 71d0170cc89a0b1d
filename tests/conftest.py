"""Test-wide settings: hypothesis profiles ("ci" under CI=1, else "dev"), and no native build.

RULESPEC_NATIVE=0 for the whole run, as CI sets it: the suite runs the Python engines, and no
command a test runs (in this process or a child, which inherits it) starts a background native
build (compiler/backends/native_jobs.py). A test that wants the native build gives its child
process RULESPEC_NATIVE=1 itself (tests/test_native.py, tests/test_three_backends.py) and waits
for every process it starts.
"""

from __future__ import annotations

import os

os.environ["RULESPEC_NATIVE"] = "0"  # before any test module imports the runtime

from hypothesis import HealthCheck, settings  # noqa: E402

# ci: reproducible (derandomized) and bounded; dev: fewer examples, quick feedback.
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
