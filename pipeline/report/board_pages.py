"""The deal pages: one per deal of an event, its tables side by side (both rooms of a team
match, a pair event's traveller) with the hands, the auction and play where recorded, the
double dummy table and par, and each table's stored score (the rate stage's
``table_scores``); arranged here and rendered in worker processes."""

from __future__ import annotations

import math
from functools import partial
from itertools import chain, islice
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np
import pandas as pd

from bridgerank.core.batches import batches
from bridgerank.core.pool import in_order
from bridgerank.pipeline.report.board_view import SEAT_NAMES, board_view, hands_of, show_card
from bridgerank.pipeline.report.deal_facts import DD_STRAINS_SHOWN, dd_grid
from bridgerank.pipeline.report.frames import rows
from bridgerank.pipeline.report.page_writer import PageWriter, player_file
from bridgerank.pipeline.report.site_data import SEAT_COLUMNS, SiteData
from bridgerank.pipeline.report.templating import environment

__all__ = ["deal_pages", "write_boards"]


def write_boards(folder: Path, data: SiteData, with_pages: set[str], jobs: int) -> tuple[int, int]:
    """A page per board, with the other rooms and tables of the same deal and event:
    arranged here, rendered and written in ``jobs`` processes. Pages and bytes written."""
    if data.boards.empty:
        return 0, 0
    chunks = batches(_board_contexts(data, with_pages), _CHUNK)
    ahead = list(islice(chunks, 2))  # a board makes a page: one chunk at least
    everything = chain(ahead, chunks)
    if jobs <= 1 or len(ahead) == 1:  # one chunk: a worker would cost more than it saves
        counts = [_render_boards(folder, chunk) for chunk in everything]
    else:
        # arranged here while the workers render the chunks before, not all before any
        counts = list(in_order(partial(_render_boards, folder), everything, jobs, 2 * jobs))
    return sum(count for count, _ in counts), sum(size for _, size in counts)


# Board pages per task of the parallel writer: a site of fewer is written in one process.
_CHUNK = 1000


def _render_boards(folder: Path, pages: list[tuple[str, dict[str, Any]]]) -> tuple[int, int]:
    """Render and write board pages (in a worker process: its own template environment)."""
    template = environment().get_template("site/board.html.j2")
    writer = PageWriter(folder)
    for name, context in pages:
        writer.write(name, template.render(root="../", show_card=show_card, **context))
    return writer.pages, writer.bytes


def deal_pages(boards: pd.DataFrame) -> dict[int, int]:
    """Board id -> the id naming its page: the tables of one deal in one event share a page
    (both rooms of a team match side by side, a pair event's whole traveller)."""
    first = boards.groupby(["event", "deal_hash"])["id"].transform("min")
    return dict(zip(boards["id"].astype(int), first.astype(int)))


def _board_contexts(data: SiteData, with_pages: set[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file name, template context) of every deal page."""
    cards = _grouped(data.cards)
    auctions = _grouped(data.auctions)
    calls = _grouped(data.calls)
    evidence = data.evidence.set_index("board_id").to_dict("index") if len(data.evidence) else {}
    players: dict[int, dict[str, str]] = {}
    for board_id, seat, player in zip(
        data.seats["board_id"], data.seats["seat"], data.seats["player"]
    ):
        players.setdefault(int(board_id), {})[seat] = player
    deals: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in rows(data.boards.sort_values("id")):
        deals.setdefault((record["event"], record["deal_hash"]), []).append(record)
    for group in deals.values():
        tables: list[dict[str, Any]] = []
        for board in group:
            board_id = int(board["id"])
            names = {seat: board[column] or "" for seat, column in SEAT_COLUMNS.items()}
            links = {
                seat: player_file(player)
                for seat, player in players.get(board_id, {}).items()
                if player in with_pages
            }
            # a traveller row (no auction, no play) needs no view: a pair event's hundreds of
            # tables would each parse the deal again
            full = bool(board.get("auction") or board.get("play"))
            view = (
                board_view(
                    board,
                    cards.get(board_id, []),
                    auctions.get(board_id, []),
                    calls.get(board_id, []),
                )
                if full
                else None
            )
            tables.append(
                {
                    "board": board,
                    "view": view,
                    "names": names,
                    "links": links,
                    "evidence": evidence.get(board_id),
                    "full": full,
                }
            )
        for table in tables:
            _scored(table, data.scores.get(int(table["board"]["id"])))
        first: dict[str, Any] = group[0]
        pars = [table["evidence"].get("ns_par") for table in tables if table["evidence"]]
        par = next((int(value) for value in pars if value is not None and value == value), None)
        yield (
            f"boards/{int(first['id'])}.html",
            {
                "first": first,
                "hands": hands_of(first.get("deal")),
                "dd_grid": dd_grid(data.dd_tables.get(str(first.get("deal_hash")))),
                "dd_strains": DD_STRAINS_SHOWN,
                "par": par,
                "full": [table for table in tables if table["full"]],
                "traveller": [table for table in tables if not table["full"]],
                "seat_names": SEAT_NAMES,
            },
        )


def _scored(table: dict[str, Any], score: Mapping[str, Any] | None) -> None:
    """Set a table's stored score (the rate stage's ``table_scores``): North-South's score
    (None: unknown), its matchpoint percentage where the deal was matchpointed, and a team
    board's IMPs (None: not an open room with both rooms scored)."""
    score = score or {}
    table["ns_score"] = _whole(score.get("ns_score"))
    table["imps"] = _whole(score.get("imps"))
    if not _missing(score.get("ns_percent")):
        table["ns_percent"] = score["ns_percent"]


def _whole(value: Any) -> int | None:
    """An integer column's value from a frame (a float where the column has gaps)."""
    return None if _missing(value) else int(value)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _grouped(frame: pd.DataFrame) -> dict[int, list[dict[str, Any]]]:
    """The rows of ``frame`` per board id (one pass: per-group frames cost too much at
    millions of cards)."""
    if frame.empty:
        return {}
    ordered = frame.sort_values("board_id", kind="stable")
    records = rows(ordered)
    ids = ordered["board_id"].to_numpy()
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    ends = np.r_[starts[1:], len(ids)]
    return {int(ids[a]): records[a:b] for a, b in zip(starts, ends)}
