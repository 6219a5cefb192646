"""
Conditional requests: the validators of a record (`ETag`, `Last-Modified`) and the
preconditions of a call (`If-Match`, `If-None-Match`, `If-Modified-Since`), as RFC 9110 §13
defines them.

    preconditions = read_preconditions(params)   # the headers, or `$ifMatch` / `$ifNoneMatch`
    check_read(preconditions, etag, last_modified)   # NotModified (304) or PreconditionFailed
    check_write(preconditions, etag)                 # PreconditionFailed (412)

A service's ETag is strong. It is the value of the field a model service declares
(`etag_field`: a version number the model's `save` increments, an `auto_now` date), as
`"<value>"`; or else the first 32 hexadecimal digits of the SHA-256 of the JSON body REST
answers (`representation_etag`). A socket carries no headers: a socket call sends its
preconditions as the reserved query keys `$ifMatch` and `$ifNoneMatch` (also accepted over
REST), which the service takes out of the query before it is parsed.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import re
from collections.abc import Iterable
from typing import Any

from django.http import HttpResponseBase, HttpResponseNotModified
from django.utils.http import http_date, parse_etags, parse_http_date_safe, quote_etag
from rest_framework.response import Response

from ...errors import BadRequest, NotModified, PreconditionFailed, PreconditionRequired
from ..encoding import json_bytes
from ..pipeline.params import Params

__all__ = [
    "IF_MATCH_KEY",
    "IF_NONE_MATCH_KEY",
    "Preconditions",
    "check_read",
    "check_write",
    "conditional_response",
    "field_etag",
    "http_last_modified",
    "read_preconditions",
    "representation_etag",
    "require_if_match",
]

#: The reserved query keys that carry a socket call's preconditions.
IF_MATCH_KEY = "$ifMatch"
IF_NONE_MATCH_KEY = "$ifNoneMatch"

#: The options of a model service this module reads (shorthand options, see `ModelService`).
OPTIONS = ("etag_field", "last_modified_field", "require_preconditions")

# RFC 9110 §8.8.3: the characters an opaque tag may hold.
_ETAG_CHARACTERS = re.compile(r"\A[\x21\x23-\x7e\x80-\xff]*\Z")


@dataclasses.dataclass(frozen=True)
class Preconditions:
    """
    The preconditions of a call: the entity tags of `If-Match` and `If-None-Match` (`("*",)`
    for any), the time of `If-Modified-Since` (seconds since the epoch); None when not sent.
    """

    if_match: tuple[str, ...] | None = None
    if_none_match: tuple[str, ...] | None = None
    if_modified_since: int | None = None

    @property
    def on_version(self) -> bool:
        """Whether an entity tag was sent (`If-Match` or `If-None-Match`)."""
        return self.if_match is not None or self.if_none_match is not None

    def __bool__(self) -> bool:
        return self.on_version or self.if_modified_since is not None


NO_PRECONDITIONS = Preconditions()


def read_preconditions(params: Params) -> Preconditions:
    """
    The preconditions of a call: the reserved query keys, taken out of `params.query` (a copy
    replaces it), or else the headers of a REST or internal call (a socket's headers are its
    handshake's, never a call's).
    """
    query = params.query
    sent_match = sent_none_match = None
    if IF_MATCH_KEY in query or IF_NONE_MATCH_KEY in query:
        query = dict(query)
        sent_match = query.pop(IF_MATCH_KEY, None)
        sent_none_match = query.pop(IF_NONE_MATCH_KEY, None)
        params.query = query
    headers = params.headers if params.provider != "socketio" else {}
    if (
        sent_match is None
        and sent_none_match is None
        and "if-match" not in headers
        and "if-none-match" not in headers
        and "if-modified-since" not in headers
    ):
        return NO_PRECONDITIONS
    if_match = _tags(headers.get("if-match"), sent_match, IF_MATCH_KEY)
    if_none_match = _tags(headers.get("if-none-match"), sent_none_match, IF_NONE_MATCH_KEY)
    since = headers.get("if-modified-since")
    return Preconditions(
        if_match, if_none_match, parse_http_date_safe(since) if since is not None else None
    )


def _tags(header: str | None, sent: Any, key: str) -> tuple[str, ...] | None:
    """The entity tags of a header, else of a query key (a tag, a bare value or a list)."""
    if header is not None:
        return tuple(parse_etags(header))
    if sent is None or sent == "":
        return None
    values = sent if isinstance(sent, list) else [sent]
    tags = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise BadRequest(
                f"{key} must be an entity tag (or a version), or a list of them; got {value!r}"
            )
        text = str(value)
        if text == "*" or text.startswith(('"', 'W/"')):
            tags.extend(parse_etags(text))
        else:
            tags.append(quote_etag(text))
    return tuple(tags)


def _opaque(tag: str) -> str:
    return tag[2:] if tag.startswith("W/") else tag


def _strong_match(tags: Iterable[str], etag: str) -> bool:
    return any(tag == etag and not tag.startswith("W/") for tag in tags)


def _matches_strongly(tags: tuple[str, ...], etag: str) -> bool:
    """If-Match's test: `*`, or a strong match."""
    return "*" in tags or _strong_match(tags, etag)


