"""Friends' tables in the browser: one person makes a table, a friend opens its link in another browser
and sits down, the host seats computer players and deals, both see their own hands only, quick chat
reaches the other seat, and a friend who closes the tab is shown away. Also on a phone."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from thirteen_play import POLL, play_until

from parlour.games.tables import FriendsTable
from parlour.thirteen.definition import ThirteenMatch
from parlour.thirteen.order import cards_of


@pytest.fixture
def friend(browser: Any, live_server: Any) -> Iterator[Any]:
    """A second person: a browser context of their own (their own player and storage)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="hu-HU", bypass_csp=True)
    context.set_default_timeout(10_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], f"script errors in the friend's page: {errors}"


def live_table(live_server: Any, code: str) -> FriendsTable:
    parlour = live_server.app.state.parlour
    record = parlour.store.table_by_code(code)
    owner = parlour.tables.get(record.table_id)
    assert owner is not None
    table: FriendsTable = owner.game
    return table


def open_new_table(page: Any, live_server: Any, name: str, settings: dict[str, Any] | None = None) -> Any:
    """Make a table as ``name`` (with ``settings``) from the page, open it, and return the new table's
    answer (``url``, ``code`` …) once its seats show."""
    page.goto(f"{live_server.url}/thirteen/tables")
    made = page.evaluate(
        """async (body) => (await fetch("/api/tables", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})).json()""",
        {"name": name, "settings": settings or {}},
    )
    page.goto(f"{live_server.url}{made['url']}")
    page.wait_for_selector('[data-role="seating"]:not([hidden])')
    return made


def seat_computers(page: Any, seats: tuple[int, ...]) -> None:
    """As the host, put a computer player in each of ``seats``, one after another (the seats are drawn
    again after each), waiting for each to show."""
    for seat in seats:
        bots = page.locator(".th-seating-seat.is-bot").count()
        page.locator(".th-seating-seat").nth(seat).get_by_role("button", name="Add a computer player").click()
        page.wait_for_function(f"() => document.querySelectorAll('.th-seating-seat.is-bot').length > {bots}")


