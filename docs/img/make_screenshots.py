"""Screenshots of the dashboard for docs/dashboard.md, taken from the demo: each game is played by `smartmat
run` on the simulated mat for a little while, then a phone (390 x 844) opens the spectator page and the
referee console and a TV (1920 x 1080, saved at half size) opens the TV view.

    .venv/bin/python docs/img/make_screenshots.py            # every game, into docs/img/
    .venv/bin/python docs/img/make_screenshots.py --play 20 catacombs-3e

Needs Chromium at /usr/bin/chromium and Playwright (the test requirements). Each PNG is checked to stay under
150 kB so the repository stays small.
"""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, ViewportSize, sync_playwright

HERE = Path(__file__).resolve().parent
LIMIT_BYTES = 150_000
# The game's name in the files' names, and `smartmat run`'s arguments for it.
GAMES: dict[str, list[str]] = {
    "catacombs-3e": ["--ruleset", "catacombs-3e"],
    "catacombs-1e": ["--ruleset", "catacombs-1e"],
    "castles-2e": ["--ruleset", "catacombs-and-castles-2e", "--mode", "team"],
    "castles-1e-boss": ["--ruleset", "catacombs-and-castles-1e", "--mode", "boss"],
}
PHONE: ViewportSize = {"width": 390, "height": 844}
TV: ViewportSize = {"width": 1920, "height": 1080}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_demo(game: str, folder: Path) -> tuple[subprocess.Popen[str], str, str]:
    """``smartmat run`` for ``game``: the process, the dashboard's address and the referee PIN it printed."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "service.cli",
        "run",
        *GAMES[game],
        "--data-dir",
        str(folder / "data"),
        "--pin-file",
        str(folder / "pin"),
        "--new-game",
        "--dashboard-port",
        str(port),
        "--public-url",
        f"http://127.0.0.1:{port}/",
    ]
    log = (folder / "run.log").open("w")  # a file, not a pipe: a full pipe would stop the demo
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True)
    pin = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        said = (folder / "run.log").read_text(encoding="utf-8", errors="replace")
        found = re.search(r"referee PIN for this table is (\S+)", said)
        pin = found.group(1) if found else None
        if pin and "is running" in said:
            break
        time.sleep(0.5)
    if pin is None:
        process.terminate()
        raise SystemExit(f"{game}: `smartmat run` printed no referee PIN (its output: {folder / 'run.log'})")
    return process, f"http://127.0.0.1:{port}/", pin


def shoot(browser: Browser, game: str, url: str, pin: str, out: Path) -> list[Path]:
    made = []
    phone = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = phone.new_page()
    page.goto(url)
    page.wait_for_selector("#board .piece")
    page.wait_for_timeout(2500)  # the last shot's replay ends
    made.append(out / f"{game}-spectator.png")
    page.screenshot(path=str(made[-1]))
    page.goto(url + "login?next=/referee/console")
    page.fill("input[name=name]", "anna")
    page.fill("input[name=pin]", pin)
    page.click("button[type=submit]")
    page.wait_for_selector("#shot-card")
    page.wait_for_timeout(1500)
    made.append(out / f"{game}-console.png")
    page.screenshot(path=str(made[-1]))
    phone.close()
    # Half the TV's pixels on file: the page laid out (and its text sized) for 1920 x 1080.
    tv = browser.new_context(viewport=TV, device_scale_factor=0.5)
    page = tv.new_page()
    table = url.rstrip("/") + "/"
    page.goto(table)
    tv_link = page.get_attribute("a[href$='/tv']", "href")
    page.goto(table + str(tv_link).lstrip("/"))
    page.wait_for_selector("#board .piece")
    page.wait_for_timeout(2500)
    made.append(out / f"{game}-tv.png")
    page.screenshot(path=str(made[-1]))
    tv.close()
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), help=f"some of {', '.join(GAMES)}")
    parser.add_argument("--play", type=float, default=45.0, help="seconds of demo play before the pictures")
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go (default: docs/img/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    too_big = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for game in args.games:
            with tempfile.TemporaryDirectory() as folder:
                process, url, pin = start_demo(game, Path(folder))
                try:
                    time.sleep(args.play)
                    for path in shoot(browser, game, url, pin, args.out):
                        size = path.stat().st_size
                        print(f"{path}: {size} bytes")
                        if size > LIMIT_BYTES:
                            too_big.append(path.name)
                finally:
                    process.terminate()
                    process.wait(timeout=30)
        browser.close()
    if too_big:
        print(f"over {LIMIT_BYTES} bytes: {', '.join(too_big)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
