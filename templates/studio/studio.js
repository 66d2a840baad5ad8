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

  // Both have children and every child has an id: patch child by child.
  function sameKeys(a, b) {
    if (!a.children.length || !b.children.length) return false;
    return [...a.children, ...b.children].every((el) => el.id);
  }

  // Make `old` look like `fresh`: children matched by id are patched one by one, anything else replaced.
  function patch(old, fresh) {
    if (old.outerHTML === fresh.outerHTML) return;
    if (old.tagName !== fresh.tagName || !sameKeys(old, fresh)) {
      old.replaceWith(document.importNode(fresh, true));
      return;
    }
    for (const attr of [...old.attributes]) if (!fresh.hasAttribute(attr.name)) old.removeAttribute(attr.name);
    for (const attr of [...fresh.attributes]) if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
    const byId = new Map([...old.children].map((el) => [el.id, el]));
    const kids = [...fresh.children].map((el) => {
      const mine = byId.get(el.id);
      if (mine) { patch(mine, el); return document.getElementById(el.id) || mine; }
      return document.importNode(el, true);
    });
    kids.forEach((el, i) => { if (old.children[i] !== el) old.insertBefore(el, old.children[i] || null); });
    while (old.children.length > kids.length) old.lastElementChild.remove();
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
})();
