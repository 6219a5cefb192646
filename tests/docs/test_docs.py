"""
The documentation: it builds with no warning, its references cannot drift from the code, and its
examples run.

    pip install -e '.[docs]' && mkdocs build --strict     # what test_the_docs_build runs

The settings reference is read back and compared with `DEFAULTS` (every key, every default,
every option of a remote and of its `AUTH`), the check ids and error classes with the package,
and the import lines of every example are imported. The quickstart (its service, its curl
session, its Python session) and the remotes page's session run against a live server, outputs
compared character for character, and the quickstart is followed step by step from
`django-admin startproject` to a running server. The remotes page's bridge of your own signs
calls a service verifies, and every `REMOTES` example passes the system checks. The README's
Serve snippet is the example project's code, and its find and Call snippet run against the
example project, migrated and seeded.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import doctest
import gc
import hashlib
import hmac
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import threading
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import requests
from django.test import override_settings

from django_services import errors
from django_services.client.checks import check_remotes
from django_services.client.remotes import remotes
from django_services.conf import DEFAULTS, REMOTE_AUTH_DEFAULTS, REMOTE_DEFAULTS
from django_services.server import Service
from django_services.testing import in_process_remote

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Where the examples say the development server runs.
EXAMPLE_HOST = "localhost:8000"

_FENCE = re.compile(
    r"^```(?P<language>[\w-]*)(?P<attributes>[^\n]*)\n(?P<text>.*?)^```$", re.S | re.M
)
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')
_HEADING = re.compile(r"^(?P<level>#{2,6}) (?P<text>.+?)\s*$", re.M)
_SETTING_HEADING = re.compile(r"`(?P<name>[A-Z][A-Z0-9_]*)`")
_INLINE_DEFAULT = re.compile(r"^Default: `(?P<value>.+)`\s*$", re.M)
_BLOCK_DEFAULT = re.compile(r"^Default:\s*\n+```python\n(?P<value>.*?)^```$", re.S | re.M)
_CHECK_ID = re.compile(r"django_services\.[EW]\d{3}")
# The remotes' settings reader emits its errors by number: `self.error(203, ...)`.
_NUMBERED_ERROR = re.compile(r"\.error\(\s*(\d{3}),")
_NUMBERED_ERROR_ID = 'id=f"django_services.E{'
_IMPORT = re.compile(
    r"^(from django_services[\w.]* import (?:\([^)]*\)|[^\n]+)|import django_services[\w.]*)", re.M
)

#: The settings that are dicts of settings, documented key by key.
SETTING_GROUPS = ("AUTHENTICATION", "JWT", "LOCAL", "REFRESH")
#: Settings that map names to options (each alias of `REMOTES`, the `AUTH` of a remote): each
#: option is documented under the setting, with the default of these dicts.
ENTRY_OPTIONS = {("REMOTES",): REMOTE_DEFAULTS, ("REMOTES", "AUTH"): REMOTE_AUTH_DEFAULTS}


@dataclasses.dataclass(frozen=True)
class Block:
    """A fenced code block of a page."""

    language: str
    title: str | None
    text: str


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def code_blocks(text: str, *languages: str) -> list[Block]:
    """The fenced code blocks of a page, in order, of the given languages (all when none)."""
    blocks = []
    for match in _FENCE.finditer(text):
        title = _TITLE.search(match["attributes"])
        block = Block(match["language"], title["title"] if title else None, match["text"])
        if not languages or block.language in languages:
            blocks.append(block)
    return blocks


def titled_block(text: str, title: str, contains: str = "") -> Block:
    """The one block with this title (and holding `contains`)."""
    found = [
        block for block in code_blocks(text) if block.title == title and contains in block.text
    ]
    assert len(found) == 1, f"expected one block titled {title!r} holding {contains!r}"
    return found[0]


# The build --------------------------------------------------------------------------------


def test_the_docs_build_without_warnings(tmp_path):
    for module in ("mkdocs", "material"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install -e '.[docs]')")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "settings" / "index.html").exists()


def test_every_page_is_in_the_nav():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    in_nav = set(re.findall(r"^  - [^:]+: (\S+\.md)$", config, re.M))

    assert in_nav == {path.name for path in DOCS.glob("*.md")}


# The settings reference -------------------------------------------------------------------


def documented_settings() -> dict[tuple[str, ...], str]:
    """Each setting of docs/settings.md (a heading that is only a `NAME`) -> its section text."""
    text = page("settings.md")
    headings = list(_HEADING.finditer(text))
    sections: dict[tuple[str, ...], str] = {}
    stack: list[tuple[int, str]] = []
    for index, heading in enumerate(headings):
        level = len(heading["level"])
        name = _SETTING_HEADING.fullmatch(heading["text"])
        while stack and stack[-1][0] >= level:
            stack.pop()
        if name is None:
            stack.clear()
            continue
        stack.append((level, name["name"]))
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        sections[tuple(key for _, key in stack)] = text[heading.end() : end]
    return sections


def default_settings(
    defaults: Mapping[str, Any], prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every setting path of DEFAULTS with its default; nested groups recurse."""
    for key, value in defaults.items():
        path = (*prefix, key)
        yield path, value
        if key in SETTING_GROUPS:
            yield from default_settings(value, path)


