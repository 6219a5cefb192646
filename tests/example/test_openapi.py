"""
The example project's schema, API docs and typed clients, against the running example.

* the served schema validates, and is what `manage.py spectacular` writes;
* schemathesis, a bounded number of examples per operation: no server error, no response
  that breaks the schema;
* Swagger UI and Redoc render in headless Chromium (screenshots kept in the test's tmp dir);
* the committed declarations (`demo/typings/`) are what `manage.py services_types` writes, the
  Python ones describe real records, and the page type-checks against `@feathersjs/feathers`.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import shutil
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from openapi_spec_validator import validate
from schemathesis import checks
from schemathesis.specs.openapi import checks as openapi_checks

from tests.example.project import EXAMPLE_DIR, ExampleServer, manage

TYPINGS = EXAMPLE_DIR / "demo" / "typings"
NODE_DIR = Path(__file__).resolve().parents[1] / "interop" / "node"
CHROMIUM = next(
    filter(None, map(shutil.which, ["chromium", "chromium-browser", "google-chrome"])), None
)
#: Examples schemathesis generates for each of the 29 operations: about 20 seconds in all.
EXAMPLES_PER_OPERATION = 40
CHECKS = [
    checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.response_headers_conformance,
]


@pytest.fixture(scope="module")
def served_schema(example_server: ExampleServer) -> dict[str, Any]:
    response = requests.get(f"{example_server.url}/api/schema/", params={"format": "json"})
    assert response.status_code == 200
    return response.json()


def test_the_example_serves_a_valid_schema_of_every_service(served_schema):
    validate(served_schema)

    assert served_schema["openapi"] == "3.1.0"
    assert {
        "/todos",
        "/todos/{id}",
        "/api/v1/messages",
        "/users",
        "/users/{userId}/notes",
        "/users/{userId}/notes/{id}",
        "/authentication",
    } <= set(served_schema["paths"])


def test_spectacular_writes_the_served_schema(example_server, served_schema):
    written = manage("spectacular", "--format", "openapi-json", database=example_server.database)

    assert json.loads(written) == served_schema


def test_the_docs_pages_and_their_assets_are_served(example_server):
    for page in ("/api/docs/", "/api/redoc/"):
        html = requests.get(example_server.url + page).text
        assets = [part.split('"', 1)[0] for part in html.split('src="')[1:]]

        assert assets and all(asset.startswith("/static/") for asset in assets), assets
        for asset in assets:
            assert requests.get(example_server.url + asset).status_code == 200, asset


#: Calls that would end the session of the run: logging out, removing its own account.
ENDS_THE_RUN = {("/authentication", "delete"), ("/users/{id}", "delete")}


def test_schemathesis_finds_no_server_error_and_no_schema_violation(example_server):
    account = {"email": "schemathesis@example.org", "password": "fuzzing lantern granite"}
    signed_up = requests.post(f"{example_server.url}/users", json=account)
    assert signed_up.status_code == 201, signed_up.text
    login = requests.post(
        f"{example_server.url}/authentication", json={"strategy": "local", **account}
    )
    headers = {"Authorization": f"Bearer {login.json()['accessToken']}"}
    schema = schemathesis.openapi.from_url(f"{example_server.url}/api/schema/?format=json")
    tested, sent = 0, 0
    for result in schema.get_all_operations():
        operation = result.ok()
        if (operation.path, operation.method) in ENDS_THE_RUN:
            continue

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def call(case: Any) -> None:
            nonlocal sent
            case.call_and_validate(base_url=example_server.url, headers=headers, checks=CHECKS)
            sent += 1

        call()
        tested += 1
    assert tested >= 25
    assert sent >= tested * EXAMPLES_PER_OPERATION // 2
    print(f"schemathesis: {sent} calls on {tested} operations", file=sys.stderr)


@pytest.fixture
def typeddicts() -> Iterator[dict[str, Any]]:
    """The example's generated `TypedDict`s, imported as a module of their own."""
    spec = importlib.util.spec_from_file_location("example_services_types", TYPINGS / "services.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield vars(module)
    finally:
        del sys.modules[spec.name]


def test_the_python_typeddicts_describe_real_records(demo, typeddicts):
    namespace = typeddicts
    todo = demo.app.service("todos").create({"text": "typed"})
    page = demo.app.service("api/v1/messages").find({"query": {"$limit": 2}})

    for name, record in (("Todo", todo), ("Message", page["data"][0])):
        record_type = namespace[name]
        hints = typing.get_type_hints(record_type)
        assert set(record) == set(hints), name
        assert record_type.__required_keys__ <= set(record), name
        for key, value in record.items():
            assert isinstance(value, typing.get_args(hints[key]) or hints[key]), (name, key)
    assert set(page) == set(typing.get_type_hints(namespace["ApiV1MessagesPage"]))


@pytest.mark.parametrize(
    ("option", "committed"), [("--typescript", "services.d.ts"), ("--python", "services.py")]
)
def test_the_committed_declarations_are_current(example_server, option, committed):
    written = manage("services_types", option, "-", database=example_server.database)

    assert written == (TYPINGS / committed).read_text()


# The page type-checks against the real Feathers packages ------------------------------------------


def run_tsc(node_packages: Path, tmp_path: Path, files: list[Path]) -> subprocess.CompletedProcess:
    config = {
        "compilerOptions": {
            "noEmit": True,
            "allowJs": True,
            "checkJs": True,
            "strict": False,
            "target": "es2022",
            "module": "nodenext",
            "moduleResolution": "nodenext",
            "lib": ["es2022", "dom", "dom.iterable"],
            "skipLibCheck": True,
            "types": [],
            "paths": {"@feathersjs/*": [str(node_packages / "@feathersjs" / "*")]},
        },
        "files": [str(path) for path in files],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    return subprocess.run(
        [str(node_packages / ".bin" / "tsc"), "-p", str(tmp_path / "tsconfig.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def node_packages() -> Path:
    from tests.interop.feathers_js import InstallFailed, NodeMissing, install_packages

    try:
        return install_packages()
    except (NodeMissing, InstallFailed) as exc:
        pytest.skip(str(exc))


@pytest.mark.interop
def test_the_page_type_checks_against_the_feathers_types(node_packages, tmp_path):
    page = EXAMPLE_DIR / "demo" / "static" / "demo" / "app.js"

    checked = run_tsc(node_packages, tmp_path, [TYPINGS / "feathers.d.ts", page])

    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.interop
def test_a_wrong_call_in_the_page_fails_the_check(node_packages, tmp_path):
    page = (EXAMPLE_DIR / "demo" / "static" / "demo" / "app.js").read_text()
    right = 'todos.create({ text: element("todo-text").value })'
    assert right in page
    wrong = page.replace(right, 'todos.create({ txt: element("todo-text").value })').replace(
        '"../../typings/services"', json.dumps((TYPINGS / "services").as_posix())
    )
    (tmp_path / "app.js").write_text(wrong)

    checked = run_tsc(node_packages, tmp_path, [TYPINGS / "feathers.d.ts", tmp_path / "app.js"])

    assert checked.returncode != 0
    assert "'txt' does not exist in type 'TodoRequest'" in checked.stdout


@pytest.mark.interop
def test_the_declarations_refuse_wrong_calls(node_packages, tmp_path):
    misuse = tmp_path / "misuse.ts"
    misuse.write_text(
        f"import {{ feathers }} from '@feathersjs/feathers'\n"
        f"import type {{ ServiceTypes }} from '{(TYPINGS / 'services').as_posix()}'\n"
        "const app = feathers<ServiceTypes>()\n"
        "app.service('todos').create({ txt: 'milk' })\n"
        "app.service('todos').find({ query: { colour: 'red' } })\n"
        "app.service('api/v1/messages').find({ query: { text: { $like: 1 } } })\n"
        "app.service('nowhere')\n"
        "const check = async () => (await app.service('api/v1/messages').find()).data[0].text\n"
    )

    checked = run_tsc(node_packages, tmp_path, [misuse])

    errors = [line for line in checked.stdout.splitlines() if "error TS" in line]
    assert [line.split("(", 2)[1].split(",")[0] for line in errors] == ["4", "5", "6", "7"], (
        checked.stdout
    )


# The API docs render ---------------------------------------------------------------------------


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
async def test_swagger_ui_and_redoc_render_every_service(example_server, served_schema, tmp_path):
    from tests.example.browser import Chromium

    operations = sum(len(item) for item in served_schema["paths"].values())
    async with Chromium(CHROMIUM, tmp_path / "profile") as page:
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            width=1400,
            height=1000,
            deviceScaleFactor=1,
            mobile=False,
        )
        await page.navigate(f"{example_server.url}/api/docs/")
        shown = await page.wait_for(
            f"document.querySelectorAll('.opblock').length >= {operations} "
            "&& document.querySelectorAll('.opblock').length"
        )
        tags = await page.evaluate(
            "[...document.querySelectorAll('.opblock-tag')].map((tag) => tag.dataset.tag)"
        )
        await screenshot(page, tmp_path / "swagger-ui.png")
        assert shown == operations
        assert {"todos", "api/v1/messages", "users/:userId/notes", "authentication"} <= set(tags)

        await page.navigate(f"{example_server.url}/api/redoc/")
        titles = await page.wait_for(
            "document.querySelectorAll('[data-section-id^=\"operation/\"]').length >= "
            f"{operations} && [...document.querySelectorAll('h2')].map((h) => h.textContent.trim())"
        )
        await screenshot(page, tmp_path / "redoc.png")
        assert "Find the records matching the query, a page at a time." in titles


async def screenshot(page: Any, path: Path) -> None:
    shot = await page.send("Page.captureScreenshot", format="png")
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.stat().st_size > 10_000
    print(f"screenshot: {path}", file=sys.stderr)
