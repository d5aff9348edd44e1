"""A second implementation of generator 2, written from ``docs/deals.md`` alone and sharing no code with
``parlour.deal``: its own HMAC (RFC 2104, over ``hashlib.sha256``), its own base32 (RFC 4648), its own
Luhn mod 32, its own draws and shuffle, and cards named from the spec's base order. The tests check the
engine and the published test vectors against it."""

from __future__ import annotations

import hashlib

_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
BASE_DECK = [rank + suit for suit in "CDHS" for rank in _RANKS]


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """RFC 2104 with a 64-byte block: H((K ^ opad) ‖ H((K ^ ipad) ‖ m))."""
    block = key.ljust(64, b"\x00")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in block) + message).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in block) + inner).digest()


def words(seed: bytes, label: str):  # type: ignore[no-untyped-def]
    counter = 0
    while True:
        block = hmac_sha256(seed, label.encode() + bytes([0]) + counter.to_bytes(8, "big"))
        for at in range(0, 32, 8):
            yield int.from_bytes(block[at : at + 8], "big")
        counter += 1


def deck(seed: bytes, label: str, cards: list[str] | None = None) -> list[str]:
    cards = list(BASE_DECK if cards is None else cards)
    stream = words(seed, label)
    for i in range(len(cards) - 1, 0, -1):
        k = i + 1
        while True:
            x = next(stream)
            if x < 2**64 - 2**64 % k:
                break
        j = x % k
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def base32(data: bytes) -> str:
    bits = "".join(f"{byte:08b}" for byte in data)
    bits += "0" * (-len(bits) % 5)
    return "".join(_B32[int(bits[at : at + 5], 2)] for at in range(0, len(bits), 5))


def luhn32(text: str) -> str:
    total = 0
    for position, char in enumerate(reversed(text)):
        value = _B32.index(char) * (2 if position % 2 == 0 else 1)
        total += value // 32 + value % 32
    return _B32[-total % 32]


def seed_text(seed: bytes) -> str:
    body = base32(seed)
    return body + luhn32(body)
