"""A TrueSkill Through Time history that grows by dates, smoothed where it changed.

The package's ``History`` is built whole from every game and smoothed by sweeps over all its
dates. A walk-forward asks for the rival's latest skills after each new date, and rebuilding
the history each time cost a full build and its sweeps every date: the rival's work grew with
the square of the dates, and it was most of the rate stage on the club sessions.

Here the history is built and smoothed whole once (:meth:`SmoothedHistory.smooth` on a new
history: the package's own sweeps, as before), then *extended*: a new date's games are
appended as the package appends dates while it builds (each player's prior is his latest
forward message, widened by the drift of the steps since), and the sweeps that follow run
over the new dates and the ``window`` dates before them only. The earlier dates keep their
smoothed messages: what a new date says of a player's skill years ago would change his
current skill only through those old dates' own forward messages, and the window's first
dates take those as they stand. A forecast reads each player's posterior at his latest date,
which the window holds for everyone who played in it, and the old smoothed one for the rest.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SmoothedHistory"]

BETA = 1.0  # the package's default performance noise


class SmoothedHistory:
    """The package's history of ``composition`` (games, each its teams best first) at
    ``times`` (ascending), with a drift ``gamma`` per time step; extended by later dates.

    ``fresh`` is the index of the first date not yet smoothed; ``moved`` the first date whose
    messages the latest smoothing changed (None: none since the players' forward messages
    were read)."""

    def __init__(self, composition: list, times: list[int], gamma: float) -> None:
        from trueskillthroughtime import History

        self.gamma = gamma
        self.history = History(composition=composition, times=times, beta=BETA, gamma=gamma)
        self.games = len(composition)
        self.smoothed = False
        self.fresh: int | None = None
        self.moved: int | None = None

    def extend(self, composition: list, times: list[int]) -> bool:
        """Append the games of ``composition`` past those already held (every game so far,
        as the rival keeps them), at ``times``; False, and nothing changed, when a new game
        is not later than the latest date held (the history must then be built again)."""
        from trueskillthroughtime import MU, SIGMA, Agent, Batch, Gaussian, Ninf, Player

        history = self.history
        new = list(zip(times[self.games :], composition[self.games :]))
        if not new:
            return True
        latest = history.batches[-1].time if history.batches else None
        if latest is not None and min(time for time, _ in new) <= latest:
            return False
        if self.moved is not None:
            self._forward_messages(self.moved)
            self.moved = None
        first = len(history.batches)
        for time in sorted({time for time, _ in new}):
            games = [game for at, game in new if at == time]
            for player in {p for game in games for team in game for p in team}:
                if player not in history.agents:
                    prior = Player(Gaussian(MU, SIGMA), BETA, self.gamma)
                    history.agents[player] = Agent(prior, Ninf, -float("inf"))
            batch = Batch(games, [], time, history.agents, history.p_draw)
            history.batches.append(batch)
            self._leave(batch)
        history.size += len(new)
        self.games = len(composition)
        self.fresh = first if self.fresh is None else min(self.fresh, first)
        return True

    def smooth(self, sweeps: int, window: int, window_sweeps: int | None = None) -> None:
        """``sweeps`` backward-forward sweeps over every date of a new history; else
        ``window_sweeps`` (None: ``sweeps``) over the dates added since the last smoothing
        and the ``window`` dates before them."""
        if not self.smoothed:
            self.history.convergence(iterations=sweeps, verbose=False)
            self.smoothed, self.moved = True, 0
        elif self.fresh is not None:
            start = max(self.fresh - window, 0)
            for _ in range(sweeps if window_sweeps is None else window_sweeps):
                self._sweep(start)
            self.moved = start if self.moved is None else min(self.moved, start)
        self.fresh = None

    def _sweep(self, start: int) -> None:
        """One backward and one forward pass over the dates from ``start`` on, as the
        package's ``History.iteration`` passes over all of them: the messages into the
        window's first games of each player from earlier dates are kept as they are."""
        from trueskillthroughtime import Ninf

        batches = self.history.batches
        later: dict[Any, Any] = {}  # each player's message from his next date
        for index in range(len(batches) - 1, start - 1, -1):
            batch = batches[index]
            if index < len(batches) - 1:
                for player in batch.skills:
                    batch.skills[player].backward = later.get(player, Ninf)
                batch.iteration()
            for player in batch.skills:
                later[player] = batch.backward_prior_out(player)
        earlier: dict[Any, Any] = {}  # each player's message from his previous date
        for index in range(start, len(batches)):
            batch = batches[index]
            if index > start:
                for player, skill in batch.skills.items():
                    if player in earlier:
                        skill.forward = earlier[player].forget(self.gamma, skill.elapsed)
                batch.iteration()
            for player in batch.skills:
                earlier[player] = batch.forward_prior_out(player)

    def _forward_messages(self, start: int) -> None:
        """Each player's message forward out of his latest date, which a new date's prior
        takes (the package's sweeps leave the latest date's unset)."""
        for batch in self.history.batches[start:]:
            self._leave(batch)

    def _leave(self, batch: Any) -> None:
        """Each of ``batch``'s players leaves it with its forward message and its time."""
        for player in batch.skills:
            agent = self.history.agents[player]
            agent.message = batch.forward_prior_out(player)
            agent.last_time = batch.time

    def latest(self) -> tuple[dict[Any, tuple[float, float]], dict[Any, int]]:
        """Each player's posterior (mean, sd) at his latest date, and that date's time."""
        posterior: dict[Any, tuple[float, float]] = {}
        last_time: dict[Any, int] = {}
        for batch in reversed(self.history.batches):
            for player in batch.skills:
                if player not in posterior:
                    found = batch.posterior(player)
                    posterior[player] = (found.mu, found.sigma)
                    last_time[player] = int(batch.time)
        return posterior, last_time
