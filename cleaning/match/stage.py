"""The ``match`` stage: raw player names in ``boards`` -> ``wbf_players``, ``players``,
``name_matches``.

Every distinct raw name is matched once (:mod:`cleaning.matcher`); matched names become
the WBF player, unmatched ones a player of their own keyed by the folded raw name (so
``fORRESTER`` and ``Forrester`` are one player), robots a player of kind ``robot``. The
outputs are replaced in one transaction with the ledger row.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.cleaning.match.matcher import Match, NameMatcher
from bridgerank.cleaning.match.names import display_key
from bridgerank.cleaning.match.summary import MatchSummary
from bridgerank.cleaning.match.tables import NameMatch, Player, WbfPlayer
from bridgerank.cleaning.match.wbf_lists import WbfEntry, read_pairs, read_wbf_lists
from bridgerank.core.sections import MatchSettings
from bridgerank.core.settings import resolve_path
from bridgerank.core.stage import Stage, StageContext

SEAT_COLUMNS = (Board.north, Board.east, Board.south, Board.west)


def _files(section: MatchSettings) -> list[Path]:
    files = [resolve_path(value) for value in section.wbf_lists]
    files += [
        resolve_path(value) for value in (section.wbf_codes, section.alternative_names) if value
    ]
    return files


def load_wbf(section: MatchSettings) -> tuple[list[WbfEntry], list[str], dict[str, str]]:
    """WBF entries (deduplicated, codes attached), problem lines, alternative names.

    Parameters
    ----------
    section : MatchSettings
        The ``[match]`` section: the list files.
    """
    wbf = read_wbf_lists([resolve_path(value) for value in section.wbf_lists])
    codes = read_pairs(resolve_path(section.wbf_codes)) if section.wbf_codes else {}
    alternatives = (
        read_pairs(resolve_path(section.alternative_names)) if section.alternative_names else {}
    )
    seen = set()
    entries = []
    for entry in wbf.entries:
        identity = (entry.name, entry.country, entry.mp, entry.pp)
        if identity in seen:
            continue
        seen.add(identity)
        entry.code = entry.code or codes.get(entry.name)
        entries.append(entry)
    return entries, wbf.problems, alternatives


def seat_counts(conn) -> Counter:
    """Board-seats per raw name (empty names left out)."""
    counts: Counter = Counter()
    for column in SEAT_COLUMNS:
        for name, count in conn.execute(select(column, func.count()).group_by(column)).all():
            if name:
                counts[name] += count
    return counts


def _players(matches: list[Match], seats: Counter, entries: list[WbfEntry]):
    """Players and the player index of each raw name."""
    players: list[dict[str, Any]] = []
    by_key: dict[tuple, int] = {}
    spellings: dict[int, Counter] = defaultdict(Counter)
    player_of: dict[str, int] = {}
    for match in matches:
        if match.wbf_index is not None:
            key: tuple = ("wbf", match.wbf_index)
            kind, name, wbf_id = "wbf", entries[match.wbf_index].name, match.wbf_index + 1
        else:
            kind = match.reason if match.reason in ("robot", "handle") else "raw"
            key, name, wbf_id = (kind, display_key(match.raw)), None, None
        if key not in by_key:
            by_key[key] = len(players)
            players.append(
                {"id": len(players) + 1, "name": name, "kind": kind, "wbf_id": wbf_id, "seats": 0}
            )
        index = by_key[key]
        players[index]["seats"] += seats[match.raw]
        spellings[index][match.raw] += seats[match.raw]
        player_of[match.raw] = index + 1
    for index, player in enumerate(players):
        if player["name"] is None:  # the most played spelling names an unmatched player
            player["name"] = spellings[index].most_common(1)[0][0]
    return players, player_of


def _text(score) -> str | None:
    return None if score is None else ",".join(str(value) for value in score)


def run(context: StageContext) -> MatchSummary:
    """Match every raw name of ``boards`` (see the module docstring)."""
    entries, problems, alternatives = load_wbf(context.settings.match)
    matcher = NameMatcher(
        [entry.name for entry in entries], alternatives, settings=context.settings.match
    )
    with context.engine.connect() as conn:
        seats = seat_counts(conn)
    names = sorted(seats)
    matches = [matcher.match(name) for name in context.progress(names, "match names", len(names))]
    players, player_of = _players(matches, seats, entries)
    rows = [
        {
            "raw_name": match.raw,
            "player_id": player_of[match.raw],
            "wbf_id": None if match.wbf_index is None else match.wbf_index + 1,
            "reason": match.reason,
            "score": _text(match.score),
            "runner_up_score": _text(match.runner_up_score),
            "runner_up": None if match.runner_up is None else entries[match.runner_up].name,
            "seats": seats[match.raw],
        }
        for match in matches
    ]
    reasons = Counter(match.reason for match in matches)
    matched_seats = sum(seats[m.raw] for m in matches if m.wbf_index is not None)
    total_seats = sum(seats.values())
    summary = MatchSummary(
        raw_names=len(matches),
        matched=sum(1 for match in matches if match.wbf_index is not None),
        ambiguous=reasons["ambiguous"],
        unmatched=sum(1 for match in matches if match.wbf_index is None),
        robots=reasons["robot"],
        handles=reasons["handle"],
        reasons=dict(reasons.most_common()),
        wbf_players=len(entries),
        players=len(players),
        seats=total_seats,
        seats_matched=matched_seats,
        seat_share_matched=round(matched_seats / total_seats, 4) if total_seats else 0.0,
        wbf_problems=problems,
    )
    # players and name_matches hold keys of the tables before them: finish empties the
    # three last-first and fills them first-last
    wbf_rows = [
        {
            "id": index + 1,
            "name": entry.name,
            "country": entry.country,
            "mp": entry.mp,
            "pp": entry.pp,
            "source": f"{entry.source}:{entry.line}",
            "code": entry.code,
        }
        for index, entry in enumerate(entries)
    ]
    with context.engine.begin() as conn:
        context.finish(
            conn, summary, replace={WbfPlayer: wbf_rows, Player: players, NameMatch: rows}
        )
    return summary


def _extra_input(context: StageContext) -> list[str]:
    """Content hashes of the WBF files: a newer list reruns the stage."""
    digests = []
    for path in _files(context.settings.match):
        try:
            digests.append(hashlib.sha256(path.read_bytes()).hexdigest())
        except OSError:
            digests.append(f"missing:{path}")
    return digests


MATCH_STAGE = Stage(
    name="match",
    run=run,
    reads=(Board,),
    writes=(WbfPlayer, Player, NameMatch),
    settings_sections=("match",),
    extra_input=_extra_input,
    summary_type=MatchSummary,
)
