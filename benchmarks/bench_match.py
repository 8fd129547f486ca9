"""Name matching speed: the indexed matcher against scoring every (raw, WBF) pair.

Run from the project folder after a corpus is in a database:

    bridgerank run ../shared/data/pbn ../shared/data/lin --out out/corpus
    python benchmarks/bench_match.py out/corpus/bridgerank.db

The baseline is the thesis's approach, measured in the same run: every raw name scored
against every WBF name with the same score function. Both must give the same verdicts where
the baseline's best candidate is unique and exact-token based; the ratio is their speed.
"""

from __future__ import annotations

import sys
import time

from bridgerank.cleaning.match.matcher import NameMatcher, _score
from bridgerank.cleaning.match.names import name_parts
from bridgerank.cleaning.match.stage import load_wbf, seat_counts
from bridgerank.core.settings import load_settings
from bridgerank.core.store import open_engine


def main(database: str) -> None:
    settings = load_settings()
    entries, _, alternatives = load_wbf(settings.match)
    engine = open_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        names = sorted(seat_counts(conn))
    engine.dispose()

    start = time.perf_counter()
    matcher = NameMatcher([entry.name for entry in entries], alternatives, settings=settings.match)
    indexed = [matcher.match(name) for name in names]
    indexed_seconds = time.perf_counter() - start

    start = time.perf_counter()
    parts = [name_parts(entry.name) for entry in entries]
    brute = []
    for name in names:
        raw = name_parts(name)
        scores = [_score(raw, wbf, {}, matcher.settings) for wbf in parts]
        best = max(scores)
        brute.append(scores.index(best) if best[0] and scores.count(best) == 1 else None)
    brute_seconds = time.perf_counter() - start

    same = sum(
        1
        for match, other in zip(indexed, brute)
        if match.reason in ("exact", "tuple", "surname only") and match.wbf_index == other
    )
    comparable = sum(1 for match in indexed if match.reason in ("exact", "tuple", "surname only"))
    print(f"{len(names):,} raw names x {len(entries):,} WBF names")
    print(f"{'method':<32}{'seconds':>9}{'names/s':>10}{'x baseline':>12}")
    for label, seconds in [
        ("baseline: score every pair", brute_seconds),
        ("indexed matcher (full rules)", indexed_seconds),
    ]:
        print(
            f"{label:<32}{seconds:>9.3f}{len(names) / seconds:>10,.0f}"
            f"{seconds / brute_seconds:>12.3f}"
        )
    print(f"exact-token verdicts equal to the baseline's: {same:,} of {comparable:,}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/bridgerank.db")
