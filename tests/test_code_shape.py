"""The shape of the code (issue 18): no module of the package is over
:data:`MAX_FILE_LINES` lines and no function or method over :data:`MAX_FUNCTION_LINES`, so
that a reader finds each part by its name and reads each function at once. A module that grows
past the limit is split into modules named for what they hold; a long function into
well-named smaller ones. There is no allow-list."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "triverse"
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 60


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _long_functions(path: Path, root: Path = SRC.parent) -> list[str]:
    """``file:line name (n lines)`` for each function or method of ``path`` over the limit
    (from its ``def`` line to its last line, decorators not counted), ``file`` relative to
    ``root``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                where = path.relative_to(root)
                found.append(f"{where}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_the_package_is_found() -> None:
    modules = _modules()
    assert SRC / "__init__.py" in modules
    assert len(modules) > 50


def test_no_module_is_too_long() -> None:
    long = []
    for path in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_FILE_LINES:
            long.append(f"{path.relative_to(SRC.parent)} ({lines} lines)")
    assert not long, (
        f"modules over {MAX_FILE_LINES} lines (split each into modules named for what they "
        "hold):\n  " + "\n  ".join(long)
    )


def test_no_function_is_too_long() -> None:
    long = [entry for path in _modules() for entry in _long_functions(path)]
    assert not long, (
        f"functions over {MAX_FUNCTION_LINES} lines (split each into well-named smaller "
        "ones):\n  " + "\n  ".join(long)
    )


def test_the_function_check_counts_every_line(tmp_path: Path) -> None:
    """From the ``def`` line to the last line, methods and nested functions included: a
    function of exactly the limit passes."""
    m = MAX_FUNCTION_LINES
    body = "".join(f"    x{i} = {i}\n" for i in range(m))
    fits = "def fits() -> None:\n" + body[body.index("\n") + 1:]  # m lines in all
    over = "class C:\n    def over(self) -> None:\n" + body[body.index("\n") + 1:].replace(
        "    ", "        ")
    over += "        def inner() -> None:\n" + body.replace("    ", "            ")
    probe = tmp_path / "probe.py"
    probe.write_text(f"{fits}\n\n{over}", encoding="utf-8")
    assert _long_functions(probe, tmp_path) == [
        f"probe.py:{m + 4} over ({2 * m + 1} lines)",
        f"probe.py:{2 * m + 4} inner ({m + 1} lines)",
    ]
