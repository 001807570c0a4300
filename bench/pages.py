"""Page benchmark: what a player on a desktop and on a phone waits for, in a real Chromium.

It sets up a site on the embedded defaults (SQLite and the filesystem broker, in a temporary
data folder: migrate, the sample data, the demo account, a deck of every game from its sample
list and one finished goldfish run), then serves it with gunicorn as `make run` does, twice in
the same run:

- `site`: as shipped (pages and JSON compressed, static files hashed and cached for good, a
  builder change answered with only what changed),
- `plain`: the baseline, with `COMPRESS_RESPONSES=0`, `STATIC_MANIFEST=0` and
  `BUILDER_FULL_ANSWERS=1` (answers sent as they are, static files under their own names with
  a short cache lifetime, every builder change answered with the whole builder state).

Debian's Chromium (driven by Playwright) loads, for two profiles,

- desktop: 1440 x 900, no throttling,
- phone: 390 x 844, the CPU slowed 4x, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up,

the home page, a catalogue grid, a card page, the builder of every game, a deck page and a
goldfish run page, each PAGES_LOADS (5) times cold (a new browser context: empty cache) and
once warm (the same context again), and prints TTFB, FCP, LCP, CLS, blocking time (the long
tasks' time over 50 ms), requests, bytes on the wire and, warm, the static files that were
revalidated instead of read from the cache. Then the builder's interactions, PAGES_TRIES (10)
tries each: a word typed in the card search (three keypresses 100 ms apart, as a quick thumb
types) until the results for the whole word are shown, timed from the last keypress; "+" on a
deck row until its count is shown and, separately, until the server's answer (the verdict)
has been swapped in; and "-" the same. It also records the size of the builder's answers to
"+" and "-". Each figure is printed beside its target (phone profile) and beside the
baseline's, with the ratio.

Run: .venv/bin/python bench/pages.py   (PAGES_LOADS, PAGES_TRIES, PAGES_PROFILES to change; needs /usr/bin/chromium)
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from validation.packages import sample_lists  # noqa: E402

PY = str(Path(sys.executable))
BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOADS = int(os.environ.get("PAGES_LOADS", "5"))
#: The profiles to measure (PAGES_PROFILES=phone for the phone's figures alone).
ONLY = [p for p in os.environ.get("PAGES_PROFILES", "desktop,phone").split(",") if p]
TRIES = int(os.environ.get("PAGES_TRIES", "10"))
DEMO = ("demo", "demo-cards-2026")

PROFILES = {
    "desktop": {"viewport": {"width": 1440, "height": 900}, "cpu": 1, "network": None},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "cpu": 4,
        "network": {
            "offline": False,
            "latency": 150,
            "downloadThroughput": 1_600_000 / 8,
            "uploadThroughput": 750_000 / 8,
        },
    },
}
VARIANTS = {
    "site": {},
    "plain": {"COMPRESS_RESPONSES": "0", "STATIC_MANIFEST": "0", "BUILDER_FULL_ANSWERS": "1"},
}
# Targets of the phone profile (ms, bytes, counts).
TARGETS = {
    "plus count": 100,
    "plus verdict": 300,
    "minus count": 100,
    "minus verdict": 300,
    "search": 400,
    "builder lcp": 600,
    "builder bytes": 60_000,
    "warm revalidated": 0,
}

# --- The site ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def base_env(data_dir: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(
        CARDSITE_DATA_DIR=data_dir,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        STATIC_ROOT=str(Path(data_dir) / "static"),
        AXES_ENABLED="0",
        THROTTLE_VALIDATE="1000000/min",
        THROTTLE_DECK_WRITE="1000000/min",
        THROTTLE_SIMULATE="1000000/min",
        THROTTLE_SEARCH="1000000/min",
        WEB_CONCURRENCY="2",
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL
    )


def api(port: int, method: str, path: str, body: dict | None = None) -> dict:
    token = base64.b64encode(f"{DEMO[0]}:{DEMO[1]}".encode()).decode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            "Authorization": f"Basic {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"{}")


def serve(env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "-c",
            "python:cardsite.gunicorn_conf",
            "cardsite.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=5)
            return proc, port
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the site did not start") from None
            time.sleep(0.3)


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


def prepare(data_dir: str) -> dict:
    """Migrate, load the sample data, make the demo account, a deck of every game and a
    finished goldfish run; returns the addresses to load."""
    env = base_env(data_dir)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "load_sample_data")
    manage(env, "ensure_demo_user")
    worker = subprocess.Popen(
        [str(BIN / "celery"), "-A", "cardsite", "worker", "--loglevel=WARNING", "--concurrency=1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    proc, port = serve(env)
    try:
        games = api(port, "GET", "/api/games/")
        games = games.get("results", games) if isinstance(games, dict) else games
        builders, deck_page, run_page = {}, None, None
        for game in games:
            slug = game["slug"]
            sample = sample_lists(slug)[0]
            fmt = sample.format
            deck = api(
                port,
                "POST",
                "/api/decks/import/",
                {
                    "game": slug,
                    "format": fmt,
                    "name": f"Bench {slug}",
                    "list": sample.text(),
                },
            )
            builders[slug] = f"/decks/{deck['id']}/build/"
            deck_page = deck_page or f"/decks/{deck['id']}/"
        # One goldfish run of the first game that has one, played to the end.
        for game in games:
            try:
                deck_id = int(builders[game["slug"]].split("/")[2])
                run = api(
                    port,
                    "POST",
                    f"/api/decks/{deck_id}/simulations/",
                    {"kind": f"{game['slug']}-goldfish", "params": {"games": 2000}, "seed": 7},
                )
            except urllib.error.HTTPError:
                continue
            run = run.get("run", run)
            deadline = time.monotonic() + 120
            while run.get("status") not in {"done", "failed", "cancelled"}:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.5)
                run = api(port, "GET", f"/api/simulations/{run['id']}/")
            run_page = f"/simulations/{run['id']}/"
            break
        card = api(port, "GET", f"/api/cards/?game={games[0]['slug']}")
        card = card.get("results", card)[0]
    finally:
        stop(proc)
        stop(worker)
    pages = {
        "home": "/",
        "catalogue grid": f"/cards/{games[0]['slug']}/",
        "card page": f"/cards/{games[0]['slug']}/card/{card['id']}/",
    }
    pages.update({f"builder {slug}": url for slug, url in builders.items()})
    pages["deck page"] = deck_page
    if run_page:
        pages["run page"] = run_page
    return {"pages": pages, "builders": builders}


# --- The browser ---------------------------------------------------------------------------

METRICS_JS = """async () => {
  await new Promise(r => setTimeout(r, 300));
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint');
  const observe = type => new Promise(resolve => {
    try {
      new PerformanceObserver((list, obs) => { resolve(list.getEntries()); obs.disconnect(); })
        .observe({type, buffered: true});
      setTimeout(() => resolve([]), 200);
    } catch (e) { resolve([]); }
  });
  const lcp = await observe('largest-contentful-paint');
  const shifts = await observe('layout-shift');
  const longs = await observe('longtask');
  const resources = performance.getEntriesByType('resource');
  const fcp = paint ? paint.startTime : null;
  return {
    ttfb: nav.responseStart,
    fcp: fcp,
    lcp: lcp.length ? lcp[lcp.length - 1].startTime : fcp,
    cls: shifts.filter(e => !e.hadRecentInput).reduce((a, e) => a + e.value, 0),
    tbt: longs.filter(e => fcp === null || e.startTime >= fcp)
              .reduce((a, e) => a + Math.max(0, e.duration - 50), 0),
    requests: 1 + resources.length,
    bytes: nav.transferSize + resources.reduce((a, e) => a + e.transferSize, 0),
    revalidated: resources.filter(e => e.name.includes('/static/') && e.transferSize > 0).length,
  };
}"""

# One tap and what follows: the time until the row's count shows the new number (a frame
# painted with it) and until the server's answer has been swapped in and settled.
TAP_JS = """async ([selector, row]) => {
  const button = document.querySelector(selector);
  const count = () => { const i = document.querySelector(row + ' .b-count'); return i ? i.value : null; };
  const before = count();
  return await new Promise(resolve => {
    const t0 = performance.now();
    let shown = null, settled = null;
    const done = () => { if (shown !== null && settled !== null) resolve({count: shown, verdict: settled, bytes}); };
    let bytes = null;
    document.body.addEventListener('htmx:afterSettle', (e) => {
      settled = performance.now() - t0;
      const xhr = e.detail && e.detail.xhr;
      const entry = performance.getEntriesByType('resource')
        .filter(r => r.name.includes('/build/change/')).pop();
      bytes = xhr ? {body: new Blob([xhr.responseText]).size,
                     wire: entry ? entry.transferSize : null} : null;
      done();
    }, {once: true});
    const frame = () => {
      if (shown === null && count() !== before) { shown = performance.now() - t0; done(); }
      if (shown === null || settled === null) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    button.click();
    setTimeout(() => resolve({count: shown, verdict: settled, bytes}), 10000);
  });
}"""

# A word typed key by key (100 ms apart); the time from the last keypress until the results
# of the whole word have been swapped in (an answer to an earlier keypress does not count).
SEARCH_JS = """async (word) => {
  const box = document.querySelector('#search-q');
  box.focus();
  box.value = '';
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  let t0 = null;
  const settled = new Promise(resolve => {
    const on = (e) => {
      const xhr = e.detail && e.detail.xhr;
      if (!xhr || !e.detail.target || e.detail.target.id !== 'search-results') return;
      if (new URL(xhr.responseURL).searchParams.get('q') !== word) return;
      document.body.removeEventListener('htmx:afterSettle', on);
      requestAnimationFrame(() => resolve(performance.now() - t0));
    };
    document.body.addEventListener('htmx:afterSettle', on);
    setTimeout(() => resolve(null), 15000);
  });
  for (let i = 0; i < word.length; i++) {
    box.value = word.slice(0, i + 1);
    t0 = performance.now();
    box.dispatchEvent(new Event('input', {bubbles: true}));
    if (i < word.length - 1) await sleep(100);
  }
  return await settled;
}"""


def new_context(browser, base_url: str, profile: dict, state: dict | None):
    context = browser.new_context(
        base_url=base_url,
        viewport=profile["viewport"],
        storage_state=state,
        is_mobile=profile["viewport"]["width"] < 600,
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    if profile["network"]:
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", profile["network"])
    if profile["cpu"] > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
    return context, page


def signed_in_state(browser, base_url: str) -> dict:
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", DEMO[0])
    page.fill("#id_password", DEMO[1])
    page.click("form button[type=submit]")
    page.wait_for_load_state("load")
    state = context.storage_state()
    context.close()
    return state


def load_pages(browser, base_url: str, pages: dict, profile: dict, state: dict) -> dict:
    out = {}
    for name, path in pages.items():
        cold = []
        for _ in range(LOADS):
            context, page = new_context(browser, base_url, profile, state)
            answer = page.goto(path, wait_until="load")
            if answer is None or answer.status != 200:
                raise RuntimeError(f"{path} answered {answer and answer.status}")
            cold.append(page.evaluate(METRICS_JS))
            if _ == LOADS - 1:
                page.goto("about:blank")
                page.goto(path, wait_until="load")
                warm = page.evaluate(METRICS_JS)
            context.close()
        out[name] = {"cold": cold, "warm": warm}
    return out


def interactions(browser, base_url: str, builders: dict, profile: dict, state: dict) -> dict:
    out = {}
    for slug, path in builders.items():
        context, page = new_context(browser, base_url, profile, state)
        page.goto(path, wait_until="load")
        page.wait_for_function("() => window.htmx !== undefined")
        row = ".b-row"
        if not page.query_selector(row):
            context.close()
            continue
        card = page.get_attribute(row, "data-card")
        row = f'.b-row[data-card="{card}"]'
        figures = {
            "plus count": [],
            "plus verdict": [],
            "minus count": [],
            "minus verdict": [],
            "search": [],
            "answer body": [],
            "answer wire": [],
        }
        words = [
            n[:3].lower()
            for n in page.eval_on_selector_all(
                "tr.b-result", "rows => rows.map(r => r.dataset.card)"
            )
            if len(n) >= 3 and n[:3].isalpha()
        ] or ["a"]
        for i in range(TRIES):
            for sign, selector in (
                ("plus", f"{row} .b-btn:not(.minus)"),
                ("minus", f"{row} .b-btn.minus"),
            ):
                page.wait_for_selector(selector)
                tap = page.evaluate(TAP_JS, [selector, row])
                figures[f"{sign} count"].append(tap["count"])
                figures[f"{sign} verdict"].append(tap["verdict"])
                answer = tap["bytes"] or {}
                figures["answer body"].append(answer.get("body"))
                figures["answer wire"].append(answer.get("wire"))
            figures["search"].append(page.evaluate(SEARCH_JS, words[i % len(words)]))
            page.wait_for_timeout(200)
        out[slug] = figures
        context.close()
    return out


# --- Report --------------------------------------------------------------------------------


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _fmt(value, unit="ms"):
    if value is None:
        return "—"
    if unit == "B":
        return f"{value / 1000:.1f} KB"
    if unit == "":
        return f"{value:.3f}"
    return f"{value:.0f} {unit}".strip()


PAGE_FIGURES = (
    ("ttfb", "TTFB", "ms"),
    ("fcp", "FCP", "ms"),
    ("lcp", "LCP", "ms"),
    ("cls", "CLS", ""),
    ("tbt", "TBT", "ms"),
    ("requests", "req", "n"),
    ("bytes", "bytes", "B"),
)


def _cell(value, unit: str) -> str:
    if unit == "n":
        return "—" if value is None else f"{value:.0f}"
    return _fmt(value, unit)


def _verdict(value, target) -> str:
    if value is None or target is None:
        return ""
    return "met" if value <= target else "MISSED"


def _page_targets(profile: str, name: str) -> dict:
    if profile != "phone" or not name.startswith("builder"):
        return {}
    return {"lcp": TARGETS["builder lcp"], "bytes": TARGETS["builder bytes"]}


def report(results: dict) -> None:
    """Every figure of `site` beside the baseline's (`plain`, the same run) and, on the
    phone, beside its target."""
    for profile in [p for p in PROFILES if p in ONLY]:
        print(f"\n== {profile}: page loads (median of {LOADS} cold loads; one warm load)")
        head = " ".join(f"{label:>16}" for _, label, _ in PAGE_FIGURES)
        print(f"{'page':22} {head} {'warm: static revalidated':>26}")
        site, plain = results["site"][profile]["pages"], results["plain"][profile]["pages"]
        for name, figures in site.items():
            targets = _page_targets(profile, name)
            cells, flags = [], []
            for key, label, unit in PAGE_FIGURES:
                now = _median([f[key] for f in figures["cold"]])
                before = _median([f[key] for f in plain[name]["cold"]])
                cells.append(f"{_cell(now, unit)} ({_cell(before, unit)})")
                if key in targets:
                    target = _cell(targets[key], unit)
                    flags.append(
                        f"{label} {_cell(now, unit)} target ≤ {target}: "
                        f"{_verdict(now, targets[key])}"
                    )
            warm, warm_before = (
                figures["warm"]["revalidated"],
                plain[name]["warm"]["revalidated"],
            )
            flags.append(
                f"warm revalidated {warm} target {TARGETS['warm revalidated']}: "
                f"{_verdict(warm, TARGETS['warm revalidated'])}"
            )
            print(
                f"{name:22} " + " ".join(f"{c:>16}" for c in cells) + f" {warm:>4} ({warm_before})"
            )
            if profile == "phone":
                print(f"{'':22} " + "; ".join(flags))
        print(
            f"\n== {profile}: builder interactions, median / worst of {TRIES} tries "
            "(baseline's median / worst in brackets, ratio of medians)"
        )
        site_i, plain_i = results["site"][profile]["taps"], results["plain"][profile]["taps"]
        for slug, figures in site_i.items():
            print(f"  {slug}")
            for key, values in figures.items():
                unit = "B" if key.startswith("answer") else "ms"
                done = [v for v in values if v is not None]
                base = [v for v in plain_i.get(slug, {}).get(key, []) if v is not None]
                now, before = _median(done), _median(base)
                ratio = f"{before / now:.1f}x" if now and before else "—"
                target = TARGETS.get(key) if profile == "phone" else None
                mark = ""
                if target is not None and done:
                    mark = (
                        f"  target ≤ {target} ms: median {_verdict(now, target)}, "
                        f"worst {_verdict(max(done), target)}"
                    )
                print(
                    f"    {key:14} {_fmt(now, unit):>9} / {_fmt(max(done) if done else None, unit):>9}"
                    f"   ({_fmt(before, unit)} / {_fmt(max(base) if base else None, unit)})"
                    f"  {ratio:>6}{mark}"
                )


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"bench/pages.py needs Chromium at {CHROMIUM} (make browser-deps)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cardsite-pages-") as data_dir:
        print("setting up the site (migrate, sample data, decks, a goldfish run)…", flush=True)
        setup = prepare(data_dir)
        results = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for variant, changes in VARIANTS.items():
                env = dict(base_env(data_dir), **changes)
                manage(env, "collectstatic", "--noinput", "--clear", "-v0")
                proc, port = serve(env)
                base_url = f"http://127.0.0.1:{port}"
                try:
                    state = signed_in_state(browser, base_url)
                    results[variant] = {}
                    for name, profile in PROFILES.items():
                        if name not in ONLY:
                            continue
                        print(f"measuring {variant} / {name}…", flush=True)
                        results[variant][name] = {
                            "pages": load_pages(browser, base_url, setup["pages"], profile, state),
                            "taps": interactions(
                                browser, base_url, setup["builders"], profile, state
                            ),
                        }
                finally:
                    stop(proc)
            browser.close()
        report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
