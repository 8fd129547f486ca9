"""What the records say of team players beyond their team boards, for the team headline.

A championship player is often seen in a team match for the first or second time, so their
team boards alone say little. Three kinds of evidence from every other board of the records
say more, each from periods before the match predicted:

- **experience**: ``log(1 + boards played)``, of any kind. The players who keep coming back
  to championships (and reach their later rounds) are, on average, the stronger ones;
- **double dummy measures** (:mod:`~bridgerank.ratings.dd_prior`'s three: declarer's tricks
  against double dummy, the defence's, and the side's contract against par in IMPs), shrunk
  toward zero by a few pseudo-boards (``[rate.teams] dd_shrinks``);
- **boards played at one table** (a vugraph pairs event, a match recorded in one room):
  North-South's score against the double dummy par, in IMPs - the same scale as a team board's
  IMPs, with noise of its own (its weight in the fit is chosen on the training dates).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from bridgerank.bridge.scoring import imps
from bridgerank.core.settings import default_settings
from bridgerank.ratings.card_evidence import CARD_KINDS, CardCounts
from bridgerank.ratings.dd_prior import measure_terms, shrunk_means
from bridgerank.ratings.field import period_of
from bridgerank.ratings.games import single_table_games

if TYPE_CHECKING:
    from bridgerank.core.sections import TeamSettings
    from bridgerank.ratings.dd_prior import BoardEvidence
    from bridgerank.ratings.field import FieldTables

__all__ = [
    "CARD_COVARIATES",
    "COVARIATES",
    "EVIDENCE_VARIANTS",
    "OneTableBoards",
    "PlayerRecords",
    "TeamEvidence",
]

# The columns PlayerRecords.covariates gives, in order; with card counters, these beside.
COVARIATES = ("experience", "declarer_play", "defence", "bidding")
CARD_COVARIATES = tuple(f"costly_{kind}_cards" for kind in CARD_KINDS)
_SEATS = ("north", "south", "east", "west")  # BoardEvidence's declarer columns


@dataclass
class PlayerRecords:
    """Every board's four players and when it was played, with its double dummy measures
    where the dds stage has them (NaN where not), sorted by period; with ``cards``
    (:meth:`with_cards`), also each seat's card counters, whose shrunk rates are three more
    covariates (:data:`CARD_COVARIATES`). The covariates are shrunk by ``settings``'
    ``dd_shrinks``, ``card_shrinks`` and ``field_shrink`` (``[rate.teams]``; None: the
    shipped defaults)."""

    players: dict[Hashable, int]  # player -> column of seats
    period: np.ndarray  # (boards,) period texts, ascending
    seats: np.ndarray  # (boards, 4) player index of N, S, E, W; -1 for an empty seat
    declarer: np.ndarray  # (boards,) seat column of declarer, -1 when none or unknown
    tricks_vs_dd: np.ndarray
    bidding_imps: np.ndarray  # from North-South's side
    board: np.ndarray | None = None  # (boards,) board ids
    cards: tuple[np.ndarray, np.ndarray] | None = None  # played, costly: (boards, 4, 3) each
    ns_share: np.ndarray | None = None  # (boards,) North-South's matchpoints; NaN: no field
    settings: TeamSettings | None = None  # [rate.teams], the covariates' shrinkage

    @property
    def teams(self) -> TeamSettings:
        """``[rate.teams]``: :attr:`settings`, or the shipped defaults."""
        return self.settings if self.settings is not None else default_settings().rate.teams

    @classmethod
    def of(
        cls,
        boards: Iterable[Mapping[str, Any]],
        player_of: Mapping[str, Hashable],
        evidence: BoardEvidence | None = None,
        settings: TeamSettings | None = None,
    ) -> PlayerRecords:
        """From board rows (``id``, the four seats, ``date``/``year``) and the dds stage's
        evidence (None: experience only); ``settings``: ``[rate.teams]``, the covariates'
        shrinkage (None: the shipped defaults)."""
        rows = sorted(boards, key=period_of)
        players: dict[Hashable, int] = {}
        seats = np.full((len(rows), 4), -1, dtype=np.int64)
        for number, board in enumerate(rows):
            for column, seat in enumerate(_SEATS):
                if board[seat]:
                    who = player_of.get(board[seat], board[seat])
                    seats[number, column] = players.setdefault(who, len(players))
        ids = np.array([board["id"] for board in rows], dtype=np.int64)
        declarer = np.full(len(rows), -1, dtype=np.int64)
        tricks = np.full(len(rows), np.nan)
        bidding = np.full(len(rows), np.nan)
        if evidence is not None and len(evidence) and len(rows):
            position, found = evidence.rows_of(ids)
            declarer[found] = evidence.declarer[position[found]]
            tricks[found] = evidence.tricks_vs_dd[position[found]]
            bidding[found] = evidence.bidding_imps[position[found]]
        period = np.array([period_of(board) for board in rows], dtype=object)
        return cls(players, period, seats, declarer, tricks, bidding, ids, settings=settings)

    def experience_only(self) -> PlayerRecords:
        """The same boards without their double dummy measures: those covariates are zero
        (for the question whether the measures add to experience and results)."""
        unknown = np.full(len(self.period), np.nan)
        return PlayerRecords(
            self.players,
            self.period,
            self.seats,
            self.declarer,
            unknown,
            unknown.copy(),
            settings=self.settings,
        )

    def with_cards(self, counts: CardCounts) -> PlayerRecords:
        """The same boards with each seat's card counters (:mod:`card_evidence`): the
        covariates gain each player's shrunk rate of costly opening leads, declarer's cards
        and defenders' cards (:data:`CARD_COVARIATES`)."""
        if self.board is None:
            raise ValueError("records made without board ids cannot take card counters")
        return replace(self, cards=counts.aligned(self.board))

    def with_fields(self, tables: FieldTables) -> PlayerRecords:
        """The same boards with North-South's matchpoint share where the board was played in
        a field (``tables``): the covariates gain each player's shrunk mean share above
        half from their side (the covariate ``field_share``) - their pair results, on the scale
        of matchpoints, as a prior of their strength in IMPs."""
        if self.board is None:
            raise ValueError("records made without board ids cannot take field results")
        share = np.full(len(self.board), np.nan)
        if len(tables) and len(self.board):
            order = np.argsort(tables.board)
            ids = tables.board[order]
            position = np.minimum(np.searchsorted(ids, self.board), len(ids) - 1)
            found = ids[position] == self.board
            share[found] = tables.share[order][position[found]]
        return replace(self, ns_share=share)

    def covariates(self, who: Sequence[Hashable], before: str) -> np.ndarray:
        """The :data:`COVARIATES` of each of ``who`` from the boards of periods before
        ``before``: shape (len(who), 4), or 7 with card counters; a player never seen has
        zeros."""
        index = np.array([self.players.get(player, -1) for player in who], dtype=np.int64)
        return self.covariates_of(index, before)

    def covariates_of(self, index: np.ndarray, before: str) -> np.ndarray:
        """:meth:`covariates` of players given by their index in :attr:`players` (-1: never
        seen, zeros)."""
        every = self._every(before)
        return np.where(index[:, None] >= 0, every[index], 0.0)

    def _every(self, before: str) -> np.ndarray:
        """Every player's covariates before a period, kept: one fit asks for each period of
        its rows, and the walk-forward's fits ask for the same periods again."""
        cache: dict[str, np.ndarray] = self.__dict__.setdefault("_cache", {})
        if before not in cache:
            cache[before] = self._compute(before)
        return cache[before]

    def _compute(self, before: str) -> np.ndarray:
        teams = self.teams
        count = int(np.searchsorted(self.period, before, side="left"))
        seats = self.seats[:count]
        size = len(self.players) + 1  # the last bin collects the empty seats
        flat = np.where(seats >= 0, seats, size - 1)
        played = np.bincount(flat.ravel(), minlength=size)[:-1]
        out = np.zeros((len(self.players), len(COVARIATES)))
        out[:, 0] = np.log1p(played)
        terms = measure_terms(
            flat, self.declarer[:count], self.tricks_vs_dd[:count], self.bidding_imps[:count]
        )
        for column, ((_, whom, values), shrink) in enumerate(zip(terms, teams.dd_shrinks), 1):
            # the last bin is the empty seats'
            out[:, column] = shrunk_means(whom, values, size, shrink)[:-1]
        parts = [out]
        if self.cards is not None:
            parts.append(self._card_rates(flat, size, teams.card_shrinks))
        if self.ns_share is not None:
            parts.append(self._field_share(flat, self.ns_share[:count], size, teams.field_shrink))
        return np.hstack(parts)

    @staticmethod
    def _field_share(flat: np.ndarray, share: np.ndarray, size: int, shrink: float) -> np.ndarray:
        """Each player's matchpoint share above half from their side, summed over the field
        boards given and shrunk by ``shrink`` pseudo-boards (``[rate.teams] field_shrink``)."""
        rows = np.flatnonzero(~np.isnan(share))
        edge = share[rows] - 0.5
        whom = np.concatenate([flat[rows, :2].ravel(), flat[rows, 2:].ravel()])
        values = np.concatenate([np.repeat(edge, 2), -np.repeat(edge, 2)])
        return shrunk_means(whom, values, size, shrink)[:-1, None]  # the empty seats' bin out

    def _card_rates(self, flat: np.ndarray, size: int, shrinks: tuple[float, ...]) -> np.ndarray:
        """Each player's rate of costly cards of each kind over the boards given (``flat``:
        their seats, the empty ones in the last bin), less everyone's, shrunk toward it by
        ``shrinks`` pseudo-cards (one per kind, ``[rate.teams] card_shrinks``): positive for
        a player who gives away more."""
        assert self.cards is not None
        played, costly = (part[: len(flat)] for part in self.cards)
        rates = np.zeros((size - 1, len(CARD_KINDS)))
        for kind, shrink in enumerate(shrinks):
            cards = np.bincount(flat.ravel(), weights=played[:, :, kind].ravel(), minlength=size)
            lost = np.bincount(flat.ravel(), weights=costly[:, :, kind].ravel(), minlength=size)
            overall = lost[:-1].sum() / max(cards[:-1].sum(), 1.0)
            rates[:, kind] = (lost[:-1] - overall * cards[:-1]) / (cards[:-1] + shrink)
        return rates


