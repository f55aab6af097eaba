"""The card faces: one SVG per card token (docs/rules/NOTATION.md) in static/ui/cards/.

Run ``python -m ui.card_faces`` after changing a face; the files are committed, and
tests/ui/test_card_faces.py checks they are what this script writes. Standard library only.

What a face must do (issue 32): be read in the narrow strip a fanned hand leaves of it, so
the corner index is large (rank over suit, top left, and again turned at the bottom right);
red hearts and diamonds, black spades and clubs; the two jokers apart at a glance (大王 in
red and gold, 小王 in black and grey, their names stacked in the corner); suits drawn as
paths, never as font glyphs (a phone may draw ♥ as an emoji).
"""

import sys
from math import cos, pi, sin
from pathlib import Path

W, H = 200, 280
RED, BLACK = "#c0141c", "#151515"
SUITS = {"S": ("spades", "♠", BLACK), "H": ("hearts", "♥", RED),
         "C": ("clubs", "♣", BLACK), "D": ("diamonds", "♦", RED)}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
FONT = "'DejaVu Serif', Georgia, 'Times New Roman', serif"
CJK = "'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'WenQuanYi Zen Hei', sans-serif"
OUT = Path(__file__).resolve().parents[1] / "static" / "ui" / "cards"

# Each suit in a 100 × 100 box centred on (50, 50).
PIPS = {
    "H": "M50 92 C38 78 6 60 6 34 C6 18 18 8 31 8 C40 8 47 14 50 22 "
         "C53 14 60 8 69 8 C82 8 94 18 94 34 C94 60 62 78 50 92 Z",
    "D": "M50 4 C62 22 76 38 90 50 C76 62 62 78 50 96 C38 78 24 62 10 50 C24 38 38 22 50 4 Z",
    "S": "M50 4 C62 24 94 42 94 64 C94 78 83 86 71 86 C62 86 56 81 53 75 "
         "C54 84 58 92 66 96 L34 96 C42 92 46 84 47 75 C44 81 38 86 29 86 "
         "C17 86 6 78 6 64 C6 42 38 24 50 4 Z",
    "C": "M50 6 C63 6 72 16 72 28 C72 36 68 42 63 46 C67 44 71 43 75 43 "
         "C87 43 96 52 96 64 C96 76 87 85 75 85 C65 85 57 79 53 71 "
         "C54 82 58 90 66 96 L34 96 C42 90 46 82 47 71 C43 79 35 85 25 85 "
         "C13 85 4 76 4 64 C4 52 13 43 25 43 C29 43 33 44 37 46 C32 42 28 36 28 28 "
         "C28 16 37 6 50 6 Z",
}

# Where the pips of 2 … 10 go: (x, y) in the face's box, the lower half turned over.
_COL = (77, 100, 123)
_ROW = (52, 84, 111, 140, 169, 196, 228)


def _layout(rank):
    left, mid, right = _COL
    top, upper, high, centre, low, lower, bottom = _ROW
    sides = [(left, top), (right, top), (left, bottom), (right, bottom)]
    table = {
        "2": [(mid, top), (mid, bottom)],
        "3": [(mid, top), (mid, centre), (mid, bottom)],
        "4": sides,
        "5": sides + [(mid, centre)],
        "6": sides + [(left, centre), (right, centre)],
        "7": sides + [(left, centre), (right, centre), (mid, upper)],
        "8": sides + [(left, centre), (right, centre), (mid, upper), (mid, lower)],
        "9": sides + [(left, high), (right, high), (left, low), (right, low), (mid, centre)],
        "10": sides + [(left, high), (right, high), (left, low), (right, low), (mid, upper), (mid, lower)],
    }
    return table[rank]


def pip(suit, x, y, size, colour=None, turned=False):
    """The suit's path scaled to `size`, centred on (x, y); turned upside down below the middle."""
    s = size / 100
    turn = " rotate(180 50 50)" if turned else ""
    return (f'<path d="{PIPS[suit]}" fill="{colour or SUITS[suit][2]}" '
            f'transform="translate({x - size / 2:g} {y - size / 2:g}) scale({s:g}){turn}"/>')


def corner(rank, suit):
    """The index: the rank over the suit, big enough to read in a fanned hand's strip."""
    colour = SUITS[suit][2]
    fit = ' textLength="58" lengthAdjust="spacingAndGlyphs"' if rank == "10" else ""
    return (f'<text x="36" y="64" text-anchor="middle" font-family="{FONT}" font-size="66" '
            f'font-weight="700" fill="{colour}"{fit}>{rank}</text>' + pip(suit, 36, 96, 44))


