"""A stage made of studies: each fingerprinted on its own, each rerun only when it changed.

A stage whose tables come from independent pieces of work (the rate stage: the rating
families, the headline on sessions, the team matches, who beats whom) declares them as
:class:`Study` objects. Each study names the tables it reads and writes, the settings it uses
(dotted paths: ``rate`` is the section's own keys, ``rate.cycles`` a subsection) and its
code, which is derived from its ``run`` function's module as a stage's is
(:mod:`bridgerank.core.codehash`). The stage's fingerprint is the digest of its studies'
fingerprints, so the runner, ``status`` and ``--dry-run`` treat it as any stage; when it runs,
only the studies whose fingerprint differs from the last run's are run again
(:func:`run_studies`), the tables of the others are left as they are and not re-versioned,
and their part of the summary is taken from the last run's. Dagster calls this materializing a
subset of a multi-asset.

A table may be written by two studies (the rate stage's ``validation_ceiling``): each then
says which rows are its own (:attr:`Study.owns`), and a study run alone replaces only those.

With ``--jobs`` above one the due studies run side by side, each in a worker process
(:func:`in_workers`): the rate stage's two long studies (the headline on sessions, the team
matches) at once, its wall time about the longest study's rather than their sum. Each worker
opens the database itself (read only) and loads what its study reads, so the CPU seconds are
a little more than one process's (inputs two studies share are read twice). A study computes
the same figures in a worker as here: one BLAS thread in every process, the command's own
setting, inherited. A database no other process can open (SQLite in memory), or studies
known to be short (:data:`WORKERS_AFTER`), run one by one here.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from bridgerank.core.codehash import code_fingerprint, imported_libraries, source_digest
from bridgerank.core.durations import duration
from bridgerank.core.pool import in_order
from bridgerank.core.sections import Settings, result_settings

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine, RowMapping

    from bridgerank.core.stage import Stage, StageContext
    from bridgerank.core.store import Base
    from bridgerank.core.summary import StageSummary

__all__ = [
    "Study",
    "StudyResult",
    "in_workers",
    "run_studies",
    "settings_at",
    "shared_url",
    "wall_estimate",
]

Row = Mapping[str, Any]
# what reads a stage's inputs for its studies, from the context (the stage's, or a worker's)
Load = Callable[["StageContext"], Any]
# the ledger row's key for each study's seconds at its latest run (the next run's estimate)
STUDY_SECONDS = "study_seconds"
# a study expected to take this many seconds or more is announced as it starts
SAY_AFTER = 10.0
# with --jobs, studies whose last run took this many seconds in all, or more, go to worker
# processes (a worker's start costs a second or two: less is quicker here)
WORKERS_AFTER = 10.0


@dataclass(frozen=True)
class StudyResult:
    """What one study produced: its part of the stage's summary (summary field -> value) and
    the rows of each table it writes."""

    summary: dict[str, Any]
    rows: Mapping[type[Base], Sequence[Row]]


@dataclass(frozen=True)
class Study:
    """One independently fingerprinted piece of a stage.

    Attributes
    ----------
    name : str
        As ``status`` and ``--dry-run`` name it.
    run : callable
        ``run(data, context) -> StudyResult``; ``data`` is what the stage loaded for its
        studies (each study reads what it needs of it). Its module roots the study's code.
    reads, optional_reads, writes : tuple of ORM classes
        As a :class:`~bridgerank.core.stage.Stage`'s.
    settings : tuple of str
        Dotted settings paths: ``"rate"`` hashes that section's own keys (not its
        subsections), ``"rate.cycles"`` one subsection.
    summary_fields : tuple of str
        The fields of the stage's summary this study fills (a summary with a field
        ``studies_run`` gets the names of the studies this run ran).
    owns : mapping of ORM class to predicate
        For a table another study writes too: which of its rows are this study's.
    """

    name: str
    run: Callable[[Any, StageContext], StudyResult]
    reads: tuple[type[Base], ...]
    writes: tuple[type[Base], ...]
    settings: tuple[str, ...]
    summary_fields: tuple[str, ...]
    optional_reads: tuple[type[Base], ...] = ()
    owns: Mapping[type[Base], Callable[[Row], bool]] = field(default_factory=dict)

    @property
    def module(self) -> str:
        """The module that defines the study's ``run``: the root of its code fingerprint."""
        return self.run.__module__

    def parts(self, context: StageContext) -> dict[str, Any]:
        """A study's fingerprint and its parts (table versions, settings digests, code): what
        the ledger keeps, so that the next run can tell which studies changed."""
        from bridgerank.core import ledger
        from bridgerank.core.stage import fingerprint_parts, input_versions

        inputs = input_versions(context, self.reads, self.optional_reads)
        settings = {path: settings_at(context.settings, path) for path in self.settings}
        # the study's own closure, and the stage module's own text (its driver), not what that
        # imports: the stage module imports every study
        code = ledger.digest([code_fingerprint(self.module), source_digest(context.stage.module)])
        parts = fingerprint_parts(inputs, settings, code, None)
        parts["libraries"] = imported_libraries(self.module)
        parts["fingerprint"] = ledger.fingerprint(inputs, settings, code)
        return parts


