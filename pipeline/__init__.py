"""bridgerank's orchestration: the store, the stage ledger, the runner and the CLI."""

__version__ = "0.1.0"
