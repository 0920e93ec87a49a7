"""One table's game: its table file, the session fold, the published board, disc bindings, shots and the
commands a table accepts."""
