"""Solved deals shared between machines: the DD store to a CSV file and back.

A team that has solved a championship archive should not make every member solve it again,
so ``bridgerank dd export`` writes the store's tables and play traces of one solver version
to a CSV file (gzip-compressed when its name ends in ``.gz``) and ``bridgerank dd import``
reads such a file into another machine's store. The format (docs/dds.md) is plain CSV with
one header line, so any tool can read the data set::

    kind,solver,deal,trump,leader,cards,values
    table,endplay 0.5.12,N:AK75.54.987653.A Q.AT983.42.JT753 ...,,,,75756666b2b249497575
    trace,endplay 0.5.12,N:AK75.54.987653.A Q.AT983.42.JT753 ...,D,E,CQ CA C2 C6,99999

* ``table``: ``values`` is the 20 hex digits of the table, strains S H D C N, each for
  declarer North, East, South, West; ``trump``, ``leader`` and ``cards`` are empty;
* ``trace``: the play of ``cards`` (space-separated, in playing order) with ``trump``
  (S H D C or N) and the opening lead by ``leader`` (N E S W); ``values`` is one hex digit
  a value, the declaring side's double dummy tricks before each card and after the last
  (``len(cards) + 1`` of them).

Par scores are not exported: they cost nothing next to a table.

A file is another person's text, so it is never trusted. Every row is validated (the deal
re-parsed and re-written canonical, every number 0-13, every play legal); a bad row is
counted with its line number and skipped, never fatal. Tables of a deal the store already
holds must agree with the store's, and a random sample of the new tables is solved again
live before anything is written: one disagreement refuses the whole file, since a file with
one wrong table may hold many. Rows of another solver version are skipped and counted: the
store keys every value by the solver that made it and hands out only its own version's, so
another version's rows would never be read. The CSV module reads the file and the store's
own parameterised statements write it: no text of the file ever reaches SQL.

The pieces: the file's header and opening (:mod:`bridgerank.dds.exchange_file`), the store as
the commands open it and ``dd info`` (:mod:`bridgerank.dds.store_opening`), the export
(:mod:`bridgerank.dds.store_export`), the import (:mod:`bridgerank.dds.store_import`) and the
checks that refuse a file (:mod:`bridgerank.dds.import_checks`). The ``bridgerank dd``
commands import them all from here.
"""

from __future__ import annotations

from bridgerank.dds.exchange_file import HEADER
from bridgerank.dds.import_checks import FileRefused
from bridgerank.dds.store_export import ExportCounts, export_store
from bridgerank.dds.store_import import ImportCounts, import_file
from bridgerank.dds.store_opening import StoreInfo, open_store, store_info

__all__ = [
    "HEADER",
    "ExportCounts",
    "FileRefused",
    "ImportCounts",
    "StoreInfo",
    "export_store",
    "import_file",
    "open_store",
    "store_info",
]
