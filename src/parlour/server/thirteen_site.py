"""Every route of Thirteen's own (the page module its definition names): the match against the computer
players, and its friends' tables pages (the tables' API and socket are every game's)."""

from __future__ import annotations

from fastapi import APIRouter

from parlour.server import thirteen_page, thirteen_table_pages

router = APIRouter()
router.include_router(thirteen_page.router)
router.include_router(thirteen_table_pages.router)
