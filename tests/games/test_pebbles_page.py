"""A game is one package (decision 0061): Pebbles gets a web page, its texts in every language and a
terminal screen from its own folder (``tests/games/pebbles``: ``site.py``, ``templates/``, ``static/``,
``locale/``, ``terminal.py``), registered by one entry point line, with no file of the platform naming it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jinja2
import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from jinja2.ext import extract_from_ast
from starlette.testclient import WebSocketTestSession

from browsers import CHROMIUM, served
from parlour.games.registry import default_registry
from parlour.i18n import LANGUAGES
from parlour.server.app import create_app
from parlour.store import Store
from socket_messages import until_reply

GAMES = Path(__file__).resolve().parent
ROOT = GAMES.parents[1]
FOLDER = GAMES / "pebbles"
sys.path.insert(0, str(GAMES))
from pebbles import site, terminal  # noqa: E402
from pebbles.game import DEFINITION, REASONS  # noqa: E402

TITLES = {"en": "Pebbles", "fr": "Cailloux", "hu": "Kavicsok", "hi": "कंकड़", "vi": "Sỏi"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    games = default_registry().with_games(DEFINITION)
    store = Store(f"sqlite:///{tmp_path / 'pebbles.db'}", games=games)
    with TestClient(create_app(store, games=games)) as test_client:
        yield test_client


def catalog(lang: str) -> dict[str, str]:
    with (FOLDER / "locale" / lang / "LC_MESSAGES" / "pebbles.po").open("rb") as handle:
        return {str(message.id): str(message.string) for message in read_po(handle) if message.id}


def used_texts() -> set[str]:
    """Every text Pebbles' page, script, terminal screen and definition give a player."""
    source = (FOLDER / "templates" / "pebbles.html").read_text()
    found = {str(each[2]) for each in extract_from_ast(jinja2.Environment().parse(source), ("t",))}
    found |= set(site.SCRIPT_TEXTS) | set(REASONS.values())
    found |= set(re.findall(r'self\.t\(\s*"([^"]+)"', (FOLDER / "terminal.py").read_text()))
    found |= {binding.description for binding in terminal.PebblesApp.BINDINGS}  # type: ignore[union-attr]
    numbered = DEFINITION.numbered
    assert numbered is not None
    found |= {DEFINITION.title, str(DEFINITION.blurb), numbered.explanation, *numbered.rules.values()}
    seated = DEFINITION.seated
    assert seated is not None
    return found | set(seated.phrases.values())


def test_every_language_has_every_text_of_the_game_in_its_own_catalog() -> None:
    wanted = used_texts()
    for lang in LANGUAGES[1:]:
        found = catalog(lang)
        assert wanted <= set(found), (lang, sorted(wanted - set(found)))
        assert all(found.values()), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_comes_from_the_games_folder_in_every_language(client: TestClient, lang: str) -> None:
    headers = {"Accept-Language": lang}
    page = client.get("/pebbles", headers=headers)
    assert page.status_code == 200 and f'<html lang="{lang}"' in page.text
    assert f'<h1 id="pebbles-title">{TITLES[lang]}</h1>' in page.text
    assert "/static/js/pebbles.js" in page.text and "/static/css/pebbles.css" in page.text
    boot = json.loads(re.search(r'id="pebbles-boot">(.*?)</script>', page.text, re.S).group(1))  # type: ignore[union-attr]
    assert boot["game"] is None  # a visitor: the script deals, so a page view makes nobody
    assert set(boot["texts"]) == set(site.SCRIPT_TEXTS)
    if lang != "en":
        assert boot["texts"]["Round {round}"] != "Round {round}"
    home = client.get("/", headers=headers).text
    assert f">{TITLES[lang]}</" in home and 'href="/pebbles"' in home  # its tile, in the language
    for asset in ("js/pebbles.js", "css/pebbles.css"):
        served = client.get(f"/static/{asset}", headers={"Accept-Encoding": "identity"})
        assert served.status_code == 200 and served.content == (FOLDER / "static" / asset).read_bytes()


def settled(socket: WebSocketTestSession, view: dict[str, Any]) -> dict[str, Any]:
    """Return the view once the computer has moved: the person's turn, a round's end or the game's."""
    while view["turn"] == 1 and not view["between_rounds"] and max(view["scores"]) < view["target_points"]:
        message: dict[str, Any] = socket.receive_json()
        view = message.get("view") or view
    return view


