"""Small modules with one concept each (house style): no module of the package is over 600
lines. A module that grows past it is split by concept, as issue 49 split eleven."""

import tomllib

from tests.paths import TESTS

ROOT = TESTS.parent
LIMIT = 600


def test_no_module_of_the_package_is_over_600_lines():
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"
    ]
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for folder in set(folders.values())
        for path in (ROOT / folder).rglob("*.py")
    }
    assert len(sizes) > 200  # every folder of the package was read
    assert {path: lines for path, lines in sizes.items() if lines > LIMIT} == {}
