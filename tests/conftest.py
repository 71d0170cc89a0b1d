"""Test-wide settings: hypothesis profiles ("ci" under CI=1, else "dev")."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# ci: reproducible (derandomized) and bounded; dev: fewer examples, quick feedback.
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", max_examples=15, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
