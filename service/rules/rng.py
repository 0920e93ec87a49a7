"""A tiny seeded generator whose whole state is one integer kept in the game state.

The rules core may not import ``random`` (no hidden global state), so replaying a log must reproduce every
draw: xorshift64* is small, fast and good enough for shuffling card decks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """A non-zero 64-bit state from any integer seed (splitmix64 finaliser spreads small seeds)."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z or 0x2545F4914F6CDD1D


def next_u64(state: int) -> tuple[int, int]:
    """Returns (new_state, value)."""
    x = state
    x ^= x >> 12
    x ^= (x << 25) & _MASK
    x ^= x >> 27
    return x, (x * 0x2545F4914F6CDD1D) & _MASK


def below(state: int, bound: int) -> tuple[int, int]:
    """A value in ``range(bound)``; rejection sampling keeps it unbiased."""
    if bound <= 0:
        raise ValueError("bound must be positive")
    limit = (1 << 64) - ((1 << 64) % bound)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % bound


def shuffled(state: int, items: Sequence[T]) -> tuple[int, tuple[T, ...]]:
    """Fisher-Yates shuffle; returns (new_state, shuffled items)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