def test_a_game_is_played_through_the_platforms_socket_with_refusals_in_the_games_words(
    client: TestClient,
) -> None:
    made = client.post("/api/games/pebbles?lang=fr", json={})
    assert made.status_code == 201, made.text
    game_id = made.json()["game"]
    assert client.get("/pebbles").text.count(game_id) == 1  # the page opens the player's open game
    with client.websocket_connect(f"/ws/{game_id}?lang=fr") as socket:
        socket.send_json({"type": "hello", "v": None})
        state = socket.receive_json()
        view = state["view"]
        assert state["type"] == "state" and view["seat"] == 0 and 9 <= view["pile"] <= 15
        socket.send_json({"type": "action", "action": {"type": "take", "count": 4}, "ref": 1})
        _, refused = until_reply(socket, 1)
        assert refused["type"] == "error" and refused["code"] == "bad_take"
        assert refused["message"] == "Prenez 1, 2 ou 3 cailloux, et pas plus qu’il n’en reste."
        ref, finished = 1, False
        for _ in range(200):
            view = settled(socket, view)
            if max(view["scores"]) >= view["target_points"]:
                finished = True
                break
            ref += 1
            if view["between_rounds"]:
                action: dict[str, Any] = {"type": "continue"}
            else:
                action = {"type": "take", "count": min(3, view["pile"])}
            socket.send_json({"type": "action", "action": action, "ref": ref})
            events, reply = until_reply(socket, ref)
            assert reply["type"] == "ack", reply
            view = next((event["view"] for event in reversed(events) if event.get("view")), view)
        assert finished
        assert view["mark"] is not None  # the seat's own mark, which only it sees


def test_the_terminal_screen_speaks_the_chosen_language() -> None:
    app = terminal.PebblesApp("hu")

    async def run() -> str:
        async with app.run_test() as pilot:
            await pilot.pause()
            return str(app.query_one("#board").render())

    board = _run_in_new_loop(run)
    assert "kavics maradt" in board and ("Te jössz" in board or "A gép" in board)


def _run_in_new_loop(factory: Any) -> str:
    """Run a Pilot session on a loop of its own, in a thread of its own (another test's loop may be
    running in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        result: str = thread.submit(asyncio.run, factory()).result(timeout=60)
        return result


def test_one_entry_point_line_registers_the_page_the_texts_and_the_screen(tmp_path: Path) -> None:
    """A process that has only the distribution of one entry point on its path finds Pebbles' page
    module, its catalog (through the platform's) and its terminal screen."""
    info = tmp_path / "parlour_pebbles-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: parlour-pebbles\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[parlour.games]\npebbles = pebbles.game:DEFINITION\n")
    probe = (
        "from parlour.games.registry import default_registry\n"
        "from parlour.i18n import gettext_for, own_domains\n"
        "games = default_registry()\n"
        "pebbles = games.get('pebbles')\n"
        "print(games.names(), pebbles.page_module, pebbles.terminal.opener, own_domains())\n"
        "explanation = pebbles.numbered.explanation\n"
        "print(gettext_for('fr', 'web', pebbles.title), gettext_for('hu', 'store', explanation))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(GAMES)])}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60, check=True
    )
    first, second = done.stdout.splitlines()
    assert "'tripeaks', 'thirteen', 'pebbles'" in first and "pebbles.site" in first and "pebbles" in first
    assert second == "Cailloux A legkevesebb hiányzó pont a célig, aztán a legkevesebb elvétel."


def test_nothing_of_the_platform_names_the_game() -> None:
    named = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "src").rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".html", ".js", ".css", ".po", ".toml")
        and "pebbles" in path.read_text(errors="ignore").lower()
    ]
    assert named == []


@pytest.fixture(scope="module")
def pebbles_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    games = default_registry().with_games(DEFINITION)
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('pebbles') / 'parlour.db'}", games=games)
    with served(create_app(store, games=games)) as (url, _, _):
        yield url


@pytest.mark.browser
@pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"), reason="Debian's Chromium is not installed"
)
def test_a_french_player_plays_to_the_end_by_the_pages_buttons_on_a_phone(
    browser: Any, pebbles_server: str
) -> None:
    """In a real browser: the game's own script and style, its texts in French, a game played to its end
    by the page's buttons on a 360 px screen, nothing wider than the screen, buttons of 44 px."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    context.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{pebbles_server}/pebbles")
        assert page.locator("h1").inner_text() == "Cailloux"
        status = page.locator('[data-role="status"]')
        for _ in range(120):
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-take]')].some((b) => !b.disabled)"
                " || !document.querySelector('[data-role=next-round]').hidden"
                " || /partie/.test(document.querySelector('[data-role=status]').textContent)"
            )
            if "la partie" in status.inner_text():
                break
            next_round = page.locator('[data-role="next-round"]')
            if next_round.is_visible():
                next_round.click()
                next_round.wait_for(state="hidden")
                continue
            before = page.locator('[data-role="pile"]').get_attribute("aria-label")
            enabled = [button for button in page.locator("[data-take]").all() if button.is_enabled()]
            enabled[-1].click()
            page.wait_for_function(
                "(before) => document.querySelector('[data-role=pile]').ariaLabel !== before", arg=before
            )
        said = status.inner_text()
        assert re.search(r"(Vous gagnez|L’ordinateur gagne) la partie", said), said
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        for button in page.locator("[data-take], [data-role=new-game]").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44
    finally:
        context.close()
    assert errors == []


def test_a_game_without_puzzles_has_no_puzzle_pages(client: TestClient) -> None:
    assert client.get("/pebbles/puzzles").status_code == 404
    assert client.get("/pebbles/puzzles/daily").status_code == 404
    refused = client.post("/api/puzzles/pebbles/0000000000000000/answer", json={"move": "take 1"})
    assert refused.status_code == 404
