"""Catacombs & Castles Second Edition: a rule set of the game-neutral core (docs/rules-api.md, "Catacombs &
Castles 2E"). Team Mode, One versus One, Boss Mode and Boss versus Boss; health pools and token transfers."""
