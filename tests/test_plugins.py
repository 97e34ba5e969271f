"""Games are plugins: Triverse's five and a game installed from outside are found the same way,
through the ``triverse.games`` entry points, and the outside one plays through the CLI, the
server and the OpenSpiel adapter like the others."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import triverse
from triverse.core.errors import OptionError
from triverse.core.plugins import GamePlugin, available_games, game_class, plugin, plugins
from triverse.core.records import Record, replay

TESTS = Path(__file__).resolve().parent
PLUGIN_SITE = TESTS / "plugin_site"
SRC = TESTS.parent / "src" / "triverse"
GAMES = ("trinity", "triangles", "trivinity", "trident", "triominoes")
GAME_WORD = re.compile(r"trinity|triangles|trivinity|trident|tri-?ominoes", re.IGNORECASE)


def test_the_five_games_are_plugins_with_their_parts() -> None:
    assert tuple(plugins()) == GAMES
    for name, declared in plugins().items():
        assert isinstance(declared, GamePlugin)
        assert declared.game_class().name == name
        assert declared.knowledge and declared.view and declared.rules
        assert (SRC / "web" / declared.view.lstrip("/")).is_file(), declared.view


def test_an_outside_game_is_found_through_the_entry_points(toy_plugin: str) -> None:
    assert available_games() == [*GAMES, "toy"]
    assert plugin("toy").view is None
    assert game_class("toy").title.startswith("Climb")


def test_without_its_package_the_outside_game_is_unknown() -> None:
    assert "toy" not in available_games()
    with pytest.raises(OptionError, match="unknown game 'toy'; the games are: trinity,"):
        plugin("toy")


def test_an_entry_point_that_is_no_plugin_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from triverse.core.plugins import refresh

    info = tmp_path / "broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[triverse.games]\nbroken = json:dumps\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh()
    try:
        with pytest.raises(OptionError, match=r"'broken' .*is not a GamePlugin but function"):
            available_games()
    finally:
        monkeypatch.undo()
        refresh()


# --- the outside game, played everywhere ---------------------------------------------------------
def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    here = str(Path(triverse.__file__).resolve().parents[1])  # this triverse, not another
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGIN_SITE), str(TESTS), here]))
    return subprocess.run([sys.executable, "-m", "triverse.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_outside_game_plays_through_the_cli(tmp_path: Path) -> None:
    listed = _cli("games", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "toy" in listed.stdout and "Climb" in listed.stdout
    ran = _cli("simulate", "toy", "--players", "novice,average", "--games", "3", "--seed", "5",
               "--json", "--records", str(tmp_path / "out"), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    summary = json.loads(ran.stdout)
    assert summary["games"] == 3
    records = sorted((tmp_path / "out").glob("toy-*.json"))
    assert len(records) == 3
    for path in records:
        record = Record.load(path)
        assert record.game == "toy" and record.actions
        replayed = _cli("replay", str(path), cwd=tmp_path)
        assert replayed.returncode == 0, replayed.stderr


def test_the_outside_game_plays_through_the_server(
    toy_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from triverse.server.app import create_app

    monkeypatch.syspath_prepend(str(TESTS / "server"))
    from server_helpers import play_to_end, tokens_of, view

    app = create_app(f"sqlite:///{tmp_path / 'toy.sqlite3'}", bot_delay=0, bot_workers=1)
    with TestClient(app) as client:
        lobby = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert list(lobby) == [*GAMES, "toy"]
        assert lobby["toy"]["available"] and lobby["toy"]["view"] is None
        rules = client.get(lobby["toy"]["rules"])
        assert rules.status_code == 200 and "Climb" in rules.text
        assert {o["name"] for o in lobby["toy"]["options"]} >= {"cards", "hand"}
        created = client.post("/api/matches", json={
            "game": "toy", "seats": [{"kind": "human"}, {"kind": "average"}]}).json()
        final = play_to_end(client, created["match_id"], tokens_of(created))
        assert final["finished"] and final["result"] is not None
        public = view(client, created["match_id"])
        assert all("secret" not in e for entry in public["log"] for e in entry["events"])
        stored = client.get(f"/api/matches/{created['match_id']}/record").json()
        record = Record.from_json(stored)
        assert record.game == "toy" and len(record.actions) == final["move"]
        assert list(replay(record).scores) == final["result"]["scores"]


def test_the_outside_game_plays_through_openspiel(toy_plugin: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import random

    from triverse.adapters.openspiel import register_all

    assert "triverse_toy" in register_all()
    game = pyspiel.load_game("triverse_toy", {"players": 3, "seed": 11})
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.returns()) == 3


# --- no layer but the games' knows a game ---------------------------------------------------------
def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_core_names_no_game() -> None:
    named = {str(p.relative_to(SRC)): sorted(set(GAME_WORD.findall(p.read_text())))
             for p in _python_files(SRC / "core")}
    assert {path: words for path, words in named.items() if words} == {}


def _code_words(path: Path) -> set[str]:
    """The game names in a file's code: Python's string constants and names other than
    docstrings, JavaScript with its comments removed (prose may name a game as an example)."""
    text = path.read_text()
    if path.suffix == ".py":
        tree = ast.parse(text)
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                    | ast.AsyncFunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)}
        pieces = [n.value for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and id(n) not in docstrings]
        pieces += [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
        pieces += [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
        text = "\n".join(pieces)
    else:
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.DOTALL)
    return {w.lower().replace("-", "") for w in GAME_WORD.findall(text)}


def test_no_list_of_games_outside_the_games() -> None:
    """Outside ``games/``, each game's own computer-player knowledge and its own browser
    module, no file's code names two games: there is no list of games to grow with each game.
    (One name may be an example, or the common word "triangles".)"""
    own = {SRC / "ai" / "knowledge", SRC / "web" / "js" / "games", SRC / "web" / "rules"}
    files = [p for layer in ("ai", "adapters", "server") for p in _python_files(SRC / layer)]
    files += [*_python_files(SRC / "cli"), *sorted((SRC / "web").rglob("*.js"))]
    named = {}
    for path in files:
        if any(folder in path.parents for folder in own):
            continue
        words = _code_words(path)
        if len(words) > 1:
            named[str(path.relative_to(SRC))] = sorted(words)
    assert named == {}
