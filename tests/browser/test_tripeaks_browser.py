"""TriPeaks in a real browser: a deal won by clicking, draw and undo, error help in Hindi and Hungarian,
a pasted code, the stuck ending, keyboard play, language switching, page weight and local requests."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect
from scripted_deals import chain_deal, chain_moves
from tripeaks_play import play_moves

SPEC_BOTTOM_ROW = ["2C", "AD", "6S", "KC", "KH", "TH", "TS", "JS", "TD", "8S"]


def open_table(page: Any, deal: str | None = None, lang: str | None = None) -> None:
    """Open the TriPeaks page (in ``lang``), first dealing an explicit layout when one is given."""
    if lang is not None:
        page.goto(f"{page.base_url}/language/{lang}?next=/tripeaks")
    else:
        page.goto(f"{page.base_url}/tripeaks")
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    if deal is not None:
        answer = page.evaluate(
            """async (deal) => {
                const response = await fetch("/api/games/tripeaks", {method: "POST",
                    headers: {"Content-Type": "application/json"}, body: JSON.stringify({deal})});
                return response.status;
            }""",
            deal,
        )
        assert answer == 201
        page.reload()
        expect(page.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    expect(page.locator("#stock-count")).not_to_have_text("")


def slot(page: Any, card: str) -> Any:
    return page.locator(f'.card-slot[data-card="{card}"]')


def test_a_deal_is_won_by_clicking_after_a_draw_and_an_undo(page: Any) -> None:
    open_table(page, chain_deal().to_text())
    discard = page.locator("#discard")
    expect(discard).to_have_attribute("data-card", "5C")
    page.locator("#stock").click()
    expect(page.locator("#stock-count")).to_have_text("22")
    expect(discard).not_to_have_attribute("data-card", "5C")
    page.locator("#undo-button").click()
    expect(page.locator("#stock-count")).to_have_text("23")
    expect(discard).to_have_attribute("data-card", "5C")
    for card in chain_moves():
        slot(page, card).click()
        expect(discard).to_have_attribute("data-card", card)
    expect(page.locator("#ending")).to_be_visible()
    expect(page.locator("#ending-title")).to_have_text("You won!")
    assert page.locator(".felt .confetti").count() > 0  # a win is celebrated
    expect(page.locator("#score")).to_have_text("772")
    expect(page.locator("#moves")).to_have_text("29")  # the undo is not a move
    expect(page.locator("#ending-undo")).to_be_hidden()


def test_refused_taps_show_error_help_in_hindi_then_hungarian(page: Any) -> None:
    open_table(page, chain_deal().to_text(), lang="hi")
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    help_text = page.locator("#help-message")
    slot(page, "7C").click()  # on the 5: not adjacent
    expect(help_text).to_have_text("दर्जा ठीक एक अधिक या एक कम होना चाहिए")
    page.locator(".card-slot").nth(0).click(force=True)  # a face-down peak top
    expect(help_text).to_have_text("यह पत्ता अवरुद्ध है")
    page.get_by_role("link", name="Magyar").click()
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.locator("#new-game-button")).to_have_text("Új játszma")
    slot(page, "7C").click()
    expect(help_text).to_have_text("Eggyel magasabb vagy alacsonyabb értékűnek kell lennie")
    page.locator(".card-slot").nth(0).click(force=True)
    expect(help_text).to_have_text("Ez a lap blokkolva van")
    expect(page.locator("#board-description")).to_contain_text("Húzópakli: 23 lap; dobópakli: treff 5.")
    # With error help off, a refused tap stays silent.
    page.locator("#settings-button").click()
    page.locator("#setting-error-help").uncheck()
    page.locator("#settings-dialog button[type=submit]").click()
    slot(page, "7C").click()
    page.wait_for_timeout(300)
    expect(help_text).to_be_hidden()


def test_covered_cards_are_said_to_be_unavailable_until_they_are_freed(page: Any) -> None:
    open_table(page, chain_deal().to_text())
    cards = page.locator(".card-slot")
    for p in range(18):  # the three upper rows are covered at the start, the bottom row is not
        expect(cards.nth(p)).to_have_attribute("aria-disabled", "true")
    for p in range(18, 28):
        expect(cards.nth(p)).to_have_attribute("aria-disabled", "false")
    expect(page.get_by_role("button", name="hidden card", disabled=True)).to_have_count(18)
    for card in chain_moves()[:4]:  # the four left bottom cards: the third row's 9, 10 and 11 are freed
        slot(page, card).click()
        expect(page.locator("#discard")).to_have_attribute("data-card", card)
    for p in (9, 10, 11):
        expect(cards.nth(p)).to_have_attribute("aria-disabled", "false")
    expect(cards.nth(12)).to_have_attribute("aria-disabled", "true")  # 22 still covers it


def test_a_pasted_code_deals_the_same_cards(page: Any) -> None:
    open_table(page)
    page.locator("#new-game-button").click()
    page.locator('input[name="code"]').fill("not a code")
    page.locator("#new-game-deal").click()
    expect(page.locator("#new-game-error")).to_contain_text("TP1-E-AAAAAAB")
    page.locator('input[name="code"]').fill("tp1-e-aaaaaab")
    page.locator("#new-game-deal").click()
    expect(page.locator("#deal-code")).to_have_text("TP1-E-AAAAAAB")
    expect(page.locator("#discard")).to_have_attribute("data-card", "QC")
    bottom = page.locator(".card-slot").evaluate_all("slots => slots.slice(18).map(s => s.dataset.card)")
    assert bottom == SPEC_BOTTOM_ROW
    assert page.locator(".card-slot.face-down").count() == 18


def test_keyboard_play_reaches_the_stuck_ending_and_undo_reopens_it(page: Any) -> None:
    open_table(page, chain_deal().to_text())
    # The deal gives the focus to the first free card from the left: 6♣, which fits the 5♣.
    expect(page.locator(".card-slot").nth(18)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#discard")).to_have_attribute("data-card", "6C")
    expect(page.locator("#announcer")).to_contain_text("6 of clubs")
    # The focus stays on the board, on the next free card at the played card's place (not <body>).
    focused = page.evaluate("document.activeElement.className")
    assert "card-slot" in focused and "free" in focused, focused
    page.keyboard.press("u")
    expect(page.locator("#discard")).to_have_attribute("data-card", "5C")
    for _ in range(23):
        page.keyboard.press("d")
    expect(page.locator("#ending-title")).to_have_text("No more moves possible")
    expect(page.locator(".tripeaks")).to_have_attribute("data-state", "stuck")
    page.locator("#ending-undo").click()
    expect(page.locator("#ending")).to_be_hidden()
    expect(page.locator("#stock-count")).to_have_text("1")


def test_a_page_load_is_small_and_stays_on_this_machine(page: Any) -> None:
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    open_table(page)
    page.wait_for_load_state("networkidle")
    urls = [seen.url for seen in page.requests_seen] + sockets
    assert urls and all(url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:")) for url in urls), urls
    transferred = sum(seen.transferred for seen in page.requests_seen)
    assert transferred < 300_000, (
        f"{transferred} bytes: {json.dumps([s.__dict__ for s in page.requests_seen])}"
    )


def test_numbered_games_show_the_verdict_and_the_hint_button_points_at_a_move(page: Any) -> None:
    solver = pytest.importorskip("parlour.tripeaks.solver")
    page.goto(f"{page.base_url}/tripeaks?number=123&rules=easy")
    expect(page.locator("#game-number")).to_have_text("Game #123")
    census = solver.numbered_result("easy", 123)
    expect(page.locator("#winnable")).to_have_text(f"Winnable in {census.moves} moves")
    if not solver.compiled_available():
        expect(page.locator("#hint-button")).to_have_count(0)  # too slow without the compiled core
        return
    page.locator("#hint-button").click()
    expect(page.locator("#help-message")).to_contain_text("Hint:")
    assert page.locator(".hinted").count() == 1
    # A Simple hint is greedy play's own move, with its chance; the choice is kept for the player.
    from parlour.tripeaks import DealCode, Game
    from parlour.tripeaks.rules import EASY
    from parlour.tripeaks.solver.players import greedy_move

    page.locator("#settings-button").click()
    with page.expect_response("**/api/preferences") as saved:
        page.locator("#setting-hint-strength").select_option("greedy")
    assert saved.value.status == 200
    page.locator("#settings-dialog button[type=submit]").click()
    page.locator("#hint-button").click()
    expect(page.locator("#help-message")).to_contain_text("Chance of winning")
    card = greedy_move(Game.from_code(DealCode(123, EASY)))
    expect(page.locator(".hinted")).to_have_count(1)
    if card != "draw":
        expect(page.locator(".hinted")).to_have_attribute("data-card", card)
    page.reload()
    expect(page.locator("#setting-hint-strength")).to_have_value("greedy")


def test_winning_a_numbered_game_first_says_so_in_the_end_window(page: Any) -> None:
    solver = pytest.importorskip("parlour.tripeaks.solver")
    from parlour.tripeaks import DealCode, Game
    from parlour.tripeaks.rules import EASY

    number = next(n for n in range(4242, 5000) if solver.numbered_result(EASY, n).winnable)
    line = solver.solve(Game.from_code(DealCode(number, EASY))).line
    page.goto(f"{page.base_url}/tripeaks?number={number}&rules=easy")
    expect(page.locator("#game-number")).to_have_text(f"Game #{number}")
    play_moves(page, line)
    expect(page.locator("#ending-title")).to_have_text("You won!")
    expect(page.locator("#ending-news")).to_have_text(f"You are the first to win game #{number}!")


def test_restart_deals_the_same_cards_again(page: Any) -> None:
    page.goto(f"{page.base_url}/tripeaks?code=TP1-C-AAAAAAD")
    expect(page.locator("#deal-code")).to_have_text("TP1-C-AAAAAAD")
    expect(page.locator("#restart-button")).to_be_disabled()  # nothing to restart before a move
    page.locator("#stock").click()
    expect(page.locator("#moves")).to_have_text("1")
    page.on("dialog", lambda dialog: pytest.fail(f"the browser's own box was opened: {dialog.message}"))
    page.locator("#restart-button").click()  # the page's own dialog asks first; Escape keeps the game
    expect(page.locator("#restart-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#restart-dialog")).to_be_hidden()
    expect(page.locator("#moves")).to_have_text("1")
    page.locator("#restart-button").click()
    page.locator("#restart-confirm").click()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#stock-count")).to_have_text("23")
    expect(page.locator("#deal-code")).to_have_text("TP1-C-AAAAAAD")


def test_a_card_dragged_onto_the_discard_pile_is_played(page: Any) -> None:
    open_table(page, chain_deal().to_text())
    discard = page.locator("#discard")
    first = chain_moves()[0]
    card = slot(page, first)
    start, pile = card.bounding_box(), discard.bounding_box()
    assert start is not None and pile is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + 40, start["y"] + 60, steps=4)
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    page.mouse.up()
    expect(discard).to_have_attribute("data-card", first)
    expect(page.locator("#moves")).to_have_text("1")
    # Dropped elsewhere, a card goes back and nothing is played.
    second = slot(page, chain_moves()[1])
    box = second.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] - 120, box["y"] - 40, steps=6)
    page.mouse.up()
    expect(page.locator("#moves")).to_have_text("1")


def test_a_win_is_not_animated_for_a_player_who_prefers_reduced_motion(page: Any) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_table(page, chain_deal().to_text())
    for card in chain_moves():
        slot(page, card).click()
        expect(page.locator("#discard")).to_have_attribute("data-card", card)
    expect(page.locator("#ending-title")).to_have_text("You won!")
    assert page.locator(".confetti").count() == 0


def test_a_game_replaced_in_another_tab_says_so_and_stays_quiet(page: Any) -> None:
    """Two tabs of one player: a new game dealt in the second leaves the first saying, in its language,
    that the game was ended elsewhere (not "could not be saved"), and it does not reconnect."""
    open_table(page, lang="fr")
    second = page.context.new_page()
    second.goto(f"{page.base_url}/tripeaks")
    expect(second.locator(".tripeaks")).to_have_attribute("data-state", "playing")
    status = second.evaluate(
        """async () => (await fetch("/api/games/tripeaks", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: "{}"})).status"""
    )
    assert status == 201
    ended = "Cette partie a été terminée dans une autre fenêtre ou un autre onglet."
    expect(page.locator("#help-message")).to_contain_text(ended)
    expect(page.locator(".tripeaks")).to_have_attribute("data-connection", "ended")
    page.locator("#stock").click()  # a click on the old board changes nothing and asks for no retry
    page.wait_for_timeout(300)
    expect(page.locator("#help-message")).to_contain_text(ended)
    second.close()


@pytest.mark.parametrize("size", [(1280, 800), (360, 740), (390, 844)])
def test_the_help_message_is_on_the_screen_wherever_the_board_is(
    browser: Any, live_server: Any, size: Any
) -> None:
    """A refused tap's help shows inside the window, at the top of the page and scrolled to the piles,
    and taps still reach the cards under it."""
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, bypass_csp=True, has_touch=True
    )
    page = context.new_page()
    page.base_url = live_server.url
    try:
        open_table(page, chain_deal().to_text())
        for scrolled in (False, True):
            if scrolled:
                page.locator("#stock").scroll_into_view_if_needed()
            slot(page, "7C").click()  # on the 5: not adjacent
            message = page.locator("#help-message")
            expect(message).to_have_text("Rank must be exactly one higher or lower")
            box = message.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (size, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, box)
        page.locator("#stock").click()  # under the message on a phone: the tap still draws
        expect(page.locator("#stock-count")).to_have_text("22")
    finally:
        context.close()