def test_two_people_sit_deal_chat_and_one_leaves(page: Any, friend: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/thirteen/tables")
    page.fill('[data-role="create-table"] input[name="name"]', "Ana")
    page.click('[data-role="create-table"] button[type="submit"]')
    page.wait_for_url("**/thirteen/t/*")
    code = page.url.rsplit("/", 1)[1]
    page.wait_for_selector('[data-role="seating"]:not([hidden])')
    assert page.locator(".th-me [data-role=name]").inner_text() == "You"

    friend.goto(page.url)
    friend.wait_for_selector('[data-role="seating"]:not([hidden])')
    # No name typed: the page asks for one (in the friend's language) and seats nobody.
    friend.fill('[data-role="seat-name"]', "")
    friend.locator(".th-seating-seat").nth(1).get_by_role("button", name="Ide ülök").click()
    friend.wait_for_selector('[data-role="seat-name-error"]:not([hidden])')
    asked = friend.locator('[data-role="seat-name-error"]').inner_text()
    assert asked == "Előbb írd be a neved, aztán ülj le."
    assert friend.evaluate("document.activeElement.dataset.role") == "seat-name"
    assert live_table(live_server, code).seating[1].kind != "person"
    friend.fill('[data-role="seat-name"]', "Bence")
    friend.locator(".th-seating-seat").nth(1).get_by_role("button", name="Ide ülök").click()
    friend.wait_for_function("() => !document.querySelector('[data-role=seat-name-field]').offsetParent")
    page.wait_for_function("() => document.querySelector('[data-role=people]').textContent.includes('Bence')")

    for seat in (2, 3):
        page.locator(".th-seating-seat").nth(seat).get_by_role("button", name="Add a computer player").click()
        page.wait_for_function(
            f"() => document.querySelectorAll('.th-seating-seat.is-bot').length >= {seat - 1}"
        )
    # Every seat taken: the host is told the game can start now.
    note = "document.querySelector('[data-role=seating-note]').textContent"
    page.wait_for_function(f"() => {note}.startsWith('Every seat is taken')")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_function("() => document.querySelectorAll('.th-hand .card').length === 13")
    friend.wait_for_function("() => document.querySelectorAll('.th-hand .card').length === 13")
    table = live_table(live_server, code)
    assert isinstance(table.match, ThirteenMatch)
    hands = table.match.match.round.hands
    for seat, person in ((0, page), (1, friend)):
        shown = person.eval_on_selector_all(".th-hand .card", "els => els.map(e => e.dataset.card)")
        assert shown == [str(card) for card in cards_of(hands[seat])]
        others = {str(card) for other in range(4) if other != seat for card in cards_of(hands[other])}
        everywhere = person.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
        assert not others & set(everywhere)
    # The friend sits at the bottom of their own table; play goes on to the left, so the host (who
    # plays before the friend) sits at the friend's right (east).
    assert friend.locator(".th-seat-east [data-role=name]").inner_text() == "Ana"
    friend.get_by_role("button", name="Csevegés").click()
    # The phrases in the order of a game: the greeting first, the goodbye last among the words.
    words = friend.eval_on_selector_all(".th-phrase", "els => els.map(e => e.textContent)")
    assert words[0] == "Helló!" and words[9] == "Szia!", words
    friend.get_by_role("button", name="Szép volt!").click()
    page.wait_for_selector(".th-seat-west [data-role=bubble]:not([hidden])")
    assert page.locator(".th-seat-west [data-role=bubble]").inner_text() == "Well played!"
    page.screenshot(path="/tmp/table-host.png")
    friend.screenshot(path="/tmp/table-friend.png")
    friend.close()
    page.wait_for_function(
        "() => document.querySelector('.th-seat-west [data-role=presence]').textContent === 'Away'"
    )


def test_the_points_note_states_the_tables_own_target(page: Any, live_server: Any) -> None:
    """A table set to 6 points says so next to its points table, not the computer table's 10."""
    open_new_table(page, live_server, "Ana", {"rules": {"target_points": 6}})
    seat_computers(page, (1, 2, 3))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_function("() => document.querySelectorAll('.th-hand .card').length > 0")
    assert page.locator('[data-role="target-note"]').inner_text() == "First to 6 points wins."


def test_a_duplicate_table_is_made_from_the_form_and_compares_hands_on_a_phone(
    page: Any, live_server: Any
) -> None:
    """The host picks a duplicate set of one deal: the points field gives way to a note, the table says
    which deal, rotation and hand it is, and after the first round the result window shows the hands
    compared, within a 360 px phone's width."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/thirteen/tables")
    form = '[data-role="create-table"]'
    page.fill(f'{form} input[name="name"]', "Ana")
    assert page.locator('[data-role="points-field"]').is_visible()
    page.select_option(f'{form} select[name="duplicate_deals"]', "1")
    assert page.locator('[data-role="points-field"]').is_hidden()
    assert page.locator('[data-role="duplicate-note"]').is_visible()
    page.click(f"{form} button[type=submit]")
    page.wait_for_url("**/thirteen/t/*")
    page.wait_for_selector('[data-role="seating"]:not([hidden])')
    seat_computers(page, (1, 2, 3))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_function("() => document.querySelectorAll('.th-hand .card').length === 13")
    note = page.locator('[data-role="target-note"]').inner_text()
    assert note == "Duplicate: deal 1 of 1, rotation 1 of 4. You hold hand A."
    play_until(page, "!!document.querySelector('[data-role=result][open]')", "the round")
    comparison = page.locator('[data-role="result"] [data-role="duplicate"]')
    assert comparison.is_visible()
    heads = comparison.locator("tbody th").all_text_contents()
    assert heads == ["1A", "1B", "1C", "1D"]  # each hand once so far, by whoever held it
    cells = comparison.locator("tbody td").all_text_contents()
    assert sum(1 for cell in cells if cell != "—") == 4
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.click('[data-role="result"] [data-action="continue"]')
    page.wait_for_function(
        "() => document.querySelector('[data-role=target-note]').textContent.includes('rotation 2 of 4')",
        polling=POLL,
    )
    assert page.locator('[data-role="target-note"]').inner_text().endswith("You hold hand B.")


def test_after_the_host_has_left_a_friend_deals_the_rematch(page: Any, friend: Any, live_server: Any) -> None:
    """The host leaves mid-match; after the grace a computer player plays for her, the friend plays the
    match (to one point) to its end, the host comes back to a note that the computer played for her,
    and the friend, who is not the host, deals the rematch."""
    made = open_new_table(
        page, live_server, "Ana", {"speed": "instant", "grace_seconds": 15, "rules": {"target_points": 1}}
    )
    url = f"{live_server.url}{made['url']}"
    friend.goto(url)
    friend.wait_for_selector('[data-role="seating"]:not([hidden])')
    friend.fill('[data-role="seat-name"]', "Bence")
    friend.locator(".th-seating-seat").nth(1).get_by_role("button", name="Ide ülök").click()
    page.wait_for_function("() => document.querySelector('[data-role=people]').textContent.includes('Bence')")
    seat_computers(page, (2, 3))
    page.get_by_role("button", name="Start the game").click()
    friend.wait_for_function("() => document.querySelectorAll('.th-hand .card').length === 13")
    page.goto("about:blank")  # the host leaves

    # The grace passes on the table's clock, not the test's; the friend's chat wakes the table up.
    table = live_table(live_server, made["code"])
    friend.wait_for_function(
        "() => document.querySelector('.th-seat-east [data-role=presence]').textContent === 'Távol'"
    )
    table.clock = lambda: time.monotonic() + 16
    friend.get_by_role("button", name="Csevegés").click()
    friend.get_by_role("button", name="Szép volt!").click()
    friend.wait_for_function(
        "() => document.querySelector('.th-seat-east [data-role=presence]').textContent.includes('helyett')"
    )

    rematch = '[data-role="result"] [data-action="rematch"]'
    # The friend passes when she may and leads her lowest card when she must, to the match's end.
    play_until(friend, f"!!document.querySelector('{rematch}:not([hidden])')", "the match")
    assert friend.locator('[data-role="result"] [data-role="leave-table"]').is_visible()
    # The match is over, its hands public: each person who played it may review their own decisions.
    review_link = friend.locator('[data-role="result"] [data-role="review"]')
    assert review_link.is_visible()
    review_url = f"{live_server.url}{review_link.get_attribute('href')}"

    page.goto(url)  # the host comes back to the finished match
    page.wait_for_selector('[data-role="result"][open]')
    note = page.locator('[data-role="played-for"]')
    assert note.is_visible() and note.inner_text().startswith("A computer player played for you in 1 round")
    assert page.locator(rematch).is_visible()  # the host may deal again too
    friend.locator(rematch).click()  # the friend, not the host, deals
    for person in (page, friend):
        person.wait_for_function(
            "() => document.querySelectorAll('.th-hand .card').length === 13 && "
            "!document.querySelector('[data-role=result]').open"
        )
    assert live_table(live_server, made["code"]).phase == "playing"
    assert friend.locator('[data-role="result"] [data-role="review"]').is_hidden()  # a match in play

    friend.goto(review_url)  # the friend's review: her seat is "you", the host is named
    friend.wait_for_selector("#moves li")
    names = friend.locator(".th-review-name").all_text_contents()
    assert names[1].startswith("Te") and names[0].startswith("Ana")
    assert friend.get_attribute(".th-review-seat:nth-child(2)", "data-reviewed") is not None
    assert friend.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_a_watcher_of_a_deserted_table_is_told_why_nothing_moves(
    page: Any, friend: Any, live_server: Any
) -> None:
    """Everyone seated has gone: the table waits for them, and a watcher is told so instead of a frozen
    "Waiting for …" and a "Thinking…" that never ends."""
    url = f"{live_server.url}{open_new_table(page, live_server, 'Hana')['url']}"
    seat_computers(page, (1, 2, 3))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_function("() => document.querySelectorAll('.th-hand .card').length === 13")
    page.goto("about:blank")  # Hana leaves: nobody is seated any more

    friend.goto(url)  # a watcher, in Hungarian
    status = "document.querySelector('[data-role=status]').textContent"
    friend.wait_for_function(f"() => {status}.startsWith('Senki sincs az asztalnál')")
    assert friend.locator(".th-chip-turn").count() == 0  # nobody is shown thinking


def test_a_table_says_its_own_target_and_set_before_the_first_deal(page: Any, live_server: Any) -> None:
    """The note under the points says the table's chosen rules from the start, not the default 10."""
    for settings, said in (
        ({"rules": {"target_points": 6}}, "First to 6 points wins."),
        ({"rules": {"duplicate_deals": 2}}, "Duplicate: 2 deals, each played four times"),
    ):
        made = page.request.post(
            f"{live_server.url}/api/tables", data={"name": "Ana", "settings": settings}
        ).json()
        page.goto(f"{live_server.url}{made['url']}")
        page.wait_for_selector('[data-role="seating"]:not([hidden])')
        expect(page.locator('[data-role="target-note"]')).to_have_text(said)
