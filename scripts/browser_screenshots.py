"""Screenshots of the graphmem guide in the Neo4j Browser of the local server, clicked
through the way a user does: log in, open the guide, click each runnable block of each
slide (the ``:style`` and ``:param`` blocks, then the queries) and run it.

Needs Debian's ``chromium`` and the ``playwright`` pip package (never ``playwright
install``: the system Chromium is used). Not part of the test run; see docs/browser.md:

    python scripts/browser_screenshots.py --space demo --out shots/

It starts ``graphmem browser --space SPACE --port PORT`` for the guide and the style,
writes ``<out>/slide<N>-guide.png`` (the slide) and ``<out>/slide<N>-q<M>.png`` (each
query's result frame), and prints one line per block with the frame's status text.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from graphmem.config import Settings

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

CHROMIUM = "/usr/bin/chromium"
GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))  # the CLI of this environment


def wait_for(url: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


def shoot(space: str, port: int, out: Path, settings: Settings) -> None:
    from playwright.sync_api import sync_playwright

    guide = f"http://localhost:{port}/graphmem"
    browser_url = f"http://127.0.0.1:{settings.http_port}/browser/?cmd=play&arg={quote(guide)}"
    password = settings.password_file.read_text(encoding="utf-8").strip()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = chromium.new_page(viewport={"width": 1400, "height": 1100})
        page.goto(browser_url)
        page.get_by_test_id("username").fill("neo4j")
        page.get_by_test_id("password").fill(password)
        page.get_by_test_id("connect").click()
        page.get_by_test_id("disconnectedBanner").wait_for(state="detached", timeout=30_000)
        carousel = page.get_by_test_id("carousel")
        carousel.wait_for()
        # The stream keeps 15 frames by default: the guide's own frame would drop out.
        page.get_by_test_id("activeEditor").click()
        page.keyboard.type(":config maxFrames: 100")
        page.get_by_test_id("editor-Run").click()
        page.wait_for_timeout(1000)
        # The carousel renders the current slide only (a ``div.slide``), one dot per slide.
        slides = carousel.locator("li[aria-label]").count()
        for number in range(slides):
            carousel.screenshot(path=out / f"slide{number}-guide.png")
            blocks = carousel.locator("div.slide pre.runnable")
            for index in range(blocks.count()):
                try:
                    run_block(page, blocks.nth(index), out / f"slide{number}-q{index}.png")
                except Exception:
                    page.screenshot(path=out / "failed.png", full_page=True)
                    raise
            if number + 1 < slides:
                carousel.get_by_test_id("nextSlide").click()
                page.wait_for_timeout(500)
        chromium.close()


def run_block(page: Page, block: Locator, shot: Path) -> None:
    """Click a guide block (the Browser copies it into the editor), run it, wait for its
    frame to draw and settle (the force layout), and keep a screenshot of the frame."""
    text = block.inner_text().strip()
    block.click()
    page.get_by_test_id("editor-Run").click()
    page.wait_for_timeout(1200 if text.startswith(":") else 4000)
    frame = page.get_by_test_id("frame").first
    frame.screenshot(path=shot)
    status = frame.get_by_test_id("frameStatusbar")
    said = status.inner_text().strip() if status.count() else ""
    print(f"{shot.name}: {text.splitlines()[0][:60]!r} -> {said[:100]!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--space", default="demo")
    parser.add_argument("--port", type=int, default=7486, help="port of the guide server")
    parser.add_argument("--out", type=Path, default=Path("shots"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    settings = Settings()
    served = subprocess.Popen(
        [GRAPHMEM, "browser", "--space", args.space, "--port", str(args.port)],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://localhost:{args.port}/graphmem")
        shoot(args.space, args.port, args.out, settings)
    finally:
        served.terminate()
        served.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
