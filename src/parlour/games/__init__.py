"""Parlour's games as the platform knows them: each one's definition, the registry that lists them,
and what every game shares (friends' tables).
"""
