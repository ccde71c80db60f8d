"""A full-page screenshot of a playtest report, opened from disk in the system Chromium (no download).

python tools/screenshot_report.py report.html report.png
"""

from __future__ import annotations

import sys
from pathlib import Path

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def main(report: str, image: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(Path(report).absolute().as_uri())
        page.screenshot(path=image, full_page=True)
        print(f"{image}: {page.title()}, {page.locator('svg').count()} plots")
        browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
