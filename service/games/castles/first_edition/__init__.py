"""Catacombs & Castles First Edition: its rule set, set-up and transaction, over the second edition's."""
