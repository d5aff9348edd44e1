"""Generator 2 (decision 0059, docs/deals.md): the engine against a second implementation written apart
(`tests/independent_generator2.py`), the published test vectors, codes and their check character, and the
randomness every secret deal starts from."""

from __future__ import annotations

import json
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import independent_generator2 as other
from parlour.cards import DECK, JOKER
from parlour.deal import SEED_ALPHABET, HmacStream, secret_deck, secret_shuffle, seed_to_text, text_to_seed
from parlour.errors import InvalidCode
from parlour.thirteen import Match, MatchCode
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.rules import CLASSIC, EASY, Rules

ROOT = Path(__file__).resolve().parents[1]
VECTORS = json.loads((ROOT / "tests/data/deals/generator2-vectors.json").read_text())
seeds = st.binary(min_size=16, max_size=16)


def test_hmac_of_the_second_implementation_is_rfc_4231() -> None:
    # RFC 4231 test case 2: the second implementation's HMAC is the standard one.
    made = other.hmac_sha256(b"Jefe", b"what do ya want for nothing?").hex()
    assert made == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"


@given(seeds, st.sampled_from(["TP2 deal", "TH2 round 1", "TH2 round 7", "x"]))
def test_the_engine_deals_as_the_second_implementation(seed: bytes, label: str) -> None:
    assert [str(card) for card in secret_deck(seed, label)] == other.deck(seed, label)


@given(seeds)
def test_the_joker_deck_as_the_second_implementation(seed: bytes) -> None:
    cards = [*other.BASE_DECK, "JK"]
    assert [str(c) for c in secret_shuffle((*DECK, JOKER), seed, "TP2 deal")] == other.deck(
        seed, "TP2 deal", cards
    )


@given(seeds)
def test_seed_text_as_the_second_implementation_and_back(seed: bytes) -> None:
    text = seed_to_text(seed)
    assert text == other.seed_text(seed) and len(text) == 27
    assert text_to_seed(text) == seed


def test_the_stream_reads_each_block_as_four_big_endian_words() -> None:
    seed = bytes(range(16))
    stream = HmacStream(seed, "TP2 deal")
    block = other.hmac_sha256(seed, b"TP2 deal\x00" + (0).to_bytes(8, "big"))
    assert [stream.next() for _ in range(4)] == [
        int.from_bytes(block[i : i + 8], "big") for i in (0, 8, 16, 24)
    ]
    second = other.hmac_sha256(seed, b"TP2 deal\x00" + (1).to_bytes(8, "big"))
    assert stream.next() == int.from_bytes(second[:8], "big")


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed"][:8])
def test_published_vectors(vector: dict[str, object]) -> None:
    seed = bytes.fromhex(str(vector["seed"]))
    easy = DealCode(int.from_bytes(seed, "big"), EASY, 2)
    assert str(easy) == vector["tripeaks_easy"] == "TP2-E-" + other.seed_text(seed)
    deal = Deal.from_code(str(vector["tripeaks_easy"]))
    expected = other.deck(seed, "TP2 deal")
    assert [str(c) for c in deal.tableau] == expected[:28] == str(vector["tableau"]).split()
    assert str(deal.discard) == expected[28] == vector["discard"]
    assert [str(c) for c in deal.stock] == expected[29:] == str(vector["stock"]).split()
    match = Match.from_code(str(vector["thirteen"]))
    assert match.code == vector["thirteen"] == "TH2-" + other.seed_text(seed)
    rounds: list[list[str]] = vector["thirteen_rounds"]  # type: ignore[assignment]
    for round_number, hands in enumerate(rounds, start=1):
        cards = other.deck(seed, f"TH2 round {round_number}")
        assert [" ".join(sorted(cards[13 * s : 13 * s + 13])) for s in range(4)] == hands
        made = match.deals.round_deck(round_number)
        assert [" ".join(sorted(str(c) for c in made[13 * s : 13 * s + 13])) for s in range(4)] == hands


def test_the_docs_show_the_published_vectors() -> None:
    text = (ROOT / "docs/deals.md").read_text()
    for vector in VECTORS:
        for key in ("seed", "tripeaks_easy", "thirteen", "tableau", "discard"):
            assert str(vector[key]) in text, (key, vector[key])


def test_a_match_deals_its_rounds_from_its_seed() -> None:
    code = MatchCode.secret()
    match = Match(code)
    first = match.round.hands if hasattr(match.round, "hands") else None
    assert match.code.startswith("TH2-") and len(match.code) == 31
    assert Match.from_code(match.code).code == match.code
    assert first is None or Match.from_code(match.code).round.hands == first
    decks = [code.round_deck(r) for r in range(1, 6)]
    assert all(sorted(d) == list(DECK) for d in decks) and len({tuple(d) for d in decks}) == 5


@given(seeds, st.sampled_from([EASY, CLASSIC, Rules(joker=True), Rules(empty_discard=True, open_peaks=True)]))
def test_tripeaks_secret_codes_round_trip(seed: bytes, rules: Rules) -> None:
    code = DealCode(int.from_bytes(seed, "big"), rules, 2)
    text = str(code)
    assert re.fullmatch(r"TP2-[EC]-[A-Z2-7]{27}(-[A-Z]+)?", text)
    assert DealCode.parse(text) == code == DealCode.parse(text.lower())
    assert Deal.from_code(code) == Deal.from_code(text)


