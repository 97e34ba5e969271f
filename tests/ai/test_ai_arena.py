"""The arena: seats rotate, games run in processes, the report and the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from triverse.arena import ArenaConfig, ArenaError, game_seed, main, play_game, run_arena
from triverse.core.records import Record, replay


def test_seats_rotate_over_one_deal() -> None:
    config = ArenaConfig("triominoes", ("average", "novice"), games=4, seed=3,
                         options=("target=80",))
    first, second = play_game(config, 0), play_game(config, 1)
    assert first.seed == second.seed == game_seed(config, 0) != game_seed(config, 2)
    assert first.seats == [0, 1] and second.seats == [1, 0]


def test_special_plays_are_counted() -> None:
    config = ArenaConfig("trinity", ("average", "average"), games=2, seed=1,
                         options=("rounds=1",))
    result = run_arena(config)
    total = sum(sum(e.specials.values()) for e in result.entries)
    assert total > 0
    assert set().union(*(e.specials for e in result.entries)) <= {"hexagon", "span", "slide"}


def test_parallel_run_and_json(tmp_path: Path) -> None:
    out = io.StringIO()
    code = main(["triangles", "--players", "average,novice", "--games", "4", "--seed", "2",
                 "--jobs", "2", "--json", "--records", str(tmp_path)], out)
    assert code == 0
    data = json.loads(out.getvalue())
    assert data["games"] == 4 and data["jobs"] == 2
    assert [e["label"] for e in data["entries"]] == ["average", "novice"]
    assert sum(e["wins"] for e in data["entries"]) == 4
    assert data["command"].startswith("triverse arena triangles --players average,novice")
    assert set(data["elo"]) == {"average", "novice"}
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 4
    record = Record.load(records[0])
    assert replay(record).is_terminal()
    assert {p.kind for p in record.players} == {"average", "novice"}


def test_text_report_and_budgets() -> None:
    out = io.StringIO()
    assert main(["trident", "--players", "veteran@0.01,average", "--games", "2", "--seed", "1"],
                out) == 0
    text = out.getvalue()
    assert "veteran@0.01" in text and "Wilson" in text


def test_bad_configurations() -> None:
    with pytest.raises(ArenaError, match="not a built game"):
        run_arena(ArenaConfig("chess", ("average", "novice")))
    with pytest.raises(ArenaError, match="at least 1"):
        run_arena(ArenaConfig("trident", ("average", "novice"), games=0))
    assert main(["trident", "--players", "average", "--games", "1"], io.StringIO()) == 2
    assert main(["trident", "--players", "average,wizard", "--games", "1"], io.StringIO()) == 2
