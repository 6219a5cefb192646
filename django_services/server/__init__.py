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
    from .exceptions import exception_handler
    from .filters import FeathersQueryFilter
    from .methods import service_method
    from .model_services import ModelService
    from .pagination import FeathersPagination
    from .params import Params
    from .registry import get_service, register, unregister
    from .services import Service

__all__ = [
    "FeathersPagination",
    "FeathersQueryFilter",
    "ModelService",
    "Params",
    "Service",
    "exception_handler",
    "get_service",
    "register",
    "service_method",
    "unregister",
]

_MODULES = {
    "FeathersPagination": ".pagination",
    "FeathersQueryFilter": ".filters",
    "ModelService": ".model_services",
    "Params": ".params",
    "Service": ".services",
    "exception_handler": ".exceptions",
    "get_service": ".registry",
    "register": ".registry",
    "service_method": ".methods",
    "unregister": ".registry",
}


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_MODULES[name], __name__), name)
    globals()[name] = value
    return value
