"""The database's valued opening leads against a random lead (:mod:`dds.lead_baselines`),
read from the dds stage's ``table_evidence``."""

from __future__ import annotations

from typing import Iterable

from sqlalchemy import Connection, select

from bridgerank.cleaning.clean.tables import Board
from bridgerank.dds.lead_baselines import LeadBaselines, contract_lead_baselines
from bridgerank.dds.tables import TableEvidence

__all__ = ["read_lead_baselines"]


def read_lead_baselines(conn: Connection, board_ids: Iterable[int] | None = None) -> LeadBaselines:
    """The baselines of the database's valued leads (the dds stage's ``table_evidence``),
    or of the boards ``board_ids`` among them."""
    query = (
        select(TableEvidence.board_id, TableEvidence.lead_cost, TableEvidence.lead_best_cards)
        .add_columns(Board.contract)
        .join(Board, Board.id == TableEvidence.board_id)
        .where(TableEvidence.lead_cost.is_not(None) & TableEvidence.lead_best_cards.is_not(None))
    )
    wanted = None if board_ids is None else set(board_ids)
    return contract_lead_baselines(
        (cost, best, contract)
        for board_id, cost, best, contract in conn.execute(query)
        if wanted is None or board_id in wanted
    )
