"""The table daemon: the loop that reads the mat, folds shots and commands into the game and publishes it."""
