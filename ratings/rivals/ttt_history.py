"""A TrueSkill Through Time history that grows by dates, smoothed where it changed.

The history is the package's model (``trueskillthroughtime``): each date's games inform every
player's skill at that date, which drifts between dates by ``gamma`` per time step; messages
pass forward and backward through the dates in sweeps. It is built and swept here on plain
floats (:mod:`~bridgerank.ratings.rivals.ttt_messages`), step for step as the package builds
and sweeps its own ``History``, so that it gives the package's figures to the last bit (the
tests check it) at a fraction of its cost.

A walk-forward asks for the rival's latest skills after each new date, and rebuilding the
history each time cost a full build and its sweeps every date: the rival's work grew with the
square of the dates. So the history is built and smoothed whole once (:meth:`smooth` on a new
history: the package's sweeps), then *extended*: a new date's games are appended as the
package appends dates while it builds (each player's prior is his latest forward message,
widened by the drift of the steps since), and the sweeps that follow run over the new dates
and the ``window`` dates before them only. The earlier dates keep their smoothed messages:
what a new date says of a player's skill years ago would change his current skill only
through those old dates' own forward messages, and the window's first dates take those as
they stand. A forecast reads each player's posterior at his latest date, which the window
holds for everyone who played in it, and the old smoothed one for the rest.
"""

from __future__ import annotations

from typing import Any, Hashable

from bridgerank.ratings.rivals.ttt_messages import (
    IMPROPER,
    Gaussian,
    forget,
    game_likelihoods,
    product,
    quotient,
)

__all__ = ["SmoothedHistory"]

BETA = 1.0  # the package's default performance noise
PRIOR: Gaussian = (0.0, 6.0)  # the package's prior of a new player's skill
CONVERGED = 1e-6  # the package's largest posterior change that ends its sweeps


class _Date:
    """One date's games and, for each of its players, the messages into his skill there:
    from his previous date (``forward``), his next (``backward``) and this date's games
    (``likelihood``, with each game's share in ``shares``); ``elapsed``: each player's time
    steps since his previous date (0 at his first)."""

    def __init__(
        self,
        games: list,
        time: int,
        forward: dict[Hashable, Gaussian],
        elapsed: dict[Hashable, int],
    ) -> None:
        self.games = games
        self.time = time
        self.forward = forward
        self.elapsed = elapsed
        self.backward = dict.fromkeys(forward, IMPROPER)
        self.likelihood = dict.fromkeys(forward, IMPROPER)
        self.shares = [[[IMPROPER] * len(team) for team in game] for game in games]

    def posterior(self, player: Hashable) -> Gaussian:
        """The player's skill at this date."""
        return product(
            product(self.likelihood[player], self.backward[player]), self.forward[player]
        )

    def posteriors(self) -> dict[Hashable, Gaussian]:
        return {player: self.posterior(player) for player in self.forward}

    def update(self) -> None:
        """Each game's messages again, from every player's skill without the game's own."""
        for game, shares in zip(self.games, self.shares):
            priors = [
                [quotient(self.posterior(player), share) for player, share in zip(team, held)]
                for team, held in zip(game, shares)
            ]
            news = game_likelihoods(priors, BETA)
            for team, held, new in zip(game, shares, news):
                for index, player in enumerate(team):
                    without = quotient(self.likelihood[player], held[index])
                    self.likelihood[player] = product(without, new[index])
                    held[index] = new[index]

    def forward_out(self, player: Hashable) -> Gaussian:
        """The message the player takes forward to his next date."""
        return product(self.forward[player], self.likelihood[player])

    def backward_out(self, player: Hashable, gamma: float) -> Gaussian:
        """The message the player takes back to his previous date."""
        message = product(self.likelihood[player], self.backward[player])
        return forget(message, gamma, self.elapsed[player])


def _largest_change(old: dict, new: dict) -> float:
    return max(
        (max(abs(o[0] - n[0]), abs(o[1] - n[1])) for o, n in zip(old.values(), new.values())),
        default=0.0,
    )


