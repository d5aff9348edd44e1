"""The Thirteen page, its settings, the rules pages, their catalogs, and matches resumed after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import markupsafe
import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from jinja2.ext import extract_from_ast

from conftest import page_data
from parlour.games.registry import Registry, default_registry
from parlour.i18n import LANGUAGES, catalog_path, translations
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen import definition as thirteen_game
from parlour.thirteen.site import page as thirteen_page

JSON = {"content-type": "application/json"}
PARLOUR = Path(thirteen_page.__file__).resolve().parents[2]
TEMPLATES = [
    PARLOUR / "web" / "templates",
    PARLOUR / "tripeaks" / "templates",
    PARLOUR / "thirteen" / "templates",
]
"""The platform's templates, then each game's own."""
ROOT = Path(__file__).resolve().parents[2]
# The TriPeaks source documents (Hindi, Hungarian) whose wording the rules pages must keep verbatim.
SEEDS = ROOT / "tests" / "data" / "seeds"


@pytest.fixture
def client(thirteen_client: TestClient) -> TestClient:
    return thirteen_client


def boot_data(html: str) -> dict[str, Any]:
    return page_data(html, "thirteen-boot")


def test_the_page_opens_a_match_and_keeps_it_across_reloads(client: TestClient) -> None:
    first = client.get("/thirteen")
    assert first.status_code == 200
    game_id = boot_data(first.text)["game"]
    assert game_id and boot_data(first.text)["player"] is True
    assert boot_data(client.get("/thirteen").text)["game"] == game_id
    assert 'href="/rules/thirteen"' in first.text and "/static/js/thirteen.js" in first.text


@pytest.mark.parametrize(
    ("lang", "words", "ace", "spades"),
    [
        ("en", ("Pass", "Your hand", "West"), "ace of {suit}", "spades"),
        ("hi", ("पास", "आपके पत्ते", "पश्चिम"), "{suit} का इक्का", "हुकुम"),
        ("hu", ("Passz", "A lapjaid", "Nyugat"), "{suit} ász", "pikk"),
        ("fr", ("Passer", "Votre main", "Ouest"), "as de {suit}", "pique"),
    ],
)
def test_the_page_speaks_every_language(
    client: TestClient, lang: str, words: tuple[str, ...], ace: str, spades: str
) -> None:
    client.get(f"/language/{lang}", follow_redirects=False)
    page = client.get("/thirteen")
    assert f'<html lang="{lang}"' in page.text
    assert all(word in page.text for word in words)
    boot = boot_data(page.text)
    assert boot["lang"] == lang and len(boot["cardCounts"]) == 14
    assert boot["cardPatterns"]["A"] == ace and boot["suitNames"]["S"] == spades
    assert set(boot["texts"]) == set(thirteen_page.SCRIPT_TEXTS)
    if lang == "hi":
        assert boot["cardPatterns"]["Q"] == "{suit} की बेगम"


def test_settings_are_saved_and_applied_to_the_live_match(client: TestClient, store: Store) -> None:
    game_id = boot_data(client.get("/thirteen").text)["game"]
    saved = client.post("/api/thirteen/settings", json={"speed": "instant", "strength": "random"})
    assert saved.status_code == 200 and saved.json() == {"speed": "instant", "strength": "random"}
    player = store.player_by_token(client.cookies["parlour_token"])
    assert player is not None
    preferences = store.preferences(player.id)
    assert preferences["bot_speed"] == "instant" and preferences["bot_strength"] == "random"
    live = client.app.state.parlour.live.get(game_id)  # type: ignore[attr-defined]
    assert live.game.speed == "instant" and live.game.next_auto() in (None, 0.0)
    page = client.get("/thirteen")
    assert '<option value="instant" selected>' in page.text
    assert '<option value="random" selected>' in page.text


@pytest.mark.parametrize(
    "body", [{"speed": "warp"}, {"strength": "godlike"}, {"colour": "red"}, {}, [], "instant"]
)
def test_bad_settings_are_refused(client: TestClient, store: Store, body: Any) -> None:
    refused = client.post("/api/thirteen/settings?lang=hu", json=body)
    assert refused.status_code == 400
    answer = refused.json()
    assert (answer["code"], answer["message"]) == ("bad_option", "Ez a beállítás nem érhető el.")
    for sent in ("warp", "godlike", "red"):  # the detail says what is wanted, never what was sent
        assert sent not in answer["detail"]
    assert client.post("/api/thirteen/settings", content=b"{oops", headers=JSON).status_code == 400


def test_a_visitor_gets_the_table_and_its_script_deals_the_first_match(store: Store) -> None:
    with TestClient(create_app(store, games=default_registry())) as visitor:
        page = visitor.get("/thirteen")
        boot = boot_data(page.text)
        assert page.status_code == 200 and boot["game"] is None and boot["player"] is False
        assert "parlour_token" not in page.cookies and store.all_players() == []
        # What the page's script does first: deal a match with the settings it shows.
        made = visitor.post("/api/games/thirteen", json={"strength": "greedy", "speed": "instant"})
        assert made.status_code == 201 and len(store.all_players()) == 1
        assert boot_data(visitor.get("/thirteen").text)["game"] == made.json()["game"]
        table = visitor.post("/api/tables", json={}).json()
    with TestClient(create_app(store, games=default_registry())) as watcher:
        page = watcher.get(table["url"], headers={"accept-language": "fr"})
        assert page.status_code == 200 and boot_data(page.text)["player"] is False
        # The quick-chat phrases come in the order of a game (greeting first, goodbye last), translated.
        phrases = boot_data(page.text)["phrases"]
        assert [key for key, _ in phrases][:2] == ["hello", "good_luck"] and phrases[-1][0] == "bye"
        assert dict(phrases)["hello"] == "Bonjour\u202f!"  # French puts a narrow no-break space before "!"
        assert len(store.all_players()) == 1
        assert watcher.post("/api/player").status_code == 201
        assert boot_data(watcher.get(table["url"]).text)["player"] is True


def test_an_open_match_resumes_after_a_restart(tmp_path: Path) -> None:
    """Every acknowledged move is in the database: a new server rebuilds the match from its record."""
    store = Store(f"sqlite:///{tmp_path / 'parlour.db'}")
    games = Registry([thirteen_game.ThirteenDefinition()])
    with TestClient(create_app(store, games=games, routers=[])) as first:
        first.post("/api/thirteen/settings", json={"speed": "instant"})
        made = first.post(
            "/api/games/thirteen", json={"code": "TH1-AAAAAAC", "strength": "greedy", "speed": "instant"}
        )
        game_id = made.json()["game"]
        with first.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            socket.receive_json()
            socket.send_json({"type": "action", "action": {"type": "play", "cards": ["3S"]}, "ref": 1})
            view = None
            while view is None or view["turn"] != 0:
                message = socket.receive_json()
                if message["type"] == "event":
                    view = message["view"]
        token = first.cookies["parlour_token"]
    with TestClient(create_app(store, games=games, routers=[])) as second:
        second.cookies.set("parlour_token", token)
        assert boot_data(second.get("/thirteen").text)["game"] == game_id
        with second.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            resumed = socket.receive_json()["view"]
    assert resumed == view
    store.close()


# --- rules pages -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["tripeaks", "thirteen"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_pages_in_every_language(client: TestClient, game: str, lang: str) -> None:
    client.get(f"/language/{lang}", follow_redirects=False)
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200 and f'<html lang="{lang}"' in page.text
    assert page.text.count("<h2>") >= 6
    assert f'href="/{game}"' in page.text
    assert 'class="mini-card' in page.text
    rules = default_registry().get(game).rules
    assert rules is not None
    title = translations(lang, rules.domain).gettext(rules.title)
    assert f"<h1>{title}</h1>" in page.text


def test_unknown_rules_are_not_found(client: TestClient) -> None:
    assert client.get("/rules/chess").status_code == 404


def test_card_pictures_name_the_cards_for_screen_readers(client: TestClient) -> None:
    client.get("/language/hi", follow_redirects=False)
    page = client.get("/rules/thirteen").text
    assert 'aria-label="हुकुम का 3"' in page and 'aria-label="पान का 2"' in page


def seed_lines(name: str) -> list[str]:
    return [line.strip("- ").strip() for line in next(SEEDS.glob(name)).read_text().splitlines()]


@pytest.mark.parametrize(("lang", "seed"), [("hi", "000_*.txt"), ("hu", "001_*.txt")])
def test_tripeaks_rules_use_the_seed_texts_verbatim(client: TestClient, lang: str, seed: str) -> None:
    client.get(f"/language/{lang}", follow_redirects=False)
    page = client.get("/rules/tripeaks").text
    lines = [
        line for line in seed_lines(seed) if len(line) > 30 and "TP1-" not in line and ":" not in line[:12]
    ]
    assert len(lines) >= 12
    found = [line for line in lines if markupsafe.escape(line) in page]
    assert len(found) >= 10, f"only {len(found)} seed paragraphs appear verbatim"


def template_messages(name: str, keyword: str = "t") -> list[str]:
    source = next(folder / name for folder in TEMPLATES if (folder / name).exists()).read_text()
    found = extract_from_ast(jinja2.Environment().parse(source), (keyword,))
    return [message[2] for message in found if isinstance(message[2], str)]


def catalog_ids(lang: str, domain: str) -> set[str]:
    with catalog_path(lang, domain).open("rb") as handle:
        return {message.id if isinstance(message.id, str) else message.id[0] for message in read_po(handle)}


@pytest.mark.parametrize(
    ("template", "domain", "keyword"),
    [
        ("rules_tripeaks.html", "tripeaks_rules", "t"),
        ("rules_thirteen.html", "thirteen_rules", "t"),
        ("rules_page.html", "rules", "r"),
        ("thirteen.html", "thirteen_web", "t"),
    ],
)
def test_every_text_of_the_templates_is_in_the_catalogs(template: str, domain: str, keyword: str) -> None:
    messages = set(template_messages(template, keyword))
    assert messages
    for lang in LANGUAGES[1:]:
        assert messages - catalog_ids(lang, domain) == set(), f"{lang}/{domain}"


def test_the_live_games_texts_are_in_the_catalogs() -> None:
    texts = {*thirteen_page.SCRIPT_TEXTS, *thirteen_game.REASONS.values(), *thirteen_page.SEAT_NAMES}
    texts |= {
        *thirteen_game.SPEED_NAMES.values(),
        *thirteen_game.STRENGTH_NAMES.values(),
        "{n} card",
        "{n} point",
    }
    titles = {game.rules.title for game in default_registry() if game.rules is not None}
    texts |= titles - {"TriPeaks rules", "Thirteen rules"}
    for lang in LANGUAGES[1:]:
        assert texts - catalog_ids(lang, "thirteen_web") == set(), lang
