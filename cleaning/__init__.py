"""Ingest of PBN, LIN and SQL-dump hand records, and the cleaning rules."""
