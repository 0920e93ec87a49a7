"""Catacombs & Castles, both editions: the cards, state, damage, events and transaction the editions share."""
