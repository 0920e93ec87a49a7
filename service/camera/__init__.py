"""An overhead camera over the mat (docs/camera.md): frames in, each disc's path on the mat out.

capture.py reads frames with timestamps from a camera or a recording; layout.py says where the mat's fiducials
and each disc's marker are; mapping.py maps the image to mat millimetres and notices a bumped camera;
detect.py finds the discs in a frame; track.py follows them through a shot; shots.py cuts a shot's frames
into the trace's ``camera`` block, on the board's clock (clock.py).

Every module that needs OpenCV or NumPy (the ``camera`` extra) imports them itself, so a table without a
camera never loads them: importing this package loads neither.
"""
