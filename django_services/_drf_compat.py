"""
Every place the package reads or writes a private attribute of DRF or Django, named here.

    queryset_yields_instances(queryset)    # False for .values(), .values_list()
    cached_fields(serializer)              # the fields a serializer built, or None
    async with thread_context(executor):   # thread-sensitive calls run in `executor`

DRF and Django keep these names out of their documented API, so a release may rename them
without notice. Each access is a function of its own with the reason it is needed, and
`tests/test_drf_compat.py` checks each one against the DRF and Django installed, which CI runs
with the lowest and the newest versions `pyproject.toml` allows: a release that changes one of
them fails there, in one place, rather than somewhere in the package.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from asgiref.sync import SyncToAsync, ThreadSensitiveContext
from django.db import models
from django.db.models import signals
from django.db.models.query import ModelIterable
from rest_framework.request import Empty

__all__ = [
    "READABLE_FIELDS_HOOK",
    "add_response_closer",
    "cached_fields",
    "django_request",
    "drop_cached_fields",
    "field_validators",
    "has_parsed_data",
    "mark_authenticated",
    "model_builds_own_instances",
    "queryset_prefetches",
    "queryset_yields_instances",
    "replace_body",
    "request_body_stream",
    "set_cached_fields",
    "set_field_validators",
    "set_parsed_data",
    "skip_csrf_checks",
    "thread_context",
]


# asgiref's thread-sensitive contexts --------------------------------------------------------


class _ExecutorContext(ThreadSensitiveContext):
    """
    A thread-sensitive context whose calls run in a given executor, which it does not shut
    down, for asgiref before 3.13 (whose `ThreadSensitiveContext` takes no executor).

    Writes `SyncToAsync.context_to_thread_executor`, asgiref's map from a context to its
    executor, and takes the executor out of it before asgiref's exit would shut it down.
    """

    def __init__(self, executor: Executor) -> None:
        super().__init__()
        self._given_executor = executor

    async def __aenter__(self) -> Any:
        await super().__aenter__()
        if self.token is not None:
            _executors_by_context()[self] = self._given_executor
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        _executors_by_context().pop(self, None)
        await super().__aexit__(*exc_info)


def _executors_by_context() -> Any:
    return SyncToAsync.context_to_thread_executor


_CONTEXT_TAKES_EXECUTOR = "executor" in inspect.signature(ThreadSensitiveContext).parameters


def thread_context(executor: Executor) -> Any:
    """
    An async context manager in which asgiref's thread-sensitive `sync_to_async` calls (all
    of Django's synchronous request code) run in `executor`, one thread, left running after.
    """
    if _CONTEXT_TAKES_EXECUTOR:
        # Any: asgiref before 3.13 has no such parameter, and its stubs say so.
        context_class: Any = ThreadSensitiveContext
        return context_class(executor=executor)
    return _ExecutorContext(executor)


# Django's QuerySet ---------------------------------------------------------------------------


def queryset_yields_instances(queryset: models.QuerySet) -> bool:
    """
    Whether iterating `queryset` yields model instances (not `.values()` dicts or tuples).

    `QuerySet._iterable_class`: a find reads its page as tuples only when the queryset would
    have built instances, which the service's serializer then reads.
    """
    return queryset._iterable_class is ModelIterable


def queryset_prefetches(queryset: models.QuerySet) -> bool:
    """
    Whether `queryset` has `prefetch_related` lookups.

    `QuerySet._prefetch_related_lookups`: prefetched records hang on instances, so such a find
    cannot be read as tuples.
    """
    return bool(queryset._prefetch_related_lookups)  # type: ignore[attr-defined]


def model_builds_own_instances(model: type[models.Model]) -> bool:
    """
    Whether `model` builds its instances otherwise than Django does: a `from_db` of its own,
    or receivers of `pre_init`/`post_init` (which tuples read without instances would skip).

    Reads `Model.from_db.__func__`, the function under Django's classmethod.
    """
    return (
        model.from_db.__func__ is not models.Model.from_db.__func__  # type: ignore[attr-defined]
        or signals.pre_init.has_listeners(model)
        or signals.post_init.has_listeners(model)
    )


# DRF's Serializer and Field ------------------------------------------------------------------


def cached_fields(serializer: Any) -> Any:
    """
    The fields `serializer` built, or None before `serializer.fields` was first read.

    `Serializer.fields` is a `functools.cached_property`: the built fields live in the
    instance's `__dict__` under `"fields"`.
    """
    return vars(serializer).get("fields")


def set_cached_fields(serializer: Any, fields: Any) -> None:
    """Give `serializer` its `fields` without building them (`cached_property`'s slot)."""
    vars(serializer)["fields"] = fields


def drop_cached_fields(serializer: Any) -> None:
    """Forget the fields `serializer` built (read again, they are built again)."""
    vars(serializer).pop("fields", None)


def field_validators(field: Any) -> list[Any] | None:
    """
    The validators a field was given or built, or None when it has not built them yet.

    `Field._validators`: `Field.validators` is a property that builds the default validators on
    first read; a clone reads the stored list without building it.
    """
    return vars(field).get("_validators")


def set_field_validators(field: Any, validators: list[Any]) -> None:
    """Give `field` a list of validators of its own (`Field._validators`)."""
    vars(field)["_validators"] = validators


#: `Serializer._readable_fields`: the generator `to_representation` walks. A serializer class
#: overriding it shows other fields than its `fields`, so it is one of the methods whose
#: override makes a serializer show records its own way (`representation.py`).
READABLE_FIELDS_HOOK = "_readable_fields"


# DRF's Request -------------------------------------------------------------------------------


def django_request(request: Any) -> Any:
    """
    Django's `HttpRequest` behind a DRF `Request` (`Request._request`), or `request` itself
    when it is one already (or None). Loggers, signals and authentication backends expect
    Django's own.
    """
    return getattr(request, "_request", request)


def mark_authenticated(request: Any) -> None:
    """
    Tell DRF that `request` was authenticated already, with the `user` and `auth` set on it.

    `Request._authenticator`: None once DRF ran its authenticators and none matched. Set, DRF
    does not run them again when `request.user` is read.
    """
    request._authenticator = None


def has_parsed_data(request: Any) -> bool:
    """
    Whether a DRF `request` has its data already: `Request._full_data`, DRF's `Empty` marker
    until the body is parsed (or the data given).
    """
    return vars(request).get("_full_data", Empty) is not Empty


def set_parsed_data(request: Any, data: Any) -> None:
    """
    Give a DRF `request` its parsed data (`Request._full_data`, the slot `request.data` reads),
    for a call whose data arrived decoded already, so that no body is encoded and parsed again.
    """
    request._full_data = data


# Django's HttpRequest and HttpResponse -------------------------------------------------------


def request_body_stream(request: Any) -> Any:
    """
    The stream of an ASGI request's body (`ASGIRequest._stream`): the whole body, which
    Django's ASGI handler received before building the request.
    """
    return request._stream


def replace_body(request: Any, body: bytes) -> None:
    """
    Make `body` the body Django reads for `request` (`HttpRequest._stream`), as if no byte of
    it was read yet (`HttpRequest._read_started`).
    """
    request._stream = io.BytesIO(body)
    request._read_started = False


def skip_csrf_checks(request: Any) -> None:
    """
    Exempt `request` from Django's CSRF check (`_dont_enforce_csrf_checks`, the flag Django's
    test client sets), for requests whose transport checked their origin already.
    """
    request._dont_enforce_csrf_checks = True


def add_response_closer(response: Any, closer: Callable[[], Any]) -> bool:
    """
    Call `closer` when the server closes `response` (`HttpResponseBase._resource_closers`, the
    list Django's handlers empty once a response is sent). Returns whether it could.
    """
    closers = getattr(response, "_resource_closers", None)
    if closers is None:
        return False
    closers.append(closer)
    return True
