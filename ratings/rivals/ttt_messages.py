"""TrueSkill Through Time's Gaussian messages and game updates, on plain floats.

The ``trueskillthroughtime`` package holds each message as a ``Gaussian`` object and each
game as objects of teams and differences; a smoothed history of a few thousand sessions makes
tens of millions of them, and that was most of the rival's time. Here a Gaussian is a
``(mean, sd)`` tuple and a game's update is one function, taking every step the package takes
in the same order and the same floating-point operations (a product through the natural
parameters and back, the error function's approximation the package uses), so that what it
computes is the package's to the last bit: the tests check it against the package.

Only what the rival uses is here: games without draws or weights, teams best first.
"""

from __future__ import annotations

import math

__all__ = [
    "Gaussian",
    "IMPROPER",
    "forget",
    "game_likelihoods",
    "product",
    "quotient",
]

Gaussian = tuple[float, float]  # (mean, standard deviation)
INF = math.inf
IMPROPER: Gaussian = (0.0, INF)  # the message that says nothing
SQRT2 = math.sqrt(2)
DENSITY_AT_ZERO = (math.sqrt(2 * math.pi) * 1) ** -1  # the standard normal's normaliser
CONVERGED = 1e-6  # a game's largest message change that ends its iterations
MOST_ITERATIONS = 10


def _natural(mean: float, sd: float) -> tuple[float, float]:
    """(precision times mean, precision); a point mass (sd 0) has both infinite."""
    if sd > 0.0:
        precision = sd**-2
        return mean * precision, precision
    return INF, INF


def _moments(tau: float, precision: float) -> Gaussian:
    """(mean, sd) from natural parameters; no precision is the improper message."""
    if precision > 0.0:
        return tau / precision, math.sqrt(1 / precision)
    if precision + 1e-5 < 0.0:
        raise ValueError("a message of negative precision")
    return IMPROPER


def product(a: Gaussian, b: Gaussian) -> Gaussian:
    """The product of two Gaussian messages."""
    if a[1] == 0.0 or b[1] == 0.0:  # a point mass stays one, at its own place
        if a[1] == 0.0:
            return a[0] / ((a[1] ** 2 / b[1] ** 2) + 1), 0.0
        return b[0] / ((b[1] ** 2 / a[1] ** 2) + 1), 0.0
    tau_a, precision_a = _natural(*a)
    tau_b, precision_b = _natural(*b)
    return _moments(tau_a + tau_b, precision_a + precision_b)


def quotient(a: Gaussian, b: Gaussian) -> Gaussian:
    """The message ``a`` with ``b`` taken out."""
    tau_a, precision_a = _natural(*a)
    tau_b, precision_b = _natural(*b)
    return _moments(tau_a - tau_b, precision_a - precision_b)


def forget(message: Gaussian, gamma: float, steps: float) -> Gaussian:
    """``message`` widened by the drift of ``steps`` time steps."""
    return message[0], math.sqrt(message[1] ** 2 + steps * gamma**2)


def _plus(a: Gaussian, b: Gaussian) -> Gaussian:
    return a[0] + b[0], math.sqrt(a[1] ** 2 + b[1] ** 2)


def _minus(a: Gaussian, b: Gaussian) -> Gaussian:
    return a[0] - b[0], math.sqrt(a[1] ** 2 + b[1] ** 2)


def _erfc(x: float) -> float:
    """The complementary error function as the package approximates it (a Chebyshev fit,
    Numerical Recipes' ``erfcc``): the same value, not the exact one, keeps its results."""
    z = abs(x)
    t = 1.0 / (1.0 + z / 2.0)
    a = -0.82215223 + t * 0.17087277
    b = 1.48851587 + t * a
    c = -1.13520398 + t * b
    d = 0.27886807 + t * c
    e = -0.18628806 + t * d
    f = 0.09678418 + t * e
    g = 0.37409196 + t * f
    h = 1.00002368 + t * g
    r = t * math.exp(-z * z - 1.26551223 + t * h)
    return r if not (x < 0) else 2.0 - r


def _truncated(mean: float, sd: float) -> Gaussian:
    """The Gaussian closest to N(mean, sd) cut to positive values (a win, no draws)."""
    alpha = (0.0 - mean) / sd
    density = DENSITY_AT_ZERO * math.exp(-(alpha**2) / 2)
    v = density / (0.5 * _erfc(alpha / SQRT2))
    w = v * (v - alpha)
    return mean + sd * v, sd * math.sqrt(1 - w)


def _roundtrip(a: Gaussian) -> Gaussian:
    """``a`` times the improper message (the package's empty draw message): through the
    natural parameters and back, which may move the last bit."""
    return product(a, IMPROPER)


# The two steps below run millions of times in a history's sweeps: each is written out in
# the operations of the functions it stands for (the tests check them bit for bit).


