"""The methods page's validation tables as a reader takes them: the headline first, since
every gain in them is the headline's over the row, then the others by their error."""

import re
import sqlite3

from sqlalchemy import create_engine, insert, update

from bridgerank.core.store import Base
from bridgerank.pipeline.report.methods_page import SECTIONS
from bridgerank.pipeline.report.templating import environment
from bridgerank.pipeline.stages import all_stages
from bridgerank.ratings.tables import (
    FittedHeadline,
    HeadlineRating,
    MatchValidation,
    OneTableValidation,
    SessionValidation,
)


def test_the_headline_heads_each_validation_table_even_when_a_variant_scores_better(tmp_path):
    all_stages()
    engine = create_engine(f"sqlite:///{tmp_path / 'validation.db'}")
    Base.metadata.create_all(engine)
    rows = [  # a variant with a smaller error than the headline's, a baseline with a larger
        {"method": "headline_no_dd", "rmse": 15.2},
        {"method": "headline", "rmse": 15.4},
        {"method": "coin", "rmse": 15.8},
    ]
    with engine.begin() as conn:
        conn.execute(
            insert(OneTableValidation), [row | {"pairs": 669, "boards": 3082} for row in rows]
        )
        conn.execute(
            insert(MatchValidation), [row | {"matches": 158, "boards": 3252} for row in rows]
        )
        conn.execute(
            insert(HeadlineRating),
            [{"player": "Ann", "rating": 1.0, "sd": 0.5, "boards": 26, "sessions": 1}],
        )
    headline = next(found for found in SECTIONS if found.key == "headline")
    with engine.connect() as conn:
        data = headline.read(conn)
    engine.dispose()
    assert data is not None
    for table in ("matches", "pairs"):
        assert data[table]["method"].tolist() == ["headline", "headline_no_dd", "coin"]


def _headline_section(engine):
    headline = next(found for found in SECTIONS if found.key == "headline")
    with engine.connect() as conn:
        data = headline.read(conn)
    html = environment().get_template(headline.template).render(data=data, root="")
    return " ".join(html.split())


def test_the_familiarity_term_is_said_in_points_with_what_it_adds(tmp_path):
    all_stages()
    engine = create_engine(f"sqlite:///{tmp_path / 'familiar.db'}")
    Base.metadata.create_all(engine)
    fit = {"id": 1, "tables": 900, "players": 40, "sessions": 12, "penalty": 30.0}
    counts = {"pair_sessions": 300, "sessions": 6, "periods": 3}
    with engine.begin() as conn:
        conn.execute(insert(FittedHeadline), [fit | {"familiarity": 0.0123}])
        headline_row = {"method": "headline", "pearson": 0.47, "rmse": 6.5, "coverage_80": 0.8}
        conn.execute(insert(SessionValidation), [headline_row | counts])
        without = {"method": "headline_no_fam", "pearson": 0.469, "rmse": 6.51}
        gains = {"pearson_gain": 0.001, "pearson_gain_low": -0.004, "pearson_gain_high": 0.006}
        conn.execute(insert(SessionValidation), [without | gains | counts])
        plain = {"method": "headline_plain", "pearson": 0.4700, "rmse": 6.53}
        tiny = {"pearson_gain": 0.0004018, "pearson_gain_low": -0.004325}
        conn.execute(
            insert(SessionValidation), [plain | tiny | {"pearson_gain_high": 0.005129} | counts]
        )
        conn.execute(
            insert(HeadlineRating),
            [{"player": "Ann", "rating": 1.0, "sd": 0.5, "boards": 26, "sessions": 1}],
        )
    shown = _headline_section(engine)
    assert "here 1.2 points of a session against pairs that had not" in shown
    assert "Without the term, the held-out correlation is 0.469" in shown
    assert "(the term adds 0.001, 95% interval -0.004 to 0.006)" in shown
    # a gain in prose to three decimals, not to four significant digits
    assert "the choice adds 0.000 (95% interval -0.004 to 0.005)" in shown
    # no pair had played together before (one session): nothing learned, nothing said
    with engine.begin() as conn:
        conn.execute(update(FittedHeadline).values(familiarity=None))
    assert "regular partnerships" not in _headline_section(engine)
    engine.dispose()


