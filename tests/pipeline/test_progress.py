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


def test_the_time_left_waits_for_enough_work_to_know():
    # the first board takes 60 s (workers starting), then a board a second
    times = iter([0, 60] + list(range(61, 2000)))
    stream = io.StringIO()
    list(logged(range(400), "dds boards", 400, stream, interval=10, clock=lambda: next(times)))
    lines = stream.getvalue().splitlines()
    # 1 board in 60 s would have said 6.6 h; 5% of the boards (20) are needed first
    assert lines[0] == "dds: 1 of 400 boards (0%), 1.0 boards/min, time left not known yet"
    assert lines[1].startswith("dds: 11 of 400 boards (3%)") and "not known yet" in lines[1]
    assert lines[2].startswith("dds: 21 of 400 boards (5%)") and lines[2].endswith(" left")
