"""Scripts and styles go gzip-compressed to browsers that take it; pages never do, since they carry the
CSRF token beside what a player typed (a compressed page's length would leak how alike they are)."""

from __future__ import annotations

import gzip

import pytest
from fastapi.testclient import TestClient

from parlour.server.context import STATIC_DIR

PARLOUR = STATIC_DIR.parents[1]


@pytest.mark.parametrize(
    ("asset", "folder"),
    [
        ("js/thirteen.js", "thirteen"),
        ("js/tripeaks.js", "tripeaks"),
        ("css/thirteen.css", "thirteen"),
        ("css/parlour.css", "web"),
    ],
)
def test_scripts_and_styles_go_compressed_to_browsers_that_take_gzip(
    site_client: TestClient, asset: str, folder: str
) -> None:
    original = (PARLOUR / folder / "static" / asset).read_bytes()  # a game's own file, or the platform's
    # The raw stream, as a browser gets it: httpx would otherwise undo the compression unseen.
    with site_client.stream("GET", f"/static/{asset}", headers={"Accept-Encoding": "gzip"}) as answer:
        raw = b"".join(answer.iter_raw())
        headers = answer.headers
    plain = site_client.get(f"/static/{asset}", headers={"Accept-Encoding": "identity"})
    assert headers["content-encoding"] == "gzip" and "accept-encoding" in headers["vary"].lower()
    assert gzip.decompress(raw) == original
    assert len(raw) < len(original) / 2
    assert "content-encoding" not in plain.headers and plain.content == original


def test_pages_are_never_compressed(site_client: TestClient) -> None:
    site_client.post("/api/player")
    for path in ("/", "/tripeaks", "/thirteen", "/player"):
        answer = site_client.get(path, headers={"Accept-Encoding": "gzip, br"})
        assert answer.status_code == 200
        assert "content-encoding" not in answer.headers, path


def test_a_small_asset_is_sent_as_it_is(site_client: TestClient) -> None:
    answer = site_client.get("/static/js/player.js", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers
    assert answer.content == (STATIC_DIR / "js/player.js").read_bytes()  # under the 1 KB it takes
