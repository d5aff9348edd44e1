"""Every text the web templates and server show is in a catalog: the platform's pages' in ``web``, and
TriPeaks' page's in ``web`` or in TriPeaks' own ``tripeaks_site`` (which the platform's catalogs fall
back on), so all four languages have it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from parlour.i18n import catalog_path
from parlour.server import i18n as web_i18n

PARLOUR = Path(web_i18n.__file__).resolve().parents[1]
TEMPLATES = {
    "base.html": (PARLOUR / "web" / "templates", ("web",)),
    "home.html": (PARLOUR / "web" / "templates", ("web",)),
    "tripeaks.html": (PARLOUR / "tripeaks" / "templates", ("web", "tripeaks_site")),
}
CALL = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\)""")


def catalog_ids(domain: str = "web") -> set[str]:
    with catalog_path("hu", domain).open("rb") as handle:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}


def test_template_texts_are_in_the_web_catalog() -> None:
    missing = []
    for name, (folder, domains) in TEMPLATES.items():
        path = folder / name
        assert path.exists(), path
        known = set().union(*(catalog_ids(domain) for domain in domains))
        for double, single in CALL.findall(path.read_text(encoding="utf-8")):
            text = double or single
            if text not in known:
                missing.append((name, text))
    assert missing == []


def test_protocol_reasons_are_in_the_web_catalog() -> None:
    assert set(web_i18n._PROTOCOL_REASONS.values()) <= catalog_ids()


VIETNAMESE_PAGES = {
    "/": "Trò chơi bài",
    "/tripeaks": "Ván mới",
    "/thirteen": "Bỏ lượt",
    "/rules/thirteen": "Luật Tiến lên",
    "/rules/tripeaks": "Luật TriPeaks",
    "/thirteen/tables": "Chơi với bạn bè",
    "/stats": "Thống kê",
    "/player": "Tuỳ chọn",
    "/ratings/thirteen": "Bảng xếp hạng",
    "/tripeaks/daily": "Ván bài trong ngày",
    "/tripeaks/numbered": "Ván đánh số",
}


def test_lang_vi_serves_every_page_in_vietnamese(thirteen_client: Any) -> None:
    client = thirteen_client
    for path, words in VIETNAMESE_PAGES.items():
        page = client.get(f"{path}?lang=vi")
        assert page.status_code == 200, path
        assert '<html lang="vi"' in page.text and words in page.text, path
    # Only that page: the next one without ?lang is in the browser's language again.
    assert '<html lang="en"' in client.get("/stats").text
    assert '<html lang="vi"' in client.get("/stats", headers={"Accept-Language": "vi-VN,vi;q=0.9"}).text
