"""Settings shared by the whole suite."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Tests never assert wall-clock times, and Hypothesis' per-example deadline is one: on a loaded 2-core
# machine it fails correct code. Properties are judged on their results only.
settings.register_profile("parlour", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("parlour")