def documented_default(section: str) -> Any:
    match = _INLINE_DEFAULT.search(section) or _BLOCK_DEFAULT.search(section)
    assert match is not None, "no `Default:` line"
    return ast.literal_eval(match["value"].strip())


def reference_settings() -> dict[tuple[str, ...], Any]:
    """Every setting path the reference must document, with its default."""
    expected = dict(default_settings(DEFAULTS))
    for prefix, options in ENTRY_OPTIONS.items():
        expected.update({(*prefix, key): value for key, value in options.items()})
    return expected


def test_the_settings_reference_documents_every_setting_and_nothing_else():
    documented = documented_settings()

    assert sorted(documented) == sorted(reference_settings())


@pytest.mark.parametrize(
    "path", [path for path in reference_settings() if path[-1] not in SETTING_GROUPS], ids=".".join
)
def test_the_settings_reference_shows_each_default(path):
    section = documented_settings()[path]

    assert documented_default(section) == reference_settings()[path]


def check_ids_in_code() -> set[str]:
    """The ids of the system check messages the package emits."""
    texts = [
        source.read_text(encoding="utf-8") for source in (ROOT / "django_services").rglob("*.py")
    ]
    found = set()
    for text in texts:
        found.update(check_id for check_id in _CHECK_ID.findall(text) if f'id="{check_id}"' in text)
    # The remote settings' readers number their errors, `self.error(203, ...)`, and one module
    # makes the ids of the numbers.
    if any(_NUMBERED_ERROR_ID in text for text in texts):
        for text in texts:
            found.update(f"django_services.E{number}" for number in _NUMBERED_ERROR.findall(text))
    return found


def test_the_settings_reference_documents_every_system_check():
    in_code = check_ids_in_code()

    assert {"django_services.E001", "django_services.E203", "django_services.W212"} <= in_code
    assert in_code <= set(_CHECK_ID.findall(page("settings.md")))


# The wire contract ------------------------------------------------------------------------


def test_the_contract_lists_every_error_class():
    contract = page("contract.md")
    exported = [getattr(errors, name) for name in errors.__all__]
    classes = [
        value
        for value in exported
        if isinstance(value, type)
        and issubclass(value, errors.FeathersError)
        and value is not errors.FeathersError
    ]

    assert len(classes) == 20
    for cls in classes:
        row = f"| {cls.code} | {cls.__name__} | {cls.class_name} |"
        assert row in contract, row


# Examples ---------------------------------------------------------------------------------


def example_imports() -> list[str]:
    """Every `from django_services... import ...` statement of the examples, joined up."""
    statements = []
    for path in sorted(DOCS.glob("*.md")):
        for block in code_blocks(path.read_text(encoding="utf-8"), "python", "pycon"):
            lines = [re.sub(r"^(>>>|\.\.\.) ?", "", line) for line in block.text.splitlines()]
            source = "\n".join(lines)
            statements.extend(match[1] for match in _IMPORT.finditer(source))
    return statements


