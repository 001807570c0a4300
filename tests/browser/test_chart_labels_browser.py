"""Chart axis labels never overlap one another or the axis title, and stay inside the
chart, whatever the number and length of the categories (drawn in Chromium and measured)."""

from __future__ import annotations

import pytest

from simulations import charts
from validation.charts import bar_chart

pytestmark = pytest.mark.browser

# Each drawing of the chart (simulations.charts draws a wide and a narrow one; without the
# site's style sheet both are shown) is checked on its own: its texts' boxes must not meet,
# and must stay inside it. Upright texts: their boxes must not meet. Slanted labels (all
# slanted alike): their boxes may meet, so they must stand a line apart across the slant
# (the distance between two anchors × sin 35°), and each must still meet no upright text.
OVERLAPS = """() => {
  const out = [];
  for (const svg of document.querySelectorAll("svg")) {
  const boxes = Array.from(svg.querySelectorAll("text")).map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom,
            slant: (t.getAttribute("transform") || "").includes("rotate(-35"),
            x: parseFloat(t.getAttribute("x")), h: t.getBBox().height};
  });
  const box = svg.getBoundingClientRect();
  boxes.forEach((a, i) => {
    if (a.l < box.left - 1 || a.r > box.right + 1 || a.t < box.top - 1 || a.b > box.bottom + 1)
      out.push("outside: " + a.text);
    boxes.slice(i + 1).forEach((b) => {
      if (a.slant && b.slant) return;
      if (a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1)
        out.push(a.text + " / " + b.text);
    });
  });
  const slanted = boxes.filter((b) => b.slant);
  for (let i = 1; i < slanted.length; i++) {
    const apart = (slanted[i].x - slanted[i - 1].x) * Math.sin(35 * Math.PI / 180);
    if (apart < slanted[i].h * 0.9) out.push("crowded: " + slanted[i].text);
  }
  }
  return out;
}"""

CASES = {
    "few short": [str(n) for n in range(1, 8)],
    "many numbers": [str(n) for n in range(0, 61)],
    "long names": [f"Opening with card number {n}" for n in range(1, 13)],
    "medium names": ["Turn 1", "Turn 2", "Turn 3", "Turn 4", "Turn 5", "Turn 6", "Turn 7"],
    "two long": ["A very long category name", "Another long category name"],
}


@pytest.mark.parametrize("case", list(CASES))
def test_axis_labels_do_not_overlap(browser, case):
    categories = CASES[case]
    spec = bar_chart(
        "c",
        "Title",
        categories,
        [0.5] * len(categories),
        x_label="The x axis title",
        y_label="Share of games",
    )
    page = browser.new_page(viewport={"width": 600, "height": 400})
    try:
        page.set_content(f"<!doctype html><body style='margin:0'>{charts.render(spec)}</body>")
        # The y axis ticks' texts sit in their own column: only the x labels and titles count.
        assert page.evaluate(OVERLAPS) == []
    finally:
        page.close()
