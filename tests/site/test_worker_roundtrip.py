"""A task sent from a request crosses the real broker to a real worker and back."""

import pytest

from cardsite.models import WorkerPing
from tests.conftest import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_ping_sent_by_a_request_is_answered_by_the_worker(
    client, staff_user, celery_worker_process
):
    # Each ping is a row and a task: anyone else is refused.
    assert client.post("/health/worker/").status_code == 403
    assert WorkerPing.objects.count() == 0
    client.force_login(staff_user)
    response = client.post("/health/worker/")
    assert response.status_code == 202
    ping_id = response.json()["id"]

    def answered():
        return client.get(f"/health/worker/?id={ping_id}").json()["answered"]

    wait_for(answered, timeout=60)
    ping = WorkerPing.objects.get(pk=ping_id)
    assert ping.answered_at is not None
    assert ping.answered_by
