"""The default settings, ``defaults.toml``, read as package data by
:mod:`bridgerank.core.settings` (which also reads a user's file over them)."""