def _difference_message(above: Gaussian, below: Gaussian) -> Gaussian:
    """``quotient(_truncated(d), d)`` of the difference ``d = above - below``: what the order
    of two neighbouring teams says of their performances' difference."""
    mean, sd = above[0] - below[0], math.sqrt(above[1] ** 2 + below[1] ** 2)
    cut_mean, cut_sd = _truncated(mean, sd)
    if not cut_sd > 0.0:
        return quotient((cut_mean, cut_sd), (mean, sd))
    cut_precision, precision = cut_sd**-2, sd**-2
    left = cut_precision - precision
    if left > 0.0:
        return (cut_mean * cut_precision - mean * precision) / left, math.sqrt(1 / left)
    return _moments(cut_mean * cut_precision - mean * precision, left)


def _with_message(performance: Gaussian, message: Gaussian) -> Gaussian:
    """``_roundtrip(product(performance, message))``: a team's performance (its sd above 0)
    with a message from a neighbour (its sd above 0, perhaps infinite)."""
    if not message[1] > 0.0:
        return _roundtrip(product(performance, message))
    own, other = performance[1] ** -2, message[1] ** -2
    precision = own + other
    mean = (performance[0] * own + message[0] * other) / precision
    back = math.sqrt(1 / precision) ** -2
    return (mean * back + 0.0) / (back + 0.0), math.sqrt(1 / (back + 0.0))


def _chain(performance: list[Gaussian]) -> list[Gaussian]:
    """Each team's message from the game of three teams or more, best first: expectation
    propagation along the differences of neighbouring teams, swept down and up until no
    message moves more than ``CONVERGED`` (at most ``MOST_ITERATIONS`` times)."""
    n = len(performance)
    win = [IMPROPER] * n  # each team's message from the team below it
    lose = [IMPROPER] * n  # ... and from the team above it
    difference = [IMPROPER] * (n - 1)  # each difference's message from its truncation
    # a team's performance with all but its message from below / above
    above = [_roundtrip(_roundtrip(p)) for p in performance]
    below = list(above)
    moved, iterations = INF, 0
    while moved > CONVERGED and iterations < MOST_ITERATIONS:
        moved = 0.0
        for e in range(n - 2):
            difference[e] = message = _difference_message(above[e], below[e + 1])
            new = _minus(above[e], message)
            moved = max(moved, abs(lose[e + 1][0] - new[0]), abs(lose[e + 1][1] - new[1]))
            lose[e + 1] = new
            above[e + 1] = _with_message(performance[e + 1], new)
        for e in range(n - 2, 0, -1):
            difference[e] = message = _difference_message(above[e], below[e + 1])
            new = _plus(below[e + 1], message)
            moved = max(moved, abs(win[e][0] - new[0]), abs(win[e][1] - new[1]))
            win[e] = new
            below[e] = _with_message(performance[e], new)
        iterations += 1
    win[0] = _plus(below[1], difference[0])
    lose[n - 1] = _minus(above[n - 2], difference[n - 2])
    return [_roundtrip(product(win[e], lose[e])) for e in range(n)]


def _pair_of_teams(performance: list[Gaussian], priors: list[list[Gaussian]]) -> list[list]:
    """Each player's message from a game of two teams, the winner first, in closed form."""
    prior = _minus(performance[0], performance[1])
    mean, sd = _truncated(*prior)
    if prior[1] == sd:
        shift, spread = prior[1] ** 2 * mean - sd**2 * prior[0], INF
    else:
        shift = (prior[1] ** 2 * mean - sd**2 * prior[0]) / (prior[1] ** 2 - sd**2)
        spread = (sd**2 * prior[1] ** 2) / (prior[1] ** 2 - sd**2)
    return [
        [
            (
                0.0 if prior[1] == sd else m + (shift - prior[0]) * sign,
                math.sqrt(spread + prior[1] ** 2 - s**2),
            )
            for m, s in team
        ]
        for team, sign in zip(priors, (1, -1))
    ]


def game_likelihoods(priors: list[list[Gaussian]], beta: float) -> list[list[Gaussian]]:
    """Each player's message from one game (no draws), given the players' priors.

    Parameters
    ----------
    priors : list of list of (float, float)
        Each team's players' skills (mean, sd), the teams in their order, best first.
    beta : float
        The performance noise of each player.

    Returns
    -------
    list of list of (float, float)
        The game's message to each player's skill, ordered as ``priors``.
    """
    performance = []
    for team in priors:
        total = (0.0, 0.0)
        for mean, sd in team:
            total = _plus(total, (mean, math.sqrt(sd**2 + beta**2)))
        performance.append(total)
    if len(priors) == 2:
        return _pair_of_teams(performance, priors)
    team_messages = _chain(performance)
    return [
        [_minus(message, (total[0] - m, math.sqrt(total[1] ** 2 - s**2))) for m, s in team]
        for message, total, team in zip(team_messages, performance, priors)
    ]
