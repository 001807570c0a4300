"""One parameter parser: `validation.params` reads a form leniently and an API's query as
its schema states the parameters (`strict`), so no app keeps a parser of its own."""

from __future__ import annotations

import pytest

from validation.params import ParamsInvalid, ParamSpec, clean_params

SPECS = (
    ParamSpec("turns", "turns", min=0, max=100, default=5),
    ParamSpec("on_the_play", "on_the_play", "bool", default=True),
)


def test_a_form_is_read_leniently():
    assert clean_params(SPECS, {"turns": " 1,0 ", "on_the_play": "yes"}) == {
        "turns": 10,
        "on_the_play": True,
    }
    assert clean_params(SPECS, {"turns": "", "on_the_play": ""}) == {
        "turns": 5,
        "on_the_play": True,
    }


@pytest.mark.parametrize(
    ("raw", "errors"),
    [
        ({"turns": "5.0"}, {"turns": "turns must be a whole number"}),
        ({"turns": "+5"}, {"turns": "turns must be a whole number"}),
        ({"turns": ""}, {"turns": "turns must be a whole number"}),
        ({"on_the_play": "yes"}, {"on_the_play": "on_the_play must be 1 or 0"}),
        (
            {"on_the_play": "", "turns": "٥"},
            {
                "on_the_play": "on_the_play must be 1 or 0",
                "turns": "turns must be a whole number",
            },
        ),
    ],
)
def test_strict_reads_values_as_a_schema_states_them(raw, errors):
    with pytest.raises(ParamsInvalid) as exc:
        clean_params(SPECS, raw, strict=True)
    assert exc.value.errors == errors


def test_strict_takes_digits_flags_and_bounds_as_ever():
    assert clean_params(SPECS, {"turns": "7", "on_the_play": "0"}, strict=True) == {
        "turns": 7,
        "on_the_play": False,
    }
    assert clean_params(SPECS, {"turns": 3, "on_the_play": False}, strict=True)["turns"] == 3
    with pytest.raises(ParamsInvalid, match="between 0 and 100"):
        clean_params(SPECS, {"turns": "101"}, strict=True)
