"""Every card token has a face (static/ui/cards/<token>.svg, written by ui/card_faces.py):
54 files, each a valid SVG naming its card, the same as the generator writes now."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games.engine.cards import TOKENS
from ui import card_faces

CARDS = Path(__file__).resolve().parents[2] / "static" / "ui" / "cards"
SVG = "{http://www.w3.org/2000/svg}"
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


def all_tokens():
    tokens = TOKENS.values() if isinstance(TOKENS, dict) else TOKENS
    return sorted(set(tokens))


def test_one_face_per_token_and_no_other():
    assert len(all_tokens()) == 54
    assert sorted(path.stem for path in CARDS.glob("*.svg")) == all_tokens()
    assert sorted(card_faces.tokens()) == all_tokens()


@pytest.mark.parametrize("token", all_tokens())
def test_face_is_svg_naming_its_card(token):
    root = ET.parse(CARDS / f"{token}.svg").getroot()
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == "0 0 200 280"
    assert root.get("data-card") == token
    title = root.find(SVG + "title").text
    texts = [t.text for t in root.iter(SVG + "text")]
    if token in ("BJ", "LJ"):
        word = "大王" if token == "BJ" else "小王"
        assert word in title and word in texts
        # The corner index spells the name too, one character over the other.
        assert list(word) == texts[-2:]
    else:
        suit, rank = token[0], token[1:]
        assert SUIT_NAMES[suit] in title and f"({rank}" in title
        assert texts.count(rank) >= 2          # both corner indices
        colour = card_faces.RED if suit in "HD" else card_faces.BLACK
        assert all(p.get("fill") == colour for p in root.iter(SVG + "path")
                   if p.get("d") == card_faces.PIPS[suit])


def test_jokers_differ_in_colour():
    big = (CARDS / "BJ.svg").read_text()
    little = (CARDS / "LJ.svg").read_text()
    assert card_faces.RED in big and card_faces.RED not in little


def test_committed_faces_are_what_the_generator_writes(tmp_path):
    card_faces.write(tmp_path)
    for token in all_tokens():
        assert (tmp_path / f"{token}.svg").read_text() == (CARDS / f"{token}.svg").read_text(), token
