"""
Which users may read one record of a model service, in one query whatever their number.

    readers = read_in_one_query(calls, record_id)   # calls: (index, service, request) a user

Each user's `get_queryset()` (its query filters applied, as `get` applies them) is narrowed to
the record and selects the user's index alone; the querysets are combined with `UNION ALL`,
so the database answers for every user at once (in batches of `BATCH`, below SQLite's limit
of 500 terms). Object permissions, when a permission class has any, are checked on the record
read once. A queryset that can not be combined (sliced, say) makes the whole check fall back
to one `get_instance()` a user.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, NotSupportedError
from django.db.models import IntegerField, Value
from django.http import Http404
from rest_framework import exceptions as drf_exceptions
from rest_framework.permissions import BasePermission

from ...errors import BadRequest, FeathersError
from ...query.convert import convert_value
from ..database_errors import is_transient

__all__ = ["BATCH", "allowed_call", "read_in_one_query"]

logger = logging.getLogger("django_services.server")

#: Users a query answers for at most.
BATCH = 250


def read_in_one_query(calls: Sequence[tuple[int, Any, Any]], record_id: Any) -> set[int] | None:
    """
    The indexes of `calls` (`(index, service, request)`, each service in its user's `get`
    call) whose user may read the record `record_id`; None if the querysets do not combine.
    """
    if not calls:
        return set()
    first = calls[0][1]
    path, model_field = first._id_lookup()
    try:
        value = convert_value(model_field, record_id, name=first._id_field())
    except BadRequest:
        return set()
    branches: list[tuple[int, Any, Any, Any]] = []
    for index, service, request in calls:
        querysets: list[Any] = []

        def narrow(service: Any = service, querysets: list[Any] = querysets) -> None:
            service._prepare_query(service.params)
            queryset = service.filter_queryset(service.get_queryset())
            querysets.append(queryset.filter(**{path: value}))

        if allowed_call(narrow):
            branches.append((index, service, request, querysets[0]))
    if not branches:
        return set()
    found: set[int] = set()
    try:
        for start in range(0, len(branches), BATCH):
            batch = [
                queryset.order_by().values_list(Value(index, output_field=IntegerField()))
                for index, _, _, queryset in branches[start : start + BATCH]
            ]
            combined = batch[0].union(*batch[1:], all=True) if len(batch) > 1 else batch[0]
            found.update(row[0] for row in combined)
    except (DatabaseError, NotSupportedError, TypeError, ValueError) as exc:
        if is_transient(exc):
            raise
        return None
    if not found or not _object_permissions(first):
        return found
    by_index = {
        index: (service, request, queryset) for index, service, request, queryset in branches
    }
    instance = list(by_index[min(found)][2][:1])
    if not instance:
        return set()
    return {index for index in found if _object_allowed(*by_index[index][:2], instance[0])}


def _object_permissions(service: Any) -> bool:
    """Whether a permission class of `service` has object permissions of its own."""
    return any(
        getattr(type(permission), "has_object_permission", None)
        is not BasePermission.has_object_permission
        for permission in service.get_permissions()
    )


def _object_allowed(service: Any, request: Any, instance: Any) -> bool:
    return allowed_call(lambda: service.check_object_permissions(request, instance))


def allowed_call(read: Callable[[], Any]) -> bool:
    """
    Whether `read()` ran without the error of a refused or missing read. A transient database
    error (`database_errors.is_transient`: a lost connection, a lock) says nothing of the
    user's rights: it is raised, for the check to be made again.
    """
    try:
        read()
    except (FeathersError, drf_exceptions.APIException, Http404, PermissionDenied):
        return False
    except Exception as exc:
        if is_transient(exc):
            raise
        # What a `get` would answer with a 500: this user does not get the event.
        logger.exception("A read check of an event failed.")
        return False
    return True
