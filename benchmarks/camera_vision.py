"""The overhead camera's vision on rendered video of simulated shots (docs/camera.md, "Measured").

Each table draws its own hidden camera; the figures are position error by speed and under a hand or arm,
frames lost, identity swaps, bumps noticed, the clock offset's error, and CPU per frame as a ratio to decoding
the same frame from JPEG in the same run. Run from the repository root (needs the camera extra):

    .venv/bin/python benchmarks/camera_vision.py [--tables 2] [--shots 10] [--seed 1] [--json]

It is `smartmat bench camera` under another name.
"""

from __future__ import annotations

import sys

from service.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "camera", *sys.argv[1:]]))
