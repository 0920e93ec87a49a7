"""The guided calibration of a table (docs/setup.md, "Calibrating the mat").

``taps`` is the pure part: the marked points, a tap's impacts, the fit of sound speed, piezo lags, timing
and gains, the quality figures. ``report`` stores what the routine found beside the calibration file (when,
how well) for its age and figures. ``routine`` is the daemon's side: taps gathered from the mat while the
referee works through the points.
"""