class SmoothedHistory:
    """The package's history of ``composition`` (games, each its teams best first) at
    ``times`` (ascending), with a drift ``gamma`` per time step; extended by later dates.

    ``fresh`` is the index of the first date not yet smoothed; ``moved`` the first date whose
    messages the latest smoothing changed (None: none since the players' forward messages
    were read)."""

    def __init__(self, composition: list, times: list[int], gamma: float) -> None:
        self.gamma = gamma
        self.dates: list[_Date] = []
        self.message: dict[Hashable, Gaussian] = {}  # each player's latest forward message
        self.last_time: dict[Hashable, int] = {}  # ... and the time of the date it left
        self.games = 0
        self.smoothed = False
        self.fresh: int | None = None
        self.moved: int | None = None
        self._append(composition, times)
        self.fresh = None

    def extend(self, composition: list, times: list[int]) -> bool:
        """Append the games of ``composition`` past those already held (every game so far,
        as the rival keeps them), at ``times``; False, and nothing changed, when a new game
        is not later than the latest date held (the history must then be built again)."""
        if len(composition) == self.games:
            return True
        if self.dates and min(times[self.games :]) <= self.dates[-1].time:
            return False
        if self.moved is not None:
            for date in self.dates[self.moved :]:
                self._leave(date)
            self.moved = None
        self._append(composition, times)
        return True

    def _append(self, composition: list, times: list[int]) -> None:
        """Add the dates of the games past those held, each built as the package builds a
        date: every player's prior is his latest forward message, widened by the drift of
        the steps since (a new player's: the package's prior), then the date's games."""
        first = len(self.dates)
        new = list(zip(times[self.games :], composition[self.games :]))
        for time in sorted({time for time, _ in new}):
            games = [game for at, game in new if at == time]
            players = {player for game in games for team in game for player in team}
            elapsed = {p: time - self.last_time[p] if p in self.message else 0 for p in players}
            forward = {p: self._receive(p, elapsed[p]) for p in players}
            date = _Date(games, time, forward, elapsed)
            date.update()
            self.dates.append(date)
            self._leave(date)
        self.games = len(composition)
        self.fresh = first if self.fresh is None else min(self.fresh, first)

    def _receive(self, player: Hashable, elapsed: int) -> Gaussian:
        message = self.message.get(player)
        return PRIOR if message is None else forget(message, self.gamma, elapsed)

    def _leave(self, date: _Date) -> None:
        """Each of ``date``'s players leaves it with its forward message and its time."""
        for player in date.forward:
            self.message[player] = date.forward_out(player)
            self.last_time[player] = date.time

    def smooth(self, sweeps: int, window: int, window_sweeps: int | None = None) -> None:
        """``sweeps`` backward-forward sweeps over every date of a new history (fewer when
        no posterior moves by more than ``CONVERGED``, as the package stops); else
        ``window_sweeps`` (None: ``sweeps``) over the dates added since the last smoothing
        and the ``window`` dates before them."""
        if not self.smoothed:
            for _ in range(sweeps):
                if self._sweep(0, measured=True) <= CONVERGED:
                    break
            self.smoothed, self.moved = True, 0
        elif self.fresh is not None:
            start = max(self.fresh - window, 0)
            for _ in range(sweeps if window_sweeps is None else window_sweeps):
                self._sweep(start)
            self.moved = start if self.moved is None else min(self.moved, start)
        self.fresh = None

    def _sweep(self, start: int, measured: bool = False) -> float:
        """One backward and one forward pass over the dates from ``start`` on, as the
        package's ``History.iteration`` passes over all of them: the messages into the
        window's first games of each player from earlier dates are kept as they are.
        ``measured``: the largest change of a posterior it made (else 0)."""
        dates, moved = self.dates, 0.0
        later: dict[Hashable, Gaussian] = {}  # each player's message from his next date
        for index in range(len(dates) - 1, start - 1, -1):
            date = dates[index]
            if index < len(dates) - 1:
                old = date.posteriors() if measured else None
                for player in date.forward:
                    date.backward[player] = later.get(player, IMPROPER)
                date.update()
                if old is not None:
                    moved = max(moved, _largest_change(old, date.posteriors()))
            for player in date.forward:
                later[player] = date.backward_out(player, self.gamma)
        earlier: dict[Hashable, Gaussian] = {}  # each player's message from his previous date
        for index in range(start, len(dates)):
            date = dates[index]
            if index > start:
                old = date.posteriors() if measured else None
                for player in date.forward:
                    if player in earlier:  # (else his first date: the prior, as built)
                        date.forward[player] = forget(
                            earlier[player], self.gamma, date.elapsed[player]
                        )
                date.update()
                if old is not None:
                    moved = max(moved, _largest_change(old, date.posteriors()))
            for player in date.forward:
                earlier[player] = date.forward_out(player)
        if measured and len(dates) == 1:
            moved = self._settle(dates[0])
        return moved

    @staticmethod
    def _settle(date: _Date) -> float:
        """A history of one date: its games updated until no posterior moves by more than
        ``CONVERGED`` (at most 20 times), as the package's ``Batch.convergence``; the
        largest change of a posterior from before the first update to after the last."""
        before = date.posteriors()
        for _ in range(20):
            old = date.posteriors()
            date.update()
            if _largest_change(old, date.posteriors()) <= CONVERGED:
                break
        return _largest_change(before, date.posteriors())

    def latest(self) -> tuple[dict[Any, Gaussian], dict[Any, int]]:
        """Each player's posterior (mean, sd) at his latest date, and that date's time."""
        posterior: dict[Any, Gaussian] = {}
        last_time: dict[Any, int] = {}
        for date in reversed(self.dates):
            for player in date.forward:
                if player not in posterior:
                    posterior[player] = date.posterior(player)
                    last_time[player] = int(date.time)
        return posterior, last_time
