"""Deal codes: base-26 letters, E/C/N, variant flags, case-insensitive input, canonical output."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.deal import DEAL_NUMBER_LIMIT
from parlour.errors import InvalidCode, InvalidInput
from parlour.tripeaks.codes import DealCode, letters_to_number, number_to_letters
from parlour.tripeaks.rules import CLASSIC, EASY, VARIANTS, Rules


@pytest.mark.parametrize(
    ("letters", "number"),
    [("AAAAAAA", 0), ("AAAAAAB", 1), ("AAAAABA", 26), ("AAAAAAZ", 25), ("ZZZZZZZ", 26**7 - 1)],
)
def test_base_26_big_endian(letters: str, number: int) -> None:
    assert letters_to_number(letters) == number
    assert number_to_letters(number) == letters


@pytest.mark.parametrize(
    ("text", "number", "rules", "canonical"),
    [
        ("TP1-E-AAAAAAB", 1, EASY, "TP1-E-AAAAAAB"),
        ("tp1-e-aaaaaab", 1, EASY, "TP1-E-AAAAAAB"),
        ("Tp1-C-AAAAABA", 26, CLASSIC, "TP1-C-AAAAABA"),
        ("TP1-N-AAAAAAB", 1, EASY, "TP1-E-AAAAAAB"),
        ("TP1-C-AAAAAAB-jo", 1, CLASSIC.with_variants("joker", "open_peaks"), "TP1-C-AAAAAAB-JO"),
        ("tp1-n-aaaaaad-djotw", 3, EASY.with_variants(*VARIANTS), "TP1-E-AAAAAAD-DJOTW"),
    ],
)
def test_parse_and_canonical_form(text: str, number: int, rules: Rules, canonical: str) -> None:
    code = DealCode.parse(text)
    assert (code.number, code.rules) == (number, rules)
    assert str(code) == canonical
    assert DealCode.parse(canonical) == code
    assert eval(repr(code)) == code


@pytest.mark.parametrize(
    "text",
    [
        "",
        "TP1",
        "TP1-E-AAAAAA",
        "TP1-E-AAAAAAAA",
        "TP2-E-AAAAAAB",
        "TP1-X-AAAAAAB",
        "TP1-E-AAAAAA1",
        "TP1EAAAAAAB",
        "TP1-E-AAAAAAB-",
        "TP1-E-AAAAAAB-JJ",
        "TP1-E-AAAAAAB-Q",
        "TP1-E-AAAAAAB-J-O",
        "TP1-É-AAAAAAB",
        # only the case may differ from the canonical form: no spaces, no other characters
        " TP1-E-AAAAAAB",
        "TP1-E-AAAAAAB ",
        "TP1-E-AAAAAAB\n",
        "TP1 -E-AAAAAAB",
        "TP1-E-AAAA AAB",
        "TP1-E-AAAAAAB.",
        "TP1_E_AAAAAAB",
        # letters that become A-Z only through Unicode case mapping
        "TP1-E-AAAAAAſ",
        "tp1-e-aaaaaaı",
        "TP1-E-AAAAAß",
        "TP1-E-AAAAAAB-\u212a",
        "ＴＰ1-E-AAAAAAB",
        # variant letters out of alphabetical order
        "TP1-E-AAAAAAB-OJ",
        "TP1-E-AAAAAAD-WTDJO",
    ],
)
def test_bad_codes_are_rejected_with_help(text: str) -> None:
    with pytest.raises(InvalidCode) as caught:
        DealCode.parse(text)
    assert repr(text) in str(caught.value)
    assert "a deal code looks like TP1-E-AAAAAAB" in str(caught.value)
    assert caught.value.code == "invalid_code" and isinstance(caught.value, InvalidInput)


def test_non_text_and_out_of_range() -> None:
    with pytest.raises(InvalidCode):
        DealCode.parse(7)  # type: ignore[arg-type]
    with pytest.raises(InvalidCode):
        DealCode(DEAL_NUMBER_LIMIT)
    with pytest.raises(InvalidCode):
        DealCode(-1)


def test_rules_helpers() -> None:
    assert Rules.named("Easy") is EASY and Rules.named("classic") is CLASSIC
    assert EASY.name == "easy" and CLASSIC.name == "classic" and EASY.variants == ()
    with pytest.raises(InvalidInput, match="'hard'"):
        Rules.named("hard")
    with pytest.raises(InvalidInput, match="'wild'"):
        EASY.with_variants("wild")
    assert EASY.as_dict()["king_ace_linked"] is True


@given(
    st.integers(min_value=0, max_value=DEAL_NUMBER_LIMIT - 1),
    st.booleans(),
    st.sets(st.sampled_from(VARIANTS)),
)
def test_every_code_round_trips(number: int, linked: bool, variants: set[str]) -> None:
    code = DealCode(number, Rules(king_ace_linked=linked).with_variants(*variants))
    text = str(code)
    assert text == text.upper()
    assert DealCode.parse(text) == code
    assert DealCode.parse(text.lower()) == code


def _near_codes() -> st.SearchStrategy[str]:
    """Texts close to codes: canonical codes with case changes, stray characters and Unicode look-alikes."""
    canonical = st.builds(
        lambda n, linked, variants: str(DealCode(n, Rules(king_ace_linked=linked).with_variants(*variants))),
        st.integers(min_value=0, max_value=DEAL_NUMBER_LIMIT - 1),
        st.booleans(),
        st.sets(st.sampled_from(VARIANTS)),
    )
    noise = st.sampled_from([" ", "\n", "-", "ſ", "ı", "ß", "\u212a", "Ａ", "N", "Q", "J", "0", "é"])

    def mangle(text: str, data: st.DataObject) -> str:
        chars = list(text)
        for _ in range(data.draw(st.integers(0, 3))):
            i = data.draw(st.integers(0, len(chars)))
            action = data.draw(st.sampled_from(["insert", "replace", "delete", "swap_case"]))
            if action == "insert":
                chars.insert(i, data.draw(noise))
            elif i < len(chars):
                if action == "replace":
                    chars[i] = data.draw(noise)
                elif action == "delete":
                    del chars[i]
                else:
                    chars[i] = chars[i].swapcase()
        return "".join(chars)

    return st.builds(mangle, canonical, st.data())


@settings(max_examples=400)
@given(_near_codes())
def test_a_code_is_accepted_only_when_it_differs_from_its_canonical_form_in_case(text: str) -> None:
    try:
        code = DealCode.parse(text)
    except InvalidCode as error:
        assert repr(text) in str(error) and "a deal code looks like TP1-E-AAAAAAB" in str(error)
        return
    assert text.isascii()
    canonical = str(code)
    assert text.upper() in (canonical, canonical[:4] + "N" + canonical[5:])
