"""Take the screenshots of docs/screenshots/ with Debian's Chromium (run from the repository root).

Run: ``.venv/bin/python scripts/screenshots.py`` (or with ``PYTHONPATH=src``). It starts its own server
on a free port with a temporary database, plays a few scripted positions and saves PNG files;
``scripts/screenshots.py review`` takes the review's shot alone, ``scripts/screenshots.py looks`` those of
the decks and themes.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "server")]

import uvicorn  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from scripted_deals import chain_deal, chain_moves  # noqa: E402

from parlour.cli.serve import bind  # noqa: E402
from parlour.games.registry import default_registry  # noqa: E402
from parlour.server.app import create_app  # noqa: E402
from parlour.store import Store  # noqa: E402
from parlour.tripeaks.definition import TriPeaksDefinition  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def deal(page: Page, layout: str) -> None:
    page.evaluate(
        """async (deal) => { await fetch("/api/games/tripeaks", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({deal})}); }""",
        layout,
    )
    page.reload()
    page.wait_for_selector('.tripeaks[data-state="playing"]')


def numbered_win(page: Page, base: str) -> None:
    """Win a numbered game with the solver's line: the end window with its record news."""
    from parlour.tripeaks import DealCode, Game
    from parlour.tripeaks.rules import EASY
    from parlour.tripeaks.solver import numbered_result, solve

    number = next(n for n in range(1234, 2000) if (r := numbered_result(EASY, n)) is not None and r.winnable)
    page.goto(f"{base}/tripeaks?number={number}&rules=easy")
    page.wait_for_selector('.tripeaks[data-state="playing"]')
    for move in solve(Game.from_code(DealCode(number, EASY))).line:
        before = page.text_content("#moves")
        page.click("#stock" if move == "draw" else f'.card-slot[data-card="{move}"]')
        page.wait_for_function("m => document.querySelector('#moves').textContent !== m", arg=before)
    page.wait_for_selector("#ending-news:not([hidden])")
    page.wait_for_timeout(2800)  # after the confetti
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "tripeaks-record-news.png"))


def thirteen_trick(page: Page, base: str, name: str, lang: str = "en", full_page: bool = False) -> None:
    """A Thirteen trick under way: the trick's plays in order, the hand, the commitment."""
    page.goto(f"{base}/language/{lang}?next=/")
    page.request.post(f"{base}/api/thirteen/settings", data={"speed": "fast"})
    page.request.post(f"{base}/api/games/thirteen", data={"code": "TH1-AAAAAAC", "strength": "greedy"})
    page.goto(f"{base}/thirteen")
    page.wait_for_selector(".th-hand .card")
    page.click('.th-hand .card[data-card="3S"]')
    page.wait_for_timeout(300)
    page.click('[data-action="play"]')
    page.wait_for_timeout(2600)
    page.mouse.move(5, 5)
    page.screenshot(path=str(OUT / name), full_page=full_page)


def review(page: Page, base: str, store: Store) -> None:
    """The review of a numbered game greedy play lost though it could be won, at the move that lost it."""
    from parlour.tripeaks import DealCode, Game
    from parlour.tripeaks.game import PLAYING
    from parlour.tripeaks.rules import EASY
    from parlour.tripeaks.solver.players import greedy_move
    from parlour.tripeaks.solver.review import review_game

    for number in range(1234, 1400):
        game = Game.from_code(DealCode(number, EASY))
        moves: list[str] = []
        while game.status == PLAYING:
            moves.append(game.apply(greedy_move(game)))
        start = Game.from_code(DealCode(number, EASY))
        if (review_game(start, moves, honest=False).first_losing_move or 0) > 5:
            break
    page.goto(f"{base}/tripeaks?number={number}&rules=easy")
    page.wait_for_selector('.tripeaks[data-state="playing"]')
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "parlour_token")
    player = store.player_by_token(token)
    assert player is not None
    code = str(game.code)
    game_id = store.start_game(player.player_id, "tripeaks", "easy", code, ["human"], numbered=number)
    store.append_moves(game_id, player.player_id, 0, moves)
    store.finish_game(game_id, player.player_id)
    page.goto(f"{base}/tripeaks/review/{game_id}")
    page.wait_for_selector("#moves li")
    page.wait_for_timeout(300)
    page.screenshot(path=str(OUT / "tripeaks-review.png"))


