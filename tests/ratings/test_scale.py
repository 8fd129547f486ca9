"""The rate stage at the shape that took it 40 minutes: many single-table boards, each with
four names of its own (DDS's list100-style records), so thousands of players in tiny games."""

import numpy as np

from bridgerank.core.settings import default_settings
from bridgerank.ratings.results import rate_results


def _single_table_boards(count: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [
        {
            "id": i + 1,
            "event": f"list100 {i}",
            "board_no": 1,
            "deal_hash": f"deal {i}",
            "date": f"2001.01.{1 + i % 28:02d}",
            "room": None,
            "north": f"N{i}",
            "south": f"S{i}",
            "east": f"E{i}",
            "west": f"W{i}",
            "contract": "4S",
            "declarer": "N",
            "result": int(rng.integers(8, 13)),  # par 4S= (420): above, at or below it
            "ns_vulnerable": False,
            "ew_vulnerable": False,
            "year": 2001,
        }
        for i in range(count)
    ]


def test_thousand_single_table_boards_with_four_thousand_players():
    settings = default_settings().rate
    assert settings.bootstrap_resamples == 20 and settings.prior  # the defaults, as shipped
    # about 3 s (the dense Newton solves took over 20 minutes): speed is measured by
    # benchmarks/bench_hbt_scale.py, not asserted here
    results = rate_results(_single_table_boards(1000), {}, {}, lambda board: 420, settings)
    assert results.summary.single_table_games == 1000
    assert results.summary.players == 4000
    for method in ("hbt", "gbt", "bt", "win_rate"):
        rows = [row for row in results.ratings if row["method"] == method]
        assert len(rows) == 4000 and len({row["player"] for row in rows}) == 4000
        assert all(np.isfinite(row["rating"]) for row in rows)
    hbt = [row for row in results.ratings if row["method"] == "hbt"]
    assert all(row["low"] is not None and row["high"] is not None for row in hbt)
    assert {row["method"] for row in results.validation} == {
        "hbt",
        "gbt",
        "bt",
        "win_rate",
        "wbf_points",
    }
    assert all(row["test_games"] == 200 for row in results.validation)
