"""Third Edition's expansions: the Cavern of Soloth's Altar and the Castles heroes, shots and playmats."""
