"""Catacombs: the turn flow both editions share (flow/), Third Edition with its expansions, First Edition,
and their content and game-log adapters."""
