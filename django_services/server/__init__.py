"""
The server half: Feathers services on Django REST Framework.

    from django_services.server import ModelService, Params, Service, service_method

    class MessageService(ModelService):
        queryset = Message.objects.all()
        serializer_class = MessageSerializer
        paginate = {"default": 10, "max": 50}

Names are imported on first access, so `django_services.server.authentication` can be loaded
(from settings) without loading the service classes.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calls import CallContext, run_call, run_call_async
    from .events import ServiceEvent, event_bus
    from .exceptions import exception_handler
    from .filters import FeathersQueryFilter
    from .methods import service_method
    from .model_services import ModelService
    from .pagination import FeathersPagination
    from .params import Params
    from .query_set import QueryDeclaration
    from .registry import get_service, register, unregister
    from .services import Service

__all__ = [
    "CallContext",
    "FeathersPagination",
    "FeathersQueryFilter",
    "ModelService",
    "Params",
    "QueryDeclaration",
    "Service",
    "ServiceEvent",
    "event_bus",
    "exception_handler",
    "get_service",
    "register",
    "run_call",
    "run_call_async",
    "service_method",
    "unregister",
]

_MODULES = {
    "CallContext": ".calls",
    "FeathersPagination": ".pagination",
    "FeathersQueryFilter": ".filters",
    "ModelService": ".model_services",
    "Params": ".params",
    "QueryDeclaration": ".query_set",
    "Service": ".services",
    "ServiceEvent": ".events",
    "event_bus": ".events",
    "exception_handler": ".exceptions",
    "get_service": ".registry",
    "register": ".registry",
    "run_call": ".calls",
    "run_call_async": ".calls",
    "service_method": ".methods",
    "unregister": ".registry",
}


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_MODULES[name], __name__), name)
    globals()[name] = value
    return value
