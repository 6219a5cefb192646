"""
The package's models: the event log keeps each JSON document as its text, as DRF encodes it,
and gives it back decoded.
"""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest
from django.db import connection

from django_services import clock
from django_services.models import LoggedEvent

pytestmark = pytest.mark.django_db


def test_a_logged_event_s_documents_come_back_as_drf_encodes_them():
    key = uuid.UUID("12345678-1234-5678-1234-567812345678")
    row = LoggedEvent.objects.create(
        logged_at=clock.now(),
        path="orders",
        event="created",
        data={"id": key, "total": decimal.Decimal("9.50"), "at": datetime.date(2026, 1, 2)},
        channels=[{"names": ["authenticated"], "data": ["text", 1, None]}],
        read=None,
    )

    stored = LoggedEvent.objects.values("data", "channels", "read").get(pk=row.pk)
    assert stored == {
        "data": {"id": str(key), "total": 9.5, "at": "2026-01-02"},
        "channels": [{"names": ["authenticated"], "data": ["text", 1, None]}],
        "read": None,
    }
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT data, read FROM {LoggedEvent._meta.db_table} WHERE id = %s", [row.pk]
        )
        text, read = cursor.fetchone()
    # Text as it is sent; no document stands for a read rule of None.
    assert isinstance(text, str) and text.startswith('{"id": "12345678')
    assert read is None
