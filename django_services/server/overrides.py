"""
Whether a class attribute is the framework's own or a project's override.

    is_own(MessageService, "get_queryset", SERVICE_PACKAGES)   # False once the class overrides it
    is_own(PersonSerializer, "to_representation")               # True: DRF's own

Several shortcuts are only safe while a class behaves as DRF (or django-feathers) built it: a
serializer whose fields can be cloned, a service whose field tables can be kept between calls,
a serializer whose records can be read without building it. Each asks this one question: who
defines the attribute first in the class's method resolution order?
"""

from __future__ import annotations

__all__ = ["DRF_PACKAGES", "MACHINERY_PACKAGES", "SERVICE_PACKAGES", "is_machinery", "is_own"]

#: DRF itself.
DRF_PACKAGES: tuple[str, ...] = ("rest_framework",)
#: DRF and the service classes of this package.
SERVICE_PACKAGES: tuple[str, ...] = ("rest_framework", "django_services.server")
#: Everything a service class is built from: Django, DRF and this package.
MACHINERY_PACKAGES: tuple[str, ...] = ("django", "rest_framework", "django_services")


def _in_packages(cls: type, packages: tuple[str, ...]) -> bool:
    module = cls.__module__
    return module == "builtins" or any(
        module == package or module.startswith(package + ".") for package in packages
    )


def is_own(cls: type, name: str, packages: tuple[str, ...] = DRF_PACKAGES) -> bool:
    """
    Whether the attribute `name` of `cls` comes from one of `packages` (or Python, or nowhere),
    rather than from a class of the project.
    """
    for base in cls.__mro__:
        if name in vars(base):
            return _in_packages(base, packages)
    return True


def is_machinery(cls: type, name: str) -> bool:
    """Whether a base of `cls` from Django, DRF or this package defines `name`."""
    return any(
        name in vars(base) and _in_packages(base, MACHINERY_PACKAGES) for base in cls.__mro__[1:]
    )
