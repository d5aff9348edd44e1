"""Keyboard play and the screen-reader mode: a whole Thirteen round and a whole TriPeaks game played with
keys only, the focus on the table after every move, deal and dialog; the same through the command box,
its words read from the event log."""

from __future__ import annotations

from typing import Any

import pytest
from test_phone import window
from thirteen_play import POLL, ROUNDS_OVER

pytestmark = pytest.mark.browser

FOCUS = """() => { const e = document.activeElement;
  return e === document.body || !e ? 'body' : (e.closest('.th-hand') ? 'hand'
    : e.closest('dialog') ? 'dialog:' + (e.dataset.action || e.tagName)
    : e.closest('[data-role=command]') ? 'command' : e.tagName + '.' + e.className); }"""
MY_TURN_OR_OVER = f"() => !!document.querySelector('.th-me.is-turn') || ({ROUNDS_OVER})() > 0"
LOG = "() => [...document.querySelectorAll('[data-role=event-log] li')].map(li => li.textContent)"
OWN_MOVES = f"() => ({LOG})().filter(line => line.startsWith('You play ') || line === 'You pass.').length"
"""How many of the person's own moves the event log has told (in English)."""


def open_thirteen(page: Any, base: str) -> None:
    """A new match against fast computer players, its hand shown."""
    page.frames_seen = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: page.frames_seen.append(f"OUT {f}"[:200])))
    page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda f: page.frames_seen.append(f"IN {f}"[:120]))
    )
    page.goto(f"{base}/thirteen")
    page.wait_for_selector(".th-hand .card")
    page.request.post(f"{base}/api/thirteen/settings", data={"speed": "fast"})
    page.reload()
    page.wait_for_selector(".th-hand .card")


def wait_for_turn(page: Any) -> None:
    """Wait until it is the page's person's turn or the round is over; say where the table was if not."""
    try:
        page.wait_for_function(MY_TURN_OR_OVER, polling=POLL, timeout=30_000)
    except Exception as error:
        status = page.text_content("[data-role=status]")
        raise AssertionError(f"no turn came: {status!r}; the log ends {page.evaluate(LOG)[-5:]}") from error


def wait_for_own_move(page: Any, moves: int) -> None:
    """Wait until the event log tells a move of the person's more than ``moves``, or the round ended
    (another seat's play may end it between the person's turn and their key)."""
    try:
        page.wait_for_function(
            f"(n) => ({OWN_MOVES})() > n || ({ROUNDS_OVER})() > 0", arg=moves, polling=POLL
        )
    except Exception as error:
        status = page.text_content("[data-role=status]")
        where = page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
        frames = "\n".join(page.frames_seen[-14:])
        raise AssertionError(
            f"move {moves + 1} was not told: {status!r}; the log ends {page.evaluate(LOG)[-6:]};"
            f" focus {where}\n{frames}"
        ) from error


def test_a_thirteen_round_is_played_with_the_keys_only(browser: Any, live_server: Any) -> None:
    with window(browser, (1280, 860)) as page:
        open_thirteen(page, live_server.url)
        assert page.evaluate(FOCUS) == "hand"  # the table has the focus from the first deal
        page.keyboard.press("h")
        page.wait_for_function(
            "() => document.querySelector('[data-role=announcer]').textContent.length > 10"
        )
        assert "♠" not in page.text_content("[data-role=announcer]")  # card names, not symbols
        moves = 0
        for _ in range(60):
            wait_for_turn(page)
            if page.evaluate(ROUNDS_OVER):
                break
            if page.evaluate("() => !document.querySelector('[data-action=pass]').disabled"):
                page.keyboard.press("x")
            else:
                page.keyboard.press("Home")  # the lowest card: a lead is always allowed
                page.keyboard.press("Space")
                # Raised: played at once when nothing could be added to it, else P plays it.
                page.wait_for_function(
                    f"(n) => ({OWN_MOVES})() > n"
                    " || document.querySelector('.th-table').dataset.verdict === 'wait'",
                    arg=moves,
                    polling=POLL,
                )
                if page.evaluate(OWN_MOVES) == moves:
                    page.keyboard.press("p")
            wait_for_own_move(page, moves)
            moves = page.evaluate(OWN_MOVES)
            assert page.evaluate(FOCUS) in ("hand", "dialog:continue"), (
                f"focus left the table after move {moves}"
            )
        assert page.evaluate(ROUNDS_OVER) == 1 and moves > 0
        page.wait_for_selector('[data-role="result"][open]')
        assert page.evaluate(FOCUS) == "dialog:continue"  # the round's window: Next round has the focus
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => !document.querySelector('[data-role=result]').open"
            f" && ({LOG})().some(line => line.startsWith('New round.'))",
            polling=POLL,
        )
        assert page.evaluate(FOCUS) == "hand"  # the next deal: back in the hand
        # "?" lists the keys; closing the list puts the focus back in the hand.
        page.keyboard.press("?")
        page.wait_for_selector("#th-keys[open]")
        assert page.locator("#th-keys kbd").count() >= 15
        page.keyboard.press("Escape")
        assert page.evaluate(FOCUS) == "hand"


