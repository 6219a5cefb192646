// @ts-check
/*
 * The demo page: a todo list driven by the real Feathers browser client.
 *
 * `feathers` is the global of @feathersjs/client's browser bundle (static/vendor/feathers/,
 * rebuilt with `npm ci && npm run vendor` in example_project/frontend). Every call below is a
 * plain Feathers client call; the Django services answer them as a Feathers server would.
 *
 * The calls are type-checked (`tsc --noEmit`, with `checkJs`) against the declarations
 * `manage.py services_types` writes from the services' OpenAPI schema (demo/typings/).
 */
/** @typedef {import("../../typings/services").ServiceTypes} ServiceTypes */
(function () {
  "use strict";

  const root = document.getElementById("app");
  /** @type {(id: string) => any} */
  const element = (id) => document.getElementById(id);

  // The Feathers application: REST over window.fetch, and the authentication client, which
  // keeps the access token in localStorage and sends it with every call.
  /** @type {import("@feathersjs/feathers").Application<ServiceTypes>} */
  const app = feathers();
  /** @type {import("@feathersjs/feathers").TransportConnection<ServiceTypes>} */
  const restClient = feathers.rest(window.location.origin).fetch(window.fetch.bind(window));
  app.configure(restClient);
  app.configure(feathers.authentication());
  app.use("todos", restClient.service("todos"), {
    methods: ["find", "get", "create", "patch", "remove", "markAllComplete"],
  });
  const todos = app.service("todos");

  /** @type {import("../../typings/services").TodosRecord[]} */
  let items = [];

  function setStatus(text) {
    element("status").textContent = text;
  }

  function clearError() {
    const box = element("error");
    box.hidden = true;
    box.textContent = "";
  }

  // A Feathers error keeps the server's class name, message and field errors.
  function showError(error) {
    const box = element("error");
    let text = `${error.name || "Error"}: ${error.message}`;
    if (error.errors && typeof error.errors === "object") {
      const details = Object.entries(error.errors).map(
        ([field, messages]) => `${field}: ${[].concat(messages).join(" ")}`
      );
      if (details.length) {
        text += ` (${details.join("; ")})`;
      }
    }
    box.textContent = text;
    box.hidden = false;
  }

  function showLogin() {
    element("todos").hidden = true;
    element("login").hidden = false;
    setStatus("Not logged in.");
  }

  async function showTodos(result) {
    element("user-email").textContent = result.user.email;
    element("user-strategy").textContent = result.authentication.strategy;
    element("login").hidden = true;
    element("todos").hidden = false;
    await refresh();
    setStatus(`Loaded ${items.length} todos.`);
  }

  // Runs one user action: errors are shown, and a 401 sends the user back to the login form.
  async function run(action) {
    clearError();
    try {
      await action();
    } catch (error) {
      showError(error);
      if (error.code === 401) {
        showLogin();
      }
    }
  }

  async function refresh() {
    items = await todos.find({ query: { $sort: { id: 1 } } });
    render();
  }

  function render() {
    const list = element("todo-list");
    list.replaceChildren(...items.map(renderTodo));
    const done = items.filter((todo) => todo.complete).length;
    element("todo-count").textContent = `${done} of ${items.length} complete`;
  }

  function renderTodo(todo) {
    const item = document.createElement("li");
    item.dataset.id = todo.id;
    item.classList.toggle("complete", todo.complete);

    const label = document.createElement("label");
    const checkbox = document.createElement("input");
    checkbox.type = "checkbox";
    checkbox.checked = todo.complete;
    checkbox.dataset.action = "toggle";
    const text = document.createElement("span");
    text.textContent = todo.text;
    label.append(checkbox, " ", text);

    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "link";
    remove.dataset.action = "remove";
    remove.title = "Remove";
    remove.textContent = "\u00d7";

    item.append(label, remove);
    return item;
  }

  element("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run(async () => {
      const result = await app.authenticate({
        strategy: "local",
        email: element("email").value,
        password: element("password").value,
      });
      element("password").value = "";
      await showTodos(result);
    });
  });

  element("logout").addEventListener("click", () => {
    run(async () => {
      await app.logout();
      if (root.dataset.sessionUser) {
        // End the Django session too, or the page would log in again with it.
        element("django-logout").submit();
      } else {
        items = [];
        render();
        showLogin();
      }
    });
  });

  element("todo-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run(async () => {
      // Sent as typed: an empty text shows the server's validation error.
      const todo = await todos.create({ text: element("todo-text").value });
      element("todo-text").value = "";
      await refresh();
      setStatus(`Added "${todo.text}".`);
    });
  });

  element("todo-list").addEventListener("change", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.dataset.action !== "toggle") {
      return;
    }
    const id = target.closest("li").dataset.id;
    const complete = target.checked;
    run(async () => {
      const todo = await todos.patch(id, { complete });
      await refresh();
      setStatus(`"${todo.text}" is ${todo.complete ? "complete" : "to do"}.`);
    });
  });

  element("todo-list").addEventListener("click", (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.dataset.action !== "remove") {
      return;
    }
    const id = target.closest("li").dataset.id;
    run(async () => {
      const todo = await todos.remove(id);
      await refresh();
      setStatus(`Removed "${todo.text}".`);
    });
  });

  element("mark-all").addEventListener("click", () => {
    run(async () => {
      const { updated } = await todos.markAllComplete({});
      await refresh();
      setStatus(`markAllComplete updated ${updated} todos.`);
    });
  });

  element("clear-completed").addEventListener("click", () => {
    run(async () => {
      const removed = await todos.remove(null, { query: { complete: true } });
      await refresh();
      setStatus(`Removed ${removed.length} completed todos.`);
    });
  });

  // On load: a Django session gets a token with the session strategy (a CSRF-checked POST),
  // otherwise a token stored by an earlier visit is tried, otherwise the login form shows.
  async function start() {
    const sessionUser = root.dataset.sessionUser;
    try {
      const result = sessionUser
        ? await app.authenticate(
            { strategy: "session" },
            { headers: { "X-CSRFToken": root.dataset.csrfToken } }
          )
        : await app.reAuthenticate();
      await showTodos(result);
    } catch (error) {
      showLogin();
      if (sessionUser) {
        showError(error);
      }
    }
  }

  start();
})();
