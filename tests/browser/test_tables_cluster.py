"""Four people at one friends' table, in four browsers, on two ``parlour serve`` processes sharing
PostgreSQL and Redis: two of them reach the table's owner through the other process. They play a whole
round; each sees only their own hand. Then one closes the tab: the others see them away, a computer
player plays for them after the grace period, and they take the seat back when they open the link
again."""

from __future__ import annotations

import collections
import contextlib
import importlib.util
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from thirteen_play import POLL, lead_lowest_card


def _cluster_processes() -> Any:
    path = Path(__file__).resolve().parents[1] / "cluster_processes.py"
    spec = importlib.util.spec_from_file_location("parlour_cluster_processes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Two servers and four browsers load this 2-core machine by themselves: beside the rest of the suite
# they starve, so `make test` runs this test on its own after the others.
# Four browsers and two servers play a whole match: minutes on a loaded machine, not a hang.
pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.alone, pytest.mark.timeout(900)]

NAMES = ("Ana", "Bence", "Chloé", "Dev")
SEAT_OF = """name => {
  for (const el of document.querySelectorAll('[data-role=name]')) {
    if (el.textContent === name) return el.closest('.th-seat, .th-me');
  }
  return null;
}"""


@pytest.fixture
def servers() -> Iterator[tuple[Any, Any]]:
    with _cluster_processes().two_servers() as both:
        yield both
        # What the servers said: pytest shows it only for a failing test.
        for name, server in zip(("first", "second"), both, strict=True):
            print(f"--- the {name} server's newest log lines ---\n{server.log_tail()}")


