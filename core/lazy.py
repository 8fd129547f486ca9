"""Public faces that import their modules on first use.

A library package lists its public names and the submodule that defines each; importing the
package costs nothing, and ``package.name`` imports that one submodule when first asked for
(PEP 562). So ``bridgerank --help`` does not pay for numpy, SciPy or statsmodels, while a
notebook's ``from bridgerank.ratings import fit`` works as usual.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable

__all__ = ["lazy_face"]


def lazy_face(
    package: str, exports: dict[str, str]
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for a package's ``__init__``.

    Parameters
    ----------
    package : str
        The package's name (its ``__name__``).
    exports : dict
        Public name -> the submodule (relative to ``package``) that defines it.

    Examples
    --------
    >>> __all__, __getattr__, __dir__ = lazy_face(__name__, {"fit": "bt"})  # doctest: +SKIP
    """

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
        setattr(sys.modules[package], name, value)  # later lookups are plain attributes
        return value

    def __dir__() -> list[str]:
        return sorted(set(exports) | set(vars(sys.modules[package])))

    return sorted(exports), __getattr__, __dir__
