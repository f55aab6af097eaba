"""Turn a finished hand's event log into what a replay steps through: the deal, the
kitty, then trick by trick who played what. Pure function of the events."""


def replay_build(events):
    """`events` as from games.selectors.hand_replay_events. Returns a dict with the hands as
    dealt (after the last redeal), the kitty given and buried, the tricks and the result."""
    hands = [[], [], [], []]
    kitty, buried, tricks, trick, result, final_kitty = [], [], [], None, None, []
    declarations = []
    for event in events:
        kind, payload, audience = event["type"], event["payload"], event["audience"]
        if kind == "redeal":
            hands, declarations = [[], [], [], []], []
        elif kind == "dealt" and audience is not None:
            hands[audience].append(payload["card"])
        elif kind in ("declared", "declare", "bid", "trump"):
            declarations.append(dict(payload, type=kind, seat=payload.get("seat", audience)))
        elif kind == "kitty":
            kitty = payload.get("cards", [])
        elif kind == "buried":
            buried = payload.get("cards", [])
        elif kind == "played":
            if trick is None:
                trick = {"leader": payload["seat"], "plays": []}
            trick["plays"].append({"seat": payload["seat"], "cards": payload["cards"]})
        elif kind == "trick_won" and trick is not None:
            trick.update(winner=payload.get("seat"), points=payload.get("points", 0),
                         defender_points=payload.get("defender_points"))
            tricks.append(trick)
            trick = None
        elif kind == "hand_end":
            result = payload.get("result")
            final_kitty = payload.get("kitty", [])
    if trick is not None:  # a hand cut short (an escape) mid-trick
        tricks.append(trick)
    return {"hands": hands, "kitty_received": kitty, "buried": buried,
            "declarations": declarations, "tricks": tricks, "result": result,
            "kitty": final_kitty}
