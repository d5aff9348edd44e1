"""The rules pages in Chromium: reached from the game, in every language, with the seeds' own words."""

from __future__ import annotations

from typing import Any


def test_rules_are_linked_from_the_thirteen_page_and_switch_language(page: Any) -> None:
    page.goto(f"{page.base_url}/language/en?next=/thirteen")
    page.click('.th-side a[href="/rules/thirteen"]')
    page.wait_for_selector("h1:has-text('Thirteen rules')")
    assert page.locator(".rules-page h2").count() >= 6
    assert page.locator('.mini-card[aria-label="3 of spades"]').count() >= 1
    page.click('.language-switcher a[lang="hi"]')
    page.wait_for_selector("h1:has-text('थर्टीन नियम')")
    page.get_by_text("खेल का उद्देश्य है कि आप सबसे पहले अपने सभी पत्ते खत्म करें।").wait_for()
    page.click('.language-switcher a[lang="fr"]')
    page.wait_for_selector("h1:has-text('Règles du Thirteen')")
    page.click('.rules-header a[href="/rules/tripeaks"]')
    page.wait_for_selector("h1:has-text('Règles du TriPeaks')")
    page.click('.language-switcher a[lang="hu"]')
    page.wait_for_selector("h1:has-text('A TriPeaks szabályai')")
    page.get_by_text("„Nincs több lehetséges lépés”", exact=False).first.wait_for()
    page.click(".rules-header a.primary")
    page.wait_for_url("**/tripeaks")
