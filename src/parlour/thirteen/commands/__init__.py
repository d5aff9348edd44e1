"""Thirteen on the command line: ``parlour thirteen …``."""
