"""The composition root: ``smartmat run`` and ``smartmat simulate`` wire the bridge, the daemon, MQTT, the
dashboard and the simulated table together; the only importer of web_dashboard."""
