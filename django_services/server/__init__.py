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
    from .pipeline.calls import CallContext, run_call, run_call_async
    from .pipeline.events import ServiceEvent, event_bus
    from .pipeline.params import Params
    from .registry import get_service, register, unregister
    from .rest.exceptions import exception_handler
    from .services.filters import FeathersQueryFilter
    from .services.methods import service_method
    from .services.model_services import ModelService
    from .services.pagination import FeathersPagination
    from .services.query_set import QueryDeclaration
    from .services.service import Service

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
    "CallContext": ".pipeline.calls",
    "FeathersPagination": ".services.pagination",
    "FeathersQueryFilter": ".services.filters",
    "ModelService": ".services.model_services",
    "Params": ".pipeline.params",
    "QueryDeclaration": ".services.query_set",
    "Service": ".services.service",
    "ServiceEvent": ".pipeline.events",
    "event_bus": ".pipeline.events",
    "exception_handler": ".rest.exceptions",
    "get_service": ".registry",
    "register": ".registry",
    "run_call": ".pipeline.calls",
    "run_call_async": ".pipeline.calls",
    "service_method": ".services.methods",
    "unregister": ".registry",
}


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_MODULES[name], __name__), name)
    globals()[name] = value
    return value
