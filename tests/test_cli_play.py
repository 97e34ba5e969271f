"""``triverse play`` as a player reads it (issue 21): moves typed as they are listed, a turn of
draws in one line, Triangles' star map with its lines on request, and the language."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator, Sequence
from itertools import groupby
from pathlib import Path

import pytest

from triverse import cli
from triverse.cli import common, play
from triverse.core.records import Record, replay
from triverse.games import load_game
from triverse.i18n import game_message, language, set_language


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test in English whatever the machine's locale, and English again after it."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    yield
    set_language("en")


def play_game(argv: Sequence[str], answers: Sequence[str]) -> str:
    """What ``triverse play ARGV`` writes to a player who types ``answers`` (then quits)."""
    typed = iter(answers)
    args = cli.build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    assert cli.cmd_play(args, out, read=lambda prompt: next(typed, "q")) == 0
    return out.getvalue()


def listed(text: str) -> list[str]:
    """The moves of the first numbered list in ``text``, in order."""
    return [m.group(1) for m in re.finditer(r"^ +\d+\. (.+)$", text, re.M)]


# --- typed as listed -----------------------------------------------------------------------------
TRIOMINOES = ["triominoes", "--players", "human,novice", "--seed", "2"]


def test_a_move_typed_as_it_is_listed_is_played(tmp_path: Path) -> None:
    moves = listed(play_game(TRIOMINOES, []))
    assert len(moves) == 6 and moves[2] == ("play 1-4-4 at 0,1, corners clockwise from top left: "
                                            "4 4 1")
    save = tmp_path / "game.json"
    typed = "  PLAY 1-4-4 at 0,1,corners Clockwise from top left:4 4 1 "  # case and spaces
    text = play_game([*TRIOMINOES, "--save", str(save)], [typed])
    assert "You placed 1-4-4 for " in text and "Not possible" not in text
    record = Record.load(save)
    before = replay(dataclasses.replace(record, actions=record.actions[:1]))  # the computer's
    assert record.actions[1] == str(before.legal_action_list()[2])


def test_the_start_of_one_listed_move_is_enough_and_an_ambiguous_one_is_named() -> None:
    text = play_game(TRIOMINOES, ["play 1-4-4", "play 4-4-5 at -1,0"])
    assert ("'play 1-4-4' fits 3 moves: play 1-4-4 at 1,0, corners clockwise from top left: "
            "4 1 4; play 1-4-4 at 0,1, corners") in text
    assert "You placed 4-4-5 for " in text


def test_numbers_and_notation_still_work_and_nonsense_is_refused() -> None:
    text = play_game(TRIOMINOES, ["7", "zzz", "1-4-4@9,9/0", "2"])
    assert "Choose a number from 1 to 6." in text
    assert "Not possible: " in text
    assert "Not possible: a tile must share an edge with a tile on the board" in text
    assert "You placed 4-4-5 for " in text


def test_a_trivinity_card_typed_as_listed() -> None:
    argv = ["trivinity", "--players", "human,novice", "--seed", "5"]
    moves = listed(play_game(argv, []))
    first = next(m for m in moves if m.startswith("play "))
    text = play_game(argv, [first.upper().replace(" ", "   ")])
    name = first.partition(": ")[2]
    assert f"You played {name}" in text


# --- a turn of draws is one line -----------------------------------------------------------------
DRAW_LINE = re.compile(r"^    (You|Computer \(novice\)) drew (a tile|(\d+) tiles) \((-\d+)\)"
                       r"(: .*)?$", re.M)


def test_a_turn_of_forced_draws_is_one_line(tmp_path: Path) -> None:
    """Every run of draws (the human's, made for them, and the computer's) is one line, with its
    count and points; the human's names the tiles drawn; the board is not shown between."""
    save = tmp_path / "game.json"
    text = play_game([*TRIOMINOES, "--option", "target=60", "--save", str(save)], ["1"] * 500)
    assert "Final standings:" in text
    runs = [len(list(run)) for action, run in groupby(Record.load(save).actions)
            if action == "draw"]
    lines = DRAW_LINE.findall(text)
    assert len(runs) >= 5 and len(lines) == len(runs)
    for count, (who, _words, number, points, tiles) in zip(runs, lines, strict=True):
        assert int(number or 1) == count and int(points) == -5 * count
        if who == "You":
            assert len(tiles.split(", ")) == count
        else:
            assert not tiles                              # the computer's tiles stay hidden
    assert "draw a tile from the pool" not in text       # a forced draw is not offered
    assert text.count("Your hand:") == text.count("Your move:")


def test_the_seven_draws_of_a_computer_turn_in_one_line() -> None:
    text = play_game(TRIOMINOES, ["1"] * 5)
    assert "    Computer (novice) drew 4 tiles (-20)\n    Computer (novice) placed 1-4-5" in text
    assert "drew a tile" not in text.split("drew 4 tiles")[0]


# --- Triangles: the star map, ? and a-b ----------------------------------------------------------
TRIANGLES = ["triangles", "--players", "human,novice", "--seed", "4"]