def _weak_match(tags: Iterable[str], etag: str) -> bool:
    opaque = _opaque(etag)
    return any(_opaque(tag) == opaque for tag in tags)


def check_read(
    preconditions: Preconditions, etag: str | None, last_modified: int | None = None
) -> None:
    """
    Evaluate the preconditions of a read (RFC 9110 §13.2.2): PreconditionFailed when
    `If-Match` fails, NotModified when `If-None-Match` matches or, without it, when the
    record was not modified since `If-Modified-Since`.
    """
    if_match = preconditions.if_match
    if if_match is not None and etag is not None and not _matches_strongly(if_match, etag):
        raise PreconditionFailed("The record has changed: its ETag is not the one sent")
    if preconditions.if_none_match is not None:
        if etag is not None and (
            "*" in preconditions.if_none_match or _weak_match(preconditions.if_none_match, etag)
        ):
            raise not_modified(etag)
    elif (
        preconditions.if_modified_since is not None
        and last_modified is not None
        and last_modified <= preconditions.if_modified_since
    ):
        raise not_modified(etag)


def check_write(preconditions: Preconditions, etag: str) -> None:
    """
    Evaluate the preconditions of a write to an existing record whose ETag is `etag`:
    PreconditionFailed unless `If-Match` is `*` or holds `etag` (strong comparison), or when
    `If-None-Match` is `*` or holds it.
    """
    if_match = preconditions.if_match
    if if_match is not None and not _matches_strongly(if_match, etag):
        raise PreconditionFailed(
            "The record has changed since it was read: its ETag is not the one sent",
            {"etag": etag},
        )
    if_none_match = preconditions.if_none_match
    if if_none_match is not None and ("*" in if_none_match or _weak_match(if_none_match, etag)):
        raise PreconditionFailed("The record exists and matches If-None-Match", {"etag": etag})


def require_if_match(preconditions: Preconditions, method: str) -> None:
    """PreconditionRequired (428) for a write sent without `If-Match`."""
    if preconditions.if_match is None:
        raise PreconditionRequired(
            f"This service requires If-Match (or {IF_MATCH_KEY}) on {method}: send the ETag "
            "of the record as read"
        )


def not_modified(etag: str | None) -> NotModified:
    """The NotModified of a read whose preconditions say the client's copy is current."""
    return NotModified("Not Modified", {"etag": etag} if etag is not None else None)


def field_etag(value: Any) -> str:
    """
    The strong ETag of a version field's value: `"<value>"` (`"3"`), a date in ISO 8601, a
    value with characters an entity tag cannot hold by the SHA-256 of its text.
    """
    text = value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else str(value)
    if not _ETAG_CHARACTERS.match(text):
        text = hashlib.sha256(text.encode()).hexdigest()[:32]
    return f'"{text}"'


def representation_etag(data: Any) -> str:
    """The strong ETag of a representation: of the JSON REST answers (`body_etag`)."""
    return body_etag(json_bytes(data))


