"""Parlour's web server: the ASGI app (``create_app``), live games over WebSockets, four languages."""

from __future__ import annotations

from parlour.server.app import create_app

__all__ = ["create_app"]
