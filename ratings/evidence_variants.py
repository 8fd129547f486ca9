"""The team headline on a variant of what the records say of its players
(:data:`~bridgerank.ratings.team_evidence.EVIDENCE_VARIANTS`: without the double dummy
measures, with the card-level rates, with the fields' shares), as registry methods of the
team matches and of the one-table pairs alike."""

from __future__ import annotations

from typing import Any, Callable

from bridgerank.ratings.registry import Method, StudyInputs
from bridgerank.ratings.team_evidence import EVIDENCE_VARIANTS, TeamEvidence

__all__ = ["evidence_variants"]


def evidence_variants(
    forecast: Callable[[TeamEvidence, StudyInputs], Any | None],
) -> dict[str, Method]:
    """The registry methods of :data:`EVIDENCE_VARIANTS`, by name: ``forecast(evidence,
    inputs)`` (a walk-forward method, None: not validated) made on each variant of the
    study's evidence; not validated where the variant does not apply (no cards counted, no
    fields)."""

    def variant(name: str, transform: Callable[[TeamEvidence], TeamEvidence | None]) -> Method:
        def make(data: Any, inputs: StudyInputs) -> Any | None:
            evidence = inputs.team_evidence
            changed = None if evidence is None else transform(evidence)
            return None if changed is None else forecast(changed, inputs)

        return Method(name, EVIDENCE_VARIANTS[name][0], make)

    return {name: variant(name, transform) for name, (_, transform) in EVIDENCE_VARIANTS.items()}
