"""Thirteen for machine learning (the ``learn`` extra): its PettingZoo environment."""