@given(seeds, st.integers(min_value=0, max_value=26), st.integers(min_value=1, max_value=31))
def test_a_mistyped_character_is_refused(seed: bytes, at: int, shift: int) -> None:
    text = seed_to_text(seed)
    wrong = text[:at] + SEED_ALPHABET[(SEED_ALPHABET.index(text[at]) + shift) % 32] + text[at + 1 :]
    with pytest.raises(InvalidCode):
        DealCode.parse("TP2-E-" + wrong)
    with pytest.raises(InvalidCode):
        MatchCode.parse("TH2-" + wrong)


def test_bad_secret_codes_say_what_is_wrong() -> None:
    good = str(MatchCode.secret())
    for bad in (
        good[:-1],
        good + "A",
        good.replace("TH2", "TH3"),
        good[:10] + "1" + good[11:],
        "TH2-",
        "TP2-E-",
    ):
        with pytest.raises(InvalidCode, match="not a"):
            MatchCode.parse(bad) if bad.startswith("TH") else DealCode.parse(bad)
    # The last character before the check carries 3 bits of the seed and 2 that must be zero.
    text = seed_to_text(bytes(16))
    body = text[:25] + "B"
    non_canonical = body + other.luhn32(body)
    with pytest.raises(InvalidCode, match="canonical"):
        text_to_seed(non_canonical)


def test_secret_deals_draw_16_bytes_from_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = secrets.token_bytes

    def spy(n: int) -> bytes:
        asked.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "token_bytes", spy)
    from parlour.thirteen.definition import draw_daily as thirteen_daily
    from parlour.tripeaks.definition import deal_from, draw_daily

    made = [str(DealCode.secret()), str(MatchCode.secret()), draw_daily("easy"), thirteen_daily("standard")]
    made.append(str(deal_from("")[0]))
    assert asked == [16] * len(made)
    assert all(code.startswith(("TP2-", "TH2-")) for code in made)


def test_seeds_are_distinct_and_spread() -> None:
    # 2,000 fresh seeds: no repeats, and every bit is set in roughly half of them.
    seeds_made = [MatchCode.secret().seed for _ in range(2000)]
    assert len(set(seeds_made)) == 2000
    numbers = [int.from_bytes(s or b"", "big") for s in seeds_made]
    for bit in range(128):
        ones = sum(n >> bit & 1 for n in numbers)
        assert 850 < ones < 1150, (bit, ones)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed"][:8])
def test_the_nodejs_program_of_the_docs_deals_the_same(vector: dict[str, object]) -> None:
    # A third implementation, in another language, with Node's own HMAC.
    program = str(ROOT / "tests/data/deals/generator2.mjs")
    tripeaks = subprocess.run(
        ["node", program, str(vector["tripeaks_easy"])],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout.splitlines()
    assert tripeaks[:2] == [f"tableau: {vector['tableau']}", f"discard: {vector['discard']}"]
    assert tripeaks[2] == f"stock: {vector['stock']}"
    thirteen = subprocess.run(
        ["node", program, str(vector["thirteen"]), "2"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout.splitlines()
    rounds: list[list[str]] = vector["thirteen_rounds"]  # type: ignore[assignment]
    assert thirteen == [f"round {r} seat {s}: {rounds[r - 1][s]}" for r in (1, 2) for s in range(4)]


def test_every_kind_of_secret_deal_follows_from_16_bytes_of_the_systems_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each place the server deals a secret deal: its seed is the 16 bytes ``secrets.token_bytes`` gave,
    and its cards are exactly what the second implementation makes of them."""
    from parlour.games.base import Players
    from parlour.thirteen.definition import ThirteenDefinition, ThirteenSeated
    from parlour.thirteen.definition import draw_daily as thirteen_daily
    from parlour.tripeaks.definition import TriPeaksDefinition
    from parlour.tripeaks.definition import draw_daily as tripeaks_daily

    given: list[bytes] = []

    def spy(n: int) -> bytes:
        made = secrets.SystemRandom().getrandbits(8 * n).to_bytes(n, "big")
        if sys._getframe(1).f_code.co_name == "new_seed":  # not a salt (token_hex asks it too)
            given.append(made)
        return made

    monkeypatch.setattr(secrets, "token_bytes", spy)
    players = Players(frozenset({0}), {1: "greedy", 2: "greedy", 3: "greedy"}, "greedy", "normal")
    seated = ThirteenSeated()
    seats: list[dict[str, Any]] = [{"kind": "human"}] + [{"kind": "bot", "strength": "greedy"}] * 3
    made = {
        "a match at home": ThirteenDefinition().new({}).spec.code,  # type: ignore[union-attr]
        "a friends' table": seated.deal(seated.rules(None), players, seats)[1].code,
        "a duplicate set": seated.deal(seated.rules({"duplicate_deals": 2}), players, seats)[1].code,
        "Daily Thirteen": thirteen_daily("standard"),
        "a random TriPeaks deal": TriPeaksDefinition().new({}).spec.code,  # type: ignore[union-attr]
        "a classic random deal": TriPeaksDefinition().new({"rules": "classic"}).spec.code,  # type: ignore[union-attr]
        "the daily TriPeaks deal": tripeaks_daily("classic"),
    }
    assert len(given) == len(made)
    for (kind, code), seed in zip(made.items(), given, strict=True):
        text = other.seed_text(seed)
        assert code.endswith(text) or f"-{text}" in code, kind
        if code.startswith("TH2-"):
            for round_number in (1, 2, 5):
                dealt = [str(card) for card in MatchCode.parse(code).round_deck(round_number)]
                assert dealt == other.deck(seed, f"TH2 round {round_number}"), kind
        else:
            deal = Deal.from_code(code)
            assert [str(c) for c in (*deal.tableau, deal.discard, *deal.stock)] == other.deck(
                seed, "TP2 deal"
            )