def settings_at(settings: Settings, path: str) -> dict[str, Any]:
    """The settings a dotted path names, as a fingerprint hashes them: a section's own keys
    (``"rate"``, subsections left to their own paths) or a subsection (``"rate.cycles"``)."""
    head, *rest = path.split(".")
    values: Any = getattr(settings, head)
    for part in rest:
        values = getattr(values, part)
    return result_settings(values, nested=False)


def _due(context: StageContext, last: RowMapping | None) -> list[Study]:
    """The studies to run: those whose fingerprint differs from the ``last`` run's (all of
    them with ``--force``, after no run, an invalidated run or a run of a version without
    studies)."""
    from bridgerank.core import ledger
    from bridgerank.core.stage import changed_studies

    studies = _studies(context)
    if context.force or last is None or last["fingerprint"] == ledger.INVALIDATED:
        return studies
    changed = changed_studies(json.loads(last["summary"]).get("fingerprint_parts"), context.parts)
    return [study for study in studies if study.name in changed]


def _studies(context: StageContext) -> list[Study]:
    """The stage's studies, as this module declares them."""
    found = [study for study in context.stage.studies if isinstance(study, Study)]
    assert len(found) == len(context.stage.studies), "a stage's studies are Study objects"
    return found


def run_studies(context: StageContext, load: Load) -> StageSummary:
    """Run the studies that changed (:func:`_due`) on what ``load(context)`` reads for them,
    write their tables and the ledger row, and return the stage's summary (the other studies'
    parts from the last run's).

    With ``--jobs`` above one, two studies or more are run in worker processes at once
    (:func:`in_workers`), each loading what it reads itself; the tables are the same,
    written by this process in the stage's order. ``load`` is then pickled by reference: a
    module's function."""
    from bridgerank.core import ledger

    stage = context.stage
    studies = tuple(_studies(context))
    with context.engine.connect() as conn:
        last = ledger.last_run(conn, stage.name)
    due = _due(context, last)
    seconds = _study_seconds(last)
    url = shared_url(context.engine)
    if url is not None and _worth_workers(context.jobs, due, seconds):
        results = in_workers(context, load, url, due, seconds)
    else:
        results = _one_by_one(context, load(context), due, seconds)
    context.notes[STUDY_SECONDS] = seconds
    fields: dict[str, Any] = {}
    if len(due) < len(studies):
        assert last is not None  # every study runs after no run
        before = stage.summary_type.from_json(json.loads(last["summary"]))
        for study in studies:
            fields.update({name: getattr(before, name) for name in study.summary_fields})
    for result in results.values():
        fields.update(result.summary)
    if "studies_run" in {item.name for item in dataclasses.fields(stage.summary_type)}:
        fields["studies_run"] = [study.name for study in due]
    summary = stage.summary_type(**fields)
    with context.engine.begin() as conn:
        replace = {
            table: _table_rows(conn, table, studies, results)
            for table in _written(studies, results)
        }
        context.finish(conn, summary, outputs=list(replace), replace=replace)
    return summary


def _worth_workers(jobs: int, due: Sequence[Study], seconds: Mapping[str, float]) -> bool:
    """Whether the due studies go to ``jobs`` worker processes: two workers or more, two
    studies or more, and not known to be short (:data:`WORKERS_AFTER`)."""
    if jobs < 2 or len(due) < 2:
        return False
    known = [seconds.get(study.name) for study in due]
    return any(value is None for value in known) or sum(v or 0.0 for v in known) >= WORKERS_AFTER


def _one_by_one(
    context: StageContext, data: Any, due: Sequence[Study], seconds: dict[str, float]
) -> dict[str, StudyResult]:
    """Each due study's result, run here one after another on ``data``, each announced
    when it may be long; ``seconds`` takes each one's time."""
    results = {}
    stage_began = time.perf_counter()
    for number, study in enumerate(due):
        expected = seconds.get(study.name)
        # a study is announced when it may be long: it was at its last run, or nothing is
        # known of it and it is the first or the stage has been running a while
        if expected is None:
            worth = number == 0 or time.perf_counter() - stage_began >= SAY_AFTER
        else:
            worth = expected >= SAY_AFTER
        if worth:
            context.say(_announcement(context.stage.name, due, number, seconds))
        began = time.perf_counter()
        results[study.name] = study.run(data, context)
        seconds[study.name] = round(time.perf_counter() - began, 1)
    return results


