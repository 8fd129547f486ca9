"""The stage ledger: fingerprints, table versions and the record of completed runs.

A stage's fingerprint hashes three things: the versions of the tables it reads, the settings
it uses, and the code it runs (:mod:`bridgerank.core.codehash`). ``bridgerank run`` skips a
stage whose fingerprint equals the one of its last completed run, so a rerun with no change
does no work, and a changed setting or input reruns exactly the stages that depend on it
(kedro's ``--only-missing-outputs`` skips by the existence of outputs instead, and so keeps
stale results after a parameter change).

A run is recorded, and the versions of the tables it wrote are bumped, inside the stage's
own final transaction: a stage killed before that commit leaves no record and is simply run
again.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from typing import Any, Iterable

from sqlalchemy import Connection, RowMapping, select, update

from bridgerank.core.store import StageRun, TableVersion

# The fingerprint of a run whose results can no longer be trusted (its tables were rebuilt or
# reshaped): no stage has it, so the stage runs again; the reason is kept in the summary.
INVALIDATED = "invalidated"


def digest(payload: Any) -> str:
    """SHA-256 of ``payload`` as canonical JSON."""
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def table_versions(conn: Connection, names: Iterable[str]) -> dict[str, str | None]:
    """Current version token of each named table (None for a table never written)."""
    names = list(names)
    rows = conn.execute(
        select(TableVersion.name, TableVersion.version).where(TableVersion.name.in_(names))
    ).all()
    found = dict(rows)
    return {name: found.get(name) for name in names}


def bump_table(conn: Connection, name: str, token: str) -> None:
    """Set a table's version to ``token`` (call inside the transaction that changed it)."""
    row = conn.execute(select(TableVersion).where(TableVersion.name == name)).first()
    if row is None:
        conn.execute(TableVersion.__table__.insert().values(name=name, version=token))
    else:
        conn.execute(
            TableVersion.__table__.update().where(TableVersion.name == name).values(version=token)
        )


def chain(previous: str | None, token: str) -> str:
    """A new version from an old one and what was added (for append-only tables)."""
    return digest([previous, token])


def fingerprint(
    inputs: dict[str, str | None], settings: dict[str, Any], code: str, extra: Any = None
) -> str:
    """The fingerprint of a stage run (see the module docstring)."""
    return digest({"inputs": inputs, "settings": settings, "code": code, "extra": extra})


def last_run(conn: Connection, stage: str) -> RowMapping | None:
    """The latest completed run of a stage (a row of ``stage_runs``), or None."""
    table = StageRun.__table__
    return (
        conn.execute(
            select(table).where(table.c.stage == stage).order_by(table.c.id.desc()).limit(1)
        )
        .mappings()
        .first()
    )


def record_run(
    conn: Connection,
    stage: str,
    fingerprint_: str,
    started_at: _dt.datetime,
    seconds: float,
    summary: dict[str, Any],
) -> None:
    """Write the ledger row of a completed run (inside the stage's final transaction)."""
    conn.execute(
        StageRun.__table__.insert().values(
            stage=stage,
            fingerprint=fingerprint_,
            started_at=started_at,
            seconds=seconds,
            summary=json.dumps(summary, sort_keys=True, default=str),
        )
    )


def invalidate(conn: Connection, stage: str, reason: str) -> None:
    """Make a stage run again whatever its fingerprint, saying why (``bridgerank status``
    shows it); a stage that never ran needs nothing."""
    last = last_run(conn, stage)
    if last is None:
        return
    summary = json.loads(last["summary"])
    summary["invalidated"] = reason
    conn.execute(
        update(StageRun.__table__)
        .where(StageRun.__table__.c.id == last["id"])
        .values(fingerprint=INVALIDATED, summary=json.dumps(summary, sort_keys=True, default=str))
    )
