"""LED trackers beside the player boards (docs/trackers.md).

``config`` reads a table's ``trackers`` list; ``display`` decides what a character's LEDs show (pure);
``wled`` turns that into the absolute JSON state a WLED device takes on its MQTT API topic; ``bridge`` is
the MQTT client that feeds the WLED devices (``smartmat trackers``); ``gpio`` is the Pi Zero client that
drives a gpiozero ``LEDBarGraph`` (``smartmat tracker``).
"""
