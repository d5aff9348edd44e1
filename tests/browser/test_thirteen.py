"""Thirteen in Chromium: a round against the computer players with selection, automatic play, Play and
Pass; the page's weight; switching languages mid-match."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlparse

from playwright.sync_api import expect
from thirteen_play import lead_lowest_card

from parlour.thirteen import Match

# Seat 0 holds 3♠ 3♣ 4♣ 5♥ 6♣ 7♠ 7♥ 10♦ Q♣ Q♥ K♥ A♣ 2♦ and leads; with "greedy" computer players the
# match begins 3♠ (Play), 4♦, 5♣, 5♦, then the person's 5♥ (automatic: a single cannot grow on a table).
CODE = "TH1-AAAAAAC"


def open_match(page: Any, lang: str = "en") -> str:
    """Open the Thirteen page on a fresh match of ``CODE`` with instant computer players; return its id."""
    base = page.base_url
    page.goto(f"{base}/language/{lang}?next=/")
    assert page.request.post(f"{base}/api/thirteen/settings", data={"speed": "instant"}).ok
    made = page.request.post(f"{base}/api/games/thirteen", data={"code": CODE, "strength": "greedy"})
    assert made.status == 201
    page.goto(f"{base}/thirteen")
    page.wait_for_selector(".th-hand .card")
    game_id: str = made.json()["game"]
    assert json.loads(page.text_content("#thirteen-boot"))["game"] == game_id
    return game_id


def hand(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(".th-hand .card", "els => els.map(e => e.dataset.card)")
    return cards


def status(page: Any) -> Any:
    return page.locator('[data-role="status"]')


def seats_and_moves(live_server: Any, page: Any, game_id: str) -> list[tuple[int, str]]:
    """Return (seat, move) of every move recorded for the match, replayed with the engine."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "parlour_token")
    player = live_server.store.player_by_token(token)
    match = Match.from_code(CODE)
    moves = []
    for move in live_server.store.game_record(game_id, player.id).moves:
        seat = match.turn
        assert seat is not None, "a move recorded after the match's end"
        match.apply(seat, move)
        moves.append((seat, move))
    return moves


def test_a_round_with_selection_automatic_play_play_and_pass(page: Any, live_server: Any) -> None:
    game_id = open_match(page)
    play, pass_ = page.locator('[data-action="play"]'), page.locator('[data-action="pass"]')
    assert len(hand(page)) == 13
    status(page).filter(has_text="your play must include the 3 of spades").wait_for()
    assert play.is_disabled() and pass_.is_disabled()

    # 3♠ alone could grow (a pair of 3s, a sequence): it waits, raised, for the Play button.
    page.click('.th-hand .card[data-card="3S"]')
    status(page).filter(has_text="Press Play to play these cards, or add more.").wait_for()
    assert page.get_attribute('.th-hand .card[data-card="3S"]', "aria-pressed") == "true"
    play.click()
    page.wait_for_selector('.th-pile[data-cards="5D"]')
    status(page).filter(has_text="Your turn: beat a single card or pass.").wait_for()
    assert "3S" not in hand(page) and len(hand(page)) == 12
    assert page.text_content('.th-seat-east [data-role="count"]') == "12 cards"
    assert "East played a single card" in page.text_content('[data-role="pile-label"]')

    # 4♣ cannot beat 5♦: the page says why and nothing is played; a second click lowers it again.
    page.click('.th-hand .card[data-card="4C"]')
    status(page).filter(has_text="These cards do not beat the cards on the table.").wait_for()
    page.click('.th-hand .card[data-card="4C"]')
    assert page.get_attribute('.th-hand .card[data-card="4C"]', "aria-pressed") == "false"

    # 5♥ beats 5♦ and no card could be added to a single on a table: played at once.
    page.click('.th-hand .card[data-card="5H"]')
    page.wait_for_function("!document.querySelector('.th-hand [data-card=\"5H\"]')")
    assert len(hand(page)) == 11

    # Next time there is a table to beat, pass.
    status(page).filter(has_text="Your turn").wait_for()
    while pass_.is_disabled():  # the person leads: lead the lowest card and wait for the next turn
        version = int(page.get_attribute(".th-table", "data-version"))
        lead_lowest_card(page)
        page.wait_for_function(
            "v => Number(document.querySelector('.th-table').dataset.version) > v"
            " && document.querySelector('.th-me').classList.contains('is-turn')",
            arg=version,
        )
    pass_.click()
    for _ in range(100):  # the pass is recorded before the page hears of it
        moves = seats_and_moves(live_server, page, game_id)
        if (0, "pass") in moves:
            break
        page.wait_for_timeout(50)
    assert moves[:5] == [(0, "3S"), (1, "4D"), (2, "5C"), (3, "5D"), (0, "5H")]
    assert (0, "pass") in moves


def test_the_page_is_light_and_stays_on_this_machine(page: Any, live_server: Any) -> None:
    open_match(page)
    page.wait_for_load_state("networkidle")
    pages = [r for r in page.requests_seen if urlparse(r.url).path == "/thirteen" or "/static/" in r.url]
    assert any("/static/js/thirteen.js" in r.url for r in pages)
    total = sum(r.transferred for r in pages)
    assert total < 300_000, f"the Thirteen page transferred {total} bytes"
    hosts = {urlparse(r.url).hostname for r in page.requests_seen}
    assert hosts == {"127.0.0.1"}


