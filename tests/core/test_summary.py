"""Every stage's summary is typed, and reads back from the ledger whatever version wrote it.

The ledger keeps each run's summary as JSON (:meth:`StageSummary.to_json`), and ``bridgerank
status`` rebuilds the last one with the stage's ``summary_type`` (:meth:`StageSummary.from_json`).
So every field needs a default (a summary of an older version may lack it), the JSON must
round-trip, and a summary of another version's shape must still print.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import pytest

from bridgerank.core.summary import StageSummary
from bridgerank.pipeline.stages import all_stages

STAGES = all_stages()


def _dataclasses_in(kind: type) -> list[type]:
    """``kind`` and every dataclass its fields name, at any depth."""
    found = [kind]
    for hint in typing.get_type_hints(kind).values():
        for inner in _types_in(hint):
            if dataclasses.is_dataclass(inner) and inner not in found:
                found += [k for k in _dataclasses_in(inner) if k not in found]
    return found


def _types_in(hint: Any) -> list[Any]:
    """The types a hint names: ``int`` for ``int``, ``str, Inner`` for ``dict[str, Inner]``."""
    args = typing.get_args(hint)
    return [hint] if not args else [found for arg in args for found in _types_in(arg)]


def _filled(hint: Any, seed: int) -> Any:
    """A value of type ``hint`` unlike the field defaults (no zero, no empty container),
    differing with ``seed`` so that two fields of one type do not hold the same value."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _filled(next(arg for arg in args if arg is not type(None)), seed)
    if origin is list:
        return [_filled(args[0], seed), _filled(args[0], seed + 1)]
    if origin is dict:
        return {_filled(args[0], seed): _filled(args[1], seed + 1)}
    if dataclasses.is_dataclass(hint):
        return _instance(hint, seed)
    values = {bool: True, int: 1000 + seed, float: 0.25 + seed, str: f"text {seed}"}
    return values[hint]


def _instance(kind: type, seed: int = 0) -> Any:
    """An instance of the dataclass ``kind`` with every field filled in."""
    hints = typing.get_type_hints(kind)
    return kind(
        **{
            field.name: _filled(hints[field.name], seed + number)
            for number, field in enumerate(dataclasses.fields(kind))
        }
    )


@pytest.mark.parametrize("stage", STAGES, ids=lambda stage: stage.name)
def test_every_stage_declares_its_summary_type(stage):
    assert issubclass(stage.summary_type, StageSummary)
    assert stage.summary_type is not StageSummary


@pytest.mark.parametrize("stage", STAGES, ids=lambda stage: stage.name)
def test_every_field_has_a_default(stage):
    for kind in _dataclasses_in(stage.summary_type):
        for field in dataclasses.fields(kind):
            has_default = field.default is not dataclasses.MISSING
            assert has_default or field.default_factory is not dataclasses.MISSING, (
                f"{kind.__name__}.{field.name} has no default"
            )


@pytest.mark.parametrize("stage", STAGES, ids=lambda stage: stage.name)
def test_a_filled_in_summary_round_trips_through_json(stage):
    summary = _instance(stage.summary_type)
    empty = stage.summary_type()
    for field in dataclasses.fields(summary):  # every field is worth the round trip
        assert getattr(summary, field.name) != getattr(empty, field.name), field.name
    assert stage.summary_type.from_json(summary.to_json()) == summary
    # and it prints: its closing lines and its line in status
    assert all(isinstance(line, str) for line in summary.lines() + summary.warnings())
    assert summary.lines() and summary.brief()


@pytest.mark.parametrize("stage", STAGES, ids=lambda stage: stage.name)
def test_a_summary_of_another_version_still_prints(stage):
    """No field at all (a version before it), or a key this version does not know (one
    renamed since, or the ledger's own ``fingerprint_parts``)."""
    for recorded in ({}, {"seconds": 1.5, "fingerprint_parts": {}, "renamed_since": [1, 2]}):
        summary = stage.summary_type.from_json(recorded)
        assert summary == stage.summary_type(seconds=recorded.get("seconds", 0.0))
        assert isinstance(summary.brief(), str)
        assert all(isinstance(line, str) for line in summary.lines() + summary.warnings())
