"""Charts for the profile page, drawn as inline SVG on the server (no script, no library).

    {% load stats_charts %}
    {% balance_chart user %}   the balance after each of the latest ledger movements
    {% results_chart user %}   hands won, lost and drawn per variant
    {% rating_charts user %}   the rating per variant, and its course over the rated hands
"""

from django import template

from games.variants import variant_ids
from stats import ratings
from stats.models import ALL_VARIANTS
from stats.selectors import balance_series, player_ratings, player_stats_list, rating_history

register = template.Library()

WIDTH, HEIGHT, PAD_LEFT, PAD_RIGHT, PAD_Y = 600, 180, 56, 12, 20
BAR_HEIGHT, BAR_GAP, LABEL_WIDTH = 18, 10, 90


@register.inclusion_tag("ui/charts/balance_chart.html")
def balance_chart(user, limit=200):
    series = balance_series(user=user, limit=limit)
    if len(series) < 2:
        return {"empty": True, "points": series}
    balances = [b for _, b in series]
    low, high = min(balances), max(balances)
    span = (high - low) or 1
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - 2 * PAD_Y
    step = plot_w / (len(series) - 1)
    coords = [
        (PAD_LEFT + i * step, PAD_Y + plot_h - (b - low) / span * plot_h)
        for i, (_, b) in enumerate(series)
    ]
    return {
        "empty": False,
        "width": WIDTH, "height": HEIGHT, "left": PAD_LEFT, "right": WIDTH - PAD_RIGHT,
        "top": PAD_Y, "bottom": HEIGHT - PAD_Y,
        "polyline": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
        "last_x": f"{coords[-1][0]:.1f}", "last_y": f"{coords[-1][1]:.1f}",
        "low": low, "high": high, "current": balances[-1],
        "first_at": series[0][0], "last_at": series[-1][0], "count": len(series),
    }


@register.inclusion_tag("ui/charts/results_chart.html")
def results_chart(user):
    rows = [s for s in player_stats_list(user=user) if s.variant != ALL_VARIANTS]
    if not rows:
        return {"empty": True}
    most = max(s.hands_played for s in rows)
    plot_w = WIDTH - LABEL_WIDTH - 120
    bars = []
    for n, s in enumerate(rows):
        scale = plot_w / most
        drawn = s.hands_played - s.hands_won - s.hands_lost
        won_w, lost_w, drawn_w = s.hands_won * scale, s.hands_lost * scale, drawn * scale
        bars.append({
            "variant": s.variant, "y": n * (BAR_HEIGHT + BAR_GAP),
            "text_y": n * (BAR_HEIGHT + BAR_GAP) + BAR_HEIGHT - 5,
            "won_w": f"{won_w:.1f}", "lost_x": f"{LABEL_WIDTH + won_w:.1f}",
            "lost_w": f"{lost_w:.1f}", "drawn_x": f"{LABEL_WIDTH + won_w + lost_w:.1f}",
            "drawn_w": f"{drawn_w:.1f}",
            "end_x": f"{LABEL_WIDTH + won_w + lost_w + drawn_w + 6:.1f}",
            "won": s.hands_won, "lost": s.hands_lost, "played": s.hands_played,
            "win_rate": s.win_rate, "points_net": s.points_net,
        })
    return {"empty": False, "bars": bars, "width": WIDTH, "label_width": LABEL_WIDTH,
            "bar_height": BAR_HEIGHT, "height": len(rows) * (BAR_HEIGHT + BAR_GAP)}


@register.inclusion_tag("ui/charts/rating_charts.html")
def rating_charts(user, limit=200):
    """One chart per variant the player is rated in: the shown rating before their first
    charted hand, then after each (at most the last `limit`), with the lowest and highest
    marked; the current number and whether it is still provisional."""
    charts = []
    for rating in player_ratings(user=user, variants=variant_ids()):
        history = rating_history(user=user, variant=rating.variant, limit=limit)
        values = [ratings.shown(history[0].mu_before, history[0].sigma_before)] if history else []
        values += [change.shown for change in history]
        chart = {"rating": rating, "count": len(history), "empty": len(values) < 2}
        if not chart["empty"]:
            low, high = min(values), max(values)
            span = (high - low) or 1
            plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - 2 * PAD_Y
            step = plot_w / (len(values) - 1)
            coords = [(PAD_LEFT + i * step, PAD_Y + plot_h - (v - low) / span * plot_h)
                      for i, v in enumerate(values)]
            chart.update({
                "width": WIDTH, "height": HEIGHT, "left": PAD_LEFT, "right": WIDTH - PAD_RIGHT,
                "top": PAD_Y, "bottom": HEIGHT - PAD_Y, "low": low, "high": high,
                "polyline": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
                "dots": [{"x": f"{x:.1f}", "y": f"{y:.1f}"} for x, y in coords[1:]],
                "first_at": history[0].at, "last_at": history[-1].at,
            })
        charts.append(chart)
    return {"charts": charts, "provisional_hands": ratings.PROVISIONAL_HANDS}