def both_corners(inner):
    return f'<g>{inner}</g><g transform="rotate(180 {W / 2} {H / 2})">{inner}</g>'


def court(rank, suit):
    """J, Q, K: a framed panel with the letter and the suit, in the suit's colour."""
    colour = SUITS[suit][2]
    tint = "#fbe3e3" if colour == RED else "#e3e8f4"
    band = "#e0a526"
    crown = {
        "K": "M76 92 L84 70 L94 84 L100 64 L106 84 L116 70 L124 92 Z",
        "Q": "M80 92 L86 74 L100 84 L114 74 L120 92 Z",
        "J": "M84 92 L88 76 L112 76 L116 92 Z",
    }[rank]
    return (f'<rect x="62" y="50" width="76" height="180" rx="8" fill="{tint}" stroke="{colour}" stroke-width="3"/>'
            f'<rect x="67" y="55" width="66" height="170" rx="5" fill="none" stroke="{band}" stroke-width="2"/>'
            f'<path d="{crown}" fill="{band}" stroke="{colour}" stroke-width="2"/>'
            f'<text x="100" y="160" text-anchor="middle" font-family="{FONT}" font-size="72" '
            f'font-weight="700" fill="{colour}">{rank}</text>' + pip(suit, 100, 196, 34))


def centre(rank, suit):
    if rank == "A":
        return pip(suit, 100, 140, 96 if suit == "S" else 84)
    if rank in ("J", "Q", "K"):
        return court(rank, suit)
    return "".join(pip(suit, x, y, 33, turned=y > 140) for x, y in _layout(rank))


def suit_card(token):
    suit, rank = token[0], token[1:]
    name, glyph, _ = SUITS[suit]
    title = f"{RANK_NAMES.get(rank, rank)} of {name} ({rank}{glyph})"
    body = centre(rank, suit) + both_corners(corner(rank, suit))
    return _svg(token, title, "#fff", "#8d939b", body)


def joker(token):
    """大王 (BJ) red and gold; 小王 (LJ) black and grey: told apart by word and by colour."""
    big = token == "BJ"
    word = "大王" if big else "小王"
    ink, fill, ground = (RED, "#f2b705", "#fff8e6") if big else (BLACK, "#8a8f98", "#f3f4f6")
    star = _star(100, 138, 46, 19)
    index = (f'<text x="36" y="58" text-anchor="middle" font-family="{CJK}" font-size="50" '
             f'font-weight="700" fill="{ink}">{word[0]}</text>'
             f'<text x="36" y="112" text-anchor="middle" font-family="{CJK}" font-size="50" '
             f'font-weight="700" fill="{ink}">{word[1]}</text>')
    body = (f'<path d="{star}" fill="{fill}" stroke="{ink}" stroke-width="5" stroke-linejoin="round"/>'
            f'<circle cx="100" cy="140" r="9" fill="{ink}"/>'
            f'<text x="100" y="218" text-anchor="middle" font-family="{CJK}" font-size="34" '
            f'font-weight="700" fill="{ink}">{word}</text>'
            f'<text x="100" y="80" text-anchor="middle" font-family="{FONT}" font-size="17" '
            f'font-weight="700" letter-spacing="2" fill="{ink}">JOKER</text>'
            + both_corners(index))
    title = f"{word} {'big' if big else 'little'} joker"
    return _svg(token, title, ground, ink if big else "#8d939b", body)


def _star(cx, cy, outer, inner):
    points = []
    for k in range(10):
        r, a = (outer if k % 2 == 0 else inner), -pi / 2 + k * pi / 5
        points.append(f"{cx + r * cos(a):.1f} {cy + r * sin(a):.1f}")
    return "M" + " L".join(points) + " Z"


def _svg(token, title, ground, edge, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
            f'role="img" aria-label="{title}" data-card="{token}">'
            f'<title>{title}</title>'
            f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="14" fill="{ground}" '
            f'stroke="{edge}" stroke-width="3"/>{body}</svg>\n')


def tokens():
    return [s + r for s in SUITS for r in RANKS] + ["LJ", "BJ"]


def face(token):
    return joker(token) if token in ("LJ", "BJ") else suit_card(token)


def write(out=OUT):
    out.mkdir(parents=True, exist_ok=True)
    for token in tokens():
        (out / f"{token}.svg").write_text(face(token), encoding="utf-8")
    return out


if __name__ == "__main__":
    print(write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