def _study_seconds(last: RowMapping | None) -> dict[str, float]:
    """Each study's seconds at its latest run, as the ``last`` run's ledger row keeps them."""
    if last is None:
        return {}
    kept = json.loads(last["summary"]).get(STUDY_SECONDS)
    return dict(kept) if isinstance(kept, dict) else {}


def _announcement(
    stage: str, due: Sequence[Study], number: int, seconds: Mapping[str, float]
) -> str:
    """``rate: study 2 of 4 (headline); about 5 min left, as at the last run``: the study
    starting and the time left, from each study's seconds at its latest run (not known
    before every study left has run once)."""
    line = f"{stage}: study {number + 1} of {len(due)} ({due[number].name})"
    left = [seconds.get(study.name) for study in due[number:]]
    if any(value is None for value in left):
        return line + "; time left not known on a first run"
    total = sum(value for value in left if value is not None)
    return line + f"; about {duration(total)} left, as at the last run"


def _written(studies: tuple[Study, ...], results: Mapping[str, StudyResult]) -> list[type[Base]]:
    """The tables a study that ran writes, in the stage's order (a table holding keys of
    another after it)."""
    tables: list[type[Base]] = []
    for study in studies:
        if study.name in results:
            tables.extend(table for table in study.writes if table not in tables)
    return tables


def _table_rows(
    conn: Connection,
    table: type[Base],
    studies: tuple[Study, ...],
    results: Mapping[str, StudyResult],
) -> list[Row]:
    """The rows ``table`` holds after this run: each writer's, in study order - fresh from a
    study that ran, as stored for one that did not (the rows it :attr:`~Study.owns`)."""
    writers = [study for study in studies if table in study.writes]
    stored: list[Row] | None = None
    rows: list[Row] = []
    for study in writers:
        if study.name in results:
            rows.extend(results[study.name].rows.get(table, []))
            continue
        if stored is None:
            stored = [dict(row) for row in conn.execute(table.__table__.select()).mappings()]
        rows.extend(row for row in stored if study.owns[table](row))
    return rows


# --- studies side by side, in worker processes (--jobs) ---------------------------------


def shared_url(engine: Engine) -> str | None:
    """The engine's URL as another process opens it (its password kept; a SQLite file by its
    absolute path, as a reused worker may have started in another folder), or None for a
    database only this process sees (SQLite in memory)."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        if url.database in (None, "", ":memory:") or url.database.startswith("file:"):
            return None  # in memory, or a URI whose folder we do not rewrite: one process
        url = url.set(database=str(Path(url.database).resolve()))
    return url.render_as_string(hide_password=False)


def wall_estimate(expected: Sequence[float], jobs: int) -> float:
    """The seconds ``jobs`` workers take for studies of the ``expected`` seconds, each
    given, longest first, to the worker free first (the order they are handed out in)."""
    workers = [0.0] * max(jobs, 1)
    for seconds in sorted(expected, reverse=True):
        workers[workers.index(min(workers))] += seconds
    return max(workers)


def in_workers(
    context: StageContext,
    load: Load,
    url: str,
    due: Sequence[Study],
    seconds: dict[str, float],
) -> dict[str, StudyResult]:
    """Each due study's result, run in ``context.jobs`` worker processes, the longest at its
    last run first; ``seconds`` takes each one's time. Announced as they start and end."""
    stage = context.stage.name
    # the longest first, so that the last to end is a short one; never run: first of all
    order = sorted(due, key=lambda study: -seconds.get(study.name, float("inf")))
    known = [seconds.get(study.name) for study in order]
    names = ", ".join(study.name for study in order)
    line = f"{stage}: {len(order)} studies in {context.jobs} processes ({names})"
    if any(value is None for value in known):
        context.say(line + "; time left not known on a first run")
    else:
        left = wall_estimate([value for value in known if value is not None], context.jobs)
        context.say(line + f"; about {duration(left)} left, as at the last run")
    jobs = [(url, context.settings, context.stage, study, load) for study in order]
    results: dict[str, StudyResult] = {}
    for study, (result, took) in zip(
        order, in_order(_study_apart, jobs, context.jobs, window=len(jobs))
    ):
        results[study.name] = result
        seconds[study.name] = took
        context.say(f"{stage}: study {study.name} done in {duration(took)}")
    # in the stage's order, as one process gives them: the summary is filled in that order
    return {study.name: results[study.name] for study in due}


def _study_apart(
    job: tuple[str, Settings, Stage, Study, Load],
) -> tuple[StudyResult, float]:
    """One study in a worker: the database opened read only, the study's inputs loaded, the
    study run; its result and seconds."""
    from bridgerank.core.stage import StageContext
    from bridgerank.core.store import open_engine

    url, settings, stage, study, load = job
    engine = open_engine(url, create=False)
    try:
        context = StageContext(engine=engine, settings=settings, stage=stage)
        began = time.perf_counter()
        result = study.run(load(context), context)
        return result, round(time.perf_counter() - began, 1)
    finally:
        engine.dispose()
