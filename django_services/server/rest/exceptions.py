"""
The DRF exception handler that answers every error of a REST call with the Feathers error JSON.

    class MyService(Service):
        def get_exception_handler(self):
            return my_handler          # or set DJANGO_SERVICES["EXCEPTION_HANDLER"]

Every exception becomes the `FeathersError` `pipeline.errors.to_feathers_error` maps it to,
sent with its status code, 401 with `WWW-Authenticate`, 429 and 503 with `Retry-After`; a
transient database error is logged as a warning, any other unexpected one with its traceback.
The handler never returns `None`, so no error escapes as an HTML page or a stack trace.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.signals import got_request_exception
from django.utils.log import log_response
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

from ..._drf_compat import django_request as as_django_request
from ...contract import RETRY_AFTER_HEADER, WWW_AUTHENTICATE_HEADER
from ...errors import FeathersError
from ..database_errors import is_transient
from ..pipeline.errors import GENERAL_ERROR_MESSAGE, retry_after, to_feathers_error

__all__ = ["exception_handler"]

logger = logging.getLogger("django_services.server")


def exception_handler(exc: BaseException, context: Mapping[str, Any]) -> Response:
    """
    Return the Feathers error response for `exc` (a DRF `EXCEPTION_HANDLER`).

    `context` is DRF's exception handler context (`view`, `request`, ...). The transaction of
    an atomic request is marked for rollback, as DRF's own handler does.
    """
    error = to_feathers_error(exc)
    set_rollback()
    headers = _headers_for(exc, error, context)
    response = Response(error.to_json(), status=error.code, headers=headers)
    if is_transient(exc):
        _report_transient(exc, context, response)
    elif error.code >= 500 and not isinstance(exc, (FeathersError, drf_exceptions.APIException)):
        _report(exc, context, response)
    return response


def _headers_for(
    exc: BaseException, error: FeathersError, context: Mapping[str, Any]
) -> dict[str, str]:
    headers: dict[str, str] = {}
    if error.code == 401:
        header = getattr(exc, "auth_header", None)
        view = context.get("view")
        if not header and view is not None and hasattr(view, "get_authenticate_header"):
            header = view.get_authenticate_header(context.get("request"))
        if header:
            headers[WWW_AUTHENTICATE_HEADER] = header
    seconds = retry_after(exc, error)
    if seconds is not None:
        headers[RETRY_AFTER_HEADER] = str(seconds)
    return headers


def _report(exc: BaseException, context: Mapping[str, Any], response: Response) -> None:
    """Log an unexpected error with its traceback, and tell error trackers about it."""
    django_request = as_django_request(context.get("request"))
    if django_request is None:
        logger.error("Internal server error", exc_info=exc)
        return
    log_response(
        "%s: %s",
        GENERAL_ERROR_MESSAGE.capitalize(),
        django_request.path,
        response=response,
        request=django_request,
        exception=exc,
    )
    got_request_exception.send(sender=None, request=django_request)


def _report_transient(exc: BaseException, context: Mapping[str, Any], response: Response) -> None:
    """Log a transient database error as a warning: the client is asked to try again."""
    django_request = as_django_request(context.get("request"))
    if django_request is None:
        logger.warning("Database unavailable: %s", exc)
        return
    log_response(
        "Database unavailable for %s %s: %s",
        django_request.method,
        django_request.path,
        exc,
        response=response,
        request=django_request,
        logger=logger,
        level="warning",
    )