def test_examples_import_what_exists():
    statements = example_imports()

    assert len(statements) > 20
    for statement in statements:
        exec(statement, {})


def run_curl(command: str, base_url: str) -> str:
    """Send what a `curl` line of the docs sends; return the response body."""
    args = shlex.split(command)
    assert args[0] == "curl"
    method, data, url = None, None, None
    headers: dict[str, str] = {}
    options = iter(args[1:])
    for arg in options:
        if arg == "-X":
            method = next(options)
        elif arg == "-H":
            name, _, value = next(options).partition(":")
            headers[name.strip()] = value.strip()
        elif arg == "-d":
            data = next(options)
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        elif arg in ("-s", "-g", "-sg"):
            continue
        else:
            assert not arg.startswith("-"), f"unsupported curl option {arg}"
            url = arg
    assert url is not None and url.startswith(EXAMPLE_HOST), url
    method = method or ("POST" if data is not None else "GET")
    response = requests.request(
        method, base_url + url.removeprefix(EXAMPLE_HOST), headers=headers, data=data, timeout=10
    )
    return response.text


def curl_session(block: Block) -> Iterator[tuple[str, str]]:
    """The `$ curl ...` lines of a console block with the output the docs show for each."""
    command = None
    output: list[str] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            if command is not None:
                yield command, "\n".join(output)
            command, output = (line[2:] if line.startswith("$ curl") else None), []
        else:
            output.append(line)
    if command is not None:
        yield command, "\n".join(output)


def run_doctest(block: Block, globs: dict[str, Any], name: str) -> None:
    test = doctest.DocTestParser().get_doctest(block.text, globs, name, name, 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=report.append, clear_globs=False)
    globs.update(test.globs)

    assert result.failed == 0, "".join(report)


def run_python_sessions(name: str, server_url: str) -> set[str]:
    """
    Run the `pycon` blocks of a page in order, as one session, against `server_url`.

    Returns the names the session defined (the HTTP sessions it opened are closed by then).
    """
    globs: dict[str, Any] = {}
    try:
        for number, block in enumerate(code_blocks(page(name), "pycon")):
            text = block.text.replace(f"http://{EXAMPLE_HOST}", server_url)
            run_doctest(dataclasses.replace(block, text=text), globs, f"{name} pycon {number}")
        return set(globs)
    finally:
        close_client_connections(globs)


def close_client_connections(globs: dict[str, Any]) -> None:
    """
    Close the HTTP sessions an example opened, and wait for the live server's threads.

    Django's live server answers each keep-alive connection in a thread of its own, which
    closes the shared test database connection when it ends: it must end before the test does.
    """
    remotes.close_all()
    for value in globs.values():
        if isinstance(value, requests.Session):
            value.close()
    globs.clear()
    gc.collect()
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=10)


@pytest.fixture
def quickstart_service():
    text = page("quickstart.md")
    module = titled_block(text, "todos/services.py").text
    module = module.replace("from .models import Todo", "from tests.testapp.models import Todo")
    namespace: dict[str, Any] = {"__name__": "docs_quickstart"}
    exec(compile(module, "docs/quickstart.md: todos/services.py", "exec"), namespace)

    settings: dict[str, Any] = {}
    exec(titled_block(text, "settings.py", "DJANGO_SERVICES").text, settings)
    services = {
        path: namespace[dotted.removeprefix("todos.services.")]
        for path, dotted in settings["DJANGO_SERVICES"]["SERVICES"].items()
    }
    with override_settings(DJANGO_SERVICES={**settings["DJANGO_SERVICES"], "SERVICES": services}):
        yield


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.usefixtures("quickstart_service")
def test_the_quickstart_runs_as_shown(live_server):
    exchanges = [
        exchange
        for block in code_blocks(page("quickstart.md"), "console")
        for exchange in curl_session(block)
    ]
    for command, expected in exchanges:
        assert run_curl(command, live_server.url) == expected, command
    names = run_python_sessions("quickstart.md", live_server.url)

    assert len(exchanges) >= 8
    assert "todos" in names


