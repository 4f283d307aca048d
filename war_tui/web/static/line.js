// The web door's plain-text page: the line mode's sentences in a live list, typed lines back.
// Server to page: one text message per sentence. Page to server: one text message per line typed
// (an empty line flips). Sentences are added as text, never as markup.
"use strict";

(function () {
  const KEEP = 200;  // sentences kept on the page; older ones are removed as new ones come
  const join = document.getElementById("join");
  const nameBox = document.getElementById("name");
  const keys = document.getElementById("keys");
  const sayBox = document.getElementById("say");
  const log = document.getElementById("log");
  const status = document.getElementById("status");
  nameBox.value = localStorage.getItem("war-tui-name") || "";

  let socket = null;

  function add(sentence) {
    const item = document.createElement("li");
    item.textContent = sentence;
    log.appendChild(item);
    while (log.children.length > KEEP) log.removeChild(log.firstElementChild);
    item.scrollIntoView({ block: "nearest" });
  }

  function send(line) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(line);
    sayBox.focus();
  }

  function start() {
    const name = nameBox.value.trim();
    localStorage.setItem("war-tui-name", name);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = new URLSearchParams({ name: name });
    socket = new WebSocket(scheme + "//" + location.host + "/ws" + location.pathname + "?" + query);
    status.textContent = "";
    join.hidden = true;
    keys.hidden = false;
    sayBox.focus();
    socket.onmessage = (event) => {
      if (typeof event.data === "string") add(event.data);
    };
    socket.onclose = (event) => {
      socket = null;
      keys.hidden = true;
      join.hidden = false;
      document.getElementById("play").textContent = "Play again";
      status.textContent = event.code === 1000 || event.code === 1013 || event.code === 1008
        ? "The game is over. Play again?" : "The connection was lost. Play again?";
      document.getElementById("play").focus();
    };
  }

  join.addEventListener("submit", (event) => {
    event.preventDefault();
    start();
  });
  keys.addEventListener("submit", (event) => {
    event.preventDefault();
    send(sayBox.value);
    sayBox.value = "";
  });
  for (const button of keys.querySelectorAll("button[data-line]")) {
    button.addEventListener("click", () => send(button.dataset.line));
  }
  nameBox.focus();
})();
