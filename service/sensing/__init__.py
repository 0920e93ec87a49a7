"""From device messages to facts: which tag is which disc, where discs rest, where a shot begins and ends."""