class QuickstartProject:
    """A project built as the quickstart says, from `django-admin startproject` on."""

    def __init__(self, directory: Path) -> None:
        self.cwd = directory
        self.server: Any = None
        self.server_url = ""
        self.environment = {
            key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"
        }

    def run(self, command: str) -> None:
        """Run a `$ ...` line of the page (pip install is what this test runs under)."""
        from tests.example.project import COMMAND_TIMEOUT

        args = shlex.split(command)
        if args[0] == "cd":
            self.cwd = self.cwd / args[1]
            return
        if args[:4] == ["python", "-m", "pip", "install"]:
            assert importlib.util.find_spec("django_services") is not None
            return
        if args[:3] == ["python", "manage.py", "runserver"]:
            self.start_server()
            return
        if args[0] == "django-admin":
            args = [sys.executable, "-m", "django", *args[1:]]
        else:
            assert args[0] == "python", command
            args = [sys.executable, *args[1:]]
        result = subprocess.run(
            args,
            cwd=self.cwd,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"

    def write(self, block: Block) -> None:
        """Write a titled block into its file, as the page says."""
        assert block.title is not None
        path = self.cwd / block.title
        if block.title in ("settings.py", "urls.py"):
            path = self.cwd / "mysite" / block.title
        if block.title == "settings.py" and block.text.startswith("INSTALLED_APPS = ["):
            apps = [
                item
                for item in ast.literal_eval(block.text.split("=", 1)[1].replace("...,", ""))
                if item
            ]
            text = path.read_text(encoding="utf-8")
            end = text.index("]", text.index("INSTALLED_APPS = ["))
            added = "".join(f"    {app!r},\n" for app in apps)
            path.write_text(text[:end] + added + text[end:], encoding="utf-8")
        elif block.title == "settings.py":
            with path.open("a", encoding="utf-8") as settings_file:
                settings_file.write("\n" + block.text)
        else:
            path.write_text(block.text, encoding="utf-8")

    def start_server(self) -> None:
        from tests.servers import ProcessServer

        self.server = ProcessServer(
            "runserver",
            [sys.executable, "manage.py", "runserver", "--noreload", "127.0.0.1:{port}"],
            cwd=self.cwd,
            log_dir=self.cwd,
            env={**self.environment, "PYTHONUNBUFFERED": "1"},
            inherit_env=False,
            ready_path="/",
        ).start()
        self.server_url = self.server.url


def test_the_quickstart_works_from_startproject(tmp_path):
    project = QuickstartProject(tmp_path)
    exchanges = []
    try:
        for block in code_blocks(page("quickstart.md"), "console", "python"):
            if block.language == "python":
                project.write(block)
                continue
            for line in block.text.splitlines():
                if line.startswith("$ curl"):
                    continue
                if line.startswith("$ "):
                    project.run(line[2:])
            exchanges.extend(curl_session(block))
        for command, expected in exchanges:
            assert run_curl(command, project.server_url) == expected, command
        names = run_python_sessions("quickstart.md", project.server_url)
    finally:
        if project.server is not None:
            project.server.stop()

    assert len(exchanges) >= 8
    assert "todos" in names
    assert "Traceback" not in project.server.log(), project.server.log()


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_the_authentication_session_runs_as_shown(live_server, monkeypatch):
    from tests.testapp.models import User

    text = page("authentication.md")
    monkeypatch.setenv("JWT_SECRET", "a-secret-for-the-documentation-examples-of-32-bytes")
    settings: dict[str, Any] = {}
    exec(titled_block(text, "settings.py", "AUTHENTICATION").text, settings)
    # The page's own services (todos, users) are not part of the test project.
    configured = {**settings["DJANGO_SERVICES"], "SERVICES": {}}
    User.objects.create_user(email="ada@example.com", password="correct horse")

    with override_settings(DJANGO_SERVICES=configured):
        names = run_python_sessions("authentication.md", live_server.url)

    assert "app" in names


@pytest.mark.parametrize("name", ["query.md", "contract.md"])
def test_the_python_sessions_of_reference_pages_run_as_shown(name):
    blocks = code_blocks(page(name), "pycon")
    globs: dict[str, Any] = {}

    assert blocks
    for number, block in enumerate(blocks):
        run_doctest(block, globs, f"{name} pycon block {number}")


# Remote services ----------------------------------------------------------------------------


class ExampleEnvironment(dict):
    """`os.environ` for settings examples: every variable is set."""

    def __missing__(self, name: str) -> str:
        return f"the value of {name}"


def remote_settings_examples() -> list[tuple[str, str]]:
    """Every settings example of `REMOTES` in the docs: (page, source defining the settings)."""
    examples = []
    for path in sorted(DOCS.glob("*.md")):
        for block in code_blocks(path.read_text(encoding="utf-8"), "python"):
            text = block.text
            if text.startswith('"REMOTES": {'):
                text = f"DJANGO_SERVICES = {{{text}}}"
            if "DJANGO_SERVICES = {" in text and '"REMOTES"' in text:
                examples.append((path.name, text))
    return examples


def environment_variables(remote: Mapping[str, Any]) -> list[str]:
    """The environment variables a remote's `AUTH` names."""
    auth = remote.get("AUTH") or {}
    return [*auth.get("CREDENTIALS_ENV", {}).values(), *filter(None, [auth.get("TOKEN_ENV")])]


#: What a deployment has (see deployment.md): a cache every process shares.
SHARED_CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379",
    }
}


