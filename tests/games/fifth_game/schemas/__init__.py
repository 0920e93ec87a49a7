"""The JSON Schema of a Coin Flick table file's ``game`` section."""
