"""
Feathers hooks: `around`, `before`, `after` and `error` functions run with every call.

    def stamp(context):                      # a before hook
        context.data = {**context.data, "author": context.params.user.pk}

    def hide_secret(context):                # an after hook
        context.result.pop("secret", None)

    def timed(context, next):                # an around hook
        started = time.monotonic()
        next()
        log.info("%s took %.3f s", context.method, time.monotonic() - started)

    class MessageService(ModelService):
        hooks = {
            "around": {"all": [timed]},
            "before": {"create": [stamp]},
            "after": [hide_secret],          # a list: every method
        }

    DJANGO_SERVICES = {"HOOKS": {"error": {"all": ["myapp.hooks.report"]}}}   # app-wide

A hook is a plain callable taking the call's `CallContext` (and, for `around` hooks, `next`).
It changes the context in place; what it returns is ignored, except that an `async def` hook
is awaited. Async hooks need an async method: a sync method runs its hooks synchronously.

Order, as in Feathers: app-wide `around` hooks wrap the service's, which wrap the rest; then
app-wide `before` hooks, the service's `before` hooks (for all methods, then for the method),
the method, the service's `after` hooks, then the app-wide `after` hooks. When any of these
raises, `error` hooks run (the service's, then the app-wide ones) with `context.error` set: one
may replace the error, or set `context.result` to answer that result instead.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed

from ...conf import SETTINGS_NAME, import_from_string, services_settings
from ...errors import GeneralError
from .errors import to_feathers_error

__all__ = ["HOOK_TYPES", "HookChain", "app_hooks", "chain_for", "normalize_hooks"]

#: The kinds of hooks, in the order a call meets them.
HOOK_TYPES: tuple[str, ...] = ("around", "before", "after", "error")

#: hook type -> method name (or "all") -> hooks.
Hooks = Mapping[str, Mapping[str, tuple[Callable[..., Any], ...]]]


@dataclasses.dataclass(frozen=True)
class HookChain:
    """The hooks of one method of one service, app-wide ones included, in running order."""

    around: tuple[Callable[..., Any], ...] = ()
    before: tuple[Callable[..., Any], ...] = ()
    after: tuple[Callable[..., Any], ...] = ()
    error: tuple[Callable[..., Any], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.around or self.before or self.after or self.error)

    def run(self, context: Any, method: Callable[[], Any]) -> Any:
        """Run the hooks and `method()` around `context`; return the result of the call."""
        around = self.around

        def step(index: int) -> None:
            if index == len(around):
                self._run_core(context, method)
                return
            context.type = "around"
            _sync(around[index](context, lambda: step(index + 1)), around[index])

        step(0)
        return context.result

    async def run_async(self, context: Any, method: Callable[[], Awaitable[Any]]) -> Any:
        """`run()` for an async method: async hooks are awaited, sync ones called."""
        around = self.around

        async def step(index: int) -> None:
            if index == len(around):
                await self._run_core_async(context, method)
                return
            context.type = "around"

            async def next_step() -> None:
                await step(index + 1)

            await _maybe_await(around[index](context, next_step))

        await step(0)
        return context.result

    def _run_core(self, context: Any, method: Callable[[], Any]) -> None:
        try:
            context.type = "before"
            for hook in self.before:
                _sync(hook(context), hook)
            if not context.has_result:
                context.result = method()
            context.type = "after"
            for hook in self.after:
                _sync(hook(context), hook)
        except Exception as exc:
            if not self.error:
                raise
            shown = self._start_error(context, exc)
            for hook in self.error:
                _sync(hook(context), hook)
            self._finish_error(context, exc, shown)

    async def _run_core_async(self, context: Any, method: Callable[[], Awaitable[Any]]) -> None:
        try:
            context.type = "before"
            for hook in self.before:
                await _maybe_await(hook(context))
            if not context.has_result:
                context.result = await method()
            context.type = "after"
            for hook in self.after:
                await _maybe_await(hook(context))
        except Exception as exc:
            if not self.error:
                raise
            shown = self._start_error(context, exc)
            for hook in self.error:
                await _maybe_await(hook(context))
            self._finish_error(context, exc, shown)

    @staticmethod
    def _start_error(context: Any, exc: Exception) -> BaseException:
        context.type = "error"
        # Error hooks see Feathers errors, as in Feathers: DRF's and Django's exceptions as
        # the error class they answer. Anything else stays itself, to be reported as a bug.
        error = to_feathers_error(exc)
        shown = exc if isinstance(error, GeneralError) else error
        context.error = shown
        context.clear_result()
        return shown

    @staticmethod
    def _finish_error(context: Any, exc: Exception, shown: BaseException) -> None:
        if context.has_result:
            # An error hook answered instead: the call succeeds with its result.
            context.error = None
            return
        error = context.error
        if error is None or error is shown:
            raise exc
        raise error from exc


def normalize_hooks(value: Any, where: str) -> dict[str, dict[str, tuple[Callable[..., Any], ...]]]:
    """
    Check a hooks declaration and return it as `{type: {method or "all": (hooks...)}}`.

    Each type maps to a list (hooks for every method) or to a dict of lists by method name
    (`"all"` for every method). Hooks are callables, or dotted paths to them. Anything else is
    an ImproperlyConfigured error naming `where`.
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ImproperlyConfigured(
            f"{where} must be a dict of hook types ({', '.join(HOOK_TYPES)}), "
            f"not {type(value).__name__}."
        )
    normalized: dict[str, dict[str, tuple[Callable[..., Any], ...]]] = {}
    for hook_type, by_method in value.items():
        if hook_type not in HOOK_TYPES:
            raise ImproperlyConfigured(
                f"{where} has an unknown hook type {hook_type!r}; use {', '.join(HOOK_TYPES)}."
            )
        if not isinstance(by_method, Mapping):
            by_method = {"all": by_method}
        normalized[hook_type] = {
            str(method): _hook_list(hooks, f"{where}[{hook_type!r}][{method!r}]")
            for method, hooks in by_method.items()
        }
    return normalized


