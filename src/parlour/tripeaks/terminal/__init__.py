"""TriPeaks in the terminal: its screen and its board (``parlour tui``)."""
