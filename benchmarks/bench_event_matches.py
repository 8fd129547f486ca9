"""The team events' matches study (``ratings/event_matches.py``) against the rest of the rate
stage, measured in the same run on the same database.

Issue 45 asks that the study cost no more than the whole rate stage cost on Valet before it
was added. The baseline is exactly that: the rate stage run with the study switched off (on a
copy of the database, so the original is left as it was). Then the study alone: the matches
read and built, every held-out round forecast by every method, the bootstrap's tables.

Run from the project folder on a database through the dds stage:

    bridgerank run ../shared/data/travellers/valet --to dds --out out/valet
    python benchmarks/bench_event_matches.py out/valet/bridgerank.db

Prints both times, the ratio (study / rest of the rate stage; the goal: at most 1) and the
headline's held-out figures overall.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import create_engine

from bridgerank.cleaning.match.lookup import person_lookup
from bridgerank.core.settings import default_settings
from bridgerank.pipeline.cli import main as cli
from bridgerank.ratings import event_match_data, event_matches
from bridgerank.ratings.event_evidence import dd_measures
from bridgerank.ratings.inputs import board_evidence, event_match_rows, wbf_points


def _rate_without_the_study(database: Path) -> float:
    """Seconds of ``bridgerank rate --force`` on a copy of ``database``, the study off."""
    study = event_matches.study_event_matches
    event_matches.study_event_matches = lambda *args, **kwargs: event_matches.EventMatchValidation(
        [], {}
    )
    try:
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "bridgerank.db"
            shutil.copy(database, copy)
            began = time.perf_counter()
            result = CliRunner().invoke(cli, ["rate", "--force", "--db", f"sqlite:///{copy}"])
            seconds = time.perf_counter() - began
            if result.exit_code != 0:
                raise SystemExit(result.output)
    finally:
        event_matches.study_event_matches = study
    return seconds


def _study(database: Path) -> tuple[float, event_matches.EventMatchValidation]:
    """Seconds of the study alone: its rows read, the matches built, the walk-forward."""
    settings = default_settings().rate
    engine = create_engine(f"sqlite:///{database}")
    began = time.perf_counter()
    with engine.connect() as conn:
        points = wbf_points(conn)
        evidence = board_evidence(conn)
        data = event_match_data.event_matches(*event_match_rows(conn), person_lookup(conn).name)
    found = event_matches.study_event_matches(
        data, points, settings.validation_bootstrap, dd=dd_measures(data, evidence)
    )
    seconds = time.perf_counter() - began
    engine.dispose()
    return seconds, found


def main(database: Path) -> None:
    rest = _rate_without_the_study(database)
    study, found = _study(database)
    print(f"rate stage without the study: {rest:.1f} s")
    print(f"the team events' matches study: {study:.1f} s")
    print(f"ratio (study / rest of the rate stage): {study / rest:.2f} (goal: at most 1)")
    overall = found.headline.get("all")
    if overall:
        print(
            f"headline: {overall['matches']:,} held-out matches, Pearson "
            f"{overall['pearson']:.3f}, RMSE {overall['rmse']:.2f} (a coin "
            f"{overall['coin_rmse']:.2f})"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
