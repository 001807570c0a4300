"""What a phone (390 px) and a desktop (1440 px) show is readable and whole: the builder's "+"
and "−" are a finger's size on the phone; every chart's text is at least 12 px as drawn,
inside its chart, and its axes have a tick for every category, labelled at a regular step
(every name, numbers every 1st, 2nd, 5th… value) and values at even steps; a tool's table
fits the screen; a checkbox's help sits under its label, never beside the box as a chip.

The charts measured: every run page (each game's goldfish and each tool's background run),
every tool's answer with a chart or a board, the deck page and the builder (cost curve)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from validation.registry import registry

from .support import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 1440, "height": 900}, {"width": 390, "height": 844}]
PASSWORD = "a-long-pass-123"

#: Tool answers with a chart, a board or a table: (game, tool, query). (Close combat answers
#: a form sent by POST: its chart and table are measured on its run's page.)
TOOL_ANSWERS = [
    ("tactical-assault", "combat-odds", "attacker=Infantry&target=Armored&attack=firepower"),
    ("tactical-assault", "combat-odds", "attacker=Infantry&target=Armored&attack=close_combat"),
    ("red-code", "crew", "ship=Barracuda&distance=2"),
    ("red-code", "visual-field", "seed=7&x=1&y=1"),
]


@pytest.fixture
def site(browser, live_server, live_catalogue, django_user_model):
    """The demo account with the sample decks, one finished run of every simulation kind
    (worked inline), signed in."""
    from decks.models import Deck
    from simulations import kinds, services
    from simulations.services import simulation_run_chunk

    user = django_user_model.objects.create_user("demo", "demo@example.com", PASSWORD)
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    runs, decks = [], []
    for game in registry.all():
        deck = Deck.objects.filter(owner=user, game__slug=game.slug).order_by("pk").first()
        decks.append(deck)
        for kind in kinds.for_game(game.slug):
            if kind.needs_deck and deck is None:
                continue
            params = kind.defaults()
            if "games" in params:
                params["games"] = 200
            run = services.simulation_start(
                owner=user,
                kind=kind,
                params=params,
                deck_version=deck.current_version if kind.needs_deck else None,
                seed=3,
            )
            for i in range(run.n_chunks):
                simulation_run_chunk(run_id=run.pk, chunk_index=i, worker="inline")
            runs.append(run.pk)
    assert runs
    return {"runs": runs, "decks": [d for d in decks if d is not None], "url": live_server.url}


def _page(browser, site, size):
    context = browser.new_context(viewport=size, base_url=site["url"])
    context.set_default_timeout(20_000)
    page = context.new_page()
    sign_in(page, "demo", PASSWORD)
    return context, page


#: Every problem of the charts shown on the page (drawings hidden for this width left out);
#: its argument maps a chart's id to its categories, each to be drawn whole.
CHART_PROBLEMS = """(expected) => {
  const out = [];
  const shown = (el) => el.getClientRects().length > 0;
  const svgs = Array.from(document.querySelectorAll("svg")).filter(
    (s) => shown(s) && s.querySelector("text") && !s.closest(".placement-map"));
  for (const svg of svgs) {
    const name = svg.id || svg.getAttribute("class") || "svg";
    const box = svg.getBoundingClientRect();
    const texts = Array.from(svg.querySelectorAll("text")).filter(shown);
    for (const t of texts) {
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < 11.95) out.push(name + ": '" + t.textContent + "' at " + px.toFixed(1) + " px");
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        out.push(name + ": '" + t.textContent + "' cut by the chart's edge");
    }
    if (!svg.classList.contains("chart")) continue;
    // The category axis: a tick for each category, evenly spaced.
    const n = parseInt(svg.dataset.categories, 10);
    const rows = svg.dataset.layout === "rows";
    const ticks = Array.from(svg.querySelectorAll("line.cat-tick"));
    if (ticks.length !== n) { out.push(name + ": " + ticks.length + " ticks for " + n + " categories"); continue; }
    const at = (el) => { const r = el.getBoundingClientRect(); return rows ? (r.top + r.bottom) / 2 : (r.left + r.right) / 2; };
    const pos = ticks.map(at);
    for (let i = 2; i < pos.length; i++)
      if (Math.abs((pos[i] - pos[i - 1]) - (pos[1] - pos[0])) > 0.75) out.push(name + ": tick " + i + " out of step");
    // Labels: every name; numbers at a regular step, on their ticks; none meeting another.
    const labels = Array.from(svg.querySelectorAll("text.cat-label"));
    const words = labels.map((l) => l.querySelector("tspan")
      ? Array.from(l.querySelectorAll("tspan")).map((t) => t.textContent).join(" ") : l.textContent);
    const cats = expected[svg.id.replace(/-narrow$/, "")];
    if (cats) labels.forEach((l, k) => {
      const cat = cats[parseInt(l.dataset.i, 10)];
      if (words[k] !== cat) out.push(name + ": '" + cat + "' drawn as '" + words[k] + "'");
    });
    const numbers = labels.map((l) => /^-?\\d+$/.test(l.textContent) ? parseInt(l.textContent, 10) : null)
      .filter((v) => v !== null);
    const allNamed = svg.querySelectorAll("text.cat-label").length;
    const numbered = numbers.length > 0 && allNamed - numbers.length <= 2;
    if (!numbered && labels.length !== n) out.push(name + ": " + labels.length + " labels for " + n + " names");
    if (numbered && numbers.length > 1) {
      const step = numbers[1] - numbers[0];
      numbers.forEach((v, i) => {
        if (i && v - numbers[i - 1] !== step) out.push(name + ": labels " + numbers[i - 1] + ", " + v + " skip a step of " + step);
        if (v % step) out.push(name + ": label " + v + " is not a multiple of its step " + step);
      });
    }
    for (const l of labels) {
      const i = parseInt(l.dataset.i, 10);
      if (rows && Math.abs(at(l) - pos[i]) > 1) out.push(name + ": '" + l.textContent + "' beside another row");
      if (!rows && l.getAttribute("text-anchor") === "middle" && words.length === n && Math.abs(at(l) - pos[i]) > 1)
        out.push(name + ": '" + l.textContent + "' off its tick");
    }
    const boxes = labels.map((l) => l.getBoundingClientRect());
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        out.push(name + ": '" + words[i] + "' meets '" + words[i + 1 + j] + "'");
    }));
    // The value axis: from 0 at one step, evenly spaced.
    const values = Array.from(svg.querySelectorAll("text.value-tick"));
    const v = values.map((t) => parseFloat(t.dataset.value));
    const vp = values.map((t) => { const r = t.getBoundingClientRect(); return rows ? (r.left + r.right) / 2 : (r.top + r.bottom) / 2; });
    if (v.length < 2 || v[0] !== 0) out.push(name + ": value axis " + v.join(", "));
    for (let i = 2; i < v.length; i++) {
      if (Math.abs((v[i] - v[i - 1]) - (v[1] - v[0])) > 1e-9) out.push(name + ": values " + v.join(", ") + " skip a step");
      if (Math.abs(Math.abs(vp[i] - vp[i - 1]) - Math.abs(vp[1] - vp[0])) > 0.75) out.push(name + ": value ticks out of step");
    }
  }
  return out;
}"""


def _categories(site) -> dict[str, list[str]]:
    """The categories of every xy chart of the runs' pages, by the chart's id."""
    from simulations.models import SimulationRun
    from simulations.services import run_view

    out = {}
    for run in SimulationRun.objects.filter(pk__in=site["runs"]):
        for chart in run_view(run)["charts"]:
            spec = chart["spec"]
            if spec.get("type", "xy") == "xy":
                out[f"chart-run{run.pk}-{spec['id']}"] = [str(c) for c in spec["categories"]]
    return out


def _chart_pages(site) -> list[str]:
    urls = [f"/simulations/{pk}/" for pk in site["runs"]]
    urls += [f"/play/{game}/{tool}/?{query}" for game, tool, query in TOOL_ANSWERS]
    for deck in site["decks"]:
        urls += [f"/decks/{deck.pk}/", f"/decks/{deck.pk}/build/"]
    return urls


@pytest.mark.parametrize("size", SIZES, ids=["1440", "390"])
def test_every_chart_is_readable_whole_and_evenly_ticked(browser, site, size):
    expected = _categories(site)
    assert any(" " in c for cats in expected.values() for c in cats)  # names of words
    context, page = _page(browser, site, size)
    problems, charts = [], 0
    try:
        for url in _chart_pages(site):
            page.goto(url)
            page.wait_for_load_state("load")
            charts += page.evaluate(
                "() => Array.from(document.querySelectorAll('svg text')).filter("
                "t => t.getClientRects().length).length"
            )
            problems += [f"{url}: {p}" for p in page.evaluate(CHART_PROBLEMS, expected)]
    finally:
        context.close()
    assert charts > 100
    assert problems == [], "\n".join(problems[:40])


@pytest.mark.parametrize("size", SIZES, ids=["1440", "390"])
def test_the_builders_plus_and_minus_are_a_fingers_size_on_a_phone(browser, site, size):
    """44 × 44 px at 390 px (a touch target); at 1440 px at least 24 px (WCAG 2.5.8)."""
    smallest = 44 if size["width"] < 700 else 24
    context, page = _page(browser, site, size)
    small = []
    try:
        for deck in site["decks"]:
            page.goto(f"/decks/{deck.pk}/build/")
            page.wait_for_load_state("load")
            sizes = page.evaluate(
                """() => Array.from(document.querySelectorAll('#builder .b-btn'))
                .filter(b => b.getClientRects().length)
                .map(b => { const r = b.getBoundingClientRect();
                  return [b.getAttribute('aria-label'), r.width, r.height]; })"""
            )
            assert len(sizes) > 10, deck.game.slug
            small += [
                f"{deck.game.slug}: {label} {w:.0f}×{h:.0f}"
                for label, w, h in sizes
                if w < smallest - 0.5 or h < smallest - 0.5
            ]
    finally:
        context.close()
    assert small == [], "\n".join(small[:20])


#: The tables of a tool's answer or a run that are wider than their box, and the help texts of
#: checkboxes that are a chip, or stand beside the box instead of under the label.
TOOL_PROBLEMS = """() => {
  const out = [];
  for (const t of document.querySelectorAll("#tool-result table, table.sim-table")) {
    if (!t.getClientRects().length) continue;
    const holder = t.parentElement;
    if (t.getBoundingClientRect().width > holder.clientWidth + 1)
      out.push("table " + (t.id || "") + " is " + Math.round(t.getBoundingClientRect().width) + " px in a box of " + holder.clientWidth);
  }
  for (const f of document.querySelectorAll(".tool-form .field.check")) {
    if (!f.getClientRects().length) continue;
    const label = f.querySelector("label").getBoundingClientRect();
    for (const extra of f.querySelectorAll(".tag")) out.push("a chip beside " + f.textContent.trim());
    for (const help of f.querySelectorAll(".help")) {
      const r = help.getBoundingClientRect();
      if (r.top < label.bottom - 1 || r.left < label.left - 1)
        out.push("help beside the box: " + help.textContent.trim());
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", SIZES, ids=["1440", "390"])
def test_tool_and_run_tables_fit_and_checkbox_help_sits_under_its_label(browser, site, size):
    context, page = _page(browser, site, size)
    problems = []
    try:
        urls = [f"/play/{game}/{tool}/?{query}" for game, tool, query in TOOL_ANSWERS]
        for url in urls + [f"/simulations/{pk}/" for pk in site["runs"]]:
            page.goto(url)
            page.wait_for_load_state("load")
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > size["width"]:
                problems.append(f"{url}: the page is {wide} px wide")
            problems += [f"{url}: {p}" for p in page.evaluate(TOOL_PROBLEMS)]
        # The combat odds form has checkboxes with help; they were measured above.
        page.goto(f"/play/{TOOL_ANSWERS[0][0]}/{TOOL_ANSWERS[0][1]}/?{TOOL_ANSWERS[0][2]}")
        assert page.locator(".tool-form .field.check .help").count() >= 3
        assert page.locator("#odds-table").is_visible()
    finally:
        context.close()
    assert problems == [], "\n".join(problems)