@pytest.mark.parametrize(
    ("name", "source"),
    remote_settings_examples(),
    ids=[f"{name}-{index}" for index, (name, _) in enumerate(remote_settings_examples())],
)
def test_the_remotes_examples_pass_the_system_checks(settings, monkeypatch, name, source):
    namespace: dict[str, Any] = {"os": types.SimpleNamespace(environ=ExampleEnvironment())}
    exec(compile(source, f"docs/{name}", "exec"), namespace)
    configured = namespace["DJANGO_SERVICES"]
    settings.DJANGO_SERVICES = configured
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "django_services.middleware.RemotesMiddleware"]
    settings.CACHES = namespace.get("CACHES", SHARED_CACHES)
    for remote in configured["REMOTES"].values():
        for variable in environment_variables(remote):
            monkeypatch.setenv(variable, "a value from the environment")

    assert check_remotes() == []


def test_there_are_remotes_examples():
    pages = {name for name, _ in remote_settings_examples()}

    assert {"remotes.md", "settings.md", "authentication.md", "deployment.md"} <= pages


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.usefixtures("quickstart_service")
def test_the_remotes_session_runs_as_shown(live_server):
    from django.conf import settings as django_settings

    namespace: dict[str, Any] = {}
    settings_example = titled_block(page("remotes.md"), "settings.py", '"todo-list"').text
    exec(settings_example.replace(f"http://{EXAMPLE_HOST}", live_server.url), namespace)
    configured = {**django_settings.DJANGO_SERVICES, **namespace["DJANGO_SERVICES"]}

    with override_settings(DJANGO_SERVICES=configured):
        names = run_python_sessions("remotes.md", live_server.url)

    assert "todos" in names


#: The key a remote shares with the project that signs its calls (the bridge of your own).
SIGNING_KEY = "the key shared by the project and the remote"


class SignatureCheckingService(Service):
    """A remote checking the signature of the calls, as the page's bridge makes it."""

    authentication_classes = []

    def find(self, params):
        # What the bridge signs: method, URL, timestamp and body (none for find).
        request = params.request
        timestamp = params.headers.get("x-timestamp", "")
        message = b"\n".join(
            [
                request.method.encode(),
                request.build_absolute_uri().encode(),
                timestamp.encode(),
                b"",
            ]
        )
        expected = hmac.new(SIGNING_KEY.encode(), message, hashlib.sha256).hexdigest()
        received = params.headers.get("x-signature", "")
        return {"verified": hmac.compare_digest(expected, received)}