@dataclass
class OneTableBoards:
    """Boards played at one table only: North-South's pair against East-West's, and
    North-South's score against the double dummy par in IMPs, sorted by period."""

    period: np.ndarray
    pairs: list[tuple[tuple[Hashable, ...], tuple[Hashable, ...]]]
    imps: np.ndarray
    event: np.ndarray | None = None  # each board's event (None: not kept)

    @classmethod
    def of(
        cls,
        boards: Sequence[Mapping[str, Any]],
        player_of: Mapping[str, Hashable],
        par_of: Callable[[Mapping[str, Any]], int | None],
    ) -> OneTableBoards:
        """Every board of ``boards`` played at one table with a par (``par_of``)."""
        by_id = {board["id"]: board for board in boards}
        games = single_table_games(boards, player_of, par_of)
        rows = sorted(
            ((period_of(by_id[game.board_ids[0]]), game) for game in games),
            key=lambda row: row[0],
        )
        return cls(
            np.array([period for period, _ in rows], dtype=object),
            [(game.team_a, game.team_b) for _, game in rows],
            np.array([imps(game.net) for _, game in rows], dtype=float),
            np.array([by_id[game.board_ids[0]]["event"] for _, game in rows], dtype=object),
        )

    def __len__(self) -> int:
        return len(self.imps)

    def before(self, period: str) -> int:
        """How many of the boards were played before ``period`` (they come first)."""
        return int(np.searchsorted(self.period, period, side="left"))


