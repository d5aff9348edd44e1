"""Parlour: TriPeaks and Thirteen with exact rules, a solver, computer players and a web app."""

__version__ = "0.1.0"
