"""
Whether a serializer's method is DRF's own or a project's override.

    is_own(PersonSerializer, "to_representation")               # True: DRF's own

Two shortcuts are only safe while a serializer class behaves as DRF built it: a serializer
whose fields can be cloned (`serializer_fields.py`), a serializer whose records can be read
without building it (`representation.py`). Each asks this one question of the serializer
class: who defines the method first in its method resolution order? Services are never asked:
what they do is chosen with attributes (`representation_class`).
"""

from __future__ import annotations

__all__ = ["DRF_PACKAGES", "is_own"]

#: DRF itself.
DRF_PACKAGES: tuple[str, ...] = ("rest_framework",)


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
