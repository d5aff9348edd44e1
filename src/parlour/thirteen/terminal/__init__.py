"""Thirteen in the terminal: its screen (``parlour tui``)."""
