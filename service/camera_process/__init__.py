"""The table's camera process (`smartmat camera run`): frames in, disc places out, over MQTT to the daemon."""
