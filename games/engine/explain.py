"""A finished hand's result as steps a newcomer can follow: the view's ``result_steps`` and
``result_seats`` (views.public_view, once the hand has ended).

``result_steps`` goes from the points the defenders took in tricks (the figure the table
showed all hand) through every bonus or penalty that changed that total (a kitty, the last
trick's 扣底, a special hand) to the score table's verdict; ``result_seats`` says of each
seat what its win or loss in base stakes is made of. Each entry is a ``kind`` with its
figures, which the page puts in words of its language: every figure, the factors and
thresholds of the rules included, comes from here, so the page holds no rule. The machine's
hooks (``total_steps``, ``result_steps``, ``result_seats``) give each variant its own
steps; these are the parts they share.
"""

_THRESHOLDS: dict = {}


def result_steps(m, state):
    """The steps of a hand ended by its last trick, in a game whose teams climb levels:
    the trick points, what the variant adds to them, the score table's verdict; none for
    an escape (the page names the escaper)."""
    result = state["result"]
    if result["escape"] is not None:
        return []
    return [trick_points(result), *m.total_steps(result), level_score(m.variant, result)]


def trick_points(result):
    return {"kind": "trick_points", "points": result["trick_points"]}


def level_score(variant, result):
    """The score table's verdict on the defenders' total: who won, with the table's figure
    the defenders needed, the levels settled and how far the winners' level moves."""
    if result["winner"] == "dealer":
        kind = "score_dealer"
    elif result["levels"]:
        kind = "score_defenders"
    else:
        kind = "score_take_deal"  # guigang's 160–235: the deal passes, nobody moves or pays
    return {"kind": kind, "points": result["defender_points"], "need": defenders_need(variant),
            "levels": result["levels"], "advance": result["advance"]}


def defenders_need(variant):
    """The least total with which the defenders win, read off the variant's own score
    table (totals are multiples of 5, RULES §1.2), so no threshold is written twice."""
    need = _THRESHOLDS.get(variant.id)
    if need is None:
        need = next(x for x in range(0, 4 * variant.points_total, 5)
                    if variant.score(x)[0] == "defenders")
        _THRESHOLDS[variant.id] = need
    return need


def level_seats(state):
    """Each seat's part of a hand settled by levels (RULES §2.10): the winners' side gains
    and the losers' side pays ``levels`` base stakes each; an escape as ``escape_seats``."""
    result = state["result"]
    if result["escape"] is not None:
        return escape_seats(result)
    levels = result["levels"]
    return [{"kind": "levels_won" if d > 0 else "levels_lost" if d < 0 else "nothing",
             "levels": levels} for d in result["deltas"]]


def escape_seats(result):
    """The escaper pays, those the rules pay are paid, the others are not part of it; in
    base stakes, ``times`` each (RULES §2.10, A29)."""
    escaper = result["escape"]
    return [{"kind": "escaped" if seat == escaper else "escape_paid" if d > 0 else "nothing",
             "times": abs(d)} for seat, d in enumerate(result["deltas"])]


def kitty_steps(result, counted, not_counted):
    """A kitty's step: ``counted`` (its points × the multiplier added to the trick points)
    when it counted, else ``not_counted`` (its points left out); none for a kitty without
    points."""
    kitty, m = result["kitty_points"], result["kitty_multiplier"]
    if not kitty:
        return []
    if not m:
        return [{"kind": not_counted, "kitty": kitty}]
    before = result["trick_points"]
    return [{"kind": counted, "kitty": kitty, "m": m, "bonus": kitty * m, "before": before,
             "total": before + kitty * m}]
