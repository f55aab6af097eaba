"""rules_check's evaluation: every published case file with an engine behind it passes,
and bad input gets the contract's error codes in order of precedence."""

import json
from pathlib import Path

import pytest

from games.engine.conformance import check, run_cases
from games.engine.registry import variant_ids

CASES = Path(__file__).resolve().parents[4] / "shared" / "rules" / "cases"


@pytest.mark.parametrize("variant", sorted(variant_ids()))
def test_published_cases_pass(variant):
    path = CASES / f"{variant}.json"
    if not path.exists():
        pytest.fail(f"missing case file {path}")
    cases = json.loads(path.read_text())
    failed = [c["id"] for c, out in zip(cases, run_cases(cases)) if not check(c, out)]
    assert failed == []


ERRORS = [
    ({"id": "e1", "kind": "nope", "variant": "classic"}, "unknown_kind"),
    ({"id": "e2", "kind": "lead", "variant": "tarot", "cards": ["S2"]}, "unknown_variant"),
    ({"id": "e3", "kind": "special", "variant": "classic"}, "not_applicable"),
    ({"id": "e4", "kind": "lead", "variant": "classic", "level": "5", "trump": "H"}, "bad_input"),
    ({"id": "e5", "kind": "lead", "variant": "classic", "level": "5", "trump": "H", "cards": []}, "bad_input"),
    ({"id": "e6", "kind": "lead", "variant": "classic", "level": "5", "trump": "H", "cards": ["S1"]}, "bad_card"),
    ({"id": "e7", "kind": "lead", "variant": "classic", "level": "5", "trump": "X", "cards": ["S2"]}, "bad_trump"),
    ({"id": "e8", "kind": "lead", "variant": "classic", "trump": "H", "cards": ["S2"]}, "bad_level"),
    ({"id": "e9", "kind": "lead", "variant": "classic", "level": "1", "trump": "H", "cards": ["S2"]}, "bad_level"),
    (
        {"id": "e10", "kind": "lead", "variant": "classic", "level": "5", "trump": "H", "cards": ["S2", "S2", "S2"]},
        "impossible_cards",
    ),
    (
        {"id": "e11", "kind": "follow", "variant": "classic", "level": "5", "trump": "H",
         "lead": ["SA", "H3"], "hand": ["S3", "S4"], "play": ["S3", "S4"]},
        "illegal_lead",
    ),
    (
        {"id": "e12", "kind": "follow", "variant": "classic", "level": "5", "trump": "H",
         "lead": ["SA"], "hand": ["S3", "S4"], "play": ["S5"]},
        "play_not_in_hand",
    ),
    (
        {"id": "e13", "kind": "winner", "variant": "classic", "level": "5", "trump": "H",
         "plays": [["SA"], ["S3"], ["S4"]]},
        "bad_input",
    ),
    (
        {"id": "e14", "kind": "winner", "variant": "classic", "level": "5", "trump": "H",
         "plays": [["SA"], ["S3"], ["S4"], ["S6", "S7"]]},
        "bad_input",
    ),
    # bad_input outranks bad_card
    ({"id": "e15", "kind": "throw", "variant": "classic", "level": "5", "trump": "H", "cards": ["S1"]}, "bad_input"),
    (
        {"id": "e16", "kind": "throw", "variant": "classic", "level": "5", "trump": "H",
         "cards": ["SA", "SK"], "hand": ["SA"], "others": [[], [], []]},
        "play_not_in_hand",
    ),
    ({"id": "e17", "kind": "declare", "variant": "classic", "level": "5", "first_hand": False, "declarations": []}, "bad_input"),
    ({"id": "e18", "kind": "settle", "variant": "classic", "base": 0, "dealer": 0, "winner": "dealer", "levels": 1}, "bad_input"),
    ({"id": "e19", "kind": "score", "variant": "classic", "defender_points": "80"}, "bad_input"),
]


@pytest.mark.parametrize("case, code", ERRORS, ids=[c["id"] for c, _ in ERRORS])
def test_error_codes(case, code):
    assert run_cases([case]) == [{"id": case["id"], "error": code}]


def test_result_is_independent_of_other_cases_and_order():
    cases = json.loads((CASES / "classic.json").read_text())
    forward = run_cases(cases)
    backward = run_cases(list(reversed(cases)))
    assert forward == list(reversed(backward))


def test_a_special_hand_of_the_wrong_size_is_bad_input_before_its_tokens():
    case = {"id": "s", "kind": "special", "variant": "point_bid", "trump": "H", "hand": ["S1", "S2"]}
    assert run_cases([case]) == [{"id": "s", "error": "bad_input"}]