@dataclass
class TeamEvidence:
    """The evidence beyond the team boards that the team headline reads (either may be
    missing: no other boards, or no dds stage yet)."""

    records: PlayerRecords | None = None
    one_table: OneTableBoards | None = None
    cards: CardCounts | None = None  # the card counters per board and seat, where analysed
    fields: FieldTables | None = None  # the boards played in a field, matchpointed

    def experience_only(self) -> TeamEvidence | None:
        """The same evidence without the double dummy measures among the records'
        covariates (None: no records)."""
        if self.records is None:
            return None
        return replace(self, records=self.records.experience_only())

    def with_cards(self) -> TeamEvidence | None:
        """The same evidence with the card counters among the records' covariates (None:
        no records or no counters to add)."""
        if self.records is None or self.cards is None or not len(self.cards):
            return None
        return replace(self, records=self.records.with_cards(self.cards))

    def with_fields(self) -> TeamEvidence | None:
        """The same evidence with each player's earlier matchpoint results in fields among
        the records' covariates (None: no records or no field)."""
        if self.records is None or self.fields is None or not len(self.fields):
            return None
        return replace(self, records=self.records.with_fields(self.fields))


# The variants of the headline's evidence that the held-out studies set beside it (team
# matches, pairs at one table): name -> what it is, and the evidence it reads (None: it
# does not apply to these records).
EVIDENCE_VARIANTS: dict[str, tuple[str, Callable[[TeamEvidence], TeamEvidence | None]]] = {
    "headline_no_dd": (
        "the IMP headline without the double dummy measures among the covariates",
        TeamEvidence.experience_only,
    ),
    "headline_cards": (
        "the IMP headline with each player's earlier rates of costly leads, declarer's and "
        "defenders' cards among the covariates",
        TeamEvidence.with_cards,
    ),
    "headline_fields": (
        "the IMP headline with each player's earlier matchpoint share in fields among the "
        "covariates",
        TeamEvidence.with_fields,
    ),
}
