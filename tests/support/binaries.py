"""Finding the real clients' binaries (nc, socat, telnet, ...)."""

from __future__ import annotations

import os
import shutil


def find_binary(*names: str) -> str | None:
    """Return the first of *names* found as a path or on PATH."""
    for name in names:
        if os.path.isabs(name):
            if os.access(name, os.X_OK):
                return name
        else:
            found = shutil.which(name)
            if found:
                return found
    return None
