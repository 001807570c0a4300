"""Tried as a player would, on the phone profile: build a 60-card REDLINE arsenal and a Hex
Skirmish army from an empty deck with taps only, and say what it measured.

The site is set up and served as bench/pages.py does (embedded defaults, gunicorn, the
`site` variant unless PLAYER_VARIANT=plain). Debian's Chromium (Playwright), on the phone
profile (390 x 844, CPU slowed 4x, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), signed
in as the demo account:

- REDLINE standard: "New deck" (the name it offers), the general picked in the picker, then
  for each card of the sample list's arsenal: the kind chosen in the search's kind filter and
  "+" tapped once per copy, a tap every PLAYER_GAP_MS (300) ms, as a brisk thumb taps,
  without waiting for the server between taps.
- Hex Skirmish standard: the sample army's units and command cards the same way, then each
  unit placed by tapping it and tapping its hex.

It prints the taps made, the time taken, for every "+" the time until the count is shown in
the page and until the server's answer to it has been swapped in (median and worst), how far
the answers trailed the last tap, and the verdict the page shows at the end.

Run: .venv/bin/python bench/player.py   (needs /usr/bin/chromium; PLAYER_SHOTS=<folder> keeps
screenshots of each stage)
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pages  # noqa: E402  (bench/pages.py: the site set-up and the browser profiles)

from validation.packages import sample_list  # noqa: E402  (pages put the root on the path)

GAP_MS = int(os.environ.get("PLAYER_GAP_MS", "300"))
VARIANT = os.environ.get("PLAYER_VARIANT", "site")
#: A folder to save the phone's screen in at each stage (empty deck, half built, built,
#: placed), to look at what the player saw; none by default.
SHOTS = os.environ.get("PLAYER_SHOTS", "")

# Installed in the page: each tap's time until the count is shown (the section counter
# moves) and, in tap order, until the server's answer to it has settled.
INSTRUMENT_JS = """() => {
  if (window.__player) return;
  const p = window.__player = {pending: [], shown: [], answered: [], lastTap: 0, lastAnswer: 0};
  document.body.addEventListener('htmx:afterSettle', (e) => {
    const path = e.detail && e.detail.requestConfig && e.detail.requestConfig.path || '';
    if (!path.includes('/build/change/') && !path.includes('/build/quick/')) return;
    const t0 = p.pending.shift();
    const now = performance.now();
    if (t0 !== undefined) p.answered.push(now - t0);
    p.lastAnswer = now;
  });
  p.tap = (button, section) => {
    const counter = document.querySelector('#head-' + section + ' .b-counter')
      || document.querySelector('.b-section[data-section="' + section + '"] .b-counter');
    const before = counter ? counter.getAttribute('data-total') : null;
    const t0 = performance.now();
    p.pending.push(t0);
    p.lastTap = t0;
    button.click();
    const frame = () => {
      const now = document.querySelector('#head-' + section + ' .b-counter')
        || document.querySelector('.b-section[data-section="' + section + '"] .b-counter');
      if (now && now.getAttribute('data-total') !== before) { p.shown.push(performance.now() - t0); return; }
      if (performance.now() - t0 > 10000) { p.shown.push(null); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  };
}"""


def read_list(game: str, fmt: str) -> dict[str, list[tuple[str, int, str]]]:
    """Section heading -> [(card, count, hex)] of a sample list."""
    out: dict[str, list[tuple[str, int, str]]] = {}
    section = None
    for line in sample_list(game, fmt).text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith(":"):
            section = line[:-1].lower()
            out[section] = []
            continue
        m = re.match(r"(\d+) (.+?)(?: \(\w+\))?(?: @(\d+,\d+))?$", line)
        out[section].append((m.group(2), int(m.group(1)), m.group(3) or ""))
    return out


class Player:
    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, locator) -> None:
        locator.click()
        self.taps += 1

    def choose(self, select: str, value: str) -> None:
        """A select opened and an option picked: two taps."""
        self.page.select_option(select, value)
        self.taps += 2

    def settle(self) -> None:
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
            " && (!window.__player || window.__player.pending.length === 0)",
            timeout=120_000,
        )

    def new_deck(self, game: str, fmt: str) -> None:
        self.page.goto("/build/new/")
        self.tap(self.page.locator(f'a[href="/build/{game}/{fmt}/new/"]'))
        self.tap(self.page.locator("form.panel button[type=submit]"))
        self.page.wait_for_load_state("load")
        self.page.wait_for_function("() => window.htmx !== undefined")
        self.page.evaluate(INSTRUMENT_JS)

    def show_kind(self, kind: str) -> None:
        if self.page.eval_on_selector('#search-form select[name="kind"]', "s => s.value") == kind:
            return
        self.choose('#search-form select[name="kind"]', kind)
        self.settle()

    def plus(self, card: str, section: str, copies: int) -> None:
        row = self.page.locator(f'tr.b-result[data-card="{card}"]')
        while row.count() == 0:
            more = self.page.locator("#search-results .b-next")
            if more.count() == 0:
                raise RuntimeError(f"{card} is not in the search results")
            self.tap(more)
            self.settle()
        button = row.locator(f'.b-target[data-section="{section}"] button.b-btn:not(.minus)')
        button.scroll_into_view_if_needed()
        for _ in range(copies):
            button.evaluate("(b, s) => window.__player.tap(b, s)", section)
            self.taps += 1
            self.page.wait_for_timeout(GAP_MS)

    def shot(self, name: str) -> None:
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))

    def figures(self) -> dict:
        return self.page.evaluate(
            "() => ({shown: __player.shown, answered: __player.answered,"
            " trail: __player.lastAnswer - __player.lastTap})"
        )


def kinds_of(page, game: str) -> dict[str, str]:
    """Card name -> kind, read from the catalogue API (what the player sees on each card)."""
    out, url = {}, f"/api/cards/?game={game}&page_size=200"
    while url:
        body = page.request.get(url).json()
        for card in body.get("results", []):
            out[card["name"]] = card["kind"]
        url = body.get("next")
    return out


def build(
    player: Player, game: str, fmt: str, plan: list[tuple[str, str, int, str]], general: str | None
) -> dict:
    kinds = kinds_of(player.page, game)
    start = time.monotonic()
    player.new_deck(game, fmt)
    if general:
        # The general first, picked in the builder's picker.
        player.choose("#general-picker", general)
        player.settle()
    player.shot(f"{game}-0-empty")
    ordered = sorted(plan, key=lambda p: kinds.get(p[1], ""))
    for n, (section, card, count, _hex) in enumerate(ordered):
        player.show_kind(kinds[card])
        player.plus(card, section, count)
        if n == len(ordered) // 2:
            player.shot(f"{game}-1-half")
    player.settle()
    player.shot(f"{game}-2-built")
    figures = player.figures()
    placed = 0
    for _section, card, _count, hex_ in plan:
        if not hex_:
            continue
        c, r = hex_.split(",")
        player.tap(player.page.locator(f'[data-placement-unit][data-card="{card}"]'))
        player.tap(player.page.locator(f'svg.placement-map .cell[data-c="{c}"][data-r="{r}"]'))
        player.settle()
        placed += 1
    if placed:
        player.shot(f"{game}-3-placed")
    seconds = time.monotonic() - start
    verdict = player.page.locator("#verdict .verdict").inner_text()
    counters = player.page.eval_on_selector_all(
        ".b-section h3", "hs => hs.map(h => h.textContent.replace(/\\s+/g, ' ').trim())"
    )
    return {
        "figures": figures,
        "seconds": seconds,
        "verdict": verdict,
        "sections": counters,
        "placed": placed,
    }


def _ms(values) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    return f"median {statistics.median(values):.0f} ms, worst {max(values):.0f} ms"


def main() -> int:
    from playwright.sync_api import sync_playwright

    redline = read_list("redline", "standard")
    hexes = read_list("hex-skirmish", "standard")
    plans = {
        "REDLINE standard, a 60-card arsenal": (
            "redline",
            "standard",
            [("arsenal", c, n, h) for c, n, h in redline["arsenal"]],
            redline["general"][0][0],
        ),
        "Hex Skirmish standard, an army": (
            "hex-skirmish",
            "standard",
            [("units", c, n, h) for c, n, h in hexes["units"]]
            + [("cards", c, n, h) for c, n, h in hexes["cards"]],
            None,
        ),
    }
    with tempfile.TemporaryDirectory(prefix="cardsite-player-") as data_dir:
        print(f"setting up the site ({VARIANT})…", flush=True)
        env = pages.base_env(data_dir)
        pages.manage(env, "migrate", "--noinput", "-v0")
        pages.manage(env, "load_sample_data")
        pages.manage(env, "ensure_demo_user")
        env = dict(env, **pages.VARIANTS[VARIANT])
        pages.manage(env, "collectstatic", "--noinput", "--clear", "-v0")
        proc, port = pages.serve(env)
        base_url = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=pages.CHROMIUM, headless=True, args=pages.CHROMIUM_ARGS
                )
                state = pages.signed_in_state(browser, base_url)
                for title, (game, fmt, plan, general) in plans.items():
                    context, page = pages.new_context(
                        browser, base_url, pages.PROFILES["phone"], state
                    )
                    page.set_default_timeout(60_000)
                    player = Player(page)
                    out = build(player, game, fmt, plan, general)
                    f = out["figures"]
                    print(f"\n== {title} (phone profile, {VARIANT}, a tap every {GAP_MS} ms)")
                    print(f"  taps: {player.taps} in {out['seconds']:.1f} s")
                    print(f"  '+' until the count is shown: {_ms(f['shown'])}")
                    print(f"  '+' until its answer is swapped in: {_ms(f['answered'])}")
                    print(f"  last answer after the last '+': {f['trail']:.0f} ms")
                    if out["placed"]:
                        print(f"  units placed on their hexes: {out['placed']}")
                    print(f"  sections: {'; '.join(out['sections'])}")
                    print(f"  verdict shown: {out['verdict']}")
                    context.close()
                browser.close()
        finally:
            pages.stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
