"""Every route of Thirteen (the page module its definition names): the match against the computer
players, and friends' tables (their pages, their API and their socket)."""

from __future__ import annotations

from fastapi import APIRouter

from parlour.server import table_pages, table_socket, thirteen_page

router = APIRouter()
router.include_router(thirteen_page.router)
router.include_router(table_pages.router)
router.include_router(table_socket.router)
