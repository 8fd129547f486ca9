"""The methods page's validation tables as a reader takes them: the headline first, since
every gain in them is the headline's over the row, then the others by their error."""

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
        data = headline.build(conn)
    engine.dispose()
    assert data is not None
    for table in ("matches", "pairs"):
        assert data[table]["method"].tolist() == ["headline", "headline_no_dd", "coin"]


def _headline_section(engine):
    headline = next(found for found in SECTIONS if found.key == "headline")
    with engine.connect() as conn:
        data = headline.build(conn)
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
