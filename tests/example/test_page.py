"""
The page Django serves, its static files, and the way it gets a token from a Django session.
"""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from django_services import errors

from .conftest import DEMO_EMAIL, DEMO_PASSWORD
from .project import EXAMPLE_DIR

VENDOR_DIR = EXAMPLE_DIR / "demo" / "static" / "vendor"
#: The files `npm run vendor` copies, by directory of `VENDOR_DIR`.
VENDORED = {
    "feathers": ["LICENSE", "feathers.js", "feathers.js.map"],
    "socket.io": ["LICENSE", "socket.io.min.js", "socket.io.min.js.map"],
}


@pytest.fixture
def browser_session():
    with requests.Session() as session:
        yield session


def django_login(url: str, session: requests.Session, email: str, password: str) -> str:
    """Log in with Django's login form; return the CSRF token REST writes then need."""
    session.get(f"{url}/login/").raise_for_status()
    response = session.post(
        f"{url}/login/",
        data={
            "username": email,
            "password": password,
            "next": "/",
            "csrfmiddlewaretoken": session.cookies["csrftoken"],
        },
        allow_redirects=False,
    )
    assert response.status_code == 302, response.text
    assert response.headers["Location"] == "/"
    page = session.get(f"{url}/").text
    assert f'data-session-user="{email}"' in page
    return session.cookies["csrftoken"]


def test_the_page_loads_the_feathers_and_socket_io_clients_and_shows_the_demo_login(example_server):
    response = requests.get(f"{example_server.url}/", timeout=10)

    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    page = response.text
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts == [
        "/static/vendor/socket.io/socket.io.min.js",
        "/static/vendor/feathers/feathers.js",
        "/static/demo/app.js",
    ]
    assert f'<code id="demo-email">{DEMO_EMAIL}</code>' in page
    assert f'<code id="demo-password">{DEMO_PASSWORD}</code>' in page
    assert 'data-session-user=""' in page
    for script in scripts:
        served = requests.get(f"{example_server.url}{script}", timeout=10)
        assert served.status_code == 200
        assert "javascript" in served.headers["Content-Type"]
    for script in scripts[:2]:
        bundle = requests.get(f"{example_server.url}{script}", timeout=10)
        assert bundle.content == (VENDOR_DIR / script.removeprefix("/static/vendor/")).read_bytes()


def test_the_page_s_icon_is_served_where_it_links_it_and_at_favicon_ico(example_server):
    page = requests.get(f"{example_server.url}/", timeout=10).text
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', page)
    assert icons == ["/static/demo/favicon.svg"]
    for path in (icons[0], "/favicon.ico"):
        icon = requests.get(f"{example_server.url}{path}", timeout=10)
        assert icon.status_code == 200, path
        assert icon.headers["Content-Type"].startswith("image/svg+xml"), path
        assert icon.content.startswith(b"<svg"), path


def test_django_s_login_page_the_admin_and_their_static_files_are_served(example_server):
    for path in ("/login/", "/admin/login/"):
        page = requests.get(f"{example_server.url}{path}", timeout=10)
        assert page.status_code == 200, path
        assert 'name="csrfmiddlewaretoken"' in page.text, path
    stylesheet = requests.get(f"{example_server.url}/static/admin/css/base.css", timeout=10)
    assert stylesheet.status_code == 200
    assert stylesheet.headers["Content-Type"].startswith("text/css")


def test_socket_io_is_served_on_the_same_port(example_server):
    response = requests.get(
        f"{example_server.url}/socket.io/", params={"EIO": "4", "transport": "polling"}, timeout=10
    )

    assert response.status_code == 200
    assert response.text.startswith('0{"sid":')


def test_a_django_session_gets_a_token_with_the_session_strategy(
    example_server, connect, browser_session
):
    csrf_token = django_login(example_server.url, browser_session, DEMO_EMAIL, DEMO_PASSWORD)
    app = connect(browser_session)

    result = app.authenticate({"strategy": "session"}, {"headers": {"X-CSRFToken": csrf_token}})

    assert result["authentication"]["strategy"] == "session"
    assert result["user"]["email"] == DEMO_EMAIL
    assert result["accessToken"].count(".") == 2
    assert app.service("todos").find() != []


def test_the_session_strategy_needs_the_csrf_token(example_server, connect, browser_session):
    django_login(example_server.url, browser_session, DEMO_EMAIL, DEMO_PASSWORD)

    with pytest.raises(errors.Forbidden) as caught:
        connect(browser_session).authenticate({"strategy": "session"})

    assert caught.value.message.startswith("CSRF Failed")


def test_the_session_strategy_needs_a_logged_in_session(connect):
    with pytest.raises(errors.NotAuthenticated) as caught:
        connect().authenticate({"strategy": "session"})

    assert caught.value.message == "No logged-in session"


def test_a_django_session_also_authenticates_service_calls(
    example_server, connect, browser_session
):
    csrf_token = django_login(example_server.url, browser_session, DEMO_EMAIL, DEMO_PASSWORD)
    todos = connect(browser_session).service("todos")

    assert todos.find()[0]["text"] == "Read the django-feathers README"
    with pytest.raises(errors.Forbidden):
        todos.create({"text": "Without the CSRF token"})
    created = todos.create({"text": "With the CSRF token"}, headers={"X-CSRFToken": csrf_token})
    assert created["text"] == "With the CSRF token"
    todos.remove(created["id"], headers={"X-CSRFToken": csrf_token})


@pytest.mark.interop
def test_the_committed_bundles_are_what_npm_run_vendor_builds(tmp_path: Path):
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to rebuild the Feathers bundle")
    frontend = tmp_path / "frontend"
    frontend.mkdir()
    for name in ("package.json", "package-lock.json", "vendor.mjs"):
        shutil.copy(EXAMPLE_DIR / "frontend" / name, frontend / name)

    for command in (["ci", "--no-audit", "--no-fund"], ["run", "vendor"]):
        result = subprocess.run(
            [npm, *command], cwd=frontend, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stdout + result.stderr

    rebuilt = tmp_path / "demo" / "static" / "vendor"
    assert sorted(path.name for path in VENDOR_DIR.iterdir()) == sorted(VENDORED)
    for directory, names in VENDORED.items():
        assert sorted(path.name for path in (VENDOR_DIR / directory).iterdir()) == names
        _, mismatch, missing = filecmp.cmpfiles(
            VENDOR_DIR / directory, rebuilt / directory, names, shallow=False
        )
        assert (mismatch, missing) == ([], []), directory
