"""Writing the site's files: a player page's file name, and a writer that counts what it
wrote."""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["PageWriter", "player_file"]


def player_file(player: str) -> str:
    """A player page's file name: from a hash of the name, so no name reaches a path."""
    return hashlib.sha1(player.encode("utf-8")).hexdigest()[:12] + ".html"


class PageWriter:
    """Writes the site's files under a folder and counts the pages and bytes written."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.pages, self.bytes = folder, 0, 0

    def write(self, name: str, html: str) -> None:
        payload = html.encode("utf-8")
        (self.folder / name).write_bytes(payload)
        self.pages += name.endswith(".html")
        self.bytes += len(payload)
