"""Referee PINs: only their werkzeug scrypt hash is ever stored.

One helper for both PINs the product knows, which stay distinct roles: the table's referee PIN (set with
``smartmat dashboard set-pin``, checked by the dashboard's login) and each tournament referee's PIN (set with
``smartmat hub add-referee``, checked by the hub's login and ``smartmat hub correct``).
"""

from __future__ import annotations

from werkzeug.security import check_password_hash, generate_password_hash

MIN_PIN_LENGTH = 4


class PinError(ValueError):
    """A PIN that is too weak or a PIN file that cannot be read."""


def hash_pin(pin: str) -> str:
    if len(pin) < MIN_PIN_LENGTH:
        raise PinError(f"the referee PIN must have at least {MIN_PIN_LENGTH} characters")
    return generate_password_hash(pin, method="scrypt")


def pin_matches(stored_hash: str | None, attempt: str) -> bool:
    if not stored_hash:
        return False
    return check_password_hash(stored_hash, attempt)
