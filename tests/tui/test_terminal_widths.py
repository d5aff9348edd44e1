"""Rich's measure of text, with Parlour's terminal widths, agrees with the terminal's (glibc's wcwidth)
for the scripts Parlour writes: Devanagari, Latin with accents, the card suits and box drawing."""

from __future__ import annotations

import ctypes
import ctypes.util
import locale
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from parlour.terminal_widths import terminal_widths, use_terminal_widths

use_terminal_widths()
LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


@pytest.fixture(autouse=True)
def utf8_locale() -> Iterator[None]:
    previous = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    yield
    locale.setlocale(locale.LC_CTYPE, previous)


def wcswidth(text: str) -> int:
    return int(LIBC.wcswidth(ctypes.c_wchar_p(text), len(text) + 1))


DEVANAGARI = [chr(c) for c in range(0x0900, 0x0980) if LIBC.wcwidth(ctypes.c_wchar(chr(c))) >= 0]
TEXT = st.text(st.sampled_from([*DEVANAGARI, *"aéőűÁ ♠♥♦♣│─╭╮⏎←→"]), max_size=40)


def test_every_devanagari_character_takes_the_terminals_cells() -> None:
    assert DEVANAGARI
    wrong = {hex(ord(c)): (cell_len(c), wcswidth(c)) for c in DEVANAGARI if cell_len(c) != wcswidth(c)}
    assert not wrong


@given(TEXT)
def test_a_line_is_as_wide_as_the_terminal_draws_it(text: str) -> None:
    if wcswidth(text) >= 0:  # (a control character has no width to compare)
        assert cell_len(text) == wcswidth(text)


def test_only_zero_width_spacing_marks_change() -> None:
    ranges = [(0x0900, 0x0902, 0), (0x093E, 0x0940, 0), (0x0041, 0x005A, 1), (0x1100, 0x115F, 2)]
    assert terminal_widths(ranges) == [
        (0x0900, 0x0902, 0),  # Mn: no cell
        (0x093E, 0x093E, 1),  # ा  Mc: one cell
        (0x093F, 0x093F, 1),  # ि
        (0x0940, 0x0940, 1),  # ी
        (0x0041, 0x005A, 1),
        (0x1100, 0x115F, 2),
    ]
