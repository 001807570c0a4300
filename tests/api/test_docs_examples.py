"""Every curl example of docs/api.md's guide for tool authors runs against a live site and
answers the status the page says."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCK = re.compile(r"```sh\n(.*?)\n# → (\d{3})\n```", re.S)


def guide_examples() -> list[tuple[str, int]]:
    text = DOC.read_text()
    guide = text[
        text.index("## For tool authors") : text.index(
            "\n## ", text.index("## For tool authors") + 5
        )
    ]
    return [(command, int(status)) for command, status in BLOCK.findall(guide)]


def test_the_guide_has_an_example_for_each_topic():
    commands = " ".join(c for c, _ in guide_examples())
    for needle in ("Bearer $TOKEN", "/api/validate/", "page_size", "/api/bulk/", "If-None-Match"):
        assert needle in commands


def test_every_example_answers_as_the_guide_says(live_server, live_catalogue, user):
    import httpx

    from cardsite.tokens import create_token

    _token, secret = create_token(user, name="docs", scope="write", expiry_days=None)
    etag = httpx.get(f"{live_server.url}/api/games/redline/bulk/", timeout=60).headers["ETag"]
    env = {**os.environ, "SITE": live_server.url, "TOKEN": secret, "ETAG": etag}
    examples = guide_examples()
    assert len(examples) >= 5
    for command, status in examples:
        done = subprocess.run(
            ["bash", "-c", command], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, (command, done.stderr)
        first = done.stdout.splitlines()[0]
        assert first.split()[1] == str(status), (command, done.stdout[:500])
