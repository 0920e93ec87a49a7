"""Catacombs content that a game's edition reads, validated and built into the cards its rules read."""