def card_words(code: str, style: int) -> str:
    """A card as a person types it: "3♠", "3s" or "10h" (the ten as 10)."""
    rank = "10" if code[0] == "T" else code[0]
    suit = code[1]
    return rank + ({"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[suit] if style % 2 else suit.lower())


def test_a_thirteen_round_is_played_through_the_command_box(browser: Any, live_server: Any) -> None:
    with window(browser, (1280, 860)) as page:
        open_thirteen(page, live_server.url)
        assert page.locator("[data-role=command]").is_hidden()  # the mode is off until chosen
        page.keyboard.press("?")
        page.locator("#th-keys [data-role=reader-toggle]").check()
        page.locator("#th-keys [data-action=close-keys]").click()
        page.wait_for_selector("[data-role=command]")
        page.keyboard.press("/")
        assert page.evaluate(FOCUS) == "command"
        command = page.locator("#th-command")
        command.fill("zz")
        command.press("Enter")
        page.wait_for_function(f"() => ({LOG})().some(line => line.includes('zz'))", polling=POLL)
        moves = 0
        for turn in range(60):
            wait_for_turn(page)
            if page.evaluate(ROUNDS_OVER):
                break
            if page.evaluate("() => !document.querySelector('[data-action=pass]').disabled"):
                command.fill("pass")
            else:
                lowest = page.locator(".th-hand .card").first.get_attribute("data-card")
                command.fill(("play " if turn % 3 == 0 else "") + card_words(lowest or "", turn))
            command.press("Enter")
            wait_for_own_move(page, moves)
            moves = page.evaluate(OWN_MOVES)
            focus = page.evaluate(FOCUS)
            where = page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
            assert focus == "command", f"the focus left the command box after move {moves}: {where}"
        page.wait_for_selector('[data-role="result"][open]')
        assert page.evaluate(FOCUS) == "command"
        log = page.evaluate(LOG)
        assert any(line.startswith("New round.") for line in log) or moves > 0
        assert any(line.startswith("You play ") for line in log) or any(line == "You pass." for line in log)
        assert any(" plays " in line or line.endswith(" passes.") for line in log)  # the others' moves
        assert any(line.startswith("The round is over.") and "Points:" in line for line in log)
        # Every one of the person's own moves is in the log, in order, and no other seat's cards.
        own = [line for line in log if line.startswith("You play ") or line == "You pass."]
        assert len(own) == moves
        command.fill("next")
        command.press("Enter")
        page.wait_for_function("() => !document.querySelector('[data-role=result]').open", polling=POLL)
        assert page.evaluate(FOCUS) == "command"
        # Kept with the player: the next visit is in the mode.
        page.reload()
        page.wait_for_selector("[data-role=command]")
        assert page.evaluate("() => document.documentElement.dataset.reader") == "on"


TP_FOCUS = """() => { const e = document.activeElement;
  return !e || e === document.body ? 'body' : e.classList.contains('card-slot') ? 'card'
    : e.id === 'stock' ? 'stock' : e.id ? e.id : e.tagName; }"""


def winnable_line() -> tuple[int, list[str]]:
    """A numbered Easy game that can be won, and the solver's winning line."""
    from parlour.tripeaks import DealCode, Game
    from parlour.tripeaks.rules import EASY
    from parlour.tripeaks.solver import numbered_result, solve

    number = next(n for n in range(1234, 2000) if (r := numbered_result(EASY, n)) is not None and r.winnable)
    return number, list(solve(Game.from_code(DealCode(number, EASY))).line)


def open_tripeaks(page: Any, base: str, number: int) -> None:
    page.goto(f"{base}/tripeaks?number={number}&rules=easy")
    page.wait_for_selector('.tripeaks[data-state="playing"]')


def test_a_tripeaks_game_is_won_with_the_keys_only(browser: Any, live_server: Any) -> None:
    number, line = winnable_line()
    with window(browser, (1280, 860)) as page:
        open_tripeaks(page, live_server.url, number)
        assert page.evaluate(TP_FOCUS) == "card"  # the table has the focus from the deal
        for index, move in enumerate(line):
            before = page.text_content("#moves")
            if move == "draw":
                page.keyboard.press("d")
            else:
                for _ in range(12):  # the arrows go round the free cards, left to right
                    if page.evaluate("() => document.activeElement.dataset.card") == move:
                        break
                    page.keyboard.press("ArrowRight")
                assert page.evaluate("() => document.activeElement.dataset.card") == move, f"no way to {move}"
                page.keyboard.press("Enter")
            page.wait_for_function("(m) => document.querySelector('#moves').textContent !== m", arg=before)
            if index < len(line) - 1:
                assert page.evaluate(TP_FOCUS) in ("card", "stock"), (
                    f"the focus left the board after move {index + 1}"
                )
        page.wait_for_selector("#ending:not([hidden])")
        assert page.evaluate(TP_FOCUS) == "ending-new"  # the end window: New game has the focus
        page.keyboard.press("s")
        page.wait_for_function("() => document.querySelector('#announcer').textContent.startsWith('Score')")
        page.keyboard.press("Tab")
        assert page.evaluate(TP_FOCUS) != "body"


def test_a_tripeaks_game_is_won_through_the_command_box(browser: Any, live_server: Any) -> None:
    number, line = winnable_line()
    with window(browser, (1280, 860)) as page:
        open_tripeaks(page, live_server.url, number)
        page.evaluate(
            """async () => { await fetch('/api/preferences', {method: 'POST',
                 headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({screen_reader: true})}); }"""
        )
        page.reload()
        page.wait_for_selector('.tripeaks[data-state="playing"]')
        page.keyboard.press("/")
        command = page.locator("#tp-command")
        assert page.evaluate(TP_FOCUS) == "tp-command"
        for bad in ("zz", "play 1x"):
            command.fill(bad)
            command.press("Enter")
        page.wait_for_function(
            f"() => ({LOG})().filter(line => line.startsWith('Not a card')).length === 2", polling=POLL
        )
        for index, move in enumerate(line):
            before = page.text_content("#moves")
            typed = move if move == "draw" else card_words(move, index)
            command.fill(("play " + typed) if index % 4 == 1 and move != "draw" else typed)
            command.press("Enter")
            page.wait_for_function("(m) => document.querySelector('#moves').textContent !== m", arg=before)
            assert page.evaluate(TP_FOCUS) == "tp-command", (
                f"the focus left the command box after move {index + 1}"
            )
        page.wait_for_selector("#ending:not([hidden])")
        assert page.evaluate(TP_FOCUS) == "tp-command"
        page.wait_for_function(f"() => ({LOG})().some(line => line.startsWith('You won!'))", polling=POLL)
        log = page.evaluate(LOG)
        assert sum(line.endswith(" drawn.") for line in log) == line.count("draw")
        assert sum(" removed." in line for line in log) == len(line) - line.count("draw")
        command.fill("undo")
        command.press("Enter")  # a won game cannot be taken back: the server's reason is logged
        page.wait_for_function(f"(n) => ({LOG})().length > n", arg=len(log), polling=POLL)
