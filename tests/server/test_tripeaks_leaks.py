"""No hidden card ever reaches the browser: whole games played over the socket, every message scanned.

Hidden means face down in the peaks or still in the stock. The scan looks for each hidden card's text
(``QC``), its pretty form (``Q♣``) and its name in the page language, in every string of every message
(the spoken description and card names included) and in every HTTP response of the game's page.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.cards import Card
from parlour.i18n import gettext_for
from parlour.i18n.cards import card_name
from parlour.tripeaks import Game
from parlour.tripeaks.layout import TABLEAU_SIZE


def hidden_cards(game: Game) -> set[Card]:
    """Return the cards the player may not see now (the test reads the server's own game)."""
    down = {game.card_at(p) for p in range(TABLEAU_SIZE) if not game.face_up(p)}
    revealed = game.to_json(reveal=True)
    stock = {Card.parse(text) for text in revealed["stock_cards"]}
    return down | stock


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*strings(key), *strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def token(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w♣♦♥♠]){re.escape(text)}(?![\w♣♦♥♠])")


def leaks(texts: list[str], hidden: set[Card], lang: str) -> list[str]:
    found = []
    for card in hidden:
        patterns = [token(str(card)), token(card.pretty())]
        if card.suit is not None:  # "joker" also names the variant, which is public: its place is not
            patterns.append(token(card_name(card, lang)))
        found += [f"{card}: {text[:80]}" for text in texts for pattern in patterns if pattern.search(text)]
    return found


def play_and_scan(client: TestClient, code: str, lang: str, seed: int) -> int:
    """Play one game to its end with random actions; return the number of messages scanned."""
    created = client.post(f"/api/games/tripeaks?lang={lang}", json={"code": code})
    game_id = created.json()["game"]
    page = client.get("/tripeaks", headers={"Accept-Language": lang})
    owner = client.app.state.parlour.live.get(game_id)  # type: ignore[attr-defined]
    game: Game = owner.game.game
    # The command box's help names the same example card in every deal ("such as 7♣"): not a leak.
    example = gettext_for(lang, "web", "Type a card such as 7♣ (or 7c) to play it, or draw, undo, hint.")
    assert example in page.text
    problems = leaks([created.text, page.text.replace(example, "")], hidden_cards(game), lang)
    chooser = random.Random(seed)
    scanned = 0
    hidden_at = {0: hidden_cards(game)}  # by version, for the replay of old events
    named: set[Card] = set()  # a refusal may quote the card the page itself named, nothing else
    with client.websocket_connect(f"/ws/{game_id}?lang={lang}") as socket:
        socket.send_json({"type": "hello", "v": None})
        for _turn in range(400):
            message = socket.receive_json()
            scanned += 1
            quoted = named if message["type"] == "error" else set()
            problems += leaks(strings(message), hidden_cards(game) - quoted, lang)
            if message["type"] == "event":
                hidden_at[message["v"]] = hidden_cards(game)
                socket.receive_json()  # the ack
            if game.status != "playing":
                break
            roll = chooser.random()
            named = set()
            if roll < 0.1:
                action: dict[str, Any] = {"position": chooser.randrange(TABLEAU_SIZE)}  # often refused
            elif roll < 0.15:
                action = {"move": "undo"}
            elif roll < 0.2:
                named = {chooser.choice(sorted(hidden_cards(game), key=str))}
                action = {"move": str(*named)}  # always refused as "blocked"
            else:
                legal = game.legal_actions()
                action = {"move": chooser.choice(legal)}
            socket.send_json({"type": "action", "action": action})
        socket.send_json({"type": "hello", "v": 0})  # a replay of missed events is scanned too
        socket.send_json({"type": "ping"})
        while (message := socket.receive_json())["type"] != "pong":
            scanned += 1
            problems += leaks(strings(message), hidden_at[message["v"]], lang)
    assert problems == [], problems[:5]
    assert json.dumps(game.to_json()) not in page.text
    return scanned


@pytest.mark.parametrize(
    ("code", "lang", "seed"),
    [
        ("TP1-E-AAAAAAB", "en", 1),
        ("TP1-C-AAAAAAD", "hi", 2),
        ("TP1-E-BCDEFGH", "hu", 3),
        ("TP1-E-ZZZZZZZ-OW", "fr", 4),
        ("TP1-C-QQQQQQQ-J", "en", 5),
        ("TP1-E-HELLOAB-DT", "en", 6),
    ],
)
def test_whole_games_never_show_a_hidden_card(
    tripeaks_client: TestClient, code: str, lang: str, seed: int
) -> None:
    assert play_and_scan(tripeaks_client, code, lang, seed) > 20


def test_a_ranked_deal_names_no_code_until_it_is_won(store: Any) -> None:
    """A deal whose record keeps a server secret (a ranked deal: every hidden card follows from its
    code) is played with no code and no deal number in any frame until the winning move; a finished or
    left record shows them again."""
    from parlour.games.registry import Registry
    from parlour.server.app import create_app
    from parlour.tripeaks.definition import TriPeaksDefinition
    from parlour.tripeaks.solver.solve import solve

    definition = TriPeaksDefinition()
    code = "TP1-E-AAAAAAB"
    line = solve(Game.from_code(code)).line
    assert line
    app = create_app(store, games=Registry([definition]), routers=[])
    with TestClient(app) as client:
        client.post("/api/player")
        [player] = store.all_players()
        spec = definition.prepare(None, code, [0], None)
        ranked = type(spec)(**{**spec.__dict__, "secret": {"salt": "s3cret-salt"}})
        game_id = store.record_game(player.id, definition, ranked)
        seen: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/{game_id}") as socket:
            socket.send_json({"type": "hello", "v": None})
            seen.append(socket.receive_json())
            for ref, move in enumerate(line, start=1):
                socket.send_json({"type": "action", "action": {"move": move}, "ref": ref})
                while (message := socket.receive_json())["type"] != "ack":
                    seen.append(message)
        *playing, won = [message for message in seen if message.get("view")]
        assert playing and all(message["view"]["code"] is None for message in playing)
        assert all(message["view"]["deal_number"] is None for message in playing)
        assert not [text for message in playing for text in strings(message) if code[4:] in text]
        assert won["view"]["status"] == "won" and won["view"]["code"] == code
        # A left ranked deal, opened again, shows its code: the record has ended.
        other = store.record_game(player.id, definition, ranked)
        store.finish_game(other, player.id)
        with client.websocket_connect(f"/ws/{other}") as socket:
            socket.send_json({"type": "hello", "v": None})
            assert socket.receive_json()["view"]["code"] == code
