// @ts-check
/*
 * The demo page: a todo list and a chat, driven by the real Feathers browser client over
 * socket.io, live.
 *
 * `feathers` is the global of @feathersjs/client's browser bundle and `io` that of
 * socket.io-client's (static/vendor/, rebuilt with `npm ci && npm run vendor` in
 * example_project/frontend). Every call below is a plain Feathers client call; the Django
 * services answer them as a Feathers server would, and send their events to this socket:
 * the todos of the logged-in user and every chat message, whoever made them. A server
 * without socket.io (`manage.py runserver`) is called over REST instead, without events.
 *
 * The calls are type-checked (`tsc --noEmit`, with `checkJs`) against the declarations
 * `manage.py services_types` writes from the services' OpenAPI schema (demo/typings/).
 */
/** @typedef {import("../../typings/services").ServiceTypes} ServiceTypes */
/** @typedef {import("../../typings/services").TodosRecord} Todo */
/** @typedef {import("../../typings/services").ApiV1MessagesRecord} Message */
(async function () {
  "use strict";

  /** How many of the latest messages the chat shows. */
  const CHAT_LENGTH = 20;

  const root = document.getElementById("app");
  /** @type {(id: string) => any} */
  const element = (id) => document.getElementById(id);

  /**
   * The socket.io connection to the page's own origin (the session cookie goes with the
   * handshake), once it connects; null when the server answers 404 for socket.io, as Django's
   * `runserver` does. Other failures are retried, as socket.io-client does by itself.
   * @returns {Promise<ReturnType<typeof io> | null>}
   */
  function openSocket() {
    return new Promise((resolve) => {
      const socket = io(window.location.origin);
      const failed = (error) => {
        // A polling request's HTTP status is the error's `description`.
        if (/** @type {any} */ (error).description === 404) {
          socket.close();
          resolve(null);
        } else {
          setStatus(`Cannot reach the server (${error.message}); trying again.`);
        }
      };
      socket.on("connect_error", failed);
      socket.once("connect", () => {
        socket.off("connect_error", failed);
        resolve(socket);
      });
    });
  }

  // The Feathers application over socket.io, or REST over window.fetch, and the
  // authentication client, which keeps the access token in localStorage (and, over a socket,
  // logs the new socket in again after a reconnect).
  const socket = await openSocket();
  /** @type {import("@feathersjs/feathers").Application<ServiceTypes>} */
  const app = feathers();
  /** @type {import("@feathersjs/feathers").TransportConnection<ServiceTypes>} */
  const connection = socket
    ? feathers.socketio(socket)
    : feathers.rest(window.location.origin).fetch(window.fetch.bind(window));
  app.configure(connection);
  app.configure(feathers.authentication());

  // Staying logged in: each login answers a refresh token too (the server's `refresh`
  // strategy), kept beside the access token. Before the access token expires, the page
  // trades the refresh token for a new pair; over socket.io that logs the socket in with the
  // new token, so the server does not disconnect it when the old one expires.
  const REFRESH_KEY = "feathers-refresh";
  /** Seconds before the access token expires that the page refreshes it. */
  const REFRESH_MARGIN = 60;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let refreshTimer;

  /** @param {string} token @returns {number} the JWT's `exp`, in seconds */
  function expiryOf(token) {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(window.atob(payload)).exp;
  }

  /** Trades the stored refresh token for a new access token and refresh token. */
  async function refresh() {
    const refreshToken = window.localStorage.getItem(REFRESH_KEY);
    if (!refreshToken) {
      throw new Error("No refresh token");
    }
    return app.authenticate({ strategy: "refresh", refreshToken });
  }

  /** @param {string} accessToken */
  function scheduleRefresh(accessToken) {
    clearTimeout(refreshTimer);
    const remaining = expiryOf(accessToken) - Date.now() / 1000;
    // Halfway at the earliest, so a token shorter-lived than the margin is not refreshed
    // over and over.
    const delay = Math.max(remaining - REFRESH_MARGIN, remaining / 2, 0);
    refreshTimer = setTimeout(() => {
      // A refused refresh (the login ended) shows the login form at the next call's 401.
      refresh().catch(() => undefined);
    }, delay * 1000);
  }

  app.on("login", (result) => {
    if (result.refreshToken) {
      window.localStorage.setItem(REFRESH_KEY, result.refreshToken);
    }
    if (window.localStorage.getItem(REFRESH_KEY)) {
      scheduleRefresh(result.accessToken);
    }
  });
  app.on("logout", () => {
    clearTimeout(refreshTimer);
    window.localStorage.removeItem(REFRESH_KEY);
  });

  /** Logs in again with the stored access token or, once it has expired, the refresh token. */
  async function resume() {
    try {
      return await app.reAuthenticate();
    } catch (error) {
      if (!window.localStorage.getItem(REFRESH_KEY)) {
        throw error;
      }
      return refresh();
    }
  }
  // No `events` option: it would replace the socket service's own list of the events the
  // server sends, and the client would then emit them itself, back over the socket.
  app.use("todos", connection.service("todos"), {
    methods: ["find", "get", "create", "patch", "remove", "markAllComplete"],
  });
  const todos = app.service("todos");
  const messages = app.service("api/v1/messages");
  const users = app.service("users");

  // What the page shows, by id: a change arrives both as the answer to the page's own call
  // and as the service's event, and each only replaces the record it names.
  /** @type {Map<number, Todo>} */
  const todoItems = new Map();
  /** @type {Map<number, Message>} */
  const messageItems = new Map();
  /** @type {Map<number, string>} */
  const authors = new Map();
  let loggedIn = false;

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
    loggedIn = false;
    element("todos").hidden = true;
    element("chat").hidden = true;
    element("login").hidden = false;
    setStatus("Not logged in.");
  }

  async function showTodos(result) {
    loggedIn = true;
    element("user-email").textContent = result.user.email;
    element("user-strategy").textContent = result.authentication.strategy;
    element("transport").textContent = socket
      ? "over socket.io: changes made elsewhere show up here as they happen"
      : "over REST: this server has no socket.io, reload to see changes made elsewhere";
    authors.set(result.user.id, result.user.email);
    element("login").hidden = true;
    element("todos").hidden = false;
    element("chat").hidden = false;
    await Promise.all([refreshTodos(), refreshMessages()]);
    setStatus(`Loaded ${todoItems.size} todos.`);
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

  // Todos --------------------------------------------------------------------------------

  async function refreshTodos() {
    const found = await todos.find({ query: { $sort: { id: 1 } } });
    todoItems.clear();
    found.forEach((todo) => todoItems.set(todo.id, todo));
    renderTodos();
  }

  /** @param {Todo} todo */
  function keepTodo(todo) {
    todoItems.set(todo.id, todo);
    renderTodos();
  }

  /** @param {Todo} todo */
  function dropTodo(todo) {
    todoItems.delete(todo.id);
    renderTodos();
  }

  function renderTodos() {
    const items = [...todoItems.values()].sort((a, b) => a.id - b.id);
    element("todo-list").replaceChildren(...items.map(renderTodo));
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

  // Another page of the same user changed its todos: the server sent the events here.
  todos.on("created", keepTodo);
  todos.on("updated", keepTodo);
  todos.on("patched", keepTodo);
  todos.on("removed", dropTodo);
  // markAllComplete is one update in the database, announced by one event of its own.
  todos.on("markedAllComplete", () => refreshTodos().catch(showError));

  // Chat ---------------------------------------------------------------------------------

  async function refreshMessages() {
    const page = await messages.find({
      query: { $sort: { createdAt: -1 }, $limit: CHAT_LENGTH },
    });
    messageItems.clear();
    page.data.forEach((message) => messageItems.set(message.id, message));
    renderMessages();
  }

  /** @param {Message} message */
  function keepMessage(message) {
    messageItems.set(message.id, message);
    renderMessages();
  }

  function renderMessages() {
    const latest = [...messageItems.values()].sort((a, b) => a.id - b.id).slice(-CHAT_LENGTH);
    element("message-list").replaceChildren(...latest.map(renderMessage));
    latest.forEach((message) => learnAuthor(message.userId));
  }

  function renderMessage(message) {
    const item = document.createElement("li");
    item.dataset.id = message.id;
    const author = document.createElement("span");
    author.className = "author";
    author.textContent = authors.get(message.userId) || `user ${message.userId}`;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = message.text;
    item.append(author, text);
    return item;
  }

  // Messages name their author by id: fetch each author's email once, then show it.
  /** @type {Set<number>} */
  const asked = new Set();
  function learnAuthor(userId) {
    if (authors.has(userId) || asked.has(userId)) {
      return;
    }
    asked.add(userId);
    users.get(userId).then(
      (user) => {
        authors.set(userId, user.email);
        renderMessages();
      },
      () => asked.delete(userId)
    );
  }

  // Every logged-in user's messages arrive here, this page's own included.
  messages.on("created", keepMessage);

  // The connection -----------------------------------------------------------------------

  if (socket) {
    socket.on("connect_error", (error) => {
      setStatus(`Cannot reach the server (${error.message}); trying again.`);
    });
    socket.on("disconnect", () => {
      setStatus("Connection lost; reconnecting.");
    });
    // Back after a loss. Recovered (socket.io's connection state recovery): the server sent
    // the events missed meanwhile just before this, and the lists above took them in. Not
    // recovered (a long outage): the authentication client logs the new socket in again,
    // and what changed meanwhile sent no event here, so read it all again.
    socket.on("connect", () => {
      if (!loggedIn) {
        return;
      }
      if (socket.recovered) {
        setStatus("Back online: changes made meanwhile received.");
        return;
      }
      run(async () => {
        await showTodos(await resume());
        setStatus(`Back online: reloaded ${todoItems.size} todos.`);
      });
    });
  }

  // User actions -------------------------------------------------------------------------

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
        todoItems.clear();
        messageItems.clear();
        renderTodos();
        renderMessages();
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
      keepTodo(todo);
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
      keepTodo(todo);
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
      dropTodo(todo);
      setStatus(`Removed "${todo.text}".`);
    });
  });

  element("mark-all").addEventListener("click", () => {
    run(async () => {
      const { updated } = await todos.markAllComplete({});
      await refreshTodos();
      setStatus(`markAllComplete updated ${updated} todos.`);
    });
  });

  element("clear-completed").addEventListener("click", () => {
    run(async () => {
      const removed = await todos.remove(null, { query: { complete: true } });
      removed.forEach(dropTodo);
      setStatus(`Removed ${removed.length} completed todos.`);
    });
  });

  element("message-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run(async () => {
      const message = await messages.create({ text: element("message-text").value });
      element("message-text").value = "";
      keepMessage(message);
    });
  });

  // On load: a Django session gets a token with the session strategy (its cookie went with
  // the socket's handshake, or goes with each REST request), otherwise the tokens stored by
  // an earlier visit are tried, otherwise the login form shows.
  async function start() {
    const sessionUser = root.dataset.sessionUser;
    try {
      const result = sessionUser
        ? await app.authenticate(
            { strategy: "session" },
            // Over REST, with the CSRF token; a socket sends no headers, and its handshake
            // is accepted from this origin only.
            { headers: { "X-CSRFToken": root.dataset.csrfToken } }
          )
        : await resume();
      await showTodos(result);
    } catch (error) {
      showLogin();
      if (sessionUser) {
        showError(error);
      }
    }
  }

  await start();
})();
