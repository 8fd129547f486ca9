"""What a selector must know, on the ranking page: every rated player's 80% rank interval
and chance of the top 10, and in words who the top 10 cannot be told from."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine

from bridgerank.pipeline.cli import main
from bridgerank.ratings.uncertainty import rank_standing

SAMPLE_RECAPS = "data/sample/acbl"


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory):
    """The embedded sample's two club sessions run to the report, once for the module."""
    folder = tmp_path_factory.mktemp("sample-site")
    result = CliRunner().invoke(main, ["run", SAMPLE_RECAPS, "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def _read(folder, sql: str) -> pd.DataFrame:
    engine = create_engine(f"sqlite:///{folder / 'bridgerank.db'}")
    with engine.connect() as conn:
        frame = pd.read_sql(sql, conn)
    engine.dispose()
    return frame


def test_rank_standing_by_hand():
    # one player far above four equal ones: first in every draw
    rating = np.array([10.0, 0.0, 0.0, 0.0, 0.0])
    sd = np.array([0.1, 1.0, 1.0, 1.0, 1.0])
    low, high, in_top = rank_standing(rating, sd, top=2)
    assert (low[0], high[0], in_top[0]) == (1, 1, 1.0)
    assert all(low[1:] == 2) and all(high[1:] == 5)
    # every draw has exactly two players in the top 2
    assert in_top.sum() == pytest.approx(2.0)
    assert in_top[1:] == pytest.approx(0.25, abs=0.04)


def test_the_ranking_page_says_how_settled_the_order_is(sample_site):
    """Two club sessions of the embedded sample: 48 players with wide intervals. The page's
    sentence counts the players whose rank interval reaches the top 10, and each row's
    interval and chance are those of the stored ratings."""
    ratings = _read(sample_site, "select player, rating, sd from headline_ratings")
    # drawn in the order of the names, as the page draws them
    ratings = ratings.sort_values("player").reset_index(drop=True)
    low, high, in_top = rank_standing(ratings["rating"], ratings["sd"], 0.8, 10)
    first = int(ratings["rating"].idxmax())
    front = (sample_site / "report" / "index.html").read_text()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", front))
    reach = int((low <= 10).sum())
    assert len(ratings) == 48 and reach > 10
    assert f"{reach} players could be in the top 10" in text
    assert "These data cannot tell them apart" in text
    leader = re.search(r"The leader, (.*?), ranks", text).group(1)
    at = int(ratings.index[ratings["player"] == leader][0])
    assert ratings["rating"][at] == ratings["rating"][first]
    settled = in_top[at] >= 0.9  # then the sentence says so
    tail = " and is in the top 10 in 90% of the draws or more." if settled else "."
    assert f"The leader, {leader}, ranks {low[at]} to {high[at]}{tail}" in text
    # every player's row: rank interval and chance of the top 10
    rows = re.findall(r"<tr data-name=.*?</tr>", front, re.S)
    assert len(rows) == 48
    for number in (0, 20, 47):
        cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td.*?</td>", rows[number])]
        player = cells[2].replace(" provisional", "")
        at = int(ratings.index[ratings["player"] == player][0])
        assert cells[1] == f"{low[at]}-{high[at]}"
        chance = 100 * in_top[at]
        assert cells[5] == ("<1%" if chance < 0.5 else f"{chance:.0f}%")


def test_the_methods_page_shows_the_selector_checks(sample_site):
    """The checks the rate stage keeps (rating_checks) on the methods page: the reliability
    of the ratings by band of boards played, as stored."""
    checks = _read(sample_site, "select * from rating_checks")
    reliability = checks[checks["measure"] == "reliability"].set_index("band")
    # two sessions: every rated player has fewer than 100 boards
    assert list(reliability.index) == ["0-99", "100-299", "300-999", "1000+"]
    assert reliability.loc["0-99", "n"] == 20 and 0 < reliability.loc["0-99", "value"] < 1
    methods = (sample_site / "report" / "methods.html").read_text()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", methods))
    assert "What a selector must know, and fairness to partners" in text
    assert f"0-99 20 {reliability.loc['0-99', 'value']:.4g}" in text  # as the page prints it


def test_players_of_one_rating_stand_alike():
    """Two partners who only played together share one rating and one uncertainty: the same
    rank interval and the same chance of the top 10, not two samples of it."""
    rng = np.random.default_rng(4)
    rating = np.concatenate([rng.normal(0, 2, 30), [1.5, 1.5]])
    sd = np.concatenate([rng.uniform(0.5, 2, 30), [1.2, 1.2]])
    low, high, in_top = rank_standing(rating, sd, 0.8, 10)
    assert (low[30], high[30], in_top[30]) == (low[31], high[31], in_top[31])
    assert in_top.sum() == pytest.approx(10.0)  # pooling keeps the top's ten places
