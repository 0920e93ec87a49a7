"""Why an action was refused. One class per kind of refusal; every one is a ``ValueError``.

Each error names the rule that forbids the action as ``<file>: <section>`` so a referee can look it up.
"""

from __future__ import annotations

RULINGS = "RULINGS.md"


def cite(section: str, file: str) -> str:
    """A rule as ``<file>: <section>``; each game names its rulebooks (``service.games.<game>``)."""
    return f"{file}: {section}"


class IllegalActionError(ValueError):
    """The action breaks a rule; the state is unchanged."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.reason = message
        self.rule = rule


class WrongPhaseError(IllegalActionError):
    """The action belongs to another phase of the game (setup, battle, resolution, special room)."""


class NotYourTurnError(IllegalActionError):
    """Another character or side is to act."""


class UnknownCharacterError(IllegalActionError):
    """The action names a character that is not in the game."""


class CharacterCannotActError(IllegalActionError):
    """Dead, devoured, frozen, teleported away or already acted this round."""


class UnexpectedShotError(IllegalActionError):
    """The resolved shot is not the one the declared sequence expects next."""


class NoSuchAlternativeError(IllegalActionError):
    """The declared Or-alternative does not exist on the card."""


class DecisionPendingError(IllegalActionError):
    """A pending decision must be answered first."""


class BadDecisionError(IllegalActionError):
    """The answer does not match the pending decision or is not one of its options."""


class SuppressedShotError(IllegalActionError):
    """The room card suppresses this shot."""


class CardNotPlayableError(IllegalActionError):
    """The card is not held, already used, or its owner may not play it now."""


class NotEnoughGoldError(IllegalActionError):
    """The party cannot pay for the service or item."""


class GameOverError(IllegalActionError):
    """The game has ended; nothing more can happen."""
