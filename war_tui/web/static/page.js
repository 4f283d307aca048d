// The web door's page: plays the game in xterm.js over one websocket, the keyboard's focus on the terminal
// (Shift+Tab leaves it) while a game runs, on "Play again" once it has ended.
// A solo game, or any place once this browser remembers a name, starts as the page opens; a table or the
// lobby first asks the name the others will see. The name box stays: a new name there plays again under it.
// A page another site led to (the server says so in <meta name="starts">) starts nothing until Play.
// The font's size is chosen so the board gets its 40x12 cells at least (a phone, upright or sideways); on a
// touch screen a tap on the board flips and a bar of buttons sends the other keys.
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

  const fitNotice = document.getElementById("fit");
  const FONT_SIZE = 15;  // px: the usual size, where the window has room for it
  const SMALLEST_FONT_SIZE = 8;  // px: smaller is not read on a phone
  const BOARD_COLS = 40, BOARD_ROWS = 12;  // the game's compact layout; below it, the game only asks for room
  // A touch screen: a tap flips and the key bar's buttons are the keys, and the terminal takes no focus of its
  // own (on a phone the focus brings up a keyboard that covers the board).
  const touch = window.matchMedia("(pointer: coarse)");

  let socket = null;
  const term = new Terminal({
    cursorBlink: false,
    fontFamily: "DejaVu Sans Mono, Menlo, Consolas, monospace",
    fontSize: FONT_SIZE,
    scrollback: 0,
    allowProposedApi: false,
  });
  // Shift+Tab is the browser's, not the game's: the keyboard leaves the terminal for the page (its links and
  // the name box) as from any other field. Every other key, Tab too, goes to the game.
  term.attachCustomKeyEventHandler((event) => !(event.key === "Tab" && event.shiftKey));
  const fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(holder);
  fitBoard();
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
  // The window turning or resizing, the bar above or the key bar below growing or shrinking.
  new ResizeObserver(() => fitBoard()).observe(holder);

  // The largest font size, of the usual one and the smaller ones still readable, at which the board gets the
  // cells it needs; where none does, the page says what to do (turn the phone, or the plain-text page), as the
  // game's own notice ("enlarge the terminal") cannot: a browser's player has no terminal to enlarge.
  function fitBoard() {
    let fits = false;
    for (let size = FONT_SIZE; size >= SMALLEST_FONT_SIZE && !fits; size--) {
      if (term.options.fontSize !== size) term.options.fontSize = size;
      const proposed = fit.proposeDimensions();
      fits = !proposed || (proposed.cols >= BOARD_COLS && proposed.rows >= BOARD_ROWS);
    }
    fit.fit();
    const upright = window.innerHeight > window.innerWidth;
    fitNotice.hidden = fits;
    fitNotice.textContent = fits ? "" : upright
      ? "Turn your phone sideways: the board needs 40 characters by 12 lines."
      : "The board needs 40 characters by 12 lines: make the window larger, or play in plain text (the first link).";
  }

  function sendKey(key) {
    send(encoder.encode(key));
  }
  function focusGame() {
    if (!touch.matches) term.focus();
    else if (document.activeElement === nameBox) nameBox.blur();  // the phone's keyboard goes: the board shows
  }

  // Which page this is: its key bar shows the keys of that place (a table's emotes, a spectator's seat...).
  const place = location.pathname === "/" ? "solo" : location.pathname === "/tables" ? "lobby"
    : location.pathname.startsWith("/watch/") ? "watch" : location.pathname.startsWith("/replay/") ? "replay"
    : location.pathname === "/tv" ? "tv" : "table";
  const keyBar = document.getElementById("keys");
  const emotes = document.getElementById("emotes");
  const emote = document.getElementById("emote");
  for (const button of keyBar.querySelectorAll("[data-places]")) {
    button.hidden = !button.dataset.places.split(" ").includes(place);
  }
  function showEmotes(shown) {
    emotes.hidden = !shown;
    emote.setAttribute("aria-expanded", String(shown));
  }
  // A button of the bar leaves the keyboard's focus where it was (on the game), and sends its key.
  keyBar.addEventListener("mousedown", (event) => event.preventDefault());
  keyBar.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button === emote) {
      showEmotes(emotes.hidden);
      return;
    }
    if (button.dataset.key === undefined) return;
    sendKey(button.dataset.key);
    if (emotes.contains(button)) showEmotes(false);
  });

  // A tap on the board flips, as space does (in the lobby a tap is the game's click: it picks a table).
  // A finger that moves or stays is not a tap; a tap's emulated mouse click is cancelled, so it flips once.
  const TAP_SLOP = 12;  // px a finger may drift in a tap
  const TAP_MS = 500;  // longer is a press, not a tap
  let tap = null;
  holder.addEventListener("touchstart", (event) => {
    const finger = event.touches.length === 1 ? event.touches[0] : null;
    tap = finger && { x: finger.clientX, y: finger.clientY, at: event.timeStamp };
  }, { capture: true, passive: true });
  holder.addEventListener("touchmove", (event) => {
    const finger = event.touches[0];
    if (tap && finger && Math.hypot(finger.clientX - tap.x, finger.clientY - tap.y) > TAP_SLOP) tap = null;
  }, { capture: true, passive: true });
  holder.addEventListener("touchend", (event) => {
    const wasTap = tap && event.timeStamp - tap.at < TAP_MS && event.touches.length === 0;
    tap = null;
    if (!wasTap || place === "lobby" || !socket) return;
    event.preventDefault();
    sendKey(" ");
  }, { capture: true, passive: false });

  // On a touch screen the terminal waits for a keyboard to be used: a tablet's keyboard, once typed on,
  // has the focus on the game as a computer's has.
  document.addEventListener("keydown", () => {
    if (socket && (document.activeElement === document.body || !document.activeElement)) term.focus();
  }, { capture: true });

  function start() {
    const name = nameBox.value.trim();
    if (name) localStorage.setItem("war-tui-name", name);
    if (socket) {  // a new name: this game ends, the next one starts under it
      socket.onclose = socket.onmessage = null;
      socket.close(1000);
    }
    status.textContent = "";
    play.textContent = "Play under this name";  // the bar above takes its height before the board is fitted
    fitBoard();
    term.reset();
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // A replay's battle is the address's #b=N: the game opens there (/ws/replay/ID@N).
    const battle = place === "replay" ? /^#b=([0-9]{1,7})$/.exec(location.hash) : null;
    const path = (location.pathname === "/" ? "" : location.pathname) + (battle ? "@" + battle[1] : "");
    const query = new URLSearchParams({ name: name, cols: term.cols, rows: term.rows });
    const current = socket = new WebSocket(scheme + "//" + location.host + "/ws" + path + "?" + query);
    socket.binaryType = "arraybuffer";
    early = [];
    focusGame();  // the keys go to the game from the first one
    socket.onopen = () => {
      // The size may have changed while the socket opened (the page still laying out, a phone turning).
      current.send(term.cols + " " + term.rows);
      for (const bytes of early) current.send(bytes);
      early = [];
      if (document.activeElement !== nameBox) focusGame();
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
  const asksName = location.pathname !== "/" && place !== "replay" && !nameBox.value;  // a replay shows no name
  const ledHere = document.querySelector('meta[name="starts"]').content !== "now";
  if (asksName) {
    term.write("\r\n  War: choose the name the others\r\n  will see, then press Enter or Play.\r\n");  // 40 columns
    nameBox.focus();
  } else if (ledHere) {
    term.write("\r\n  War: a link from another page brought\r\n  you here. Press Play to start.\r\n");
    status.textContent = "A link brought you here: nothing has started. Press Play to start.";
    play.focus();
  } else {
    start();
  }
})();
