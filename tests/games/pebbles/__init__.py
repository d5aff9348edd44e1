"""Pebbles: a test-only game of two seats, plugged into Parlour by one entry point (``tests/games``)."""
