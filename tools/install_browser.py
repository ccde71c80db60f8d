"""Make sure the system Chromium that the browser tests drive is installed (Debian's package).

Playwright drives it with ``executable_path``; nothing downloads a browser of its own.  Run by
the README's test command (and so by .ci/run) before pytest; does nothing when Chromium is there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

CHROMIUM = "/usr/bin/chromium"


def main() -> int:
    if os.path.exists(CHROMIUM):
        return 0
    if shutil.which("apt-get") is None:
        print(
            f"install_browser: {CHROMIUM} is missing and apt-get is not available; install Chromium by hand",
            file=sys.stderr,
        )
        return 1
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL)
        if done.returncode != 0:
            print(f"install_browser: {' '.join(command)} failed ({done.returncode})", file=sys.stderr)
            return 1
    return 0 if os.path.exists(CHROMIUM) else 1


if __name__ == "__main__":
    sys.exit(main())
