"""bridgerank: judge contract-bridge players from their hand records.

One import namespace over the repository's top folders (``pyproject.toml`` maps each
``bridgerank.<package>`` to the folder of that name). The floors, each importing only those
below it (checked by the import-linter contracts in ``pyproject.toml``):

- ``bridgerank.pipeline``: the CLI, the stage registry and runner, status, the report;
- ``bridgerank.regression``, ``bridgerank.ratings``, ``bridgerank.dds`` and
  ``bridgerank.cleaning`` (``ingest``, ``clean``, ``match``): one package per stage, each
  with its tables, its library, and its ``stage`` module;
- ``bridgerank.bridge``: the game itself (seats, cards, deals, calls, contracts, scoring,
  double dummy tables), with no database and no files;
- ``bridgerank.core``: the kernel (errors, settings, store, ledger, the stage type);
- ``bridgerank.config`` and ``bridgerank.data``: the default settings and the embedded
  sample and WBF lists, read as package data.

Importing ``bridgerank`` loads nothing else.
"""

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # The version is read from the installed distribution on first use: looking it up
    # costs more than the rest of `import bridgerank`.
    if name != "__version__":
        raise AttributeError(f"module 'bridgerank' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bridgerank")
    except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        return "0+unknown"
