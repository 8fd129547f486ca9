"""The ratings players know, as rivals in the walk-forward (ratings.rivals): each by hand on a
deal, the online driver's one pass against teaching from scratch, and each learning known
strengths of a simulated club."""

from __future__ import annotations

import numpy as np
import pytest

from bridgerank.ratings.field import deal_rows, pair_sessions, places
from bridgerank.ratings.headline.sessions import session_target
from bridgerank.ratings.holdout import walk_forward
from bridgerank.ratings.registry import StudyInputs
from bridgerank.ratings.rivals.glicko2 import GLICKO2, Glicko2Pairs
from bridgerank.ratings.rivals.multiplayer_elo import MultiplayerElo
from bridgerank.ratings.rivals.ngs import NGS, NationalGrades
from bridgerank.ratings.rivals.online import OnlineForecaster, forecast, per_seat, session_rows
from bridgerank.ratings.rivals.openskill_pairs import OPENSKILL, OpenSkillPairs
from bridgerank.ratings.rivals.pair_elo import PAIR_ELO, PairElo
from bridgerank.ratings.rivals.ttt import TTT, ThroughTimePairs, session_games
from tests.ratings.club_tables import club_tables

# One deal at three tables: North-South 0-1 top, 2-3 average, 4-5 bottom.
ONE_DEAL = club_tables(
    [[0, 1, 6, 7], [2, 3, 8, 9], [4, 5, 10, 11]], [1.0, 0.5, 0.0], [0, 0, 0], [0, 0, 0]
)


def test_pair_elo_by_hand():
    rival = PairElo(k=10.0)
    rows = np.arange(3)
    assert rival.north_south_share(ONE_DEAL, rows) == pytest.approx([0.5] * 3)
    rival.learn(ONE_DEAL, rows)
    # beat both other tables: +1 +1 against 0 expected, K times the mean: 10 * 2 * (1 - 0.5)
    assert rival.rating[(0, 1)] == pytest.approx(10.0)
    assert rival.rating[(2, 3)] == pytest.approx(0.0)
    assert rival.rating[(4, 5)] == pytest.approx(-10.0)
    assert rival.rating[(6, 7)] == pytest.approx(-10.0)  # East-West at the top table
    # a partnership is rated, not its players: 0 with 2 is new
    assert rival.rating[(0, 2)] == 0.0
    # the published expectation: F(x) = tanh(x / 2000), half the difference of two tables
    expected = rival.north_south_share(ONE_DEAL, rows)
    f = np.tanh(np.array([20.0, 0.0, -20.0]) / 2000)
    assert expected[0] == pytest.approx(0.5 + (f[0] - (f[1] + f[2]) / 2) / 4)


def test_ngs_session_grades_by_hand():
    rival = NationalGrades(half_life=1000.0)
    rival.learn(ONE_DEAL, np.arange(3))
    # everyone started at 50: session grade = percentage (opponents average, partner equal)
    assert rival.grade(0) == pytest.approx(100.0) and rival.grade(6) == pytest.approx(0.0)
    assert rival.grade(2) == pytest.approx(50.0)
    # a second session: 0 (grade 100) with 2 (grade 50) score 60% against 6-7 (grade 0)
    second = club_tables([[0, 2, 6, 7], [3, 1, 8, 9]], [0.6, 0.4], [1, 1], [1, 1])
    rival.learn(second, np.arange(2))
    keep = 0.5 ** (1 / 1000)
    session = 60 + (0 - 50) + (100 - 50) / 2  # SG = P + (SOpp - 50) + (G_a - G_b) / 2
    assert rival.grade(0) == pytest.approx((100 * keep + session) / (keep + 1))
    session_two = 60 + (0 - 50) + (50 - 100) / 2
    assert rival.grade(2) == pytest.approx((50 * keep + session_two) / (keep + 1))


def test_openskill_shares_average_one_half_and_follow_the_results():
    rival = OpenSkillPairs(beta=25 / 6)
    rows = np.arange(3)
    for _ in range(5):
        rival.learn(ONE_DEAL, rows)
    share = rival.north_south_share(ONE_DEAL, rows)
    # every pair of tables splits a point: the deal's shares average exactly one half
    assert share.mean() == pytest.approx(0.5)
    assert share[0] > share[1] > share[2]


