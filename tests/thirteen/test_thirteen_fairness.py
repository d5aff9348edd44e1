"""The fairness commitment: SHA-256 of CODE|SALT, checked by the engine, the command line and anyone."""

from __future__ import annotations

import hashlib

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from parlour.cli import main
from parlour.errors import InvalidCode, InvalidInput
from parlour.thirteen.codes import format_code
from parlour.thirteen.fairness import commitment, new_salt, verify

codes = st.integers(0, 26**7 - 1).map(format_code)
salts = st.binary(min_size=16, max_size=16).map(bytes.hex)


@given(codes, salts)
def test_a_commitment_is_plain_sha256_of_code_and_salt(code: str, salt: str) -> None:
    made = commitment(code, salt)
    assert made == hashlib.sha256(f"{code}|{salt}".encode()).hexdigest()
    assert verify(code.lower(), salt.upper(), made.upper())


@given(codes, codes, salts, salts)
def test_another_code_or_salt_does_not_match(code: str, other: str, salt: str, other_salt: str) -> None:
    made = commitment(code, salt)
    assert verify(other, salt, made) == (other == code)
    assert verify(code, other_salt, made) == (other_salt == salt)


def test_salts_are_fresh_and_well_formed() -> None:
    made = {new_salt() for _ in range(100)}
    assert len(made) == 100 and all(len(salt) == 32 and int(salt, 16) >= 0 for salt in made)


@pytest.mark.parametrize(
    ("code", "salt", "digest", "error"),
    [
        ("TH1-AAAA", "0" * 32, "0" * 64, InvalidCode),
        ("TH1-AAAAAAB", "xyz", "0" * 64, InvalidInput),
        ("TH1-AAAAAAB", "0" * 32, "not hex", InvalidInput),
    ],
)
def test_malformed_input_is_refused_clearly(
    code: str, salt: str, digest: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        verify(code, salt, digest)


def test_the_command_line_checks_a_finished_match() -> None:
    salt = "0123456789abcdef0123456789abcdef"
    made = commitment("TH1-AAAAAAC", salt)
    runner = CliRunner()
    good = runner.invoke(main, ["thirteen", "verify", "TH1-AAAAAAC", salt, made])
    assert good.exit_code == 0 and "matches" in good.output
    bad = runner.invoke(main, ["thirteen", "verify", "TH1-AAAAAAB", salt, made])
    assert bad.exit_code == 1 and "NOT" in bad.output
    broken = runner.invoke(main, ["thirteen", "verify", "TH1-AAAAAAB", "salt", made])
    assert broken.exit_code == 2 and "not a salt" in broken.output and "Traceback" not in broken.output


def test_the_command_line_checks_a_secret_match_of_generator_2() -> None:
    from parlour.thirteen import MatchCode

    code, salt = str(MatchCode.secret()), new_salt()
    made = commitment(code, salt)
    runner = CliRunner()
    good = runner.invoke(main, ["thirteen", "verify", code.lower(), salt, made])
    assert good.exit_code == 0 and f"dealt from {code}" in good.output
    other = str(MatchCode.secret())
    assert runner.invoke(main, ["thirteen", "verify", other, salt, made]).exit_code == 1
    typo = code[:-1] + ("A" if code[-1] != "A" else "B")
    broken = runner.invoke(main, ["thirteen", "verify", typo, salt, made])
    assert broken.exit_code == 2 and "check character" in broken.output and "Traceback" not in broken.output
