"""Settings and fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from browsers import launched_browser

# Tests never assert wall-clock times, and Hypothesis' per-example deadline is one: on a loaded 2-core
# machine it fails correct code. Properties are judged on their results only.
settings.register_profile("parlour", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("parlour")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the whole session, for the browser tests of every folder (Playwright's sync API
    runs one instance a thread)."""
    with launched_browser() as launched:
        yield launched
