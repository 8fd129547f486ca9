"""The stages that bring records in: ``ingest`` (files -> raw records), ``clean`` (raw
records -> boards and exclusions) and ``match`` (player names -> the WBF lists)."""
