"""The options' words for players (issue 21): each option of each game has a human label, and
each choice of an option with choices (each value of a yes/no option) a label and a one-line
explanation, which GET /api/games hands to the New Game dialog."""

from __future__ import annotations

import pytest

from triverse.core.options import OptionSpec
from triverse.games import available_games, game_class


def _specs() -> list[tuple[str, OptionSpec]]:
    return [(name, spec) for name in available_games() for spec in game_class(name).option_specs]


@pytest.mark.parametrize(("game", "spec"), _specs(), ids=lambda x: getattr(x, "name", x))
def test_every_option_has_words_for_players(game: str, spec: OptionSpec) -> None:
    assert spec.label, f"{game}'s option {spec.name} has no label"
    assert spec.label != spec.name
    if spec.choices is not None or spec.kind is bool:
        values = list(spec.choices) if spec.choices is not None else [True, False]
        assert set(spec.choice_labels) == set(values), f"{game}'s {spec.name}"
        for label, explanation in spec.choice_labels.values():
            assert label and explanation
            assert "\n" not in explanation and len(explanation) <= 110, explanation
            assert explanation.endswith(".")


def test_triominoes_rules_choice_reads_as_a_player_says_it() -> None:
    spec = next(s for s in game_class("triominoes").option_specs if s.name == "variant")
    data = spec.to_json()
    assert data["label"] == "Rules"
    assert [(c["value"], c["label"]) for c in data["choice_labels"]] == [
        ("seed", "This app's rules"), ("pressman", "Official Pressman rules")]
    assert "3 draws" in data["choice_labels"][1]["explanation"]


def test_labels_follow_the_choices_order_and_cannot_be_changed() -> None:
    spec = OptionSpec("size", int, 2, "Board size", choices=(1, 2, 3), label="Size",
                      choice_labels={3: ("Large", "Slow."), 1: ("Small", "Quick."),
                                     2: ("Medium", "Middling.")})
    assert [c["value"] for c in spec.to_json()["choice_labels"]] == [1, 2, 3]
    with pytest.raises(TypeError):
        spec.choice_labels[1] = ("Tiny", "Quicker.")  # type: ignore[index]
    assert hash(spec) == hash(OptionSpec("size", int, 2, "Board size", choices=(1, 2, 3),
                                         label="Size"))


def test_a_label_for_a_value_that_is_not_a_choice_is_refused() -> None:
    with pytest.raises(ValueError, match="not one of its choices"):
        OptionSpec("variant", str, "a", "Rules", choices=("a", "b"),
                   choice_labels={"c": ("C", "A third.")})
    with pytest.raises(ValueError, match="pair of texts"):
        OptionSpec("again", bool, False, "Again", choice_labels={True: ("Yes", "")})


def test_without_a_label_the_name_reads_as_words() -> None:
    spec = OptionSpec("max_rounds", int, 50, "Safety stop")
    assert spec.title == "Max rounds"
    assert spec.to_json()["label"] == "Max rounds"
    assert spec.to_json()["choice_labels"] == []


def test_the_api_sends_the_labels() -> None:
    from fastapi.testclient import TestClient

    from triverse.server.app import create_app

    with TestClient(create_app("sqlite://")) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    stars = next(o for o in games["triangles"]["options"] if o["name"] == "stars")
    assert stars["label"] == "Stars"
    assert stars["choice_labels"][0] == {"value": 24, "label": "24 stars",
                                         "explanation": "A quick game on a small board."}
    again = next(o for o in games["triangles"]["options"] if o["name"] == "again")
    assert [c["value"] for c in again["choice_labels"]] == [True, False]
