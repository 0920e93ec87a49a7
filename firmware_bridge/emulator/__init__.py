"""The device end of the wire: an emulated mat board on a pseudo-terminal and the sensor sources it reads."""