def test_openskill_learns_a_club_as_the_package_does_to_the_last_bit():
    """Each deal's two rankings of pairs learned in date order give, player by player, the
    ratings the package's own ``rate`` gives on the same rankings."""
    _, tables = _club(sessions=4)
    openskill = pytest.importorskip("openskill.models")
    ours = OpenSkillPairs(25 / 6)
    model = openskill.PlackettLuce(beta=25 / 6)
    theirs: dict[int, tuple[float, float]] = {}
    new = (model.rating().mu, model.rating().sigma)

    def rate(teams, ranks):
        ratings = [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
        return [[(r.mu, r.sigma) for r in team] for team in model.rate(ratings, ranks=ranks)]

    for period in range(4):
        rows = np.flatnonzero(tables.period == period)
        ours.learn(tables, rows)
        order = rows[np.argsort(tables.group[rows], kind="stable")]
        for deal in np.unique(tables.group[order]):
            at = order[tables.group[order] == deal]
            for seats, shares in (
                (tables.seats[at, :2], tables.share[at]),
                (tables.seats[at, 2:], 1 - tables.share[at]),
            ):
                pairs = seats.tolist()
                teams = [[theirs.get(p, new) for p in pair] for pair in pairs]
                ranks = [1.0 + float((shares > share).sum()) for share in shares]
                for pair, team in zip(pairs, rate(teams, ranks)):
                    theirs.update(zip(pair, team))
    assert ours.ratings == theirs and len(theirs) > 10


def test_through_time_ranks_a_session_best_first_and_learns_its_order():
    # the middle table's North-South (2-3) outscored the top's East-West (6-7), and so on
    # 100%, 100%, 50%, 50%, 0%, 0%: equal percentages in the order of the pairs' numbers
    games = session_games(ONE_DEAL, np.arange(3))
    assert games == [[[0, 1], [10, 11], [2, 3], [8, 9], [4, 5], [6, 7]]]
    rival = ThroughTimePairs(gamma=0.03)
    rival.learn(ONE_DEAL, np.arange(3))
    share = rival.north_south_share(ONE_DEAL, np.arange(3))
    # what the package learned follows the session's order, best pair highest
    assert rival.posterior[0][0] > rival.posterior[2][0] > rival.posterior[4][0]
    assert rival.posterior[0][0] > rival.posterior[6][0]
    assert share.mean() == pytest.approx(0.5) and share[0] > share[1] > share[2]


def _club(pairs=16, sessions=40, boards=6, seed=5):
    """Fixed partnerships of known strength, seated at random each session; a table's
    result is the strength difference plus luck, matchpointed over the field."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, pairs)
    seats, share, group, period = [], [], [], []
    deal = 0
    for when in range(sessions):
        order = rng.permutation(pairs)
        north_south, east_west = order[: pairs // 2], order[pairs // 2 :]
        for _ in range(boards):
            scores = strength[north_south] - strength[east_west] + rng.normal(0, 2, len(order) // 2)
            ranks = (
                (scores[:, None] > scores[None, :]).sum(1)
                + 0.5 * ((scores[:, None] == scores[None, :]).sum(1) - 1)
            ) / (len(scores) - 1)
            for ns, ew, value in zip(north_south, east_west, ranks):
                seats.append([2 * ns, 2 * ns + 1, 2 * ew, 2 * ew + 1])
                share.append(value)
                group.append(deal)
                period.append(when)
            deal += 1
    return strength, club_tables(seats, share, group, period)


@pytest.mark.parametrize(
    "make",
    [
        lambda: PairElo(10.0),
        lambda: NationalGrades(1000.0),
        lambda: OpenSkillPairs(25 / 6),
        lambda: Glicko2Pairs(0.6),
        lambda: ThroughTimePairs(0.03),
        lambda: MultiplayerElo(8.0, opponents=True),
    ],
    ids=["pair_elo", "ngs", "openskill", "glicko2", "ttt", "elo_opponents"],
)
def test_a_rival_forecasts_every_deal_at_once_as_deal_by_deal(make):
    """One call for the tables of many deals (a walk-forward's test date) gives each table
    the share it has among its own deal's tables."""
    _, tables = _club(sessions=6)
    rival = make()
    for rows in session_rows(tables.subset(tables.period < 5)):
        rival.learn(tables, rows)
    test = tables.subset(tables.period == 5)
    together = rival.north_south_share(test, np.arange(len(test)))
    for rows in deal_rows(test, np.arange(len(test))):
        assert together[rows] == pytest.approx(rival.north_south_share(test, rows), abs=1e-12)


@pytest.mark.parametrize("method", [PAIR_ELO, NGS, OPENSKILL, GLICKO2, TTT], ids=lambda m: m.name)
def test_each_rival_learns_a_simulated_club(method):
    """Held out, each rival's forecasts follow the pairs' true strengths."""
    strength, tables = _club()
    predict = method.make(tables, StudyInputs(None, {}))
    run = walk_forward(tables, {method.name: predict}, session_target)
    sessions = pair_sessions(tables.subset(np.isin(tables.period, np.unique(run.period))))
    truth = strength[sessions.pair[:, 0] // 2]
    assert np.corrcoef(run.predicted(method.name), truth)[0, 1] > 0.5


def test_the_online_driver_teaches_each_date_once_and_forecasts_as_from_scratch():
    _, tables = _club(sessions=12)

    class Counting(PairElo):
        def __init__(self, k):
            super().__init__(k)
            self.taught: list[int] = []

        def learn(self, tables, rows):
            self.taught.append(int(tables.period[rows][0]))
            super().learn(tables, rows)

    predict = OnlineForecaster(Counting, (5.0, 10.0))
    for test in (8, 9, 10):
        train = tables.subset(tables.period < test)
        latest = tables.subset(tables.period == test)
        found = predict(train, latest).value
        fresh = Counting(predict.setting)
        for period in range(test):
            fresh.learn(tables, np.flatnonzero(tables.period == period))
        assert found == pytest.approx(50 + predict.slope * (forecast(fresh, latest) - 50))
    # the kept rival was taught each date once, in order, however many tests it served
    assert predict.rival.taught == list(range(10))
    assert predict.slope != 1.0  # calibrated on the first training set's latest quarter


def test_glicko2_reproduces_the_published_example():
    """Glickman's example (glicko.net, 2012): a player of 1500 (RD 200, volatility 0.06)
    beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300); tau 0.5. The
    published result: 1464.06, RD 151.52, volatility 0.05999."""
    from bridgerank.ratings.rivals.glicko2 import SCALE, _g, rate_period

    mu, phi = 0.0, 200 / SCALE
    opponents = np.array([1400.0, 1550.0, 1700.0])
    deviations = np.array([30.0, 100.0, 300.0]) / SCALE
    outcomes = np.array([1.0, 0.0, 0.0])
    g = _g(deviations)
    expected = 1 / (1 + np.exp(-g * (mu - (opponents - 1500) / SCALE)))
    information = float(np.sum(g**2 * expected * (1 - expected)))
    surplus = float(np.sum(g * (outcomes - expected)))
    new_mu, new_phi, new_sigma = rate_period(mu, phi, 0.06, information, surplus, 0.5)
    assert 1500 + SCALE * new_mu == pytest.approx(1464.06, abs=0.01)
    assert SCALE * new_phi == pytest.approx(151.52, abs=0.01)
    assert new_sigma == pytest.approx(0.05999, abs=1e-5)


def test_a_widened_rival_s_grid_grows_past_the_end_its_choice_fell_at():
    """Pair Elo with K from a grid far too small: the plain driver keeps the grid's top;
    widened, the grid doubles past it (on the same training dates) until the choice is inside
    it, and says what it tried."""
    _, tables = _club(sessions=12)
    train = tables.subset(tables.period < 10)
    plain = OnlineForecaster(PairElo, (0.01, 0.02))
    plain(train, tables.subset(tables.period == 10))
    assert plain.setting == 0.02
    made: list[float] = []

    def counted(k: float) -> PairElo:
        made.append(k)
        return PairElo(k)

    widened = OnlineForecaster(counted, (0.01, 0.02), widen=True)
    widened(train, tables.subset(tables.period == 10))
    assert sorted(widened.settings) == [0.01, 0.02, 0.04, 0.08, 0.16, 0.32]
    # each setting is taught on the early dates once (then the kept rival goes on)
    assert made == [0.01, 0.02, 0.04, 0.08, 0.16, 0.32]
    assert widened.setting == 0.32  # still the top after four steps: at most four are taken
    assert widened.chosen() == "0.32 of 0.01, 0.02, 0.04, 0.08, 0.16, 0.32"
    # once the choice is inside the grid, the grid stops growing
    grown = OnlineForecaster(PairElo, (0.32, 0.64), widen=True)
    grown(train, tables.subset(tables.period == 10))
    assert grown.setting < max(grown.settings) or len(grown.settings) == 6


def test_a_smoothed_history_is_not_carried_on_from_the_choice():
    """TrueSkill Through Time's first forecast is that of a history built on the whole
    training set, not the one its drift was chosen on (the early dates) carried on."""
    _, tables = _club(sessions=12)
    predict = OnlineForecaster(ThroughTimePairs, (0.01, 0.1))
    train, test = tables.subset(tables.period < 10), tables.subset(tables.period == 10)
    found = predict(train, test).value
    fresh = ThroughTimePairs(predict.setting)
    for period in range(10):
        fresh.learn(tables, np.flatnonzero(tables.period == period))
    assert found == pytest.approx(50 + predict.slope * (forecast(fresh, test) - 50))


@pytest.mark.parametrize("rival", [OPENSKILL, TTT], ids=["openskill", "ttt"])
def test_the_package_rivals_are_validated_without_their_packages(monkeypatch, rival):
    """OpenSkill and TrueSkill Through Time compute their packages' models with their own
    code (ratings/rivals/openskill_update.py, ttt_messages.py): with both packages absent
    each is still made and forecasts."""
    import sys

    monkeypatch.setitem(sys.modules, "trueskillthroughtime", None)  # an import now fails
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    _, tables = _club(sessions=6)
    predict = rival.make(tables, StudyInputs())
    assert predict is not None
    train, test = tables.subset(tables.period < 5), tables.subset(tables.period == 5)
    found = predict(train, test).value
    assert len(found) == len(pair_sessions(test).percent) and np.all(np.isfinite(found))


def test_places_count_the_greater_values_of_each_group():
    values = np.array([0.5, 0.75, 0.5, 0.25, 1.0, 0.0, 1.0])
    group = np.array([0, 0, 0, 0, 1, 1, 1])
    assert places(values, group).tolist() == [2, 1, 2, 4, 1, 3, 1]
    rng = np.random.default_rng(5)
    for _ in range(200):
        size = int(rng.integers(0, 25))
        group, values = rng.integers(0, 4, size), rng.integers(0, 5, size) / 4
        expected = [1 + int((values[group == g] > v).sum()) for g, v in zip(group, values)]
        assert places(values, group).tolist() == expected


def test_per_seat_asks_each_player_once_and_fills_every_seat():
    seats = np.array([[3, 1, 2, 0], [1, 3, 0, 2]])
    asked: list[int] = []

    def value(player: int) -> tuple[float, float]:
        asked.append(player)
        return float(player), 10.0 * player

    found = per_seat(value, seats)
    assert sorted(asked) == [0, 1, 2, 3]
    assert found.shape == (2, 4, 2)
    assert found[..., 0].tolist() == seats.tolist()
    assert found[..., 1].tolist() == (10.0 * seats).tolist()


def test_tables_keep_what_is_computed_of_them_and_a_subset_starts_afresh():
    _, tables = _club(pairs=4, sessions=3, boards=2)
    other, calls = tables.subset(tables.period > 0), []

    def compute() -> np.ndarray:
        calls.append(1)
        return np.arange(3.0)

    first = tables.kept_with(other, "k", compute)
    assert tables.kept_with(other, "k", compute) is first and len(calls) == 1
    with pytest.raises(ValueError):
        first[0] = 5.0  # shared by every caller: read-only
    tables.kept_with(tables.subset(tables.period > 1), "k", compute)  # another object
    assert len(calls) == 2
    assert not tables.subset(tables.period >= 0).memo