def looks(browser: Any, base: str, store: Store) -> None:
    """The decks and themes a player may choose (the player page's preferences), one shot each."""
    shots = [
        ("thirteen-four-colour.png", "thirteen", {"deck": "four_colour"}),
        ("tripeaks-large-cards-phone.png", "tripeaks", {"card_size": "large", "deck": "four_colour"}),
        ("thirteen-dark.png", "thirteen", {"theme": "dark"}),
        ("tripeaks-high-contrast.png", "tripeaks", {"theme": "high_contrast", "deck": "four_colour"}),
    ]
    for name, game, chosen in shots:
        phone = "phone" in name
        size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 860}
        page = browser.new_page(viewport=size, device_scale_factor=2 if phone else 1)
        page.goto(f"{base}/tripeaks?code=TP1-E-AAAAAAB")  # the player exists from here on
        page.wait_for_selector('.tripeaks[data-state="playing"]')
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "parlour_token")
        player = store.player_by_token(token)
        assert player is not None
        store.set_preferences(player.player_id, **chosen)
        if game == "thirteen":
            thirteen_trick(page, base, name)
        else:
            page.reload()
            page.wait_for_selector('.tripeaks[data-state="playing"]')
            for card in ("KC", "AD", "2C"):
                page.click(f'.card-slot[data-card="{card}"]')
                page.wait_for_timeout(350)
            page.mouse.move(5, 5)
            page.wait_for_timeout(400)
            page.screenshot(path=str(OUT / name))
        page.close()


def main() -> None:
    only = sys.argv[1:]  # names of shots to take again (``review``), or none for all
    folder = tempfile.mkdtemp()
    store = Store(f"sqlite:///{folder}/shots.db")
    games = default_registry().with_games(TriPeaksDefinition(explicit_deals=True))
    listener = bind("127.0.0.1", 0)
    base = f"http://127.0.0.1:{listener.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(create_app(store, games=games), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        if "looks" in only:
            looks(browser, base, store)
        if "review" in only or not only:
            review(browser.new_page(viewport={"width": 1280, "height": 1180}), base, store)
        if only:
            browser.close()
            server.should_exit = True
            return
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(f"{base}/tripeaks?code=TP1-E-AAAAAAB")
        page.wait_for_selector('.tripeaks[data-state="playing"]')
        for card in ("KC", "AD", "2C", "KH"):
            page.click(f'.card-slot[data-card="{card}"]')
            page.wait_for_timeout(350)
        page.mouse.move(5, 5)
        page.wait_for_timeout(400)
        page.screenshot(path=str(OUT / "tripeaks.png"))

        page.goto(f"{base}/language/hi?next=/tripeaks")
        deal(page, chain_deal().to_text())
        page.click('.card-slot[data-card="7C"]')
        page.mouse.move(5, 5)
        page.wait_for_timeout(400)
        page.screenshot(path=str(OUT / "tripeaks-hi-error-help.png"))

        page.goto(f"{base}/language/hu?next=/tripeaks")
        deal(page, chain_deal().to_text())
        for card in chain_moves():
            page.click(f'.card-slot[data-card="{card}"]')
        page.wait_for_selector("#ending:not([hidden])")
        page.wait_for_timeout(600)
        page.screenshot(path=str(OUT / "tripeaks-hu-won.png"))

        looks(browser, base, store)
        numbered_win(browser.new_page(viewport={"width": 1280, "height": 860}), base)
        thirteen_trick(browser.new_page(viewport={"width": 1280, "height": 860}), base, "thirteen.png")

        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(f"{base}/language/fr?next=/tripeaks")
        phone.wait_for_selector('.tripeaks[data-state="playing"]')
        phone.locator("#new-game-button").click()
        phone.wait_for_timeout(300)
        phone.screenshot(path=str(OUT / "tripeaks-fr-phone-new-game.png"))
        phone.locator("#new-game-cancel").click()
        phone.wait_for_timeout(300)
        phone.screenshot(path=str(OUT / "tripeaks-fr-phone.png"))
        thirteen_trick(
            browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2),
            base,
            "thirteen-hu-phone.png",
            lang="hu",
            full_page=True,
        )
        browser.close()
    server.should_exit = True
    print(f"saved in {OUT}")


if __name__ == "__main__":
    main()
