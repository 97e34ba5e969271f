"""The triverse command: play, simulate, replay and their errors."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from triverse import cli
from triverse.core.records import Record


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(argv, out)
    return code, out.getvalue()


def test_games_lists_all_five(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(["games"])
    assert code == 0
    for title in ("Trinity", "Triangles", "Trivinity", "Trident", "Tri-ominoes"):
        assert title in text
    assert "--option variant=seed (seed|pressman)" in text


def test_simulate_json_summary_and_records(tmp_path: Path) -> None:
    code, text = run(["simulate", "triominoes", "--players", "novice,average", "--games", "4",
                      "--seed", "3", "--json", "--records", str(tmp_path),
                      "--option", "target=100"])
    assert code == 0
    summary = json.loads(text)
    assert summary["games"] == 4
    assert summary["options"]["target"] == 100
    assert sum(summary["wins"]) == pytest.approx(4)
    assert len(summary["average_scores"]) == 2
    assert summary["average_length"] > 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    for path in files:
        code, text = run(["replay", str(path), "--json"])
        assert code == 0
        replayed = json.loads(text)
        assert replayed["finished"] and replayed["result_checked"]
        assert replayed["scores"] == list(Record.load(path).result.scores)  # type: ignore[union-attr]


def test_simulate_is_deterministic_for_a_seed() -> None:
    argv = ["simulate", "triominoes", "--games", "2", "--seed", "9", "--json",
            "--option", "target=100"]
    first, second = json.loads(run(argv)[1]), json.loads(run(argv)[1])
    first.pop("seconds")
    second.pop("seconds")
    assert first == second


def test_replay_rejects_a_tampered_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    run(["simulate", "triominoes", "--games", "1", "--seed", "5", "--records", str(tmp_path),
         "--option", "target=100", "--json"])
    path = next(tmp_path.glob("*.json"))
    data: dict[str, Any] = json.loads(path.read_text())
    # Swap two actions so that one of them becomes illegal or the result differs.
    data["result"]["scores"][0] += 1
    path.write_text(json.dumps(data))
    code, _ = run(["replay", str(path)])
    assert code == 1
    assert "the record says scores" in capsys.readouterr().err

    data["actions"].insert(1, "this-is-not-notation")
    path.write_text(json.dumps(data))
    code, _ = run(["replay", str(path)])
    assert code == 1
    assert "action 2 ('this-is-not-notation')" in capsys.readouterr().err


def test_replay_of_a_non_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.json"
    path.write_text("{}")
    assert run(["replay", str(path)])[0] == 2
    assert "not a Triverse record" in capsys.readouterr().err


def test_bad_players_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["simulate", "triominoes", "--players", "novice,genius"])[0] == 2
    assert "'genius' is not one of" in capsys.readouterr().err
    assert run(["simulate", "triominoes", "--option", "colour=red"])[0] == 2
    assert "unknown option 'colour'" in capsys.readouterr().err
    assert run(["simulate", "chess"])[0] == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_play_against_the_computer_by_numbers(tmp_path: Path) -> None:
    """A human who always picks choice 1 plays a whole short game; the record replays."""
    save = tmp_path / "game.json"
    args = cli.build_parser().parse_args(
        ["play", "triominoes", "--players", "human,average", "--seed", "11",
         "--option", "target=60", "--save", str(save)])
    out = io.StringIO()
    answers = iter(["zzz", "999", "1"] + ["1"] * 10_000)
    assert cli.cmd_play(args, out, read=lambda prompt: next(answers)) == 0
    text = out.getvalue()
    assert "Not possible:" in text
    assert "Choose a number from 1 to" in text
    assert "Final standings:" in text
    code, _ = run(["replay", str(save)])
    assert code == 0


def test_play_quit_saves_an_unfinished_record(tmp_path: Path) -> None:
    save = tmp_path / "part.json"
    args = cli.build_parser().parse_args(
        ["play", "triominoes", "--players", "human,novice", "--seed", "2", "--save", str(save)])
    out = io.StringIO()
    answers = iter(["1", "1", "q"])
    assert cli.cmd_play(args, out, read=lambda prompt: next(answers)) == 0
    record = Record.load(save)
    assert record.result is None
    assert len(record.actions) >= 1
    assert run(["replay", str(save)])[0] == 0


def test_arena_command_reports_rates_and_elo(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(["arena", "triangles", "--players", "average,novice", "--games", "4",
                      "--seed", "5", "--json"])
    assert code == 0
    data = json.loads(text)
    assert data["game"] == "triangles" and data["games"] == 4
    assert sum(e["wins"] for e in data["entries"]) == 4
    assert all(0.0 <= e["wilson95"][0] <= e["win_rate"] <= e["wilson95"][1] <= 1.0
               for e in data["entries"])
    assert "4/4 games" in capsys.readouterr().err          # the progress went to stderr
    assert run(["arena", "triangles", "--players", "average"])[0] == 2
    assert "at least two" in capsys.readouterr().err