def test_switching_language_keeps_the_match(page: Any) -> None:
    game_id = open_match(page)
    before = hand(page)
    page.click('.language-switcher a[lang="hi"]')
    page.wait_for_selector('html[lang="hi"] .th-hand .card')
    assert json.loads(page.text_content("#thirteen-boot"))["game"] == game_id
    assert hand(page) == before
    assert page.text_content('[data-action="play"]').strip() == "खेलें"
    status(page).filter(has_text="आपकी बारी").wait_for()
    label = page.get_attribute('.th-hand .card[data-card="3S"]', "aria-label")
    assert label == "हुकुम का 3"
    assert page.evaluate("document.fonts.check('16px \"Noto Sans Devanagari\"', 'खेलें')")
    page.click('.language-switcher a[lang="hu"]')
    page.wait_for_selector('html[lang="hu"] .th-hand .card')
    assert page.text_content('[data-action="pass"]').strip() == "Passz"
    assert page.text_content('.th-seat-west [data-role="count"]') == "13 lap"


def test_a_whole_round_ends_in_its_results_and_the_points_table(page: Any) -> None:
    open_match(page)
    result = page.locator('[data-role="result"]')
    pass_ = page.locator('[data-action="pass"]')
    for _ in range(60):  # pass on every table, lead the lowest card, until the round is over
        page.wait_for_function(
            "document.querySelector('[data-role=result]').open"
            " || document.querySelector('.th-me').classList.contains('is-turn')"
        )
        if result.is_visible():
            break
        version = int(page.get_attribute(".th-table", "data-version"))
        if pass_.is_enabled():
            pass_.click()
        else:
            lead_lowest_card(page)
        page.wait_for_function(
            "v => Number(document.querySelector('.th-table').dataset.version) > v", arg=version
        )
    assert "Round 1 is over" in result.locator("h2").text_content()
    rows = result.locator("tbody tr")
    assert rows.count() == 4
    assert sorted(rows.nth(i).locator("td").nth(2).text_content() for i in range(4)) == [
        "+0",
        "+1",
        "+2",
        "+3",
    ]
    # Every seat's cards left show beside the results (the last one out still holds some).
    assert result.locator("tbody td.th-left .th-mini").count() > 0
    page.click('[data-action="continue"]')
    result.wait_for(state="hidden")
    assert page.locator('[data-role="scores"] tbody tr').count() == 1
    totals = page.locator('[data-role="scores"] tfoot td').all_text_contents()
    assert sorted(totals) == ["0", "1", "2", "3"]


def test_a_new_game_by_code_and_a_bad_code(page: Any) -> None:
    open_match(page)
    page.locator('.th-side [data-action="new"]').click()
    dialog = page.locator('[data-role="new-game"]')
    dialog.locator('input[name="code"]').fill("TH1-NOPE")
    dialog.locator('button[type="submit"]').click()
    dialog.locator('[data-role="new-error"]').filter(has_text="not a Thirteen code").wait_for()
    before = page.locator('[data-role="commitment"]').get_attribute("title")
    dialog.locator('input[name="code"]').fill("TH1-AAAAAAG")
    dialog.locator('button[type="submit"]').click()
    dialog.wait_for(state="hidden")
    # The new match is there once its commitment replaces the old one and its hand is drawn.
    expect(page.locator('[data-role="commitment"]')).not_to_have_attribute("title", before or "")
    page.wait_for_function("document.querySelectorAll('.th-hand .card').length === 13")
    expect(page.locator(".th-hand .card").nth(1)).to_have_attribute("data-card", "3H")
    assert hand(page)[:2] == ["3S", "3H"]  # the deal of TH1-AAAAAAG, whose code stays hidden in play
    assert page.locator('[data-role="code-line"]').is_hidden()
    assert "TH1-AAAAAAG" not in page.content()
    assert len(page.locator('[data-role="commitment"]').get_attribute("title") or "") == 64


def test_the_player_leads_in_words_of_its_own_and_can_raise_cards_by_sliding(page: Any) -> None:
    open_match(page, "fr")
    # Seat 0 holds 3♠ and leads: "you lead", never "Vous commence".
    expect(page.locator('[data-role="pile-label"]')).to_have_text(
        "La table est vide\u00a0: à vous de commencer."
    )
    cards = page.locator(".th-hand .card")
    first, third = cards.nth(3).bounding_box(), cards.nth(5).bounding_box()
    assert first is not None and third is not None
    page.mouse.move(first["x"] + 8, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(third["x"] + 8, third["y"] + third["height"] / 2, steps=8)
    page.mouse.up()
    raised = page.eval_on_selector_all(".th-hand .card.selected", "els => els.length")
    assert raised == 3  # the three cards the slide crossed, asked about at once
    # 5♥ 6♣ 7♠ is a sequence, but the first play of a match must hold 3♠: the page says so.
    expect(page.locator('[data-role="status"]')).to_contain_text("3 de pique")
