"""TriPeaks on the command line: ``parlour tripeaks …`` (show, play, solve, census, hint, review, daily)."""
