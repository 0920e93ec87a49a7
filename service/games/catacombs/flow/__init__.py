"""The Catacombs turn flow: state, cards, shots, rooms, battles and the transaction the editions share."""
