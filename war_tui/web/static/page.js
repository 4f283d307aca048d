// The web door's page: asks for a name, then plays the game in xterm.js over one websocket.
// Server to page: binary messages are the game's screen. Page to server: binary messages are keys,
// a text message "COLS ROWS" is the terminal's size.
"use strict";

(function () {
  // xterm.js adds <style> elements as it draws; the policy lets through only those with the page's nonce.
  const nonce = document.querySelector('meta[name="style-nonce"]').content;
  const createElement = document.createElement.bind(document);
  document.createElement = function (name, options) {
    const element = createElement(name, options);
    if (String(name).toLowerCase() === "style") {
      element.setAttribute("nonce", nonce);
      element.nonce = nonce;
    }
    return element;
  };

  const form = document.getElementById("join");
  const nameBox = document.getElementById("name");
  const status = document.getElementById("status");
  const holder = document.getElementById("terminal");
  nameBox.value = localStorage.getItem("war-tui-name") || "";

  let socket = null;
  const term = new Terminal({
    cursorBlink: false,
    fontFamily: "DejaVu Sans Mono, Menlo, Consolas, monospace",
    fontSize: 15,
    scrollback: 0,
    allowProposedApi: false,
  });
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(holder);
  fit.fit();
  const encoder = new TextEncoder();
  term.onData((data) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(data));
  });
  term.onBinary((data) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const bytes = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
    socket.send(bytes);
  });
  term.onResize(({ cols, rows }) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(cols + " " + rows);
  });
  new ResizeObserver(() => fit.fit()).observe(holder);  // the window, or the bar above growing or shrinking
  term.write("\r\n  War: choose the name the others will see, then press Enter or Play.\r\n");

  function start() {
    const name = nameBox.value.trim();
    localStorage.setItem("war-tui-name", name);
    fit.fit();
    term.reset();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const path = location.pathname === "/" ? "" : location.pathname;
    const query = new URLSearchParams({ name: name, cols: term.cols, rows: term.rows });
    socket = new WebSocket(scheme + "//" + location.host + "/ws" + path + "?" + query);
    socket.binaryType = "arraybuffer";
    document.body.classList.add("playing");
    status.textContent = "";
    socket.onopen = () => { term.focus(); };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") term.write(new Uint8Array(event.data));
    };
    socket.onclose = (event) => {
      socket = null;
      document.body.classList.remove("playing");
      status.textContent = event.code === 1000 || event.code === 1013 || event.code === 1008
        ? "The game is over. Play again?" : "The connection was lost. Play again?";
      document.getElementById("play").textContent = "Play again";
    };
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    start();
  });
  nameBox.focus();
})();
