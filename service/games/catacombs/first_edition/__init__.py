"""Catacombs First Edition: its rule set, cards, the Barbarian's rage and its services."""
