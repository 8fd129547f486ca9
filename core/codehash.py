"""Which code a module runs, found from its imports, and one hash of it all.

A stage's result depends on the code of its own module and of every project module that
module imports, directly or through others, at the top or inside a function; and on the
versions of the libraries whose numbers it stores (endplay's DDS, statsmodels, numpy ...).
Listing those modules by hand drifts from the code (an edit to the scoring function used by
``clean`` once left stale ``score_mismatch`` notes), so the list is derived: the source of a
module is parsed, never imported, and its imports are followed within the ``bridgerank``
namespace. Parent packages count too, since importing a module runs their ``__init__``.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import importlib.util
import json
import sys
from functools import lru_cache
from pathlib import Path

__all__ = ["PROJECT", "code_fingerprint", "imported_libraries", "project_closure"]

PROJECT = "bridgerank"

# Libraries that move data about but compute nothing that is stored: their versions would
# only cause reruns that change nothing.
_PLUMBING = frozenset({"sqlalchemy", "click", "tqdm", "joblib", "dask", "distributed",
                       "psycopg", "psycopg2", "typing_extensions"})


def _source_path(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imported_names(module: str, path: Path) -> set[str]:
    """Absolute names imported anywhere in the module's source (``from a import b`` gives
    ``a`` and ``a.b``: the caller keeps those that are modules)."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = importlib.util.resolve_name("." * node.level + base, package)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


@lru_cache(maxsize=None)
def _scan(module: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(project modules, other top-level names) reached from ``module``, itself included."""
    seen: set[str] = set()
    outside: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _source_path(name)
        if path is None:
            continue
        seen.add(name)
        todo.extend(parent for parent in _parents(name) if parent not in seen)
        for imported in _imported_names(name, path):
            top = imported.split(".")[0]
            if top == PROJECT:
                if imported not in seen:
                    todo.append(imported)
            elif top not in sys.stdlib_module_names and top != "__future__":
                outside.add(top)
    return tuple(sorted(seen)), tuple(sorted(outside))


def project_closure(module: str) -> tuple[str, ...]:
    """Every ``bridgerank`` module that ``module`` runs, itself and its packages included.

    Parameters
    ----------
    module : str
        A dotted module name, e.g. ``"bridgerank.cleaning.clean.stage"``.

    Returns
    -------
    tuple of str
        Sorted module names.
    """
    return _scan(module)[0]


def imported_libraries(module: str) -> dict[str, str]:
    """Versions of the installed distributions that ``module``'s closure imports.

    Libraries that only move data (SQLAlchemy, joblib, Dask, ...) are left out; a name that
    belongs to no installed distribution is left out too.
    """
    owners = importlib.metadata.packages_distributions()
    versions: dict[str, str] = {}
    for top in _scan(module)[1]:
        if top in _PLUMBING:
            continue
        for distribution in owners.get(top, ()):
            try:
                versions[distribution] = importlib.metadata.version(distribution)
            except importlib.metadata.PackageNotFoundError:
                continue
    return versions


@lru_cache(maxsize=None)
def code_fingerprint(module: str) -> str:
    """One hash of the source of every module ``module`` runs and of its libraries' versions.

    Notes
    -----
    Sources are read as bytes from the files the import system would load; nothing is
    imported, so computing the fingerprint of every stage is cheap (``bridgerank status``).
    """
    digest = hashlib.sha256()
    for name in project_closure(module):
        path = _source_path(name)
        assert path is not None  # the closure holds only modules with a source file
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps(imported_libraries(module), sort_keys=True).encode())
    return digest.hexdigest()
