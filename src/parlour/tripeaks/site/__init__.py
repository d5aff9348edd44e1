"""TriPeaks' pages: the game's page and its review page, and the charts of its statistics."""
