"""Every text the web templates and server show is in the ``web`` catalog (so all four languages have it)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from parlour.i18n import LOCALE_DIR
from parlour.server import i18n as web_i18n

PARLOUR = Path(web_i18n.__file__).resolve().parents[1]
TEMPLATES = {"base.html": PARLOUR / "web" / "templates", "home.html": PARLOUR / "web" / "templates"}
TEMPLATES["tripeaks.html"] = PARLOUR / "tripeaks" / "templates"  # TriPeaks' page still speaks through web
CALL = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)""")
OWN_TEMPLATES = ("base.html", "home.html", "tripeaks.html")


def catalog_ids() -> set[str]:
    with (LOCALE_DIR / "hu" / "LC_MESSAGES" / "web.po").open("rb") as handle:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}


def test_template_texts_are_in_the_web_catalog() -> None:
    known = catalog_ids()
    missing = []
    for name in OWN_TEMPLATES:
        path = TEMPLATES[name] / name
        assert path.exists(), path
        for double, single in CALL.findall(path.read_text(encoding="utf-8")):
            text = double or single
            if text not in known:
                missing.append((name, text))
    assert missing == []


def test_protocol_reasons_are_in_the_web_catalog() -> None:
    assert set(web_i18n._PROTOCOL_REASONS.values()) <= catalog_ids()
