"""The review of a lost numbered TriPeaks game, in a phone's window and in Hindi: stepped through with
the arrow keys, opened at the move that lost the game, and the shortest win from before it played out
on the board; a game still in play has no review; a stuck game's "Review this game" ends it and opens
its review."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from tripeaks_play import play_moves

from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.game import PLAYING
from parlour.tripeaks.rules import EASY
from parlour.tripeaks.solver.players import greedy_move
from parlour.tripeaks.solver.review import review_game

OVERFLOW = "() => document.documentElement.scrollWidth"
CARDS_ON_BOARD = "() => document.querySelectorAll('#board .card-slot:not([hidden])').length"


def lost_numbered_game() -> tuple[int, list[str], int]:
    """A numbered Easy deal greedy play loses though it could be won: its number, the moves and the
    move that lost it."""
    for number in range(1, 200):
        game = Game.from_code(DealCode(number, EASY))
        played, moves = game.copy(), []
        while played.status == PLAYING:
            move = greedy_move(played)
            played.apply(move)
            moves.append(move)
        review = review_game(game, moves, honest=False)
        lost_at = review.first_losing_move or 0
        if lost_at > 1 and played.status != "won":
            return number, moves, lost_at
    raise AssertionError("no numbered deal of the first 200 is lost by greedy play")


def player_of(page: Any, live_server: Any) -> int:
    token = next(cookie["value"] for cookie in page.context.cookies() if cookie["name"] == "parlour_token")
    player = live_server.store.player_by_token(token)
    assert player is not None
    return int(player.player_id)


def test_a_lost_game_is_reviewed_on_a_phone_in_hindi(browser: Any, live_server: Any) -> None:
    number, moves, lost_at = lost_numbered_game()
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/language/hi?next=/tripeaks")
        page.wait_for_selector("#board .card-slot")
        page.wait_for_function("() => document.querySelector('.tripeaks').dataset.state === 'playing'")
        store = live_server.store
        me = player_of(page, live_server)
        code = str(DealCode(number, EASY))
        playing = store.start_game(me, "tripeaks", "easy", code, ["human"], numbered=number)
        store.append_moves(playing, me, 0, moves[:3])
        answer = page.goto(f"{live_server.url}/tripeaks/review/{playing}")
        assert answer is not None and answer.status == 409  # its cards are still hidden: no review
        assert "अभी चल रहा है" in page.text_content("main")
        store.finish_game(playing, me)
        done = store.start_game(me, "tripeaks", "easy", code, ["human"], numbered=number)
        store.append_moves(done, me, 0, moves)
        store.finish_game(done, me)

        page.goto(f"{live_server.url}/tripeaks/review/{done}")
        page.wait_for_selector("#moves li")
        summary = page.text_content(".review-summary")
        assert "यह बँटवारा जीता जा सकता था" in summary and f"चाल {lost_at}" in summary
        assert page.evaluate(OVERFLOW) <= 360
        # It opens at the move that lost the game, marked in the list.
        assert page.text_content("#step-text").startswith(f"{lost_at}. ")
        assert page.get_attribute(f"#moves li[data-step='{lost_at}']", "data-lost") == "true"
        page.keyboard.press("ArrowLeft")
        assert page.text_content("#step-text").startswith(f"{lost_at - 1}. ")
        page.keyboard.press("Home")
        assert page.locator("#previous").is_disabled()
        # The shortest win from just before the losing move, played out to the last card.
        page.click("#best-line")
        assert page.get_attribute("#best-line", "aria-pressed") == "true"
        before = page.evaluate(CARDS_ON_BOARD)
        assert before > 0
        while not page.locator("#next").is_disabled():
            page.keyboard.press("ArrowRight")
        assert page.evaluate(CARDS_ON_BOARD) == 0
        page.click("#best-line")
        assert page.text_content("#step-text").startswith(f"{lost_at - 1}. ")
        # Another player's game, and none, are no page.
        stranger = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            other = stranger.new_page().goto(f"{live_server.url}/tripeaks/review/{done}")
            assert other is not None and other.status == 404
        finally:
            stranger.close()
    finally:
        context.close()


def test_review_this_game_on_a_stuck_game_ends_it_and_opens_its_review(page: Any, live_server: Any) -> None:
    number, moves, lost_at = lost_numbered_game()
    page.goto(f"{live_server.url}/tripeaks?number={number}&rules=easy")
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    play_moves(page, moves)
    expect(page.locator("#ending")).to_be_visible()
    expect(page.locator("#ending-title")).to_have_text("No more moves possible")
    store = live_server.store
    me = player_of(page, live_server)
    [stuck] = store.open_games(me, "tripeaks")  # stuck is not over: undo could still take it back
    assert stuck.numbered == number and list(stuck.moves) == moves
    page.locator("#ending-review").click()
    page.wait_for_url(f"**/tripeaks/review/{stuck.id}")
    page.wait_for_selector("#moves li")
    assert store.open_games(me, "tripeaks") == []  # the review ended it first
    assert page.locator("#moves li").count() >= len(moves)
    assert page.text_content("#step-text").startswith(f"{lost_at}. ")
