"""Fixtures shared by every test folder."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
TESTS = Path(__file__).resolve().parent
PLUGIN_SITE = TESTS / "plugin_site"
"""A folder that, on ``sys.path``, installs the game Climb as a plugin (its README says how)."""


@pytest.fixture(scope="session")
def benchmark_script() -> Callable[[str], ModuleType]:
    """Load a script of ``benchmarks/`` by name as a module (the test is skipped where the
    benchmarks are not in the checkout)."""

    def load(name: str) -> ModuleType:
        path = BENCHMARKS / f"{name}.py"
        if not path.exists():
            pytest.skip("the benchmarks are not in this checkout")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        return module

    return load


@pytest.fixture
def toy_plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install the test game Climb (``toy``) as a plugin for one test, through the entry points
    as a package from outside would be; its name."""
    from triverse.core.plugins import refresh

    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.syspath_prepend(str(PLUGIN_SITE))
    refresh()
    yield "toy"
    monkeypatch.undo()
    refresh()


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--long``: the long versions of the property tests (the secrets test's 10,000 games,
    2,000 of each kind, in ``tests/server/test_server_leaks.py``)."""
    parser.addoption("--long", action="store_true", default=False,
                     help="run the long versions of the property tests (10,000 games in all)")
