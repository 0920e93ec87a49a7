"""The overhead camera's process (``smartmat camera run``, docs/camera.md): frames read into disc places and
streamed over MQTT to the table's daemon under the camera's own broker account, with a heartbeat.

It is a program of its own, like the LED trackers' bridge: the daemon never loads OpenCV, and a camera that
stops or hangs stops nothing but itself.
"""
