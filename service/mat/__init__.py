"""The mat's shared types, below sensing and attribution: what the table is and what it saw of a shot.

``geometry`` reads the physical description of a table (mat, sensors, piece sizes, from ``content/``);
``trace`` holds the shot trace (scans, pieces, impacts, walls) and its JSON Lines form.
"""
