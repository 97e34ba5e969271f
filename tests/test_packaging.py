"""Packaging: the engines and the CLI run without the web stack, the version is written once,
and the licence file matches the declared licence."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import triverse
from triverse import cli

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

WITHOUT_SERVER = r'''
import importlib, io, pkgutil, sys

BLOCKED = {"fastapi", "starlette", "uvicorn", "websockets", "sqlalchemy", "alembic",
           "platformdirs", "pydantic", "pydantic_settings", "psycopg"}


class Refuse:
    """Behave as if the server extra were not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None


sys.meta_path.insert(0, Refuse())

import triverse, triverse.ai, triverse.cli, triverse.games

for package in (triverse.games, triverse.ai):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)

out = io.StringIO()
code = triverse.cli.main(["play", "triangles", "--players", "novice,average", "--seed", "3"], out)
assert code == 0 and "Final standings" in out.getvalue(), out.getvalue()
out = io.StringIO()
assert triverse.cli.main(["games"], out) == 0 and "triominoes" in out.getvalue()
assert triverse.cli.main(["serve"], io.StringIO()) == 2
loaded = sorted(name for name in sys.modules if name.partition(".")[0] in BLOCKED)
assert not loaded, loaded
print("played without the web stack")
'''


def test_the_engines_and_the_cli_need_no_web_stack() -> None:
    source = Path(triverse.__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", WITHOUT_SERVER], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={"PYTHONPATH": str(source)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "played without the web stack\n"
    assert done.stderr == ("triverse serve needs the server extra: pip install "
                           "'triverse[server]' (missing: fastapi, uvicorn, websockets, "
                           "sqlalchemy, alembic, platformdirs)\n")


def test_the_base_install_is_the_engines_and_the_server_is_an_extra() -> None:
    project = PYPROJECT["project"]
    names = {requirement.split(">")[0].split("[")[0] for requirement in project["dependencies"]}
    assert names == {"rich", "babel"}  # the terminal, and its translations (docs/i18n.md)
    extras = project["optional-dependencies"]
    server = {r.split(">")[0].replace("-", "_") for r in extras["server"]}  # module names
    assert server >= set(cli.SERVER_PACKAGES)
    assert "triverse[server,postgres,redis,adapters]" in extras["test"]


def test_the_version_is_written_once() -> None:
    assert triverse.__version__ == PYPROJECT["project"]["version"]
    text = (ROOT / "src" / "triverse" / "__init__.py").read_text(encoding="utf-8")
    assert PYPROJECT["project"]["version"] not in text


def test_an_uninstalled_source_tree_reads_its_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert triverse._version() == PYPROJECT["project"]["version"]


def test_the_licence_file_matches_the_declared_licence() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 The Triverse developers\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text


def test_the_readme_and_the_rules_stand_alone_in_a_clone() -> None:
    import re

    from triverse.games import available_games

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = [readme, *(path.read_text(encoding="utf-8") for path in (ROOT / "docs").rglob("*.md"))]
    assert not any("shared/seeds" in text for text in docs)
    for target in re.findall(r"\]\(([^)#:]+)\)", readme):
        assert (ROOT / target).exists(), target
    for name in available_games():
        rules = ROOT / "docs" / "rules" / f"{name}.md"
        assert f"(docs/rules/{name}.md)" in readme
        assert re.search(r"seed file\s+`\d{3}_[0-9a-f]{16}\.txt`", rules.read_text("utf-8")), rules
