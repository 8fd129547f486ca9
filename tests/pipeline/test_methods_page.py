"""The methods page's validation tables as a reader takes them: the headline first, since
every gain in them is the headline's over the row, then the others by their error."""

from sqlalchemy import create_engine, insert

from bridgerank.core.store import Base
from bridgerank.pipeline.report.methods_page import SECTIONS
from bridgerank.pipeline.stages import all_stages
from bridgerank.ratings.tables import HeadlineRating, MatchValidation, OneTableValidation


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
