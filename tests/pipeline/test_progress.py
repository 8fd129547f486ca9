"""Progress lines in a log: how far, how fast, how long to go."""

import io

from bridgerank.pipeline.progress import logged


def test_a_log_gets_a_line_every_interval_with_rate_and_time_left():
    ticks = iter(range(0, 1000, 3))  # each item takes 3 s
    stream = io.StringIO()
    items = list(
        logged(range(10), "dds boards", 10, stream, interval=10, clock=lambda: next(ticks))
    )
    assert items == list(range(10))
    lines = stream.getvalue().splitlines()
    # after 4 boards (12 s): 0.33 boards/s, 6 boards to go = 18 s
    assert lines[0] == "dds: 4 of 10 boards (40%), 0.3 boards/s, about 18 s left"
    assert len(lines) == 2  # and once more at 8 boards (24 s); nothing for quick work


def test_quick_work_prints_nothing():
    stream = io.StringIO()
    list(logged(range(100), "clean records", None, stream, interval=10, clock=lambda: 0.0))
    assert stream.getvalue() == ""


def test_slow_work_reads_per_minute():
    ticks = iter(range(0, 10000, 120))  # two minutes per period
    stream = io.StringIO()
    list(
        logged(range(3), "walk-forward periods", 3, stream, interval=10, clock=lambda: next(ticks))
    )
    assert stream.getvalue().splitlines()[0] == (
        "walk-forward: 1 of 3 periods (33%), 0.5 periods/min, about 4 min left"
    )
