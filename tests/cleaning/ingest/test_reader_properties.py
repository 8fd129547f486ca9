"""Property tests: random bytes and random mutations of real records never crash a parser,
and every record is accounted for (a board, or exactly one board-level exclusion)."""

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgerank.cleaning.clean.reasons import REASON_BY_CODE
from bridgerank.cleaning.clean.rules import clean_record
from bridgerank.cleaning.ingest.lin import read_lin
from bridgerank.cleaning.ingest.pbn import read_pbn
from bridgerank.cleaning.ingest.records import RAW_FIELDS, RawRecord
from bridgerank.cleaning.ingest.sources import decode, sniff
from bridgerank.cleaning.ingest.sqldump import read_sqldump
from bridgerank.cleaning.ingest.valet import read_valet
from bridgerank.core.settings import default_settings
from tests.paths import TEST_DATA

CLEAN = default_settings().clean
READERS = (read_pbn, read_lin, read_sqldump, read_valet)
PBN_TEXT = (TEST_DATA / "bermuda1955_head.pbn").read_text()
LIN_TEXT = (TEST_DATA / "vugraph-00070.lin").read_text()
SQL_TEXT = (TEST_DATA / "defects_dump.sql").read_text()
VALET_TEXT = (TEST_DATA / "valet" / "2006-Euro" / "Men" / "scores.txt").read_text()
REAL_RECORDS = [record.values for record in read_pbn(PBN_TEXT)]
SYNTAX = st.sampled_from(
    list("[]\"'|;,()#%{}-*=!\n\\ ")
    + ["\r\n", '[Deal "', "md|", "pc|", "INSERT INTO t VALUES ", "NULL"]
)
FUZZY_TEXT = st.lists(st.one_of(SYNTAX, st.text(max_size=8)), max_size=60).map("".join)
# For a longer hunt:
# BRIDGERANK_FUZZ_EXAMPLES=3000 pytest tests/cleaning/ingest/test_reader_properties.py
fast = settings(
    max_examples=int(os.environ.get("BRIDGERANK_FUZZ_EXAMPLES", 150)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _check_records(records):
    assert all(isinstance(record, RawRecord) for record in records)
    assert [record.record_no for record in records] == list(range(1, len(records) + 1))
    for record in records:
        if record.parse_error is None:
            _check_outcome(clean_record(record.values, record.play_layout, settings=CLEAN))


def _check_outcome(outcome):
    levels = [level for level, _, _ in outcome.issues]
    for level, code, _ in outcome.issues:
        assert REASON_BY_CODE[code].level == level
    if outcome.board is None:
        assert levels.count("board") == 1 and levels[-1] == "board"
    else:
        assert "board" not in levels


@fast
@given(st.binary(max_size=2000))
def test_random_bytes(data):
    sniff(data)
    text, _ = decode(data)
    for reader in READERS:
        _check_records(list(reader(text)))


@fast
@given(FUZZY_TEXT)
def test_random_text_made_of_format_syntax(text):
    for reader in READERS:
        _check_records(list(reader(text)))


def _mutate(text, data):
    """Delete, insert or replace a random span of a real file's text."""
    for _ in range(data.draw(st.integers(1, 4))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 40)))
        insert = data.draw(st.one_of(st.just(""), FUZZY_TEXT))
        text = text[:start] + insert + text[end:]
    return text


@fast
@given(st.data())
def test_mutated_real_files(data):
    for reader, text in (
        (read_pbn, PBN_TEXT),
        (read_lin, LIN_TEXT),
        (read_sqldump, SQL_TEXT),
        (read_valet, VALET_TEXT),
    ):
        _check_records(list(reader(_mutate(text, data))))


@fast
@given(st.data())
def test_mutated_real_records(data):
    values = dict(data.draw(st.sampled_from(REAL_RECORDS)))
    for _ in range(data.draw(st.integers(1, 5))):
        field = data.draw(st.sampled_from(RAW_FIELDS))
        action = data.draw(st.sampled_from(["drop", "random", "truncate", "shuffle"]))
        value = values.get(field, "")
        if action == "drop":
            values.pop(field, None)
        elif action == "random":
            values[field] = data.draw(FUZZY_TEXT)
        elif action == "truncate":
            values[field] = value[: data.draw(st.integers(0, len(value)))]
        else:
            tokens = value.split()
            values[field] = " ".join(data.draw(st.permutations(tokens)))
    layout = data.draw(st.sampled_from(["seat", "played"]))
    first = clean_record(values, layout, settings=CLEAN)
    _check_outcome(first)
    assert clean_record(values, layout, settings=CLEAN) == first  # deterministic
