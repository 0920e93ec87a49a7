"""smartmat's web server: one server, one SSE fan-out and one security layer for the table and the hub.

- ``server.py``: the one server (cheroot; HTTPS, the plain spectator listener, a growing worker pool, a limit
  on live streams); ``slow_clients.py``: what idle and slow clients cannot do; ``tls.py``: certificates.
- ``web.py``: the frame every app shares (the security layer of ``security.py``: sessions, CSRF, headers;
  errors; what closes at shutdown); ``sse.py``: the one Server-Sent Events fan-out.
- ``table/``: the table's dashboard (blueprints, templates, static; ``create_app``), fed by MQTT.
- ``hub/``: the tournament hub's pages (blueprint ``hub`` under ``/hub/``, templates, static;
  ``create_hub_app``), over ``service.hub``'s tournament.
- ``cli.py``: ``smartmat dashboard``.

Only the composition root (``service/app/``) imports this package; it imports the service's lower layers.
"""
