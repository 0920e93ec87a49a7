"""The hub's web pages: its own Flask app and blueprint (``/hub/…``), apart from the table's dashboard.

- ``/hub/`` the organiser's overview: every table live, the round, sign-off and correction for referees;
- ``/hub/standings`` the public standings and live scores, for a big screen and phones (read-only, no login);
- ``/hub/api/…`` the same as JSON, ``/hub/api/stream`` Server-Sent Events when anything changes;
- ``/hub/export/…`` CSV, JSON and TRF; ``/hub/games/<game>/…`` any game's log and its replay.
"""

from service.hub.web.app import create_hub_app, serve_hub

__all__ = ["create_hub_app", "serve_hub"]
