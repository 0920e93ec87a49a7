"""The tournament hub: many tables bridged into one central Mosquitto, one client that follows them all.

- ``bridge_config``: the Mosquitto files for both ends of each table's bridge (accounts, ACLs).
- ``shipper``: runs beside a table's daemon and publishes its event log record by record, answering catch-up
  requests, so the hub holds every game's whole log.
- ``store`` / ``model``: the hub's append-only SQLite file and the tournament it folds into.
- ``swiss`` / ``campaign``: pairings, standings and tie-breaks; a campaign's leaderboard.
- ``feed``: the hub's MQTT client (live table state, logs, gap detection and catch-up).
- ``live``: each table as last heard, and how much of each game's log the hub holds.
- ``exports``, ``web``, ``cli``: CSV / JSON / TRF exports, the pages, ``smartmat hub``.

docs/tournaments.md is the organiser's guide.
"""
