"""The context a short name is read in: the country its event, its team and its partners say.

A listed player is taken for a short name only where the context agrees with their country,
and never where it says another one (:mod:`cleaning.match.person_resolver`, step 3 of
:mod:`cleaning.match.persons`); in a women's event, never.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable, Sequence

from bridgerank.cleaning.match.countries import country_key, plays_for, team_country
from bridgerank.cleaning.match.matcher import NameMatcher
from bridgerank.cleaning.match.names import name_parts
from bridgerank.cleaning.match.non_persons import classify
from bridgerank.cleaning.match.occurrences import Occurrence, is_womens_event
from bridgerank.cleaning.match.short_names import same_player, short_word
from bridgerank.cleaning.match.standings import RosterTeam, Standings
from bridgerank.cleaning.match.wbf_lists import WbfEntry

__all__ = ["EventContext"]


# An event is a country's when this share of at least this many of its listed players are.
_NATIONAL_SHARE = 0.6
_NATIONAL_EVENT_PLAYERS = 3
# An event with this many listed players, at most this share of a country, has no player
# of it.
_CHAMPIONSHIP_PLAYERS = 20
_STRAY_SHARE = 0.05


class EventContext:
    """What the events say of the country of a name seen in them: the team names of its
    boards, the rosters beside them, its partners and the event's listed players.

    The lists' reading of every string (``kind``, ``match``, ``parts``) is kept here too, as
    the partners' and the event's countries are read from it.
    """

    def __init__(
        self,
        occurrences: Sequence[Occurrence],
        matcher: NameMatcher,
        entries: Sequence[WbfEntry],
        standings: Standings,
    ) -> None:
        self.entries = entries
        self.countries = {country_key(entry.country) for entry in entries if entry.country}
        self.listed_with = matcher.by_token  # token -> the entries holding it
        self.matcher = matcher
        self.standings = standings
        self.roster_of: dict[tuple[str, str], RosterTeam | None] = {}
        raws = sorted({occurrence.raw for occurrence in occurrences})
        self.kind = {raw: classify(raw) for raw in raws}
        self.match = {raw: matcher.match(raw) for raw in raws if self.kind[raw] is None}
        self.parts = {raw: name_parts(raw) for raw in self.match}
        # the countries of the listed players an event's full names are (a national event)
        self.event_countries: dict[str, Counter[str]] = defaultdict(Counter)
        for occurrence in occurrences:
            raw = occurrence.raw
            listed = self.match[raw].wbf_index if raw in self.match else None
            if listed is not None:  # the lists' reading of every string, short ones too
                self.event_countries[occurrence.scope][country_key(entries[listed].country)] += 1

    def _roster_team(self, occurrence: Occurrence) -> RosterTeam | None:
        """The one team of the rosters beside the event's boards that lists both a short
        name and its partner (a typo apart at most), if any."""
        if occurrence.key not in self.roster_of:
            found = [
                team
                for team in self.standings.teams_of(occurrence.folders)
                if any(same_player(occurrence.raw, player) for player in team.players)
                and any(
                    same_player(partner, player)
                    for partner in occurrence.partners
                    for player in team.players
                )
            ]
            self.roster_of[occurrence.key] = found[0] if len(found) == 1 else None
        return self.roster_of[occurrence.key]

    def _womens(self, occurrence: Occurrence) -> bool:
        """Whether an occurrence is of a women's event, or of a women's team on its roster."""
        team = self._roster_team(occurrence)
        return is_womens_event(occurrence.scope) or (team is not None and team.womens)

    def _teams(self, occurrence: Occurrence) -> Iterable[str]:
        """The team names of an occurrence's boards, else its roster team's heading."""
        if occurrence.teams:
            return occurrence.teams
        team = self._roster_team(occurrence)
        return (team.heading,) if team is not None else ()

    def _partner_countries(self, occurrence: Occurrence) -> set[str]:
        """The countries of the listed players the partners' strings name."""
        countries = set()
        for partner in occurrence.partners:
            partner_match = self.match.get(partner)
            if partner_match is not None and partner_match.wbf_index is not None:
                countries.add(country_key(self.entries[partner_match.wbf_index].country))
        return countries

    def _team_countries(self, occurrence: Occurrence) -> set[str] | None:
        """The countries of the teams an occurrence's boards were played between, or None
        when a team name is no country (a sponsor's, a captain's)."""
        countries = {team_country(team, self.countries) for team in self._teams(occurrence)}
        return None if not countries or None in countries else {c for c in countries if c}

    def _country_differs(self, occurrence: Occurrence, wbf_index: int) -> bool:
        """Whether the context says another country than the entry's, where the lists hold
        namesakes of the entry: every team of its boards is a country and none is the
        entry's, every listed partner is of another country, or the event's many listed
        players include next to none of it. (A surname the lists hold
        once is not vetoed: players change federations - Pszczola, Multon - and the lists
        give the latest.)"""
        word = short_word(self.parts[occurrence.raw])
        if len(self.listed_with.get(word, ())) < 2:
            return False
        country = country_key(self.entries[wbf_index].country)
        teams = self._team_countries(occurrence)
        if teams and not plays_for(country) & teams:
            return True
        partners = self._partner_countries(occurrence)
        if partners and country not in partners:
            return True
        # a championship of many listed players, next to none of the entry's country (an
        # American "Kaplan A" in a European championship is a European Kaplan; the few
        # Americans it lists are players who moved there later)
        listed = self.event_countries.get(occurrence.scope, Counter())
        total = sum(listed.values())
        if total < _CHAMPIONSHIP_PLAYERS or listed[country] > _STRAY_SHARE * total:
            return False
        return not self._country_agrees(occurrence, wbf_index)  # unless the context agrees

    def _country_agrees(self, occurrence: Occurrence, wbf_index: int) -> bool:
        country = country_key(self.entries[wbf_index].country)
        if not country:
            return False
        teams = self._team_countries(occurrence) or {
            found
            for team in self._teams(occurrence)
            if (found := team_country(team, self.countries)) is not None
        }
        if plays_for(country) & teams:
            return True
        listed = self.event_countries.get(occurrence.scope, Counter())
        total = sum(listed.values())
        if total >= _NATIONAL_EVENT_PLAYERS and listed[country] >= _NATIONAL_SHARE * total:
            return True  # an event of that country's players (a national trial)
        return country in self._partner_countries(occurrence)