@pytest.fixture
def people(browser: Any) -> Iterator[list[Any]]:
    """Four browser contexts, each a person of their own (their own player cookie and storage)."""
    contexts = [browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US") for _ in NAMES]
    errors: list[str] = []
    pages = []
    for context in contexts:
        context.set_default_timeout(30_000)  # four browsers and two servers share two cores
        opened = context.new_page()
        opened.on("pageerror", lambda error: errors.append(str(error)))
        watch_frames(opened)
        pages.append(opened)
    yield pages
    for context in contexts:
        context.close()
    assert errors == [], f"script errors: {errors}"


FRAMES: dict[int, collections.deque[str]] = {}


def watch_frames(page: Any) -> None:
    """Keep the newest WebSocket frames a page sent and received (a failure's report shows them)."""
    kept: collections.deque[str] = collections.deque(maxlen=60)
    FRAMES[id(page)] = kept

    def on_socket(socket: Any) -> None:
        def keep(way: str) -> Callable[[Any], None]:
            return lambda payload: kept.append(f"{time.monotonic():.1f} {way} {str(payload)[:200]}")

        socket.on("framesent", keep(">"))
        socket.on("framereceived", keep("<"))
        socket.on("close", lambda _: kept.append("closed"))

    page.on("websocket", on_socket)


def frames(page: Any) -> str:
    return "\n".join(FRAMES.get(id(page), ()))


def hand(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(".th-hand .card", "els => els.map(e => e.dataset.card)")
    return cards


def presence(page: Any, name: str) -> str:
    text: str = page.evaluate(
        f"name => ({SEAT_OF})(name)?.querySelector('[data-role=presence]')?.textContent ?? ''", name
    )
    return text


def wait_presence(page: Any, name: str, wanted: str) -> None:
    page.wait_for_function(
        f"([name, wanted]) => ({SEAT_OF})(name)?.querySelector('[data-role=presence]')"
        "?.textContent === wanted",
        arg=[name, wanted],
        timeout=40_000,
        polling=POLL,
    )


def play_turn(page: Any) -> None:
    """Pass when the page may, else lead the lowest card; wait for the event to come back."""
    version = int(page.get_attribute(".th-table", "data-version"))
    if page.locator('[data-action="pass"]').is_enabled():
        page.click('[data-action="pass"]')
    else:
        try:
            lead_lowest_card(page)
        except Exception as error:  # say what the page showed: the step that failed is otherwise blind
            shown = page.evaluate(
                "() => ({status: document.querySelector('[data-role=status]')?.textContent,"
                " pile: document.querySelector('[data-role=pile]')?.getAttribute('aria-label'),"
                " hand: [...document.querySelectorAll('.th-hand .card')].map(e => e.dataset.card),"
                " seat: document.querySelector('.th-table')?.dataset.seat,"
                " turn: document.querySelector('.th-table')?.dataset.turn,"
                " connection: document.querySelector('.th-table')?.dataset.connection,"
                " version: document.querySelector('.th-table')?.dataset.version})"
            )
            raise AssertionError(
                f"leading the lowest card failed; the page showed {shown}; its newest frames:\n{frames(page)}"
            ) from error
    page.wait_for_function(
        "v => Number(document.querySelector('.th-table').dataset.version) > v", arg=version, polling=POLL
    )


MY_TURN = "() => document.querySelector('.th-me').classList.contains('is-turn')"


def next_mover(pages: list[Any]) -> Any:
    """Return the page whose turn it is once its view has settled, None when no page shows its turn
    (a page a step behind the table would act on a turn that has passed)."""
    for page in pages:
        if page.evaluate(MY_TURN):
            page.wait_for_timeout(300)
            if page.evaluate(MY_TURN) and not results_open(page):
                return page
    return None


ROUND_ONE_OVER = "() => document.querySelectorAll('[data-role=scores] tbody tr').length >= 1"
"""The first round's result is in the page's score table (it stays there, unlike the results dialog,
which closes when the next round is dealt: 20 s later on a loaded machine may be before a test looks)."""


def round_over(page: Any) -> bool:
    return bool(page.evaluate(ROUND_ONE_OVER))


def results_open(page: Any) -> bool:
    """True while the page shows a round's results (nobody moves until the next round is dealt)."""
    return bool(page.evaluate("() => !!document.querySelector('[data-role=result]')?.open"))


def test_four_people_on_two_processes_play_a_round_and_one_is_played_for_then_comes_back(
    servers: tuple[Any, Any], people: list[Any]
) -> None:
    first, second = servers
    host = people[0]
    host.goto(f"{first.url}/thirteen/tables")
    host.fill('[data-role="create-table"] input[name="name"]', NAMES[0])
    host.select_option('[data-role="create-table"] select[name="grace_seconds"]', "15")
    host.click('[data-role="create-table"] button[type="submit"]')
    host.wait_for_url("**/thirteen/t/*")
    code = host.url.rsplit("/", 1)[1]
    # Bence on the owner's process; Chloé and Dev on the other one, relayed through Redis.
    for seat, (person, server) in enumerate(zip(people[1:], (first, second, second), strict=True), start=1):
        person.goto(f"{server.url}/thirteen/t/{code}")
        person.wait_for_selector('[data-role="seating"]:not([hidden])')
        person.fill('[data-role="seat-name"]', NAMES[seat])
        person.locator(".th-seating-seat").nth(seat).get_by_role("button", name="Sit here").click()
        host.wait_for_function(
            "name => document.querySelector('[data-role=people]').textContent.includes(name)",
            arg=NAMES[seat],
            polling=POLL,
        )
    host.get_by_role("button", name="Start the game").click()
    for person in people:
        person.wait_for_function(
            "() => document.querySelectorAll('.th-hand .card').length === 13", polling=POLL
        )

    hands = [set(hand(person)) for person in people]
    assert all(len(cards) == 13 for cards in hands)
    assert len(set().union(*hands)) == 52  # four different hands, one per person
    for seat, person in enumerate(people):
        others = set().union(*(cards for other, cards in enumerate(hands) if other != seat))
        everywhere = person.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
        assert not others & set(everywhere), f"{NAMES[seat]}'s page shows another hand's card"
        for name in NAMES:
            if name != NAMES[seat]:
                assert presence(person, name) == "Connected"

    for _ in range(160):  # a whole round: everyone passes when they may and leads their lowest card
        if any(round_over(person) for person in people):
            for person in people:
                person.wait_for_function(ROUND_ONE_OVER, polling=POLL)
            break
        mover = next_mover(people)
        if mover is None:
            people[0].wait_for_timeout(100)
            continue
        play_turn(mover)
    assert all(round_over(person) for person in people)
    # Every page shows the same result: the finishing order in the score table.
    orders = {person.locator("[data-role=scores] tbody tr").first.inner_text() for person in people}
    assert len(orders) == 1, orders

    # Dev (relayed) closes the tab: the others see him away, then played for by a computer player.
    leaver = people[3]
    context = leaver.context
    leaver.close()
    wait_presence(host, NAMES[3], "Away")
    for person in people[:3]:  # the results stay up until all have read them, or for 20 s
        continuing = person.locator('[data-action="continue"]')
        if continuing.is_visible():
            with contextlib.suppress(PlaywrightTimeout):  # the next round came first: nothing to press
                continuing.click(timeout=5_000)
    wait_presence(host, NAMES[3], f"A computer player is playing for {NAMES[3]}.")
    wait_presence(people[2], NAMES[3], f"A computer player is playing for {NAMES[3]}.")
    for person in people[:3]:
        person.wait_for_function(
            "() => document.querySelectorAll('.th-hand .card').length === 13", polling=POLL
        )
    # Round 2 is played on; when Dev's turn comes, the computer player moves for him.
    # A move for Dev shows as a card fewer in his fan, or as his turn seen and then gone (a pass).
    fan = f"name => ({SEAT_OF})(name).querySelectorAll('[data-role=fan] .card-back').length"
    dev_turn_seen = dev_moved = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        dev_turn = host.evaluate(f"name => ({SEAT_OF})(name).classList.contains('is-turn')", NAMES[3])
        dev_turn_seen = dev_turn_seen or dev_turn
        if (dev_turn_seen and not dev_turn) or host.evaluate(fan, NAMES[3]) < 13:
            dev_moved = True
            break
        mover = next_mover(people[:3])
        if mover is None:
            host.wait_for_timeout(100)
            continue
        play_turn(mover)
    assert dev_moved, f"no computer player moved for the person who left; the host saw:\n{frames(host)}"

    # Dev opens the link again (his seat token is in his browser's storage): the seat is his again.
    back = context.new_page()
    back.goto(f"{second.url}/thirteen/t/{code}")
    back.wait_for_function("() => document.querySelectorAll('.th-hand .card').length > 0", polling=POLL)
    assert back.locator(".th-me [data-role=name]").inner_text() == "You"
    wait_presence(host, NAMES[3], "Connected")
    wait_presence(people[2], NAMES[3], "Connected")
    shown = set(hand(back))
    for other in people[:3]:
        assert not shown & set(hand(other))
