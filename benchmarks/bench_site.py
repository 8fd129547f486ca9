"""The report site's build time on a database that has been through the pipeline, against a
bare loop that writes the same pages' rows as JSON files (the I/O and the data, without the
templates), measured in the same run.

Prints the seconds of reading the data, of the site with one process and with ``--jobs``, of
the bare loop, the ratios, and the site's pages and megabytes.

Usage: python benchmarks/bench_site.py DATABASE_URL [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bridgerank.pipeline.report.board_pages import deal_pages
from bridgerank.pipeline.report.site import write_site
from bridgerank.pipeline.report.site_data import site_data_from
from bridgerank.pipeline.stages import open_store


def _bare_loop(folder: Path, data) -> float:
    """One JSON file per deal page with its boards' rows and cards: the floor of the work."""
    began = time.perf_counter()
    pages: dict[int, list] = {}
    for board_id, page in deal_pages(data.boards).items():
        pages.setdefault(page, []).append(board_id)
    boards = data.boards.set_index("id", drop=False)
    cards = dict(tuple(data.cards.groupby("board_id"))) if len(data.cards) else {}
    (folder / "bare").mkdir()
    for page, ids in pages.items():
        rows = [
            {
                "board": boards.loc[board_id].to_dict(),
                "cards": cards[board_id].to_dict("records") if board_id in cards else [],
            }
            for board_id in ids
        ]
        (folder / "bare" / f"{page}.json").write_text(json.dumps(rows, default=str))
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    engine = open_store(options.database, create=False)
    began = time.perf_counter()
    with engine.connect() as conn:
        data = site_data_from(conn)
    read = time.perf_counter() - began
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        one = write_site(root / "one", data, "<p>methods</p>", 1)
        many = write_site(root / "many", data, "<p>methods</p>", options.jobs)
        bare = _bare_loop(root, data)
    print(f"read the data: {read:.1f} s ({len(data.boards):,} boards, {len(data.cards):,} cards)")
    print(f"site, 1 process: {one.seconds:.1f} s; {one.pages:,} pages, {one.bytes / 1e6:.0f} MB")
    print(f"site, {options.jobs} processes: {many.seconds:.1f} s")
    print(f"bare loop (rows as JSON, same files): {bare:.1f} s")
    print(
        f"ratios to the bare loop: 1 process {one.seconds / bare:.2f}, "
        f"{options.jobs} processes {many.seconds / bare:.2f}"
    )


if __name__ == "__main__":
    main()