def test_the_team_events_section_answers_the_double_dummy_question(tmp_path):
    from bridgerank.ratings.tables import EventMatchValidation

    all_stages()
    engine = create_engine(f"sqlite:///{tmp_path / 'events.db'}")
    Base.metadata.create_all(engine)
    counts = {"matches": 4460, "boards": 74292, "events": 14, "split_half": 0.254}
    rows = [
        {"subset": "with deals", "method": "headline", "pearson": 0.4397, "rmse": 26.21},
        {  # the headline's gain over the variant: -0.001 (-0.003 to 0.002)
            "subset": "with deals",
            "method": "headline_dd",
            "pearson": 0.4407,
            "rmse": 26.19,
            "pearson_gain": -0.001,
            "pearson_gain_low": -0.003,
            "pearson_gain_high": 0.002,
        },
        {"subset": "all", "method": "coin", "pearson": None, "rmse": 29.22},
        {"subset": "all", "method": "headline", "pearson": 0.425, "rmse": 26.46},
        {"subset": "all", "method": "hindsight_form", "pearson": 0.386, "rmse": 27.39},
    ]
    # every row with every column (an insert of many rows takes the first row's columns)
    gains = dict.fromkeys(("pearson_gain", "pearson_gain_low", "pearson_gain_high"))
    with engine.begin() as conn:
        conn.execute(
            insert(EventMatchValidation),
            [gains | row | counts | {"ceiling": 0.5} for row in rows],
        )
    section = next(found for found in SECTIONS if found.key == "team_events")
    with engine.connect() as conn:
        data = section.read(conn)
    engine.dispose()
    assert [subset["name"] for subset in data["subsets"]] == ["all", "with deals"]
    # the headline heads each table, whatever scores better
    assert data["subsets"][1]["rows"]["method"].tolist() == ["headline", "headline_dd"]
    html = environment().get_template(section.template).render(data=data, root="")
    words = " ".join(html.split())
    assert "On the 4,460 held-out matches of the 14 events whose deals are known" in words
    assert "change the headline's Pearson by +0.001 (95%: -0.002 to +0.003)" in words
    assert "later rounds included, reach Pearson 0.386" in words
    assert "All: 4,460 matches, 74,292 boards, 14 events; ceiling 0.500" in words


def test_a_long_run_gets_break_opportunities_and_stays_escaped():
    template = environment().from_string(
        '<td>{{ name }}</td><img src="data:image/png;base64,{{ png|base64 }}">'
    )
    name = "<b>" + "x" * 85 + " Ann"
    html = template.render(name=name, png="iVBORw0KGgo=")
    assert html == (
        "<td>&lt;b&gt;xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx<wbr>"
        + "x" * 40
        + "<wbr>xxxxxxxx Ann</td>"
        '<img src="data:image/png;base64,iVBORw0KGgo=">'
    )
    # a short name is as written; a plot that is no base64 is dropped, not shown as markup
    assert template.render(name="Ann Smith", png='"><script>') == (
        '<td>Ann Smith</td><img src="data:image/png;base64,">'
    )


def test_a_held_out_check_on_too_few_matches_says_so(sample_run):
    """The sample holds out 4 team matches: the methods page says that is too few to judge,
    above the table and beside the team_match_ references read from the same matches."""
    with sqlite3.connect(sample_run / "bridgerank.db") as db:
        (held_out,) = db.execute(
            "select matches from match_validation where method = 'headline'"
        ).fetchone()
    page = re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", "", (sample_run / "report" / "methods.html").read_text())
    )
    assert held_out < 30
    assert f"Too few to judge: this table rests on {held_out} held-out matches" in page
    assert f"the team_match_ references rest on the same {held_out} held-out matches" in page
    # the sessions are enough: no such word above their table
    assert "held-out pair-sessions; a difference" not in page
