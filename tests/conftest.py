"""Fixtures shared by every test folder."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import ClassVar

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


# --- every record the suite produces is verified --------------------------------------------
# "`triverse verify` passes on every record the test suite produces" (issue 24), checked
# literally. Design:
# - Capture: at start-up (``pytest_configure``, in each process: the controller and every
#   pytest-xdist worker alike) ``Record.from_state`` is wrapped, so that every record made from
#   a game's state, by the CLI (play --save, simulate --records), the server (a finished match's
#   record, a review's), the arena or a test itself, is kept in ``RecordCheck.pending``; the
#   list is appended to from any thread (the server's), which the GIL makes safe.
# - Check: after each test's call (a wrapper of ``pytest_runtest_call``, while its fixtures are
#   still set up, a plugin game's included) every record kept meanwhile is verified with
#   :func:`triverse.core.verify.verify`; one that does not hold fails that very test, named with
#   the check and the reason. Records made while fixtures were set up or torn down (a module's
#   server, say; session fixtures are torn down with the last test) are checked after the
#   test's teardown, as an error of that test; any made later still (in another plugin's
#   session teardown) in ``pytest_sessionfinish``, which then fails the run (exit status 1).
#   Every failure is a test's failure or error, which pytest-xdist reports from its workers
#   like any other: each worker checks the records it made, so nothing depends on xdist's
#   scheduling, and nothing is capped or sampled: a replay costs about as much as the game.
# - Not captured: records made in other processes (the arena's ``--jobs`` workers, a CLI run as
#   a subprocess); the same code makes them in process elsewhere in the suite.
class RecordCheck:
    """The records made since the last check, and how many were verified."""

    pending: ClassVar[list[object]] = []
    verified: ClassVar[int] = 0

    @classmethod
    def install(cls) -> None:
        from triverse.core.records import Record

        if getattr(Record.from_state, "_checked", False):
            return
        original = Record.from_state.__func__  # type: ignore[attr-defined]

        def from_state(klass: type[Record], *args: object, **kwargs: object) -> Record:
            record: Record = original(klass, *args, **kwargs)
            cls.pending.append(record)
            return record

        from_state._checked = True  # type: ignore[attr-defined]
        from_state._pending = cls.pending  # type: ignore[attr-defined]
        Record.from_state = classmethod(from_state)  # type: ignore[method-assign,assignment]

    @classmethod
    def problems(cls) -> list[str]:
        """Verify every pending record; what was wrong with those that do not hold."""
        from triverse.core.records import Record
        from triverse.core.verify import verify

        taken, cls.pending[:] = list(cls.pending), []
        wrong = []
        for record in taken:
            assert isinstance(record, Record)
            try:
                verify(record)
            except Exception as exc:
                wrong.append(f"a {record.game} record of seed {record.seed} with "
                             f"{len(record.actions)} actions: {type(exc).__name__}: {exc}")
            cls.verified += 1
        return wrong


def pytest_configure(config: pytest.Config) -> None:
    RecordCheck.install()


def _check_records(when: str) -> None:
    wrong = RecordCheck.problems()
    if wrong:
        raise AssertionError(f"triverse verify fails on records made {when}:\n"
                             + "\n".join(wrong))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    result = yield
    _check_records("by this test")
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    _check_records("while this test's fixtures were set up or torn down")
    return result


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    wrong = RecordCheck.problems()
    if wrong:
        sys.stderr.write("triverse verify fails on records made outside a test's call:\n"
                         + "\n".join(wrong) + "\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