@pytest.fixture
def signing_bridge(settings):
    """The page's bridge class and its `AUTH`, the class given as an object."""
    text = page("remotes.md")
    namespace: dict[str, Any] = {"__name__": "docs_remotes_bridges"}
    exec(titled_block(text, "shop/bridges.py").text, namespace)
    auth_line = next(
        block.text
        for block in code_blocks(text, "python")
        if '"CLASS": "shop.bridges' in block.text
    )
    auth = ast.literal_eval("{" + auth_line.strip().rstrip(",") + "}")["AUTH"]
    settings.DJANGO_SERVICES = {"SERVICES": {"signed": SignatureCheckingService}}
    return {**auth, "CLASS": namespace[auth["CLASS"].rpartition(".")[2]]}


def test_the_bridge_of_your_own_signs_each_call(signing_bridge, monkeypatch):
    monkeypatch.setenv(signing_bridge["KEY_ENV"], SIGNING_KEY)
    with in_process_remote("billing", AUTH=signing_bridge) as billing:
        problems = check_remotes()
        signed = billing.service("signed").find(query={"paid": False})
        monkeypatch.setenv(signing_bridge["KEY_ENV"], "another key")
        with_another_key = billing.service("signed").find()

    assert problems == []
    assert signed == {"verified": True}
    assert with_another_key == {"verified": False}


def test_the_bridge_of_your_own_checks_its_variable(signing_bridge, monkeypatch):
    monkeypatch.delenv(signing_bridge["KEY_ENV"], raising=False)
    with in_process_remote("billing", AUTH=signing_bridge):
        problems = check_remotes()

    assert [problem.id for problem in problems] == ["django_services.W208"]


# The README -------------------------------------------------------------------------------

README = ROOT / "README.md"
EXAMPLE = ROOT / "example_project"
#: Where the README's Call snippet says the example runs (uvicorn's default address).
EXAMPLE_ADDRESS = "http://127.0.0.1:8000"
_SECTION_FILE = re.compile(r"^# (?P<path>[\w/]+\.py)\n", re.M)
_PRINTED = re.compile(r"^\s*print\(.*\)  # (?P<output>.+)$", re.M)
_README_FIND = re.compile(r"`GET (?P<path>/\S+)` answers\s+`(?P<answer>\{[^`]+\})`")


def readme_section(heading: str) -> str:
    """The text of a `## heading` section of the README."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def readme_files(heading: str) -> dict[str, str]:
    """The files a section's Python block shows, each after its `# path.py` line."""
    (block,) = code_blocks(readme_section(heading), "python")
    parts = _SECTION_FILE.split(block.text)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def example_source(path: str) -> ast.Module:
    """The example project's file a README section names (`settings.py` is its settings)."""
    relative = f"config/{path}" if path in ("settings.py", "urls.py") else path
    return ast.parse((EXAMPLE / relative).read_text(encoding="utf-8"))


def assigned(module: ast.Module, name: str) -> ast.expr:
    """The value assigned to `name` at the top of a module."""
    for statement in module.body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in statement.targets
        ):
            return statement.value
    raise AssertionError(f"no {name} = ...")


def shown_items(node: ast.expr) -> list[str]:
    """The elements of a list or the items of a dict the README shows (`...` stands for more)."""
    if isinstance(node, ast.List):
        return [ast.dump(item) for item in node.elts if not _is_ellipsis(item)]
    assert isinstance(node, ast.Dict)
    pairs = zip(node.keys, node.values, strict=True)
    return [ast.dump(ast.Tuple([key, value])) for key, value in pairs if key is not None]


def _is_ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def settings_entries(module: ast.Module) -> dict[str, list[str]]:
    """The installed apps and the declared services, as the README or the example has them."""
    services_setting = assigned(module, "DJANGO_SERVICES")
    assert isinstance(services_setting, ast.Dict)
    keys = [ast.literal_eval(key) if key else None for key in services_setting.keys]
    services = dict(zip(keys, services_setting.values, strict=True))
    return {
        "INSTALLED_APPS": shown_items(assigned(module, "INSTALLED_APPS")),
        "SERVICES": shown_items(services["SERVICES"]),
    }


