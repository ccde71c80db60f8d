"""Make sure the system Chromium that the browser tests drive is installed, with a colour emoji font.

Playwright drives Debian's Chromium with ``executable_path``; nothing downloads a browser of its
own.  The boards' drawing hints use emoji icons, which a bare system draws as empty boxes, so the
Noto colour emoji font is installed too.  Run by the README's test command (and so by .ci/run)
before pytest; does nothing when both are there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

CHROMIUM = "/usr/bin/chromium"
EMOJI_FAMILY = "Noto Color Emoji"


def has_emoji_font() -> bool:
    """Does fontconfig know a colour emoji font (the one Chromium falls back to for emoji)?"""
    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True)
    return EMOJI_FAMILY in listed.stdout


def missing() -> list[str]:
    """The Debian packages still to install."""
    wanted = {"chromium": os.path.exists(CHROMIUM), "fonts-noto-color-emoji": has_emoji_font()}
    return [package for package, present in wanted.items() if not present]


def main() -> int:
    packages = missing()
    if not packages:
        return 0
    if shutil.which("apt-get") is None:
        print(
            f"install_browser: {', '.join(packages)} missing and apt-get is not available; install by hand",
            file=sys.stderr,
        )
        return 1
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL)
        if done.returncode != 0:
            print(f"install_browser: {' '.join(command)} failed ({done.returncode})", file=sys.stderr)
            return 1
    still = missing()
    if still:
        print(f"install_browser: still missing after apt-get: {', '.join(still)}", file=sys.stderr)
    return 1 if still else 0


if __name__ == "__main__":
    sys.exit(main())
