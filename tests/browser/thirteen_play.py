"""Playing Thirteen through the page as a person does, for the browser tests."""

from __future__ import annotations

from typing import Any


def lead_lowest_card(page: Any) -> None:
    """Raise the lowest card; press Play if the selection rule waits for it (it could grow)."""
    lowest = page.locator(".th-hand .card").first
    code = lowest.get_attribute("data-card")
    lowest.click()
    page.wait_for_function(
        'code => !document.querySelector(`.th-hand [data-card="${code}"]`)'
        " || document.querySelector('[data-role=status]').textContent.includes('Press Play')",
        arg=code,
    )
    if page.locator(f'.th-hand [data-card="{code}"]').count():
        page.click('[data-action="play"]')
        page.wait_for_selector(f'.th-hand [data-card="{code}"]', state="detached")