def _hook_list(hooks: Any, where: str) -> tuple[Callable[..., Any], ...]:
    if isinstance(hooks, (str, bytes)) or not isinstance(hooks, Iterable):
        hooks = [hooks]
    found = []
    for index, hook in enumerate(hooks):
        hook = import_from_string(hook, f"{where}[{index}]")
        if not callable(hook):
            raise ImproperlyConfigured(f"{where}[{index}] must be a callable, not {hook!r}.")
        found.append(hook)
    return tuple(found)


def app_hooks() -> Hooks:
    """The app-wide hooks of `DJANGO_SERVICES["HOOKS"]`, imported once per settings."""
    return _app_hooks()


@functools.lru_cache(maxsize=1)
def _app_hooks() -> Hooks:
    return normalize_hooks(services_settings.HOOKS, f"{SETTINGS_NAME}['HOOKS']")


def chain_for(service_hooks: Hooks, method: str) -> HookChain:
    """The hooks a call of `method` runs: app-wide ones around the service's, in order."""
    app = app_hooks()
    if not app and not service_hooks:
        return _EMPTY

    def pick(hooks: Hooks, hook_type: str) -> tuple[Callable[..., Any], ...]:
        by_method = hooks.get(hook_type, {})
        return (*by_method.get("all", ()), *by_method.get(method, ()))

    return HookChain(
        around=pick(app, "around") + pick(service_hooks, "around"),
        before=pick(app, "before") + pick(service_hooks, "before"),
        after=pick(service_hooks, "after") + pick(app, "after"),
        error=pick(service_hooks, "error") + pick(app, "error"),
    )


_EMPTY = HookChain()


def _sync(returned: Any, hook: Callable[..., Any]) -> None:
    if inspect.isawaitable(returned):
        if inspect.iscoroutine(returned):
            returned.close()
        raise ImproperlyConfigured(
            f"The hook {getattr(hook, '__qualname__', hook)!r} is async, but the method it "
            "runs with is not: async hooks need an async method."
        )


async def _maybe_await(returned: Any) -> None:
    if inspect.isawaitable(returned):
        await returned


def _forget_app_hooks(*, setting: str, **kwargs: Any) -> None:
    if setting == SETTINGS_NAME:
        _app_hooks.cache_clear()


setting_changed.connect(_forget_app_hooks)
