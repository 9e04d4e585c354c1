"""What the games' players share (games/players.py): ``PolicyPlayer`` asks its rule of thumb
about a decision of two options or more, never about one, and refuses a view of another
game in words."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from fuzzeval.games.players import PolicyPlayer
from fuzzeval.play.game import Candidates


@dataclass(frozen=True)
class Seen:
    """A game's view of a decision."""

    options: int


def _candidates(options: int, view: object) -> Candidates:
    return Candidates("play", tuple(str(i) for i in range(options)),
                      np.zeros((options, 0)), view=view)


def _last(view: Seen, rng: np.random.Generator) -> int:
    rng.random()  # a policy that draws
    return view.options - 1


@pytest.mark.mutation_pin
@pytest.mark.parametrize(("options", "chosen", "drawn"), [(1, 0, False), (2, 1, True),
                                                          (3, 2, True)])
def test_the_policy_is_asked_only_when_there_is_a_choice(options: int, chosen: int,
                                                         drawn: bool) -> None:
    rng = np.random.default_rng(4)
    player = PolicyPlayer(_last, Seen)
    assert player.choose(_candidates(options, Seen(options)), rng) == chosen
    untouched = np.random.default_rng(4).random()
    assert (rng.random() != untouched) is drawn  # a single option draws nothing


@pytest.mark.mutation_pin
def test_a_view_of_another_kind_is_refused_naming_both() -> None:
    player = PolicyPlayer(_last, Seen)
    with pytest.raises(TypeError) as info:
        player.choose(_candidates(2, "a hand"), np.random.default_rng(0))
    assert str(info.value) == "not a Seen: str"
