"""What one run of the ``regress`` stage did: :class:`RegressSummary`."""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgerank.core.summary import StageSummary, plural

__all__ = ["RegressSummary"]


@dataclass
class RegressSummary(StageSummary):
    """The players a regress run had, the datasets it regressed and the model it chose.

    Attributes
    ----------
    players_with_rates : int
        Players with mistake rates (``player_rates``).
    players_with_points : int
        Of those, players with a response: WBF points or a headline rating.
    datasets : dict of str to int
        Dataset (response and weighting, ``"pp, unweighted"``) -> players above the
        opportunity thresholds in it; empty when no player had a response.
    chosen : str or None
        The dataset and rule of the chosen model, or None when no model was chosen.
    chosen_adj_r2 : float or None
        The chosen model's adjusted R2.
    notes : list of str
        Why a dataset was not regressed, or why nothing was.
    """

    players_with_rates: int = 0
    players_with_points: int = 0
    datasets: dict[str, int] = field(default_factory=dict)
    chosen: str | None = None
    chosen_adj_r2: float | None = None
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The players, each dataset's size, the chosen model, the notes."""
        found = [
            f"regress: {self.players_with_points:,} players with WBF points or a headline "
            f"rating, of {self.players_with_rates:,} with rates; in {self.seconds:.1f} s"
        ]
        if self.datasets and not any(self.datasets.values()):
            # one line, not a line per dataset and another per note saying the same
            found.append(
                "  no player is above the thresholds in any dataset: nothing to regress "
                "(it needs more boards per player)"
            )
            return found
        for dataset, players in self.datasets.items():
            found.append(f"  {dataset}: {plural(players, 'player')} above the thresholds")
        if self.chosen:
            r2 = self.chosen_adj_r2
            fit = f" (adjusted R2 {r2:.4f})" if r2 is not None else ""
            found.append(f"  chosen model: {self.chosen}{fit}")
        found += [f"  note: {note}" for note in self.notes]
        return found

    def brief(self) -> str:
        """``chosen: <the chosen model>``, else the first note."""
        return f"chosen: {self.chosen}" if self.chosen else "; ".join(self.notes[:1])