def test_the_readme_serves_what_the_example_project_serves():
    files = readme_files("Serve")
    shown_settings = settings_entries(ast.parse(files.pop("settings.py")))
    example_settings = settings_entries(example_source("settings.py"))
    shown_urls = shown_items(assigned(ast.parse(files.pop("urls.py")), "urlpatterns"))
    example_urls = shown_items(assigned(example_source("urls.py"), "urlpatterns"))

    for name, entries in shown_settings.items():
        assert entries and set(entries) <= set(example_settings[name]), name
    assert shown_urls and set(shown_urls) <= set(example_urls)
    assert set(files) == {"chat/services.py", "todos/services.py"}
    for path, source in files.items():
        example_classes = {
            node.name: {ast.dump(statement) for statement in node.body}
            for node in example_source(path).body
            if isinstance(node, ast.ClassDef)
        }
        for shown in ast.parse(source).body:
            assert isinstance(shown, ast.ClassDef), path
            for statement in shown.body:
                assert ast.dump(statement) in example_classes[shown.name], (
                    f"{path}: {shown.name} has no {ast.unparse(statement).splitlines()[0]!r}"
                )


@pytest.fixture(scope="module")
def example_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example project, migrated and seeded with its demo data, served as its README says."""
    from tests.example.project import ExampleDatabase, ExampleServer, manage

    directory = tmp_path_factory.mktemp("readme")
    database = ExampleDatabase.create(directory, "readme")
    try:
        manage("migrate", "--noinput", database=database)
        manage("seed_demo", database=database)
        server = ExampleServer(database, directory / "server.log").start()
        try:
            yield server.url
        finally:
            server.stop()
    finally:
        database.drop()


def demo_token(server_url: str) -> str:
    from tests.example.conftest import DEMO_EMAIL, DEMO_PASSWORD

    credentials = {"strategy": "local", "email": DEMO_EMAIL, "password": DEMO_PASSWORD}
    response = requests.post(f"{server_url}/authentication", json=credentials, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["accessToken"]


def test_the_readme_find_answers_as_shown_by_the_example_project(example_project):
    match = _README_FIND.search(readme_section("Serve"))
    assert match is not None
    shown = ast.literal_eval(match["answer"].replace("[...]", "None"))

    response = requests.get(
        example_project + match["path"],
        headers={"Authorization": f"Bearer {demo_token(example_project)}"},
        timeout=10,
    )

    assert response.status_code == 200, response.text
    answer = response.json()
    assert isinstance(answer, dict), answer
    assert {key: answer[key] for key in ("total", "limit", "skip")} == {
        key: shown[key] for key in ("total", "limit", "skip")
    }
    created = [message["createdAt"] for message in answer["data"]]
    assert len(created) == shown["limit"]
    assert created == sorted(created, reverse=True)


def test_the_readme_call_runs_as_shown_against_the_example_project(example_project):
    (block,) = code_blocks(readme_section("Call"), "python")
    assert EXAMPLE_ADDRESS in block.text
    expected = [match["output"] for match in _PRINTED.finditer(block.text)]
    source = block.text.replace(EXAMPLE_ADDRESS, example_project)
    output = io.StringIO()
    namespace: dict[str, Any] = {}
    try:
        with contextlib.redirect_stdout(output):
            exec(compile(source, "README.md: Call", "exec"), namespace)
    finally:
        close_client_connections(namespace)

    assert len(expected) == 2
    assert output.getvalue().splitlines() == expected


def test_the_project_has_one_name_in_prose():
    # django-feathers is the project and the distribution; django_services the package.
    texts = [README, *DOCS.glob("*.md"), EXAMPLE / "README.md", EXAMPLE / "config" / "settings.py"]
    named = [path.name for path in texts if "django-services" in path.read_text(encoding="utf-8")]

    assert named == []
