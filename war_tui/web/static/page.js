// The web door's page: plays the game in xterm.js over one websocket, the keyboard's focus on the terminal
// (Shift+Tab leaves it) while a game runs, on "Play again" once it has ended.
// A solo game, or any place once this browser remembers a name, starts as the page opens; a table or the
// lobby first asks the name the others will see. The name box stays: a new name there plays again under it.
// A page another site led to (the server says so in <meta name="starts">) starts nothing until Play.
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
  const play = document.getElementById("play");
  nameBox.value = localStorage.getItem("war-tui-name") || "";

  let socket = null;
  const term = new Terminal({
    cursorBlink: false,
    fontFamily: "DejaVu Sans Mono, Menlo, Consolas, monospace",
    fontSize: 15,
    scrollback: 0,
    allowProposedApi: false,
  });
  // Shift+Tab is the browser's, not the game's: the keyboard leaves the terminal for the page (its links and
  // the name box) as from any other field. Every other key, Tab too, goes to the game.
  term.attachCustomKeyEventHandler((event) => !(event.key === "Tab" && event.shiftKey));
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(holder);
  fit.fit();
  const encoder = new TextEncoder();
  let early = [];  // keys pressed while the socket opens, sent once it has (a few: the first flip, not a pile)
  function send(bytes) {
    if (!socket) return;
    if (socket.readyState === WebSocket.OPEN) socket.send(bytes);
    else if (socket.readyState === WebSocket.CONNECTING && early.length < 8) early.push(bytes);
  }
  term.onData((data) => send(encoder.encode(data)));
  term.onBinary((data) => {
    const bytes = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 0xff;
    send(bytes);
  });
  term.onResize(({ cols, rows }) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(cols + " " + rows);
  });
  new ResizeObserver(() => fit.fit()).observe(holder);  // the window, or the bar above growing or shrinking

  function start() {
    const name = nameBox.value.trim();
    if (name) localStorage.setItem("war-tui-name", name);
    if (socket) {  // a new name: this game ends, the next one starts under it
      socket.onclose = socket.onmessage = null;
      socket.close(1000);
    }
    fit.fit();
    term.reset();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const path = location.pathname === "/" ? "" : location.pathname;
    const query = new URLSearchParams({ name: name, cols: term.cols, rows: term.rows });
    const current = socket = new WebSocket(scheme + "//" + location.host + "/ws" + path + "?" + query);
    socket.binaryType = "arraybuffer";
    status.textContent = "";
    play.textContent = "Play under this name";
    early = [];
    term.focus();  // the keys go to the game from the first one
    socket.onopen = () => {
      for (const bytes of early) current.send(bytes);
      early = [];
      if (document.activeElement !== nameBox) term.focus();
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") term.write(new Uint8Array(event.data));
    };
    socket.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      status.textContent = event.code === 1000 || event.code === 1013 || event.code === 1008
        ? "The game is over. Play again?" : "The connection was lost. Play again?";
      play.textContent = "Play again";
      // The terminal's game is over: the keys it had go to "Play again" (Enter or Space), not into nothing.
      const active = document.activeElement;
      if (!active || active === document.body || holder.contains(active)) play.focus();
    };
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    start();
  });
  // Where others see the name (a table, the lobby), a first visit asks it; everywhere else the game starts now,
  // unless another site led here: then the visitor says whether to play, and where is in the address bar.
  const asksName = location.pathname !== "/" && !nameBox.value;
  const ledHere = document.querySelector('meta[name="starts"]').content !== "now";
  if (asksName) {
    term.write("\r\n  War: choose the name the others will see, then press Enter or Play.\r\n");
    nameBox.focus();
  } else if (ledHere) {
    term.write("\r\n  War: a link from another page brought you here. Press Play to start.\r\n");
    status.textContent = "A link brought you here: nothing has started. Press Play to start.";
    play.focus();
  } else {
    start();
  }
})();
