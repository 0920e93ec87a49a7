"""Catacombs content that a game's edition reads, validated and built into the cards its rules read:
``third_edition.load_content`` (the Third Edition's cards as the typed ``model``, built by ``build``) and
``first_edition`` (the First Edition's)."""

from service.games.catacombs.content.model import Content
from service.games.catacombs.content.third_edition import load_content

__all__ = ["Content", "load_content"]
