"""Small helpers every layer may use: atomic file writes, systemd's notify socket."""
