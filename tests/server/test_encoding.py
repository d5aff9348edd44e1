"""The text a page is sent for a message: compact JSON that always encodes as UTF-8, the same data as
the message, made once for a message shared by several pages."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from parlour.server.wire.outbox import Prepared, encode_json

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(st.text(max_size=8), values, max_size=6))
def test_the_text_is_the_message_and_encodes_as_utf8(message: dict[str, object]) -> None:
    text = encode_json(message)
    text.encode("utf-8")  # a lone surrogate, echoed from a page's input, must not break the send
    assert json.loads(text) == message


def test_a_lone_surrogate_is_sent_escaped_and_other_characters_as_they_are() -> None:
    assert encode_json({"name": "Zoë 🂡"}) == '{"name":"Zoë 🂡"}'
    assert encode_json({"name": "a\ud800b"}) == '{"name":"a\\ud800b"}'


def test_seat_numbers_as_keys_become_text_as_json_has_them() -> None:
    assert json.loads(encode_json({"scores": {0: 3, 1: 0}})) == {"scores": {"0": 3, "1": 0}}


def test_a_shared_message_is_encoded_once_and_read_back_from_its_text() -> None:
    shared = Prepared({"type": "event", "v": 2})
    assert shared.text is shared.text
    again = Prepared.of_text(shared.text)
    assert again.message == {"type": "event", "v": 2}
