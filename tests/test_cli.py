"""The triverse command: play, simulate, replay and their errors."""

from __future__ import annotations

import io
import json
import re
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
    assert "variant: seed (or pressman)" in text


def test_games_is_a_table_in_words() -> None:
    code, text = run(["games"])
    assert code == 0
    rows = {line.split("│")[1].split(":")[0].strip(): line for line in text.splitlines()
            if line.startswith("│") and ":" in line.split("│")[1]}
    assert rows.keys() >= {"trinity", "triangles", "trivinity", "trident", "triominoes"}
    assert rows["triangles"].split("│")[2].strip() == "2"       # not "2-2"
    assert rows["triominoes"].split("│")[2].strip() == "2-6"
    assert "again: no" in text and "False" not in text
    assert "target: 400 (1 to 100000)" in text


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


# --- help, serve and progress --------------------------------------------------------------------
def help_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        cli.main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_help_reads_as_plain_text_with_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    top = help_text([], capsys)
    assert "``" not in top and "COMMAND\n" not in top
    for command in cli.COMMANDS:
        assert f"\n  {command} " in top
    assert "  triverse simulate triominoes --players novice,average" in top   # examples kept
    serve = help_text(["serve"], capsys)
    assert "(default: $TRIVERSE_HOST, else 127.0.0.1)" in " ".join(serve.split())
    assert "(default: $TRIVERSE_PORT, else 8000)" in " ".join(serve.split())
    assert "triverse[server]" in serve
    simulate = help_text(["simulate"], capsys)
    assert "(default: 100)" in simulate and "(default: novice,average)" in simulate
    assert "default: None" not in simulate and "default: False" not in simulate
    assert "default: []" not in simulate


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import triverse

    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out == f"triverse {triverse.__version__}\n"


def test_serve_refuses_a_taken_port(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, text = run(["serve", "--port", str(port)])
    assert code == 2 and text == ""                       # nothing claims it is running
    assert capsys.readouterr().err == (
        f"triverse serve: port {port} is taken (is Triverse already running? "
        f"open http://127.0.0.1:{port}/, or use --port)\n")


def test_serve_says_where_the_games_are_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import socket

    import triverse.server

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(triverse.server, "serve", lambda settings: calls.append(
        (settings.host, settings.port, settings.db_url)))
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    db = tmp_path / "games.sqlite3"
    code, text = run(["serve", "--port", str(port), "--db", f"sqlite:///{db}"])
    assert code == 0 and calls == [("127.0.0.1", port, f"sqlite:///{db}")]
    assert text.splitlines() == [f"Games are kept in {db}",
                                 f"Triverse is running at http://127.0.0.1:{port}/ "
                                 "(Ctrl-C stops it)"]
    code, text = run(["serve", "--port", str(port), "--db", "postgresql://me:secret@db.test/tv"])
    assert code == 0 and "Games are kept in postgresql+psycopg://me:***@db.test/tv" in text


def test_serve_without_the_server_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "SERVER_PACKAGES", ("fastapi", "no_such_package_for_triverse"))
    assert run(["serve"]) == (2, "")
    assert capsys.readouterr().err == ("triverse serve needs the server extra: pip install "
                                       "'triverse[server]' (missing: "
                                       "no_such_package_for_triverse)\n")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True

    def text(self) -> str:
        """What was written, without the terminal's colour and cursor codes."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.getvalue())


def test_progress_is_a_bar_on_a_terminal_only() -> None:
    from triverse.progress import Progress

    screen = Terminal()
    with Progress(4, screen) as bar:
        assert bar.terminal
        for done in range(1, 5):
            bar.update(done)
    assert "4/4 games" in screen.text() and "━" in screen.text()
    log = io.StringIO()
    with Progress(30, log) as bar:
        assert not bar.terminal
        for done in range(1, 31):
            bar.update(done)
    assert [line.split(" games")[0] for line in log.getvalue().splitlines()] == [
        f"{n}/30" for n in range(3, 31, 3)]
    quiet = io.StringIO()
    with Progress(3, quiet, lines=False) as bar:
        bar.update(3)
    assert quiet.getvalue() == ""


def test_simulate_shows_its_bar_on_stderr_and_keeps_json_clean(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = Terminal()
    monkeypatch.setattr(cli.sys, "stderr", screen)
    code, text = run(["simulate", "triangles", "--games", "2", "--seed", "3"])
    assert code == 0 and "2/2 games" in screen.text() and "2/2" not in text
    assert "average #2" in text and "win rate" in text
    screen.seek(0)
    screen.truncate()
    code, text = run(["simulate", "triangles", "--games", "2", "--seed", "3", "--json"])
    assert code == 0 and json.loads(text)["games"] == 2 and screen.getvalue() == ""
