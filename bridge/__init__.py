"""The game of bridge: seats, cards, deals, calls, contracts, scoring, double dummy tables.

Pure functions and small types: no database, no files, no stage.
"""
