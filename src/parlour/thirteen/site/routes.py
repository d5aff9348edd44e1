"""Every route of Thirteen's own (the page module its definition names): the match against the computer
players, and its friends' tables pages (the tables' API and socket are every game's)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from fastapi import APIRouter

from parlour.thirteen.site import page as thirteen_page
from parlour.thirteen.site import table_pages as thirteen_table_pages
from parlour.thirteen.site.charts import places_chart

router = APIRouter()
router.include_router(thirteen_page.router)
router.include_router(thirteen_table_pages.router)

TEMPLATE_HELPERS: Final = MappingProxyType({"places_chart": places_chart})
"""What Thirteen's templates are given besides a page's context (its statistics section's chart)."""
