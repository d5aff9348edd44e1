"""Every text a review page gives a player is in their language (issue 48): no engine move code
(``7S``, ``draw``, ``undo``, ``pass``) and the card letters of that language, on both games' review
pages, in every language."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.i18n.cards import rank_letters
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen import Match, Rules

from .lines import code_of
from .test_pages import me

LANGUAGES = ("en", "hi", "hu", "fr", "vi")
ENGINE_CARD = re.compile(r"(?<![\w♣♦♥♠])(?:[2-9TJQKA][CDHS])(?![\w])")
ENGINE_WORD = re.compile(r"\b(draw|undo|pass)\b")


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as test_client:
        yield test_client


def player_texts(page: str) -> list[str]:
    """The texts a page shows a player: its main text without tags, and the script data's sayings
    (steps, the shortest win), not the raw review the script draws the cards from."""
    main = re.search(r"<main.*?</main>", page, re.S)
    assert main is not None
    shown = re.sub(r"<script.*?</script>", " ", main.group(0), flags=re.S)
    texts = [html.unescape(re.sub(r"<[^>]+>", " ", shown))]
    data = re.search(r'<script type="application/json" id="review-data">(.*?)</script>', page, re.S)
    assert data is not None
    script: dict[str, Any] = json.loads(html.unescape(data.group(1)))
    texts += [str(step) for step in script.get("steps", [])] + [str(step) for step in script.get("line", [])]
    return texts


ENGLISH_DECIMAL = re.compile(r"\d\.\d")
"""A decimal point where French and Hungarian write a comma ("2.91" for "2,91")."""


def assert_in_language(texts: list[str], lang: str, code: str) -> None:
    letters = set(rank_letters(lang).values())
    for text in texts:
        cleaned = text.replace(code, "")  # the deal's code is a code, not words
        if lang in ("fr", "hu"):  # numbers as the locale writes them
            assert not ENGLISH_DECIMAL.findall(cleaned), (lang, cleaned[:200])
        assert not ENGINE_CARD.findall(cleaned), (lang, ENGINE_CARD.findall(cleaned), cleaned[:200])
        assert not ENGINE_WORD.findall(cleaned), (lang, cleaned[:200])
        for court in re.findall(r"\b([A-Z])[♣♦♥♠]", cleaned):
            assert court in letters, (lang, court, cleaned[:200])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tripeaks_review_page_speaks_the_players_language(
    client: TestClient, store: Store, lang: str
) -> None:
    player_id = me(client, store)
    code = code_of(1)
    moves = ["draw", "draw", "undo", "draw"]
    from parlour.tripeaks import Game

    game = Game.from_code(code)
    for move in moves:
        game.apply(move)
    moves += [game.legal_actions()[0]]  # a card too, the first that fits (or a draw)
    game_id = store.start_game(player_id, "tripeaks", "easy", code, ["human"], numbered=1)
    store.append_moves(game_id, player_id, 0, moves)
    store.finish_game(game_id, player_id)
    page = client.get(f"/tripeaks/review/{game_id}", headers={"Accept-Language": lang})
    assert page.status_code == 200, page.text[:300]
    assert_in_language(player_texts(page.text), lang, code)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_thirteen_review_page_speaks_the_players_language(
    client: TestClient, store: Store, lang: str
) -> None:
    player_id = me(client, store)
    code, rules = "TH1-AAAAAAC", Rules(target_points=1)
    match, moves = Match.from_code(code, rules), []
    while not match.over:
        seat = match.turn
        assert seat is not None
        legal = match.legal_moves(seat)
        move = legal[-1] if len(legal) > 1 and seat != 0 else legal[0]  # passes and plays, court cards too
        match.apply(seat, move)
        moves.append(str(move))
    seats: list[object] = ["human"] + [{"kind": "bot", "strength": "greedy"}] * 3
    game_id = store.start_game(player_id, "thirteen", rules, code, seats)
    store.append_moves(game_id, player_id, 0, moves)
    store.finish_game(game_id, player_id)
    page = client.get(f"/thirteen/review/{game_id}", headers={"Accept-Language": lang})
    assert page.status_code == 200, page.text[:300]
    texts = player_texts(page.text)
    assert_in_language(texts, lang, code)
    if lang in ("fr", "hu"):  # the expected points have decimals: written with the locale's comma
        assert any(re.search(r"\d,\d\d", text) for text in texts), lang
