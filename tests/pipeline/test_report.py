"""The HTML report: rendered from a small real run, self-contained, and escaping names."""

import re

from click.testing import CliRunner

from bridgerank.pipeline.cli import main

HOSTILE = "<script>alert(1)</script>"


def _run_slice(tmp_path, test_data):
    source = tmp_path / "slice.pbn"
    text = (test_data / "bermuda1955_head.pbn").read_text()
    source.write_text(text.replace("Boris Schapiro", HOSTILE))
    result = CliRunner().invoke(main, ["run", str(source), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return result.output, (tmp_path / "report.html").read_text()


def test_report_from_a_small_real_run(tmp_path, test_data):
    output, html = _run_slice(tmp_path, test_data)
    assert f"report: {tmp_path / 'report.html'}" in output
    for title in (
        "Run settings and timings",
        "Data funnel",
        "Boards excluded (thesis Table 5)",
        "Name matching to the WBF lists",
        "Players: the 33 counters and 28 rates",
        "Regression of ranking points on mistake rates",
    ):
        assert title in html
    assert "12 records read" in html.replace(",", "")
    assert "Terence Reese" in html and "Adam Meredith" in html
    assert "weighted_declarer_missed_opponents_last_bid_per_auction" in html
    assert "too few players" in html
    # self-contained: nothing fetched from elsewhere
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert (tmp_path / "csv" / "player_stats.csv").exists()
    again = CliRunner().invoke(main, ["run", "--out", str(tmp_path)])
    assert "report: up to date" in again.output
    (tmp_path / "report.html").unlink()
    rewritten = CliRunner().invoke(main, ["run", "--out", str(tmp_path)])
    assert "report: " in rewritten.output and (tmp_path / "report.html").exists()


def test_a_hostile_player_name_is_escaped(tmp_path, test_data):
    _, html = _run_slice(tmp_path, test_data)
    assert HOSTILE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.count("<script>") == 1  # the report's own table sorter, nothing else
