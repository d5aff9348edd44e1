"""Try again from here (issue 53): in the review of a lost TriPeaks game, on a phone, play on from the
move before the one that lost it, with the solver's verdict after each move; undo; back to the review."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from test_tripeaks_review import lost_numbered_game, player_of

from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.rules import EASY
from parlour.tripeaks.solver.solve import solve


def test_try_again_from_before_the_losing_move(browser: Any, live_server: Any) -> None:
    number, moves, lost_at = lost_numbered_game()
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/tripeaks")
        page.wait_for_function("() => document.querySelector('.tripeaks').dataset.state === 'playing'")
        store = live_server.store
        me = player_of(page, live_server)
        code = str(DealCode(number, EASY))
        game_id = store.start_game(me, "tripeaks", "easy", code, ["human"], numbered=number)
        store.append_moves(game_id, me, 0, moves)
        store.finish_game(game_id, me)
        page.goto(f"{live_server.url}/tripeaks/review/{game_id}")
        expect(page.locator("#try-here")).to_be_visible()
        page.keyboard.press("ArrowLeft")  # the position before the losing move
        page.locator("#try-here").click()
        verdict = page.locator("#try-verdict")
        expect(verdict).to_contain_text("Still winnable")
        # Play the solver's win from there, one button a move: the verdict says how many moves are left.
        start = Game.from_code(code)
        for move in moves[: lost_at - 1]:
            start.apply(move)
        line = list(solve(start).line)
        for count, move in enumerate(line[:3]):
            page.locator(f'#try-moves [data-move="{move}"]').click()
            expect(verdict).to_contain_text(f"a win in {len(line) - count - 1} more moves")
        page.locator("#try-undo").click()
        expect(verdict).to_contain_text(f"a win in {len(line) - 2} more moves")
        losing = moves[lost_at - 1]
        page.locator("#try-undo").click()
        page.locator("#try-undo").click()
        expect(verdict).to_contain_text(f"a win in {len(line)} more moves")
        page.locator(f'#try-moves [data-move="{losing}"]').click()
        expect(verdict).to_contain_text("Lost from here")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        page.locator("#try-back").click()
        expect(page.locator("#try-panel")).to_be_hidden()
        assert live_server.store.game_outcome(game_id, me) is not None  # nothing of the try was kept
    finally:
        context.close()
