"""Thirteen's pages: the match against the computer players, its friends' tables' pages, its review
page and its charts."""
