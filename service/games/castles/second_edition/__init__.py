"""Catacombs & Castles Second Edition: its rule set and set-up."""
