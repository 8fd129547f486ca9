"""Which code a module runs, found from its imports, and one hash of it all.

A stage's result depends on the code of its own module and of every project module that
module imports, directly or through others, at the top or inside a function; and on the
versions of the libraries whose numbers it stores (endplay's DDS, statsmodels, numpy ...).
Listing those modules by hand drifts from the code (an edit to the scoring function used by
``clean`` once left stale ``score_mismatch`` notes), so the list is derived: the source of a
module is read, never imported, and its imports are followed within the ``bridgerank``
namespace. Parent packages count too, since importing a module runs their ``__init__``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import re
import sys
from functools import lru_cache
from importlib.machinery import ModuleSpec
from pathlib import Path

__all__ = ["PROJECT", "code_fingerprint", "imported_libraries", "project_closure", "source_digest"]

PROJECT = "bridgerank"

# Libraries that move data about but compute nothing that is stored: their versions would
# only cause reruns that change nothing.
_PLUMBING = frozenset(
    {
        "sqlalchemy",
        "click",
        "tqdm",
        "joblib",
        "dask",
        "distributed",
        "psycopg",
        "psycopg2",
        "typing_extensions",
    }
)


@lru_cache(maxsize=None)
def _spec(module: str) -> ModuleSpec | None:
    """The module's spec, found the way the import system would, without importing anything.

    ``importlib.util.find_spec("a.b.c")`` imports ``a.b`` to learn where ``c`` is; a name
    imported from a module (``from a.b import c`` where ``c`` is a function) would then load
    ``a.b`` and all it imports (statsmodels, say) just to learn that ``c`` is no module.
    """
    parent, _, _ = module.rpartition(".")
    locations = None
    if parent:
        parent_spec = _spec(parent)
        if parent_spec is None or parent_spec.submodule_search_locations is None:
            return None  # the parent is no package: this is a name inside a module
        locations = list(parent_spec.submodule_search_locations)
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        spec: ModuleSpec | None = find_spec(module, locations) if find_spec else None
        if spec is not None:
            return spec
    return None


def _source_path(module: str) -> Path | None:
    spec = _spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


# Import statements, found in the text: faster than parsing a module (``bridgerank status``
# derives every stage's code), and a false hit in a docstring only adds a module.
_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)", re.MULTILINE
)
_PLAIN_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#]+)", re.MULTILINE)


@lru_cache(maxsize=None)
def _imported_names(module: str, path: Path) -> frozenset[str]:
    """Absolute names imported anywhere in the module's source, at the top or in a function
    (``from a import b`` gives ``a`` and ``a.b``: the caller keeps those that are modules)."""
    text = _without_type_checking(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for match in _PLAIN_IMPORT.finditer(text):
        names.update(part.split(" as ")[0].strip() for part in match.group(1).split(","))
    for match in _FROM_IMPORT.finditer(text):
        base = match.group(1)
        if base.startswith("."):
            base = importlib.util.resolve_name(base, package)
        names.add(base)
        for part in match.group(2).strip("()").replace("\\", " ").split(","):
            name = part.split(" as ")[0].strip()
            if name.isidentifier():
                names.add(f"{base}.{name}")
    return frozenset(name for name in names if name)


_TYPE_CHECKING = re.compile(
    r"^([ \t]*)if (?:typing\.)?TYPE_CHECKING:[^\n]*\n((?:\1[ \t]+[^\n]*\n|[ \t]*\n)*)", re.MULTILINE
)


def _without_type_checking(text: str) -> str:
    """The source without its ``if TYPE_CHECKING:`` blocks: imports for type checkers only,
    which never run (a package that names its lazy modules there would otherwise put them all
    in the code of anything that imports it)."""
    return _TYPE_CHECKING.sub("", text)


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
    versions: dict[str, str] = {}
    for top in _scan(module)[1]:
        if top not in _PLUMBING:
            versions.update(_distribution_versions(top))
    return versions


@lru_cache(maxsize=None)
def _distribution_versions(top: str) -> dict[str, str]:
    """The distributions that install the import name ``top``, with their versions."""
    try:  # most distributions are named as they are imported (scanning all is slow)
        distribution = importlib.metadata.distribution(top)
        return {distribution.metadata["Name"]: distribution.version}
    except importlib.metadata.PackageNotFoundError:
        pass
    if importlib.util.find_spec(top) is None:  # not installed here (tomli on Python 3.11)
        return {}
    versions = {}
    for name in importlib.metadata.packages_distributions().get(top, ()):
        try:
            versions[name] = importlib.metadata.version(name)
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


def source_digest(module: str) -> str:
    """A hash of one module's own source, not of what it imports (a stage's driver, whose
    studies are fingerprinted each on its own: :mod:`bridgerank.core.studies`)."""
    path = _source_path(module)
    if path is None:
        raise ValueError(f"{module} has no source file")
    return hashlib.sha256(path.read_bytes()).hexdigest()
