"""The review of a finished Thirteen match on a phone: the four hands as dealt, stepped through with
the arrow keys and the slider, the person's decisions graded in the list; a match in play has none."""

from __future__ import annotations

from typing import Any

from parlour.thirteen import Match, Rules

CODE = "TH1-AAAAAAC"
ONE_POINT = Rules(target_points=1)
BOTS = [{"kind": "bot", "strength": "greedy"}] * 3
CARDS_SHOWN = "() => [...document.querySelectorAll('.th-review-cards')].map(e => e.children.length)"


def one_round() -> list[str]:
    match = Match.from_code(CODE, ONE_POINT)
    moves: list[str] = []
    while not match.over:
        seat = match.turn
        assert seat is not None
        move = match.legal_moves(seat)[0]
        match.apply(seat, move)
        moves.append(str(move))
    return moves


def test_a_finished_match_is_reviewed_on_a_phone(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    context.set_default_timeout(20_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/language/fr?next=/")
        assert page.request.post(f"{live_server.url}/api/player").ok
        token = next(c["value"] for c in context.cookies() if c["name"] == "parlour_token")
        store = live_server.store
        me = store.player_by_token(token).player_id
        moves = one_round()
        playing = store.start_game(me, "thirteen", ONE_POINT, CODE, ["human", *BOTS])
        store.append_moves(playing, me, 0, moves[:6])
        answer = page.goto(f"{live_server.url}/thirteen/review/{playing}")
        assert answer is not None and answer.status == 409  # its hands are still hidden: no review
        store.finish_game(playing, me)  # left unfinished: never reviewed
        answer = page.goto(f"{live_server.url}/thirteen/review/{playing}")
        assert answer is not None and answer.status == 404
        done = store.start_game(me, "thirteen", ONE_POINT, CODE, ["human", *BOTS])
        store.append_moves(done, me, 0, moves)
        store.finish_game(done, me)

        page.goto(f"{live_server.url}/thirteen/review/{done}")
        page.wait_for_selector("#moves li")
        assert page.locator(".th-review-seat").count() == 4
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        assert "Décisions" in page.text_content("main")
        page.keyboard.press("Home")
        assert page.evaluate(CARDS_SHOWN) == [13, 13, 13, 13]  # every hand as dealt
        assert page.text_content("#step-text") == "Manche 1"
        page.keyboard.press("ArrowRight")
        assert page.text_content("#step-text").startswith("1. Manche 1")
        assert sum(page.evaluate(CARDS_SHOWN)) == 51 and page.locator("#table-cards .th-mini").count() == 1
        page.keyboard.press("End")
        assert page.locator("#next").is_disabled()
        played = sum(len(move.split()) for move in moves if move != "pass")
        assert sum(page.evaluate(CARDS_SHOWN)) == 52 - played  # the cards left when the round ended
        graded = page.locator("#moves li[data-grade]")
        assert graded.count() > 0  # the person's decisions, graded
        graded.first.locator("button").click()
        step = int(graded.first.get_attribute("data-step") or 0)
        assert page.get_attribute(f"#moves li[data-step='{step}']", "aria-current") is not None
        assert page.locator("#slider").input_value() == str(step)
    finally:
        context.close()
    assert errors == []
