"""The baseline: the schema of bridgerank as it stood when migrations began (main 47e544b).

Every later change of a table is a revision after this one. A database made before
migrations existed carries no version: it is checked against the declared tables, repaired
where it differs (see :mod:`bridgerank.pipeline.schema`) and stamped with the head revision.

Revision ID: 0001
Revises: none
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Stages whose tables this revision changes in shape, and so must run again (the driver
# reads it): none, a new database has run nothing.
rerun: tuple[str, ...] = ()


def upgrade() -> None:
    """Create every table of the baseline."""
    op.create_table(
        "chosen_model",
        sa.Column("model", sa.Text(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=False),
        sa.Column("variables", sa.Text(), nullable=False),
        sa.Column("adj_r2", sa.Float(), nullable=False),
        sa.Column("cv_r2", sa.Float(), nullable=True),
        sa.Column("coefficients", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("model"),
    )
    op.create_table(
        "dd_tables",
        sa.Column("deal_hash", sa.String(length=16), nullable=False),
        sa.Column("tricks", sa.String(length=20), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("deal_hash"),
    )
    op.create_table(
        "disc_points",
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("x", sa.Float(), nullable=False),
        sa.Column("y", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game", "label"),
    )
    op.create_table(
        "game_method_scores",
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("seeds", sa.Integer(), nullable=False),
        sa.Column("overall", sa.Float(), nullable=True),
        sa.Column("overall_sd", sa.Float(), nullable=True),
        sa.Column("train", sa.Float(), nullable=True),
        sa.Column("test", sa.Float(), nullable=True),
        sa.Column("test_sd", sa.Float(), nullable=True),
        sa.Column("test_log_loss", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("game", "method"),
    )
    op.create_table(
        "game_structure",
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("entity", sa.String(length=16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("observed", sa.Float(), nullable=False),
        sa.Column("comparisons", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("transitive_share", sa.Float(), nullable=False),
        sa.Column("noise_low", sa.Float(), nullable=True),
        sa.Column("noise_mean", sa.Float(), nullable=True),
        sa.Column("noise_high", sa.Float(), nullable=True),
        sa.Column("lambda_1", sa.Float(), nullable=True),
        sa.Column("lambda_2", sa.Float(), nullable=True),
        sa.Column("lambda_3", sa.Float(), nullable=True),
        sa.Column("transitive_discs", sa.Integer(), nullable=False),
        sa.Column("cyclic_lambda", sa.Float(), nullable=False),
        sa.Column("best_method", sa.String(length=16), nullable=True),
        sa.Column("sentence", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )
    op.create_table(
        "headline_ratings",
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("sd", sa.Float(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player"),
    )
    op.create_table(
        "match_validation",
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("pearson", sa.Float(), nullable=True),
        sa.Column("rmse", sa.Float(), nullable=False),
        sa.Column("winner_right", sa.Float(), nullable=True),
        sa.Column("coverage_80", sa.Float(), nullable=True),
        sa.Column("rmse_gain", sa.Float(), nullable=True),
        sa.Column("rmse_gain_low", sa.Float(), nullable=True),
        sa.Column("rmse_gain_high", sa.Float(), nullable=True),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("method"),
    )
    op.create_table(
        "pending_ingest",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sources", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "player_rates",
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("claims", sa.Float(), nullable=False),
        sa.Column("leads", sa.Float(), nullable=False),
        sa.Column("cards_played_as_declarer", sa.Float(), nullable=False),
        sa.Column("cards_played_as_defender", sa.Float(), nullable=False),
        sa.Column("auctions_analyzed", sa.Float(), nullable=False),
        sa.Column("claim_mistakes_per_claim", sa.Float(), nullable=True),
        sa.Column("weighted_claim_mistakes_per_claim", sa.Float(), nullable=True),
        sa.Column("lead_mistakes_per_lead", sa.Float(), nullable=True),
        sa.Column("weighted_lead_mistakes_per_lead", sa.Float(), nullable=True),
        sa.Column("defender_mistakes_per_card_played_as_defender", sa.Float(), nullable=True),
        sa.Column(
            "weighted_defender_mistakes_per_card_played_as_defender", sa.Float(), nullable=True
        ),
        sa.Column("declarer_mistakes_per_card_played_as_declarer", sa.Float(), nullable=True),
        sa.Column(
            "weighted_declarer_mistakes_per_card_played_as_declarer", sa.Float(), nullable=True
        ),
        sa.Column("defender_missed_current_double_per_auction", sa.Float(), nullable=True),
        sa.Column("weighted_defender_missed_current_double_per_auction", sa.Float(), nullable=True),
        sa.Column("defender_erroneously_doubled_per_auction", sa.Float(), nullable=True),
        sa.Column("weighted_defender_erroneously_doubled_per_auction", sa.Float(), nullable=True),
        sa.Column("defender_missed_higher_contract_per_auction", sa.Float(), nullable=True),
        sa.Column(
            "weighted_defender_missed_higher_contract_per_auction", sa.Float(), nullable=True
        ),
        sa.Column("declarer_missed_higher_contract_per_auction", sa.Float(), nullable=True),
        sa.Column(
            "weighted_declarer_missed_higher_contract_per_auction", sa.Float(), nullable=True
        ),
        sa.Column(
            "declarer_missed_doubling_opponents_last_bid_per_auction", sa.Float(), nullable=True
        ),
        sa.Column(
            "weighted_declarer_missed_doubling_opponents_last_bid_per_auction",
            sa.Float(),
            nullable=True,
        ),
        sa.Column("declarer_missed_opponents_last_redouble_per_auction", sa.Float(), nullable=True),
        sa.Column(
            "weighted_declarer_missed_opponents_last_redouble_per_auction",
            sa.Float(),
            nullable=True,
        ),
        sa.Column(
            "declarer_missed_redoubling_opponents_erroneous_double_per_auction",
            sa.Float(),
            nullable=True,
        ),
        sa.Column(
            "weighted_declarer_missed_redoubling_opponents_erroneous_double_per_auction",
            sa.Float(),
            nullable=True,
        ),
        sa.Column("declarer_missed_opponents_last_bid_per_auction", sa.Float(), nullable=True),
        sa.Column(
            "weighted_declarer_missed_opponents_last_bid_per_auction", sa.Float(), nullable=True
        ),
        sa.Column("declarer_erroneous_redouble_per_auction", sa.Float(), nullable=True),
        sa.Column("weighted_declarer_erroneous_redouble_per_auction", sa.Float(), nullable=True),
        sa.Column("passed_higher_contract_per_auction", sa.Float(), nullable=True),
        sa.Column("weighted_passed_higher_contract_per_auction", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("player"),
    )
    op.create_table(
        "player_stats",
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("claims", sa.Float(), nullable=False),
        sa.Column("claim_mistakes", sa.Float(), nullable=False),
        sa.Column("weighted_claim_mistakes", sa.Float(), nullable=False),
        sa.Column("leads", sa.Float(), nullable=False),
        sa.Column("lead_mistakes", sa.Float(), nullable=False),
        sa.Column("weighted_lead_mistakes", sa.Float(), nullable=False),
        sa.Column("cards_played_as_declarer", sa.Float(), nullable=False),
        sa.Column("play_mistakes_as_declarer", sa.Float(), nullable=False),
        sa.Column("weighted_play_mistakes_as_declarer", sa.Float(), nullable=False),
        sa.Column("cards_played_as_defender", sa.Float(), nullable=False),
        sa.Column("play_mistakes_as_defender", sa.Float(), nullable=False),
        sa.Column("weighted_play_mistakes_as_defender", sa.Float(), nullable=False),
        sa.Column("auctions_analyzed", sa.Float(), nullable=False),
        sa.Column("defender_missed_current_double", sa.Float(), nullable=False),
        sa.Column("weighted_defender_missed_current_double", sa.Float(), nullable=False),
        sa.Column("defender_erroneously_doubled", sa.Float(), nullable=False),
        sa.Column("weighted_defender_erroneously_doubled", sa.Float(), nullable=False),
        sa.Column("defender_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("weighted_defender_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("declarer_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("declarer_missed_doubling_opponents_last_bid", sa.Float(), nullable=False),
        sa.Column(
            "weighted_declarer_missed_doubling_opponents_last_bid", sa.Float(), nullable=False
        ),
        sa.Column("declarer_missed_opponents_last_redouble", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_missed_opponents_last_redouble", sa.Float(), nullable=False),
        sa.Column(
            "declarer_missed_redoubling_opponents_erroneous_double", sa.Float(), nullable=False
        ),
        sa.Column(
            "weighted_declarer_missed_redoubling_opponents_erroneous_double",
            sa.Float(),
            nullable=False,
        ),
        sa.Column("declarer_missed_opponents_last_bid", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_missed_opponents_last_bid", sa.Float(), nullable=False),
        sa.Column("declarer_erroneous_redouble", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_erroneous_redouble", sa.Float(), nullable=False),
        sa.Column("passed_higher_contract", sa.Float(), nullable=False),
        sa.Column("weighted_passed_higher_contract", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("player"),
    )
    op.create_table(
        "predictions",
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("session", sa.Text(), nullable=False),
        sa.Column("player_a", sa.Text(), nullable=False),
        sa.Column("player_b", sa.Text(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("predicted", sa.Float(), nullable=False),
        sa.Column("sd", sa.Float(), nullable=False),
        sa.Column("low_80", sa.Float(), nullable=False),
        sa.Column("high_80", sa.Float(), nullable=False),
        sa.Column("made_at", sa.String(length=32), nullable=False),
        sa.Column("ratings_of", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("event", "session", "player_a", "player_b"),
    )
    op.create_table(
        "rankings",
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("predicted", sa.Float(), nullable=False),
        sa.Column("actual", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("rank"),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "rating_validation",
        sa.Column("task", sa.Text(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("log_loss", sa.Float(), nullable=True),
        sa.Column("accuracy", sa.Float(), nullable=True),
        sa.Column("test_games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("task", "method"),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("low", sa.Float(), nullable=True),
        sa.Column("high", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("player", "method"),
    )
    op.create_table(
        "regression_bootstrap",
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("variable", sa.Text(), nullable=False),
        sa.Column("frequency", sa.Float(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=True),
        sa.Column("weighting", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "regression_coefficients",
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("variable", sa.Text(), nullable=False),
        sa.Column("coefficient", sa.Float(), nullable=False),
        sa.Column("p_value", sa.Float(), nullable=True),
        sa.Column("hc3_p_value", sa.Float(), nullable=True),
        sa.Column("log_coefficient", sa.Float(), nullable=True),
        sa.Column("log_p_value", sa.Float(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=True),
        sa.Column("weighting", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "regression_diagnostics",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("statistic", sa.Float(), nullable=True),
        sa.Column("p_value", sa.Float(), nullable=True),
        sa.Column("verdict", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "regression_models",
        sa.Column("method", sa.String(length=16), nullable=True),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("variables", sa.Text(), nullable=True),
        sa.Column("r2", sa.Float(), nullable=True),
        sa.Column("adj_r2", sa.Float(), nullable=True),
        sa.Column("model_p_value", sa.Float(), nullable=True),
        sa.Column("cv_r2", sa.Float(), nullable=True),
        sa.Column("respects_domain", sa.Boolean(), nullable=True),
        sa.Column("positive_coefficients", sa.Text(), nullable=True),
        sa.Column("chosen", sa.Boolean(), nullable=True),
        sa.Column("log_adj_r2", sa.Float(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=True),
        sa.Column("weighting", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "regression_plots",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("png_base64", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "regression_steps",
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=8), nullable=False),
        sa.Column("variable", sa.Text(), nullable=False),
        sa.Column("f_value", sa.Float(), nullable=True),
        sa.Column("p_value", sa.Float(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=True),
        sa.Column("weighting", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "regression_sweep",
        sa.Column("factor", sa.Float(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("best_adj_r2", sa.Float(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=True),
        sa.Column("weighting", sa.String(length=16), nullable=True),
        sa.Column("claims", sa.Float(), nullable=True),
        sa.Column("leads", sa.Float(), nullable=True),
        sa.Column("cards_played_as_declarer", sa.Float(), nullable=True),
        sa.Column("cards_played_as_defender", sa.Float(), nullable=True),
        sa.Column("auctions_analyzed", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "regression_vif",
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("variable", sa.Text(), nullable=False),
        sa.Column("vif", sa.Float(), nullable=True),
        sa.Column("dropped", sa.Boolean(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("response", sa.String(length=16), nullable=True),
        sa.Column("weighting", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "session_predictions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("period", sa.Integer(), nullable=False),
        sa.Column("session", sa.Integer(), nullable=False),
        sa.Column("predicted", sa.Float(), nullable=False),
        sa.Column("actual", sa.Float(), nullable=False),
        sa.Column("sd", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "session_validation",
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("pearson", sa.Float(), nullable=True),
        sa.Column("spearman", sa.Float(), nullable=True),
        sa.Column("rmse", sa.Float(), nullable=False),
        sa.Column("within_session_spearman", sa.Float(), nullable=True),
        sa.Column("orders_right", sa.Float(), nullable=True),
        sa.Column("coverage_50", sa.Float(), nullable=True),
        sa.Column("coverage_80", sa.Float(), nullable=True),
        sa.Column("coverage_95", sa.Float(), nullable=True),
        sa.Column("pearson_gain", sa.Float(), nullable=True),
        sa.Column("pearson_gain_low", sa.Float(), nullable=True),
        sa.Column("pearson_gain_high", sa.Float(), nullable=True),
        sa.Column("rmse_gain", sa.Float(), nullable=True),
        sa.Column("rmse_gain_low", sa.Float(), nullable=True),
        sa.Column("rmse_gain_high", sa.Float(), nullable=True),
        sa.Column("pair_sessions", sa.Integer(), nullable=False),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.Column("periods", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("method"),
    )
    op.create_table(
        "skipped_files",
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("path"),
    )
    op.create_table(
        "source_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=8), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("encoding", sa.String(length=16), nullable=True),
        sa.Column("records", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("ingested_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("sha256"),
    )
    op.create_table(
        "stage_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_stage_runs_stage"), "stage_runs", ["stage"], unique=False)
    op.create_table(
        "table_versions",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "token_counts",
        sa.Column("kind", sa.String(length=4), nullable=False),
        sa.Column("token", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "token"),
    )
    op.create_table(
        "validation_ceiling",
        sa.Column("measure", sa.String(length=24), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("measure"),
    )
    op.create_table(
        "wbf_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("country", sa.Text(), nullable=False),
        sa.Column("mp", sa.Float(), nullable=True),
        sa.Column("pp", sa.Float(), nullable=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("wbf_id", sa.Integer(), nullable=True),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["wbf_id"],
            ["wbf_players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("wbf_id"),
    )
    op.create_table(
        "raw_boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("record_no", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("play_layout", sa.String(length=8), nullable=False),
        sa.Column("parse_error", sa.Text(), nullable=True),
        sa.Column("extra", sa.Text(), nullable=True),
        sa.Column("event", sa.Text(), nullable=True),
        sa.Column("site", sa.Text(), nullable=True),
        sa.Column("date", sa.Text(), nullable=True),
        sa.Column("board", sa.Text(), nullable=True),
        sa.Column("stage", sa.Text(), nullable=True),
        sa.Column("dealer", sa.Text(), nullable=True),
        sa.Column("deal", sa.Text(), nullable=True),
        sa.Column("vulnerable", sa.Text(), nullable=True),
        sa.Column("bidstart", sa.Text(), nullable=True),
        sa.Column("auction", sa.Text(), nullable=True),
        sa.Column("contract", sa.Text(), nullable=True),
        sa.Column("lead", sa.Text(), nullable=True),
        sa.Column("play", sa.Text(), nullable=True),
        sa.Column("declarer", sa.Text(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("westname", sa.Text(), nullable=True),
        sa.Column("eastname", sa.Text(), nullable=True),
        sa.Column("northname", sa.Text(), nullable=True),
        sa.Column("southname", sa.Text(), nullable=True),
        sa.Column("scoring", sa.Text(), nullable=True),
        sa.Column("home_team", sa.Text(), nullable=True),
        sa.Column("visit_team", sa.Text(), nullable=True),
        sa.Column("room", sa.Text(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("score", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["source_files.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("source_id", "record_no"),
    )
    op.create_index(op.f("ix_raw_boards_source_id"), "raw_boards", ["source_id"], unique=False)
    op.create_table(
        "boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("board_key", sa.String(length=16), nullable=False),
        sa.Column("deal_hash", sa.String(length=16), nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("site", sa.Text(), nullable=False),
        sa.Column("date", sa.Text(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=True),
        sa.Column("board_no", sa.Integer(), nullable=True),
        sa.Column("room", sa.Text(), nullable=False),
        sa.Column("home_team", sa.Text(), nullable=False),
        sa.Column("visit_team", sa.Text(), nullable=False),
        sa.Column("scoring", sa.Text(), nullable=False),
        sa.Column("north", sa.Text(), nullable=False),
        sa.Column("east", sa.Text(), nullable=False),
        sa.Column("south", sa.Text(), nullable=False),
        sa.Column("west", sa.Text(), nullable=False),
        sa.Column("deal", sa.Text(), nullable=False),
        sa.Column("ns_vulnerable", sa.Boolean(), nullable=True),
        sa.Column("ew_vulnerable", sa.Boolean(), nullable=True),
        sa.Column("bidstart", sa.String(length=1), nullable=False),
        sa.Column("auction", sa.Text(), nullable=False),
        sa.Column("contract", sa.String(length=4), nullable=False),
        sa.Column("declarer", sa.String(length=1), nullable=False),
        sa.Column("lead", sa.String(length=1), nullable=False),
        sa.Column("play", sa.Text(), nullable=False),
        sa.Column("play_order", sa.Text(), nullable=False),
        sa.Column("claim", sa.Integer(), nullable=True),
        sa.Column("result", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["id"],
            ["raw_boards.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("board_key"),
    )
    op.create_index(op.f("ix_boards_deal_hash"), "boards", ["deal_hash"], unique=False)
    op.create_table(
        "exclusions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("raw_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["raw_id"],
            ["raw_boards.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_exclusions_level_reason", "exclusions", ["level", "reason"], unique=False)
    op.create_index(op.f("ix_exclusions_raw_id"), "exclusions", ["raw_id"], unique=False)
    op.create_index(op.f("ix_exclusions_reason"), "exclusions", ["reason"], unique=False)
    op.create_table(
        "name_matches",
        sa.Column("raw_name", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("wbf_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("score", sa.Text(), nullable=True),
        sa.Column("runner_up", sa.Text(), nullable=True),
        sa.Column("runner_up_score", sa.Text(), nullable=True),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.ForeignKeyConstraint(
            ["wbf_id"],
            ["wbf_players.id"],
        ),
        sa.PrimaryKeyConstraint("raw_name"),
    )
    op.create_index(op.f("ix_name_matches_player_id"), "name_matches", ["player_id"], unique=False)
    op.create_index(op.f("ix_name_matches_reason"), "name_matches", ["reason"], unique=False)
    op.create_table(
        "auction_analysis",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=2), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("actual_score", sa.Integer(), nullable=False),
        sa.Column("alternatives", sa.Text(), nullable=False),
        sa.Column("mistake_types", sa.Text(), nullable=False),
        sa.Column("mistake", sa.Integer(), nullable=False),
        sa.Column("weight", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id", "side"),
    )
    op.create_table(
        "board_analysis",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("has_play", sa.Boolean(), nullable=False),
        sa.Column("has_auction", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id"),
    )
    op.create_table(
        "call_analysis",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("call_index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=1), nullable=False),
        sa.Column("call", sa.String(length=2), nullable=False),
        sa.Column("ns_dd_score", sa.Integer(), nullable=False),
        sa.Column("mistake_types", sa.Text(), nullable=False),
        sa.Column("alternative", sa.String(length=2), nullable=True),
        sa.Column("alternative_declarer", sa.String(length=1), nullable=True),
        sa.Column("alternative_score", sa.Integer(), nullable=True),
        sa.Column("actual_score", sa.Integer(), nullable=True),
        sa.Column("cost", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id", "call_index"),
    )
    op.create_table(
        "card_analysis",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("card_index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=1), nullable=False),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.Column("card", sa.String(length=2), nullable=False),
        sa.Column("dd_before", sa.Integer(), nullable=False),
        sa.Column("dd_after", sa.Integer(), nullable=False),
        sa.Column("cost_tricks", sa.Integer(), nullable=False),
        sa.Column("cost_points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id", "card_index"),
    )
    op.create_table(
        "seat_stats",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=1), nullable=False),
        sa.Column("claims", sa.Float(), nullable=False),
        sa.Column("claim_mistakes", sa.Float(), nullable=False),
        sa.Column("weighted_claim_mistakes", sa.Float(), nullable=False),
        sa.Column("leads", sa.Float(), nullable=False),
        sa.Column("lead_mistakes", sa.Float(), nullable=False),
        sa.Column("weighted_lead_mistakes", sa.Float(), nullable=False),
        sa.Column("cards_played_as_declarer", sa.Float(), nullable=False),
        sa.Column("play_mistakes_as_declarer", sa.Float(), nullable=False),
        sa.Column("weighted_play_mistakes_as_declarer", sa.Float(), nullable=False),
        sa.Column("cards_played_as_defender", sa.Float(), nullable=False),
        sa.Column("play_mistakes_as_defender", sa.Float(), nullable=False),
        sa.Column("weighted_play_mistakes_as_defender", sa.Float(), nullable=False),
        sa.Column("auctions_analyzed", sa.Float(), nullable=False),
        sa.Column("defender_missed_current_double", sa.Float(), nullable=False),
        sa.Column("weighted_defender_missed_current_double", sa.Float(), nullable=False),
        sa.Column("defender_erroneously_doubled", sa.Float(), nullable=False),
        sa.Column("weighted_defender_erroneously_doubled", sa.Float(), nullable=False),
        sa.Column("defender_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("weighted_defender_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("declarer_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_missed_higher_contract", sa.Float(), nullable=False),
        sa.Column("declarer_missed_doubling_opponents_last_bid", sa.Float(), nullable=False),
        sa.Column(
            "weighted_declarer_missed_doubling_opponents_last_bid", sa.Float(), nullable=False
        ),
        sa.Column("declarer_missed_opponents_last_redouble", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_missed_opponents_last_redouble", sa.Float(), nullable=False),
        sa.Column(
            "declarer_missed_redoubling_opponents_erroneous_double", sa.Float(), nullable=False
        ),
        sa.Column(
            "weighted_declarer_missed_redoubling_opponents_erroneous_double",
            sa.Float(),
            nullable=False,
        ),
        sa.Column("declarer_missed_opponents_last_bid", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_missed_opponents_last_bid", sa.Float(), nullable=False),
        sa.Column("declarer_erroneous_redouble", sa.Float(), nullable=False),
        sa.Column("weighted_declarer_erroneous_redouble", sa.Float(), nullable=False),
        sa.Column("passed_higher_contract", sa.Float(), nullable=False),
        sa.Column("weighted_passed_higher_contract", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id", "seat"),
    )
    op.create_table(
        "table_evidence",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("declarer", sa.String(length=1), nullable=False),
        sa.Column("dd_tricks", sa.Integer(), nullable=True),
        sa.Column("tricks_vs_dd", sa.Integer(), nullable=True),
        sa.Column("play_imps", sa.Integer(), nullable=True),
        sa.Column("ns_dd_score", sa.Integer(), nullable=False),
        sa.Column("ns_par", sa.Integer(), nullable=True),
        sa.Column("bidding_imps", sa.Integer(), nullable=True),
        sa.Column("lead_cost", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id"),
    )


def downgrade() -> None:
    """Drop every table of the baseline."""
    op.drop_index(op.f("ix_name_matches_reason"), table_name="name_matches")
    op.drop_index(op.f("ix_name_matches_player_id"), table_name="name_matches")
    op.drop_index(op.f("ix_exclusions_reason"), table_name="exclusions")
    op.drop_index(op.f("ix_exclusions_raw_id"), table_name="exclusions")
    op.drop_index(op.f("ix_boards_deal_hash"), table_name="boards")
    op.drop_index(op.f("ix_raw_boards_source_id"), table_name="raw_boards")
    op.drop_index(op.f("ix_stage_runs_stage"), table_name="stage_runs")
    op.drop_table("table_evidence")
    op.drop_table("seat_stats")
    op.drop_table("card_analysis")
    op.drop_table("call_analysis")
    op.drop_table("board_analysis")
    op.drop_table("auction_analysis")
    op.drop_table("name_matches")
    op.drop_table("exclusions")
    op.drop_table("boards")
    op.drop_table("raw_boards")
    op.drop_table("players")
    op.drop_table("wbf_players")
    op.drop_table("validation_ceiling")
    op.drop_table("token_counts")
    op.drop_table("table_versions")
    op.drop_table("stage_runs")
    op.drop_table("source_files")
    op.drop_table("skipped_files")
    op.drop_table("session_validation")
    op.drop_table("session_predictions")
    op.drop_table("regression_vif")
    op.drop_table("regression_sweep")
    op.drop_table("regression_steps")
    op.drop_table("regression_plots")
    op.drop_table("regression_models")
    op.drop_table("regression_diagnostics")
    op.drop_table("regression_coefficients")
    op.drop_table("regression_bootstrap")
    op.drop_table("ratings")
    op.drop_table("rating_validation")
    op.drop_table("rating_history")
    op.drop_table("rankings")
    op.drop_table("predictions")
    op.drop_table("player_stats")
    op.drop_table("player_rates")
    op.drop_table("pending_ingest")
    op.drop_table("match_validation")
    op.drop_table("headline_ratings")
    op.drop_table("game_structure")
    op.drop_table("game_method_scores")
    op.drop_table("disc_points")
    op.drop_table("dd_tables")
    op.drop_table("chosen_model")
