// cardgen studio: follow the server's change events and bring the open page up to date.
// The server sends {version, games, changed} after every save; the page is then fetched again
// and only its parts that differ are swapped in place, so unchanged card pictures stay (their
// addresses carry the picture's version) and scrolling is kept.
(function () {
  "use strict";
  const body = document.body;
  const live = document.getElementById("live");
  let version = Number(body.dataset.version);
  let busy = false, again = false;

  // Children matched by id (else by tag and position) can be patched one by one when an
  // element holds only elements (no text of its own).
  function structural(el) {
    return el.children.length > 0 &&
      [...el.childNodes].every((n) => n.nodeType === 1 || (n.nodeType === 3 && !n.textContent.trim()));
  }
  const key = (el, i) => (el.id ? "#" + el.id : el.tagName + ":" + i);

  function syncAttributes(old, fresh) {
    for (const attr of [...old.attributes]) if (!fresh.hasAttribute(attr.name)) old.removeAttribute(attr.name);
    for (const attr of [...fresh.attributes]) if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
  }

  // Make `old` look like `fresh`, touching only what differs; returns the node now in the page.
  function patch(old, fresh) {
    if (old.isEqualNode(fresh)) return old;
    const leaf = !old.children.length && !fresh.children.length;
    if (old.tagName === fresh.tagName && leaf && old.textContent === fresh.textContent) {
      syncAttributes(old, fresh); // a picture whose address changed: the same element loads the new one
      return old;
    }
    if (old.tagName !== fresh.tagName || !structural(old) || !structural(fresh)) {
      const node = document.importNode(fresh, true);
      old.replaceWith(node);
      return node;
    }
    syncAttributes(old, fresh);
    const mine = new Map([...old.children].map((el, i) => [key(el, i), el]));
    const kids = [...fresh.children].map((el, i) => {
      const match = mine.get(key(el, i));
      mine.delete(key(el, i));
      return match ? patch(match, el) : document.importNode(el, true);
    });
    for (const gone of mine.values()) gone.remove();
    kids.forEach((el, i) => { if (old.children[i] !== el) old.insertBefore(el, old.children[i] || null); });
    return old;
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(location.href, { cache: "no-store" });
      const html = await response.text();
      const doc = new DOMParser().parseFromString(html, "text/html");
      const main = doc.getElementById("main");
      if (main) {
        patch(document.getElementById("main"), main);
        patch(document.getElementById("games"), doc.getElementById("games"));
        document.title = doc.title;
        version = Number(doc.body.dataset.version);
        body.dataset.version = String(version);
      }
    } catch (error) {
      console.warn("studio: refresh failed", error);
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  function connect() {
    const events = new EventSource("/events");
    events.addEventListener("hello", (e) => {
      live.classList.remove("off");
      if (JSON.parse(e.data).version !== version) refresh(); // changes made while disconnected
    });
    // any change may touch this page (another game's problems show in the menu): ask again
    events.addEventListener("update", () => refresh());
    events.onerror = () => { live.classList.add("off"); };
  }
  connect();

  // the colour-vision switch: kept across pages (and live updates, which patch only <main>)
  const vision = document.getElementById("vision");
  if (vision) {
    let saved = "";
    try { saved = localStorage.getItem("cardgen-vision") || ""; } catch (error) { /* storage off */ }
    vision.value = saved;
    body.dataset.vision = vision.value;
    vision.addEventListener("change", () => {
      body.dataset.vision = vision.value;
      try { localStorage.setItem("cardgen-vision", vision.value); } catch (error) { /* storage off */ }
    });
  }
})();