def body_etag(body: bytes) -> str:
    """The strong ETag of a response body: the first 32 hex digits of its SHA-256."""
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def http_last_modified(value: Any) -> int | None:
    """The seconds since the epoch of a `last_modified_field` value (a datetime), or None."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return int(value.timestamp())
    return None


def last_modified_header(seconds: int) -> str:
    """The `Last-Modified` header of a time in seconds since the epoch."""
    return http_date(seconds)


def preconditions_required(service: Any) -> bool:
    """Whether `service` requires `If-Match` on its writes (`require_preconditions`)."""
    return bool(getattr(service, "require_preconditions", False))


class ConditionalMixin:
    """
    The conditional requests of a model service (see `ModelService`): it reads the call's
    preconditions before its query is parsed, checks a read's before the record is shown and
    a write's with the record's row locked, and keeps the validators of the record it answers
    for REST's headers.
    """

    #: The preconditions of the call in progress.
    _preconditions: Preconditions = NO_PRECONDITIONS
    #: The validators of the record the call answers, when a declared field gives them.
    _answer_etag: str | None = None
    _answer_last_modified: int | None = None

    # Provided by the model service.
    call: Any
    represent: Any

    def _take_preconditions(self, params: Params, kind: str) -> None:
        """Read the call's preconditions (see `read_preconditions`) and refuse misplaced ones."""
        self._answer_etag = self._answer_last_modified = None
        preconditions = self._preconditions = read_preconditions(params)
        method = self.call.method if self.call is not None else None
        if kind == "multi":
            if preconditions.on_version:
                raise BadRequest(
                    "If-Match and If-None-Match (or $ifMatch and $ifNoneMatch) apply to one "
                    f"record: {method or 'write'} it by id"
                )
        elif kind == "id" and method in _WRITES and preconditions_required(self):
            require_if_match(preconditions, method)

    def _field_validators(self, instance: Any) -> tuple[str | None, int | None]:
        """The ETag and Last-Modified of `instance` its declared fields give (None: none)."""
        etag_field = getattr(self, "etag_field", None)
        modified_field = getattr(self, "last_modified_field", None)
        version = getattr(instance, etag_field) if etag_field else None
        etag = field_etag(version) if version is not None else None
        modified = http_last_modified(getattr(instance, modified_field)) if modified_field else None
        return etag, modified

    def _answer_read(self, instance: Any) -> Any:
        """
        The representation of the record a `get` found, its validators kept; a declared field
        settles the preconditions before the record is shown.
        """
        etag, modified = self._field_validators(instance)
        self._answer_etag, self._answer_last_modified = etag, modified
        if self._preconditions and (etag is not None or modified is not None):
            check_read(self._preconditions, etag, modified)
        return self.represent(instance)

    def _check_write(self, instance: Any) -> None:
        """Check the call's preconditions on the record it writes, read with its row locked."""
        preconditions = self._preconditions
        if preconditions.on_version:
            etag = self._field_validators(instance)[0]
            check_write(preconditions, etag or representation_etag(self.represent(instance)))

    def _answer_written(self, instance: Any) -> None:
        """Keep the validators of the written record for the response."""
        self._answer_etag, self._answer_last_modified = self._field_validators(instance)


_WRITES = frozenset(("update", "patch", "remove"))


#: The methods whose REST answers carry validators (a single record, or a page).
_VALIDATED = frozenset(("find", "get", "create", "update", "patch"))
#: The headers a 304 keeps of the answer it stands for (RFC 9110 §15.4.5).
_KEPT_BY_304 = ("ETag", "Last-Modified", "Cache-Control", "Vary", "Expires", "Content-Location")


def conditional_response(
    service: Any, method: str, params: Params, response: HttpResponseBase
) -> HttpResponseBase:
    """
    A REST answer with its validators: `ETag` (the service's, or of the body) and
    `Last-Modified`; a read whose `If-None-Match` or `If-Modified-Since` says the client's
    copy is current becomes a 304 without a body. PreconditionFailed when a read's `If-Match`
    fails.
    """
    if (
        method not in _VALIDATED
        or not isinstance(response, Response)
        or response.status_code not in (200, 201)
        or (isinstance(response.data, list) and method in ("create", "patch"))
    ):
        return response
    etag = getattr(service, "_answer_etag", None)
    modified = getattr(service, "_answer_last_modified", None)
    if etag is None:
        response.render()
        etag = body_etag(response.content)
    response["ETag"] = etag
    if modified is not None:
        response["Last-Modified"] = http_date(modified)
    if method in ("get", "find"):
        preconditions = vars(service).get("_preconditions")
        if preconditions is None:
            preconditions = read_preconditions(Params(headers=params.headers, provider="rest"))
        if preconditions:
            try:
                check_read(preconditions, etag, modified)
            except NotModified:
                return not_modified_response(response)
    return response


def not_modified_response(
    answer: HttpResponseBase | None = None, *, etag: str | None = None, modified: int | None = None
) -> HttpResponseNotModified:
    """A 304: the validators and caching headers of `answer` (or those given), no body."""
    response = HttpResponseNotModified()
    if answer is not None:
        context = getattr(answer, "renderer_context", None)
        if isinstance(context, dict):
            context.pop("response", None)  # the answer is dropped: no cycle left to collect
        for header in _KEPT_BY_304:
            if header in answer:
                response[header] = answer[header]
    if etag is not None:
        response["ETag"] = etag
    if modified is not None:
        response["Last-Modified"] = http_date(modified)
    return response
