"""The simulated table: the physical mat, its sensors and the people who play at it, a program beside the
daemon that reaches it only through the wire protocol, MQTT and the camera's frame interface."""