def test_triangles_shows_the_star_map_and_no_list_of_lines(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    text = play_game([*TRIANGLES, "--save", str(save)], ["3-7"])
    state = load_game("triangles").new_initial_state(seed=4)
    assert state.game.render_text(state.observation(0)) in text      # stars by their numbers
    assert "243 legal moves: ? lists them, ? 3 only those with a 3." in text
    assert "enter a line as a-b (two star numbers)" in text
    assert "line 0-1" not in text and listed(text) == []
    assert "    You drew line 3-7\n" in text
    assert Record.load(save).actions[0] == "3-7"


def test_triangles_lists_the_legal_lines_on_request() -> None:
    text = play_game(TRIANGLES, ["?", "? 3", "61"])
    state = load_game("triangles").new_initial_state(seed=4)
    lines = re.findall(r"(\d+)\. line (\d+-\d+)", text)
    every = [f"{line.a}-{line.b}" for line in state.legal_action_list()]
    assert sorted(lines[:243], key=lambda item: int(item[0])) == [
        (str(n), line) for n, line in enumerate(every, 1)]
    from_3 = sorted(lines[243:], key=lambda item: int(item[0]))
    assert [line for _n, line in from_3] == [line for line in every if "3" in line.split("-")]
    assert "    You drew line 3-7\n" in text                   # 61 is 3-7 in the list


def test_triangles_refuses_a_number_before_the_list_and_a_crossing_line() -> None:
    text = play_game(TRIANGLES, ["5", "3-7", "4-5"])
    assert "? lists the moves; then choose one by its number." in text
    assert text.index("You drew line 3-7") < text.index("Not possible: 4-5 would cross 3-7")


# --- the language ---------------------------------------------------------------------------------
def test_lang_is_passed_to_set_language(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[str] = []
    monkeypatch.setattr(cli, "set_language", chosen.append)
    assert cli.main(["--lang", "pl", "games"], io.StringIO()) == 0
    assert cli.main(["games", "--lang", "fr"], io.StringIO()) == 0
    assert cli.main(["games"], io.StringIO()) == 0
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert cli.main(["games"], io.StringIO()) == 0
    monkeypatch.setenv("LANGUAGE", "pl")
    assert cli.main(["games"], io.StringIO()) == 0
    assert cli.main(["--lang", "en", "games"], io.StringIO()) == 0
    assert chosen == ["pl", "fr", "en", "fr", "pl", "en"]
    with pytest.raises(SystemExit):
        cli.main(["--lang", "de", "games"], io.StringIO())


def test_every_line_of_the_game_goes_through_gettext(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a translation that marks each message, every line the CLI writes (but the board,
    which is the game's, and the moves in notation) is marked."""
    monkeypatch.setattr(play, "_", lambda message: f"«{message}»")
    monkeypatch.setattr(play, "ngettext", lambda one, many, n: f"«{one if n == 1 else many}»")
    monkeypatch.setattr(common, "pgettext", lambda context, message: f"«{message}»")
    monkeypatch.setattr(play, "render", lambda *args, **kwargs: "«event»")
    text = play_game(TRIANGLES, ["5", "? 99", "zzz", "q"])
    board = load_game("triangles").new_initial_state(seed=4)
    assert text.count(board.game.render_text(board.observation(0))) == 1
    own = text.replace(board.game.render_text(board.observation(0)), "")
    said = [line.removeprefix("> ").strip() for line in own.splitlines() if line.strip()]
    assert len(said) == 8
    assert all(line.startswith("«") and line.endswith("»") for line in said), said
    assert "«Triangles: «You», «Computer («novice»)». Seed 4.»" in text


def test_event_lines_are_the_games_templates_in_the_language() -> None:
    """A line is the game's template in the current language (the context "<game>:<code>"),
    filled in; a plural form follows the count."""
    triangles = load_game("triangles")
    with language("pl"):
        polish = play.say(triangles, "again", {}, who="Ann")
        assert polish == game_message("triangles", "again", "{who} plays again").format(who="Ann")
    assert polish != "Ann plays again"                          # the catalogue translates it
    assert play.say(triangles, "again", {}, who="Ann") == "Ann plays again"
    tiles = load_game("triominoes")
    assert play.say(tiles, "drew", {"count": 3}, who="Ann", points=-15) == \
        "Ann drew 3 tiles (-15)"
    assert play.say(tiles, "refused.game_over", {}) == "the game is over"
    assert play.say(tiles, "no.such.code", {}) == "no.such.code"


def test_card_names_are_translated_in_lines_and_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "pgettext", lambda context, message: f"[{context}] {message}")
    game = load_game("trivinity")
    key, name = next((k.removeprefix("name:"), v) for k, v in game.messages.items()
                     if k.startswith("name:"))
    assert play.say(game, "play", {"card": key}, who="Ann") == f"Ann played [trivinity:name] {name}"
    assert play.secret_words({"cards": [1, 2], "names": [name, name]}, "trivinity") == \
        f"[trivinity:name] {name}, [trivinity:name] {name}"


def test_a_game_in_polish_through_main() -> None:
    """``--lang pl`` makes the game speak Polish where the catalogue does (what it lacks stays
    English until it is translated): Triangles' "plays again" line, say."""
    out = io.StringIO()
    assert cli.main(["--lang", "pl", "play", "triangles", "--seed", "3", "--players",
                     "novice,novice", "--option", "again=on"], out) == 0
    with language("pl"):
        again = game_message("triangles", "again", "{who} plays again")
    said = again.replace("{who}", "").strip()
    assert said != "plays again" and said in out.getvalue()
    assert "plays again" not in out.getvalue()
