"""Catacombs Third Edition: its rule set and pieces; its expansions in expansions/."""
