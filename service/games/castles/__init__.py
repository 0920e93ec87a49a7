"""Catacombs & Castles, first and second editions (docs/rules-api.md, "Catacombs & Castles 2E"): the shared
core (cards, state, damage), the Second Edition's rule set (Team Mode, One versus One, Boss Mode and Boss
versus Boss; health pools and token transfers), the First Edition's over it, their content and game-log
adapter."""
