"""Trinity through the generic ``triverse`` commands: simulate, replay, play, games."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from triverse import cli
from triverse.core.records import Record, replay
from triverse.games import available_games, load_game
from triverse.games.trinity.engine import TrinityState


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(argv, out)
    return code, out.getvalue()


def test_trinity_is_available_with_its_options() -> None:
    assert "trinity" in available_games()
    assert isinstance(load_game("trinity", 3, rounds=2).new_initial_state(seed=1), TrinityState)
    code, text = run(["games"])
    assert code == 0
    assert "rounds: 3 (1 to 3)" in text and "max_tiebreakers: 10" in text


def test_simulate_novice_against_average_and_replay_the_records(tmp_path: Path) -> None:
    code, text = run(["simulate", "trinity", "--players", "novice,average", "--games", "4",
                      "--seed", "3", "--json", "--records", str(tmp_path)])
    assert code == 0, text
    summary = json.loads(text)
    assert summary["games"] == 4 and summary["options"] == {"rounds": 3, "max_tiebreakers": 10}
    assert sum(summary["wins"]) == pytest.approx(4)
    files = sorted(tmp_path.glob("trinity-*.json"))
    assert len(files) == 4
    for path in files:
        code, text = run(["replay", str(path), "--json"])
        assert code == 0, text
        replayed = json.loads(text)
        assert replayed["finished"] and replayed["result_checked"]
        record = Record.load(path)
        assert record.result is not None and replayed["scores"] == list(record.result.scores)
        assert replay(record).result() == record.result


def test_simulate_three_and_four_players_text_summary() -> None:
    for players in ("novice,average,novice", "average,novice,average,novice"):
        code, text = run(["simulate", "trinity", "--players", players, "--games", "2",
                          "--seed", "5", "--option", "rounds=1"])
        assert code == 0 and "2 games of trinity, seed 5" in text


def test_a_tampered_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    run(["simulate", "trinity", "--games", "1", "--seed", "8", "--records", str(tmp_path),
         "--option", "rounds=1", "--json"])
    path = next(tmp_path.glob("*.json"))
    data = json.loads(path.read_text())
    data["actions"][3] = "0-1-2@40,40/0"
    path.write_text(json.dumps(data))
    assert run(["replay", str(path)])[0] == 1
    assert "action 4 ('0-1-2@40,40/0')" in capsys.readouterr().err


def test_play_against_the_computer_by_numbers(tmp_path: Path) -> None:
    """A human who always picks choice 1 plays a whole one-round game; the record replays."""
    save = tmp_path / "game.json"
    args = cli.build_parser().parse_args(
        ["play", "trinity", "--players", "human,average", "--seed", "11",
         "--option", "rounds=1", "--save", str(save)])
    out = io.StringIO()
    answers = iter(["zzz", "999"] + ["1"] * 10_000)
    assert cli.cmd_play(args, out, read=lambda prompt: next(answers)) == 0
    text = out.getvalue()
    assert "Trinity: round 1 of 1" in text and "Final standings:" in text
    assert "Not possible:" in text and "Choose a number from 1 to" in text
    assert run(["replay", str(save)])[0] == 0
